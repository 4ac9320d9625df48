"""The USB serial until a laptop has spoken: the App's stand-in for the sync endpoint.

The sync endpoint (firmware/sync_endpoint.py, with the protocol and the result chain under
it) is imported with the first byte of a frame ("~", rules_core/sync_reader.py), so a board
no laptop talks to never holds it: ~7 KB of heap and ~140 interned names (on a Pico, with a
Kaisa match up, past the names' pool's next doubling: 9 KB more in one piece; docs/
performance.md, "The names' pool on the chip"). What comes before a frame (mpremote's Ctrl-B
as it leaves the raw REPL, a terminal's CR, line noise) the endpoint's reader would drop
anyway. A deliberate Ctrl-C is seen here as there (`repl_asked`). Until a laptop speaks there
is no wall clock either: the laptop sets it over sync.
"""

import gc


def repl_asked(data, before):
    """True if `data` holds a deliberate Ctrl-C: one right after a carriage return or another
    Ctrl-C (`before`: the byte before `data`, from the last read). A lone one is line noise."""
    at = data.find(b"\x03")
    while at >= 0:
        last = data[at - 1] if at > 0 else before
        if last == 0x0D or last == 0x03:
            return True
        at = data.find(b"\x03", at + 1)
    return False


class Unsynced:
    def __init__(self, app):
        self.app = app
        self._last_byte = 0

    def feed(self, data, now):
        if not data:
            return
        if repl_asked(data, self._last_byte):
            raise KeyboardInterrupt  # the REPL is asked for (firmware/sync_endpoint.py)
        self._last_byte = data[-1]
        if data.find(b"~") < 0:
            return  # no frame begins here ("~" begins every one): not a laptop yet
        app = self.app
        try:
            from firmware.sync_endpoint import Endpoint

            endpoint = Endpoint(app.usb, app.store, app.config, app)
        except MemoryError:
            # No heap for it now (a Pico's heap in small holes after a match): the board
            # keeps its scoreboard (a MemoryError here ended the loop, and the watchdog
            # reset the board under the laptop), the frame is dropped, and the laptop's
            # next one loads it, its modules loaded so far still loaded (issue 31).
            gc.collect()
            return
        app.endpoint = endpoint
        endpoint.feed(data, now)

    def wall_time(self, now):
        return None


def journal_meta(store):
    """What the match in the journal was started with (match_id, table...), or {}."""
    meta = getattr(getattr(store, "log", None), "meta", None)
    return meta if isinstance(meta, dict) else {}
