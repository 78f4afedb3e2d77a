"""The words of the controls every page shares ("My device", the empty-result messages, the
"show all" button), translated here, for docs/assets/device.js and the calculator's page part.

Sentences keep their ``{name}`` placeholders: the browser fills them with escaped values
(a device's name, a model's, numbers it formats itself).

>>> from tps_atlas.mkdocs.render import ui_settings
>>> labels = ui_labels(Phrases("nl"), ui_settings(), 900)
>>> labels["language"], labels["my_device"]
('nl', 'Mijn apparaat')
>>> sorted(placeholders_of(labels["answer_yes"]["unified"]))
['device', 'model', 'quant', 'range', 'speed']
"""

from __future__ import annotations

from tps_atlas.pages.card import CONTEXT_LIMIT
from tps_atlas.estimate.settings import load_settings
from tps_atlas.web.data import BEYOND_CONTEXT, plural_runs
from tps_atlas.pages.model.builder import FIT_LABELS
from tps_atlas.pages.model.rows import fit_label
from tps_atlas.estimate.offload import load_ram
from tps_atlas.pages.offload import ram_kind_label, ram_kind_name
from tps_atlas.i18n.phrases import N_, NP_, Phrases, placeholders
from tps_atlas.pages.verdict_text import RAISED_CELL
from tps_atlas.web.machine_ui import machine_labels


def placeholders_of(text: str) -> set[str]:
    return placeholders(text)


def ui_labels(p: Phrases, ui, largest_count: int) -> dict:
    """Everything device.js shows (``ui``: data/ui.yaml's settings), in the page's language;
    ``largest_count`` bounds the counts whose plural form the browser may need (the number of cards)."""
    f = p.fmt
    g = p.gettext
    return {
        "language": p.language,
        "units": f.browser_units(),
        "my_device": g(N_("My device")),
        # TRANSLATORS: a label and its value, as in lists and the device picker; {label} is a label, {value} its
        # value. Example: 'Fastest card: GeForce RTX 5090'. French puts a no-break space before the colon.
        "label_value": g(N_("{label}: {value}")),
        "choose": g(N_("Choose your GPU or machine")),
        "placeholder": g(N_("Name or model number, e.g. RTX 4090 or M4 Pro")),
        "prompt": g(N_("Which GPU or machine do you have? Choose it once and every model page answers for it.")),
        # TRANSLATORS: shown by the device picker in the browser; {query} is what the reader typed. Example: 'No
        # GPU or machine matches “rtx 9090”. ...'
        "no_match": g(N_("No GPU or machine matches “{query}”. Try fewer letters, or only the model number "
                         "(4090, M4).")),
        "change": g(N_("Change")),
        "forget": g(N_("Forget this device")),
        "pair_link": g(N_("Link to this answer")),
        # By the device's kind (data/devices.yaml, exported with each card): a graphics card takes the
        # article of "card" in French and German ("la", "die"); a machine or chip (Apple M3 Ultra, DGX
        # Spark, Ryzen AI Max+) is named without one.
        "answer_yes": {
            # TRANSLATORS: the browser's answer for the reader's graphics card; {device} is its name (the browser
            # cannot add a case), {model} a model, {quant} a quantization, {speed} a speed, {range} a range
            # (80–110). Example: 'Yes: the GeForce RTX 4090 runs Llama 3.1 8B at Q8_0, at about 95 tok/s (range
            # 80–110 tok/s).'
            "discrete": g(N_("Yes: the {device} runs {model} at {quant}, at about {speed} (range {range} tok/s).")),
            # TRANSLATORS: the same for a machine or chip that shares its memory; {device} is its name, with no
            # article. Example: 'Yes: Llama 3.1 8B runs on Apple M4 Max (128 GB) at Q8_0, at about 60 tok/s (range
            # 50–70 tok/s).'
            "unified": g(N_("Yes: {model} runs on {device} at {quant}, at about {speed} (range {range} tok/s).")),
        },
        # TRANSLATORS: {need} and {vram} are memory sizes. Example: 'Comfortable: it needs 8.9 GB of 24 GB,
        # leaving room for a longer context.'
        "answer_comfortable": g(N_("Comfortable: it needs {need} of {vram}, leaving room for a longer context.")),
        # TRANSLATORS: {need} and {vram} are memory sizes. Example: 'Tight: it needs 21.0 GB of 24 GB, with
        # little room left for a longer context.'
        "answer_tight": g(N_("Tight: it needs {need} of {vram}, with little room left for a longer context.")),
        "answer_no": {
            # TRANSLATORS: {device} is the reader's graphics card (no case), {model} a model, {quant} a
            # quantization, {need}, {short} and {usable} memory sizes. Example: 'No: the GeForce RTX 4060 cannot run
            # Llama 3.1 70B at these settings. At Q3_K_M it needs 35 GB, 28 GB more than the 7.2 GB it can use.'
            "discrete": g(N_("No: the {device} cannot run {model} at these settings. At {quant} it needs {need}, "
                             "{short} more than the {usable} it can use.")),
            # TRANSLATORS: the same for a machine or chip, named without an article. Example: 'No: Llama 3.1 405B
            # does not run on Apple M4 Max (128 GB) at these settings. At Q3_K_M it needs 190 GB, 94 GB more than the
            # 96 GB its GPU can use.'
            "unified": g(N_("No: {model} does not run on {device} at these settings. At {quant} it needs {need}, "
                            "{short} more than the {usable} its GPU can use.")),
        },
        # Only graphics cards run a model with part of it in system memory: one wording.
        # TRANSLATORS: the browser's answer for the reader's graphics card when the model runs with part of it in
        # system memory; {device} is its name (no case), {model} a model, {quant} a quantization, {speed} a speed,
        # {range} a range (18–46). Example: 'Yes, with part of it in system memory (RAM): the GeForce RTX 4090
        # runs gpt-oss-120b at MXFP4, at about 30.8 tok/s (range 18–46 tok/s).'
        "answer_offload": g(N_("Yes, with part of it in system memory (RAM): the {device} runs {model} at {quant}, "
                               "at about {speed} (range {range} tok/s).")),
        # TRANSLATORS: where a mixture of experts sits; {cpu_layers} and {layers} are numbers of layers, {ram} and
        # {vram_used} memory, {ram_size} the system memory (64 GB), {ram_kind} its kind (2-channel DDR5-6000).
        # Example: 'The experts of 25 of its 36 layers sit in RAM (42.5 GB); the rest stays on the card
        # (20.2 GB). Worked out for 64 GB of 2-channel DDR5-6000.'
        "answer_offload_experts": g(N_("The experts of {cpu_layers} of its {layers} layers sit in RAM ({ram}); the "
                                       "rest stays on the card ({vram_used}). Worked out for {ram_size} of "
                                       "{ram_kind}.")),
        # TRANSLATORS: where a dense model sits; {cpu_layers}, {gpu_layers} and {layers} are numbers of layers,
        # {ram} and {vram_used} memory, {ram_size} the system memory, {ram_kind} its kind. Example: '42 of its 80
        # layers sit in RAM (23.1 GB); the other 38 stay on the card (21.5 GB). Worked out for 64 GB of 2-channel
        # DDR5-6000.'
        "answer_offload_layers": g(N_("{cpu_layers} of its {layers} layers sit in RAM ({ram}); the other "
                                      "{gpu_layers} stay on the card ({vram_used}). Worked out for {ram_size} of "
                                      "{ram_kind}.")),
        "answer_offload_dense": g(N_("A dense model reads its layers in RAM for every token too, so each layer "
                                     "moved to RAM costs speed.")),
        # TRANSLATORS: the answer when a set of identical graphics cards runs what one cannot; {count} is 2, 4 or 8,
        # {device} the card's name (no case), {model} a model, {quant} a quantization, {speed} a speed, {range} a
        # range. Example: 'Yes, with 2 of them: 2 × Radeon Instinct MI350X run Kimi K2 at Q3_K_M, at about
        # 151 tok/s (range 120–180 tok/s), the model split between the cards.'
        "answer_multi": g(N_("Yes, with {count} of them: {count} × {device} run {model} at {quant}, at about "
                             "{speed} (range {range} tok/s), the model split between the cards.")),
        # TRANSLATORS: after the answer above; {quant} a quantization, {need}, {short} and {usable} memory sizes.
        # Example: 'One alone cannot: at Q3_K_M it needs 489.5 GB, 230.3 GB more than the 259.2 GB it can use.'
        "answer_multi_single": g(N_("One alone cannot: at {quant} it needs {need}, {short} more than the {usable} "
                                    "it can use.")),
        # TRANSLATORS: after a 'No' for a graphics card; {ram_size} is the system memory (64 GB), {ram_free} what
        # the operating system leaves of it, {need} what the model needs. Example: 'Part of it in system memory
        # does not help either: with 64 GB of RAM (56 GB left after the operating system), card and RAM together
        # hold less than 489.5 GB.'
        "answer_no_ram": g(N_("Part of it in system memory does not help either: with {ram_size} of RAM "
                              "({ram_free} left after the operating system), card and RAM together hold less than "
                              "{need}.")),
        # TRANSLATORS: after a 'No' for a machine whose GPU may be allowed more of its memory than by default;
        # {os} is the system where the limit can be raised (macOS, Linux), {limit} the raised limit, {model} a
        # model, {quant} a quantization, {need} memory, {speed} a speed, {range} a range. Example: 'It does once
        # its GPU may use more: on Linux, with the limit raised to 120 GiB, Qwen3 235B-A22B runs at Q3_K_M (it
        # needs 104.2 GiB), at about 14 tok/s (range 10–18 tok/s).'
        "answer_raised": g(N_("It does once its GPU may use more: on {os}, with the limit raised to {limit}, {model} "
                              "runs at {quant} (it needs {need}), at about {speed} (range {range} tok/s).")),
        # TRANSLATORS: a link after the sentence above, to the machine's page.
        "answer_raised_how": g(N_("How to raise the limit")),
        "raised_cell": g(RAISED_CELL),
        # TRANSLATORS: as 'Comfortable: it needs …' when the context is already as long as the model reads;
        # {need} and {vram} are memory sizes. Example: 'Comfortable: it needs 8.0 GB of 24 GB.'
        "answer_comfortable_no_room": g(N_("Comfortable: it needs {need} of {vram}.")),
        # TRANSLATORS: as 'Tight: it needs …' when the context is already as long as the model reads; {need} and
        # {vram} are memory sizes. Example: 'Tight: it needs 21.0 GB of 24 GB.'
        "answer_tight_no_room": g(N_("Tight: it needs {need} of {vram}.")),
        # TRANSLATORS: above a llama-server command line in the browser's answer.
        "answer_run": g(N_("To run it with llama.cpp:")),
        "beyond_context": g(BEYOND_CONTEXT),
        "context_limit": g(CONTEXT_LIMIT),
        # TRANSLATORS: a table cell, beside a quantization and a speed; {count} is a number of identical cards
        # (2, 4 or 8). Example: 'With 2 cards'.
        "multi_cell": plural_runs(p, NP_("With {count} card", "With {count} cards"),
                                  max(load_settings().multi_gpu_counts)),
        "ram_kinds": {k.id: ram_kind_name(p, k) for k in load_ram().kinds},        # in a sentence
        "ram_kind_labels": {k.id: ram_kind_label(p, k) for k in load_ram().kinds},  # a drop-down's options
        # TRANSLATORS: column headings; {device} is the reader's card or machine (no article is added).
        # Examples: 'On your GeForce RTX 4090', 'On your Apple M4 Max (128 GB) machine'.
        "on_device": {"discrete": g(N_("On your {device}")),
                      # TRANSLATORS: a column heading; {device} is the reader's machine (no article is added).
                      # Example: 'On your Apple M4 Max (128 GB) machine'.
                      "unified": g(N_("On your {device} machine"))},
        "this_is_yours": g(N_("This is your device.")),
        "fit": {key: fit_label(p, key) for key in FIT_LABELS},
        "machine": machine_labels(p),   # docs/assets/machine.js (tps_atlas/web/machine_ui.py)
        # The table lists graphics cards and machines alike: "devices".
        # TRANSLATORS: a button; {count} is a number of devices. Example: 'Show all 262 devices'.
        "show_all": plural_runs(p, NP_("Show all {count} device", "Show all {count} devices"), largest_count),
        # TRANSLATORS: {all} is the label of the tick box, “Also show devices that cannot run it”, as translated.
        "no_rows": g(N_("No device matches these filters. Shorten the search, choose a smaller memory size, or "
                        "tick “{all}”.")),
        "all_label": g(N_("Also show devices that cannot run it")),
        "clear": g(N_("Clear the filters")),
        "row_hint": g(N_("Select a row to see how its figure was worked out.")),
        # TRANSLATORS: {low} and {high} are numbers of tokens. Example: 'Enter a whole number of tokens from 512
        # to 1,048,576.'
        "context_invalid": str(p.t(N_("Enter a whole number of tokens from {low} to {high}."),
                                   low=f.count(ui.context_tokens_range[0]), high=f.count(ui.context_tokens_range[1]))),
        "context_range": list(ui.context_tokens_range),
        # TRANSLATORS: {query} is what the reader typed. Example: 'No model matches “lama”. ...'
        "no_model": g(N_("No model matches “{query}”. Try a shorter name, or the organisation (Meta, Qwen).")),
        # TRANSLATORS: {query} is what the reader typed in the devices index. Example: 'No device matches “rtx
        # 9090”. ...'
        "no_card": g(N_("No device matches “{query}”. Try only the model number (4090) or the vendor.")),
    }
