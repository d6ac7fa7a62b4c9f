"""Channel adapters: terminal, web console, Telegram, WeChat."""
