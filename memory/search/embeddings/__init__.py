"""Embedding providers behind one small protocol; ``registry`` picks one from settings."""
