"""The MkDocs side: thin adapters from MkDocs to the catalogue, estimator and phrases.

``define_env`` is the mkdocs-macros entry (through ``macros/portal.py``); it
runs once per language build. ``add_model_pages`` is the ``on_files`` hook
that adds one generated page per model to the language being built.
"""

from __future__ import annotations

import json
from functools import lru_cache

from .catalogue import load_catalogue
from .estimator import load_settings
from .render import Renderer

DEFAULT_LANGUAGE = "en"


def build_language(config) -> str:
    """The language mkdocs-static-i18n is building now (it builds them in turn)."""
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or DEFAULT_LANGUAGE


def calibration_name(config) -> str | None:
    return (config.get("extra") or {}).get("tps_calibration") or None


@lru_cache(maxsize=None)
def renderer(language: str, calibration: str | None) -> Renderer:
    return Renderer(language, load_catalogue(), load_settings(), calibration)


def model_stub(model_id: str, language: str, calibration: str | None) -> str:
    """The generated Markdown of a model page: front matter, then one macro call.

    The model id is checked against ``[a-z0-9.-]`` on load; title and description
    go in as JSON strings, which YAML reads as plain text.
    """
    r = renderer(language, calibration)
    page = r.model_page(r.catalogue.model(model_id))
    return (f"---\ntitle: {json.dumps(page.title, ensure_ascii=False)}\n"
            f"description: {json.dumps(page.description, ensure_ascii=False)}\n---\n\n"
            f'{{{{ model_page("{model_id}") }}}}\n')


def check_inputs(config) -> None:
    """Load and validate every input before anything is written to site/."""
    from mkdocs.exceptions import PluginError

    from .errors import DataError
    from .phrases import LANGUAGES

    try:
        for language in LANGUAGES:
            renderer(language, calibration_name(config))
    except DataError as error:
        raise PluginError(f"TPS Atlas: {error}") from None


def add_model_pages(files, config):
    from mkdocs.structure.files import File

    language = build_language(config)
    prefix = "" if language == DEFAULT_LANGUAGE else f"{language}/"
    calibration = calibration_name(config)
    for model in load_catalogue().models:
        files.append(File.generated(config, f"{prefix}models/{model.id}.md",
                                    content=model_stub(model.id, language, calibration)))
    return files


def define_env(env) -> None:
    config = env.conf

    @env.macro
    def model_page(model_id: str) -> str:
        return renderer(build_language(config), calibration_name(config)).render_model(model_id)

    @env.macro
    def model_list() -> str:
        return renderer(build_language(config), calibration_name(config)).render_model_list()
