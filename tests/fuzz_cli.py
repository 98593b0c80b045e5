"""A fuzzer for the command line and the Python API, and the contract it checks (issue 14).

Command lines are drawn from the real click option table of
:data:`ktsolve.cli.cli`: every command, every option, valid and invalid
values, board files of odd kinds, tour files of every form, and output paths
that are directories, devices (``/dev/null``, ``/dev/full``), symbolic links,
FIFOs, standard output or files that already exist.  Each command runs in this
process through :func:`ktsolve.cli.main` on small boards with tight time
limits, and the result is checked against the contract:

* the exit code is 0, 1, 2, 3 or 130 (70 is a fault inside ktsolve), and nothing escapes ``main``;
* no traceback on stderr;
* exit 2 is exactly one line on stderr, and no output file is created or
  changed (a FIFO's reader gets nothing);
* an existing file is kept unless a complete result replaced it, and no
  temporary file is left in the folder;
* every tour written (to stdout, a file, a link's target or a FIFO) passes
  :func:`ktsolve.validate` again, read back from what was written.

The Python API has its fuzzer in ``fuzz_api.py``.

Values known to break a method module would not be drawn until it is fixed
(:data:`KNOWN_ISSUES`, empty today).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import inspect
import io
import json
import os
import stat
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import click
import numpy as np
from hypothesis import strategies as st

import ktsolve
from ktsolve import Board, KtsolveError, Status, Tour, validate, validate_many
from ktsolve.exit_codes import ExitCode
from ktsolve.cli import cli, main
from ktsolve.cli.args import load_board
from ktsolve.files import parse_tour_text, parse_tours_text
from ktsolve.registry import methods
from ktsolve.request import RESERVED

from special_files import char_device

ALLOWED_CODES = (0, 1, 2, 3, 130)

def _cheap_bench_methods(tokens: list) -> list:
    """``bench methods`` on one small board, one method, one seed: the options that set its cost are replaced."""
    costly = ("--method", "-m", "--boards", "--seeds", "--draws", "--prove-time-limit", "--plots")
    out, skip = [], False
    for tok in tokens:
        if skip:
            skip = False
        elif isinstance(tok, str) and tok in costly:
            skip = True
        elif not (isinstance(tok, str) and tok.split("=", 1)[0] in costly):
            out.append(tok)
    return [*out, "-m", "warnsdorff", "--boards", "3x4", "--seeds", "1", "--draws", "1", "--prove-time-limit", "0.5"]


#: Commands run with arguments that make them stop before any long work (a list is appended; a function
#: rewrites the drawn tokens).
GUARDS = {("bench", "papers"): ["--section", "no-such-section"], ("bench", "methods"): _cheap_bench_methods}
#: Commands never run.  ``census`` asks many questions in worker processes (its own tests cover it);
#: any other command added later is drawn and must be fast on boards of at most 8x8.
SKIP: set[tuple[str, ...]] = {("census",),
                               ("warm",)}  # compiles every method's kernels (seconds a case); tests/test_jit.py

#: (method, parameter) -> (predicate of values known to break that method, the test that records the fault).
#: Such values are not drawn until the method is fixed.  Empty: every fault the long profile found is fixed,
#: and each has its test in ``test_reliability_methods.py``.
KNOWN_ISSUES: dict[tuple[str, str], tuple] = {}


def known_issue(method: str, key: str, value) -> bool:
    hit = KNOWN_ISSUES.get((method, key))
    return hit is not None and hit[0](value)


# ---------------------------------------------------------------------- the option table
def _commands(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    out = []
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        if isinstance(command, click.Group):
            out += _commands(command, path)
        elif path not in SKIP:
            out.append((path, command))
    return out


COMMANDS = _commands()
#: How often each command is drawn (others: once); the commands that do the work come most often.
WEIGHTS = {"solve": 6, "verify": 4, "enumerate": 3, "prove": 2, "longest": 2}
DRAWN = [(path, command) for path, command in COMMANDS for _ in range(WEIGHTS.get(path[-1], 1))]


def method_params() -> dict[str, dict[str, object]]:
    """Every method's own parameters and their defaults (enumeration functions included)."""
    out: dict[str, dict[str, object]] = {}
    for name, info in methods().items():
        funcs = [info.load()] + ([info.load_enumerate()] if info.enumerate else [])
        params = {}
        for func in funcs:
            for p in inspect.signature(func).parameters.values():
                if p.name not in RESERVED and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "cycles":
                    params[p.name] = p.default
        out[name] = params
    return out


METHOD_PARAMS = method_params()


# ---------------------------------------------------------------------- values
@dataclass(frozen=True)
class Spec:
    """A value that becomes a path when the case is set up in its folder."""

    role: str  # "board", "tour", "output", "folder"
    kind: str
    extra: str = ""


BAD_SQUARES = ["z9", "a0", "", "??", "-1,0", " a1 ", "a1a", "10,10", "a99999999999999999999", "i9"]
SIZES = ["3x4", "4x5", "5x5", "5x6", "6x6", "3x7", "4x4", "6x7", "7x7", "8x8", "1x1", "2x3", "3x3", "5X5",
         " 4x4 ", "5\u00d75", "3*4"]
#: Rows and columns of the board files and of the board given on standard input.
FILE_DIMS = {"plain": (3, 4), "holes": (5, 5), "bom-crlf": (5, 5), "comments": (3, 4), "stdin": (5, 6)}


def squares_of(dims) -> list[str]:
    """Names and row,col pairs of squares inside a ``dims`` rectangle (a few outside when unknown)."""
    rows, cols = dims or (6, 6)
    names = [f"{chr(ord('a') + c)}{r}" for c in range(min(cols, 26)) for r in range(1, rows + 1)]
    return names + [f"{r},{c}" for r, c in ((0, 0), (rows - 1, cols - 1), (rows // 2, cols // 2))]


def dims_of(value) -> tuple[int, int] | None:
    if isinstance(value, Spec):
        return FILE_DIMS.get(value.kind)
    import re

    m = re.match(r"^\s*(\d+)\s*[xX\u00d7*]\s*(\d+)\s*$", value)
    return (int(m.group(1)), int(m.group(2))) if m else None
BAD_SIZES = ["0x5", "-3x8", "3x-8", "ax4", "99999x99999", "", "8x8x8", "1e3x2", "x", "6x"]
BOARD_FILES = ["plain", "holes", "bom-crlf", "ragged", "bad-char", "empty", "comments", "binary", "directory",
               "missing"]
TOUR_FILES = ["names", "json", "json-closed", "matrix", "npy", "gz", "pairs", "bad-move", "missing-square",
              "repeat", "empty", "binary", "json-floats", "json-bools", "json-strings", "matrix-short", "hello",
              "directory", "missing", "stdin"]
OUTPUTS = ["new", "existing", "directory", "missing-dir", "devnull", "devfull", "symlink", "dangling", "fifo",
           "dash", "devstdout", "proc", "empty", "link-to-dir", "link-to-devnull", "link-loop", "trailing-slash",
           "below-a-file"]
SUFFIXES = [".txt", ".json", ".npy", ".gz", ".svg", ""]
JUNK_TEXT = ["", "-", "--", "abc", "1", "-1", "nan", "\u00e9", "a" * 300]


def _pick(draw, good: list, bad: list, rate: int):
    """A value from ``good``, or from ``bad`` with probability ``rate`` percent."""
    return draw(st.sampled_from(bad if bad and draw(st.integers(0, 99)) < rate else good))


SEED_BAD = ["-1", "1.5", str(2**32), "abc", "1e3", "", "0x10"]
LIMIT_GOOD, LIMIT_BAD = ["0.05", "0.2", "0.5"], ["0", "-1", "nan", "inf", "abc", "", "1e999"]
COUNT_GOOD, COUNT_BAD = ["0", "1", "2", "5", "20"], ["-1", "1.5", str(2**63), "abc", "1e99"]


def param_pool(default) -> tuple[list[str], list[str]]:
    """Plausible and implausible ``-p`` values for a parameter with this default."""
    if isinstance(default, bool):
        return ["true", "false"], ["1", "yes", "maybe", "none"]
    if isinstance(default, int) or default is None:
        return ["0", "1", "2", "3", "50"], ["-1", "1e12", "1e99", str(2**63), "1.5", "abc", "true", "none", "inf"]
    if isinstance(default, float):
        return ["0", "0.5", "1", "2", "0.999"], ["-1", "1e-300", "1e308", "700", "60", "inf", "-inf", "nan", "abc"]
    return (["auto", "roth", "random", "pohl", "first", "squirrel", "sequential", "edge", "vertex", "warnsdorff",
             "exact"], ["bogus", "", "1"])


@st.composite
def param_items(draw, method: str, rate: int):
    params = METHOD_PARAMS.get(method, {})
    odd = ["seed_with", "colour", "seed", "closed", "time_limit", "progress", "cycles", "bad-key", "1x", ""]
    out, keys = [], set()
    for _ in range(draw(st.integers(1, 3))):
        key = _pick(draw, list(params) or odd, odd, rate)
        if key in keys and draw(st.integers(0, 99)) >= rate:
            continue  # a key given twice is refused: only now and then
        keys.add(key)
        good, bad = param_pool(params.get(key, 1))
        raw = _pick(draw, good, bad, rate)
        if known_issue(method, key.replace("-", "_"), _python_value(raw)):
            continue
        out.append(f"{key}={raw}" if draw(st.integers(0, 99)) >= rate // 4 else key)  # now and then no '='
    return out


def _python_value(raw: str):
    """What the command line makes of a ``-p`` value (mirrors ``ktsolve.cli.args.coerce_param``)."""
    from ktsolve.cli.args import coerce_param

    return coerce_param(raw.strip())


def holes_value(draw, rate: int, dims) -> str:
    return ",".join(_pick(draw, squares_of(dims), BAD_SQUARES, rate) for _ in range(draw(st.integers(0, 2))))


def board_value(draw, rate: int):
    k = draw(st.integers(0, 99))
    if k < rate // 2:
        return draw(st.sampled_from(BAD_SIZES))
    if k < 15 + rate // 2:
        return Spec("board", _pick(draw, ["plain", "holes", "bom-crlf", "comments"], BOARD_FILES, rate))
    if k < 20 + rate // 2:
        return Spec("board", "stdin")
    return draw(st.sampled_from(SIZES))


@st.composite
def option_tokens(draw, param: click.Option, chosen: dict, rate: int) -> list:
    opt = draw(st.sampled_from([o for o in param.opts if o.startswith("--")] or param.opts))
    if param.is_flag:
        return [opt]
    name, kind = param.name, type(param.type).__name__
    if name == "output":
        value = Spec("output", draw(st.sampled_from(OUTPUTS)), draw(st.sampled_from(SUFFIXES)))
    elif name == "plots":
        value = Spec("folder", draw(st.sampled_from(["new", "directory", "existing", "missing-dir"])))
    elif name == "holes":
        value = holes_value(draw, rate, chosen.get("dims"))
    elif name in ("start", "end"):
        value = _pick(draw, squares_of(chosen.get("dims")), BAD_SQUARES, rate)
    elif name == "params":
        items = draw(param_items(chosen.get("method") or "auto", rate))
        return [t for item in items for t in (opt, item)]
    elif isinstance(param.type, click.Choice):
        value = _pick(draw, list(param.type.choices), ["bogus", ""], rate)
        chosen[name] = value
    elif kind == "SeedType":
        value = str(draw(st.integers(0, 2**32 - 1))) if draw(st.integers(0, 99)) >= rate else \
            draw(st.sampled_from(SEED_BAD))
    elif kind == "TimeLimitType":
        value = _pick(draw, LIMIT_GOOD, LIMIT_BAD, rate)
        chosen["time_limit"] = value
    elif kind in ("IntRange", "IntParamType"):
        value = _pick(draw, COUNT_GOOD, COUNT_BAD, rate)
    elif kind in ("FloatRange", "FloatParamType"):
        value = _pick(draw, LIMIT_GOOD, LIMIT_BAD, rate)
    else:
        value = draw(st.sampled_from(JUNK_TEXT))
    return [opt, value]


@dataclass
class CliCase:
    """A command line: its command path, its tokens (Specs become paths later)."""

    path: tuple[str, ...]
    tokens: list

    def describe(self) -> str:
        return " ".join(["ktsolve", *self.path, *(f"<{t.role}:{t.kind}{t.extra}>" if isinstance(t, Spec) else repr(t)
                                                   for t in self.tokens)])


@st.composite
def cli_cases(draw, path: tuple[str, ...] | None = None) -> CliCase:
    """A command line: of a command drawn by WEIGHTS, or of the command ``path`` when given."""
    path, command = draw(st.sampled_from(DRAWN)) if path is None else (path, dict(COMMANDS)[path])
    rate = draw(st.sampled_from([0, 0, 0, 3, 10, 30]))  # percent of values drawn from the bad pools
    chosen: dict = {}
    args: list = []
    options: list[list] = []
    # the board and the method first: squares and -p keys follow them
    params = sorted(command.params, key=lambda p: (p.name != "board", p.name != "method"))
    for param in params:
        if isinstance(param, click.Argument):
            if param.name == "board":
                args.append(board_value(draw, rate))
                chosen["dims"] = dims_of(args[-1])
            elif param.name == "tour_file":
                args.append(Spec("tour", _pick(draw, TOUR_FILES[:10], TOUR_FILES[10:], max(rate, 30))))
            else:
                args.append(draw(st.sampled_from(JUNK_TEXT)))
        elif isinstance(param, click.Option) and param.name != "help" and draw(st.integers(0, 9)) < 4:
            for _ in range(draw(st.integers(1, 2)) if param.multiple else 1):
                options.append(draw(option_tokens(param, chosen, rate)))
    if draw(st.integers(0, 99)) < rate // 3:
        options.append([draw(st.sampled_from(["--colsed", "-x", "--seeds=3", "--", "extra"]))])
    if draw(st.integers(0, 99)) < rate // 5:
        args = args[:-1] if args and draw(st.booleans()) else [*args, "extra"]
    order = draw(st.permutations(range(len(options) + 1)))
    tokens: list = []
    for k in order:
        tokens += args if k == len(options) else options[k]
    if any(p.name == "time_limit" for p in command.params) and "time_limit" not in chosen:
        tokens += ["--time-limit", "0.5"]  # small boards, a short budget: a case takes a second at most
    guard = GUARDS.get(path, [])
    tokens = guard(tokens) if callable(guard) else [*tokens, *guard]
    return CliCase(path, tokens)


# ---------------------------------------------------------------------- setting a case up
class FifoDrain:
    """The reader of a FIFO: opened before the command runs (so the writer never blocks), drained in a thread."""

    def __init__(self, path: str):
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = bytearray()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _read(self) -> bytes | None:
        try:
            return os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return None

    def _run(self):
        while not self.stop.is_set():
            chunk = self._read()
            if chunk:
                self.data += chunk
            else:
                time.sleep(0.002)
        # the writer may have written between the last empty read and the stop: drain what the pipe holds
        while chunk := self._read():
            self.data += chunk

    def close(self) -> bytes:
        self.stop.set()
        self.thread.join(timeout=10)
        os.close(self.fd)
        return bytes(self.data)


PRECIOUS = b"precious content, not a tour\n"


@dataclass
class Setup:
    argv: list[str]
    stdin: bytes
    folder: str
    output: str | None = None  # the -o value given
    output_kind: str | None = None
    target: str | None = None  # the regular file an output path names (a link's target)
    fifo: FifoDrain | None = None
    board_text: str | None = None
    notes: dict = field(default_factory=dict)


def _board_file(folder: str, kind: str) -> tuple[str, str | None]:
    path = os.path.join(folder, f"board-{kind}.txt")
    texts = {
        "plain": "....\n....\n....\n",
        "holes": "#....\n.....\n..x..\n.....\n....#\n",
        "bom-crlf": "\ufeff.....\r\n.....\r\n.....\r\n.....\r\n.....\r\n",
        "ragged": "....\n...\n",
        "bad-char": "..z\n...\n",
        "empty": "",
        "comments": "; a 3x4 board\n....  ; top\n\n....\n....\n",
    }
    if kind == "binary":
        with open(path, "wb") as fh:
            fh.write(b"\x00\xff\xfe\x80" * 10)
        return path, None
    if kind == "directory":
        os.mkdir(path)
        return path, None
    if kind == "missing":
        return path, None
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(texts[kind])
    return path, texts[kind]


def _a_tour(board: Board | None, closed: bool):
    if board is None or board.n_squares > 400:
        return None
    try:
        res = ktsolve.solve(board, "warnsdorff", closed=closed, seed=1, time_limit=1)
    except KtsolveError:
        return None
    return res.tour if res.status is Status.FOUND else None


def _tour_bytes(kind: str, board: Board | None, closed: bool) -> bytes:
    tour = _a_tour(board, closed)
    if kind in ("names", "json", "json-closed", "matrix", "npy", "gz", "pairs", "bad-move", "missing-square",
                "repeat", "stdin") and tour is None:
        return b"a1 b3 c5"
    if kind in ("names", "stdin"):
        return " ".join(tour.names()).encode()
    if kind == "json":
        return json.dumps({"tour": tour.coords.tolist()}).encode()
    if kind == "json-closed":
        return json.dumps({"tour": tour.names(), "closed": tour.closed}).encode()
    if kind == "matrix":
        return (ktsolve.render.tour_matrix_text(tour) + "\n").encode()
    if kind == "npy":
        buf = io.BytesIO()
        np.save(buf, tour.squares)
        return buf.getvalue()
    if kind == "gz":
        return gzip.compress(" ".join(tour.names()).encode())
    if kind == "pairs":
        return "\n".join(f"{r},{c}" for r, c in tour.coords.tolist()).encode()
    names = tour.names()
    if kind == "bad-move" and len(names) > 3:
        names[1], names[2] = names[2], names[1]
    elif kind == "missing-square":
        names = names[:-1] or names
    elif kind == "repeat":
        names = [*names, names[0]]
    return " ".join(names).encode()


JUNK_TOURS = {
    "empty": b"",
    "binary": b"\x00\xff\xfe\x80\x93",
    "json-floats": b'{"tour": [[0.4, 0.9], [1.0, 2.0]]}',
    "json-bools": b"[[true, false], [1, 2]]",
    "json-strings": b'[["0", "0"], ["1", "2"]]',
    "matrix-short": b" 1  2\n 3  4\n",
    "hello": b"hello world",
}


def _output_path(folder: str, kind: str, suffix: str) -> tuple[str, str | None]:
    """The ``-o`` value for ``kind`` and the regular file it writes (None: nothing to watch)."""
    name = os.path.join(folder, f"out{suffix}")
    if kind == "new":
        return name, name
    if kind == "existing":
        with open(name, "wb") as fh:
            fh.write(PRECIOUS)
        return name, name
    if kind == "directory":
        os.mkdir(name)
        return name, None
    if kind == "missing-dir":
        return os.path.join(folder, "no", "such", f"out{suffix}"), None
    if kind in ("symlink", "dangling"):
        target = os.path.join(folder, f"target{suffix}")
        if kind == "symlink":
            with open(target, "wb") as fh:
                fh.write(PRECIOUS)
        os.symlink(os.path.basename(target), name)
        return name, target
    if kind == "fifo":
        os.mkfifo(name)
        return name, None
    if kind in ("devnull", "devfull"):
        return char_device(kind[3:], folder), None  # a private node where possible: never the machine's own
    if kind in ("link-to-dir", "link-to-devnull", "link-loop"):
        target = {"link-to-dir": folder, "link-to-devnull": char_device("null", folder), "link-loop": name}[kind]
        os.symlink(target, name)
        return name, None
    if kind == "trailing-slash":
        return name + "/", None
    if kind == "below-a-file":
        with open(name, "wb") as fh:
            fh.write(PRECIOUS)
        return os.path.join(name, "below"), None
    return {"dash": "-", "devstdout": "/dev/stdout",
            "proc": "/proc/ktsolve-fuzz/x", "empty": ""}[kind], None


def set_up(case: CliCase, folder: str) -> Setup:
    argv = list(case.path)
    stdin = b""
    setup = Setup(argv, stdin, folder)
    tokens = list(case.tokens)
    # the board first: a tour file is made for it
    for k, tok in enumerate(tokens):
        if isinstance(tok, Spec) and tok.role == "board":
            if tok.kind == "stdin":
                setup.board_text = "......\n......\n......\n......\n...... \n"
                stdin = setup.board_text.encode()
                tokens[k] = "-"
            else:
                tokens[k], setup.board_text = _board_file(folder, tok.kind)
    board = _resolve_board(case, tokens, setup)
    closed = "--closed" in tokens
    for k, tok in enumerate(tokens):
        if not isinstance(tok, Spec):
            continue
        if tok.role == "tour":
            if tok.kind == "directory":
                tokens[k] = folder
            elif tok.kind == "missing":
                tokens[k] = os.path.join(folder, "no-such-tour.txt")
            elif tok.kind == "stdin" and not stdin:
                stdin = _tour_bytes("stdin", board, closed)
                tokens[k] = "-"
            else:
                data = JUNK_TOURS.get(tok.kind)
                if data is None:
                    data = _tour_bytes(tok.kind, board, closed)
                path = os.path.join(folder, f"tour-{tok.kind}" + (".npy" if tok.kind == "npy" else ".txt"))
                with open(path, "wb") as fh:
                    fh.write(data)
                tokens[k] = path
        elif tok.role == "output":
            tokens[k], setup.target = _output_path(folder, tok.kind, tok.extra)
            setup.output, setup.output_kind = tokens[k], tok.kind
            if tok.kind == "fifo":
                setup.fifo = FifoDrain(tokens[k])
        elif tok.role == "folder":
            tokens[k] = {"new": os.path.join(folder, "plots"), "directory": folder,
                         "existing": os.path.join(folder, "file.txt"),
                         "missing-dir": os.path.join(folder, "no", "plots")}[tok.kind]
            if tok.kind == "existing":
                with open(tokens[k], "wb") as fh:
                    fh.write(PRECIOUS)
    setup.argv = [*case.path, *tokens]
    setup.stdin = stdin
    setup.notes["board"] = board
    return setup


def _resolve_board(case: CliCase, tokens: list, setup: Setup) -> Board | None:
    """The board the command should see, or None when its arguments do not make one."""
    command = dict(COMMANDS).get(case.path)
    if command is None or not any(p.name == "board" for p in command.params):
        return None
    try:
        ctx = command.make_context(case.path[-1], [str(t) for t in tokens], resilient_parsing=True)
    except (click.ClickException, click.exceptions.Exit):
        return None
    board, holes = ctx.params.get("board"), ctx.params.get("holes") or ()
    if not isinstance(board, str):
        return None
    try:
        if board == "-":
            b = Board.parse(setup.board_text or "")
            return b.with_holes(b.parse_squares(";".join(holes), what="hole", allow_holes=True)) if holes else b
        return load_board(board, holes)
    except (KtsolveError, OSError):
        return None


def _snapshot(folder: str) -> dict:
    """Every entry below ``folder``: its type and, for files, a digest of the content; link targets."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            st_ = os.lstat(path)
            rel = os.path.relpath(path, folder)
            if stat.S_ISLNK(st_.st_mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(st_.st_mode):
                with open(path, "rb") as fh:
                    out[rel] = ("file", hashlib.sha256(fh.read()).hexdigest())
            elif stat.S_ISFIFO(st_.st_mode):
                out[rel] = ("fifo", None)
            else:
                out[rel] = ("other", stat.S_IFMT(st_.st_mode))
    return out


# ---------------------------------------------------------------------- running
@dataclass
class Outcome:
    code: object
    stdout: bytes
    stderr: str
    escaped: BaseException | None = None
    seconds: float = 0.0


def run_cli(argv: list[str], stdin: bytes = b"") -> Outcome:
    """``ktsolve ARGV`` in this process, through ``main``; standard streams captured."""
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    code, escaped = None, None
    t0 = time.perf_counter()
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - anything escaping main breaks the contract
        escaped = exc
    finally:
        seconds = time.perf_counter() - t0
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        stdout, stderr = out.getvalue(), err.getvalue()
        sys.stdin, sys.stdout, sys.stderr = saved
    return Outcome(code, stdout, stderr.decode("utf-8", "replace"), escaped, seconds)


# ---------------------------------------------------------------------- the contract
def _flag(argv, name):
    return name in argv


def _opt(argv, name, default=None):
    value = default
    for k, tok in enumerate(argv[:-1]):
        if tok == name:
            value = argv[k + 1]
        elif tok.startswith(name + "="):
            value = tok.split("=", 1)[1]
    return value


def check_payload(command: str, data: bytes, setup: Setup, code) -> str | None:
    """None when ``data`` (what a command wrote) is a complete, valid answer; else what is wrong."""
    board: Board | None = setup.notes.get("board")
    argv = setup.argv
    if board is None:
        return "wrote something although its arguments make no board"
    closed = _flag(argv, "--closed")
    start, end = _opt(argv, "--start"), _opt(argv, "--end")
    fmt = _opt(argv, "--format", "text")
    with contextlib.suppress(KtsolveError):
        if closed and start is not None and end is not None and board.parse_square(start) == board.parse_square(end):
            end = None  # a closed tour from a1 back to a1 asks for no more than its start
    try:
        if data[:2] == b"\x1f\x8b":  # every -o NAME.gz is gzipped, whatever the command
            data = gzip.decompress(data)
        if command == "enumerate":
            tours, _ = parse_tours_text(board, data.decode())
            validate_many(board, np.stack([t.squares for t in tours]), closed=closed, start=start, end=end)
            return None
        if command == "longest":
            if fmt == "json":
                obj = json.loads(data)
                if obj.get("path") is None:
                    return "longest wrote a JSON object without a path"
                tours, _ = parse_tours_text(board, json.dumps({"tour": obj["path"]}))
            else:
                tours, _ = parse_tours_text(board, data.decode())
            validate(board, tours[0], closed=False, start=start, complete=False)
            return None
        if fmt == "svg":
            ET.fromstring(data)
            return None if code in (0, 1) else "an svg written without an answer"
        if code == 1:
            if command != "prove":
                return "solve wrote a file without a tour"
            if fmt == "json":
                return None if json.loads(data)["status"] == "infeasible" else "prove's JSON is not infeasible"
            return None if data.startswith(b"no tour: ") else "prove's proof does not start with 'no tour: '"
        if fmt == "npy":
            tour = Tour(board, np.load(io.BytesIO(data), allow_pickle=False))
        elif fmt == "json":
            tour = json.loads(data)["tour"]
            if tour is None:
                return "a JSON answer without a tour"
        else:
            tour, _ = parse_tour_text(board, data.decode())
        validate(board, tour, closed=closed, start=start, end=end)
    except (KtsolveError, ValueError, KeyError, TypeError, OSError, ET.ParseError, UnicodeDecodeError) as exc:
        return f"what was written is no valid answer: {type(exc).__name__}: {exc}"
    return None


def check_case(case: CliCase, setup: Setup, before: dict, after: dict, out: Outcome, fifo_bytes: bytes | None,
               devices: dict) -> list[str]:
    """Every way ``out`` breaks the contract (an empty list when it keeps it)."""
    bad = []
    command = case.path[-1]
    code = out.code
    if out.escaped is not None:
        bad.append(f"{type(out.escaped).__name__} escaped main: {out.escaped}")
    elif code == ExitCode.INTERNAL:
        said = [line for line in out.stderr.splitlines() if line.startswith("ktsolve: internal error")]
        bad.append(f"exit code 70, {said[0] if said else 'no line said why'}")
    elif code not in ALLOWED_CODES:
        bad.append(f"exit code {code!r}")
    if "Traceback" in out.stderr:
        bad.append("a traceback on stderr")
    # a board file's notes come first, one 'ktsolve: warning:' line each; the error is one line after them
    lines = [line for line in out.stderr.strip().splitlines() if not line.startswith("ktsolve: warning: ")]
    if code == 2 and (len(lines) != 1 or not lines[0].startswith("ktsolve: error: ")):
        bad.append(f"exit 2 with {len(lines)} stderr lines: {out.stderr.strip()[:300]!r}")
    for dev, rdev in devices.items():
        st_ = os.stat(dev)
        if not stat.S_ISCHR(st_.st_mode) or st_.st_rdev != rdev:
            bad.append(f"{dev} is no longer the device it was")
    # the folder: only the output target may appear or change, and only with a complete answer
    target_rel = os.path.relpath(setup.target, setup.folder) if setup.target else None
    for rel in sorted(set(before) | set(after)):
        if before.get(rel) == after.get(rel):
            continue
        if rel != target_rel:
            bad.append(f"{rel!r} was {'created' if rel not in before else 'changed or removed'}")
            continue
        if code == 2:
            bad.append("exit 2 changed the output file")
            continue
        if after.get(rel) is None:
            bad.append("the output file was removed")
            continue
        with open(setup.target, "rb") as fh:
            problem = check_payload(command, fh.read(), setup, code)
        if problem:
            bad.append(f"output file: {problem}")
    if setup.output_kind in ("symlink", "dangling", "link-to-dir", "link-to-devnull", "link-loop") \
            and not os.path.islink(setup.output):
        bad.append("the symbolic link is no longer a link")
    if fifo_bytes is not None:
        if code == 2 and fifo_bytes:
            bad.append("exit 2 wrote into the FIFO")
        elif fifo_bytes:
            problem = check_payload(command, fifo_bytes, setup, code)
            if problem:
                bad.append(f"FIFO: {problem}")
    to_stdout = setup.output_kind in ("dash", "devstdout") or setup.output is None
    if command in ("solve", "prove") and code == 0 and to_stdout:
        problem = check_payload(command, out.stdout, setup, code)
        if problem:
            bad.append(f"stdout: {problem}")
    if command == "longest" and code in (0, 3) and to_stdout and not out.stdout.startswith(b"no path"):
        problem = check_payload(command, out.stdout, setup, code)
        if problem:
            bad.append(f"stdout: {problem}")
    return bad


def fuzz_cli_case(case: CliCase) -> tuple[list[str], Outcome | None]:
    """Set ``case`` up in a fresh folder, run it, check it; the violations and the outcome."""
    folder = tempfile.mkdtemp(prefix="ktsolve-fuzz-")
    setup = None
    try:
        setup = set_up(case, folder)
        # the machine's own devices, when they are devices, must stay so (another process may have broken them)
        devices = {d: os.stat(d).st_rdev for d in ("/dev/null", "/dev/full")
                   if os.path.exists(d) and stat.S_ISCHR(os.stat(d).st_mode)}
        before = _snapshot(folder)
        out = run_cli([str(a) for a in setup.argv], setup.stdin)
        fifo_bytes = setup.fifo.close() if setup.fifo else None
        setup.fifo = None
        after = _snapshot(folder)
        return check_case(case, setup, before, after, out, fifo_bytes, devices), out
    finally:
        if setup is not None and setup.fifo is not None:
            setup.fifo.close()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
