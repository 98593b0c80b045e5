"""Boards from pictures: a picture's light (or dark) region, thresholded, scaled and cleaned.

Knight's tours on holed boards are used to scramble the pixels of a region
of a picture (Jiang, Bai & Dong name image encryption as their use), and a
picture is the quickest way to draw a board.  :func:`from_picture` turns a
picture file (PNG or JPEG, read with Pillow, the optional extra
``ktsolve[image]``) or a 2-D array into a :class:`~ktsolve.cleaning.Region`:

1. *grey levels*: a file is converted to 8-bit grey (ITU-R 601-2 luma for
   colour, the top byte of 16-bit grey); its transparent pixels (alpha
   below 128) are holes whatever their grey level.  A bool array is taken
   as grey levels 0 and 255;
2. *threshold*: a pixel is a square when its grey level is at least the
   threshold (``dark=True``: below it); without a threshold, Otsu's
   (the level that best splits the picture's histogram in two);
3. *blocks* (``block=k``): the picture is cut into ``k x k`` blocks of
   pixels and each block is all squares or all holes, by its mean grey
   level against the threshold: blocks are the unit of thresholding, as
   JPEG's 8 x 8 blocks are its unit of coding.  (Each block a region of
   its own would be a family of boards, not one: the regions would not be
   joined, and no tour crosses between them.  Cut the mask with numpy for
   that);
4. *scale* (``scale=s``): every pixel becomes ``s x s`` squares, so a small
   picture makes a large board;
5. *cleaning* (:func:`ktsolve.cleaning.clean`): the largest knight-connected
   part, pruned to squares with two moves, colours balanced at the edge.

Reading is bounded before any pixel is decoded: the file through
:class:`ktsolve._reading.Source` within :data:`MAX_PICTURE_BYTES`, then the
size the picture declares against :data:`MAX_PICTURE_PIXELS` and, scaled,
against the largest board, so a decompression bomb (a small file declaring
a huge picture) is refused by its header.  Only Pillow's PNG and JPEG
readers are used.
"""

from __future__ import annotations

import dataclasses

import numpy as np  # noqa: F401  (the examples use it)

from ._picture import FORMATS, MAX_PICTURE_BYTES, MAX_PICTURE_PIXELS, otsu_threshold, picture_squares, read_picture
from .cleaning import Region, clean

__all__ = ["from_picture", "read_picture", "otsu_threshold", "MAX_PICTURE_BYTES", "MAX_PICTURE_PIXELS", "FORMATS"]


def from_picture(
    picture,
    *,
    threshold: float | None = None,
    dark: bool = False,
    block: int = 1,
    scale: int = 1,
    largest: bool = True,
    prune: bool = True,
    balance: str | None = "open",
) -> Region:
    """The region of ``picture`` at ``threshold``, made a board fit for a tour (see the module docstring).

    Parameters
    ----------
    picture : str, path, or array_like
        A PNG or JPEG file (``"-"``: standard input), or a 2-D array of
        grey levels 0..255 (any integer or float type) or of bools.
    threshold : float, optional
        Grey level from 0 to 255: pixels at least this light are squares.
        None: Otsu's threshold of the picture (128 for a bool array).
    dark : bool
        Take the pixels darker than the threshold instead.
    block : int
        Side of the blocks that are the unit of thresholding (1: pixels).
    scale : int
        Squares per pixel along each side (1 to 1,024).
    largest, prune, balance
        The cleaning of the thresholded region (see :func:`ktsolve.cleaning.clean`).

    Returns
    -------
    Region
        Its ``made`` lines say how the picture was read and thresholded.

    Raises
    ------
    InvalidBoardError
        For a picture that cannot be read (see :func:`read_picture`), an
        array that is not 2-D grey levels, a board above the size limit, a
        picture with no squares at the threshold, or one the cleaning
        empties or cannot balance.
    InvalidParameterError
        For a threshold outside 0..255, or a block or scale out of range.

    Examples
    --------
    >>> grey = np.zeros((12, 12), dtype=np.uint8)
    >>> grey[1:11, 2:10] = 200                   # a light 10 x 8 rectangle on black
    >>> r = from_picture(grey, balance="closed")
    >>> r.board.n_squares, r.cleaning.colours, r.made[0]
    (80, (40, 40), 'picture 12x12 (array), squares where the grey level is at least 101 (Otsu)')
    >>> from_picture(grey, scale=2).board.n_squares
    320
    """
    squares, made = picture_squares(picture, threshold=threshold, dark=dark, block=block, scale=scale)
    region = clean(squares, largest=largest, prune=prune, balance=balance)
    return dataclasses.replace(region, made=tuple(made))


