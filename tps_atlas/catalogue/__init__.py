"""Models, cards and devices, their corrections, the catalogue check and drafts of new entries."""
