"""Contexts of the browse pages (home, models index, cards index) and the methodology page."""

from __future__ import annotations

from collections import defaultdict

from tps_atlas.measured.accuracy import estimates, score
from tps_atlas.measured.fitting import load_rows
from tps_atlas.measured.accuracy import shared_accuracy as accuracy
from tps_atlas.catalogue.load import Catalogue, Portal, newest_first
from tps_atlas.estimate.settings import Settings
from tps_atlas.pages.figures import FEW_DEVICES, EstimateTable, ModelFigures, Reach
from tps_atlas.records import vocabulary
from tps_atlas.i18n.names import NC_, memory_in_name, organisation_name
from tps_atlas.i18n.phrases import N_, NP_, Phrases
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.fit import uses_budget
from tps_atlas.estimate.budget import LOGIT_BYTES, UBATCH_TOKENS


def run_count(p: Phrases, fit: int, offload: int) -> str:
    """A count of what runs, naming both kinds where some run with part in RAM ("278: 45 entirely,
    233 with part in RAM"); the table it stands for lists as many rows."""
    f = p.fmt
    if not fit and not offload:
        # TRANSLATORS: the models index's column "Devices that run it", for a model that no device runs
        # (not even with part in RAM): a word, not a bare 0. Example: "none".
        return p.pgettext(*NC_("devices that run it", "none"))
    if not offload:
        return f.count(fit)
    # TRANSLATORS: a count in an index column ("Devices that run it", "Models it runs"); {count} is the
    # whole, {fit} and {offload} its two parts. Example: "278: 45 entirely, 233 with part in RAM".
    return str(p.t(N_("{count}: {fit} entirely, {offload} with part in RAM"), count=f.count(fit + offload),
                   fit=f.count(fit), offload=f.count(offload)))


def models_index(p: Phrases, catalogue: Catalogue, table: EstimateTable) -> list[dict]:
    f = p.fmt
    rows = []
    for model in newest_first(catalogue.models):
        fig = table.figures[model.id]
        rows.append({
            "id": model.id, "name": model.name,
            # An organisation's name as its catalogue entry gives it (Alibaba (équipe Qwen)).
            "organisation": f.names(str(organisation_name(o, p.language)) for o in model.organisations),
            "params": f.parameters_short(model.parameters_b), "params_value": model.parameters_b,
            "released": f.month(model.published) if model.published else "",
            "released_value": model.published.isoformat() if model.published else "",
            "fit": run_count(p, fig.cards_fit, fig.cards_offload), "fit_value": fig.cards_run,
            "fastest": fig.fastest.card.name if fig.fastest else "",
            "fastest_id": fig.fastest.card.id if fig.fastest else "",
            "fastest_tok_s": f.tok_s(fig.fastest.tok_s) if fig.fastest else "",
        })
    return rows


def cards_index(p: Phrases, catalogue: Catalogue, table: EstimateTable) -> list[dict]:
    """Cards grouped by vendor, then by memory size (largest first)."""
    f = p.fmt
    grouped: dict[str, dict[float, list]] = defaultdict(lambda: defaultdict(list))
    for card in catalogue.cards:
        grouped[card.vendor][card.vram_gb].append({"id": card.id, "name": card.name,
                                                   "aliases": " ".join(card.aliases),
                                                   "bandwidth": f.bandwidth(card.bandwidth_gb_s),
                                                   "runs": models_count(p, table, card.id)})
    return [{"vendor": vendor, "id": vendor.casefold(),
             "sizes": [{"label": f.vram(size), "cards": cards}
                       for size, cards in sorted(groups.items(), reverse=True)]}
            for vendor, groups in sorted(grouped.items())]


def models_count(p: Phrases, table: EstimateTable, card_id: str) -> str:
    """The models a card runs, for the cards index: both kinds, as its page lists them."""
    fit, offload = table.models_run(card_id), table.models_offload(card_id)
    if offload:
        # TRANSLATORS: the cards index, per card; {count} is the number of models it runs, {fit} those
        # entirely on it, {offload} those with part in system RAM. Example: '131 models: 108 entirely, 23 with
        # part in RAM'.
        return str(p.n(NP_("{count} model: {fit} entirely, {offload} with part in RAM",
                           "{count} models: {fit} entirely, {offload} with part in RAM"), fit + offload,
                       fit=p.fmt.count(fit), offload=p.fmt.count(offload)))
    # TRANSLATORS: {count} is a number of models (the cards index, per card). Example: '12 models'.
    return str(p.n(NP_("{count} model", "{count} models"), fit))


def reach_text(p: Phrases, fig: ModelFigures) -> str:
    """How many cards run a model, under its name on the home page: none and one have words of
    their own (French plural form 0 serves 0 and 1 alike: « sur 1 carte »)."""
    if fig.cards_offload and not fig.cards_fit:
        # TRANSLATORS: on the home page, under a model that no device holds entirely; {count} is the number
        # of devices that run it with part of it in system RAM. Example: 'runs on 3 devices, all with part in
        # RAM'.
        return str(p.n(NP_("runs on {count} device, with part of it in RAM",
                           "runs on {count} devices, all with part in RAM"), fig.cards_offload))
    if fig.cards_offload:
        # TRANSLATORS: on the home page, under a model; {count} is the number of devices (cards and machines)
        # that run it, {fit} those that hold it entirely, {offload} those that run it with part in RAM.
        # Example: 'runs on 278 devices: 45 entirely, 233 with part in RAM'.
        return str(p.n(NP_("runs on {count} device: {fit} entirely, {offload} with part in RAM",
                           "runs on {count} devices: {fit} entirely, {offload} with part in RAM"), fig.cards_run,
                       fit=p.fmt.count(fig.cards_fit), offload=p.fmt.count(fig.cards_offload)))
    if fig.reach is Reach.NONE:
        # TRANSLATORS: on the home page, under a model that no single device (card or machine) holds.
        return str(p.t(N_("runs on no single device")))
    if fig.reach is Reach.ONE:
        # TRANSLATORS: on the home page, under a model that exactly one device (card or machine) holds.
        return str(p.t(N_("runs on one device only")))
    # TRANSLATORS: on the home page, under a model; {count} is a number of devices (two or more). Example:
    # 'runs on 262 devices'.
    return str(p.n(NP_("runs on {count} device", "runs on {count} devices"), fig.cards_fit))


def runs_models(p: Phrases, table: EstimateTable, card_id: str) -> str:
    """Under a card on the home page: the models it runs, both kinds."""
    fit, offload = table.models_run(card_id), table.models_offload(card_id)
    if offload:
        # TRANSLATORS: on the home page, under a card; {count} is the number of models it runs, {fit} those
        # entirely on it, {offload} those with part in system RAM. Example: 'runs 131 models: 108 entirely, 23
        # with part in RAM'.
        return str(p.n(NP_("runs {count} model: {fit} entirely, {offload} with part in RAM",
                           "runs {count} models: {fit} entirely, {offload} with part in RAM"), fit + offload,
                       fit=p.fmt.count(fit), offload=p.fmt.count(offload)))
    # TRANSLATORS: on the home page, under a card; {count} is a number of models. Example: 'runs 40 models'.
    return str(p.n(NP_("runs {count} model", "runs {count} models"), fit))


def home(p: Phrases, catalogue: Catalogue, table: EstimateTable, portal: Portal) -> dict:
    f = p.fmt
    models = [{"id": m.id, "name": m.name, "params": f.parameters_short(m.parameters_b),
               "fit": reach_text(p, table.figures[m.id])}
              for m in portal.featured_models]
    # The size once: not beside a name that states it as sold ("GeForce RTX 3060 12 GB").
    cards = [{"id": c.id, "name": c.name, "vram": "" if memory_in_name(c) else f.vram(c.vram_gb),
              "runs": runs_models(p, table, c.id)}
             for c in portal.featured_cards]
    recent = [{"id": m.id, "name": m.name, "params": f.parameters_short(m.parameters_b),
               "released": f.month(m.published)}
              for m in newest_first(catalogue.models)[:portal.recent_models] if m.published]
    return {"models": models, "cards": cards, "recent": recent,
            # TRANSLATORS: the home page's summary; {models} and {cards} are counts. Example: 'All 109
            # open-weight models against all 829 graphics cards and machines: every pair worked out.'
            "counts": p.t(N_("All {models} open-weight models against all {cards} graphics cards and machines: "
                             "every pair worked out."), models=f.count(len(catalogue.models)),
                         cards=f.count(len(catalogue.cards)))}


def methodology(p: Phrases, settings: Settings, used: Calibration | None = None) -> dict:
    """The methodology page's figures; ``used`` is the calibration the site's pages use (its fit rule
    is the one the page describes)."""
    f = p.fmt
    budget = settings.budget if uses_budget(settings, used) else None
    calibrations, classes, by_backend = [], [], []
    prompt_score, prompt_moe = None, ""
    tg, _ = load_rows("tg")

    def scored(s) -> dict:
        return {"rows": f.count(s.runs), "devices": f.count(s.devices), "median": f.percent(s.median),
                "p90": f.percent(s.p90), "inside": f.percent(s.inside)}

    for calibration in settings.calibrations.values():
        result = accuracy(calibration.name)
        if result:
            s = result.overall
        else:
            s = score(estimates([r for r in tg if r.quant.name in calibration.quant_efficiency], calibration))
        factors = [(vendor, f.decimal(value, 3)) for vendor, value in calibration.vendor_factors.items()]
        factors += [(memory, f.decimal(value, 3)) for memory, value in calibration.memory_type_factors.items()]
        calibrations.append({
            "name": calibration.name, "default": calibration.name == settings.default_calibration,
            "label": p.term(vocabulary.CALIBRATIONS.get(calibration.name, calibration.name)),
            "classes": bool(calibration.classes), "factors": [] if calibration.classes else factors,
            # in the ladder's order, best quality first
            "quant_efficiency": [] if calibration.classes else
            [(q.name, f.decimal(calibration.quant_efficiency[q.name], 3)) for q in settings.quants
             if q.name in calibration.quant_efficiency],
            "overhead": f.decimal(calibration.overhead_ms, 2)
            if calibration.overhead_ms and not calibration.classes else "",
            "range": f"{f.decimal(calibration.range_low, 1)}× – {f.decimal(calibration.range_high, 1)}×"
            if not calibration.classes else "",
            "kv_factor": f.decimal(calibration.kv_read_factor, 2) if calibration.kv_read_factor else "",
            "logo": bool(result), **scored(s),
        })
        if result and calibration.name == settings.default_calibration:
            prompt_score = scored(result.prompt) if result.prompt else None
            prompt_moe = f.decimal(calibration.prompt_moe_factor, 2)
            for c in calibration.classes:
                own = result.by_class.get(c.name)
                classes.append({
                    "name": p.term(vocabulary.SPEED_CLASSES[c.name]),
                    "matches": ", ".join(c.architectures or c.memory_types or c.vendors),
                    "backend": c.backend or "",
                    "efficiency": f.percent(c.efficiency), "overhead": f.decimal(c.overhead_ms, 2),
                    "prompt": f.percent(c.prompt_efficiency),
                    "attention": f.decimal(c.prompt_kv_flop_per_byte, 1),
                    "prompt_median": f.percent(result.prompt_by_class[c.name].median)
                    if c.name in result.prompt_by_class else "",
                    "range": f"{f.decimal(c.range_low, 2)}× – {f.decimal(c.range_high, 2)}×",
                    "score": scored(own) if own else None})
            for (name, backend), s in result.by_class_backend.items():
                by_backend.append({"name": p.term(vocabulary.SPEED_CLASSES.get(name, name)), "backend": backend,
                                   **scored(s)})
    return {
        "fits": f.percent(settings.fits), "comfortable": f.percent(settings.comfortable),
        "context": f.count(settings.context_tokens), "floor": settings.min_quality,
        "ceiling": settings.max_quality,
        "buffer": f.gb(settings.compute_buffer_gb, 2),
        "kv_estimate": f.gb(settings.kv_estimate_gb_per_1k_tokens, 3),
        # In words as the model pages say it ("ten"), unless the setting has a fraction.
        "reading": f.count_words(int(settings.reading_speed_tok_s)) if settings.reading_speed_tok_s.is_integer()
        else f.decimal(settings.reading_speed_tok_s, 1),
        "quants": [(q.name, f.decimal(q.bits_per_weight, 2)) for q in settings.quants],
        "calibrations": calibrations,
        "classes": classes,
        "by_backend": by_backend,
        "prompt_score": prompt_score, "prompt_moe": prompt_moe,
        "shortfall_quant": settings.shortfall_quant,
        # The memory budget's constants, where the pages' calibration uses it.
        "budget": {"driver": f.gb(budget.driver_reserve_gb, 2), "display": f.gb(budget.display_reserve_gb, 2),
                   "buffer": f.gb(budget.buffer_base_gb, 2), "growth": f.gb(budget.buffer_per_1k_tokens_gb, 3),
                   "ubatch": f.count(UBATCH_TOKENS), "reference_vocab": f.count(budget.buffer_reference_vocab),
                   "logit_bytes": f.integer(UBATCH_TOKENS * LOGIT_BYTES),
                   "gib_bytes": f.integer(2 ** 30), "gb_bytes": f.integer(10 ** 9), "unit": f.unit("GiB"),
                   "decimal_unit": f.unit("GB"),
                   "sold": f.with_unit(f.integer(24), "GB"), "holds": f.vram(24)} if budget else None,
        "multi_counts": f.names(f.count(n) for n in settings.multi_gpu_counts),
        "few": f.count_words(FEW_DEVICES),
    }
