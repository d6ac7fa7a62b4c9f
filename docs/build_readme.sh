#!/usr/bin/env bash
# README.md is assembled from the docs/ parts: edit those, then run this script.
set -euo pipefail
cd "$(dirname "$0")"
{
  cat intro.md
  for part in bot channels memory dreaming search; do
    [ -f "$part.md" ] || continue
    echo
    # Each part's top heading becomes a second-level heading in the README.
    sed -e 's/^# /## /' -e 't' -e 's/^## /### /' -e 't' -e 's/^### /#### /' "$part.md"
  done
} > ../README.md
