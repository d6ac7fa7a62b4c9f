"""The chat bot: sessions, plugins, the model loop and the nightly memory jobs."""
