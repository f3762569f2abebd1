"""Side-by-side benchmarks against the peers; `python -m benchmarks` (or `make bench`) runs them all."""
