"""CowDream: ``python app.py [--config FILE]`` runs the bot on the configured channel."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bot.builder import build_bot
from bot.config import load_config
from bot.errors import BotError
from bot.workspace_lock import WorkspaceLock
from channels.registry import create_channel
from memory.log_setup import configure_logging


def main(argv: list[str] | None = None) -> int:
    # python-telegram-bot 22 warns unless durations are timedeltas; opt in to the new API.
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    parser = argparse.ArgumentParser(prog="app.py", description=__doc__)
    parser.add_argument("--config", type=Path, help="config file (default: ./config.json)")
    args = parser.parse_args(argv)
    path = args.config
    if path is None and Path("config.json").exists():
        path = Path("config.json")
    try:
        config = load_config(path)
    except BotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    configure_logging(config.log_level, config.secrets())
    try:
        lock = WorkspaceLock.acquire(config.workspace)  # one bot per workspace
        channel = create_channel(config)
        bot = build_bot(config, channel=channel)
    except BotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a workspace or plugin folder that cannot be made or used
        where = f": {exc.filename}" if exc.filename else ""
        print(f"error: cannot use the workspace ({exc.strerror or exc}){where}", file=sys.stderr)
        return 2
    bot.start()
    try:
        channel.run(bot)
    except KeyboardInterrupt:
        channel.stop()
    except BotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        bot.shutdown()
        lock.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
