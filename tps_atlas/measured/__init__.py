"""Measured runs and out-of-memory reports, the fitting and the leave-one-device-out scores."""
