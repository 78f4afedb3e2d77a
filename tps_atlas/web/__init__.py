"""What the browser reads: assets/tps-data.json and the words of the page scripts."""
