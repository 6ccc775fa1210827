"""The Playground page's widgets and model: chat, time travel, the state inspector, the act trace."""
