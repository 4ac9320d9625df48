"""A board flashed from the desk's boards page, in a thread of its own: the watcher syncs it
first and lends its port (host/sync/watch_orders.py `borrowed`, as for `pilkku flash`), the
firmware goes on with host/board/flash.py's `flash` (what `pilkku flash` runs), the port goes
back to the watcher, which says hello to the board on its new firmware. What each step says,
and the bytes written of each file, are kept as the job's progress: the page shows it, pushed
by the hall's server-sent events (Jobs.look is part of the hall's look)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from host.i18n import N_

LINES = 8  # the last lines said that the page shows
WORDS = {  # what the page says of a flash (N_: translated where shown, the template's tr())
    "syncing": N_("syncing it first"),
    "flashing": N_("flashing"),
    "done": N_("flashed"),
    "failed": N_("not flashed"),
    "internal": ("the flash stopped on an internal error (%s: %s): the board keeps what it "
                 "had or the new firmware whole; flash it again"),
}


@dataclass
class Job:
    port: str
    board: str | None
    phase: str = "syncing"  # syncing -> flashing -> done | failed
    lines: list[str] = field(default_factory=list)
    said: int = 0  # lines said in all
    chunk: tuple[str, int, int] | None = None  # the file being written, bytes so far, size
    synced: str | None = None  # what the sync-first did
    version: str | None = None  # the firmware verified on the board at the end
    error: str | None = None
    started: float = field(default_factory=time.time)
    ended: float | None = None

    def view(self) -> dict:
        percent = None
        if self.chunk is not None and self.chunk[2]:
            percent = min(100, self.chunk[1] * 100 // self.chunk[2])
        return {"port": self.port, "board": self.board, "phase": self.phase,
                "phase_words": WORDS[self.phase], "lines": list(self.lines),
                "file": self.chunk[0] if self.chunk else None, "percent": percent,
                "synced": self.synced, "version": self.version, "error": self.error,
                "running": self.phase in ("syncing", "flashing"),
                "started": self.started, "ended": self.ended}


class Jobs:
    """The desk's flashes: the newest of each port."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.jobs: dict[str, Job] = {}

    def running(self, port: str) -> bool:
        with self.lock:
            job = self.jobs.get(port)
            return job is not None and job.phase in ("syncing", "flashing")

    def start(self, watcher: Any, port: str, board: str | None) -> Job | None:
        """A flash of the board on `port` begun; None if one is under way there."""
        with self.lock:
            job = self.jobs.get(port)
            if job is not None and job.phase in ("syncing", "flashing"):
                return None
            job = self.jobs[port] = Job(port, board)
        threading.Thread(target=self._run, args=(watcher, job), daemon=True,
                         name="desk flash %s" % port).start()
        return job

    def all(self) -> list[dict]:
        with self.lock:
            return [job.view() for _port, job in sorted(self.jobs.items())]

    def by_port(self) -> dict[str, dict]:
        """The flashes under way, by port."""
        with self.lock:
            return {p: j.view() for p, j in self.jobs.items()
                    if j.phase in ("syncing", "flashing")}

    def look(self) -> tuple:
        with self.lock:
            return tuple(sorted((p, j.phase, j.said, j.view()["percent"] // 10 * 10
                                 if j.view()["percent"] is not None else None)
                                for p, j in self.jobs.items()))

    # --- the flash, in its thread --------------------------------------------------------

    def _say(self, job: Job, text: str) -> None:
        with self.lock:
            job.lines = (job.lines + [text])[-LINES:]
            job.said += 1

    def _chunk(self, job: Job, path: str, written: int, size: int) -> None:
        with self.lock:
            job.chunk = (path, written, size)

    def _end(self, job: Job, error: str | None = None, version: str | None = None) -> None:
        with self.lock:
            job.phase = "failed" if error else "done"
            job.error, job.version, job.ended = error, version, time.time()

    def _run(self, watcher: Any, job: Job) -> None:
        from host.board import flash, toolchain
        from host.board.mpremote_link import BoardRaised, LinkError
        from host.sync import watch_orders

        try:
            with watch_orders.borrowed(watcher, job.port, sync_first=True,
                                       heard=lambda text: self._say(job, text)) as synced:
                with self.lock:
                    job.synced = watch_orders.synced_words(synced)
                    job.phase = "flashing"
                result = flash.flash(job.port, say=lambda text: self._say(job, text),
                                     on_chunk=lambda p, n, s: self._chunk(job, p, n, s))
            self._end(job, version=result.version)
        except BoardRaised as error:  # as `pilkku flash` says it (host/board/flash.py main)
            self._end(job, "%s: flash again; if it repeats, the board's flash may be full or "
                           "worn" % error)
        except (watch_orders.NotLent, LinkError, flash.FlashError,
                toolchain.ToolchainError) as error:
            self._end(job, str(error))
        except Exception as error:  # noqa: BLE001 (a bug of ours: said on the page)
            self._end(job, WORDS["internal"] % (type(error).__name__, error))
