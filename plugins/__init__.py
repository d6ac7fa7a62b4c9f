"""The plugin framework and CowDream's built-in plugins (memory, commands)."""
