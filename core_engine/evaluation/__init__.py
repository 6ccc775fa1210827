"""Conversation tests, the paper's metrics (`genie eval`) and spec coverage."""
