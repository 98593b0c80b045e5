import json
import xml.etree.ElementTree as ET

import pytest

from ktsolve import Board, Proof, SolveResult, Status, Tour, TourSpec
from ktsolve.errors import UnsupportedError
from ktsolve.render import result_json, tour_matrix_text, tour_svg

RING = ["a3", "c2", "a1", "b3", "c1", "a2", "c3", "b1"]


@pytest.fixture
def ring():
    b = Board(3, 3, holes=[(1, 1)])
    return b, Tour.from_names(b, RING, closed=True)


def test_matrix_text(ring):
    b, t = ring
    text = tour_matrix_text(t)
    rows = [line.split() for line in text.splitlines()]
    assert rows[1][1] == "##"
    assert sorted(int(v) for row in rows for v in row if v != "##") == list(range(1, 9))
    assert rows[0][0] == "1"


def test_matrix_width_grows():
    b = Board(1, 1)
    assert tour_matrix_text(Tour(b, [0])) == " 1"


def test_json_schema(ring):
    b, t = ring
    res = SolveResult(Status.FOUND, tour=t, method="x", seed=3, elapsed=0.5, board=b,
                      spec=TourSpec(closed=True, start=(0, 0)), stats={"n": 1})
    d = json.loads(result_json(res))
    for key in ("status", "board", "closed", "start", "end", "tour", "method", "seed", "elapsed_s", "proof", "stats"):
        assert key in d
    assert d["board"] == {"rows": 3, "cols": 3, "holes": [[1, 1]]}
    assert d["start"] == [0, 0] and d["end"] is None and d["closed"] is True
    assert d["tour"][0] == [0, 0] and len(d["tour"]) == 8


def test_json_infeasible_has_certificate():
    b = Board(4, 4)
    p = Proof("b2 is lonely", argument="degree", evidence={"square": "b2"})
    res = SolveResult(Status.INFEASIBLE, proof=p, method="proofs", board=b, spec=TourSpec())
    d = json.loads(result_json(res))
    assert d["tour"] is None and d["proof"] == "b2 is lonely"
    assert d["certificate"] == {"argument": "degree", "evidence": {"square": "b2"}}
    assert res.exit_code == 1


def test_svg_is_well_formed(ring):
    b, t = ring
    root = ET.fromstring(tour_svg(b, t))
    tags = {el.tag.split("}")[1] for el in root.iter()}
    assert {"svg", "polygon", "circle", "rect", "title"} <= tags
    root = ET.fromstring(tour_svg(Board(3, 4), Tour.from_names(Board(3, 4), ["a3", "c2"])))
    assert any(el.tag.endswith("polyline") for el in root.iter())
    ET.fromstring(tour_svg(b, None))


def test_svg_refuses_huge_boards():
    with pytest.raises(UnsupportedError, match="limited to"):
        tour_svg(Board(1000, 1000), None)


def test_status_exit_codes():
    assert [s.exit_code for s in Status] == [0, 1, 3]


def test_summary_reads_as_english():
    b = Board(4, 4)
    res = SolveResult(Status.UNKNOWN, method="warnsdorff", board=b, spec=TourSpec(), elapsed=1.0)
    assert res.summary().startswith("unknown whether an open tour exists with warnsdorff")
    res = res.replace(spec=TourSpec(closed=True))
    assert res.summary().startswith("unknown whether a closed tour exists")
