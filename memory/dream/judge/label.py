"""The speaker's label a worded note line opens with ("用户：", "The user: ", "Mia: "), as the
judges strip it before reading what the line says."""

from __future__ import annotations

import re

LABEL = re.compile(r"^(?:用户|The user|[^:：\s]{1,12})(?:：|: )")
