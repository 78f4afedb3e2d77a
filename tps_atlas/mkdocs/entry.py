"""mkdocs-macros loads this file (module_name in mkdocs.yml); the work is in tps_atlas.mkdocs.site."""

from tps_atlas.mkdocs.site import define_env  # noqa: F401
