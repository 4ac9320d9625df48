# type: ignore
# ruff: noqa: F821  (include, package, module: given by MicroPython's makemanifest)
# The MicroPython manifest that freezes pilkku into a firmware image, for boards whose
# MicroPython has no ROM partition (docs/firmware-build.md has the build commands):
#
#     make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/pilkku/firmware/manifest.py
#
# Frozen bytecode runs in place from the firmware's flash, as from a ROMFS. The port's own
# manifest comes first (its _boot.py, asyncio, ...), then every module `pilkku flash` puts
# on a Pico or an ESP32 (host/board/firmware_image.py: none of the virtual board's;
# tests/firmware/test_manifest.py keeps the two lists equal and checks that the board's
# imports are all here), then boot.py and main.py: a
# frozen one runs at boot when the filesystem has none. Paths are relative to this file.
# Files on the filesystem still come before frozen ones on sys.path ("" before ".frozen"),
# so a later `pilkku flash` of newer code replaces these without a new image.

include("$(PORT_DIR)/boards/manifest.py")

package(
    "rules_core",
    files=(
        "__init__.py", "bounded.py", "canon.py", "crc.py", "eightball.py", "eventlog.py",
        "events.py",
        "games.py", "kaisa.py", "kaisa_clock.py", "kaisa_innings.py", "kaisa_points.py",
        "kaisa_spots.py", "kaisa_table.py", "match.py", "matchlog.py", "nineball.py",
        "pool.py", "refusal.py", "rulesets.py", "state.py", "straight.py",
        "sync_protocol.py", "sync_reader.py",
    ),
    base_path="..",
)
package(
    "hardware",
    files=(
        "__init__.py", "boards/__init__.py", "boards/esp32.py", "boards/pico.py",
        "boards/stdio_serial.py", "buzzer.py", "compat.py", "ht16k33.py", "keypad_latch.py",
        "keys.py",
        "panel.py", "segments.py",
    ),
    base_path="..",
)
package(
    "firmware",
    files=(
        "__init__.py", "app.py", "between_keys.py", "config.py", "journal.py", "journal_done.py",
        "journal_log.py", "journal_place.py", "journal_records.py", "journal_rewrite.py",
        "journal_ring.py", "journal_ring_file.py", "kaisa_face.py", "kept.py",
        "menu.py",
        "ram_store.py",
        "referee.py", "referee_kaisa.py", "referee_straight.py", "result_chain.py", "room.py",
        "screens.py", "shotclock.py", "snapshot.py", "sync_endpoint.py", "sync_pull.py",
        "unsynced.py", "words.py", "words_fi.py", "words_sv.py",
    ),
    base_path="..",
)
module("boot.py", base_path=".")
module("main.py", base_path=".")
