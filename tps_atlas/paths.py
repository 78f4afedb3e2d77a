"""Where the project's files are: the one place that works them out from this file's location
(a leaf module, like errors.py: it imports nothing of the package)."""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
DATA_DIR = ROOT / "data"
LOCALES_DIR = ROOT / "locales"
TEMPLATES = PACKAGE / "mkdocs" / "templates"
