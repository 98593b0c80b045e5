"""Issue 14: every bad input is one line and exit 2, the same rules in the command line and in Python."""

import gzip
import inspect
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from conftest import invoke

import ktsolve
import ktsolve.progress
from ktsolve import (
    Board,
    InvalidBoardError,
    InvalidParameterError,
    InvalidTourError,
    KtsolveError,
    Tour,
    TourSpec,
    enumerate_tours,
    errors,
    prove,
    solve,
    validate,
    validate_many,
)
from ktsolve.checks import COUNT_MAX, SEED_MAX

README = Path(__file__).resolve().parents[1] / "README.md"
OPEN_3X4 = "a3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2"


def one_line_error(args, message, input=None):
    res = invoke(args, 2, input=input)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ktsolve: error: "), res.stderr
    assert message in lines[0], lines[0]
    assert res.stdout == "" and "Traceback" not in res.stderr
    return lines[0]


# ---------------------------------------------------------------------- -p names and values
@pytest.mark.parametrize(
    "args, hint",
    [
        (["solve", "5x5", "-m", "warnsdorff", "-p", "seed=3"], "use --seed"),
        (["solve", "5x5", "-m", "warnsdorff", "-p", "time_limit=1"], "use --time-limit"),
        (["solve", "5x5", "-m", "warnsdorff", "-p", "time-limit=1"], "use --time-limit"),
        (["solve", "5x5", "-m", "warnsdorff", "-p", "closed=true"], "use --closed"),
        (["solve", "5x5", "-m", "warnsdorff", "-p", "start=a1"], "use --start"),
        (["solve", "5x5", "-m", "warnsdorff", "-p", "progress=1"], "'progress' is not a method parameter"),
        (["solve", "5x5", "-m", "warnsdorff", "-p", "method=aco"], "use --method"),
        (["solve", "5x5", "-m", "warnsdorff", "-p", "board=3x3"], "BOARD argument"),
        (["enumerate", "5x5", "-p", "seed=3"], "use --seed"),
        (["enumerate", "5x5", "-p", "cycles=3"], "use --cycles"),
        (["enumerate", "5x5", "-p", "presolve_proofs=false"], "'presolve_proofs' is not a method parameter"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else v,
)
def test_reserved_param_names_are_refused_with_their_option(args, hint):
    line = one_line_error(args, hint)
    assert "--param" in line


def test_a_param_given_twice_is_refused():
    one_line_error(["solve", "5x5", "-m", "warnsdorff", "-p", "rule=roth", "-p", "rule=pohl"], "'rule' is given twice")


@pytest.mark.parametrize("value", ["1e99", "1e19", str(COUNT_MAX + 1), "99999999999999999999999"])
def test_a_huge_count_is_refused_by_its_bound(value):
    line = one_line_error(["solve", "5x5", "-m", "aco", "-p", f"cycles={value}"], "cycles = ")
    # 1e+99, not its 100 digits; the line ends by naming `ktsolve methods aco`, where the bounds are listed
    assert f"must be from 0 to {COUNT_MAX}" in line and len(line) < 170 and "methods aco" in line


def test_enumerate_cycles_has_the_same_bound():
    one_line_error(["enumerate", "5x5", "--cycles", str(COUNT_MAX + 1)], "--cycles")


# ---------------------------------------------------------------------- seeds and time limits
@pytest.mark.parametrize("command", ["solve", "prove", "enumerate", "longest"])
@pytest.mark.parametrize("seed", ["1.5", "-1", str(SEED_MAX + 1), "abc", "1e3", ""])
def test_bad_seeds_get_the_message_of_the_api(command, seed):
    one_line_error([command, "3x3", "--seed", seed], f"seed must be a whole number from 0 to {SEED_MAX}")


@pytest.mark.parametrize("command", ["solve", "prove", "enumerate", "longest"])
def test_every_command_takes_the_largest_seed(command):
    args = {"solve": ["solve", "5x5", "-m", "warnsdorff"], "prove": ["prove", "5x5"],
            "enumerate": ["enumerate", "5x5", "--cycles", "1"], "longest": ["longest", "3x3", "--start", "a1"]}
    res = invoke([*args[command], "--seed", str(SEED_MAX)], code=0 if command != "enumerate" else 3)
    assert "Traceback" not in res.stderr


@pytest.mark.parametrize("limit", ["0", "-1", "nan", "inf", "abc", ""])
@pytest.mark.parametrize("command", ["solve", "prove", "enumerate", "longest"])
def test_bad_time_limits_get_the_message_of_the_api(command, limit):
    one_line_error([command, "3x3", "--time-limit", limit], "time_limit must be a positive number of seconds")


# ---------------------------------------------------------------------- holes and options
def test_a_hole_named_twice_is_refused_by_name():
    one_line_error(["solve", "8x8", "--holes", "a1,a1"], "hole a1 is given twice")
    one_line_error(["solve", "8x8", "--holes", "a1;7,0"], "hole a1 is given twice")
    one_line_error(["solve", "8x8", "--holes", "a1", "--holes", "a1"], "hole a1 is given twice")
    with pytest.raises(InvalidBoardError, match="hole a1 is given twice"):
        Board(8, 8, holes=[(7, 0), "a1"])


def test_a_hole_of_the_board_file_named_again_is_refused(tmp_path):
    f = tmp_path / "b.txt"
    f.write_text("#..\n...\n...\n")
    one_line_error(["solve", str(f), "--holes", "a3"], "hole a3 is already a hole of the board")


def test_repeated_holes_options_add_up():
    res = invoke(["solve", "6x6", "--holes", "a1", "--holes", "f1", "-m", "warnsdorff", "--seed", "1",
                  "--format", "json"], 0)
    assert sorted(map(tuple, json.loads(res.stdout)["board"]["holes"])) == [(5, 0), (5, 5)]


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "8x8", "--colsed"], "No such option '--colsed'"),
        (["solve", "8x8", "--colsed"], "--closed"),
        (["solve", "--colsed", "8x8"], "No such option '--colsed'"),
        (["solve", "8x8", "--seeds=3"], "No such option '--seeds'"),
        (["longest", "8x8", "-p", "x=1"], "No such option '-p'"),
        (["verify", "8x8", "t.txt", "--close"], "--closed"),
        (["prove", "8x8", "-x"], "No such option '-x'"),
    ],
)
def test_a_mistyped_option_is_named_with_a_suggestion(args, message):
    one_line_error(args, message)


@pytest.mark.parametrize(
    "args",
    [["solve", "-3x8"], ["solve", "-3x-8", "--closed"], ["prove", "8x-3"], ["longest", "-3x8"],
     ["verify", "-3x8", "t.txt"], ["solve", "--closed", "-3x8"]],
    ids=" ".join,
)
def test_a_negative_size_is_still_a_bad_size(args):
    one_line_error(args, "must have at least one row and one column")


def test_option_values_that_look_like_options_are_values():
    # --start takes the next word whatever it looks like; the board parser names it
    one_line_error(["solve", "8x8", "--start", "-x"], "start '-x' is not a square name")


def test_a_utf8_bom_in_a_board_file_is_accepted(tmp_path):
    f = tmp_path / "b.txt"
    f.write_bytes("\ufeff#....\r\n.....\r\n.....\r\n.....\r\n.....\r\n".encode())
    res = invoke(["solve", str(f), "-m", "warnsdorff", "--seed", "1", "--format", "json"], 0)
    assert json.loads(res.stdout)["board"]["holes"] == [[0, 0]]
    assert invoke(["solve", "-", "-m", "warnsdorff", "--seed", "1"], 0, input=f.read_bytes()).stdout


# ---------------------------------------------------------------------- verify
@pytest.mark.parametrize(
    "tour, message",
    [
        ([[0.4, 0.9], [2.0, 1.0]], "[0.4, 0.9]"),
        ([[0, 0], [1.0, 2.0]], "step 2 of the JSON tour"),
        ([[True, False], [1, 2]], "[true, false]"),
        ([["0", "0"], ["1", "2"]], '["0", "0"]'),
        ([[0, 0, 0], [1, 2, 0]], "[0, 0, 0]"),
        ([[0, 0], None], "null"),
    ],
    ids=["floats", "a float", "booleans", "strings", "triples", "null"],
)
def test_verify_refuses_coordinates_that_are_not_whole_numbers(tmp_path, tour, message):
    f = tmp_path / "t.json"
    f.write_text(json.dumps({"tour": tour}))
    line = one_line_error(["verify", "3x4", str(f)], "is neither a [row, col] pair of whole numbers")
    assert message in line


def test_verify_refuses_a_closed_flag_that_is_not_a_bool(tmp_path):
    f = tmp_path / "t.json"
    f.write_text(json.dumps({"tour": OPEN_3X4.split(), "closed": "no"}))
    one_line_error(["verify", "3x4", str(f)], "'closed' must be true or false")


def test_verify_names_a_missing_matrix_row(tmp_path):
    res = solve("6x6", "warnsdorff", seed=1)
    rows = ktsolve.render.tour_matrix_text(res.tour).splitlines()
    f = tmp_path / "m.txt"
    f.write_text("\n".join(rows[:-1]) + "\n")
    one_line_error(["verify", "6x6", str(f)], "the matrix has 5 rows, the board 6")
    f.write_text("\n".join([*rows[:2], " ".join(rows[2].split()[:-1]), *rows[3:]]) + "\n")
    one_line_error(["verify", "6x6", str(f)], "row 3 of the matrix has 5 cells, the board 6 columns")


def test_verify_reads_standard_input_in_every_form(tmp_path):
    b = Board(3, 4)
    t = Tour.from_names(b, OPEN_3X4.split())
    texts = [OPEN_3X4, json.dumps({"tour": t.coords.tolist()}), ktsolve.render.tour_matrix_text(t)]
    for text in texts:
        assert invoke(["verify", "3x4", "-"], 0, input=text).stdout.startswith("valid: open tour of 12")
    assert invoke(["verify", "3x4", "-"], 0, input=gzip.compress(OPEN_3X4.encode())).stdout.startswith("valid")
    assert invoke(["verify", "3x4", "-"], 0, input="\ufeff" + OPEN_3X4).stdout.startswith("valid")


def test_verify_of_an_empty_stdin_is_one_line():
    one_line_error(["verify", "3x4", "-"], "standard input: the tour file is empty", input="")


def test_a_damaged_gzip_file_is_one_line(tmp_path):
    f = tmp_path / "t.gz"
    f.write_bytes(gzip.compress(OPEN_3X4.encode())[:-10])
    one_line_error(["verify", "3x4", str(f)], "a damaged gzip file")


# ---------------------------------------------------------------------- the README
def _readme_solve_lines():
    text = README.read_text()
    block = text.split("## Using it", 1)[1].split("```", 2)[1]
    for line in block.splitlines():
        command, _, comment = line.partition("#")
        words = shlex.split(command)
        if words[:2] != ["ktsolve", "solve"] or not re.fullmatch(r"\d+x\d+", words[2]):
            continue
        rows, cols = map(int, words[2].split("x"))
        if rows * cols <= 400:
            yield pytest.param(words[1:], 1 if "exit 1" in comment else 0, id=command.strip())


@pytest.mark.parametrize("args, code", list(_readme_solve_lines()))
def test_readme_solve_examples_answer_as_their_comment_says(tmp_path, monkeypatch, args, code):
    monkeypatch.chdir(tmp_path)
    invoke(args, code)


def test_readme_holes_example_has_a_tour():
    lines = [p.values[0] for p in _readme_solve_lines() if "--holes" in p.values[0]]
    assert lines and all(invoke(args, 0) for args in lines)


# ---------------------------------------------------------------------- the Python API
def test_board_holes_none_and_names():
    assert Board(8, 8, holes=None) == Board(8, 8)
    assert Board(8, 8, holes=["a1"]) == Board(8, 8, holes=[(7, 0)])
    assert Board(8, 8, holes=["a1", (0, 0)]) == Board.from_spec("8x8", holes="a1,a8")
    assert Board(8, 8, holes="a1,h8") == Board(8, 8, holes=[(7, 0), (0, 7)])
    with pytest.raises(InvalidBoardError, match="hole i9 is outside"):
        Board(8, 8, holes=["i9"])
    with pytest.raises(InvalidBoardError, match="holes must be"):
        Board(8, 8, holes=[(0.5, 1)])
    with pytest.raises(InvalidBoardError, match="holes must be"):
        Board(8, 8, holes=3)


@pytest.mark.parametrize("closed", ["no", "yes", 1, 0, None, 1.0, [True]])
def test_non_bool_flags_are_refused_everywhere(closed):
    b = Board(3, 4)
    squares = Tour.from_names(b, OPEN_3X4.split()).squares
    calls = [
        lambda: solve(b, "warnsdorff", closed=closed),
        lambda: solve(b, closed=closed),
        lambda: prove(b, closed=closed),
        lambda: enumerate_tours("5x5", "aco", cycles=1, closed=closed),
        lambda: solve(b, "warnsdorff", presolve_proofs=closed),
        lambda: enumerate_tours("5x5", "aco", cycles=1, presolve_proofs=closed),
        lambda: Tour(b, squares, closed=closed),
        lambda: Tour.from_names(b, OPEN_3X4.split(), closed=closed),
        lambda: TourSpec(closed=closed),
        lambda: validate(b, squares, complete=closed),
        lambda: validate_many(b, [squares], closed=closed),
        lambda: ktsolve.random_holed_board(6, 6, 2, closed=closed),
        lambda: ktsolve.progress.terminal_progress("x", enabled=closed).__enter__(),
    ]
    if closed is None:
        calls.pop()  # enabled=None means "on a terminal"
    else:
        calls.append(lambda: validate(b, squares, closed=closed))
    for call in calls:
        with pytest.raises(InvalidParameterError, match="must be True or False"):
            call()


def test_numpy_bools_are_bools():
    b = Board(3, 4)
    t = Tour.from_names(b, OPEN_3X4.split(), closed=np.False_)
    assert t.closed is False and validate(b, t, closed=np.False_).closed is False


def test_prove_takes_no_method_positionally():
    with pytest.raises(TypeError):
        prove(Board(5, 5), "cpsat")


@pytest.mark.parametrize(
    "squares, message",
    [
        ([0, 0, 0], "square a3 is visited twice, at steps 1 and 2"),
        ([0, 6, 8, 6], "square c2 is visited twice, at steps 2 and 4"),
        ([0, 12], "step 2 names square number 12, but the board has squares 0..11"),
        ([-1], "step 1 names square number -1"),
        ([0.0, 6.0], "whole numbers"),
        ([True, False], "whole numbers"),
        ([], "the tour is empty"),
        ([[0, 0], [1, 2]], "use Tour.from_coords"),
    ],
)
def test_a_tour_is_a_path_without_repeats(squares, message):
    with pytest.raises(InvalidTourError, match=re.escape(message)):
        Tour(Board(3, 4), squares)


def test_tour_coordinates_must_be_whole_numbers():
    with pytest.raises(InvalidTourError, match="whole numbers"):
        Tour.from_coords(Board(3, 4), [[0.4, 0.9], [2.0, 1.0]])
    with pytest.raises(InvalidTourError, match="visited twice"):
        Tour.from_coords(Board(3, 4), [(0, 0), (1, 2), (0, 0)])


def test_validate_still_names_the_first_fault_of_an_array():
    # an illegal move at step 2 comes before the repeat at step 9
    b = Board(3, 4)
    names = OPEN_3X4.replace("c2", "b2", 1).split()
    coords = [b.parse_square(n) for n in names]
    with pytest.raises(InvalidTourError, match="illegal move at step 2"):
        validate(b, coords)
    with pytest.raises(InvalidTourError, match="visited twice, at steps 1 and 3"):
        validate(b, [0, 6, 0], complete=False)


def test_validate_of_a_constructed_tour_skips_no_check():
    b = Board(3, 4)
    t = Tour(b, [0, 6, 8])
    assert validate(b, t, complete=False) == t
    with pytest.raises(InvalidTourError, match="square b3 is never visited"):
        validate(b, t)
    with pytest.raises(InvalidTourError, match="illegal move at step 2"):
        validate(b, Tour(b, [0, 1]), complete=False)


# ---------------------------------------------------------------------- the errors table
def _table_rows():
    lines = errors.__doc__.splitlines()
    seps = [i for i, line in enumerate(lines) if line.startswith("=====")]
    return [m.group(1) for line in lines[seps[0] + 1 : seps[1]] if (m := re.match(r"^``(\w+)``", line))]


def test_the_errors_table_lists_every_error_and_only_them():
    public = [name for name in errors.__all__]
    assert _table_rows() == public
    for name in public:
        cls = getattr(errors, name)
        assert issubclass(cls, errors.KtsolveError) and issubclass(cls, ValueError)
        assert getattr(ktsolve, name, cls) is cls


@pytest.mark.parametrize(
    "call, cls",
    [
        (lambda: solve("5x5", seed=1.5), InvalidParameterError),
        (lambda: solve("5x5", time_limit="1"), InvalidParameterError),
        (lambda: solve("5x5", "warnsdorff", colour="red"), InvalidParameterError),
        (lambda: solve("5x5", "nope"), errors.UnsupportedError),
        (lambda: solve("0x5"), InvalidBoardError),
        (lambda: solve("5x5", start="z9"), errors.InvalidSquareError),
        (lambda: validate(Board(3, 4), [0, 1]), InvalidTourError),
        (lambda: ktsolve.output.check_output_path("/proc/x"), errors.OutputPathError),
    ],
)
def test_bad_values_raise_the_documented_class(call, cls):
    with pytest.raises(cls) as info:
        call()
    assert isinstance(info.value, KtsolveError) and isinstance(info.value, ValueError)


def test_the_api_is_keyword_only_after_board_and_method():
    for func in (ktsolve.solve, ktsolve.enumerate_tours):
        params = inspect.signature(func).parameters
        for name in ("closed", "start", "end", "seed", "time_limit"):
            assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, (func.__name__, name)
    for name in ("closed", "start", "end", "seed", "time_limit"):
        assert inspect.signature(ktsolve.prove).parameters[name].kind is inspect.Parameter.KEYWORD_ONLY


def test_importing_the_cli_first_does_not_hide_the_solve_function():
    # a submodule import binds the package attribute of its name: ktsolve.solve must stay the function
    import subprocess
    import sys

    code = ("import ktsolve.cli, ktsolve.solve\n"
            "from ktsolve import solve\n"
            "from ktsolve.solve import enumerate_tours\n"
            "assert callable(solve) and solve.__name__ == 'solve' and ktsolve.solve is solve, solve\n"
            "assert solve('5x5', 'warnsdorff', seed=1).found\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-1000:]


def test_plots_without_matplotlib_are_refused_before_any_work(tmp_path):
    import importlib.util

    if importlib.util.find_spec("matplotlib") is not None:
        pytest.skip("matplotlib is installed")
    for section in ([], ["--section", "bees"]):
        line = one_line_error(["bench", "papers", *section, "--plots", str(tmp_path / "figs")], "matplotlib")
        assert "pip install" in line
    assert list(tmp_path.iterdir()) == []
