"""Lists of nested item records: several items named, edited, spread and dropped in one turn."""
