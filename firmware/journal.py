"""The power-safe journal: every accepted event is on flash before the display confirms it.

    journal = Journal("/journal")           # scans, repairs and recovers (see docs/journal.md)
    match = journal.resume()                # the match in progress, exactly as it was, or None
    match = journal.start(settings, meta)   # JournalFull while too many results are unsynced
    match.apply(event); match.undo()        # each returns once its record is flushed
    journal.prepare(idle)                   # between keys: erases, filing, snapshots (one
                                            # step with a ring, `more` if it did one)
    journal.ahead(settings, idle)           # the menu waiting: the next start made ahead
    seq = journal.finish(meta)              # kept in done/<seq>.log until acknowledged
    journal.finished(); journal.document(seq); journal.dump_document(seq, write)
    journal.acknowledge(seq)                # only now is the result deleted
    journal.damaged(); journal.damaged_bytes(seq, most); journal.acknowledge_damaged(seq)

The journal is these modules: the record format (firmware/journal_records.py), the event
log of the match in progress (firmware/journal_log.py, its rewrites journal_rewrite.py), the
finished and damaged results (firmware/journal_done.py), and here the journal directory:
current.log, the finished matches in done/, the last sequence number in seq, and the
finished matches that failed their check in damaged/ (set aside whole, kept for the laptop:
one damaged result never holds the others). On a board with a ring outside littlefs
(firmware/journal_place.py) a key's record goes to the ring (firmware/journal_ring.py) and
reaches current.log between keys (firmware/journal_ring_file.py); a match begins there too
(its S record: nothing written to littlefs by the start key), and a finished match is filed
away in the quiet ticks after it, a step each.
"""

import gc
import os

from firmware import snapshot
from firmware.journal_done import FinishedMatches, _exists, _remove
from firmware.journal_log import JournalLog
from firmware.journal_records import (
    CURRENT,
    DAMAGED,
    KIND_SETTINGS,
    SET_ASIDE,
    TMP,
    JournalError,
    JournalFull,
    Records,
    flush_to_flash,
)
from firmware.room import open_file
from rules_core import canon, games
from rules_core.match import Match, check_settings
from rules_core.refusal import Refused

SEQ = "seq"
DONE = "done"
_LOG = ".log"
CHECK_STEP = 16  # records before the snapshot read per quiet tick (JournalLog.check_prefix)
PREFIX_DAMAGED = "JOURNAL DAMAGED: MATCH GOES ON, KEPT FOR THE LAPTOP"


def _mkdir(path):
    """Make the folder unless it is there: a cut may have left it made but not listed."""
    try:
        os.mkdir(path)
    except OSError:
        os.listdir(path)  # not there after all, or not a folder: that error says why


def _meta(meta):
    """The meta of an S or F record; its JSON is made before the record is written (a
    TypeError then writes nothing), once: on a Pico it takes milliseconds."""
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise JournalError("meta must be an object")
    return meta


def _s_payload(meta, seq, settings_text):
    """The S record's payload: canon.dumps({"meta": meta, "seq": seq, "settings": ...}) byte
    for byte (canonical JSON sorts the keys: meta, seq, settings), from the settings'
    canonical JSON, which the menu's quiet ticks make ahead (Journal.ahead)."""
    return ('{"meta":%s,"seq":%d,"settings":%s}' % (canon.dumps(meta), seq,
                                                    settings_text)).encode()


# Free heap for the menu to load a game's rules ahead (Journal.ahead): a Kaisa match needs
# some 64 KB in all, so with this much free one game more loaded leaves it ample room.
AHEAD_ROOM = 128 * 1024
_mem_free = getattr(gc, "mem_free", None)  # CPython has no heap of its own to watch

_BOARD = "board"  # Journal(ring=...): the ring the board offers (firmware/journal_place.py)


class Journal(FinishedMatches):
    """The journal directory at `root`: the match in progress and the finished matches the
    host has not acknowledged. Opening it repairs what a power cut left half done. `ring`:
    a journal_ring.Ring in front of current.log, None for none, by default the board's."""

    _mkdir = staticmethod(_mkdir)

    def __init__(self, root, max_finished=16, compact_min=4096, version=None, snapshot_every=32,
                 ring=_BOARD):
        if ring == _BOARD:
            from firmware.journal_place import board_ring

            ring = board_ring()
        self.ring = ring
        self.root = root
        self.snapshot_every = snapshot_every  # events between two snapshots on flash
        # Snapshots are used only by the firmware version that wrote them.
        self.version = snapshot.firmware_version() if version is None else version
        self.max_finished = max_finished
        self.compact_min = compact_min  # dead bytes the current file may hold before compaction
        self._io = Records()
        self.log = None  # the JournalLog of the match in progress
        self._seq = 0  # the last sequence number given to a match
        self._done = []  # sequence numbers of finished, unacknowledged matches
        self._aside = []  # ... of finished matches set aside as damaged, not yet acknowledged
        self.problem = None  # what the boot found damaged and set aside, for the displays
        self._done_written = 0  # a finished match whose done file is written, ring to let go
        self._filed_seq = 0
        self._ahead = None  # (settings, checked, their JSON, Match): the start made ahead
        self._seq_kept = 0  # the number in SEQ on flash (with a ring, written between keys)
        self.more = False  # the last prepare did flash work: the next quiet tick may have more
        self._open()

    def _path(self, name):
        return self.root + "/" + name

    def _done_path(self, seq, suffix=_LOG):
        return "%s/%s/%d%s" % (self.root, DONE, seq, suffix)

    def _aside_path(self, seq):
        return "%s/%s/%d%s" % (self.root, SET_ASIDE, seq, _LOG)

    def _open(self):
        # One listing of the root answers what else would be a lookup each (does it exist,
        # is done/ there, is there a match): every lookup scans the directory's metadata log,
        # which current.log's flushes keep long, so boot does as few as it can.
        try:
            names = os.listdir(self.root)
        except OSError:  # no journal yet (anything else, mkdir says)
            _mkdir(self.root)
            names = os.listdir(self.root)
        if DONE not in names:
            _mkdir(self._path(DONE))
        for name in names:
            if name.endswith(TMP):
                _remove(self._path(name))
        for name in os.listdir(self._path(DONE)):
            if name.endswith(TMP):
                _remove(self._path(DONE) + "/" + name)
            elif name.endswith(_LOG) and name[:-len(_LOG)].isdigit():
                self._done.append(int(name[:-len(_LOG)]))
        self._done.sort()
        if SET_ASIDE in names:  # (made with the first damaged result: no lookup before)
            try:
                aside = os.listdir(self._path(SET_ASIDE))
            except OSError:  # not a folder after all: nothing set aside, and the board boots
                aside = ()
            for name in aside:
                if name.endswith(_LOG) and name[:-len(_LOG)].isdigit():
                    self._aside.append(int(name[:-len(_LOG)]))
            self._aside.sort()
        try:
            with open_file(self._path(SEQ)) as f:
                self._seq = self._seq_kept = int(f.read().strip())
        except (OSError, ValueError):
            self._seq = 0
        for seq in self._done + self._aside:
            self._seq = max(self._seq, seq)
        # With a ring a match begins there (start): no current.log yet, its S record in the
        # ring at offset 0 (firmware/journal_ring_file.py).
        fresh = CURRENT not in names
        if not fresh or (self.ring is not None and self.ring.last):
            log = self.log = JournalLog(self, self._path(CURRENT), self._path(CURRENT + TMP))
            try:
                if not log.load(fresh):
                    self.log = None
                    if not fresh or _exists(self._path(CURRENT)):
                        self._set_aside("JOURNAL DAMAGED: MATCH SET ASIDE")
                    return  # (fresh: no match in the ring, its records let go by load)
                self._seq = max(self._seq, log.seq)
                if log.damaged:
                    self.problem = "JOURNAL DAMAGED: LAST SHOTS SET ASIDE"
                elif getattr(log._f, "problem", None):
                    self.problem = log._f.problem  # the ring's walk set records aside
                if log.finish_meta is not None:
                    # (also one filed already, its ring not yet let go: its done file is
                    # found and only the ring let go, _file_step)
                    self._file_away()
            except JournalError:
                # A record the scan passed that does not read back: the board must boot
                # (never bricked by its own journal), the file is kept for the host.
                self._set_aside("JOURNAL DAMAGED: MATCH SET ASIDE")

    def _log_file(self, path, fresh=False):
        """current.log opened for the log: with the ring in front of it, if there is one
        (`fresh`: no littlefs file yet, the match is in the ring alone)."""
        if self.ring is not None:
            from firmware.journal_ring_file import RingFile  # (no heap for it without a ring)

            return RingFile(self.ring, path, path + TMP, fresh)
        return open_file(path, "r+b")

    def _set_aside(self, problem):
        """Move the match in progress to DAMAGED (a copy for the host to look at, renamed
        over an older one) and say so: the board goes on to its menu."""
        if self.log is not None:
            self._seq = max(self._seq, self.log.seq)
            self.log.close()  # (with a ring: its records filed, current.log made if none)
            self.log = None
        self._keep_seq()  # its number leaves with it
        os.rename(self._path(CURRENT), self._path(DAMAGED))
        self.problem = problem

    def _keep_seq(self):
        """SEQ on flash up to the last number given out: a match that began in the ring
        wrote none (start), and its number must outlive its files (acknowledged, set
        aside). A small file rewritten whole; nothing when it is up to date."""
        if self._seq_kept < self._seq:
            self._write_text(SEQ, "%d" % self._seq)
            self._seq_kept = self._seq

    # -- the match in progress --------------------------------------------------------

    @property
    def active(self):
        """True while a match is in progress (not once finished, while its filing waits)."""
        return self.log is not None and self.log.finish_meta is None

    def start(self, settings, meta=None):
        """Start a match: its S record is on flash when this returns the Match. Refused for
        bad settings; JournalError while a match is in progress; JournalFull while
        `max_finished` results wait for the host."""
        self._filed()
        if self.log is not None:
            raise JournalError("a match is in progress: finish it before starting another")
        held = len(self._done) + len(self._aside)  # damaged ones too: flash stays bounded
        if held >= self.max_finished:
            raise JournalFull(held)
        held, self._ahead = self._ahead, None
        match = text = None
        if held is not None and held[0] == settings:
            settings, text, match = held[1], held[2], held[3]
        else:
            settings = check_settings(settings)
        meta = _meta(meta)
        seq = self._seq + 1
        payload = _s_payload(meta, seq, text or canon.dumps(settings))
        if self.ring is not None:
            # The key programs the S record into the ring, one page; littlefs gets SEQ and
            # current.log between keys (prepare). A boot finds the match in the ring.
            self.ring.restart()  # only records littlefs has (the last match was settled)
            if match is None:
                log = JournalLog(self, self._path(CURRENT), self._path(CURRENT + TMP))
                match = Match(settings, log=log, snapshot_every=self.snapshot_every)
            match.log.begin(seq, settings, meta, payload)
            self._seq = seq
            self.log = match.log
            return match
        self._write_text(SEQ, "%d" % seq)
        self._seq = self._seq_kept = seq
        snapshot.remove(self.root)  # the last match's, if filing it away was cut short
        tmp = self._path(CURRENT + TMP)
        g = open_file(tmp, "wb")
        try:
            self._io.write(g, KIND_SETTINGS, payload)
            flush_to_flash(g)
        finally:
            g.close()
        os.rename(tmp, self._path(CURRENT))
        log = JournalLog(self, self._path(CURRENT), tmp)
        if not log.load():
            raise JournalError("the new match cannot be read back from flash")
        self.log = log
        return Match(settings, log=log, snapshot_every=self.snapshot_every)

    def ahead(self, settings, idle=False):
        """While the menu waits (its quiet ticks): make the start of a match of `settings`
        ahead, on a board with a ring: the settings checked, their canonical JSON, the Match
        (its log not yet begun), so that the start key only makes the meta's JSON, programs
        the S record and draws. A game whose rules are not loaded yet (its first match since
        the boot) is loaded only once the keys have stopped (`idle`: loading takes ~80 ms
        on a Pico) and with AHEAD_ROOM of heap free; else its start key loads it, as before
        (a board short of heap spends none on a game the referee scrolls past). Settings the
        rules refuse are left to start."""
        if self.ring is None or self.active or not isinstance(settings, dict):
            return  # (a finished match still being filed does not stop it)
        if not games.loaded(settings.get("game")):
            if not idle or (_mem_free is not None and _mem_free() < AHEAD_ROOM):
                return
            from firmware import journal_ring_file  # noqa: F401  # (loaded with any match)
        held = self._ahead
        if held is not None and held[0] == settings:
            return
        self._ahead = None
        try:
            checked = check_settings(settings)  # (loads the game's rules)
            log = JournalLog(self, self._path(CURRENT), self._path(CURRENT + TMP))
            match = Match(checked, log=log, snapshot_every=self.snapshot_every)
            self._ahead = (settings, checked, canon.dumps(checked), match)
        except Refused:
            pass
        except MemoryError:
            gc.collect()  # no heap for it now: the start key makes it, as without

    def resume(self):
        """The match in progress rebuilt from flash (a new Match each call), or None."""
        if self.log is None:
            return None
        log = self.log
        point = log.resume_point
        if point is not None:
            state = snapshot.state_of(games.get(log.settings["game"]), point[1])
            if state is not None:
                try:
                    return Match(log.settings, snapshot_every=self.snapshot_every, log=log,
                                 start=(point[0], state))
                except Refused:
                    pass  # the log does not go on from it: replay the whole log instead
        try:
            return Match(log.settings, snapshot_every=self.snapshot_every, log=log)
        except Refused:
            # An event the rules refuse now (a firmware update changed them): the host gets
            # the match as it is, marked. Not raised: a board would raise at every boot.
            try:
                self.finish({"unreplayable": True})
                self.problem = "MATCH DOES NOT REPLAY: KEPT FOR THE LAPTOP"
                return None
            except JournalError:
                pass
        except (JournalError, ValueError, TypeError, KeyError, AttributeError):
            pass  # records that passed their CRCs but do not read back as a match
        self._set_aside("JOURNAL DAMAGED: MATCH SET ASIDE")
        return None

    def prepare(self, idle=True):
        """Between keys: check a few more of the records boot skipped (those before the
        snapshot: JournalLog.check_prefix), then ready the log for its next record
        (JournalLog.arm). Returns what to show when that check has just found damage, once;
        else None. The check comes first: once armed, a read would flush the pad.
        With a ring, one step of flash work per call (`more` says whether it did any): a
        finished match's filing at once, the rest (SEQ, the records to littlefs, a snapshot,
        a sector erased ahead) only when `idle` (no key for a while: docs/journal.md)."""
        log = self.log
        self.more = False
        if log is None:
            if idle and self.ring is not None:
                self.more = self.ring.tidy()  # the menu: a sector ready for the next start
            return None
        found = None
        try:
            if log.finish_meta is not None:
                self.more = self._file_step()  # a finished match, on a board with a ring
                return None
            if log.check_prefix(CHECK_STEP):
                found = self.problem = PREFIX_DAMAGED
            if idle and self.ring is not None and self._seq_kept < self._seq:
                self._keep_seq()
                self.more = True
                return found
            self.more = log.arm(idle)
        except MemoryError:
            # No heap for a step's file (littlefs' 1 KB cache, a full and fragmented heap):
            # it had written nothing, and is taken again in a later quiet tick.
            self.more = False
            gc.collect()
        return found

    def finish(self, meta=None):
        """End the match in progress: write F, then file it away as done/<seq>.log with only
        its effective events (and its pads, when nothing was undone: it is renamed). Returns
        its sequence number. Undo is over once this is called, so call it when the result
        is confirmed. With a ring, only the F record is written now: the match is filed
        away in the next quiet tick (prepare), or by whatever reads it first."""
        if self.log is None or (self.ring is not None and self.log.finish_meta is not None):
            raise JournalError("no match in progress")
        if self.log.finish_meta is None:
            self.log.finish(_meta(meta))
        if self.ring is not None:
            return self.log.seq
        return self._file_away()

    # -- helpers ----------------------------------------------------------------------

    def _write_text(self, name, text):
        tmp = self._path(name + TMP)
        g = open_file(tmp, "w")
        try:
            g.write(text)
            flush_to_flash(g)
        finally:
            g.close()
        os.rename(tmp, self._path(name))

    def close(self):
        if self.log is not None:
            self.log.close()
