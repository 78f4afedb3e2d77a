"""The full specification of a model page (every recorded field, in groups) and its sources."""

from __future__ import annotations

from dataclasses import dataclass

from tps_atlas.records import vocabulary
from tps_atlas.catalogue.models import Model
from tps_atlas.i18n.names import organisation_name
from tps_atlas.i18n.phrases import N_, NP_, NPC_
from tps_atlas.pages.model.context import PageContext

# Values of the specification's fields: sentences in the table cells.
# TRANSLATORS: {active} and {total} are numbers of experts. Example: "8 of 256
# per token"
EXPERTS_PER_TOKEN = N_("{active} of {total} per token")
# TRANSLATORS: {amount} is a number of training tokens, in words from a
# billion up. Example: "14.8 trillion tokens"
TRAINING_TOKENS = N_("{amount} tokens")
# TRANSLATORS: {tokens} is a number of tokens (a batch size, a sliding
# window). Example: "4,096 tokens"
TOKENS = N_("{tokens} tokens")
# TRANSLATORS: {params} is the vision encoder's parameter count in words.
# Example: "400 million, loaded beside the model at F16"
VISION_ENCODER = N_("{params}, loaded beside the model at F16")
# TRANSLATORS: {quant} is the one format the weights ship in. Example:
# "MXFP4, the only format we rate it in"
NATIVE_FORMAT = N_("{quant}, the only format we rate it in")
# TRANSLATORS: {count} is a number of hours of training. Example: "1,440
# hours"
HOURS = NP_("{count} hour", "{count} hours")
# TRANSLATORS: {amount} is a cost in US dollars. Example: "820,297 US dollars"
US_DOLLARS = N_("{amount} US dollars")


class Label(str):
    """A field label already translated (one that depends on how many values follow)."""


@dataclass
class Group:
    title: str
    blurb: str
    fields: list[tuple[str, str]]


def groups(c: PageContext, m: Model) -> list[Group]:
    p, f = c.p, c.f
    g = p.gettext

    def keep(*pairs):
        return [(label if isinstance(label, Label) else g(label), value) for label, value in pairs
                if value not in (None, "", ())]

    def counted(forms: tuple[str, ...], items) -> Label:
        # A label over a list says "Task" over one task and "Tasks" over several.
        if len(forms) == 3:
            return Label(p.npgettext(forms, len(items)))
        return Label(p.catalogue.ngettext(forms[0], forms[1], len(items)))

    def yes_no(flag):
        return None if flag is None else g(N_("yes")) if flag else g(N_("no"))

    origin = keep(
        (counted(NPC_("specification", "Organisation", "Organisations"), m.organisations),
         f.names(str(organisation_name(o, p.language)) for o in m.organisations)),
        (counted(NP_("Organisation type", "Organisation types"), m.organisation_types),
         c.terms(vocabulary.ORGANISATION_TYPES, m.organisation_types)),
        (counted(NPC_("specification", "Country", "Countries"), m.countries),
         f.names(f.territory(c) for c in m.countries)),
        (N_("Published"), f.day(m.published) if m.published else None),
        (N_("Authors"), f.names(m.authors)),
    )
    purpose = keep(
        (counted(NP_("Domain", "Domains"), m.domains), c.terms(vocabulary.DOMAINS, m.domains)),
        (counted(NP_("Task", "Tasks"), m.tasks), c.terms(vocabulary.TASKS, m.tasks)),
        (N_("Base model"), m.base_model),
        (N_("Number format of the weights"), m.numerical_format),
    )
    size = keep(
        (N_("Parameters"), f.parameters(m.parameters_b)),
        (N_("Active parameters per token"), f.parameters(m.active_parameters_b) if m.active_parameters_b else None),
        (N_("Experts"), str(p.t(EXPERTS_PER_TOKEN, active=f.count(m.experts_active),
                                 total=f.count(m.experts_total))) if m.experts_total and m.experts_active else None),
        (N_("Training data"), str(p.t(TRAINING_TOKENS, amount=f.tokens(m.training_tokens)))
         if m.training_tokens else None),
        (N_("Epochs"), f.decimal(m.epochs, 0 if m.epochs.is_integer() else 1) if m.epochs else None),
        (N_("Batch size"), str(p.t(TOKENS, tokens=f.count(m.batch_size))) if m.batch_size else None),
        (N_("Vision encoder"), str(p.t(VISION_ENCODER,
                                       params=f.parameters(m.vision_encoder_b))) if m.vision_encoder_b else None),
        (N_("Format it ships in"), str(p.t(NATIVE_FORMAT, quant=m.native_format))
         if m.native_format else None),
    )
    arch = m.architecture
    if arch:
        size += keep(
            (N_("Layers"), f.count(arch.layers)),
            (N_("Attention"), p.term(vocabulary.ATTENTION_KINDS[arch.attention])),
            (N_("Key-value heads"), f.count(arch.kv_heads) if arch.kv_heads else None),
            (N_("Layers without a KV cache (linear attention)"),
             f.count(arch.linear_attention_layers) if arch.linear_attention_layers else None),
            (N_("Sliding window"), str(p.t(TOKENS, tokens=f.count(arch.sliding_window)))
             if arch.sliding_window else None),
        )
    compute = keep(
        (N_("Training compute"), f.flop(m.training_compute_flop) if m.training_compute_flop else None),
        (N_("How it was established"), c.terms(vocabulary.COMPUTE_METHODS, m.compute_methods)),
        (N_("Fine-tuning compute"), f.flop(m.finetune_compute_flop) if m.finetune_compute_flop else None),
        (N_("Training hardware"), m.training_hardware),
    )
    run = keep(
        (N_("Chips used"), f.count(m.chips) if m.chips else None),
        (N_("Chip-hours"), f.count(m.chip_hours) if m.chip_hours else None),
        (N_("Wall-clock time"), str(p.n(HOURS, round(m.wall_clock_hours)))
         if m.wall_clock_hours else None),
        (N_("Hardware utilisation"), " · ".join(x for x in (
            f"MFU {f.percent(m.mfu)}" if m.mfu else "", f"HFU {f.percent(m.hfu)}" if m.hfu else "") if x)),
        (N_("Power draw"), f"{f.decimal(m.power_kw, 1)} kW" if m.power_kw else None),
        (N_("Compute cost"), str(p.t(US_DOLLARS, amount=f.count(m.compute_cost_usd)))
         if m.compute_cost_usd else None),
    )
    availability = keep(
        (N_("Weights"), g(N_("open, downloadable")) if m.open_weights else g(N_("not published"))),
        (N_("Access"), p.term(vocabulary.ACCESS[m.access]) if m.access else None),
        (N_("Licence"), m.license),
        (N_("Training code"), p.term(vocabulary.TRAINING_CODE[m.training_code]) if m.training_code else None),
        (N_("Hugging Face"), m.huggingface),
    )
    classification = keep(
        (N_("Base model (not fine-tuned)"), yes_no(m.is_base_model)),
        (N_("Probably above 10²³ FLOP"), yes_no(m.above_1e23_flop)),
        (N_("Why it is tracked"), c.terms(vocabulary.WHY_TRACKED, m.why_tracked)),
        (N_("Confidence in the record"), p.term(vocabulary.CONFIDENCE[m.confidence]) if m.confidence else None),
        (N_("Citations"), f.count(m.citations) if m.citations is not None else None),
    )
    sources = keep(
        (N_("Reference"), m.reference.title if m.reference else None),
        (N_("Last updated"), f.day(m.last_updated) if m.last_updated else None),
    )
    groups = [
        (N_("Origin"), N_("Who built this model, where, and when it was published."), origin),
        (N_("What it does"), N_("The kinds of problem the model was built for. A model can have several."),
         purpose),
        (N_("Size"), N_("How large the model is and how much data it was trained on. The parameter count "
                        "decides whether it fits on a given device."), size),
        (N_("Training compute"), N_("The arithmetic done to train the model, in floating-point operations. It "
                                    "measures what the training cost, not how fast the finished model answers."),
         compute),
        (N_("The training run"), N_("What training took physically: which chips, how many, for how long, and "
                                    "how much power."), run),
        (N_("Availability"), N_("Whether you can get the model and run it on your own hardware, which decides "
                                "whether the figures on this page apply to you."), availability),
        (N_("Classification"), N_("Labels given by the dataset this record comes from, and how "
                                  "confident that dataset is of the entry."), classification),
        (N_("Sources"), N_("Where this record comes from and when it was last checked."), sources),
    ]
    return [Group(g(title), g(blurb), fields) for title, blurb, fields in groups if fields]


def source(c: PageContext, m: Model) -> list[tuple[str, str, str | None]]:
    g, f = c.p.gettext, c.f
    out = []
    if m.reference:
        out.append((g(N_("Original publication")), m.reference.title, m.reference.url))
    for s in m.sources:
        if not m.reference or s.title != m.reference.title:
            out.append((g(N_("Source")), s.title, s.url))
    if m.huggingface:
        out.append((g(N_("Hugging Face")), m.huggingface, m.huggingface_url))
    if m.last_updated:
        out.append((g(N_("Last update of the record")), f.day(m.last_updated), None))
    if m.checked:
        out.append((g(N_("Data last checked")), f.day(m.checked), None))
    if m.added:
        out.append((g(N_("Added to the catalogue")), f.day(m.added), None))
    return out
