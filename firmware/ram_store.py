"""A match store and board settings kept in RAM, with the journal's and the config's
interfaces: for tests and desk boards, where there is no flash to keep them on."""

from rules_core.match import Match


class MemoryStore:
    """Where the match lives when there is no journal (tests, CPython): RAM only. It has the
    journal's interface (firmware/journal.py)."""

    def __init__(self):
        self.done = {}
        self.match = None
        self.log = None  # as the journal's: the match in play's log, with its start meta
        self.problem = None  # as the journal's: nothing is ever set aside in RAM

    def resume(self):
        return None

    def start(self, settings, meta=None):
        self.match = Match(settings)
        self.meta = meta or {}
        self.match.log.meta = self.meta
        self.log = self.match.log
        return self.match

    def prepare(self, idle=True):
        """Nothing to ready or check in RAM (the journal's erases happen here on a board)."""

    def damaged(self):
        return []  # as the journal's: nothing is ever damaged in RAM

    def finish(self, meta=None):
        from rules_core import matchlog

        seq = len(self.done) + 1
        full = dict(self.meta)
        full.update(meta or {})
        self.done[seq] = matchlog.document(self.match, full)
        return seq

    def finished(self):
        return sorted(self.done)

    def meta(self, seq):
        return self.done[seq]["meta"]

    def dump_document(self, seq, write, check_first=True):  # nothing to check in RAM
        from rules_core import canon

        canon.dump(self.done[seq], write)

    def acknowledge(self, seq):
        return self.done.pop(seq, None) is not None


class NoConfig:
    """A board without flash settings (tests): unpaired, no table, no schedule."""

    board = "desk"
    table = None
    problem = None  # as Config's: nothing kept, nothing damaged
    mended = lost = ()

    def key(self):
        return None

    def schedule(self):
        return []

    def set_schedule(self, matches):
        pass

    def set_table(self, table):
        self.table = table
