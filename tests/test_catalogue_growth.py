"""What a reader relies on when a model page says where its figures come from and when they were
checked: every record names a web source, a check date is never before the model existed nor in
the future, and every model of 2026 (the ones added from config.json and a model card) carries
its check date and cites its config.json."""

import datetime as dt

from tps_atlas.catalogue.models import load_models

MODELS = load_models()


def test_every_model_names_a_web_source():
    missing = [m.id for m in MODELS
               if not any(s.url and s.url.startswith("https://") for s in m.sources)]
    assert not missing, f"models without an https source: {missing}"


def test_a_check_date_is_after_the_release_and_not_in_the_future():
    wrong = [m.id for m in MODELS if m.checked is not None
             and (m.checked > dt.date.today() or (m.published and m.checked < m.published))]
    assert not wrong, f"check dates before the release or in the future: {wrong}"


def test_every_model_of_2026_is_dated_and_cites_its_config():
    recent = [m for m in MODELS if m.published and m.published >= dt.date(2026, 1, 1)]
    assert recent
    undated = [m.id for m in recent if m.checked is None]
    uncited = [m.id for m in recent
               if not any(s.url and s.url.endswith("config.json") for s in m.sources)]
    assert not undated, f"2026 models without a checked date: {undated}"
    assert not uncited, f"2026 models that cite no config.json: {uncited}"
