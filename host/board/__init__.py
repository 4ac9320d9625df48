"""Boards, real and virtual: the MicroPython toolchain (mpy-cross, the unix port), the firmware
image, the one mpremote adapter, `pilkku flash`, the virtual board (the firmware in the unix port
on a pty), `pilkku board` and `pilkku sim` with the terminal face, the pty relay, and the
registry of announced boards. May import firmware, hardware and rules_core; no other host
package."""
