"""Benchmarks: scripts that print figures (never tests). See bench/README.md."""
