"""mkdocs-macros loads this file (module_name in mkdocs.yml); the work is in macros.site."""

from macros.site import define_env  # noqa: F401
