"""Use cases: what the service does with games, in plain Python over the rules core and a
repository port (``ports.py``). Knows nothing of HTTP or SQL."""
