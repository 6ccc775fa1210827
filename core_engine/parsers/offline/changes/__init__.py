"""Changes to values already given: corrections and changes of mind."""
