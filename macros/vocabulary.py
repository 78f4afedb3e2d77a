"""The closed lists a model record draws from, each value with its English label.

Labels are phrases like any other: they are extracted into the catalogue and
translated per language (``phrases.Phrases.term``). ``N_`` only marks them for
extraction. Country codes are ISO 3166; their names come from CLDR via Babel.
"""

from __future__ import annotations


def N_(message: str) -> str:
    return message


ORGANISATION_TYPES = {
    "industry": N_("industry"),
    "academia": N_("academia"),
    "government": N_("government"),
    "research-collective": N_("research collective"),
    "non-profit": N_("non-profit"),
}

DOMAINS = {
    "language": N_("language"),
    "multimodal": N_("multimodal"),
    "vision": N_("vision"),
    "speech": N_("speech"),
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
    "released": N_("released"),
    "unreleased": N_("unreleased"),
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
    "confident": N_("confident"),
    "likely": N_("likely"),
    "speculative": N_("speculative"),
}

ATTENTION_KINDS = {
    "mha": N_("multi-head attention"),
    "gqa": N_("grouped-query attention"),
    "mqa": N_("multi-query attention"),
    "mla": N_("multi-head latent attention"),
}

# The calibrations of data/estimator.yaml by their readers' names (the data keeps short ids).
CALIBRATIONS = {
    "seed": N_("Seed calibration"),
    "measured": N_("Fitted calibration"),
}
