"""Words a reader sees, as a native editor would write them (issue 25): devices, not cards, where a
list mixes cards and machines; "no device" rather than "0 devices"; small counts in words; the RAM's
channels in each language's plural; the French "1er" of a month."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tps_atlas.estimate.offload import RamKind
from tps_atlas.i18n.formatting import Formatter
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.mkdocs.render import TABLE_HEADERS
from tps_atlas.pages.figures import model_figures
from tps_atlas.pages.model.builder import ModelPageBuilder
from tps_atlas.pages.offload import ram_kind_name
from tests.support.cards import card




def figures(catalogue, settings, seed, model_id, cards):
    return model_figures(catalogue.model(model_id), cards, settings, seed)


def page(figs, settings, language="en"):
    return ModelPageBuilder(Phrases(language), settings, None, {}).build(figs.model, figs)


def words(markups) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", str(m)) for m in markups)


@pytest.mark.parametrize("language, first, second", [
    ("en", "1 December 2026", "2 December 2026"), ("fr", "1er décembre 2026", "2 décembre 2026"),
    ("de", "1. Dezember 2026", "2. Dezember 2026"), ("nl", "1 december 2026", "2 december 2026"),
])
def test_the_first_of_a_month(language, first, second):
    f = Formatter(language)
    shown = (f.day(dt.date(2026, 12, 1)), f.day(dt.date(2026, 12, 2)))
    if language == "en":  # CLDR's English long date: "December 1, 2026"
        first, second = "December 1, 2026", "December 2, 2026"
    assert shown == (first, second)
    assert Formatter("fr").day(dt.date(2021, 3, 11)) == "11 mars 2021"  # only the day 1, not a 1 in 11 or 2021


@pytest.mark.parametrize("language, one, four", [
    ("en", "1-channel DDR5-6000", "4-channel DDR5-6000"),
    ("fr", "DDR5-6000 sur 1 canal", "DDR5-6000 sur 4 canaux"),
    ("nl", "1-kanaals DDR5-6000", "4-kanaals DDR5-6000"),
    ("de", "1-Kanal-DDR5-6000", "4-Kanal-DDR5-6000"),
])
def test_the_ram_channels_in_each_language(language, one, four):
    p = Phrases(language)
    kind = RamKind(id="x", name="DDR5-6000", bandwidth_gb_s=96.0, source="", memory="DDR5-6000", channels=1)
    assert ram_kind_name(p, kind) == one
    assert ram_kind_name(p, RamKind(**{**kind.__dict__, "channels": 4})) == four


@pytest.mark.parametrize("language, header, fastest", [
    ("en", "Device", "Fastest device"), ("nl", "Apparaat", "Snelste apparaat"),
    ("fr", "Appareil", "Appareil le plus rapide"), ("de", "Gerät", "Schnellstes Gerät"),
])
def test_labels_over_cards_and_machines_say_device(catalogue, settings, seed, base_card, language, header, fastest):
    p = Phrases(language)
    assert header in [p.gettext(h) for h in TABLE_HEADERS]
    cards = [card(base_card, "Sixteen", 16, 600), catalogue.card("apple-m3-max-48gb")]
    en = page(figures(catalogue, settings, seed, "llama-3.1-8b", cards), settings, language)
    assert fastest in [label for label, _, _ in en.tiles]
    assert not any(re.search(r"\b(cards?|kaart|carte|Karte)\b", label, re.I) for label, _, _ in en.tiles
                   if label != p.gettext("Smallest card that fits"))


@pytest.mark.parametrize("language, main, label", [
    ("en", "No device", "runs it"), ("nl", "Geen apparaat", "draait het"),
    ("fr", "Aucun appareil", "ne le fait tourner"), ("de", "Kein Gerät", "führt es aus"),
])
def test_a_model_no_device_runs_says_so_in_words(catalogue, settings, seed, base_card, language, main, label):
    # A card of 1 GB holds Llama 3.1 70B neither alone nor with RAM.
    figs = figures(catalogue, settings, seed, "llama-3.1-70b", [card(base_card, "Small One", 1, 300)])
    assert figs.cards_run == 0
    tile = page(figs, settings, language).tiles[0]
    assert tile == (label, main, "")


@pytest.mark.parametrize("language, sentence", [
    ("en", "In all, three devices can run it."), ("nl", "In totaal kunnen drie apparaten het model draaien."),
    ("fr", "En tout, trois appareils peuvent le faire tourner."), ("de", "Insgesamt können es drei Geräte ausführen."),
])
def test_a_small_count_of_devices_in_words(catalogue, settings, seed, base_card, language, sentence):
    # Cards of 1 GB hold Llama 3.1 70B neither alone nor with RAM; those of 48 GB and more hold it.
    cards = [card(base_card, f"Tiny {n}", 1, 100) for n in (1, 2)] + \
            [card(base_card, f"Big {n}", 48 * n, 900 * n) for n in (1, 2, 3)]
    figs = figures(catalogue, settings, seed, "llama-3.1-70b", cards)
    assert figs.cards_fit == 3 and not figs.cards_offload
    said = words(a for _, a in page(figs, settings, language).faq)
    assert sentence in said, said


@pytest.mark.parametrize("language, sentence", [
    ("en", "In all, five devices run it: 3 entirely, 2 with part of it in RAM."),
    ("fr", "En tout, cinq appareils le font tourner\u00a0: 3 entièrement, 2 en partie en RAM."),
    ("de", "Insgesamt läuft es auf fünf Geräten: 3 vollständig, 2 teilweise im RAM."),
])
def test_devices_with_ram_counted_in_words(catalogue, settings, seed, base_card, language, sentence):
    cards = [card(base_card, f"Mid {n}", 8 * n, 400) for n in (1, 2)] + \
            [card(base_card, f"Big {n}", 48 * n, 900 * n) for n in (1, 2, 3)]
    figs = figures(catalogue, settings, seed, "llama-3.1-70b", cards)
    assert (figs.cards_run, figs.cards_fit, figs.cards_offload) == (5, 3, 2)
    said = words(a for _, a in page(figs, settings, language).faq)
    assert sentence in said, said


@pytest.mark.parametrize("language", ("en", "de"))
def test_a_card_named_with_its_memory_is_not_given_it_again(catalogue, settings, seed, language):
    # "GeForce RTX 3060 12 GB · 12 GiB" said the size twice in two units; a machine's name states its
    # RAM, so the GPU's share (36 of the M3 Max's 48 GB) still stands beside it.
    rtx, mac = catalogue.card("geforce-rtx-3060-12gb"), catalogue.card("apple-m3-max-48gb")
    figs = figures(catalogue, settings, seed, "llama-3.1-8b", [rtx, mac])
    assert (figs.smallest.card, figs.fastest.card) == (rtx, mac)
    f = Phrases(language).fmt
    tiles = {main: detail for _, main, detail in page(figs, settings, language).tiles}
    assert "12 GB" in rtx.name and f.vram(rtx.vram_gb) not in tiles[rtx.name], tiles
    assert tiles[rtx.name].startswith(figs.smallest.quant.name + " · ")
    assert tiles[mac.name].endswith(" · " + f.vram(mac.vram_gb)) and f.vram(mac.vram_gb) == f.vram(36)
