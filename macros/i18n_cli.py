"""`tps-atlas i18n`: placeholder until the phrase catalogues land."""


def add_i18n_commands(sub) -> None:
    return None
