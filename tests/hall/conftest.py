"""Fixtures for the hall: stores filled by real tournaments on virtual boards, the hall's
and a headless Chromium (Debian's chromium + chromium-driver) driven by
Selenium. Without Chromium the browser tests are skipped, and the run says so at its end."""

from __future__ import annotations

import pytest

from host.bench.hall import CHROMIUM, DRIVER, chromium
from host.board import firmware_image
from tests.hall import tournament

NO_BROWSER = ("no Chromium here: the hall's browser tests need Debian's chromium and "
              "chromium-driver (apt-get install chromium chromium-driver; .ci/run does it)")
_skipped: list[str] = []


@pytest.fixture(scope="session")
def firmware() -> dict[str, bytes]:
    return firmware_image.image()


def played(tmp_path_factory, firmware, folder_name: str, name: str, format_: str) -> str:
    """A tournament of four in `format_`, played out on two virtual tables."""
    folder = tmp_path_factory.mktemp(folder_name)
    db = tournament.new_tournament(folder, name, format_, 2)
    boards = tournament.boards(folder, firmware, db, 2)
    try:
        tournament.play_all(db, boards)
    finally:
        for board in boards:
            board.close()
    return db


@pytest.fixture(scope="session")
def round_robin_db(tmp_path_factory, firmware) -> str:
    """A round robin of four (two with Ä Ö Å in their names) played on two virtual tables."""
    return played(tmp_path_factory, firmware, "round_robin", "Kevät Cup", "--round-robin")


@pytest.fixture(scope="session")
def bracket_db(tmp_path_factory, firmware) -> str:
    """A single-elimination bracket of four played on two virtual tables."""
    return played(tmp_path_factory, firmware, "bracket", "Syysturnaus", "--bracket")


@pytest.fixture(scope="session")
def double_db(tmp_path_factory, firmware) -> str:
    """A double elimination of four, drawn by its engine as results came, on two tables."""
    return played(tmp_path_factory, firmware, "double", "Talviturnaus", "double")


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
