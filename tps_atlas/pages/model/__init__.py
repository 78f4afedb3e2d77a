"""One module per section of a model page; builder.py puts them together."""
