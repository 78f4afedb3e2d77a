"""How fast a card decodes and reads a prompt for a model (the method is in
``tps_atlas.estimate.fit``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.catalogue.quants import Quant
from tps_atlas.estimate.calibration import Calibration, SpeedClass
from tps_atlas.estimate.memory import weights_gb


# ---------------------------------------------------------------- speed

def tokens_per_second(model: Model, quant: Quant, card: Card, calibration: Calibration,
                      kv_gb: float = 0.0, backend: str | None = None) -> float:
    """Decode speed of one request: bandwidth over the bytes read per token, plus any fixed cost.

    ``kv_gb`` is the KV cache at the chosen context: each new token reads it (``kv_read_factor``
    of it), so a row at 32,768 tokens is slower than at 4,096. ``backend`` (scoring a measured
    run) applies the class's factor for a backend other than the one its constants are for.

    >>> import dataclasses
    >>> card = Card("x", "X", "NVIDIA", 24, 1000.0, None, memory_type="GDDR6X")
    >>> model = Model("m", "M", "m.yaml", True, 10.0)
    >>> q4 = Quant("Q4_K_M", 4.8, 0)
    >>> plain = Calibration("c", "", {"Q4_K_M": 1.0}, {"NVIDIA": 0.8}, {}, 0.6, 1.6, "low")
    >>> round(tokens_per_second(model, q4, card, plain), 2)  # 1000 / 6 GB x 0.8
    133.33
    >>> timed = dataclasses.replace(plain, overhead_ms=2.5)  # 7.5 ms + 2.5 ms per token
    >>> round(tokens_per_second(model, q4, card, timed), 2)
    100.0
    >>> long = dataclasses.replace(timed, kv_read_factor=1.0)  # + 2 GB of KV cache: 10 ms + 2.5 ms
    >>> round(tokens_per_second(model, q4, card, long, kv_gb=2.0), 2)
    80.0
    """
    working = speed_working(model, quant, card, calibration, kv_gb, backend)
    if not working.overhead_ms and not working.kv_read_gb:
        return card.bandwidth_gb_s / working.read_gb * working.efficiency
    return 1.0 / working.seconds_per_token


@dataclass(frozen=True)
class SpeedWorking:
    """The terms of one speed estimate, for showing how it was worked out."""

    read_gb: float          # weights read per token
    bandwidth_gb_s: float
    efficiency: float       # share of the bandwidth reached
    overhead_ms: float      # fixed cost per token
    kv_read_gb: float = 0.0  # KV cache read per token at the chosen context
    class_name: str | None = None
    backend: str | None = None  # the llama.cpp backend the class's efficiency is for

    @property
    def seconds_per_token(self) -> float:
        return (self.read_gb + self.kv_read_gb) / (self.bandwidth_gb_s * self.efficiency) + self.overhead_ms / 1000


def speed_working(model: Model, quant: Quant, card: Card, calibration: Calibration,
                  kv_gb: float = 0.0, backend: str | None = None) -> SpeedWorking:
    speed_class = calibration.speed_class(card)
    return SpeedWorking(weights_gb(model.read_parameters_b, quant), card.bandwidth_gb_s,
                        calibration.factor(quant, card, backend), calibration.overhead(card),
                        kv_gb * calibration.kv_read_factor, speed_class.name if speed_class else None,
                        speed_class.backend if speed_class else None)


def prompt_tokens_per_second(model: Model, card: Card, calibration: Calibration, kv_gb: float = 0.0) -> float | None:
    """Prompt processing is compute bound: two FLOP per active parameter and token (a mixture of
    experts' times the calibration's ``prompt_moe_factor``), plus the class's attention FLOP per byte
    of the KV cache at the prompt's mean depth (``kv_gb``; half the cache of a prompt that fills the
    context), against the share of the card's peak its class reaches (or FLOP per byte of bandwidth
    where the catalogue has no TFLOPS figure). None for a calibration without hardware classes.

    >>> import dataclasses
    >>> c = SpeedClass("x", (), (), (), 0.8, 1.0, 0.5, 100.0, 0.7, 1.4)
    >>> cal = Calibration("c", "", {}, {}, {}, 0.6, 1.6, "low", classes=(c,))
    >>> card = Card("x", "X", "NVIDIA", 24, 1000.0, None, compute_tflops=80.0)
    >>> round(prompt_tokens_per_second(Model("m", "M", "m.yaml", True, 8.0), card, cal))  # 40e12 / 16e9
    2500
    >>> deep = dataclasses.replace(cal, classes=(dataclasses.replace(c, prompt_kv_flop_per_byte=20.0),))
    >>> round(prompt_tokens_per_second(Model("m", "M", "m.yaml", True, 8.0), card, deep, kv_gb=0.2))  # + 4e9 FLOP
    2000
    >>> moe = Model("m", "M", "m.yaml", True, 30.0, active_parameters_b=3.0)
    >>> round(prompt_tokens_per_second(moe, card, dataclasses.replace(cal, prompt_moe_factor=2.5)))  # 40e12 / 15e9
    2667
    """
    speed_class = calibration.speed_class(card)
    if not speed_class:
        return None
    return class_prompt_tokens_per_second(model, card, speed_class, calibration.prompt_moe_factor, kv_gb)


def prompt_flop_per_token(model: Model, speed_class: SpeedClass, moe_factor: float = 1.0,
                          kv_gb: float = 0.0) -> float:
    """FLOP a prompt token costs, as the class's peak share is reached on dense weight products."""
    weights = 2 * model.read_parameters_b * 1e9 * (moe_factor if model.is_moe else 1.0)
    return weights + speed_class.prompt_kv_flop_per_byte * kv_gb * 1e9


def class_prompt_tokens_per_second(model: Model, card: Card, speed_class: SpeedClass, moe_factor: float = 1.0,
                                   kv_gb: float = 0.0) -> float:
    """Prompt processing speed with the constants of ``speed_class``."""
    return prompt_flop_s(card, speed_class) / prompt_flop_per_token(model, speed_class, moe_factor, kv_gb)


def prompt_flop_s(card: Card, speed_class: SpeedClass) -> float:
    """FLOP per second the class reaches on the card's dense weight products in a prompt."""
    if card.compute_tflops:
        return card.compute_tflops * 1e12 * speed_class.prompt_efficiency
    return card.bandwidth_gb_s * 1e9 * speed_class.prompt_flop_per_byte
