"""Pictures read into squares, below the Board: the reading, the threshold, the blocks and the scale.

The steps 1 to 4 of :mod:`ktsolve.images` (see its docstring) on a picture
file or a 2-D array: :func:`picture_squares` returns the squares as a 2-D
bool array, so that :meth:`ktsolve.Board.from_image` makes its board
without the region object of :mod:`ktsolve.cleaning` (which holds a Board,
and so stands above it).
"""

from __future__ import annotations

import io
import os
import warnings

import numpy as np

from ._reading import shown
from ._board_base import MAX_SQUARES, check_size
from .checks import check_flag, check_int, check_real
from .errors import InvalidBoardError, UnsupportedError

__all__ = ["picture_squares", "read_picture", "otsu_threshold", "MAX_PICTURE_BYTES", "MAX_PICTURE_PIXELS",
           "FORMATS"]


#: Most bytes a picture file may hold (after gzip inflation): 512 MiB.
MAX_PICTURE_BYTES = 512 << 20
#: Most pixels a picture may declare: 2**27 (11,585 x 11,585), below Pillow's own decompression-bomb error.
MAX_PICTURE_PIXELS = 1 << 27
#: The picture formats read (Pillow's format names).
FORMATS = ("PNG", "JPEG")
#: Pillow's modes read as 8-bit grey (with alpha where they carry it) and as 16-bit grey.
_GREY_MODES = ("1", "L", "LA", "La", "P", "PA", "RGB", "RGBA", "RGBa", "RGBX")
_WIDE_MODES = ("I;16", "I;16B", "I;16L", "I")


def otsu_threshold(grey: np.ndarray) -> int:
    """Otsu's threshold of 8-bit grey levels: the ``t`` in 1..255 that maximises the between-class variance
    of the levels below ``t`` and those at or above it (the middle one of a run of ties); a picture of one
    grey level gets that level (every pixel is at least it).

    Examples
    --------
    >>> otsu_threshold(np.array([[10, 12, 200], [11, 198, 202]], dtype=np.uint8))
    106
    >>> otsu_threshold(np.array([[0, 255]], dtype=np.uint8))   # every t in 1..255 splits alike
    128
    """
    hist = np.bincount(np.asarray(grey, dtype=np.uint8).ravel(), minlength=256).astype(np.float64)
    levels = np.arange(256, dtype=np.float64)
    w0 = np.cumsum(hist)[:-1]                 # pixels below t, for t = 1..255
    s0 = np.cumsum(hist * levels)[:-1]
    total, s = hist.sum(), float((hist * levels).sum())
    w1 = total - w0
    with np.errstate(divide="ignore", invalid="ignore"):
        between = w0 * w1 * (s0 / w0 - (s - s0) / w1) ** 2
    between = np.where((w0 > 0) & (w1 > 0), between, -1.0)
    if between.max() < 0:  # one grey level: nothing to split, every pixel at least the threshold
        return int(np.flatnonzero(hist)[0]) if total else 0
    best = np.flatnonzero(between >= between.max() * (1 - 1e-12))
    return int(best[best.size // 2]) + 1


def _pillow():
    try:
        from PIL import Image, ImageOps
    except ImportError:
        raise UnsupportedError("reading pictures needs Pillow: pip install 'ktsolve[image]'") from None
    return Image, ImageOps


def _check_declared(rows: int, cols: int, what: str, scale: int) -> None:
    if rows * cols > MAX_PICTURE_PIXELS:
        raise InvalidBoardError(f"{what} declares {rows:,}x{cols:,} pixels, more than the {MAX_PICTURE_PIXELS:,} "
                                "a picture may have")
    if rows * cols * scale * scale > MAX_SQUARES:
        raise InvalidBoardError(f"{what} of {rows:,}x{cols:,} pixels scaled {scale}x would be a board of more "
                                f"than {MAX_SQUARES:,} squares")


def _from_image(im, what: str, scale: int):
    """Grey levels (uint8), alpha (uint8 or None) and mode of a Pillow image whose header only was read."""
    Image, ImageOps = _pillow()
    cols, rows = im.size
    if rows < 1 or cols < 1:
        raise InvalidBoardError(f"{what} is empty ({cols}x{rows} pixels)")
    _check_declared(rows, cols, what, scale)
    mode = im.mode
    if mode not in _GREY_MODES and mode not in _WIDE_MODES:
        raise InvalidBoardError(f"{what} is in mode {shown(mode)}; ktsolve reads grey, RGB, palette and "
                                "16-bit grey pictures (save it as one of those)")
    try:
        im = ImageOps.exif_transpose(im) or im  # as a viewer shows it
        if mode in _WIDE_MODES:
            wide = np.asarray(im)
            return (np.clip(wide, 0, 65535) >> 8).astype(np.uint8), None, mode
        if "transparency" in im.info and mode in ("P", "L", "RGB"):
            im = im.convert("RGBA")
        alpha = np.asarray(im.getchannel("A")) if "A" in im.getbands() else None
        return np.asarray(im.convert("L")), alpha, mode
    except (OSError, SyntaxError, ValueError, EOFError) as exc:  # a damaged or truncated file
        raise InvalidBoardError(f"cannot read {what}: {shown(str(exc), 80)[1:-1]}") from None


def read_picture(path, *, scale: int = 1) -> tuple[np.ndarray, np.ndarray | None, str]:
    """The grey levels (2-D uint8), alpha (2-D uint8, or None) and Pillow mode of a PNG or JPEG file.

    ``path`` may be ``"-"`` (standard input).  ``scale`` only tightens the
    size check (the scaled board must fit :data:`~ktsolve.board.MAX_SQUARES`).

    Raises
    ------
    InvalidBoardError
        For a file that cannot be read, is empty, is larger than
        :data:`MAX_PICTURE_BYTES`, is no PNG or JPEG, declares more than
        :data:`MAX_PICTURE_PIXELS` pixels, is in a mode other than grey, RGB,
        palette or 16-bit grey (CMYK, say), or is damaged.
    UnsupportedError
        When Pillow is not installed.
    """
    from ._reading import Source

    Image, _ = _pillow()
    path = os.fspath(path)
    what = "the picture on standard input" if path == "-" else f"picture {shown(path, 200)}"
    with Source(path, what, MAX_PICTURE_BYTES, InvalidBoardError) as src:
        if not src.head:
            raise InvalidBoardError(f"{what} is empty")
        raw = src.raw_file()
        if raw is not None and src.size is not None and src.size > MAX_PICTURE_BYTES:
            raise InvalidBoardError(f"{what} is larger than {MAX_PICTURE_BYTES:,} bytes")
        fh = raw if raw is not None else io.BytesIO(src.read("more than any picture ktsolve reads"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the size is checked below
            try:
                im = Image.open(fh, formats=FORMATS)
            except Image.UnidentifiedImageError:
                raise InvalidBoardError(f"{what} is not a PNG or JPEG picture") from None
            except Image.DecompressionBombError:
                raise InvalidBoardError(f"{what} declares more than {MAX_PICTURE_PIXELS:,} pixels") from None
            except (OSError, SyntaxError, ValueError, EOFError) as exc:
                raise InvalidBoardError(f"cannot read {what}: {shown(str(exc), 80)[1:-1]}") from None
            with im:
                return _from_image(im, what, scale)


def _block_means(levels: np.ndarray, k: int) -> np.ndarray:
    """Mean of every ``k x k`` block (the last row and column of blocks may be smaller), as float64."""
    rows, cols = levels.shape
    r_idx, c_idx = np.arange(0, rows, k), np.arange(0, cols, k)
    sums = np.add.reduceat(np.add.reduceat(levels, r_idx, axis=0, dtype=np.int64), c_idx, axis=1)
    counts = np.outer(np.diff(np.append(r_idx, rows)), np.diff(np.append(c_idx, cols)))
    return sums / counts


def _expand(blocks: np.ndarray, k: int, shape) -> np.ndarray:
    return np.repeat(np.repeat(blocks, k, axis=0), k, axis=1)[:shape[0], :shape[1]]


def picture_squares(picture, *, threshold: float | None = None, dark: bool = False, block: int = 1,
                    scale: int = 1) -> tuple[np.ndarray, list[str]]:
    """The squares of ``picture`` at ``threshold`` (2-D bool, before any cleaning) and the lines saying how
    it was read: the work of :func:`ktsolve.images.from_picture` up to its cleaning, whose docstring says
    what each argument does and the errors raised."""
    threshold_given = threshold is not None
    if threshold_given:
        threshold = check_real("threshold", threshold, 0.0, 255.0)
    dark = check_flag("dark", dark)
    block = check_int("block", block, 1, 1 << 16)
    scale = check_int("scale", scale, 1, 1024)
    alpha = None
    if isinstance(picture, (str, bytes, os.PathLike)):
        grey, alpha, mode = read_picture(picture, scale=scale)
        source = mode
    elif hasattr(picture, "getbands") and hasattr(picture, "mode"):  # a Pillow image
        grey, alpha, mode = _from_image(picture, "the picture", scale)
        source = mode
    else:
        grey, source = _grey_array(picture)
        _check_declared(*grey.shape, "the array", scale)
    rows, cols = grey.shape
    if threshold is None:
        threshold = 128.0 if source == "bool array" else float(otsu_threshold(
            grey if grey.dtype == np.uint8 else np.rint(grey).astype(np.uint8)))
    levels = grey if block == 1 else _block_means(grey, block)
    squares = levels < threshold if dark else levels >= threshold
    if alpha is not None:
        opaque = alpha >= 128 if block == 1 else _block_means(alpha, block) >= 128
        squares &= opaque
    if block > 1:
        squares = _expand(squares, block, grey.shape)
    how = "below" if dark else "at least"
    t = f"{threshold:g}" + ("" if threshold_given or source == "bool array" else " (Otsu)")
    made = [f"picture {rows}x{cols} ({source}), squares where the {'mean ' if block > 1 else ''}grey level "
            f"{'of a block ' if block > 1 else ''}is {how} {t}"]
    if block > 1:
        made.append(f"blocks of {block}x{block} pixels, each all squares or all holes")
    if scale > 1:
        check_size(rows * scale, cols * scale)
        squares = np.repeat(np.repeat(squares, scale, axis=0), scale, axis=1)
        made.append(f"scaled {scale}x: {rows * scale}x{cols * scale}")
    painted = int(np.count_nonzero(squares))
    if painted == 0:
        raise InvalidBoardError(f"the picture has no squares: no pixel is {how} the threshold {threshold:g}"
                                + (" where it is opaque" if alpha is not None else ""))
    made.append(f"{painted:,} squares")
    return squares, made


def _grey_array(picture) -> tuple[np.ndarray, str]:
    """The grey levels of a 2-D array (bools as 0 and 255) and how to name it."""
    arr = np.asarray(picture)
    if arr.ndim != 2:
        raise InvalidBoardError(f"a picture array is 2-D (grey levels or bools), not one of shape {arr.shape}")
    check_size(int(arr.shape[0]), int(arr.shape[1]))
    if arr.dtype == bool:
        return np.where(arr, np.uint8(255), np.uint8(0)), "bool array"
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise InvalidBoardError(f"a picture array holds grey levels 0..255 or bools, not {arr.dtype} values")
    if arr.size and not (np.isfinite(arr).all() and arr.min() >= 0 and arr.max() <= 255):
        raise InvalidBoardError("a picture array holds grey levels from 0 to 255")
    if np.issubdtype(arr.dtype, np.integer):
        arr = arr.astype(np.uint8, copy=False)
    return arr, "array"
