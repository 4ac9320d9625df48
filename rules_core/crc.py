"""CRC-32 (zlib's polynomial), for the journal's records and the sync frames: the port's
`binascii.crc32` where it has one, else a small table-free one."""


def soft_crc32(data, crc=0):
    crc = crc ^ 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


try:
    from binascii import crc32 as _port_crc32
except ImportError:  # a port built without it
    _port_crc32 = None


def crc32(data, crc=0):
    if _port_crc32 is not None:
        return _port_crc32(data, crc) & 0xFFFFFFFF
    return soft_crc32(data, crc)
