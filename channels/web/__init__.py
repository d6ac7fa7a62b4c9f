"""The web console channel: chat, memory browser, dream diary (FastAPI + plain HTML/JS)."""
