"""A conversation over turns: the Agent/Session facade, one turn as a function, recording and replay."""
