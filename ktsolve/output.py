"""Output paths: checked before the work starts, written whole or not at all.

Every command that writes a file goes through this module twice: once with
:func:`check_output_path` while its arguments are read, before any work, and
once with :func:`open_output` (or :func:`write_output`) when there is
something complete to write.  What happens depends on what the path names:

* ``None`` or ``"-"`` (also ``/dev/stdout``, ``/dev/fd/1``): standard output.
* A regular file, or a name that does not exist yet: the data goes to a
  temporary file in the same folder, which is flushed, synced to disk and
  renamed over the name once everything is written, so a reader sees the
  old file or the whole new one.  A file that exists keeps its permission
  bits (and its owner, where the system allows).  On any failure, Ctrl-C
  included, the temporary file is removed and the old file is left as it
  was.  A file with other hard links is replaced under this name only.
* A symbolic link: followed; its target is written as above and the link
  stays a link.
* A character device (``/dev/null``, ``/dev/full``, a terminal), a named
  pipe (FIFO) or an open descriptor (``/dev/fd/N``): written through, in
  place; nothing is created or renamed, so a device stays a device and the
  reader of a pipe gets the bytes.

Whatever the kind, a name ending in ``.gz`` (``-o tour.txt.gz``) is
written gzip-compressed, streamed as the data comes, for every command and
format; the readers (``verify``) recognise gzip by its first bytes.

Refused before any work, with an :class:`~ktsolve.errors.OutputPathError`
naming the path: an empty name, a directory, a folder that does not exist,
a file or folder that cannot be written, a socket, standard output when the
process was started with it closed.

Errors while writing are :class:`OSError` naming the user's path, never the
temporary name.  A reader that closes its end of a pipe early
(``ktsolve solve 2000x2000 | head -c 50``) raises :class:`BrokenPipeError`,
which the command line turns into a quiet exit 141.

Examples
--------
>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "tour.txt")
>>> check_output_path(path) == path
True
>>> write_output(path, "a1 b3\\n")
>>> open(path).read(), sorted(os.listdir(folder))
('a1 b3\\n', ['tour.txt'])
>>> check_output_path(folder)
Traceback (most recent call last):
...
ktsolve.errors.OutputPathError: '...' is a directory
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import os
import re
import stat
import sys
import tempfile

from .errors import OutputPathError

__all__ = ["check_output_path", "open_output", "write_output", "is_stdout", "STDOUT_NAMES"]

#: Names that mean standard output.
STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")

_FD_PATH = re.compile(r"^/(?:dev/fd|proc/self/fd)/(\d+)$")
_TMP_SUFFIX = ".ktsolve-tmp"

# How a path is written.
_STDOUT, _REPLACE, _THROUGH, _DESCRIPTOR = "stdout", "replace", "through", "descriptor"


def is_stdout(path) -> bool:
    """True when ``path`` (None, ``"-"``, ``/dev/stdout`` ...) means standard output."""
    return path is None or os.fspath(path) in STDOUT_NAMES


def _classify(path) -> tuple[str, str | int | None]:
    """How ``path`` is written, and the file, descriptor or link target written to."""
    if is_stdout(path):
        return _STDOUT, None
    path = os.fspath(path)
    if path == "":
        raise OutputPathError("the output file name is empty")
    if path == "/dev/stderr":
        return _DESCRIPTOR, 2
    m = _FD_PATH.match(path)
    if m:
        return _DESCRIPTOR, int(m.group(1))
    try:
        st = os.stat(path)  # follows symbolic links
    except FileNotFoundError:
        st = None
    except OSError as exc:  # a part of the path is a file, a loop of links, a name too long
        raise OutputPathError(f"cannot write {path!r}: {exc.strerror}") from None
    if st is None:
        if path.endswith(("/", os.sep)):
            raise OutputPathError(f"'{path}' names a directory, not a file")
        # a new file; or a link whose target does not exist yet, which is created
        target = os.path.realpath(path)
        folder = os.path.dirname(target)
        if not os.path.isdir(folder):
            shown = folder if os.path.islink(path) else os.path.dirname(os.path.abspath(path))
            raise OutputPathError(f"directory '{shown}' does not exist")
        return _REPLACE, target
    if stat.S_ISDIR(st.st_mode):
        raise OutputPathError(f"'{path}' is a directory")
    if stat.S_ISSOCK(st.st_mode):
        raise OutputPathError(f"'{path}' is a socket, not a file")
    if stat.S_ISREG(st.st_mode):
        return _REPLACE, os.path.realpath(path)
    return _THROUGH, path


def check_output_path(path) -> str | None:
    """``path`` if it can be written (see the module docstring), else raise OutputPathError.

    Checks what can be checked without writing: for a file that will be
    replaced, that a temporary file can be created in its folder (it is
    removed at once) and that an existing file is writable; for a device
    or a pipe, that it is writable.  Nothing is opened that could block
    (a pipe without a reader).  Returns None for standard output.
    """
    kind, target = _classify(path)
    if kind == _STDOUT:
        if sys.stdout is None:
            raise OutputPathError("standard output is closed; give -o FILE")
        return None
    path = os.fspath(path)
    if kind == _DESCRIPTOR:
        try:
            os.fstat(target)
        except OSError:
            raise OutputPathError(f"cannot write {path!r}: descriptor {target} is not open") from None
        return path
    if kind == _THROUGH:
        if not os.access(path, os.W_OK):
            raise OutputPathError(f"cannot write {path!r}: permission denied")
        return path
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise OutputPathError(f"cannot write {path!r}: permission denied")
    folder = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".probe-", suffix=_TMP_SUFFIX, dir=folder)
    except OSError as exc:
        raise OutputPathError(f"cannot write {path!r}: cannot create files in '{folder}' ({exc.strerror})") from None
    os.close(fd)
    os.unlink(tmp)
    return path


class _Sink:
    """A binary writer that reports errors under the user's name for the output.

    It is not a file object, so numpy writes arrays through :meth:`write`
    in chunks (its ``tofile`` would report a closed pipe as a bare count of
    bytes).
    """

    def __init__(self, fh, name: str | None):
        self._fh = fh
        self._name = name
        self.written = 0

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < view.nbytes:
            # A buffered writer can return a short count instead of raising when the reader of a
            # pipe leaves mid-write; writing the rest then raises, so no byte is silently lost.
            try:
                n = self._fh.write(view[done:])
            except OSError as exc:
                raise _named(exc, self._name) from None
            if not n:
                raise _named(OSError(errno.EIO, "the output accepted no more data"), self._name)
            done += n
        self.written += done
        return done

    def flush(self) -> None:
        try:
            self._fh.flush()
        except OSError as exc:
            raise _named(exc, self._name) from None

    def writable(self) -> bool:
        return True


def _named(exc: OSError, name: str | None) -> OSError:
    """The same error naming ``name`` (None: standard output) instead of whatever file it named."""
    cls = BrokenPipeError if isinstance(exc, BrokenPipeError) else OSError
    if exc.errno is None:
        return cls(str(exc)) if name is None else cls(0, str(exc), name)
    err = cls(exc.errno, exc.strerror or os.strerror(exc.errno))
    err.filename = name
    return err


def _gzipped_name(path) -> bool:
    """Whether ``path`` asks for gzip: a name, not standard output, ending in ``.gz``."""
    return not is_stdout(path) and os.fspath(path).endswith(".gz")


@contextlib.contextmanager
def open_output(path):
    """A binary writer for ``path``; the data is in place when the ``with`` block ends without error.

    See the module docstring for what each kind of path gets.  On an error
    or Ctrl-C inside the block a file being replaced keeps its old content
    and no temporary file is left.  A name ending in ``.gz`` gets the data
    gzip-compressed as it is written.
    """
    if not _gzipped_name(path):
        yield from _open_plain(path)
        return
    with contextlib.contextmanager(_open_plain)(path) as sink:
        # mtime=0: the same answer gives the same bytes; closing GzipFile writes the trailer, not closing sink
        gz = gzip.GzipFile(filename="", mode="wb", fileobj=sink, compresslevel=6, mtime=0)
        yield _Sink(gz, os.fspath(path))
        gz.close()  # only on success: a failed block leaves no trailer to write (the file is dropped anyway)


def _open_plain(path):
    """Body of :func:`open_output` without compression (a generator for :func:`contextlib.contextmanager`)."""
    kind, target = _classify(path)
    if kind == _STDOUT:
        if sys.stdout is None:  # started with descriptor 1 closed
            raise OSError(errno.EBADF, "standard output is closed")
        with contextlib.suppress(ValueError):  # a closed text layer: nothing buffered there
            sys.stdout.flush()  # text echoed earlier comes first
        stream = getattr(sys.stdout, "buffer", sys.stdout)
        sink = _Sink(stream, None)
        yield sink
        sink.flush()
        return
    path = os.fspath(path)
    if kind == _DESCRIPTOR:
        try:
            fh = os.fdopen(os.dup(target), "wb")
        except OSError as exc:
            raise _named(exc, path) from None
        with fh:
            sink = _Sink(fh, path)
            yield sink
            sink.flush()
        return
    if kind == _THROUGH:
        try:
            fh = open(path, "wb")  # noqa: SIM115 - closed below; a FIFO blocks here until a reader comes
        except OSError as exc:
            raise _named(exc, path) from None
        try:
            sink = _Sink(fh, path)
            yield sink
            sink.flush()
        finally:
            with contextlib.suppress(OSError):
                fh.close()
        return
    yield from _replace(path, target)


def _replace(path: str, target: str):
    """Body of :func:`open_output` for a regular file: temporary file, fsync, rename."""
    folder = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=_TMP_SUFFIX, dir=folder)
    except OSError as exc:
        raise _named(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            yield _Sink(fh, path)
            fh.flush()
            os.fsync(fh.fileno())
        _copy_mode(tmp, target)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename != path:
            raise _named(exc, path) from None
        raise
    _sync_folder(folder)


def _copy_mode(tmp: str, target: str) -> None:
    """Give the new file the old one's permission bits and owner, or the default bits of a new file."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        return
    os.chmod(tmp, stat.S_IMODE(st.st_mode))
    with contextlib.suppress(OSError):
        os.chown(tmp, st.st_uid, st.st_gid)


def _sync_folder(folder: str) -> None:
    """Make the rename durable (best effort: not every system can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_output(path, data: str | bytes) -> None:
    """Write ``data`` (text is UTF-8) to ``path`` as :func:`open_output` does."""
    with open_output(path) as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)
