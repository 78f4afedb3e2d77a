"""MkDocs hooks (mkdocs.yml `hooks:`); the work is in macros.site."""

from mkdocs.plugins import event_priority

from macros.site import add_model_pages, check_inputs


# After mkdocs-static-i18n (-100) has sorted the files of the language being built.
@event_priority(-200)
def on_files(files, config):
    return add_model_pages(files, config)


@event_priority(100)
def on_config(config):
    check_inputs(config)
    return config
