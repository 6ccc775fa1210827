"""Agent bundles and project folders: export, import by reconstruction, and loading them to run."""
