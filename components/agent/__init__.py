"""The Agent and Settings pages: agent settings, APIs, prompts, backends per language component, code trust."""
