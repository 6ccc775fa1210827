"""What the user's words are: values (numbers, dates, names, phone numbers), negation, answers to a field, and word and meaning matches against the spec."""
