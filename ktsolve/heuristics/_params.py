"""One declaration of a method's parameters, from which its signature, checks and docstring are built.

A method with many parameters (the colonies :mod:`.aco` and :mod:`.iaco`,
the GA :mod:`.ga`) declares them once, as a :class:`Params` table of
:class:`Param` rows: name, default, check and one doc entry.  From that
table come

* the public signature of its ``solve_*`` and ``enumerate_*`` functions
  (:meth:`Params.declare` sets ``__signature__``, so
  :func:`inspect.signature`, ``help()`` and
  :func:`ktsolve.request.check_params` see every parameter by name, with
  ``seed`` last);
* the checks of the values a call gives (:meth:`Params.check`), with the
  messages of :mod:`ktsolve.checks`;
* the ``Parameters`` section of the docstrings, defaults included
  (:meth:`Params.doc`);
* the defaults that the plain-Python references of ``tests/`` use.

So a default changes in one place.  A check may read the checked value of
another parameter (``get("tau_lo")``), whatever their order; a default of
None may stand for a value computed from the board and the other
parameters (``computed``), which is trusted, not checked.

Examples
--------
>>> P = Params("demo", (Param("rho", 0.5, real(0.0, 1.0), "float", "Evaporation, in [0, 1]."),
...                     Param("ants", None, whole(1, 10), "int, optional", "Ants; default one per square.",
...                           computed=lambda get, n: n)))
>>> v = P.check({"rho": 0.25}, n=25)
>>> v.rho, v.ants
(0.25, 25)
>>> P.check({"rho": 2}, n=25)
Traceback (most recent call last):
...
ktsolve.errors.InvalidParameterError: method 'demo': rho = 2 is outside [0, 1]
>>> print(P.entries()[0])
rho : float
    Evaporation, in [0, 1].  Default ``0.5``.
"""

from __future__ import annotations

import inspect
import math
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

from ..checks import COUNT_MAX, check_choice, check_int, check_real
from ..errors import InvalidParameterError
from ..seeds import SEED_DOC

__all__ = ["Param", "Params", "real", "whole", "choice", "exponent", "anything", "call_doc"]


@dataclass(frozen=True)
class Param:
    """One parameter: its name, default, check and doc entry.

    ``check(value, name, get, ctx)`` returns the checked value or raises
    :class:`~ktsolve.errors.InvalidParameterError`; ``get(other)`` is the
    checked value of another parameter, ``ctx.n`` the board's squares and
    ``ctx.method`` the method's name.  ``kind`` is the numpydoc type,
    ``doc`` the description (the default is appended unless it is None).
    ``computed(get, n)``, when given, is the value a default of None
    stands for.
    """

    name: str
    default: object
    check: Callable
    kind: str
    doc: str
    computed: Callable | None = None


def _bound(bound, get):
    return get(bound) if isinstance(bound, str) else bound


def real(lo, hi, *, lo_open: bool = False, hi_open: bool = False) -> Callable:
    """A finite real in ``[lo, hi]`` (open ends as asked); a bound may name another parameter."""
    def check(value, name, get, ctx):
        return check_real(name, value, _bound(lo, get), _bound(hi, get), lo_open=lo_open, hi_open=hi_open,
                          method=ctx.method)
    return check


def whole(lo: int, hi: int | None = COUNT_MAX) -> Callable:
    """A whole number in ``[lo, hi]``; the upper bound of every count by default (:data:`~ktsolve.checks.COUNT_MAX`)."""
    def check(value, name, get, ctx):
        return check_int(name, value, lo, hi, method=ctx.method)
    return check


def choice(options) -> Callable:
    """One of ``options`` (strings)."""
    options = tuple(options)

    def check(value, name, get, ctx):
        return check_choice(name, value, options, method=ctx.method)
    return check


def exponent(bound: float) -> Callable:
    """A real exponent in ``[-bound, bound]``, or one of the infinities (the limits of a power mean)."""
    def check(value, name, get, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isinf(value):
            return float(value)
        return check_real(name, value, -bound, bound, method=ctx.method)
    return check


def anything(value, name, get, ctx):
    """No check here: the value is checked where it is used (a seed tour by :func:`~._colony.seed_moves`)."""
    return value


def _show(value) -> str:
    if isinstance(value, float) and math.isinf(value):
        return "``float(\"inf\")``" if value > 0 else "``float(\"-inf\")``"
    return f"``{value!r}``"


def call_doc(spec: str, units: str) -> dict[str, str]:
    """The doc entries every method shares: ``spec``, ``time_limit``, ``progress`` (its unit) and ``seed``."""
    return {
        "spec": spec,
        "time_limit": (f"Seconds for the whole call, or the caller's :class:`~ktsolve.driver.Deadline` "
                       f"(a plan passes its own on); the clock is read between chunks of {units} "
                       "(about 50 ms)."),
        "progress": f"``progress({units}_done, {units})``.",
    }


class Params:
    """The parameter table of one method.

    Parameters
    ----------
    method : str
        The method's name, for messages.
    params : tuple of Param
        In the order of the signature and the docstring.
    """

    def __init__(self, method: str, params: tuple[Param, ...]):
        self.method = method
        self.params = tuple(params)
        self.by_name = {p.name: p for p in self.params}
        if len(self.by_name) != len(self.params):
            raise ValueError(f"method {method!r}: a parameter is declared twice")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.by_name)

    @property
    def defaults(self) -> dict:
        """Every parameter's declared default (None where the default is computed)."""
        return {p.name: p.default for p in self.params}

    def check(self, given: dict, *, n: int) -> SimpleNamespace:
        """Every parameter checked, ``given`` or by default, on a board of ``n`` squares.

        Raises :class:`~ktsolve.errors.InvalidParameterError` for a name the
        table does not declare and for a value its check refuses.
        """
        for key in given:
            if key not in self.by_name:
                raise InvalidParameterError(
                    f"method {self.method!r} has no parameter {key!r} (it takes {', '.join(self.names)})")
        ctx = SimpleNamespace(n=int(n), method=self.method)
        done: dict = {}

        def get(name):
            if name not in done:
                p = self.by_name[name]
                value = given.get(name, p.default)
                if value is None and p.computed is not None:
                    done[name] = p.computed(get, ctx.n)
                elif value is None and p.default is None:
                    done[name] = None
                else:
                    done[name] = p.check(value, name, get, ctx)
            return done[name]

        for p in self.params:
            get(p.name)
        return SimpleNamespace(**done)

    def entries(self) -> list[str]:
        """The numpydoc entries of the declared parameters, not indented."""
        out = []
        for p in self.params:
            text = p.doc if p.default is None else f"{p.doc}  Default {_show(p.default)}."
            body = textwrap.fill(text, 72, initial_indent="    ", subsequent_indent="    ",
                                 break_long_words=False, break_on_hyphens=False)
            out.append(f"{p.name} : {p.kind}\n{body}")
        return out

    def doc(self, shared: dict[str, str]) -> str:
        """The ``Parameters`` section, indented for a function's docstring: the call's arguments and the table's.

        ``shared`` holds the descriptions of ``spec``, ``time_limit`` and
        ``progress`` (:func:`call_doc`); ``seed`` gets the seed rule's
        paragraph, :data:`ktsolve.seeds.SEED_DOC`, word for word.
        """
        def entry(name, kind, text):
            body = textwrap.fill(text, 72, initial_indent="    ", subsequent_indent="    ",
                                 break_long_words=False, break_on_hyphens=False)
            return f"{name} : {kind}\n{body}"

        parts = ["graph : KnightGraph", entry("spec", "TourSpec", shared["spec"]),
                 entry("time_limit", "float or Deadline, optional", shared["time_limit"]),
                 entry("progress", "callable, optional", shared["progress"]), *self.entries(), SEED_DOC]
        text = "Parameters\n----------\n" + "\n".join(parts)
        return textwrap.indent(text, "    ")

    def signature(self, **annotations) -> inspect.Signature:
        """``(graph, spec, *, time_limit=None, progress=None, <the table>, seed=None)``: ``seed`` last."""
        P = inspect.Parameter
        head = [P("graph", P.POSITIONAL_OR_KEYWORD), P("spec", P.POSITIONAL_OR_KEYWORD),
                P("time_limit", P.KEYWORD_ONLY, default=None), P("progress", P.KEYWORD_ONLY, default=None)]
        body = [P(p.name, P.KEYWORD_ONLY, default=p.default) for p in self.params]
        return inspect.Signature([*head, *body, P("seed", P.KEYWORD_ONLY, default=None)], **annotations)

    def declare(self, func: Callable, *, summary: str, shared: dict[str, str], rest: str) -> Callable:
        """Give ``func`` (which takes ``**params``) the table's signature and a docstring built from it.

        ``summary`` is the docstring's first paragraph, ``rest`` the
        sections after ``Parameters`` (Returns, Notes, Examples), both as
        they would be written in the function (indented by four spaces
        after the first line).
        """
        func.__signature__ = self.signature(return_annotation=inspect.signature(func).return_annotation)
        func.__doc__ = summary.rstrip() + "\n\n" + self.doc(shared) + "\n" + rest
        return func
