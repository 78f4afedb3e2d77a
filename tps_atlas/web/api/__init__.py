"""Open data (issue 30): every answer of the site as files others can build on.

``records`` turns the catalogue and the estimate table into plain records (JSON values, English
keys, numbers as numbers); ``schema`` holds them to the published JSON Schemas; ``dataset``
flattens them into CSV; ``moves`` reads the ids that went away; ``writer`` is the MkDocs side
that writes them into the built site. Nothing here but ``writer`` knows MkDocs.
"""
