"""MkDocs hooks (mkdocs.yml `hooks:`): each hands over to tps_atlas.mkdocs.site.

Priorities: mkdocs-static-i18n runs at -100 on files and page context and
builds the other languages in its post-build; these run after it.
"""

import gc

from mkdocs.plugins import event_priority

from tps_atlas.mkdocs import site


@event_priority(100)
def on_config(config):
    # Loading makes the catalogue and the estimate table, millions of objects that stay to the
    # end of the build and hold no cycles to collect: the collector would walk them again and
    # again as they grow, and again in every full collection after, for nothing.
    gc.disable()
    try:
        site.check_inputs(config)
    finally:
        gc.freeze()
        gc.enable()
    return config


@event_priority(-200)
def on_files(files, config):
    files = site.add_generated_pages(files, config)
    gc.freeze()  # and so do the generated pages' figures
    return files


@event_priority(-200)
def on_env(env, config, files):
    return site.share_compiled_templates(env)


@event_priority(-200)
def on_nav(nav, config, files):
    return site.set_nav_titles(nav, config)


def on_page_markdown(markdown, page, config, files):
    return site.set_page_meta(markdown, page, config)


@event_priority(100)
def on_page_content(html, page, config, files):
    return site.put_page_html(html, page)


@event_priority(-200)
def on_page_context(context, page, config, nav):
    return site.set_alternates(context, page, config)


def on_post_page(output, page, config):
    return site.finish_page(output, page, config)


@event_priority(-200)
def on_post_build(config):
    site.finish_site(config)
    # What the build froze may be garbage by the next build of `mkdocs serve`: collectable again.
    gc.unfreeze()
