"""The colonies' and the GA's parameters are declared once: signature, checks, docstring and references follow."""

from __future__ import annotations

import inspect
import math

import pytest

import naive_colonies as naive
from ktsolve import Board, KnightGraph, TourSpec, solve
from ktsolve.errors import InvalidParameterError
from ktsolve.heuristics import aco, ga, iaco
from ktsolve.heuristics._params import Param, Params, real, whole
from ktsolve.request import check_params
from ktsolve.registry import method_info

FUNCS = [(aco.PARAMS, aco.solve_aco), (aco.PARAMS, aco.enumerate_aco), (iaco.PARAMS, iaco.solve_iaco),
         (iaco.PARAMS, iaco.enumerate_iaco), (ga.PARAMS, ga.solve_ga)]
IDS = [f.__name__ for _, f in FUNCS]


@pytest.mark.parametrize("table,func", FUNCS, ids=IDS)
def test_the_signature_is_the_declaration(table, func):
    params = inspect.signature(func).parameters
    assert list(params) == ["graph", "spec", "time_limit", "progress", *table.names, "seed"]
    assert {k: params[k].default for k in table.names} == table.defaults


@pytest.mark.parametrize("table,func", FUNCS, ids=IDS)
def test_the_docstring_lists_every_declared_parameter_with_its_default(table, func):
    doc = inspect.getdoc(func)
    params = doc[doc.index("Parameters\n"):doc.index("Returns\n")]
    for entry in table.entries():
        assert entry in params
    for p in table.params:
        if p.default is not None:
            assert f"{p.name} : {p.kind}" in params


@pytest.mark.parametrize("table,func", FUNCS, ids=IDS)
def test_an_undeclared_parameter_is_refused(table, func):
    with pytest.raises(InvalidParameterError, match=f"method '{table.method}' has no parameter 'bogus'"):
        func(KnightGraph(Board(5, 5)), TourSpec(), seed=1, bogus=1)


def test_check_params_reads_the_declaration():
    for name in ("aco", "iaco", "ga"):
        info = method_info(name)
        check_params(info, {"cycles" if name != "ga" else "generations": 3})
        with pytest.raises(InvalidParameterError, match="has no parameter 'deposit_on'"):
            check_params(info, {"deposit_on": "edge"})


def test_the_naive_references_take_the_declared_defaults():
    ref = inspect.signature(naive.iaco).parameters
    d = iaco.PARAMS.defaults
    assert (ref["rho"].default, ref["deposit"].default, ref["lo"].default, ref["hi"].default, ref["f"].default,
            ref["share_every"].default, ref["reading"].default) == \
        (d["rho"], d["deposit"], d["tau_lo"], d["tau_hi"], d["f"], d["share_every"], d["reading"])
    assert ref["free"].default == (d["degree"] == "free")
    ref = inspect.signature(naive.aco).parameters
    assert (ref["rho"].default, ref["q"].default, ref["alpha"].default) == tuple(
        aco.PARAMS.defaults[k] for k in ("rho", "q", "alpha"))
    assert d["f"] == -math.inf and d["reading"] == "ant"  # the product's defaults, not the earlier versions'


def test_computed_defaults_follow_the_board_and_the_other_parameters():
    v = iaco.PARAMS.check({}, n=64)
    assert v.ants == 1 and v.cycles == iaco.default_cycles(64, 1, 3) and v.seed_amount == v.tau_hi
    v = iaco.PARAMS.check({"reading": "square", "colonies": 2, "tau_hi": 0.9}, n=64)
    assert v.ants == 64 and v.cycles == iaco.default_cycles(64, 64, 2) and v.seed_amount == 0.9
    v = aco.PARAMS.check({"q": 3.0}, n=25)
    assert v.ants == 25 and v.seed_amount == 3.0 and v.cycles == aco.default_cycles(25, 25)
    assert ga.PARAMS.check({}, n=10).mutation == 1 / 27


def test_a_check_reads_another_parameter_whatever_their_order():
    # tau0 is declared before the clamp it must sit in
    with pytest.raises(InvalidParameterError, match="tau0"):
        iaco.PARAMS.check({"tau0": 0.95, "tau_hi": 0.9}, n=25)
    assert iaco.PARAMS.check({"tau0": 0.85, "tau_hi": 0.9}, n=25).tau0 == 0.85


def test_seed_with_and_seed_tour_exclude_each_other():
    tour = solve("5x5", "warnsdorff", seed=1).tour
    for name in ("aco", "iaco"):
        with pytest.raises(InvalidParameterError, match="give seed_with or seed_tour, not both"):
            solve("5x5", name, seed=1, cycles=1, seed_tour=tour, seed_with="warnsdorff")


def test_a_table_refuses_a_name_declared_twice():
    with pytest.raises(ValueError, match="declared twice"):
        Params("x", (Param("a", 1, whole(0), "int", "A."), Param("a", 2.0, real(0, 1), "float", "A again.")))
