"""The tps-atlas command."""
