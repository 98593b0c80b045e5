"""Answer fingerprints over every method, four boards, open and closed, two seeds, and three prove questions.

A refactor that changes no behaviour leaves the printed sha1 the same: run it before and after
(``PYTHONPATH=<tree> python benchmarks/method_answer_hashes.py > answers.json``); each answer is its status
and the sha1 of its tour (or the proof's argument, or the error raised).
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np

import ktsolve
from ktsolve import prove, solve
from ktsolve.registry import methods

print(ktsolve.__file__, file=sys.stderr)
B = ktsolve.Board
boards = [(B(8, 8), {}), (B(10, 10, "a1,c2,e5"), {}), (B(6, 6), {}), (B(12, 12, "b2,h7"), {})]
out = {}
for name, info in methods().items():
    for board, kw in boards:
        for closed in (False, True):
            if closed and not getattr(info, "closed", True):
                continue
            if not closed and not getattr(info, "open", True):
                continue
            for seed in (1, 2):
                try:
                    res = solve(board, name, closed=closed, seed=seed, time_limit=60, **kw)
                except Exception as exc:  # an unsupported question is an answer too
                    out[f"{name} {board.rows}x{board.cols}/{len(board.holes)} {closed} {seed}"] = type(exc).__name__
                    continue
                key = res.status.value
                if res.tour is not None:
                    key += " " + hashlib.sha1(np.asarray(res.tour.squares, dtype="int64").tobytes()).hexdigest()[:12]
                elif res.proof is not None:
                    key += " " + res.proof.argument
                out[f"{name} {board.rows}x{board.cols}/{len(board.holes)} {closed} {seed}"] = key
for board, kw in ((B(4, 6), {}), (B(3, 8), {}), (B(7, 7, "d4"), {})):
    res = prove(board, closed=True, seed=1, **kw)
    out[f"prove {board.rows}x{board.cols}/{len(board.holes)}"] = res.status.value + " " + (res.proof.argument if res.proof else "")
json.dump(out, sys.stdout, indent=0, sort_keys=True)
print(f"{len(out)} answers, sha1 {hashlib.sha1(json.dumps(out, sort_keys=True).encode()).hexdigest()}", file=sys.stderr)
