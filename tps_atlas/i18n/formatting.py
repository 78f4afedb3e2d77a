"""Numbers, sizes, speeds and dates in a language's own format, through Babel (CLDR).

>>> nl, fr, en = Formatter("nl"), Formatter("fr"), Formatter("en")
>>> nl.tok_s(29.6), nl.bandwidth(3940), nl.month(dt.date(2022, 8, 4))
('29,6 tok/s', '3.940 GB/s', 'augustus 2022')
>>> fr.bandwidth(3940) == "3\u202f940\u00a0Go/s"
True
>>> fr.month(dt.date(2022, 8, 4)), en.month(dt.date(2022, 8, 4))
('août 2022', 'August 2022')
>>> nl.flop(3.5e23), en.flop(4.42e24)
('3,5 × 10²³ FLOP', '4.4 × 10²⁴ FLOP')
>>> nl.names(["A", "B", "C"]), fr.percent(0.325)
('A, B en C', '32,5\xa0%')

Parameter and token counts in words in prose, abbreviated in tables; French puts a no-break
space before every unit:

>>> de = Formatter("de")
>>> nl.parameters(130), nl.parameters_short(1000)
('130 miljard', '1\xa0bln.')
>>> de.parameters(130), de.parameters_short(130), de.tokens(14.8e12)
('130 Milliarden', '130\xa0Mrd.', '14,8 Billionen')
>>> fr.parameters(30.5) == "30,5\u00a0milliards" and fr.tokens(36e12) == "36\u202f000\u00a0milliards"
True
>>> fr.gb(20) == "20,0\u00a0Go" and fr.tok_s(348) == "348\u00a0tok/s"
True
>>> en.parameters(0.49), en.parameters_short(8.03), nl.count(152e9), nl.count(4096)
('490 million', '8B', '152 miljard', '4.096')
>>> nl.count_words(1, capital=True), fr.count_words(1, feminine=True), de.count_words(2), de.count_words(13)
('Eén', 'une', 'zwei', '13')
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re

from babel import Locale
from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_compact_decimal, format_decimal, format_percent

# French dates: the first of a month is "1er" (CLDR has no ordinal day in its patterns).
FRENCH_FIRST = re.compile(r"(?<!\d)1(?!\d)")
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

# Unit symbols differ by language: French writes octets (Go, Gio), not bytes (GB, GiB).
UNITS = {
    "fr": {"GB": "Go", "GiB": "Gio", "GB/s": "Go/s", "kW": "kW"},
}
# French typography keeps a number and its unit (or its "milliards") on one line.
UNIT_SPACE = {"fr": "\u00a0"}
# Counts from here up are written in words ("152 miljard"): digit strings that long are unreadable.
WORDS_FROM = 1e9
# Small numbers as words, for prose that style wants spelled out ("Twee daarvan", "Deux d'entre
# elles", "Nur eine"). Babel has no spell-out rules; twelve is where the style guides stop.
# Index 1 per gender where the language inflects it: (neutral/masculine, feminine).
NUMBER_WORDS = {
    "en": ["zero", ("one", "one"), "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten", "eleven", "twelve"],
    "nl": ["nul", ("één", "één"), "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen",
           "tien", "elf", "twaalf"],
    "fr": ["zéro", ("un", "une"), "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
           "dix", "onze", "douze"],
    "de": ["null", ("ein", "eine"), "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
           "zehn", "elf", "zwölf"],
}


def remembered(method):
    """A method whose text depends on its arguments alone, worked out once per value: Babel is
    slow, and a build formats the same few thousand figures again and again on every page."""
    @functools.wraps(method)
    def once(self, *args, **kwargs):
        key = (method.__name__, args, tuple(sorted(kwargs.items())))
        if key not in self._remembered:
            self._remembered[key] = method(self, *args, **kwargs)
        return self._remembered[key]
    return once


class Formatter:
    """Every number, unit and date of one language's pages.

    ``memory``: the unit memory is written in, as its symbol and its size in decimal gigabytes.
    The figures handed in are decimal gigabytes; a calibration that counts memory as it is sold
    (binary: ``("GiB", 1.073741824)``) has them written in gibibytes, so that a need that fits a
    "24 GB" card never reads as more than 24. A size as labelled (``vram``) is in that unit already;
    data read per token stays in decimal gigabytes, the unit of bandwidth (``gb_read``).

    >>> binary = Formatter("fr", memory=("GiB", 1.073741824))
    >>> binary.gb(25.769803776) == "24,0\u00a0Gio" and binary.vram(24) == "24\u00a0Gio"
    True
    >>> Formatter("en", memory=("GiB", 1.073741824)).gb_read(0.18, 2), Formatter("en").gb(25.8)
    ('0.18 GB', '25.8 GB')
    """

    def __init__(self, language: str, memory: tuple[str, float] = ("GB", 1.0)):
        self.language = language
        self.locale = Locale.parse(language)
        self.memory_unit, self.gb_per_memory_unit = memory
        self._remembered: dict[tuple, str] = {}

    def __repr__(self) -> str:
        return f"<Formatter {self.language}>"

    def unit(self, symbol: str) -> str:
        return UNITS.get(self.language, {}).get(symbol, symbol)

    @property
    def unit_space(self) -> str:
        """What joins a number and its unit: a no-break space in French (the calculator needs it too)."""
        return UNIT_SPACE.get(self.language, " ")

    def browser_units(self) -> dict[str, str]:
        """The unit spellings the browser's formatter takes from the page, to write units as this does."""
        return {" ": self.unit_space, "GB": self.unit("GB"), "GB/s": self.unit("GB/s"),
                "memory": self.unit(self.memory_unit), "gb_per_memory_unit": self.gb_per_memory_unit,
                "%": self.percent(0.5).removeprefix(self.count(50))}

    def with_unit(self, number: str, symbol: str) -> str:
        """``number`` and its unit, joined by a no-break space where the language wants one."""
        return f"{number}{self.unit_space}{self.unit(symbol)}"

    def decimal(self, value: float, digits: int = 1) -> str:
        """A number with exactly ``digits`` decimals, grouped the local way.

        >>> Formatter("de").decimal(1234.56), Formatter("fr").decimal(29.649, 2)
        ('1.234,6', '29,65')
        """
        return self._printed(round(value, digits), "#,##0" + ("." + "0" * digits if digits else ""))

    def integer(self, value: float) -> str:
        return self._printed(round(value), "#,##0")

    def _printed(self, rounded: float, pattern: str) -> str:
        """``rounded`` in ``pattern``, worked out once per number printed: a page's speeds are
        thousands of different values that print as a few hundred numbers. The sign is part of
        the key, as Babel writes -0.0 as "-0"."""
        key = (pattern, rounded, math.copysign(1.0, rounded))
        if key not in self._remembered:
            self._remembered[key] = format_decimal(rounded, format=pattern, locale=self.locale)
        return self._remembered[key]

    def significant(self, value: float) -> str:
        """Speeds read best with three figures: 376, 29.6, 4.35."""
        if value >= 100:
            return self.integer(value)
        return self.decimal(value, 1 if value >= 10 else 2 if value < 1 else 1)

    @remembered
    def gb(self, value: float, digits: int = 1) -> str:
        """Memory held (a need, weights, a shortfall), ``value`` in decimal GB, written in the
        pages' memory unit; one precision per page: one decimal from 1 up whatever the caller asks
        ("108,9 GB" in the sum and in the sentence); below 1 the decimals asked for, without
        trailing zeros ("0,18 GB", "0,5 GB", "0,045 GB").

        >>> nl = Formatter("nl")
        >>> nl.gb(108.875, 2), nl.gb(0.18, 2), nl.gb(0.5, 2), nl.gb(0.045, 3), nl.gb(64, 0)
        ('108,9 GB', '0,18 GB', '0,5 GB', '0,045 GB', '64 GB')
        """
        return self._memory(value / self.gb_per_memory_unit, digits, self.memory_unit)

    @remembered
    def gb_read(self, value: float, digits: int = 1) -> str:
        """Data read per token, in decimal GB like the bandwidth it is divided by."""
        return self._memory(value, digits, "GB")

    @remembered
    def vram(self, value: float) -> str:
        """A size as it is labelled (a card's VRAM, a RAM kit): binary gigabytes sold as "GB"."""
        digits = 0 if float(value).is_integer() else 1
        return self._memory(value, digits, self.memory_unit)

    def _memory(self, value: float, digits: int, symbol: str) -> str:
        if value >= 1:
            digits = min(digits, 1)
        while digits > 1 and round(value, digits) == round(value, digits - 1):
            digits -= 1
        return self.with_unit(self.decimal(value, digits), symbol)

    @remembered
    def bandwidth(self, value: float) -> str:
        return self.with_unit(self.integer(value) if value >= 100 else self.decimal(value, 1), "GB/s")

    @remembered
    def tok_s(self, value: float) -> str:
        return self.with_unit(self.significant(value), "tok/s")

    def seconds(self, value: float) -> str:
        return self.with_unit(self.significant(value), "s")

    @remembered
    def tok_range(self, low: float, high: float) -> str:
        """A speed's range: whole numbers from 10 tok/s up, and below that as the speeds themselves
        are written, so that a figure of 0.93 tok/s is not given the range "1–1".

        >>> en = Formatter("en")
        >>> en.tok_range(24.4, 60.2), en.tok_range(0.61, 1.24), en.tok_range(6.3, 15.2)
        ('24–60', '0.61–1.2', '6.3–15')
        """
        return f"{self.range_end(low)}–{self.range_end(high)}"

    def range_end(self, value: float) -> str:
        return self.integer(value) if value >= 10 else self.significant(value)

    @remembered
    def month(self, date: dt.date) -> str:
        return format_date(date, "LLLL yyyy", locale=self.locale)

    def day(self, date: dt.date) -> str:
        """A date in full. French writes the first of a month as an ordinal, "1er décembre 2026"
        (CLDR's long format gives "1 décembre"); other days stay cardinal.

        >>> fr = Formatter("fr")
        >>> fr.day(dt.date(2026, 12, 1)), fr.day(dt.date(2026, 12, 2)), Formatter("en").day(dt.date(2026, 12, 1))
        ('1er décembre 2026', '2 décembre 2026', 'December 1, 2026')
        """
        text = format_date(date, "long", locale=self.locale)
        if self.language == "fr" and date.day == 1:
            text = FRENCH_FIRST.sub("1er", text, count=1)
        return text

    def flop(self, value: float) -> str:
        exponent = math.floor(math.log10(value))
        mantissa = value / 10 ** exponent
        if round(mantissa, 1) >= 10:
            mantissa, exponent = mantissa / 10, exponent + 1
        return self.with_unit(f"{self.decimal(mantissa, 1)} × 10{str(exponent).translate(SUPERSCRIPTS)}", "FLOP")

    @remembered
    def percent(self, share: float) -> str:
        # The locale's own pattern (spacing, sign position), with one optional decimal.
        pattern = self.locale.percent_formats[None].pattern.replace("0", "0.#", 1)
        return format_percent(share, format=pattern, locale=self.locale)

    def names(self, items) -> str:
        items = list(items)
        return format_list(items, locale=self.locale) if items else ""

    @remembered
    def words(self, value: float, short: bool = False) -> str:
        """A large count in the language's words, one decimal at most: 14,8 biljoen, 130 Mrd.

        French counts in milliards beyond a thousand billion ("36 000 milliards de jetons"), as
        its press does; "billion" (10¹²) reads as a false friend to many readers.
        """
        if self.language == "fr" and value >= 1e12:
            return self.with_unit(self.decimal(value / 1e9, 0 if (value / 1e9).is_integer() else 1),
                                  "Md" if short else "milliards")
        text = format_compact_decimal(value, format_type="short" if short else "long",
                                      locale=self.locale, fraction_digits=1)
        return text.replace(" ", UNIT_SPACE[self.language]) if self.language in UNIT_SPACE else text

    def parameters(self, billions: float) -> str:
        """A parameter count for prose, in words: 130 miljard, 30,5 milliards, 490 Millionen.

        The sentence adds the noun ("{params} parameters"; French "{params} de paramètres").
        """
        return self.words(billions * 1e9)

    def parameters_short(self, billions: float) -> str:
        """A parameter count for table cells: 130 mld., 30,5 Md, 130 Mrd., 130B."""
        return self.words(billions * 1e9, short=True)

    def tokens(self, value: float) -> str:
        """A token count: words from a billion up (14,8 biljoen), digits below (4.096)."""
        return self.count(value)

    def count(self, value: float) -> str:
        """A count in digits, or in words from a billion up (152 miljard)."""
        return self.words(value) if value >= WORDS_FROM else self.integer(value)

    def count_words(self, value: int, feminine: bool = False, capital: bool = False) -> str:
        """Zero to twelve as a word, for prose that starts with a count or style that spells it
        out ("Twee daarvan", "Une seule carte", "Nur eine Grafikkarte"); larger counts as digits.

        >>> Formatter("nl").count_words(5), Formatter("fr").count_words(2, capital=True)
        ('vijf', 'Deux')
        """
        words = NUMBER_WORDS.get(self.language, NUMBER_WORDS["en"])
        if not (isinstance(value, int) or float(value).is_integer()) or not 0 <= value < len(words):
            return self.count(value)
        entry = words[int(value)]
        word = entry if isinstance(entry, str) else entry[1 if feminine else 0]
        if not capital:
            return word
        # Dutch capitalises één as Eén: the accent marks stress, and the capital carries none.
        return "Eén" if word == "één" else word[:1].upper() + word[1:]

    def territory(self, code: str) -> str:
        return self.locale.territories.get(code, code)
