"""Where served conversations live: one interface, a SQLite and a PostgreSQL implementation."""
