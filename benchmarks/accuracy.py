"""Estimator accuracy against measured llama.cpp runs, overall and per hardware class.

Run: python3 benchmarks/accuracy.py           (score the calibrations of data/estimator.yaml)
     python3 benchmarks/accuracy.py --offload (also score offload runs, part of the model in RAM,
                                               and print the fitted RAM constants of data/ram.yaml)
     python3 benchmarks/accuracy.py --fit     (also refit the ``measured`` constants and print
                                               them as YAML to paste into data/estimator.yaml)
     python3 benchmarks/accuracy.py --verdicts (only the verdicts: runs that happened the estimator
                                               denies, reported out-of-memory failures it accepts,
                                               before and after the memory budget, and the (model,
                                               device) pairs it moves; benchmarks/verdicts.py)

Data: data/measured/llama-cpp.tsv (each run with its source), read through tps_atlas/measured/runs.py
and tps_atlas/measured/accuracy.py: runs on one GPU with everything on it, on a catalogue card, at a quant
whose bits per weight are known. Decode (tg) runs are scored at their mean context depth.

It prints, for each calibration, the error of its estimates on every run (|estimate / measured
- 1|: median, 90th percentile, share inside the shown range); for ``measured`` the
leave-one-device-out errors (each chip predicted by classes fitted without it), overall, per
class and per class and backend, and for prompt processing. The last line is key=value.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tps_atlas.measured.accuracy import (accuracy, estimates, fit_all, grouped, leave_one_device_out,  # noqa: E402
                                         class_name, score, suggested_range)
from tps_atlas.measured.fitting import load_rows  # noqa: E402
from tps_atlas.estimate.settings import load_settings  # noqa: E402
from tps_atlas.measured.runs import MEASURED_FILE  # noqa: E402


def fitted_yaml(calibration, kv: float, overhead: float, ranges: dict) -> str:
    lines = [f"    overhead_ms: {overhead:.2f}", f"    kv_read_factor: {kv:.2f}",
             f"    prompt_moe_factor: {calibration.prompt_moe_factor:.2f}", "    classes:"]
    for c in calibration.classes:
        keys = [f"name: {c.name}"]
        if c.vendors:
            keys.append(f"vendors: [{', '.join(c.vendors)}]")
        if c.architectures:
            keys.append(f"architectures: [{', '.join(c.architectures)}]")
        if c.memory_types:
            keys.append(f"memory_types: [{', '.join(c.memory_types)}]")
        if c.group:
            keys.append(f"group: {c.group}")
        if c.backend:
            keys.append(f"backend: {c.backend}")
        low, high = ranges[c.name]
        factors = "".join(f"{name}: {{{', '.join(f'{k}: {v:.2f}' for k, v in sorted(values.items()))}}}, "
                          for name, values in (("backend_factors", c.backend_factors),
                                               ("quant_factors", c.quant_factors)) if values)
        lines.append("      - {" + ", ".join(keys) + ",\n         "
                     f"efficiency: {c.efficiency:.3f}, overhead_ms: {c.overhead_ms:.2f}, {factors}"
                     f"prompt_efficiency: {c.prompt_efficiency:.3f}, "
                     f"prompt_flop_per_byte: {c.prompt_flop_per_byte:.1f}, "
                     f"prompt_kv_flop_per_byte: {c.prompt_kv_flop_per_byte:.1f}, "
                     f"range: {{low: {low:.2f}, high: {high:.2f}}}}}")
    return "\n".join(lines)


def offload_report() -> dict[str, float]:
    """Offload runs, each placed as its flags placed it, on its RAM, one line per run."""
    from tps_atlas.estimate.offload import load_ram
    from dataclasses import replace

    from tps_atlas.measured.offload_accuracy import estimate_run, fit, median_error, score

    ram = load_ram()
    summary: dict[str, float] = {}
    for test, label in (("tg", "decode"), ("pp", "prompt")):
        pairs, left = score(ram, test)
        print(f"\noffload {label} (RAM efficiency {ram.efficiency:.2f}, PCIe {ram.pcie_gb_s:g} GB/s):")
        for p in pairs:
            r = p.item.run
            kind = p.item.kind.id if p.item.kind else "-"
            print(f"  {r.card:24} {r.model_name[:28]:28} {r.offload:13} {kind:14} {r.test}{r.tokens}@{r.depth:<5} "
                  f"measured {r.tok_s:7.2f}  estimated {p.estimate:7.2f}  error {p.error:5.0%}")
        slowest = min(ram.kinds, key=lambda k: k.bandwidth_gb_s)
        for item in left:
            r = item.run
            note = ""
            if item.why_not == "RAM kind not stated":
                # What the slowest RAM we know would give: shows how far off such a run is.
                note = f"; at {slowest.id}: {estimate_run(replace(item, kind=slowest), ram).estimate:.2f}"
            print(f"  {r.card:24} {r.model_name[:28]:28} {r.offload:13} not scored: {item.why_not} "
                  f"({item.ram_text}), measured {r.tok_s:.2f}{note}")
        inside = sum(ram.range_low <= p.measured / p.estimate <= ram.range_high for p in pairs)
        print(f"  median error {median_error(pairs):.0%} on {len(pairs)} runs; {inside} inside the range")
        summary |= {f"offload_{label}_median": median_error(pairs), f"offload_{label}_runs": len(pairs)}
    fitted = fit(ram)
    print(f"  fitted: efficiency: {fitted.efficiency:.2f}, pcie_gb_s: {fitted.pcie_gb_s:.1f} (data/ram.yaml)")
    return summary


# Held-out decode runs listed worst first: the p90 tail, to read for mislabelled rows.
WORST = 15


def run_kind(pair) -> str:
    """'MoE' or 'dense', and whether the run starts at an empty context ('d0') or at depth ('depth')."""
    run = pair.row.run
    return f"{'MoE' if run.is_moe else 'dense'} {'depth' if run.depth else 'd0'}"


LONG_PROMPT = 512  # llama-bench's default pp length: longer prompts (or at depth) attend to more cache


def prompt_kind(pair) -> str:
    run = pair.row.run
    return f"prompt {'MoE' if run.is_moe else 'dense'} {'long' if run.depth or run.tokens > LONG_PROMPT else 'pp512'}"


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="refit the measured constants and print them")
    parser.add_argument("--offload", action="store_true", help="score offload runs (part of the model in RAM)")
    parser.add_argument("--verdicts", action="store_true",
                        help="only count denied runs and accepted failures (benchmarks/verdicts.py)")
    args = parser.parse_args(argv)
    if args.verdicts:
        from verdicts import verdict_report  # benchmarks/verdicts.py, beside this file

        summary = verdict_report()
        print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))
        return summary
    settings = load_settings()
    tg, skipped_tg = load_rows("tg")
    pp, skipped_pp = load_rows("pp")
    print(f"measurements: {MEASURED_FILE.relative_to(ROOT)}; decode runs used: {len(tg)} on "
          f"{len({r.chip for r in tg})} devices; prompt runs used: {len(pp)}; left out (no card or quant): "
          f"{len(skipped_tg) + len(skipped_pp)}")
    summary: dict[str, float] = {}
    for name, calibration in settings.calibrations.items():
        # The seed formula knows only its own quants.
        s = score(estimates([r for r in tg if calibration.classes or r.quant.name in calibration.quant_efficiency],
                            calibration))
        print(f"{name:9} in-sample decode: {s.line()}")
        summary |= {f"{name}_median": s.median, f"{name}_p90": s.p90, f"{name}_inside": s.inside}
    measured = settings.calibration("measured")
    result = accuracy("measured")
    print("\nmeasured, leave one device out (decode):")
    print(f"  {'overall':28} {result.overall.line()}")
    for key, s in result.by_class.items():
        print(f"  {key:28} {s.line()}")
    print("\nper class and backend:")
    for (key, backend), s in result.by_class_backend.items():
        print(f"  {key + ' ' + backend:28} {s.line()}")
    print("\nby model kind and depth (a mixture of experts reads its active parameters; depth > 0: "
          "llama-bench -d or a filled context):")
    for kind in (lambda p: run_kind(p).split()[0], lambda p: "depth > 0" if p.row.run.depth else "depth 0", run_kind):
        for key, s in grouped(result.pairs, kind).items():
            print(f"  {key:28} {s.line()}")
    print("\nworst held-out decode runs (data/measured/llama-cpp.tsv line):")
    for pair in sorted(result.pairs, key=lambda p: -p.error)[:WORST]:
        r = pair.row
        print(f"  {pair.error:5.0%} line {r.run.line:4d} {class_name(pair, measured):16} {r.chip[:24]:24} "
              f"{r.run.backend:6} {r.run.model_name[:30]:30} {r.quant.name:7} d{r.run.depth:<5d} {run_kind(pair):10} "
              f"measured {r.measured:7.1f}  estimated {pair.estimate:7.1f}")
    if result.prompt:
        print("\nprompt processing, leave one device out (range: the class's decode range):")
        print(f"  {'overall':28} {result.prompt.line()}")
        for key, s in result.prompt_by_class.items():
            print(f"  {key:28} {s.line()}")
        print(f"  by model kind and prompt (MoE factor {measured.prompt_moe_factor:.2f}; long: a prompt of more than "
              f"{LONG_PROMPT} tokens or at depth):")
        for kind in (lambda p: "prompt " + run_kind(p).split()[0], prompt_kind):
            for key, s in grouped(result.prompt_pairs, kind).items():
                print(f"  {key:28} {s.line()}")
        summary |= {"prompt_median": result.prompt.median, "prompt_p90": result.prompt.p90,
                    "prompt_runs": result.prompt.runs}
    summary |= {"runs": result.overall.runs, "devices": result.overall.devices,
                "logo_median": result.overall.median, "logo_p90": result.overall.p90,
                "logo_inside": result.overall.inside,
                "worst_class_median": max(s.median for s in result.by_class.values())}
    if args.fit:
        kv, overhead, fitted = fit_all(tg, pp, measured)
        tg_pairs, _ = leave_one_device_out(tg, pp, fitted, overhead)
        by_class: dict[str, list] = {}
        for pair in tg_pairs:
            by_class.setdefault(class_name(pair, fitted), []).append(pair)
        ranges = {}
        for c in fitted.classes:
            # A class without runs borrows its vendor's errors (everyone's if none), widened by half.
            vendor = [p for p in tg_pairs if not c.vendors or p.row.card.vendor in c.vendors]
            ranges[c.name] = (suggested_range(by_class[c.name]) if c.name in by_class else
                              suggested_range(vendor or tg_pairs, 1.5))
        print("\nfitted (paste under calibrations.measured in data/estimator.yaml):")
        print(fitted_yaml(fitted, kv, overhead, ranges))
        refit = grouped(tg_pairs, lambda p: "all")["all"]
        print(f"refit, leave one device out: {refit.line()}")
    if args.offload:
        summary |= offload_report()
    summary |= mixed_report()
    print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))
    return summary


def mixed_report() -> dict[str, float]:
    """Machines of different GPUs (data/measured/mixed-cards.tsv), each run on its cards and split."""
    from tps_atlas.measured.mixed_accuracy import fit_handoff, median_error, score_mixed
    from tps_atlas.measured.mixed_runs import MIXED_FILE

    settings = load_settings()
    assert settings.machine is not None
    pairs = score_mixed(settings)
    scored = [p for p in pairs if p.estimate is not None]
    print(f"\nmixed cards ({MIXED_FILE.relative_to(ROOT)}; handoff {settings.machine.handoff_ms:g} ms per card "
          "past the first):")
    for p in pairs:
        r = p.run
        split = ",".join(f"{v:g}" for v in r.tensor_split) if r.tensor_split else "default"
        head = f"  {' + '.join(r.cards)[:58]:58} {r.model[:26]:26} {r.quant or '-':7} {split:7}"
        if p.estimate is None:
            print(f"{head} measured {r.tok_s:7.2f}  not scored: {p.why_not}")
        else:
            print(f"{head} measured {r.tok_s:7.2f}  estimated {p.estimate:7.2f}  error {p.error:5.0%}")
    inside = sum(p.inside for p in scored)
    print(f"  median |error| {median_error(scored):.1%} on {len(scored)} layer-split runs "
          f"({len(pairs) - len(scored)} listed, not scored); {inside} inside the shown range")
    print("  sources: " + ", ".join(sorted({p.run.source for p in pairs})))
    best, error = fit_handoff(settings)
    print(f"  fitted: handoff_ms {best:g} (median |error| {error:.1%}; data/estimator.yaml machine.handoff_ms)")
    return {"mixed_median": median_error(scored), "mixed_runs": len(scored),
            "mixed_inside": inside / len(scored) if scored else 0.0}


if __name__ == "__main__":
    main()
