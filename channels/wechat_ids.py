"""Per-login mapping between WeChat's session ``UserName``s and stable scope ids.

Web WeChat renames every contact and group (``@...``/``@@...``) at each login, so memory is
keyed by a stable name instead (see :func:`channels.wechat_rules.stable_contact_id`). Within
one login the first stable id seen for a ``UserName`` is kept, so a group renamed while the
bot runs keeps its memory; the reverse map lets :meth:`WeChatChannel.send` find the chat
again for an unprompted message. :meth:`SessionIds.reset` forgets all at a new login.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from channels.wechat_rules import stable_contact_id

log = logging.getLogger(__name__)


class SessionIds:
    """Thread-safe ``UserName`` <-> stable id map for the current login session."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stable: dict[str, str] = {}  # UserName -> stable id
        self._session: dict[tuple[bool, str], str] = {}  # (is_group, stable id) -> UserName
        self._ambiguous: set[tuple[bool, str]] = set()

    def chat_id(
        self,
        contact: Mapping[str, Any],
        is_group: bool,
        peers: Iterable[Mapping[str, Any]] = (),
    ) -> str | None:
        """The stable id of ``contact`` (a friend or a group), fixed for this session.

        None when the id is ambiguous: another contact among ``peers`` (the friend or group
        list) or seen this session has the same name, so their memories would merge.
        """
        user_name = str(contact.get("UserName") or "")
        with self._lock:
            known = self._stable.get(user_name)
            if known is not None:
                return None if (is_group, known) in self._ambiguous else known
            stable = stable_contact_id(contact)
            seen = self._session.get((is_group, stable))
            clash = (seen is not None and seen != user_name) or any(
                str(p.get("UserName") or "") != user_name and stable_contact_id(p) == stable
                for p in peers
            )
            if clash:
                self._ambiguous.add((is_group, stable))
                log.warning(
                    "two WeChat %s share the name %r; give them remark names to tell their "
                    "memories apart (ignoring their messages until then)",
                    "groups" if is_group else "contacts",
                    stable,
                )
                return None
            if user_name:
                self._stable[user_name] = stable
                self._session[(is_group, stable)] = user_name
            return stable

    def user_name(self, chat_id: str, is_group: bool) -> str | None:
        """The session ``UserName`` of a chat seen during this login, if any."""
        with self._lock:
            return self._session.get((is_group, chat_id))

    def reset(self) -> None:
        with self._lock:
            self._stable.clear()
            self._session.clear()
            self._ambiguous.clear()
