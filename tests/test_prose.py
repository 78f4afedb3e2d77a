"""Numbers in the running text of every translated model and card page read as a native writer
writes them: no sentence starts with a digit, no parameter or token count as "130B" or as a
twelve-digit string, and French keeps a number and its unit together with a no-break space."""

from __future__ import annotations

import re

import pytest

from tps_atlas.catalogue.load import load_catalogue

from tests.support.prose import prose_problems
from tests.support.site_build import page_path







def test_the_checks_find_what_they_look_for():
    page = ("<article><p>Met 130B parameters past GLM-130B. 36 kaarten halen 14.800.000.000.000 tokens, "
            "à 20 Go et 29,6 tok/s.</p><p>Llama 3.1 8B en Qwen3 30B-A3B draaien op 2,0\u00a0Go; "
            "zo'n 37B van de 671B.</p></article>")
    found = prose_problems(page, "fr")
    assert any("starts with a digit: '36 kaarten" in p for p in found)
    assert [p.split("'")[1] for p in found if "count written" in p] == ["130B", "37B", "671B"]
    assert any("14.800.000.000.000" in p for p in found)
    assert sum("breaking space" in p for p in found) == 2


@pytest.mark.parametrize("language", ["nl", "fr", "de"])
def test_numbers_in_translated_prose_read_natively(site, language):
    catalogue = load_catalogue()
    pages = [page_path(site, language, "models", m.id) for m in catalogue.models]
    pages += [page_path(site, language, "cards", c.id) for c in catalogue.cards]
    problems = []
    for page in pages:
        if page.exists():
            problems += [f"{page.relative_to(site)}: {p}"
                         for p in prose_problems(page.read_text(encoding="utf-8"), language)]
    assert not problems, f"{len(problems)} problem(s), first: " + "; ".join(problems[:8])


@pytest.mark.parametrize("language", ["nl", "fr", "de"])
def test_translators_guide_and_theme_strings_read_in_the_language(site, language):
    from tps_atlas.i18n.phrases import Phrases
    page = page_path(site, language, "translators").read_text(encoding="utf-8")
    title = Phrases(language).gettext("Translators' guide")
    assert title != "Translators' guide" and re.search(rf"<h1[^>]*>{re.escape(title)}", page)
    assert "Every sentence on TPS Atlas comes from a phrase catalogue" not in page
    assert "Made with" not in page  # Material's English footer line
    if language == "nl":  # Material's own Dutch has "1 overeenkomende document" and "Wijzig deze pagina"
        assert "1 pagina gevonden" in page and "1 overeenkomende document" not in page
    if language == "fr":  # Material's own French has "Editer cette page" and "Taper pour démarrer la recherche"
        assert "Saisissez votre recherche" in page and "Taper pour démarrer" not in page
