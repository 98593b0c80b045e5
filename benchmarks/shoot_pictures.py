"""The command line's pictures as a browser shows them: headless Chromium screenshots in docs/pictures/.

Issue 31 (item 7) asked that the SVG and HTML pictures be looked at in a
real browser.  This writes a few pictures with ``ktsolve`` (a closed tour
with step numbers, a tour of a long board wrapped into bands, the proof
that ``4x100`` has no closed tour, a proof on a holed board, a page of a
large board's heat map), opens each in headless Chromium, and saves a PNG
screenshot of it beside the others in ``docs/pictures/``.

Needs Chromium (``apt-get install -y chromium``).

Run:  python benchmarks/shoot_pictures.py [--out docs/pictures]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

KTSOLVE = shutil.which("ktsolve", path=str(Path(sys.executable).parent)) or shutil.which("ktsolve")

#: (file name, ktsolve arguments before -o, window size): what each picture shows.
PICTURES = [
    ("closed_8x8_numbers.svg", ["solve", "8x8", "--closed", "--seed", "1", "--numbers"], (420, 440)),
    ("open_5x40_bands.svg", ["solve", "5x40", "--seed", "1", "--numbers"], (760, 330)),
    ("holed_12x12.html", ["solve", "12x12", "--holes", "c3,d4,j9,k10", "--seed", "2"], (820, 820)),
    ("prove_4x100_closed.svg", ["prove", "4x100", "--closed", "--seed", "1"], (760, 470)),
    ("prove_5x5_hole_closed.html", ["prove", "5x5", "--holes", "c3", "--closed", "--seed", "1"], (820, 620)),
    ("heat_300x300.html", ["solve", "300x300", "--holes", "a1,b1", "--closed", "--seed", "1"], (820, 900)),
]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def shoot(browser: str, page: Path, png: Path, size: tuple[int, int]) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--no-first-run", f"--user-data-dir={profile}", f"--screenshot={png}",
                        f"--window-size={size[0]},{size[1]}", page.resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs" / "pictures"))
    args = ap.parse_args(argv)
    browser = chromium()
    if browser is None or KTSOLVE is None:
        sys.exit("needs chromium and the ktsolve command")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for name, cmd, size in PICTURES:
            page = Path(work) / name
            res = subprocess.run([KTSOLVE, *cmd, "-o", str(page)], capture_output=True, text=True)
            if res.returncode not in (0, 1) or not page.exists():
                sys.exit(f"ktsolve {' '.join(cmd)} exited {res.returncode} and wrote no picture: {res.stderr}")
            png = out / (page.stem + ".png")
            shoot(browser, page, png, size)
            print(f"{png}  ({' '.join(cmd)})")


if __name__ == "__main__":
    main()
