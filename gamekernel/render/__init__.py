"""Rendering of results to text/plain and self-contained, escaped, deterministic text/html."""
