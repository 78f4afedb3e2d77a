"""``tps-atlas estimate MODEL --cards ID,ID[,…]``: the verdict for one machine, for a reader or as JSON.

The same verdict record the pages word (``estimate/machine_verdict.py``); nothing is decided here.
"""

from __future__ import annotations

import sys

from tps_atlas.catalogue.load import Catalogue
from tps_atlas.catalogue.models import Model
from tps_atlas.cli.output import rounded, verdict_json
from tps_atlas.errors import DataError
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.machine import Machine, MachineFit, MachineOffload, make_machine
from tps_atlas.estimate.machine_verdict import machine_link, machine_verdict, verdict_command
from tps_atlas.estimate.offload import OffloadEstimate, RamSettings, System
from tps_atlas.estimate.settings import Settings
from tps_atlas.estimate.verdict import Fits, NoRun, Offload, Verdict
from tps_atlas.measured.mixed_runs import MixedRun, find_mixed_run, load_mixed_runs


def machine_from_options(cards_text: str, system: System, os_name: str | None, catalogue: Catalogue,
                         settings: Settings) -> Machine:
    """``--cards`` and ``--os`` as a machine; a bad value is one DataError naming the option."""
    limits = settings.machine
    assert limits is not None
    ids = [c.strip() for c in cards_text.split(",")]
    if len(cards_text) > 400 or not 1 <= len(ids) <= limits.max_cards:
        raise DataError("command line", "--cards", f"1 to {limits.max_cards} GPU ids, comma-separated",
                        cards_text[:60])
    cards = []
    for card_id in ids:
        if card_id not in catalogue.cards_by_id:
            raise DataError("command line", "--cards", "GPU ids of the catalogue (see tps-atlas cards)", card_id)
        cards.append(catalogue.cards_by_id[card_id])
    if os_name is not None and os_name not in limits.os_ids:
        raise DataError("command line", "--os", "one of " + ", ".join(limits.os_ids), os_name)
    return make_machine(cards, system, limits.os_budget(os_name), limits)


def machine_measured(model: Model, machine: Machine, v: Verdict) -> MixedRun | None:
    if isinstance(v, (Fits, Offload)) and len(machine.cards) > 1 and v.estimate.fit != "offload":
        return find_mixed_run(load_mixed_runs(), machine.ids, model.id, v.estimate.quant.name)
    return None


def machine_json(model: Model, machine: Machine, v: Verdict, context: int, kv_precision: str | None,
                 ram: RamSettings, settings: Settings) -> dict:
    out = verdict_json(v, model, context, kv_precision)
    out.update(model=model.id, context=context, command=verdict_command(model, v, context, kv_precision),
               machine={"cards": [{"card": c.name, "card_id": c.id, "vram_gb": c.vram_gb} for c in machine.cards],
                        "ram_gb": machine.system.size_gb, "ram_kind": machine.system.kind.id,
                        "os": machine.os.id, "link": machine_link(machine, ram, settings)})
    if isinstance(v, (Fits, Offload)):
        e = v.estimate
        out.update(tok_s=rounded(e.tok_s), tok_s_low=rounded(e.tok_s_low), tok_s_high=rounded(e.tok_s_high),
                   need_gb=rounded(e.need_gb), fit=e.fit, prompt_tok_s=rounded(e.prompt_tok_s, 1),
                   main_gpu=getattr(e, "main_gpu", 0))
        if isinstance(e, (MachineFit, MachineOffload)):
            out["split"] = [{"card_id": s.card.id, "layers": s.layers, "used_gb": rounded(s.used_gb),
                             "budget_gb": rounded(s.budget_gb), "ms": rounded(s.ms, 3)} for s in e.shares]
            out["tensor_split"] = list(e.tensor_split)
        if isinstance(e, OffloadEstimate):
            p = e.placement
            out.update(ram_gb=rounded(p.ram_gb), n_cpu_moe=p.cpu_layers if p.mode == "experts" else None,
                       ngl=p.gpu_layers if p.mode == "layers" else None)
    run = machine_measured(model, machine, v)
    out["measured"] = {"tok_s": run.tok_s, "devices": run.devices, "date": run.date, "source": run.source,
                       "tensor_split": list(run.tensor_split) if run.tensor_split else None} if run else None
    return out


def print_machine(model: Model, machine: Machine, v: Verdict, context: int, kv_precision: str | None,
                  calibration: Calibration) -> None:
    # Memory in the pages' unit: GiB under the memory budget, as VRAM and RAM are sold.
    unit, gb_per_unit = calibration.memory_unit

    def memory(gb: float) -> str:
        return f"{gb / gb_per_unit:.1f}"

    ram = f"{machine.system.size_gb:g} {unit} of {machine.system.kind.name}, {machine.os.name}"
    print(f"{model.name} on {machine.name} ({ram}; context {context:,} tokens)")
    if isinstance(v, NoRun):
        s = v.shortfall
        print(f"does not run ({v.reason.value}): the cards hold {memory(s.usable_gb)} {unit}, it needs "
              f"{memory(s.need_gb)} {unit} at {s.quant_name}")
        return
    e = v.estimate
    where = "with part in RAM" if isinstance(v, Offload) else f"entirely on the cards ({e.fit})"
    print(f"runs {where}: {e.quant.name}, {e.tok_s:.1f} tok/s ({e.tok_s_low:.0f}-{e.tok_s_high:.0f}), "
          f"needs {memory(e.need_gb)} {unit}")
    for share in getattr(e, "shares", ()):
        print(f"  {share.card.name}: {share.layers} layers, {memory(share.used_gb)} of {memory(share.budget_gb)} "
              f"{unit}, "
              f"{share.ms:.2f} ms a token")
    run = machine_measured(model, machine, v)
    if run:
        print(f"measured: {run.tok_s:g} tok/s on {run.devices} ({run.date}, {run.source})")
    print(verdict_command(model, v, context, kv_precision))


def command_machine(args, model: Model, catalogue: Catalogue, settings: Settings, calibration: Calibration,
                    system: System, ram: RamSettings) -> None:
    import json

    machine = machine_from_options(args.cards, system, args.os, catalogue, settings)
    context = args.context or settings.context_tokens
    v = machine_verdict(model, machine, settings, calibration, context, args.min_quality, args.quant, args.kv_cache,
                        args.max_quality, ram)
    if args.json:
        print(json.dumps(machine_json(model, machine, v, context, args.kv_cache, ram, settings),
                         ensure_ascii=False, indent=2))
    else:
        print_machine(model, machine, v, context, args.kv_cache, calibration)
    sys.stdout.flush()
