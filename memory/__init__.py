"""CowDream's memory engine: daily notes, Deep Dream and hybrid search.

A library with no bot or channel imports; also run as ``python -m memory``.
"""
