"""mkdocs-macros loads this file (``module_name`` in mkdocs.yml): the hand-made pages' macros, each
the renderer of the language being built (the plugin's, tps_atlas/mkdocs/plugin.py)."""

from tps_atlas.mkdocs.plugin import TpsAtlasPlugin

PLUGIN = "tps-atlas"  # its name in mkdocs.yml and in pyproject.toml's entry point


def define_env(env) -> None:
    config = env.conf

    def renderer():
        plugin = config.plugins[PLUGIN]
        assert isinstance(plugin, TpsAtlasPlugin)
        return plugin.renderer(config)

    @env.macro
    def home() -> str:
        return renderer().render_home()

    @env.macro
    def models_index() -> str:
        return renderer().render_models_index()

    @env.macro
    def cards_index() -> str:
        return renderer().render_cards_index()

    @env.macro
    def machine_page() -> str:
        from tps_atlas.web.machine_ui import machine_page_html

        return machine_page_html(renderer().phrases)

    @env.macro
    def methodology() -> str:
        return renderer().render_methodology()
