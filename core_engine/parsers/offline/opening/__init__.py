"""Opening a task: which task a turn asks for, and the values an opening gives beside it."""
