"""`pilkku hall --export DIR`: the hall's pages written as static HTML for a club's website,
the same pages the server shows (pages.py) without the live updates, with the style sheet
and the statistics as CSV. File names come from the store's integer ids only."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from host.hall import pages
from host.season import page as season_page
from host.tournament.store import Store


def export(store: Store, t: dict, folder: Path) -> list[Path]:
    """Write every page under `folder` (made if missing); returns the files written."""
    now = int(time.time() * 1000)
    written = []
    for key in pages.keys(store, t):
        path = folder / (key + ".html")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(pages.page(store, t, key, now, live=False), encoding="utf-8")
        written.append(path)
    (folder / "static").mkdir(parents=True, exist_ok=True)
    css = folder / "static" / "hall.css"
    shutil.copyfile(pages.STATIC / "hall.css", css)
    csv = folder / "stats.csv"
    csv.write_text(pages.stats_csv(store, t), encoding="utf-8")
    return written + [css, csv] + season_page.export(store, folder)  # the series' tables
