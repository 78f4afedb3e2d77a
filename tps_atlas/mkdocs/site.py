"""The MkDocs side's work, one function per step, for the plugin (``plugin.py``) to call: the plugin
holds the build's state and hands each step what it needs (the renderer of the language being
built, the pages so far); nothing here keeps anything between calls.

mkdocs-static-i18n builds the languages one after another; ``build_language`` asks it which
language is being built.

``TPS_PREVIEW=glm-130b,glm-5`` builds only those model pages (and the card pages of any card
ids listed with them, ``TPS_PREVIEW=glm-130b,h100-nvl-94gb``): a quick preview for translators
and editors (`TPS_PREVIEW=glm-130b mkdocs serve`), and the small site the tests read.
"""

from __future__ import annotations

import gzip
import html as html_module
import json
import os
import re
from pathlib import Path
from urllib.parse import urlsplit
from xml.sax.saxutils import escape as xml_escape

from jinja2.bccache import Bucket, BytecodeCache
from markupsafe import escape

from tps_atlas.catalogue.load import load_catalogue, load_portal
from tps_atlas.errors import DataError
from tps_atlas.estimate.settings import load_settings
from tps_atlas.web.data import card_labels, write_card_labels, write_site_data
from tps_atlas.pages.feed import feed_xml
from tps_atlas.pages.moved import moved_pages
from tps_atlas.i18n.phrases import LANGUAGES, N_, Phrases
from tps_atlas.mkdocs.render import Renderer, ui_settings
from tps_atlas.web.api.open_data import load_open_data
from tps_atlas.web.api.writer import build_date, write_open_data
from tps_atlas.mkdocs.page_shell import device_button, finish_shell

DEFAULT_LANGUAGE = "en"
# Hand-made pages (docs/en/*.md): their titles are phrases like any other.
PAGE_TITLES = {
    "index.md": (N_("Which GPU runs which open-weight model, and how fast?"),
                 N_("Every open-weight language model against every graphics card: memory needed, speed and fit.")),
    "models.md": (N_("All models"), N_("Every open-weight model we track, with the devices that run it.")),
    "cards.md": (N_("All devices"), N_("Every graphics card and machine we track, by vendor and memory size.")),
    "machine.md": (N_("My machine"),
                   N_("Every model on your own machine: its GPUs, of any mix, and the RAM beside them.")),
    "methodology.md": (N_("How we estimate"), N_("The formulas, constants and measured accuracy behind every figure.")),
    "translators.md": (N_("Translators' guide"),
                       N_("How the phrase catalogues of this site are translated and checked.")),
}
TABLE_SLOT = re.compile(r'<div class="tps-table-slot" data-(model|card)="([a-z0-9.-]+)"></div>')
CONFIG_BASE = re.compile(r'(<script id="__config" type="application/json">\{"annotate": [^,]*, "base": ")([^"]*)(")')
MARKUP = re.compile(r"<!--.*?-->|<[^>]*>", re.S)
SITEMAP_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"'

# Build settings from the environment. SITE_URL lands in every canonical link, hreflang and
# the sitemap: only a plain http(s) address, no quote, bracket or space that could end the attribute.
SITE_URL_PATTERN = re.compile(r"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~!$&()*+,;=:@%/-]*)?$")
LANGUAGE_SWITCHES = {"nl": "TPS_BUILD_NL", "fr": "TPS_BUILD_FR", "de": "TPS_BUILD_DE"}


def build_language(config) -> str:
    """The language mkdocs-static-i18n is building now (it builds them in turn)."""
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or DEFAULT_LANGUAGE


def language_prefix(language: str) -> str:
    return "" if language == DEFAULT_LANGUAGE else f"{language}/"


def language_root(site_url: str, prefix: str) -> str:
    """The address of a language's home, from the site's address (SITE_URL) and its prefix."""
    return (site_url or "/").rstrip("/") + "/" + prefix


def renderer(language: str, calibration: str | None) -> Renderer:
    catalogue = load_catalogue()
    return Renderer(language, catalogue, load_settings(), load_portal(catalogue), calibration)


def attribute_safe(html: str) -> str:
    """A phrase's HTML as text escaped for an attribute and <title>: Material prints page
    titles and descriptions unescaped (``content="{{ page.meta.description }}"``).

    Unlike Markup.striptags it keeps the spaces as they are (French no-break spaces).

    >>> attribute_safe('Evil&#34; onmouseover=&#34;x <b>7B</b>\xa0:')
    'Evil&#34; onmouseover=&#34;x 7B\xa0:'
    """
    return str(escape(html_module.unescape(MARKUP.sub("", html))))


def generated_page(kind: str, item: str, title: str, description: str) -> str:
    """A generated page: front matter only (title and description as JSON strings, which
    YAML reads as plain text). ``render_macros: false`` keeps mkdocs-macros from reading
    the page, or its title, as a template; ``set_page_meta`` renders the HTML and
    ``put_page_html`` makes it the page's content."""
    title, description = attribute_safe(title), attribute_safe(description)
    return (f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\n"
            f"description: {json.dumps(description, ensure_ascii=False)}\n"
            f"render_macros: false\ntps_page: {kind}:{item}\n---\n")


# ------------------------------------------------------------------ steps

def preview_ids() -> list[str]:
    return [i.strip() for i in os.environ.get("TPS_PREVIEW", "").split(",") if i.strip()]


def check_settings(config, calibration: str | None) -> None:
    """The build settings of the environment (mkdocs.yml reads some of them, ``calibration`` among
    them): each error names its variable."""
    site_url = config.site_url or ""
    parts = urlsplit(site_url) if SITE_URL_PATTERN.match(site_url) else None
    if site_url and (parts is None or parts.query or parts.fragment):
        raise DataError("environment", "SITE_URL (site_url)",
                        "an http(s) address such as https://tps-atlas.example.org/", site_url)
    i18n = config.plugins.get("i18n")
    for language in getattr(getattr(i18n, "config", None), "languages", None) or []:
        variable = LANGUAGE_SWITCHES.get(language.locale)
        if variable is None:
            continue
        value = os.environ.get(variable, "true")
        if value.strip().casefold() not in ("true", "false"):
            raise DataError("environment", variable, f"true or false (build the {language.name} pages or not)",
                            value)
        language.build = value.strip().casefold() == "true"
    settings = load_settings()
    if calibration is not None and calibration not in settings.calibrations:
        raise DataError("environment", "TPS_CALIBRATION", "one of " + ", ".join(settings.calibrations)
                        + " (data/estimator.yaml), or empty for the default", calibration)
    catalogue = load_catalogue()
    load_open_data(catalogue)  # the moved ids, licence and citation, before anything is written
    unknown = [i for i in preview_ids() if i not in catalogue.models_by_id and i not in catalogue.cards_by_id]
    if unknown:
        raise DataError("environment", "TPS_PREVIEW", "model or card ids separated by commas "
                        "(see `tps-atlas models`, `tps-atlas cards`)", ",".join(unknown))


def add_generated_pages(files, config, r: Renderer, site_pages: list[str]):
    """One page per model and per card, in ``r``'s language (ids are [a-z0-9.-]); the default
    language's URLs go to ``site_pages``, for the sitemap."""
    from mkdocs.structure.files import File

    prefix = language_prefix(r.phrases.language)
    preview = preview_ids()
    for model in r.catalogue.models:
        if preview and model.id not in preview:
            continue
        model_page = r.model_page(model.id)
        files.append(File.generated(config, f"{prefix}models/{model.id}.md", content=generated_page(
            "model", model.id, model_page.title, model_page.description)))
    for card in r.catalogue.cards:
        if preview and card.id not in preview:
            continue
        page = r.card_page(card.id)
        files.append(File.generated(config, f"{prefix}cards/{card.id}.md",
                                    content=generated_page("card", card.id, page.title, page.description)))
    if not prefix:
        site_pages[:] = sorted(f.url.removeprefix("./") for f in files.documentation_pages())
    return files


def page_key(page) -> str:
    """docs/en/models.md, and a language's own docs/fr/methodology.md, are 'models.md' and
    'methodology.md' whichever language is being built."""
    folder, _, rest = page.file.src_uri.partition("/")
    return rest if folder in LANGUAGES and rest else page.file.src_uri


def set_nav_titles(nav, phrases: Phrases):
    """Titles of the hand-made pages, in the language being built, before the nav is drawn."""
    for page in nav.pages:
        if page_key(page) in PAGE_TITLES:
            # Material's navigation prints titles unescaped.
            page.title = str(escape(phrases.gettext(PAGE_TITLES[page_key(page)][0])))
    return nav


def set_page_meta(markdown, page, r: Renderer, page_html: dict[str, str]):
    """Descriptions of the hand-made pages, in the page's language; the HTML of generated ones.

    A generated page is HTML from our templates: Markdown would only parse it twice (its raw-HTML
    block and mkdocs' anchor collection) to hand it back as it is, so Markdown gets an empty page,
    the HTML waits in ``page_html`` (by source path) and the plugin puts it in as the page's
    content, before search and the theme."""
    kind, _, item = str(page.meta.get("tps_page", "")).partition(":")
    if kind in ("model", "card"):
        page_html[page.file.src_uri] = r.render_model(item) if kind == "model" else r.render_card(item)
        return ""
    if page_key(page) in PAGE_TITLES:
        page.meta["description"] = str(escape(r.phrases.gettext(PAGE_TITLES[page_key(page)][1])))
    return markdown


class CompiledTemplates(BytecodeCache):
    """The theme's templates compiled once per process: mkdocs-static-i18n builds each language
    with a new Jinja environment, which would compile every Material template again. Jinja checks
    each entry against the template's source, so an edited template is compiled afresh."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


def alternates(url: str) -> list[dict]:
    """The same page in every language: the language switcher and hreflang links."""
    bare = url
    for language in LANGUAGES:
        if language != DEFAULT_LANGUAGE and url.startswith(f"{language}/"):
            bare = url[len(language) + 1:]
    return [{"name": Phrases(language).locale_name, "lang": language,
             "link": "/" + language_prefix(language) + bare} for language in LANGUAGES]


def finish_page(output: str, r: Renderer) -> str:
    """Put in the large card tables (kept out of Markdown and the search index), and point
    a translated page's search at its own language's index."""
    output = TABLE_SLOT.sub(lambda match: r.render_model_table(match.group(2)) if match.group(1) == "model"
                            else r.render_card_tables(match.group(2)), output)
    # Every page's header offers "My device": its words go before the scripts that read them.
    output = output.replace('<script id="__config"', str(r.ui_script()) + '<script id="__config"', 1)
    # The same words as the header button device.js labels (tps_atlas/web/ui.py: my_device, choose).
    output = finish_shell(output, device_button(r.phrases.gettext("My device"),
                                                r.phrases.gettext("Choose your GPU or machine")),
                          ui_settings().table_page_rows, r.phrases.gettext)
    prefix = language_prefix(r.phrases.language)
    if prefix:
        # With the trailing slash: material resolves "search/search_index.json" against this base.
        output = CONFIG_BASE.sub(lambda m: m.group(1) + m.group(2) + "/" + prefix + m.group(3),
                                 output, count=1)
    return output


def finish_site(site_dir: Path, site_url: str, renderers: dict[str, Renderer], browser_data: dict,
                site_pages: list[str]) -> bool:
    """After the last language: the calculator's data (once for all languages, checked in
    on_config), each language's feed of recently added models (feed.xml), the open data
    (tps_atlas/web/api/), a search index per language, and a sitemap with alternates. False when
    there was no search index to split (no search plugin)."""
    write_site_data(site_dir, browser_data)
    first = renderers[DEFAULT_LANGUAGE]
    # The published answers are those of the default calibration: a build at another moves nothing.
    # A preview compares only its own models (the whole catalogue's answers take seconds).
    preview = set(preview_ids())
    shown = [m for m in first.catalogue.models if not preview or m.id in preview]
    moves = (moved_pages(first.table, shown, first.catalogue.cards)
             if first.calibration.name == first.settings.calibration(None).name else ())
    for language in LANGUAGES:
        r = renderers[language]
        write_card_labels(site_dir, language, card_labels(r.phrases, r.catalogue, r.confidence))
        prefix = language_prefix(language)
        (site_dir / prefix).mkdir(parents=True, exist_ok=True)
        (site_dir / prefix / "feed.xml").write_text(feed_xml(r.phrases, r.catalogue, language_root(site_url, prefix),
                                                             moves, build_date()),
                                                    encoding="utf-8")
    write_open_data(site_dir, first.table, first.catalogue, first.settings, load_open_data(first.catalogue), site_url,
                    preview_ids())
    split = split_search_index(site_dir)
    write_sitemap(site_dir, site_url, site_pages)
    return split


def split_search_index(site_dir: Path) -> bool:
    path = site_dir / "search" / "search_index.json"
    if not path.exists():
        return False
    index = json.loads(path.read_text(encoding="utf-8"))
    for language in LANGUAGES:
        prefix = language_prefix(language)
        docs = []
        for doc in index["docs"]:
            in_language = doc["location"].startswith(prefix) if prefix else not any(
                doc["location"].startswith(language_prefix(other)) for other in LANGUAGES if other != language)
            if in_language:
                docs.append({**doc, "location": doc["location"][len(prefix):]})
        target = site_dir / prefix / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        config = {**index["config"], "lang": [language]}
        target.write_text(json.dumps({"config": config, "docs": docs}, ensure_ascii=False,
                                     separators=(",", ":")), encoding="utf-8")
    return True


def write_sitemap(site_dir: Path, site_url: str, site_pages: list[str]) -> None:
    base = site_url.rstrip("/") + "/"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f"<urlset {SITEMAP_NS}>"]
    for url in site_pages:
        links = [(alt["lang"], base + alt["link"].lstrip("/")) for alt in alternates(url)]
        for _, loc in links:
            lines.append(f"<url><loc>{xml_escape(loc)}</loc>")
            for lang, href in links:
                lines.append(f'<xhtml:link rel="alternate" hreflang="{lang}" href="{xml_escape(href)}"/>')
            lines.append(f'<xhtml:link rel="alternate" hreflang="x-default" href="{xml_escape(links[0][1])}"/>')
            lines.append("</url>")
    lines.append("</urlset>")
    data = ("\n".join(lines) + "\n").encode("utf-8")
    (site_dir / "sitemap.xml").write_bytes(data)
    (site_dir / "sitemap.xml.gz").write_bytes(gzip.compress(data, mtime=0))
