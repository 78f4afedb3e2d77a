"""What the pages show: the figures decided per model and card, and the sections that word them."""
