"""Boot entry: `pilkku flash` installs this file as /boot.py. A board runs it at every boot and
every soft reset, before main.py, and also before the raw REPL a soft reset from mpremote or
`pilkku flash` leads to, where main.py does not run. The board file sets up there what must
hold across a soft reset: on the ESP32 the watchdog's feeder, since its WDT cannot be stopped
and a soft reset stops every timer (hardware/boards/esp32.py)."""

from hardware.boards import detect

detect().after_reset()
