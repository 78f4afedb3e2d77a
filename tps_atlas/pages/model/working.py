"""How one estimate was worked out: shown under the headline figures, and by the browser
calculator for any row (the same phrases, filled there)."""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.records import vocabulary
from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.commands import fit_command
from tps_atlas.estimate.fit import Fit
from tps_atlas.estimate.speed import speed_working
from tps_atlas.pages.figures import ModelFigures
from tps_atlas.i18n.names import card_name
from tps_atlas.i18n.phrases import N_
from tps_atlas.pages.model.context import PageContext

# TRANSLATORS: {card} is a card's name. A name takes its article and case:
# {card:nom}, {card:dat}, French {card:a}, {card:de} (tps_atlas/i18n/names.py); the
# bare {card} is the name alone. Example: "How the figure for the GeForce
# RTX 4090 was worked out"
WORKING_TITLE = N_("How the figure for the {card} was worked out")
WORKING_LINES = (
    # TRANSLATORS: {params} is its parameter count in words (130 billion);
    # {bits} is bits per weight; {read} is memory read per token. Example:
    # "Weights read per token: 130 billion parameters × 4.84 bits ÷ 8 = 78.6
    # GB."
    N_("Weights read per token: {params} parameters × {bits} bits ÷ 8 = {read}."),
    # TRANSLATORS: {bandwidth} is memory bandwidth; {efficiency} is the share
    # of it reached. Example: "Memory bandwidth 5,325 GB/s, of which this kind
    # of device reaches about 46.1%."
    N_("Memory bandwidth {bandwidth}, of which this kind of device reaches about {efficiency}."),
    # TRANSLATORS: {read} is memory read per token; {bandwidth} is memory
    # bandwidth; {efficiency} is the share of it reached; {overhead} is fixed
    # milliseconds per token; {ms} is milliseconds per token; {tok_s} is a
    # speed in tokens per second. Example: "Time per token: 78.6 GB ÷ (5,325
    # GB/s × 46.1%) + 0.00 ms = 32.04 ms, so about 31.2 tok/s."
    N_("Time per token: {read} ÷ ({bandwidth} × {efficiency}) + {overhead} ms = {ms} ms, so about {tok_s}."),
    # TRANSLATORS: {weights} is memory of the weights; {kv} is memory of the
    # KV cache; {buffer} is compute buffer memory; {need} is memory needed;
    # {vram} is the device's memory. Example: "Memory: weights 78.6 GB + KV
    # cache 0.18 GB + buffer 0.5 GB = 79.3 GB, against 96 GB on the device."
    N_("Memory: weights {weights} + KV cache {kv} + buffer {buffer} = {need}, against {vram} on the device."),
)
# The same, for a calibration with hardware classes: the class, the KV cache read at the context
# and the prompt. The lines with the same place in both lists say the same kind of thing.
WORKING_CLASS_LINES = (
    # TRANSLATORS: {params} is its parameter count in words (130 billion);
    # {bits} is bits per weight; {read} is memory read per token. Example:
    # "Weights read per token: 130 billion parameters × 4.84 bits ÷ 8 = 78.6
    # GB."
    N_("Weights read per token: {params} parameters × {bits} bits ÷ 8 = {read}."),
    # TRANSLATORS: {context} is the context length in tokens; {kv_data} is the
    # KV cache in decimal GB (the unit of data read, beside bandwidth);
    # {kv_factor} is KV cache read factor; {kv_read} is KV cache read per token.
    # Example: "KV cache read per token with 4,096 tokens of context:
    # 0.18 GB × 0.00 = 0.0 GB."
    N_("KV cache read per token with {context} tokens of context: {kv_data} × {kv_factor} = {kv_read}."),
    # TRANSLATORS: {bandwidth} is memory bandwidth; {speed_class} is the
    # hardware class's name; {efficiency} is the share of it reached;
    # {overhead} is fixed milliseconds per token. Example: "Memory bandwidth
    # 5,325 GB/s. Devices of the class “NVIDIA Hopper” reach about 46.1% of it and
    # spend 0.00 ms per token on fixed costs (kernel launches, synchronisation,
    # sampling); both fitted to measured llama.cpp runs."
    N_("Memory bandwidth {bandwidth}. Devices of the class “{speed_class}” reach about {efficiency} of it and "
       "spend {overhead} ms per token on fixed costs (kernel launches, synchronisation, sampling); both "
       "fitted to measured llama.cpp runs."),
    # TRANSLATORS: {backend} is a llama.cpp backend (CUDA, ROCm, Vulkan,
    # Metal, SYCL). Example: "These figures are for llama.cpp's Vulkan
    # backend; on the same device another backend can be faster or slower."
    N_("These figures are for llama.cpp's {backend} backend; on the same device another backend can be "
       "faster or slower."),
    # TRANSLATORS: {read} is memory read per token; {kv_read} is KV cache read
    # per token; {bandwidth} is memory bandwidth; {efficiency} is the share of
    # it reached; {overhead} is fixed milliseconds per token; {ms} is
    # milliseconds per token; {tok_s} is a speed in tokens per second.
    # Example: "Time per token: (78.6 GB + 0.0 GB) ÷ (5,325 GB/s × 46.1%) +
    # 0.00 ms = 32.04 ms, so about 31.2 tok/s."
    N_("Time per token: ({read} + {kv_read}) ÷ ({bandwidth} × {efficiency}) + {overhead} ms = {ms} ms, "
       "so about {tok_s}."),
    # TRANSLATORS: {prompt_tok_s} is prompt processing speed; {context} is the
    # context length in tokens; {ttft} is time to the first token. Example:
    # "Prompt processing is bound by compute: about 9,410 tok/s. With a prompt
    # of 4,096 tokens, the first token appears after about 0.44 s."
    N_("Prompt processing is bound by compute: about {prompt_tok_s}. With a prompt of {context} tokens, the "
       "first token appears after about {ttft}."),
    # TRANSLATORS: {weights} is memory of the weights; {kv} is memory of the
    # KV cache; {buffer} is compute buffer memory; {need} is memory needed;
    # {vram} is the device's memory. Example: "Memory: weights 78.6 GB + KV
    # cache 0.18 GB + buffer 0.5 GB = 79.3 GB, against 96 GB on the device."
    N_("Memory: weights {weights} + KV cache {kv} + buffer {buffer} = {need}, against {vram} on the device."),
)
WORKING_CHECK = N_("To check it on your own device, run llama.cpp's benchmark on the same quantization:")
# The memory line of a vision-language model: its vision encoder is loaded beside the weights.
# TRANSLATORS: {weights} is memory of the weights; {vision} is memory of
# the vision encoder; {kv} is memory of the KV cache; {buffer} is compute
# buffer memory; {need} is memory needed; {vram} is the device's memory.
# Example: "Memory: weights 78.6 GB + vision encoder 0.0 GB + KV cache
# 0.18 GB + buffer 0.5 GB = 79.3 GB, against 96 GB on the device."
WORKING_MEMORY_VISION = N_("Memory: weights {weights} + vision encoder {vision} + KV cache {kv} + buffer {buffer} "
                           "= {need}, against {vram} on the device.")


def working_lines(model: Model, classes: bool) -> tuple[str, ...]:
    """The worked example's phrases for a model, by kind of calibration (``classes``: hardware
    classes); a vision encoder adds a term to the memory line, which comes last."""
    lines = WORKING_CLASS_LINES if classes else WORKING_LINES
    return lines[:-1] + (WORKING_MEMORY_VISION,) if model.vision_encoder_b else lines


def working(c: PageContext, m: Model, e: Fit, fig: ModelFigures) -> tuple[str, list[Markup], str, str]:
    """How one estimate was worked out, step by step, and the command that checks it."""
    p, f = c.p, c.f
    memory = e.memory
    w = speed_working(m, e.quant, e.card, fig.calibration, memory.kv_gb)
    values = dict(params=f.parameters(m.read_parameters_b), bits=f.decimal(e.quant.bits_per_weight, 2),
                  read=f.gb_read(w.read_gb, 2), bandwidth=f.bandwidth(w.bandwidth_gb_s),
                  efficiency=f.percent(w.efficiency), overhead=f.decimal(w.overhead_ms, 2),
                  ms=f.decimal(w.seconds_per_token * 1000, 2), tok_s=f.tok_s(e.tok_s),
                  weights=f.gb(memory.weights_gb), kv=f.gb(memory.kv_gb, 2), buffer=f.gb(memory.buffer_gb),
                  vision=f.gb(memory.vision_gb), need=f.gb(memory.total_gb), vram=f.vram(e.card.vram_gb),
                  context=f.count(fig.context), kv_factor=f.decimal(fig.calibration.kv_read_factor, 2),
                  kv_read=f.gb_read(w.kv_read_gb, 2), kv_data=f.gb_read(memory.kv_gb, 2),
                  speed_class=p.term(vocabulary.SPEED_CLASSES[w.class_name]) if w.class_name else "",
                  backend=w.backend or "",
                  prompt_tok_s=f.tok_s(e.prompt_tok_s) if e.prompt_tok_s else "",
                  ttft=f.seconds(e.ttft_s) if e.ttft_s else "")
    lines = [p.t(line, **values) for line in working_lines(m, bool(w.class_name))
             if w.backend or "{backend}" not in line]
    title = p.t(WORKING_TITLE, card=card_name(e.card, p.language))
    command = f"llama-bench -m {m.id}-{e.quant.name}.gguf -p 0 -n 128 -ngl 99"
    return title, lines, command, fit_command(m, e, fig.context, fig.kv_precision)
