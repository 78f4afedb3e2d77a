"""The words of "My machine" (docs/assets/machine.js): the machine picker, the answer on a model page and
the machine page, in the page's language. A machine is never called a card: it has GPUs.

Sentences keep their ``{name}`` placeholders; the browser fills them with escaped values.
"""

from __future__ import annotations

from tps_atlas.i18n.phrases import N_, Phrases


def machine_labels(p: Phrases) -> dict:
    g = p.gettext
    return {
        "title": g(N_("My machine")),
        # TRANSLATORS: a link in the device picker to the page where a reader lists the GPUs and RAM of one machine.
        "open": g(N_("Several GPUs? Describe your whole machine")),
        "intro": g(N_("List the GPUs of one machine (up to four, of any kind), its system RAM and its operating "
                      "system: every model page then answers for the whole machine, and this page ranks every "
                      "model on it.")),
        # TRANSLATORS: the label of one GPU's search field; {number} is 1 to 4.
        "gpu": g(N_("GPU {number}")),
        "add": g(N_("Add a GPU")),
        "remove": g(N_("Remove")),
        "ram": g(N_("System RAM (GB)")),
        "ram_kind": g(N_("Kind of RAM")),
        "os": g(N_("Operating system")),
        "save": g(N_("Use this machine")),
        "forget": g(N_("Forget this machine")),
        "link": g(N_("Link to this machine")),
        "page": g(N_("Every model on this machine")),
        # TRANSLATORS: how an answer names the reader's machine; {gpus} are its GPUs joined by “+”, {ram} a size such
        # as '64 GB', {kind} a kind of RAM such as '2-channel DDR4-3200'.
        "name": g(N_("{gpus} with {ram} of {kind}")),
        # TRANSLATORS: the answer on a model page; {machine} names the machine (see above), {model} a model, {quant}
        # a quantization, {speed} a speed, {range} a range such as '12–18'.
        "fits": g(N_("On your machine ({machine}), {model} runs entirely on the GPUs at {quant}, at about {speed} "
                     "(range {range} tok/s).")),
        # TRANSLATORS: as above, with part of the model in system RAM; {ram} is how much, such as '27.2 GB'.
        "offload": g(N_("On your machine ({machine}), {model} runs with {ram} of it in system RAM at {quant}, at "
                        "about {speed} (range {range} tok/s).")),
        # TRANSLATORS: {usable} is what the GPUs hold together, {need} what the model needs at {quant}.
        "none_memory": g(N_("On your machine ({machine}), {model} does not run: at {quant} it needs {need}, "
                            "more than the GPUs ({usable}) and the free system RAM hold together.")),
        # TRANSLATORS: as above, when the model's layers cannot be placed though the memory would do.
        "none_other": g(N_("On your machine ({machine}), {model} does not run: its layers cannot be split between "
                           "the GPUs and the system RAM.")),
        # TRANSLATORS: beside the estimate, a run someone measured on the same GPUs; {speed} its speed, {date} its
        # month, {source} a link to where it was published.
        "measured": g(N_("Measured on these GPUs, same model and quantization: {speed} ({date}, {source}).")),
        "source": g(N_("source")),
        # TRANSLATORS: before the list of GPUs and the layers each holds, e.g. 'GeForce RTX 3090: 54 · …'.
        "split": g(N_("Layers on each GPU")),
        "command": g(N_("The command that runs it")),
        "bad_link": g(N_("This machine link could not be read (an unknown GPU, more than four GPUs, or an "
                         "impossible amount of RAM), so the page shows its usual view.")),
        "empty": g(N_("No machine yet: choose its first GPU above.")),
        "runs": g(N_("Runs entirely on the GPUs")),
        "partly": g(N_("Runs with part in system RAM")),
        "no": g(N_("Does not run")),
        "model": g(N_("Model")),
        "speed": g(N_("Speed")),
        "quant": g(N_("Quantization")),
        "fit": g(N_("Fit")),
        # The operating systems of data/estimator.yaml machine.os, by id.
        "os_names": {"windows": "Windows", "linux": g(N_("Linux with a desktop")),
                     "linux-headless": g(N_("Linux server (no desktop)"))},
    }


def machine_page_html(p: Phrases) -> str:
    """The machine page's static part: its introduction and the places docs/assets/machine.js fills."""
    from markupsafe import escape

    intro = escape(machine_labels(p)["intro"])
    return (f'<div class="tps-machine-page"><p class="tps-intro">{intro}</p>'
            '<div class="tps-machine-builder"></div><div class="tps-machine-ranking"></div></div>')


def machine_methodology(p: Phrases) -> dict:
    """The methodology page's section on machines: the handoff and the error on the measured mixed-card runs."""
    from tps_atlas.estimate.settings import load_settings
    from tps_atlas.measured.mixed_accuracy import median_error, score_mixed

    settings = load_settings()
    assert settings.machine is not None
    scored = [pair for pair in score_mixed(settings) if pair.estimate is not None]
    return {"handoff": p.fmt.decimal(settings.machine.handoff_ms, 1), "runs": p.fmt.integer(len(scored)),
            "median": p.fmt.percent(median_error(scored))}
