"""Fixtures for the hall: stores filled by real tournaments on virtual boards, the hall's
server on a free port, and a headless Chromium (Debian's chromium + chromium-driver) driven by
Selenium. Without Chromium the browser tests are skipped, and the run says so at its end."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from host.board import firmware_image
from host.hall.app import Hall
from host.hall.app import server as hall_server
from tests.hall import tournament

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
NO_BROWSER = ("no Chromium here: the hall's browser tests need Debian's chromium and "
              "chromium-driver (apt-get install chromium chromium-driver; .ci/run does it)")
_skipped: list[str] = []


@pytest.fixture(scope="session")
def firmware() -> dict[str, bytes]:
    return firmware_image.image()


@pytest.fixture(scope="session")
def round_robin_db(tmp_path_factory, firmware) -> str:
    """A round robin of four (two with Ä Ö Å in their names) played on two virtual tables."""
    folder = tmp_path_factory.mktemp("round_robin")
    db = tournament.new_tournament(folder, "Kevät Cup", "--round-robin", 2)
    boards = tournament.boards(folder, firmware, db, 2)
    try:
        tournament.play_all(db, boards)
    finally:
        for board in boards:
            board.close()
    return db


@pytest.fixture(scope="session")
def bracket_db(tmp_path_factory, firmware) -> str:
    """A single-elimination bracket of four played on two virtual tables."""
    folder = tmp_path_factory.mktemp("bracket")
    db = tournament.new_tournament(folder, "Syysturnaus", "--bracket", 2)
    boards = tournament.boards(folder, firmware, db, 2)
    try:
        tournament.play_all(db, boards)
    finally:
        for board in boards:
            board.close()
    return db


@pytest.fixture(scope="session")
def double_db(tmp_path_factory, firmware) -> str:
    """A double elimination of four, drawn by its engine as results came, on two tables."""
    folder = tmp_path_factory.mktemp("double")
    db = tournament.new_tournament(folder, "Talviturnaus", "double", 2)
    boards = tournament.boards(folder, firmware, db, 2)
    try:
        tournament.play_all(db, boards)
    finally:
        for board in boards:
            board.close()
    return db


@contextmanager
def serving(db: str) -> Iterator[tuple[str, Hall]]:
    """The hall on a free port of 127.0.0.1 for the duration; yields (base URL, hall)."""
    hall = Hall(db, None)
    server = hall_server(hall, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the hall did not start"
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield "http://127.0.0.1:%d" % port, hall
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def chromium(folder: Path, width: int = 1366, height: int = 900):
    """A fresh headless Chromium (its own profile; no background connections, which this
    closed network would refuse)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--user-data-dir=%s" % folder,
                 "--window-size=%d,%d" % (width, height), "--lang=fi-FI"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER or ""), options=options)


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    if not (CHROMIUM and DRIVER):
        _skipped.append(NO_BROWSER)
        pytest.skip(NO_BROWSER)
    driver = chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def pytest_terminal_summary(terminalreporter) -> None:
    if _skipped:
        terminalreporter.write_line("hall browser tests SKIPPED: " + _skipped[0], yellow=True)
