"""The proof steps: every proof a plan can run, what it needs, and how it is called.

A *proof step* is a finder that a plan (:mod:`ktsolve.plans`) runs by
name, between its method steps.  Every finder is called the same way,

``find(graph, spec, *, time_limit=None, **params) -> Proof | None``

where ``time_limit`` is a number of seconds or a caller's
:class:`~ktsolve.driver.Deadline` (which carries a race's cancel flag), as
for methods.  A finder returns a :class:`~ktsolve.result.Proof`, or None
when its argument ran to the end and found no contradiction; when it stops
before the end (its time, a race settled by another step, Ctrl-C, or too
little time to start) it raises :class:`~ktsolve.driver.Stopped`, so that
"found nothing" and "did not finish" never look the same.  A finder warms
its own numba kernels at its entry and extends its clock by the compile
time (:mod:`ktsolve.jit`), as a method does.

Each :class:`ProofStep` names its finder by ``"module:function"`` path (so
that listing the steps imports no finder, no numba and no graph code),
whether it reads the knight graph's arrays (``graph``; the others read only
``graph.board``, the cells), the method name its answers carry, whether
its proofs are necessary conditions, and the ``arguments`` (the
:attr:`Proof.argument` values) it may write; each argument has a checker
in :data:`CHECKERS`, beside the steps (:func:`ktsolve.proofs.check_proof`
looks it up).

Adding a proof kind: its finder (with the signature above), its checker,
and in this file one :class:`ProofStep` line in :data:`PROOF_STEPS` (with
``every_plan=True`` every plan runs it, where its needs allow) and one line
of :data:`CHECKERS` for each new argument.

Examples
--------
>>> proof_step("matching proof").method, proof_step("local cuts").graph
('matching', False)
>>> "2-factor proof" in PROOFS, "splice" in PROOFS
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

__all__ = ["ProofStep", "PROOF_STEPS", "PROOFS", "CHECKERS", "RUN_PACKAGES", "proof_step"]


@dataclass(frozen=True)
class ProofStep:
    """One proof a plan can run by name (see the module's docstring for the finder's signature)."""

    #: The step's name in plans, ``stats["steps"]`` and ``stats["settled_by"]``.
    name: str
    #: ``"module:function"`` of the finder.
    find: str
    #: The method name of an answer this step settles (``SolveResult.method``).
    method: str
    #: Whether the finder reads the knight graph's arrays (False: the board's cells only, any size).
    graph: bool
    #: Whether its proofs are necessary conditions (size, colours, degrees, connectivity, cut squares).
    necessary: bool
    #: The ``Proof.argument`` values it may write.
    arguments: tuple[str, ...]
    #: Seconds a square it takes where it finds nothing (measured; see :data:`PROOF_STEPS`): a racing plan
    #: runs the cheaper steps first (:func:`ktsolve.plans.proof_lane`).
    cost: float = 0.0
    #: Keyword arguments the finder gets (pairs, so the step stays hashable).
    params: tuple = ()
    #: Run in every plan, after the steps :mod:`ktsolve.plans` places by name (beside the constructions,
    #: by its cost), where its needs allow; the steps above are placed by name, with their size limits.
    every_plan: bool = False

    def load(self):
        """The finder function (imports its module)."""
        module, _, name = self.find.partition(":")
        return getattr(import_module(module), name)

    def prepare(self) -> None:
        """Import the finder's module and the packages it imports when it runs (:data:`RUN_PACKAGES`).

        A race calls this before its lanes start: two threads importing one package at once can deadlock
        Python's module locks (:func:`ktsolve.race.prepare_lanes`).
        """
        self.load()
        for package in RUN_PACKAGES:
            import_module(package)

    def run(self, graph, spec, time_limit):
        """Call the finder: a Proof, None (it ran to the end), or :class:`~ktsolve.driver.Stopped`."""
        return self.load()(graph, spec, time_limit=time_limit, **dict(self.params))


#: The packages every finder imports when it runs: its entry warms the proofs' kernels and the 2-factor's
#: (:func:`ktsolve.proofs._common.start`), and the local proofs cut their passes with the 2-factor's chunks.
RUN_PACKAGES = ("ktsolve.factor",)

_NECESSARY = ("size", "closing move", "ends", "colour parity", "degree", "connectivity", "cut square")

#: Every proof step, by name.  The costs are seconds a square where the step finds nothing, measured on
#: holed boards of 10^6 to 10^8 squares (``benchmarks/results/huge_10k.md``, ``two_factor_huge_restored.md``,
#: ``proof_costs.md``); the cut proofs are bounded searches that spend their whole cap.
PROOF_STEPS: dict[str, ProofStep] = {s.name: s for s in (
    ProofStep("local proofs", "ktsolve.proofs.local:local_proof", "proofs", graph=False, necessary=True,
              arguments=("size", "closing move", "ends", "colour parity", "degree", "forced moves"), cost=6e-9,
              params=(("cuts", False),)),
    ProofStep("quick proofs", "ktsolve.proofs.quick:quick_proof", "proofs", graph=True, necessary=True,
              arguments=_NECESSARY, cost=2e-7),
    ProofStep("2-factor proof", "ktsolve.proofs.two_factor:two_factor_proof", "2-factor", graph=False,
              necessary=False, arguments=("2-factor",), cost=2.5e-7),
    ProofStep("local cuts", "ktsolve.proofs.local:local_cut_proof", "proofs", graph=False, necessary=True,
              arguments=("connectivity", "cut square"), cost=2.6e-7),
    ProofStep("matching proof", "ktsolve.proofs.matching:matching_proof", "matching", graph=True, necessary=False,
              arguments=("matching", "tight sets"), cost=5e-6),
    ProofStep("cut proofs", "ktsolve.proofs.cuts:cut_proofs", "cuts", graph=True, necessary=False,
              arguments=("toughness", "two-square cut", "region colours"), cost=1e-4),
)}

#: The one table: every argument a finder writes, and the ``"module:function"`` of its checker.
#: A checker is ``checker(board, spec, evidence)``; see the module docstring for what it returns.
CHECKERS: dict[str, str] = {
    "size": "ktsolve.proofs.basic_check:check_size",
    "colour parity": "ktsolve.proofs.basic_check:check_colour_parity",
    "ends": "ktsolve.proofs.basic_check:check_closing_move",
    "closing move": "ktsolve.proofs.basic_check:check_closing_move",
    "degree": "ktsolve.proofs.local_check:check_degree",
    "forced moves": "ktsolve.proofs.local_check:check_forcing",
    "connectivity": "ktsolve.proofs.basic_check:check_connectivity",
    "cut square": "ktsolve.proofs.basic_check:check_cut_square",
    "theorem": "ktsolve.proofs.basic_check:check_theorem",
    "outer and inner rows": "ktsolve.proofs.basic_check:check_outer_inner",
    "matching": "ktsolve.proofs.certificate:check_matching",
    "tight sets": "ktsolve.proofs.ends_check:check_tight_sets",
    "toughness": "ktsolve.proofs.cut_check:check_toughness",
    "two-square cut": "ktsolve.proofs.cut_check:check_two_cut",
    "region colours": "ktsolve.proofs.cut_check:check_region",
    "2-factor": "ktsolve.factor.witness_check:check_two_factor_evidence",
    "exhaustive search": "ktsolve.proofs.cnf_check:check_search",
    "cpsat": "ktsolve.proofs.cnf_check:check_search",
}
#: (The searches' arguments, "exhaustive search" and "cpsat", are written by the exact methods, and the
#: theorems' by divide and conquer; every other one by a proof step above.)


#: The names of the proof steps (every other step of a plan is a method of the registry).
PROOFS = tuple(PROOF_STEPS)


def proof_step(name: str) -> ProofStep:
    """The proof step called ``name`` (KeyError when there is none)."""
    return PROOF_STEPS[name]
