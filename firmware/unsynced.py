"""The USB serial until a laptop has spoken: the App's stand-in for the sync endpoint.

The sync endpoint (firmware/sync_endpoint.py, with the protocol and the result chain under
it) is imported with the first byte that arrives, so a board no laptop talks to never holds
it: ~7 KB of heap and ~120 interned names on the unix port, enough to push the names' pool
over a doubling (docs/performance.md, "Code in ROM"). Until then there is no wall clock
either: the laptop sets it over sync.
"""


class Unsynced:
    def __init__(self, app):
        self.app = app

    def feed(self, data, now):
        if not data:
            return
        from firmware.sync_endpoint import Endpoint

        app = self.app
        app.endpoint = Endpoint(app.usb, app.store, app.config, app)
        app.endpoint.feed(data, now)

    def wall_time(self, now):
        return None


def journal_meta(store):
    """What the match in the journal was started with (match_id, table...), or {}."""
    meta = getattr(getattr(store, "log", None), "meta", None)
    return meta if isinstance(meta, dict) else {}
