"""The example notebook runs in a real Jupyter kernel and shows the pictures (needs ktsolve[notebook])."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "examples" / "display.ipynb"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """Run the notebook once; outputs by cell tag."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path_factory.mktemp("nb"))}})
    client.execute()
    by_tag = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.outputs:
            assert out.output_type != "error", "".join(out.get("traceback", []))
        by_tag[cell.metadata["tags"][0]] = cell.outputs
    return by_tag


def data(outputs, tag, mime):
    found = [o["data"][mime] for o in outputs[tag] if o.output_type in ("execute_result", "display_data")
             and mime in o.get("data", {})]
    assert found, f"cell {tag!r} shows no {mime}"
    return found[0]


def svg_of(text: str) -> ET.Element:
    return ET.fromstring(text[text.index("<svg"): text.index("</svg>") + 6])


def count(root, tag):
    return sum(1 for el in root.iter() if el.tag == SVG + tag)


def steps(root) -> int:
    """The step numbers of a picture: its texts at the squares (the files and ranks beside it are anchored)."""
    return sum(1 for el in root.iter(SVG + "text") if "text-anchor" not in el.attrib and (el.text or "").isdigit())


def labels(root) -> int:
    """The files and ranks beside the board."""
    return sum(1 for el in root.iter(SVG + "text") if "text-anchor" in el.attrib)


def test_the_notebook_runs_without_errors(outputs):
    assert {"board", "found", "tour", "parts", "matching", "cut", "degree", "thirty", "million", "user"} <= set(outputs)


def test_a_board_is_a_picture_with_its_holes(outputs):
    root = svg_of(data(outputs, "board", "image/svg+xml"))
    assert "8x8 board with 2 holes" in root.find(SVG + "title").text
    assert count(root, "rect") >= 2


def test_results_are_html_with_numbered_tours(outputs):
    html = data(outputs, "found", "text/html")
    assert "ktsolve-result" in html and ">found</span> open tour from a1 of 62 squares" in html
    assert steps(svg_of(html)) == 62 and labels(svg_of(html)) == 16
    tour = svg_of(data(outputs, "tour", "image/svg+xml"))
    assert steps(tour) == 62 and count(tour, "polyline") == 1
    assert count(svg_of(data(outputs, "closed", "image/svg+xml")), "polygon") == 1


def test_proofs_show_their_squares(outputs):
    parts = data(outputs, "parts", "text/html")
    assert "Proof (matching):" in parts and "shaded: the parts" in parts
    matching = data(outputs, "matching", "text/html")
    assert "squares that cannot all be paired with a neighbour" in matching and "#d32f2f" in matching
    assert "the cut square" in data(outputs, "cut", "text/html")
    assert "a square with no neighbour" in data(outputs, "degree", "text/html")


def test_large_boards_stay_readable_and_small(outputs):
    thirty = data(outputs, "thirty", "text/html")
    assert steps(svg_of(thirty)) == 900 and labels(svg_of(thirty)) == 60
    million = data(outputs, "million", "text/html")
    assert len(million) < 100_000 and count(svg_of(million), "image") == 1
    assert "step 1,000,000" in million


def test_a_user_method_shows_as_unknown(outputs):
    assert ">unknown</span>" in data(outputs, "user", "text/html")
