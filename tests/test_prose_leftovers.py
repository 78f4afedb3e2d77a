"""Wording a native editor fixed on the pages: organisation names in lists as in the prose, no
bare "1" where a language says one (French plural form 0 serves 0 and 1), a single task or domain
in the singular, small counts in words.

Every page context is built in process over a small catalogue of made-up cards (fast).
"""

from __future__ import annotations

import re

import pytest

from tps_atlas.records import vocabulary
from tps_atlas.pages.browse import home, models_index
from tps_atlas.pages.card import CardPageBuilder
from tps_atlas.catalogue.load import Catalogue, Portal
from tps_atlas.pages.figures import EstimateTable, Reach, model_figures
from tps_atlas.pages.model.builder import ModelPageBuilder
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.faq import how_many_gpus
from tps_atlas.i18n.phrases import Phrases
from tests.support.cards import card

TRANSLATED = ("nl", "fr", "de")
LANGUAGES = ("en",) + TRANSLATED




def plain(markup) -> str:
    return re.sub(r"<[^>]+>", "", str(markup)).replace("&#39;", "'").replace("&amp;", "&")


def model_page(catalogue, settings, seed, model_id, cards, language):
    figs = model_figures(catalogue.model(model_id), cards, settings, seed)
    return ModelPageBuilder(Phrases(language), settings, None, {}).build(figs.model, figs)


# -- 1. organisation names: the models index says what the model page says


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_models_index_names_tsinghua_as_the_model_page_does(catalogue, settings, seed, base_card, language):
    # Left over: the index said "Tsinghua University" on nl/fr/de pages whose prose says
    # "de Tsinghua-universiteit", « l'université Tsinghua », „die Tsinghua-Universität".
    models = (catalogue.model("glm-130b"), catalogue.model("glm-4.5"))
    small = Catalogue(cards=(base_card,), models=models)
    rows = {row["id"]: row for row in models_index(Phrases(language), small, EstimateTable(models, (base_card,),
                                                                                           settings, seed))}
    alone = rows["glm-130b"]["organisation"]
    assert "University" not in alone and "University" not in rows["glm-4.5"]["organisation"]
    page = model_page(catalogue, settings, seed, "glm-130b", [base_card], language)
    # The same name, without its article, in the sentence that says who published it ...
    assert alone.casefold() in plain(page.about[0]).casefold(), (alone, plain(page.about[0]))
    # ... and in the headline and the specification table of the model page.
    fields = dict(field for group in page.groups for field in group.fields)
    assert fields[Phrases(language).gettext("Organisation")] == alone
    assert alone in rows["glm-4.5"]["organisation"]


# -- 2. the home page: how many cards run a model, for none, one and many


@pytest.fixture(scope="module")
def reach_tables(catalogue, settings, seed, base_card):
    """Llama 3.1 70B on no card, on one card and on two (it needs about 45 GB at Q4_K_M); the small card
    is too small to run it even with part of it in RAM, so every count here is of cards that hold it."""
    model = catalogue.model("llama-3.1-70b")
    small, big, bigger = card(base_card, "Small One", 1, 300), card(base_card, "Big One", 96, 800), \
        card(base_card, "Bigger One", 128, 900)
    out = {}
    for reach, cards in ((Reach.NONE, (small,)), (Reach.ONE, (small, big)), (Reach.SOME, (small, big, bigger))):
        table = EstimateTable((model,), cards, settings, seed)
        assert table.figures[model.id].reach is reach and not table.figures[model.id].offload
        out[reach] = (Catalogue(cards=cards, models=(model,)), table, Portal((model,), cards[:1], ()))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_says_none_and_one_in_words(reach_tables, language):
    p = Phrases(language)
    said = {reach: home(p, *tables)["models"][0]["fit"] for reach, tables in reach_tables.items()}
    # « tourne sur 1 carte » was French plural form 0 (0 and 1) filled with a digit.
    assert not re.search(r"\d", said[Reach.NONE]) and not re.search(r"\d", said[Reach.ONE]), said
    assert re.search(r"\b2\b", said[Reach.SOME]), said
    assert len(set(said.values())) == 3, said


def test_the_french_home_page_reads_un_and_aucun(reach_tables):
    # The home list counts devices (cards and machines): "appareil", masculine, never "carte".
    p = Phrases("fr")
    said = {reach: home(p, *tables)["models"][0]["fit"] for reach, tables in reach_tables.items()}
    assert "aucun appareil" in said[Reach.NONE] and "un seul appareil" in said[Reach.ONE], said
    assert "2 appareils" in said[Reach.SOME]
    assert not any("carte" in text for text in said.values()), said


# -- 3. one task in the singular, several in the plural


@pytest.mark.parametrize("language, one, several", [
    ("en", "Recorded task: ", "Recorded tasks: "),
    ("nl", "Geregistreerde taak: ", "Geregistreerde taken: "),
    ("fr", "Tâche recensée\u00a0: ", "Tâches recensées\u00a0: "),
])
def test_a_single_task_is_named_in_the_singular(catalogue, settings, seed, base_card, language, one, several):
    assert len(catalogue.model("glm-5").tasks) == 1 and len(catalogue.model("glm-130b").tasks) > 1
    single = model_page(catalogue, settings, seed, "glm-5", [base_card], language)
    many = model_page(catalogue, settings, seed, "glm-130b", [base_card], language)
    single_text, many_text = " ".join(map(plain, single.about)), " ".join(map(plain, many.about))
    assert one in single_text and several not in single_text, single_text
    assert several in many_text and one not in many_text, many_text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_specification_labels_one_task_in_the_singular(catalogue, settings, seed, base_card, language):
    p = Phrases(language)
    single = model_page(catalogue, settings, seed, "glm-5", [base_card], language)
    many = model_page(catalogue, settings, seed, "glm-130b", [base_card], language)
    def label_of(page, tasks):
        # The row whose value lists the tasks.
        value = p.fmt.names([p.term(vocabulary.TASKS[t]) for t in tasks])
        return next(label for group in page.groups for label, v in group.fields if v == value)

    one = label_of(single, catalogue.model("glm-5").tasks)
    several = label_of(many, catalogue.model("glm-130b").tasks)
    assert one != several
    assert (one, several) == {"en": ("Task", "Tasks"), "nl": ("Taak", "Taken"), "fr": ("Tâche", "Tâches"),
                              "de": ("Aufgabe", "Aufgaben")}[language]


@pytest.mark.parametrize("language, one, plural", [
    ("en", "The recorded task is ", "tasks"), ("nl", "De geregistreerde taak is ", "taken"),
    ("fr", "Tâche recensée\u00a0: ", "tâches"), ("de", "Im Datensatz ist es für ", "aufgaben"),
])
def test_the_faq_does_not_say_tasks_over_one_task(catalogue, settings, seed, base_card, language, one, plural):
    single = model_page(catalogue, settings, seed, "glm-5", [base_card], language)
    question = plain(Phrases(language).t("What is {model} used for?", model="GLM-5"))
    answer = plain({plain(q): a for q, a in single.faq}[question])
    assert one in answer and plural not in answer.casefold(), answer


# -- 4. small counts in words on a card page, and a sentence never starts with a digit


@pytest.fixture(scope="module")
def peers_page(catalogue, settings, seed, base_card):
    """A 24 GB card with three others of 24 GB, two of them faster."""
    ours = card(base_card, "Our Card", 24, 1000)
    cards = (ours, card(base_card, "Fast One", 24, 1100), card(base_card, "Faster One", 24, 1300),
             card(base_card, "Slow One", 24, 900))
    models = (catalogue.model("llama-3.1-8b"),)
    table = EstimateTable(models, cards, settings, seed)
    small = Catalogue(cards=cards, models=models)
    portal = Portal(models, cards[:1], models)
    return {language: CardPageBuilder(Phrases(language), small, table, portal).build(ours) for language in LANGUAGES}


@pytest.mark.parametrize("language, said", [
    ("en", "We track three other devices with 24 GB. Of these, two have more memory bandwidth"),
    ("nl", "Daarvan hebben er twee een hogere geheugenbandbreedte"),
    ("fr", "Parmi eux, deux ont une bande passante mémoire supérieure"),
    ("de", "Davon haben zwei mehr Speicherbandbreite"),
])
def test_the_card_page_counts_faster_peers_in_words(peers_page, language, said):
    answer = plain(peers_page[language].faq[-1][1])
    assert said in answer, answer
    assert not re.search(r"(?:^|[.;:]\s)\d", answer), answer


@pytest.mark.parametrize("language, said", [
    ("en", "At least two: "), ("nl", "Minstens twee: "), ("fr", "Au moins deux\u00a0: "), ("de", "Mindestens zwei: "),
])
def test_the_number_of_cards_a_model_needs_is_a_word_and_the_factor_a_digit(catalogue, settings, seed, base_card,
                                                                             language, said):
    cards = [card(base_card, "Half Size", 32, 2000)]
    figs = model_figures(catalogue.model("llama-3.1-70b"), cards, settings, seed)
    assert figs.reach is Reach.NONE and figs.multi and figs.multi.count == 2
    answer = plain(how_many_gpus(PageContext(Phrases(language), settings, None, {}), figs))
    assert answer.startswith(said), answer
    assert "2 × Half Size" in answer


@pytest.mark.parametrize("language, one, several", [
    ("en", ("Organisation", "Country"), ("Organisations", "Countries")),
    ("nl", ("Organisatie", "Land"), ("Organisaties", "Landen")),
    ("de", ("Organisation", "Land"), ("Organisationen", "Länder")),
])
def test_the_specification_labels_two_makers_and_two_countries_in_the_plural(catalogue, settings, seed, base_card,
                                                                              language, one, several):
    # GLM-130B: Tsinghua University in China; Mistral NeMo: Mistral AI and NVIDIA, France and the United States.
    nemo = catalogue.model("mistral-nemo-12b")
    assert len(nemo.organisations) == len(nemo.countries) == 2

    def labels(model_id):
        page = model_page(catalogue, settings, seed, model_id, [base_card], language)
        return [label for group in page.groups for label, _ in group.fields]

    single, double = labels("glm-130b"), labels("mistral-nemo-12b")
    assert all(label in single for label in one) and not any(label in single for label in several), single
    assert all(label in double for label in several), double


@pytest.mark.parametrize("language, said", [
    ("en", "In our catalogue, five devices can hold it entirely."),
    ("nl", "In onze catalogus staan vijf apparaten waarop het in zijn geheel past."),
    ("fr", "Dans notre catalogue, cinq appareils peuvent l’accueillir entièrement."),
    ("de", "In unserem Katalog fassen es fünf Geräte vollständig."),
])
def test_a_few_cards_that_hold_a_model_are_counted_in_words(catalogue, settings, seed, base_card, language, said):
    # GLM-4.5 said "In onze catalogus zijn er 5 kaarten waarop het past."
    cards = [card(base_card, f"Big {n}", 256, 1000 + n) for n in range(5)] + [card(base_card, "Small", 8, 300)]
    page = model_page(catalogue, settings, seed, "llama-3.1-70b", cards, language)
    assert said in " ".join(map(plain, page.numbers_text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_sentence_starts_with_a_digit_on_the_home_page_or_in_the_parameters_answer(
        catalogue, settings, seed, base_card, reach_tables, language):
    # English said "159 open-weight models, ..." and "130 billion, all of them used for every token".
    counts = plain(home(Phrases(language), *reach_tables[Reach.SOME])["counts"])
    assert re.search(r"\d", counts) and not re.match(r"\d", counts), counts
    for model_id in ("glm-130b", "glm-4.5"):   # dense, and a mixture of experts
        page = model_page(catalogue, settings, seed, model_id, [base_card], language)
        answer = plain(page.faq[0][1])
        assert not re.match(r"\d", answer), answer


def test_a_card_that_runs_one_model_says_one_in_french(catalogue, settings, seed, base_card):
    # « ne fait tourner que 1 des 2 modèles » read as a digit where French says « un seul ».
    small = card(base_card, "Twelve", 12, 400)
    models = (catalogue.model("llama-3.1-8b"), catalogue.model("llama-3.1-70b"))
    table = EstimateTable(models, (small,), settings, seed)
    assert table.models_run(small.id) == 1
    page = CardPageBuilder(Phrases("fr"), Catalogue(cards=(small,), models=models), table,
                           Portal(models, (small,), ())).build(small)
    assert "ne fait tourner qu’un seul des 2 modèles" in page.description, page.description


@pytest.mark.parametrize("language, one, two", [
    ("en", "Of the 20 speeds in this table, one has", "Of the 20 speeds in this table, two have"),
    ("nl", "bij één van de 20 snelheden", "bij twee van de 20 snelheden"),
    ("fr", "Dans ce tableau, une des 20 vitesses est", "Dans ce tableau, deux des 20 vitesses sont"),
    ("de", "Neben einer der 20 Geschwindigkeiten", "Neben zwei der 20 Geschwindigkeiten"),
])
def test_a_few_measured_speeds_are_counted_in_words(language, one, two):
    from tps_atlas.pages.model.rows import measured_note
    p = Phrases(language)
    assert one in plain(measured_note(p, 1, 20)) and two in plain(measured_note(p, 2, 20))
    assert "13" in plain(measured_note(p, 13, 20))


@pytest.mark.parametrize("language, one, two", [
    ("de", "entwickelt hat es die Tsinghua-Universität", "entwickelt haben es Mistral AI und NVIDIA"),
    ("fr", "par l’université Tsinghua, dont le siège est en Chine",
     "par Mistral AI et NVIDIA, dont les sièges sont en France et aux États-Unis"),
])
def test_two_makers_take_a_plural_verb(catalogue, settings, seed, base_card, language, one, two):
    # „Herausgeber ist Mistral AI und NVIDIA“ gave two publishers a singular verb (and „Herausgeber“ is a
    # publishing term: „entwickelt hat es“, de review #50).
    single = model_page(catalogue, settings, seed, "glm-130b", [base_card], language)
    double = model_page(catalogue, settings, seed, "mistral-nemo-12b", [base_card], language)
    assert one in plain(single.about[0]) and two in plain(double.about[0]), (single.about[0], double.about[0])
    if language == "de":
        answers = " ".join(plain(a) for _, a in double.faq)
        assert "Entwickelt haben es Mistral AI und NVIDIA." in answers


@pytest.mark.parametrize("language, said", [
    ("en", "Not even a set of eight identical cards"), ("nl", "Zelfs acht identieke kaarten"),
    ("fr", "Même un groupe de huit cartes identiques"), ("de", "Nicht einmal ein Verbund aus acht baugleichen"),
])
def test_the_largest_set_of_cards_is_a_word(catalogue, settings, seed, base_card, language, said):
    figs = model_figures(catalogue.model("llama-3.1-70b"), [card(base_card, "Tiny", 4, 100)], settings, seed)
    assert figs.reach is Reach.NONE and not figs.multi and max(settings.multi_gpu_counts) == 8
    page = ModelPageBuilder(Phrases(language), settings, None, {}).build(figs.model, figs)
    assert said in " ".join(map(plain, page.numbers_text))


def test_english_gives_the_united_states_its_article(catalogue, settings, seed, base_card):
    # "based in France and United States": the sentence used the bare name, not its place form.
    page = model_page(catalogue, settings, seed, "mistral-nemo-12b", [base_card], "en")
    assert "based in France and in the United States." in plain(page.about[0]), page.about[0]
