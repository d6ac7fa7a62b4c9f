"""Fixtures of the web console's suite: a real headless Chromium for the browser tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def browser() -> Iterator[object]:
    if CHROMIUM is None:
        reason = "chromium is not installed (apt-get install chromium; .ci/run installs it)"
        if os.environ.get("COWDREAM_REQUIRE_BROWSER"):
            pytest.fail(reason)  # CI sets this: there the browser tests must run
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            yield chromium
        finally:
            chromium.close()
