"""The MkDocs side: hooks, the mkdocs-macros entry, rendering, search and sitemap, the site stamp, templates."""
