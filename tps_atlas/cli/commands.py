"""The sub-commands of tps-atlas: each takes the parsed arguments and prints its answer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Sequence

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model, read_model
from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.errors import DataError
from tps_atlas.estimate.settings import load_settings
from tps_atlas.catalogue.quants import Quant
from tps_atlas.pages.figures import model_figures
from tps_atlas.measured.runs import MeasuredIndex, load_runs
from tps_atlas.estimate.offload import load_ram
from tps_atlas.cli.output import card_json, context_warnings, figures_json, number, print_figures, table
from tps_atlas.pages.figures import estimate_table


def command_models(args) -> None:
    catalogue = load_catalogue()
    settings = load_settings()
    figures = estimate_table(catalogue, settings, settings.calibration().name).figures  # the pages' own table
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
    if args.cards is not None:
        from tps_atlas.cli.machine_output import command_machine

        assert system is not None
        return command_machine(args, model, catalogue, settings, calibration, system, ram)
    if args.os is not None:
        raise DataError("command line", "--os", "--cards as well (the OS of a machine)", args.os)
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
    from tps_atlas.paths import DATA_DIR
    from tps_atlas.catalogue.check import check_catalogue, licence_problems, model_gaps, print_report
    from tps_atlas.records.licences import licence_names

    path = DATA_DIR / "gpu-corrections.yaml"
    catalogue = load_catalogue()
    report = check_catalogue(catalogue.cards, path)
    print_report(report, "data/gpu-corrections.yaml")
    gaps = model_gaps(catalogue.models)
    for line in gaps:
        print(line)
    if gaps:
        print(f"{len(gaps)} gaps in drafted model records")
    unnamed = licence_problems(catalogue.models, licence_names())
    for line in unnamed:
        print(line)
    return 0 if report.ok and not gaps and not unnamed else 1


def command_add_model(args) -> int:
    from tps_atlas.catalogue.model_draft import write_draft

    written = write_draft(Path(args.config), Path(args.card) if args.card else None, args.id, args.name,
                          Path(args.models_dir) if args.models_dir else None, args.force)
    print(f"wrote {written}: check it, fill its gaps (tps-atlas catalogue check lists them)")
    return 0


def command_add_device(args) -> int:
    from tps_atlas.catalogue.device_draft import add_device

    entry = {"id": args.id, "name": args.name, "chip": args.chip, "aliases": args.alias or [],
             "vendor": args.vendor, "kind": args.kind, "vram_gb": args.vram_gb,
             "system_memory_gb": args.system_memory_gb, "usable_share": args.usable_share,
             "raise": args.raise_method, "bandwidth_gb_s": args.bandwidth_gb_s, "released": args.released,
             "memory_type": args.memory_type, "architecture": args.architecture, "source": args.source}
    path = add_device(entry, Path(args.devices_file) if args.devices_file else None)
    print(f"added {args.id} to {path}")
    return 0


def command_catalogue_snapshot(args) -> int:
    """Write the published answers (data/published-answers.tsv) the build compares its answers with."""
    from tps_atlas.pages.moved import SNAPSHOT, answers_of, read_snapshot, write_snapshot

    path = Path(args.out) if args.out else SNAPSHOT
    settings = load_settings()
    calibration = settings.calibration(None).name
    catalogue = load_catalogue().for_calibration(calibration)
    table = estimate_table(catalogue, settings, calibration)
    write_snapshot(path, answers_of(table, catalogue.models, catalogue.cards), [c.id for c in catalogue.cards])
    read_snapshot(path)  # what the build will read back
    print(f"{path}: the answers of {len(catalogue.models)} models on {len(catalogue.cards)} devices "
          f"({calibration} calibration)")
    return 0
