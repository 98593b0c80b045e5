"""Exact side: necessary conditions with readable proofs, CP-SAT, python-constraint, exhaustive search."""
