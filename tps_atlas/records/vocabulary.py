"""The closed lists a model record draws from, each value with its English label.

Labels are phrases like any other: they are extracted into the catalogue and
translated per language (``phrases.Phrases.term``). ``N_`` only marks them for
extraction. Country codes are ISO 3166; their names come from CLDR via Babel.
"""

from __future__ import annotations


def N_(message: str) -> str:
    return message


class Term(str):
    """An English label that carries its msgctxt (``Phrases.term`` translates it with it)."""
    context: str


def NC_(context: str, message: str) -> str:
    """A label with its msgctxt: one English word can need different words (or genders) in
    other languages depending on what it describes ('released' code, a 'language' domain)."""
    term = Term(message)
    term.context = context
    return term


# The llama.cpp backends a measured run or a speed class names (data/measured/, data/estimator.yaml).
BACKENDS = ("CUDA", "ROCm", "Vulkan", "Metal", "SYCL", "CPU")

ORGANISATION_TYPES = {
    # TRANSLATORS: the kind of organisation that built a model, in a list ('industry, academia').
    "industry": NC_("organisation type", "industry"),
    "academia": NC_("organisation type", "academia"),
    "government": NC_("organisation type", "government"),
    "research-collective": NC_("organisation type", "research collective"),
    "non-profit": NC_("organisation type", "non-profit"),
}

DOMAINS = {
    # TRANSLATORS: the kind of data a model works on, in a list ('language, vision').
    "language": NC_("model domain", "language"),
    "multimodal": NC_("model domain", "multimodal"),
    "vision": NC_("model domain", "vision"),
    "speech": NC_("model domain", "speech"),
}

TASKS = {
    "language-modeling": N_("text generation (language modelling)"),
    "chat": N_("chat"),
    "translation": N_("translation"),
    "question-answering": N_("question answering"),
    "code-generation": N_("code generation"),
    "quantitative-reasoning": N_("mathematical reasoning"),
    "visual-question-answering": N_("visual question answering"),
    "image-captioning": N_("image captioning"),
    "tool-use": N_("agentic tool use"),
}

COMPUTE_METHODS = {
    "operation-counting": N_("operation counting"),
    "hardware": N_("hardware time"),
    "reported": N_("reported by the developers"),
    "third-party": N_("third-party estimate"),
}

ACCESS = {
    "open-unrestricted": N_("open weights, unrestricted"),
    "open-non-commercial": N_("open weights, non-commercial use"),
    "open-restricted": N_("open weights, restricted use"),
    "api": N_("API access only"),
}

TRAINING_CODE = {
    # TRANSLATORS: whether a model's training code is published: the code is (un)released.
    "released": NC_("training code", "released"),
    "unreleased": NC_("training code", "unreleased"),
}

WHY_TRACKED = {
    "sota-improvement": N_("it improved on the state of the art"),
    "discretionary": N_("editorial choice"),
    "highly-cited": N_("it is highly cited"),
    "historical-significance": N_("historical significance"),
    "training-cost": N_("the cost of training it"),
    "significant-use": N_("it is widely used"),
}

CONFIDENCE = {
    # TRANSLATORS: how sure the dataset is of a model's record.
    "confident": NC_("confidence in a record", "confident"),
    "likely": NC_("confidence in a record", "likely"),
    "speculative": NC_("confidence in a record", "speculative"),
}

ATTENTION_KINDS = {
    "mha": N_("multi-head attention"),
    "gqa": N_("grouped-query attention"),
    "mqa": N_("multi-query attention"),
    "mla": N_("multi-head latent attention"),
    # DeepSeek V4: keys and values compressed several tokens into one, beside a sliding window.
    "csa": N_("compressed sparse attention"),
}

# The calibrations of data/estimator.yaml by their readers' names (the data keeps short ids).
# The hardware classes of data/estimator.yaml (their ids), as the worked example and the methodology
# page name them. Most are product names that stay as they are; a test checks that every class has one.
SPEED_CLASSES = {
    # TRANSLATORS: hardware classes, named in "Cards of the class “{speed_class}” reach about ..." and in a
    # table; product and architecture names stay in English.
    "hbm-datacentre": N_("NVIDIA data-centre cards with HBM memory"),
    "nvidia-blackwell": N_("NVIDIA Blackwell"),
    "nvidia-hopper": N_("NVIDIA Hopper"),
    "nvidia-ada": N_("NVIDIA Ada Lovelace"),
    "nvidia-ampere": N_("NVIDIA Ampere"),
    "nvidia-turing": N_("NVIDIA Turing and Volta"),
    "nvidia-pascal": N_("NVIDIA Pascal"),
    "nvidia-older": N_("older NVIDIA cards"),
    "amd-rdna4": N_("AMD RDNA 4"),
    "amd-apu": N_("AMD processors with integrated graphics"),
    "amd-rdna3": N_("AMD RDNA 3"),
    "amd-rdna2": N_("AMD RDNA 2 and RDNA 1"),
    "amd-cdna": N_("AMD CDNA"),
    "amd-gcn": N_("AMD GCN"),
    "intel-battlemage": N_("Intel Arc Battlemage"),
    "intel-alchemist": N_("Intel Arc Alchemist"),
    "intel-xe2-igpu": N_("Intel Xe2 integrated graphics"),
    "intel-max": N_("Intel Data Center GPU Max"),
    "intel-igpu": N_("other Intel integrated graphics"),
    "apple-m1": N_("Apple M1"),
    "apple-m2": N_("Apple M2"),
    "apple-m3": N_("Apple M3"),
    "apple-m4": N_("Apple M4"),
    "apple-m5": N_("Apple M5"),
    "apple-other": N_("other Apple chips"),
}

CALIBRATIONS = {
    "seed": N_("Seed calibration"),
    "measured": N_("Fitted calibration"),
}

# Fields of a model record that a drafted record (`tps-atlas catalogue add-model`) leaves to be
# filled: a config.json cannot give them. `tps-atlas catalogue check` reports each until filled.
GAP_FIELDS = ("name", "organisations", "organisation_types", "countries", "published", "license",
              "training_compute_flop", "checked", "vision_encoder_b")
