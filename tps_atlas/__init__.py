"""TPS Atlas: which GPU can run this open-weight model, and how fast."""
