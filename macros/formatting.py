"""Numbers, sizes, speeds and dates in a language's own format, through Babel (CLDR).

>>> nl, fr, en = Formatter("nl"), Formatter("fr"), Formatter("en")
>>> nl.tok_s(29.6), nl.bandwidth(3940), nl.month(dt.date(2022, 8, 4))
('29,6 tok/s', '3.940 GB/s', 'augustus 2022')
>>> fr.bandwidth(3940) == "3\u202f940 Go/s"
True
>>> fr.month(dt.date(2022, 8, 4)), en.month(dt.date(2022, 8, 4))
('août 2022', 'August 2022')
>>> nl.flop(3.5e23), en.flop(4.42e24)
('3,5 × 10²³ FLOP', '4.4 × 10²⁴ FLOP')
>>> nl.names(["A", "B", "C"]), fr.percent(0.325)
('A, B en C', '32,5\xa0%')
>>> en.parameters(130), nl.parameters(1.5), en.parameters(0.5)
('130B', '1,5B', '0.5B')
"""

from __future__ import annotations

import datetime as dt
import math

from babel import Locale
from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

# Unit symbols differ by language: French writes octets (Go), not bytes (GB).
UNITS = {
    "fr": {"GB": "Go", "GB/s": "Go/s", "kW": "kW"},
}


class Formatter:
    """Every number, unit and date of one language's pages."""

    def __init__(self, language: str):
        self.language = language
        self.locale = Locale.parse(language)
        self._cache: dict[tuple[float, int], str] = {}
        self._months: dict[tuple[int, int], str] = {}

    def unit(self, symbol: str) -> str:
        return UNITS.get(self.language, {}).get(symbol, symbol)

    def decimal(self, value: float, digits: int = 1) -> str:
        """A number with exactly ``digits`` decimals, grouped the local way."""
        key = (round(value, digits), digits)
        # Babel is slow and a build formats the same few thousand values again and again.
        if key not in self._cache:
            pattern = "#,##0" + ("." + "0" * digits if digits else "")
            self._cache[key] = format_decimal(key[0], format=pattern, locale=self.locale)
        return self._cache[key]

    def integer(self, value: float) -> str:
        return format_decimal(round(value), format="#,##0", locale=self.locale)

    def significant(self, value: float) -> str:
        """Speeds read best with three figures: 376, 29.6, 4.35."""
        if value >= 100:
            return self.integer(value)
        return self.decimal(value, 1 if value >= 10 else 2 if value < 1 else 1)

    def gb(self, value: float, digits: int = 1) -> str:
        return f"{self.decimal(value, digits)} {self.unit('GB')}"

    def vram(self, value: float) -> str:
        digits = 0 if float(value).is_integer() else 1
        return self.gb(value, digits)

    def bandwidth(self, value: float) -> str:
        return f"{self.integer(value)} {self.unit('GB/s')}" if value >= 100 else \
            f"{self.decimal(value, 1)} {self.unit('GB/s')}"

    def tok_s(self, value: float) -> str:
        return f"{self.significant(value)} tok/s"

    def seconds(self, value: float) -> str:
        return f"{self.significant(value)} s"

    def tok_range(self, low: float, high: float) -> str:
        return f"{self.integer(low)}–{self.integer(high)}"

    def month(self, date: dt.date) -> str:
        key = (date.year, date.month)
        if key not in self._months:
            self._months[key] = format_date(date, "LLLL yyyy", locale=self.locale)
        return self._months[key]

    def day(self, date: dt.date) -> str:
        return format_date(date, "long", locale=self.locale)

    def flop(self, value: float) -> str:
        exponent = math.floor(math.log10(value))
        mantissa = value / 10 ** exponent
        if round(mantissa, 1) >= 10:
            mantissa, exponent = mantissa / 10, exponent + 1
        return f"{self.decimal(mantissa, 1)} × 10{str(exponent).translate(SUPERSCRIPTS)} FLOP"

    def percent(self, share: float) -> str:
        # The locale's own pattern (spacing, sign position), with one optional decimal.
        pattern = self.locale.percent_formats[None].pattern.replace("0", "0.#", 1)
        return format_percent(share, format=pattern, locale=self.locale)

    def names(self, items) -> str:
        items = list(items)
        return format_list(items, locale=self.locale) if items else ""

    def parameters(self, billions: float) -> str:
        """Parameter counts the way model names write them: 130B, 1,5B."""
        digits = 0 if float(billions).is_integer() else (1 if billions >= 1 else 2)
        text = self.decimal(billions, digits)
        if digits and text.endswith("0") and billions < 1:
            text = text[:-1]
        return f"{text}B"

    def count(self, value: float) -> str:
        return self.integer(value)

    def territory(self, code: str) -> str:
        return self.locale.territories.get(code, code)
