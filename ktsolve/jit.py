"""The first-run compile of numba kernels: see it coming, say so, time it, or do it ahead of time.

numba compiles a kernel the first time it is called in a process, unless
its cache (``cache=True``) holds a compiled copy for the same source, in
which case it loads that copy in a fraction of a second.  A compile takes
seconds, and a user who waits should know why, and a time limit should not
be eaten by it.  So every method with kernels has a ``warm()`` function
that calls :func:`prepare` with

* a name ("rotation"),
* a function that calls each kernel once on a tiny board, with arguments
  of exactly the types the method uses (so the real calls find the compiled
  code in memory), and
* the kernels themselves (numba dispatchers).

:func:`prepare` does this once per process.  When a kernel is neither in
memory nor in the cache on disk (:func:`needs_compile`), it says so on
standard error while it compiles, when standard error is a terminal
("ktsolve: compiling the rotation kernels, first run only"), and it returns
the seconds spent compiling; the method extends its clock by them
(:meth:`ktsolve.driver.Deadline.extend`), so a cold cache changes the wait
but not the answer, and :func:`ktsolve.portfolio.run_method` records them in
the result's ``stats["compile_s"]`` (:func:`take_compile_seconds`).  Loading
from the cache is ordinary start-up time.

``ktsolve warm [METHOD...]`` calls the ``warm()`` of every method's module
(:func:`warm_method`), so the first real run starts at once.

numba keeps its cache beside the kernels' source files (``__pycache__``)
or, when those cannot be written, in the user's cache folder; with neither
(a read-only install and no writable home) it refuses to define a kernel.
:func:`ensure_cache`, run when ``ktsolve`` is imported, sees that coming:
the kernels are then cached in a private folder of the temporary directory
(``ktsolve-numba-UID``, mode 0700, owned by the user), or run uncached when
no such folder can be had, and the first preparation says so on standard
error in one ``ktsolve: warning:`` line (:func:`cache_note`).

Examples
--------
>>> import numba
>>> @numba.njit
... def twice(x):
...     return 2 * x
>>> needs_compile([twice])
True
>>> prepare("doctest twice", lambda: twice(1), [twice], stream=None) > 0
True
>>> needs_compile([twice]), prepare("doctest twice", lambda: twice(1), [twice])
(False, 0.0)
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterable

__all__ = ["needs_compile", "prepare", "warm_method", "warm_shared", "SHARED", "compile_note", "compile_reason",
           "compile_wall", "settle_compile", "is_ready", "take_compile_seconds", "python_twin", "ensure_cache",
           "cache_note"]

#: The package's folders that hold kernel modules (numba caches a kernel in its folder's ``__pycache__``).
_KERNEL_FOLDERS = ("", "heuristics", "heuristics/splice", "models", "proofs", "factor")

#: Set in the environment once the cache note was said, so worker processes do not say it again.
_SAID_ENV = "KTSOLVE_CACHE_NOTE_SAID"

#: What :func:`ensure_cache` found, once per process: None when numba caches where it always does.
_CACHE_NOTE: list = []


def _usable(folder: str) -> bool:
    """numba's own test of a cache folder: it can be made, and a file can be created in it."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _private_folder(parent: str) -> str | None:
    """``parent/ktsolve-numba-UID``, made or found as a folder only this user can write; None otherwise.

    Compiled code is loaded from the cache and run, so a folder that
    another user could have made or could write (or a link in its place)
    is never used.
    """
    path = os.path.join(parent, f"ktsolve-numba-{os.getuid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or stat.S_IMODE(st.st_mode) & 0o077:
        return None
    return path if _usable(path) else None


def _no_caching() -> None:
    """Every kernel defined from now on runs uncached: numba's ``cache=True`` becomes a no-op."""
    from numba.core import dispatcher

    def enable_caching(self):  # the dispatcher keeps the NullCache it was made with
        return None

    dispatcher.Dispatcher.enable_caching = enable_caching


def ensure_cache() -> str | None:
    """Make sure numba can define ktsolve's ``cache=True`` kernels; what was done, or None.

    Run once, when ``ktsolve`` is imported (before any kernel module), by
    the same test numba applies: a folder is usable when it can be made and
    a file created in it.  When ``NUMBA_CACHE_DIR``, the kernels' own
    folders or the user's cache folder (``$XDG_CACHE_HOME`` or
    ``~/.cache``) will do, nothing changes.  Otherwise ``NUMBA_CACHE_DIR``
    points at a private folder of the temporary directory (kept between
    runs, and inherited by worker processes), or, failing that, kernels
    run uncached.  The returned sentence is :func:`cache_note`.
    """
    if _CACHE_NOTE:
        return _CACHE_NOTE[0]
    note = None
    given = os.environ.get("NUMBA_CACHE_DIR")
    home = os.path.dirname(os.path.abspath(__file__))
    in_tree = all(_usable(os.path.join(home, sub, "__pycache__")) for sub in _KERNEL_FOLDERS)
    if not ((given and _usable(given)) or in_tree
            or _usable(os.path.join(os.getenv("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "numba"))):
        folder = _private_folder(tempfile.gettempdir())
        if folder is not None:
            os.environ["NUMBA_CACHE_DIR"] = folder
            config = sys.modules.get("numba.core.config")
            if config is not None:
                config.CACHE_DIR = folder
            note = (f"numba cannot cache compiled kernels beside ktsolve or in the home folder (neither can be "
                    f"written), so it caches them in the temporary folder {folder}")
        else:
            _no_caching()
            note = ("numba cannot cache compiled kernels (neither ktsolve's folder, the home folder nor the "
                    "temporary folder can be written), so kernels run uncached and compile on every run")
    _CACHE_NOTE.append(note)
    return note


def cache_note() -> str | None:
    """The sentence :func:`ensure_cache` left (where numba's cache went and why), or None when all is usual.

    Examples
    --------
    >>> cache_note() is None or "numba" in cache_note()
    True
    """
    return ensure_cache()


def _say_cache_note(stream, bar=None) -> None:
    """The cache note, once per process and its children, as one ``ktsolve: warning:`` line (above a bar)."""
    note = cache_note()
    if note is None or os.environ.get(_SAID_ENV):
        return
    os.environ[_SAID_ENV] = "1"
    if bar is not None:
        bar.say(f"ktsolve: warning: {note}")
    elif stream is not None:
        print(f"ktsolve: warning: {note}", file=stream, flush=True)

#: Seconds each name's preparation took in this process (compiling, or loading from the cache).
_READY: dict[str, float] = {}

#: Seconds compiled since the last :func:`take_compile_seconds`, per thread: the two lanes of a race
#: (:mod:`ktsolve.race`) each count what they compiled.
_PENDING = threading.local()

#: ``(start, end)`` of every preparation that compiled, in ``time.perf_counter()`` seconds, for
#: :func:`compile_wall` (the lanes of a race compile at once, each waiting for numba's lock in turn).
_INTERVALS: list[tuple[float, float]] = []
_INTERVALS_LOCK = threading.Lock()


def compile_wall(since: float, until: float | None = None) -> float:
    """Wall seconds between ``since`` and ``until`` (now) during which some thread compiled kernels.

    The sum of what each lane of a race compiled counts twice the time one
    lane waited for numba's compiler lock while the other compiled; the
    user waited once.  This is the union of the preparations' intervals.

    Examples
    --------
    >>> compile_wall(time.perf_counter())
    0.0
    """
    until = time.perf_counter() if until is None else until
    with _INTERVALS_LOCK:
        spans = sorted((max(a, since), min(b, until)) for a, b in _INTERVALS if b > since and a < until)
    total, end = 0.0, since
    for a, b in spans:
        if b > end:
            total += b - max(a, end)
            end = b
    return total


def take_compile_seconds() -> float:
    """Seconds this thread spent compiling kernels since its last call (and start counting again from 0).

    :func:`ktsolve.portfolio.run_method` calls it around every method, so the
    compile a method paid lands in that method's ``stats["compile_s"]`` and
    the call's clock is extended by it.

    Examples
    --------
    >>> take_compile_seconds() >= 0.0, take_compile_seconds()
    (True, 0.0)
    """
    seconds = getattr(_PENDING, "seconds", 0.0)
    _PENDING.seconds = 0.0
    return seconds


def _in_cache(dispatcher) -> bool:
    """Whether numba's cache on disk holds compiled code for the current source of ``dispatcher``."""
    cache = getattr(dispatcher, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if cache_file is None:
        return False  # not cache=True: every process compiles
    try:
        # {} when the index is missing, unreadable, or stale (the source changed)
        return bool(cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba internals; a wrong guess only affects a message
        return False


def needs_compile(kernels: Iterable) -> bool:
    """True when calling one of ``kernels`` would compile it (not in memory, not in the cache).

    A kernel already compiled or loaded in this process has signatures; one
    whose cache index on disk is current will be loaded, not compiled.

    Examples
    --------
    >>> import numba
    >>> needs_compile([numba.njit(lambda x: x + 1)])
    True
    """
    return any(not getattr(k, "signatures", ()) and not _in_cache(k) for k in kernels)


def compile_note(name: str) -> str:
    """The line said on a terminal while ``name``'s kernels compile.

    Examples
    --------
    >>> compile_note("rotation")
    'ktsolve: compiling the rotation kernels, first run only'
    """
    return f"ktsolve: compiling the {name} kernels, first run only"


#: How a reason says that compiling took part of the time (:func:`compile_reason`).
_COMPILE_CLAUSE = re.compile(r"; compiling the numba kernels took [^;()]+ s more \(first run only: "
                             r"'ktsolve warm' compiles them ahead\)")


def settle_compile(stats: dict, elapsed: float) -> dict:
    """The call's one compile figure: ``stats["compile_s"]`` as wall seconds, and the reason that says it.

    Steps record what they compiled each; in a race two lanes compile at
    once and their sum can pass the call's own time.  An entry point
    (:func:`ktsolve.solve`, :func:`ktsolve.prove`) calls this once at its
    end with its elapsed seconds: ``compile_s`` becomes the wall time some
    compile ran within the call (:func:`compile_wall`), and the reason of
    an ``unknown`` says that figure (:func:`compile_reason`).
    """
    if not stats.get("compile_s"):
        return compile_reason(stats)
    wall = compile_wall(time.perf_counter() - elapsed)
    if wall > 0:
        stats = {**stats, "compile_s": round(min(float(stats["compile_s"]), wall), 3)}
    return compile_reason(stats)


def compile_reason(stats: dict) -> dict:
    """``stats`` whose reason says how long compiling took, with the one figure of ``stats["compile_s"]``.

    An ``unknown`` whose time ran out says where the time went: the
    first-run compile of every step (the proofs' and the method's), which
    the clock did not count.  A clause an inner step wrote with its own
    figure is replaced, so the reason, ``compile_s`` and the command
    line's summary agree.

    Examples
    --------
    >>> compile_reason({"reason": "the time limit ran out", "compile_s": 2.5})["reason"]
    "the time limit ran out; compiling the numba kernels took 2.5 s more (first run only: 'ktsolve warm' compiles them ahead)"
    """
    reason = stats.get("reason")
    if not isinstance(reason, str):
        return stats
    plain = _COMPILE_CLAUSE.sub("", reason)
    seconds = stats.get("compile_s") or 0.0
    if seconds and "time limit" in plain:
        plain += (f"; compiling the numba kernels took {seconds:.3g} s more (first run only: 'ktsolve warm' "
                  "compiles them ahead)")
    if plain == reason:
        return stats
    return {**stats, "reason": plain}


def _misses(kernels) -> int:
    total = 0
    for k in kernels:
        stats = getattr(k, "stats", None)
        if stats is not None:
            total += sum(stats.cache_misses.values())
    return total


def is_ready(name: str) -> bool:
    """Whether :func:`prepare` already ran for ``name`` in this process.

    Examples
    --------
    >>> is_ready("a name nobody prepared")
    False
    """
    return name in _READY


#: Default of ``stream``: standard error as it is when the note is due (tests replace it).
STDERR = object()


def prepare(name: str, warm: Callable[[], object], kernels: Iterable, *, stream=STDERR) -> float:
    """Compile (or load from the cache) ``name``'s kernels once per process; seconds spent compiling.

    Parameters
    ----------
    name : str
        What the message calls the kernels ("rotation").
    warm : callable
        Calls every kernel once with arguments of the types the method uses.
    kernels : iterable of numba dispatchers
        The kernels ``warm`` calls from Python (kernels they call are
        compiled with them).
    stream : file or None
        Where the note goes, only when it is a terminal (standard error by
        default); None: never.

    Returns
    -------
    float
        Seconds spent compiling; 0.0 when the kernels were ready in memory
        or were loaded from numba's cache.

    Examples
    --------
    >>> import numba
    >>> inc = numba.njit(lambda x: x + 1)
    >>> prepare("doctest inc", lambda: inc(1), [inc], stream=None) > 0, is_ready("doctest inc")
    (True, True)
    """
    if name in _READY:
        return 0.0
    kernels = list(kernels)
    compiling = needs_compile(kernels)
    bar = None
    if stream is STDERR:
        from .progress import active_bar

        stream = sys.stderr
        bar = active_bar()  # a bar on the terminal shows the compile as one of its phases
        _say_cache_note(stream, bar)
    interlude = None
    if compiling and stream is not None and hasattr(stream, "isatty") and stream.isatty():
        if bar is not None:
            interlude = bar.state()
            bar.phase(compile_note(name).removeprefix("ktsolve: "))
        else:
            print(compile_note(name), file=stream, flush=True)
    before = _misses(kernels)
    _READY[name] = 0.0  # a warm() that runs the method itself finds the name ready
    t0 = time.perf_counter()
    try:
        warm()
    except BaseException:
        del _READY[name]
        raise
    finally:
        if interlude is not None:
            bar.restore(interlude)
    seconds = time.perf_counter() - t0
    _READY[name] = seconds
    compiled = compiling or _misses(kernels) > before
    if not compiled:
        return 0.0
    _PENDING.seconds = getattr(_PENDING, "seconds", 0.0) + seconds
    with _INTERVALS_LOCK:
        _INTERVALS.append((t0, t0 + seconds))
        del _INTERVALS[:-1000]  # a long process keeps the last ones: calls ask about their own span
    return seconds


#: The kernels that runs reach besides their method's own, by name and the ``module:function`` path of
#: their ``warm()``: the proofs every plan runs first (their grid form above ``PRESOLVE_MAX`` squares, and
#: the 2-factor proof's restoration), the validator of tours of 65,536 squares or more, and the drawing of
#: random boards (``ktsolve board random``).  ``ktsolve warm`` prepares them all, then every method.
SHARED = (
    ("proofs", "ktsolve.proofs:warm"),
    ("local proofs", "ktsolve.proofs.local:warm"),
    ("2-factor restoration", "ktsolve.factor.restore:warm"),
    ("validator", "ktsolve.jit:warm_validator"),
    ("random boards", "ktsolve.generate:warm"),
    ("board cleaning", "ktsolve.cleaning:warm"),
    ("board shapes", "ktsolve.shapes:warm"),
    ("tour counts", "ktsolve.models.frontier:warm"),
)


def warm_validator() -> float:
    """Compile (or load) the one-pass walk of long tours and their text matrix's kernels
    (:mod:`ktsolve._tour_kernels`); seconds spent compiling.

    The validator walks tours of 65,536 squares or more in numba; it is
    given what a real check gives it (a read-only int32 tour, a board with
    a hole), a row-by-row walk that fails at its first step.  The text
    matrix of a tour on a board of ``render.TEXT_KERNEL_MIN`` cells or more
    is written by two kernels, called here as the writer calls them.

    Examples
    --------
    >>> warm_validator() >= 0.0
    True
    """
    import numpy as np

    from ._tour_kernels import format_cells, square_flats, step_grid, walk_tour
    from .board import Board
    from .errors import InvalidTourError
    from .tour import Tour, validate

    def calls():
        board = Board(256, 257, holes=[(0, 0)])
        try:
            validate(board, np.arange(board.n_squares, dtype=np.int32))
        except InvalidTourError:
            pass  # the walk ran: that is all a warm-up asks
        tour = Tour(board, np.arange(board.n_squares, dtype=np.int32))
        steps = step_grid(tour.squares, square_flats(board.hole_flat, board.size), board.size)
        format_cells(steps[: 2 * board.cols].reshape(2, board.cols), 6, np.empty((2, board.cols, 7), dtype=np.uint8))

    return prepare("validator", calls, (square_flats, walk_tour, step_grid, format_cells))


def warm_shared(path: str) -> tuple[str, float, float]:
    """Prepare one entry of :data:`SHARED` (its ``module:function`` path): ``(state, compile_s, seconds)``.

    ``state`` is ``"compiled"`` or ``"loaded"``, as :func:`warm_method` says it.

    Examples
    --------
    >>> warm_shared("ktsolve.jit:warm_validator")[0] in ("compiled", "loaded")
    True
    """
    import importlib

    module, _, name = path.partition(":")
    t0 = time.perf_counter()
    compiled = float(getattr(importlib.import_module(module), name)() or 0.0)
    return ("compiled" if compiled else "loaded"), compiled, time.perf_counter() - t0


def _has_kernels(module) -> bool:
    """Whether ``module``, or a module it imported names from, holds numba dispatchers."""
    for value in vars(module).values():
        if hasattr(value, "py_func") and hasattr(value, "signatures"):
            return True
    return False


def warm_method(func: Callable) -> tuple[str, float, float]:
    """Prepare the kernels of the method ``func`` (its module's ``warm()``), for ``ktsolve warm``.

    Returns
    -------
    (state, compile_seconds, seconds)
        ``state`` is ``"compiled"``, ``"loaded"`` (from numba's cache, or
        already in memory), ``"no kernels"`` (nothing to compile), or
        ``"no warm"`` (the module has kernels but no ``warm()``: they
        compile on the method's first run; only a user's method, since
        every built-in one with kernels has a ``warm()`` that reaches all
        of them, as ``tests/test_jit.py`` checks); then the seconds spent
        compiling and the seconds the whole preparation took.

    Notes
    -----
    The kernels every run may reach, whatever its method (the proofs, the
    validator of long tours: :data:`SHARED`), are its caller's to prepare
    first, as ``ktsolve warm`` does: this module stands below the proofs,
    whose finders prepare their kernels through it.

    Examples
    --------
    >>> from ktsolve.registry import method_info
    >>> warm_method(method_info("backtrack").load())[0] in ("compiled", "loaded")
    True
    >>> warm_method(method_info("cpsat").load())
    ('no kernels', 0.0, 0.0)
    """
    module = sys.modules.get(getattr(func, "__module__", ""), None)
    warm = getattr(module, "warm", None)
    if warm is None:
        return ("no warm" if module is not None and _has_kernels(module) else "no kernels"), 0.0, 0.0
    t0 = time.perf_counter()
    compiled = float(warm() or 0.0)
    return ("compiled" if compiled else "loaded"), compiled, time.perf_counter() - t0


def _is_kernel(value) -> bool:
    return hasattr(value, "py_func") and hasattr(value, "signatures")


def kernels_of(*modules) -> list:
    """Every numba dispatcher defined in ``modules`` (kernel files), for :func:`prepare`'s ``kernels``.

    Kernels marked ``inline="always"`` are left out: they are compiled into
    their callers, never on their own, so they would always look uncompiled.

    Examples
    --------
    >>> from ktsolve.heuristics import _dfs_kernels
    >>> [k.__name__ for k in kernels_of(_dfs_kernels)]
    ['_order_by_degree', '_dfs']
    """
    out = []
    for module in modules:
        for value in vars(module).values():
            if (_is_kernel(value) and getattr(value, "__module__", None) == module.__name__ and value not in out
                    and getattr(value, "targetoptions", {}).get("inline") != "always"):
                out.append(value)
    return out


def _names(code: types.CodeType) -> set:
    """The global names ``code`` (and the code nested in it) may load."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


#: The twin of every kernel asked for, by kernel.
_TWINS: dict = {}


def python_twin(kernel) -> Callable:
    """The kernel as plain Python: its ``py_func``, calling the plain-Python twins of the kernels it calls.

    Calling a kernel the first time in a process costs a few tenths of a
    second even when numba's cache holds it, more than a small board's work
    takes in Python, so a method may run its first, small calls through the
    twin.  ``kernel.py_func`` alone would still reach numba through the
    kernels it calls (say :func:`ktsolve._splitmix.uniform`): the twin is the
    same code over a copy of the kernel's globals in which every kernel it
    names is replaced by that kernel's twin.  Same arguments, same results
    as the kernel; integer arithmetic on numpy scalars wraps around as
    numba's does but warns, so call it under ``np.errstate(over="ignore")``.

    Examples
    --------
    >>> import numba, numpy as np
    >>> @numba.njit
    ... def inc(x):
    ...     return x + 1
    >>> @numba.njit
    ... def twice_inc(x):
    ...     return 2 * inc(x)
    >>> twin = python_twin(twice_inc)
    >>> twin(3), inc.signatures
    (8, [])
    """
    twin = _TWINS.get(kernel)
    if twin is None:
        py = kernel.py_func
        scope = dict(py.__globals__)  # the function reads this very dict: filled in below
        twin = types.FunctionType(py.__code__, scope, py.__name__, py.__defaults__, py.__closure__)
        twin.__doc__ = py.__doc__
        _TWINS[kernel] = twin  # before the callees: a kernel that calls itself finds its twin
        for name in _names(py.__code__):
            if _is_kernel(scope.get(name)):
                scope[name] = python_twin(scope[name])
    return twin
