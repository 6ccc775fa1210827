"""The Graph page: the dependency graph model, its offline drawing, the node panel, the live-state overlay."""
