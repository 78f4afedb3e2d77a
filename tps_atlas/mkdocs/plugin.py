"""The MkDocs plugin (``plugins: - tps-atlas`` in mkdocs.yml, found through the ``mkdocs.plugins``
entry point of pyproject.toml): one method per event, each handing over to a step of ``site.py``.

The build's state lives on the plugin, as Material's plugins keep theirs: the renderer of each
language, the browser's data (made and checked before anything is written), the HTML of a
generated page between two events, the URLs the sitemap lists. ``on_config`` of a fresh build
starts it all anew (and clears the in-process caches, ``cache.clear_all``), so ``mkdocs serve``
rebuilds from the files on disk; the nested builds mkdocs-static-i18n makes of the other
languages reuse it.

Priorities: mkdocs-static-i18n runs at -100 on files and page context and builds the other
languages in its post-build; these run after it. The plugin is listed last in mkdocs.yml, so at
the default priority it runs after mkdocs-macros has rendered a hand-made page.

Warnings go to the MkDocs logger (``get_plugin_logger``), which ``mkdocs build --strict`` counts:
a warning fails the build.
"""

from __future__ import annotations

import gc
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger

from tps_atlas import cache
from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.errors import DataError
from tps_atlas.estimate.settings import load_settings
from tps_atlas.i18n.phrases import LANGUAGES
from tps_atlas.mkdocs import site
from tps_atlas.mkdocs.render import Renderer, ui_settings
from tps_atlas.web.data import site_data
from tps_atlas.web.data_schema import checked_site_data

log = get_plugin_logger(__name__)


class TpsAtlasConfig(base.Config):
    # Which calibration of data/estimator.yaml the pages use (empty: the default there);
    # mkdocs.yml sets it from TPS_CALIBRATION.
    calibration = c.Type(str, default="")


class TpsAtlasPlugin(BasePlugin[TpsAtlasConfig]):
    def __init__(self) -> None:
        self.renderers: dict[str, Renderer] = {}
        self.browser_data: dict = {}
        self.page_html: dict[str, str] = {}  # by source path, from on_page_markdown to on_page_content
        self.site_pages: list[str] = []  # URLs of every page of the default language, for the sitemap
        # The theme's templates, compiled once for all languages (site.CompiledTemplates).
        self.compiled_templates = site.CompiledTemplates()

    @property
    def calibration(self) -> str | None:
        return self.config.calibration or None

    def renderer(self, config) -> Renderer:
        """The renderer of the language being built."""
        return self.renderers[site.build_language(config)]

    @staticmethod
    def nested(config) -> bool:
        """A language build mkdocs-static-i18n makes inside the first (which finishes the site)."""
        return bool(getattr(config.plugins.get("i18n"), "building", False))

    # ---------------------------------------------------------------- events

    @event_priority(100)
    def on_config(self, config):
        # Loading makes the catalogue and the estimate table, millions of objects that stay to the
        # end of the build and hold no cycles to collect: the collector would walk them again and
        # again as they grow, and again in every full collection after, for nothing.
        gc.disable()
        try:
            if not self.nested(config):
                self.load(config)
        finally:
            gc.freeze()
            gc.enable()
        return config

    def load(self, config) -> None:
        """Load and check every input, and make the browser's data, before anything is written."""
        cache.clear_all()
        self.renderers, self.browser_data, self.page_html, self.site_pages = {}, {}, {}, []
        try:
            site.check_settings(config, self.calibration)
            for language in LANGUAGES:
                self.renderers[language] = site.renderer(language, self.calibration)
            ui_settings()
            self.browser_data = checked_site_data(site_data(load_catalogue(), load_settings(), self.calibration))
        except DataError as error:
            raise PluginError(f"TPS Atlas: {error}") from None

    @event_priority(-200)
    def on_files(self, files, config):
        files = site.add_generated_pages(files, config, self.renderer(config), self.site_pages)
        gc.freeze()  # and so do the generated pages' figures
        return files

    @event_priority(-200)
    def on_env(self, env, config, files):
        # Every language build's theme environment (the same loader, filters and extensions each
        # time) reuses the templates compiled by the first.
        env.bytecode_cache = self.compiled_templates
        return env

    @event_priority(-200)
    def on_nav(self, nav, config, files):
        return site.set_nav_titles(nav, self.renderer(config).phrases)

    def on_page_markdown(self, markdown, page, config, files):
        return site.set_page_meta(markdown, page, self.renderer(config), self.page_html)

    @event_priority(100)
    def on_page_content(self, html, page, config, files):
        return self.page_html.pop(page.file.src_uri, html)

    @event_priority(-200)
    def on_page_context(self, context, page, config, nav):
        # mkdocs-static-i18n keeps its switcher as an attribute of config.extra (material
        # reads config.extra.alternate); it only knows pages written on disk, so set ours.
        config.extra.alternate = site.alternates(page.url)
        return context

    def on_post_page(self, output, page, config):
        return site.finish_page(output, self.renderer(config))

    @event_priority(-200)
    def on_post_build(self, config):
        if not self.nested(config):
            self.finish(config)
        # What the build froze may be garbage by the next build of `mkdocs serve`: collectable again.
        gc.unfreeze()

    def finish(self, config) -> None:
        try:
            split = site.finish_site(Path(config.site_dir), config.site_url or "", self.renderers,
                                     self.browser_data, self.site_pages)
        except DataError as error:
            raise PluginError(f"TPS Atlas: {error}") from None
        if not split:
            log.warning("no search/search_index.json to split by language: is the search plugin "
                        "listed in mkdocs.yml?")
