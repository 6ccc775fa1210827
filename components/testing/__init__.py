"""The Tests page: running conversation tests, accepting new behaviour, coverage and the paper's metrics."""
