"""Knowledge-base files: reading, sniffing and importing tables into SQLite, and managing them."""
