"""What a model page states is decided once, in the figures, and only worded by the page.

Figures-level tests run the estimator in process over a handful of made-up cards (fast); the
page tests read the preview build (``site``) and, marked ``full``, every translated model page.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import re

import pytest

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.pages.figures import Reach, SizeClass, model_figures
from tps_atlas.pages.model.builder import ModelPageBuilder

from tests.support.prose import implied_count_problems
from tests.support.site_build import page_path, visible_text
from tests.support.cards import card

TRANSLATED = ("nl", "fr", "de")




def figures(catalogue, settings, seed, model_id, cards):
    return model_figures(catalogue.model(model_id), cards, settings, seed)


def page(figs, settings, language="en"):
    builder = ModelPageBuilder(Phrases(language), settings, None, {})
    return builder.build(figs.model, figs)


def words(markups) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", str(m)) for m in markups)


def test_one_card_gets_its_own_sentences(catalogue, settings, seed, base_card):
    # (a card of 1 GB: too small to run it even with part of it in RAM)
    cards = [card(base_card, "Small One", 1, 300), card(base_card, "Big One", 512, 800)]
    figs = figures(catalogue, settings, seed, "llama-3.1-70b", cards)
    assert figs.reach is Reach.ONE and figs.smallest is figs.fastest and not figs.offload
    en = page(figs, settings)
    text = words(en.speed + en.numbers_text + [a for _, a in en.faq]) + en.description
    assert "Only one device in our catalogue can hold it: the Big One" in text
    assert "Only the Big One holds it" in text and "Only the Big One holds it entirely, at about" in text
    assert "Half of the cards" not in text and "the slowest" not in text
    # With a second card that runs it with part of it in RAM, it is no longer "the only card".
    both = figures(catalogue, settings, seed, "llama-3.1-70b", [card(base_card, "Mid One", 24, 1000), cards[1]])
    assert both.reach is Reach.ONE and both.offload
    said = words(a for _, a in page(both, settings).faq)
    assert "It is the only card that can run it." not in said
    assert "In all, two devices run it: 1 entirely, 1 with part of it in RAM." in said
    assert not re.search(r"in all, \w+ (cards?|devices?) (can )?runs? it", text, re.IGNORECASE)
    assert en.fastest_title == "Only one device holds Llama 3.1 70B entirely" and en.smallest == []
    assert "fits entirely on a single one of the 2 devices" in en.description
    nl = page(figs, settings, "nl")
    assert "Alleen de Big One" in words(nl.speed)
    assert nl.fastest_title == "Llama 3.1 70B past volledig op slechts één apparaat"


def test_every_card_and_small_counts_in_words(catalogue, settings, seed, base_card):
    cards = [card(base_card, f"Card {n}", 16 * n, 300 * n) for n in (1, 2, 3)]
    figs = figures(catalogue, settings, seed, "llama-3.2-1b", cards)
    assert figs.reach is Reach.EVERY
    en, fr = page(figs, settings), page(figs, settings, "fr")
    assert words(en.numbers_text).startswith("Every device in our catalogue can hold it.")
    assert "Every device in our catalogue can run it." in words(a for _, a in en.faq)
    assert en.fastest_title == "The three fastest devices for Llama 3.2 1B"
    assert fr.fastest_title == "Les trois appareils les plus rapides pour Llama 3.2 1B"
    # Small counts in words.
    # All three reach reading speed: not "of the three that hold it, three reach it".
    assert "Les trois appareils qui l’accueillent atteignent tous la vitesse de lecture" in words(a for _, a in fr.faq)


def test_no_card_states_the_shortfall_against_the_usable_memory(catalogue, settings, seed, base_card):
    cards = [card(base_card, "Small One", 8, 300), card(base_card, "Mid One", 24, 1000)]
    figs = figures(catalogue, settings, seed, "llama-3.1-70b", cards)
    assert figs.reach is Reach.NONE and figs.size_class(24) is SizeClass.NO_SINGLE_CARD
    miss = figs.nearest_miss
    assert miss.card.name == "Mid One" and miss.usable_gb == pytest.approx(settings.fits * 24)
    assert miss.shortfall_gb == pytest.approx(miss.need_gb - miss.usable_gb)
    f = Phrases("en").fmt
    en = page(figs, settings)
    steps = words(text for _, text in en.steps)
    assert f"needs about {f.gb(miss.need_gb)} at Q4_K_M, more than the largest card we track (24 GB) can give it" \
        in steps
    assert en.fastest == [] and en.chart_items == []


def test_tile_and_list_name_the_same_smallest_card(catalogue, settings, seed, base_card):
    # Two cards of the least memory: the faster (newer) one leads both the tile and the list; before,
    # the tile named the older one and the list (sorted by speed) did not.
    cards = [card(base_card, "Old Sixteen", 16, 200, dt.date(2016, 1, 1)),
             card(base_card, "New Sixteen", 16, 600, dt.date(2024, 1, 1)),
             card(base_card, "Big", 48, 900)]
    figs = figures(catalogue, settings, seed, "llama-3.1-8b", cards)
    en = page(figs, settings)
    tile = {label: main for label, main, _ in en.tiles}["Smallest card that fits"]
    assert tile == en.smallest[0].card == figs.smallest_rows[0].card.name == "New Sixteen"
    assert [r.card for r in en.smallest] == [e.card.name for e in figs.smallest_rows]


def test_most_compressed_only_when_it_is(catalogue, settings, seed, base_card):
    # The smallest card needs a lower quant than the large one: that is the most compressed in use.
    mixed = figures(catalogue, settings, seed, "llama-3.1-8b",
                    [card(base_card, "Eight", 8, 300), card(base_card, "Eighty", 80, 2000)])
    assert len(mixed.quant_levels) > 1 and mixed.smallest_most_compressed
    assert "the most compressed version any device here runs" in words(t for _, t in page(mixed, settings).steps)
    # Every card holds the same quant: the smallest card's is not "the most compressed".
    same = figures(catalogue, settings, seed, "llama-3.2-1b",
                   [card(base_card, "Eight", 8, 300), card(base_card, "Eighty", 80, 2000)])
    assert len(same.quant_levels) == 1 and not same.smallest_most_compressed
    steps = words(t for _, t in page(same, settings).steps)
    assert "most compressed" not in steps and "the version the smallest card that fits runs" in steps


def test_size_class_from_the_real_share_and_smallest_memory(catalogue, settings, seed, base_card):
    consumer = max(settings.vram_tiers_gb)
    # Fits a 16 GB card, but most cards here are smaller: not "small enough for most cards".
    cards = [card(base_card, f"Tiny {n}", 4, 100) for n in range(3)] + [card(base_card, "Sixteen", 16, 400)]
    figs = figures(catalogue, settings, seed, "llama-3.1-8b", cards)
    assert figs.size_class(consumer) is SizeClass.CONSUMER
    sentence = str(page(figs, settings).size_class)
    assert "at least 16 GB of memory: 1 of the 4 devices we track holds it entirely" in sentence
    assert "most cards" not in sentence and "In our catalogue" not in words(page(figs, settings).numbers_text)
    most = figures(catalogue, settings, seed, "llama-3.2-1b", cards)
    assert most.size_class(consumer) is SizeClass.MOST_CARDS
    # Held by no card of the largest tier or less (a 32 GB GeForce RTX 5090 may still be among those that
    # do): the sentence states the memory the figures show, never "out of reach of consumer cards".
    beyond = figures(catalogue, settings, seed, "llama-3.1-70b", [card(base_card, "Forty-eight", 48, 960),
                                                                  card(base_card, "Ninety-six", 96, 900)])
    assert beyond.size_class(consumer) is SizeClass.BEYOND_CONSUMER and beyond.smallest.card.vram_gb == 48
    sentence = str(page(beyond, settings).size_class)
    assert f"does not fit on a card with {consumer} GB or less" in sentence and "consumer" not in sentence


def test_speed_thanks_to_bandwidth_only_when_the_fastest_has_the_most(catalogue, settings, seed, base_card):
    # The card with most bandwidth holds a less compressed version and comes out slower.
    cards = [card(base_card, "Wide", 80, 3000), card(base_card, "Narrow", 24, 2400)]
    figs = figures(catalogue, settings, seed, "qwen3-30b-a3b", cards)
    text = words(page(figs, settings).numbers_text)
    if figs.fastest.card.name == "Narrow":
        assert not figs.fastest_has_most_bandwidth and "thanks to" not in text
        assert "only at the same quantization" in text
    else:
        assert figs.fastest_has_most_bandwidth and "thanks to a memory bandwidth of" in text


# ------------------------------------------------------------------ built pages


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_built_page_says_how_many_cards_hold_it_and_lists_the_tile_card_first(site, language):
    """glm-130b (some cards) and glm-5 (no card) in each language, as a reader reads them."""
    page_html = page_path(site, language, "models", "glm-130b").read_text(encoding="utf-8")
    p = Phrases(language)
    tile_label = html.escape(p.gettext("Smallest card that fits"), quote=False)
    tile = re.search(r'<p class="tps-tile-main">([^<]+)</p><p class="tps-tile-label">' + re.escape(tile_label),
                     page_html).group(1)
    listed = re.search(r'<h3>[^<]*</h3>\s*<p>[^<]*</p>\s*<ol>\s*<li><a href="[^"]+">([^<]+)</a>',
                       page_html[page_html.find('id="extremes"'):].split("</ol>", 1)[1]).group(1)
    assert tile == listed
    text = visible_text(page_html)
    fit_count = re.search(r'<p class="tps-tile-main">([^<]+)</p><p class="tps-tile-label">', page_html).group(1)
    assert str(p.t("In our catalogue, {fit_count} devices can hold it entirely.", fit_count=fit_count)) in text
    none = visible_text(page_path(site, language, "models", "glm-5").read_text(encoding="utf-8"))
    from tps_atlas.pages.model.faq import VRAM_LARGEST_MACHINE
    largest = [p.gettext("About {miss_need} at {miss_quant}, more than the largest card we track ({miss_vram}) can "
                         "give it."), p.gettext(VRAM_LARGEST_MACHINE)]
    assert any(sentence.split("{miss_quant}")[1].split("(")[0].strip() in none for sentence in largest)




@pytest.mark.parametrize("language", TRANSLATED)
def test_preview_pages_imply_no_more_cards_than_they_list(site, language):
    problems = []
    for model in load_catalogue().models:
        path = page_path(site, language, "models", model.id)
        if path.exists():
            page_html = path.read_text(encoding="utf-8")
            problems += [f"{model.id}: {p}" for p in implied_count_problems(page_html, language)]
    assert not problems, problems[:8]




@pytest.mark.full
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translated_page_reads_natively_and_implies_no_more_cards(whole_site_problems, language):
    problems = whole_site_problems[f"prose-{language}"]  # site_problems, over the whole site
    assert not problems, f"{len(problems)} problem(s), first: " + "; ".join(problems[:8])


def test_restricted_weights_are_not_promised_without_an_account(catalogue, settings, seed, base_card):
    cards = [card(base_card, "Sixteen", 16, 400)]
    restricted = next(m for m in catalogue.models if m.access == "open-restricted")
    en = page(model_figures(restricted, cards, settings, seed), settings)
    about = words(en.about)
    assert "a licence that restricts their use: read its terms" in about and "(open weights" not in about
    assert "without an account" not in about and "no account" not in about
    # The FAQ does not repeat the about section's first sentence word for word.
    who = {str(q): str(a) for q, a in en.faq}.get(f"Who made {restricted.name}?")
    assert who and who not in about


def test_a_machine_sharing_its_memory_is_not_given_its_memory_twice(catalogue, settings, seed, base_card):
    machine = next(c for c in catalogue.cards if c.unified and c.vram_gb >= 16)
    cards = [machine, card(base_card, "Larger", machine.vram_gb + 100, 900)]
    figs = figures(catalogue, settings, seed, "llama-3.1-8b", cards)
    assert figs.smallest.card is machine
    f = Phrases("nl").fmt
    nl = words(page(figs, settings, "nl").numbers_text)
    assert f"{machine.name}, met {f.vram(machine.vram_gb)} geheugen voor de GPU" in nl
    en = words(page(figs, settings).numbers_text)
    assert "The smallest is the Larger" not in en and "usable by the GPU" in en


def test_dense_offload_sentences_follow_the_page_figures(catalogue, settings, seed, base_card):
    """With a little of a dense model in RAM the page's fastest offload row stays quick: no "the speed falls
    to a few tokens per second", no "hence the low figure" above reading speed, no "a card holds the model
    or it does not" beside rows that run it with part in RAM (GLM-4.1V on a GTX 980 Ti said all three
    beside 25.9 tok/s)."""
    reading = settings.reading_speed_tok_s
    big = card(base_card, "Big", 96, 900)
    quick = figures(catalogue, settings, seed, "llama-3.1-8b", [card(base_card, "Four", 4, 900), big])
    slow = figures(catalogue, settings, seed, "llama-3.1-70b", [card(base_card, "Sixteen", 16, 300), big])
    assert quick.offload and quick.offload[0].tok_s > reading
    assert slow.offload and slow.offload[0].tok_s < reading
    f = Phrases("en").fmt
    for figs in (quick, slow):
        en = page(figs, settings)
        speed, steps = words(en.speed), words(text for _, text in en.steps)
        faq = dict(en.faq)
        offload_answer = words([faq[f"Can I run {figs.model.name} if it does not fit on my GPU?"]])
        fastest = figs.offload[0]
        assert f"the fastest here is the {fastest.card.name}: about {f.tok_s(fastest.tok_s)}" in speed
        assert "a few tokens per second" not in speed
        assert ("hence the low figure" in offload_answer) is (fastest.tok_s < reading), offload_answer
        assert "what does not fit on the card has to go to system RAM" in steps
        assert "a card holds the model or it does not" not in steps
    fits = figures(catalogue, settings, seed, "llama-3.1-8b", [card(base_card, "Twenty-four", 24, 900)])
    assert fits.rows and not fits.offload
    assert "a card holds the model or it does not" in words(text for _, text in page(fits, settings).steps)


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_a_model_every_card_holds_is_not_said_to_need_more_than_any_card(catalogue, settings, seed, base_card,
                                                                          language):
    """Llama 3.2 3B misses only a machine that shares its memory with the processor (no RAM to move part to):
    the offload answer said it needs "more than any card we track holds together with that memory" beside
    the graphics cards that run it."""
    machine = dataclasses.replace(card(base_card, "Tiny Machine", 2, 60), unified=True, system_memory_gb=2)
    figs = figures(catalogue, settings, seed, "llama-3.2-3b", [machine, card(base_card, "Eight", 8, 300)])
    assert figs.nearest_miss and not figs.offload and figs.rows
    p = Phrases(language)
    faq = {str(q): str(a) for q, a in page(figs, settings, language).faq}
    answer = faq[str(p.t("Can I run {model} if it does not fit on my GPU?", model=figs.model.name))]
    expected = p.t("Every graphics card we track holds {model} entirely. The devices it does not fit share their "
                   "memory with the processor, so there is no separate RAM to move part of it to.",
                   model=figs.model.name)
    assert answer == str(expected) and "Llama 3.2 3B" in answer


def test_the_fastest_tile_says_entirely_when_a_device_with_part_in_ram_is_faster(catalogue, settings, seed,
                                                                                 base_card):
    """A slow card that holds a large MoE beside a fast one that runs it faster with its experts in RAM: the
    tile names the first as the fastest holding it entirely, never as the fastest device."""
    slow, fast = card(base_card, "Big Slow", 24, 40), card(base_card, "Fast Small", 8, 1800)
    figs = figures(catalogue, settings, seed, "qwen3-30b-a3b", [slow, fast])
    assert figs.fastest.card.name == "Big Slow" and figs.offload and figs.offload[0].tok_s > figs.fastest.tok_s
    labels = {label: main for label, main, _ in page(figs, settings).tiles}
    assert labels.get("Fastest holding it entirely") == "Big Slow" and "Fastest device" not in labels
    only_fit = figures(catalogue, settings, seed, "qwen3-30b-a3b", [slow])
    assert "Fastest device" in {label for label, _, _ in page(only_fit, settings).tiles}


@pytest.mark.parametrize("language, entirely, in_ram", [
    ("en", "all of them entirely", "all with part in RAM"),
    ("nl", "allemaal volledig", "allemaal deels in het RAM"),
    ("fr", "tous entièrement", "tous en partie en RAM"),
    ("de", "alle vollständig", "alle teilweise im RAM"),
])
def test_the_devices_tile_counts_no_part_of_none(catalogue, settings, seed, base_card, language, entirely, in_ram):
    """Where every device holds the model, the tile under "2 devices run it" says so in words: it had said
    "828 volledig, 0 deels in het RAM". Where none holds it, every one keeps part in RAM."""
    big = [card(base_card, "Big One", 24, 900), card(base_card, "Big Two", 32, 1000)]
    all_fit = figures(catalogue, settings, seed, "llama-3.2-3b", big)
    assert not all_fit.offload and len(all_fit.rows) == 2
    assert page(all_fit, settings, language).tiles[0][1:] == ("2", entirely)
    small = [card(base_card, "Small One", 8, 400), card(base_card, "Small Two", 8, 500)]
    all_ram = figures(catalogue, settings, seed, "qwen3-30b-a3b", small)
    assert not all_ram.rows and len(all_ram.offload) == 2
    assert page(all_ram, settings, language).tiles[0][1:] == ("2", in_ram)
    both = figures(catalogue, settings, seed, "qwen3-30b-a3b", big[:1] + small[:1])
    assert page(both, settings, "en").tiles[0][2] == "1 entirely, 1 with part in RAM"


@pytest.mark.parametrize("language", ("en",) + TRANSLATED)
def test_a_model_page_lists_its_ten_fastest_once_a_card_page_captions_its_chart(site, language):
    """The ten fastest devices were read three times in a row on a model page: the chart's caption, then the
    list's heading and the list. The chart keeps the sentence as its accessible description only; a card
    page, whose chart no list repeats, keeps its caption."""
    model_html = page_path(site, language, "models", "llama-3.1-8b").read_text(encoding="utf-8")
    chart = model_html[model_html.find('<figure class="tps-chart">'):].split("</figure>", 1)[0]
    assert "<figcaption>" not in chart and re.search(r'<desc id="chart-llama-3.1-8b-d">[^<]{80,}</desc>', chart)
    card_html = page_path(site, language, "cards", "geforce-rtx-4090").read_text(encoding="utf-8")
    assert re.search(r'<figure class="tps-chart">.*<figcaption>[^<]{80,}</figcaption>', card_html, re.S)
