"""Runs in the MicroPython unix port for test_config_powercut.py: mounts the LittleFS2 image
(cut after CUT flash writes, as journal_driver.py does), reports the board's files (its config,
schedule and result chain), then plays STEPS steps of a sync's writes, printing "ACK <n>" once
step n is on flash.

    micropython run_config_driver.py IMAGE STEPS [CUT]

Step n: signs result n + 1 (a link of the chain), every third step the laptop's ack of the
oldest link too (a forget), every fourth a new table number, every fifth a new schedule."""


from journal_driver import mount, say

from firmware.config import Config
from firmware.result_chain import Chain
from rules_core import canon
from rules_core import sync_protocol as sp

KEY = sp.Key(b"k" * 16)


def report(config, chain):
    say("CONFIG " + canon.dumps(config.values))
    say("SCHEDULE " + canon.dumps(config.schedule()))
    say("CHAIN " + canon.dumps({"n": chain.n, "mac": chain.mac, "links": chain.links}))
    # What the reads found damaged (kept files: firmware/kept.py): a cut must never leave any.
    say("FOUND " + canon.dumps({"mended": config.mended + (["chain"] if chain.mended else []),
                                "lost": config.lost + (["chain"] if chain.lost else [])}))
    say("READY")


def step(config, chain, n):
    chain.link(n + 1, KEY, config.board, "result %d" % (n + 1))
    if n % 3 == 2:
        chain.forget(min([int(k) for k in chain.links]))
    if n % 4 == 3:
        config.set_table(n)
    if n % 5 == 4:
        config.set_schedule([{"match_id": "m%d" % n, "settings": {"game": "9ball"}}])


def main(argv):
    image, steps = argv[0], int(argv[1])
    cut = int(argv[2]) if len(argv) > 2 else -1
    dev = mount(image, cut)
    try:
        config = Config("/flash/")
        chain = Chain("/flash/")
        if not getattr(dev, "dead", False):
            report(config, chain)
            say("FLASH %d" % (dev.programs + dev.erases))
            for n in range(chain.n, chain.n + steps):
                step(config, chain, n)
                if getattr(dev, "dead", False):
                    break
                say("ACK %d" % n)
    except OSError:
        if not getattr(dev, "dead", False):
            raise
    say("CUT" if getattr(dev, "dead", False) else "END")
