"""The Projects page: the project list, import and export of whole projects."""
