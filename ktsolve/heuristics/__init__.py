"""Heuristic and metaheuristic side: numba kernels that build tours of large boards fast."""
