"""Phrases (gettext), names and their forms, Babel formatting, the phrase catalogue check and style."""
