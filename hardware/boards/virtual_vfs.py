"""The virtual board's `vfs` module, as a MicroPython build with a ROM partition has it: the
unix port's `vfs` (which has `VfsRom` but no `rom_ioctl`) plus `rom_ioctl` over the virtual
ROM partition (virtual_flash.RomPartition). virtual_rom.py installs it as `vfs` in
sys.modules, so `import vfs` in the REPL, in `mpremote romfs` and in `pilkku flash` gets it.

    rom_ioctl(1)                      -> number of ROM partitions (1, or 0 without one)
    rom_ioctl(2, 0)                   -> the partition as a memoryview (its mapping)
    rom_ioctl(3, 0, length)           -> erase [0, length); returns the smallest write
    rom_ioctl(3, 0, offset, length)   -> erase [offset, offset + length); the same
    rom_ioctl(4, 0, offset, buf)      -> program buf at offset; 0
    rom_ioctl(5, 0)                   -> writing done; 0
    rom_ioctl(6, 0)                   -> the erase block size (ranged erase is supported)
Anything else, or a partition other than 0, returns -22 (EINVAL), as the C ports do.
"""

import vfs as _port_vfs
from virtual_flash import BLOCK_SIZE, ROM_MIN_WRITE  # type: ignore[import-not-found]

for _name in dir(_port_vfs):  # the unix port's own: mount, umount, VfsRom, VfsLfs2, ...
    if not _name.startswith("__"):
        globals()[_name] = getattr(_port_vfs, _name)

_EINVAL = -22
partition = None  # the RomPartition, set by virtual_rom at power-up


def rom_ioctl(op, *args):
    if op == 1:
        return 0 if partition is None else 1
    if partition is None or not args or args[0] != 0:
        return _EINVAL
    if op == 2:
        return partition.view
    if op == 3 and len(args) in (2, 3):
        offset, length = (0, args[1]) if len(args) == 2 else (args[1], args[2])
        return ROM_MIN_WRITE if partition.erase(offset, length) else _EINVAL
    if op == 4 and len(args) == 3:
        return 0 if partition.program(args[1], args[2]) else _EINVAL
    if op == 5:
        return 0
    if op == 6:
        return BLOCK_SIZE
    return _EINVAL
