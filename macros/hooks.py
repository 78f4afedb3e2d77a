"""MkDocs hooks (mkdocs.yml `hooks:`): each hands over to macros.site.

Priorities: mkdocs-static-i18n runs at -100 on files and page context and
builds the other languages in its post-build; these run after it.
"""

from mkdocs.plugins import event_priority

from macros import site


@event_priority(100)
def on_config(config):
    site.check_inputs(config)
    return config


@event_priority(-200)
def on_files(files, config):
    return site.add_generated_pages(files, config)


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
