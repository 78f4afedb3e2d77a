"""Strict YAML, typed fields and the vocabularies: what every data file is read through."""
