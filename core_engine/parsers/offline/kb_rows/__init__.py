"""KB rows in a turn: a row named or picked from the last results, several rows as items with their options, a request for a row with the task that takes it."""
