"""The act stage of a turn: Algorithm 1, its runtime, the sandbox for spec code, the APIs, the agent acts."""
