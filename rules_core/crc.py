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
    import binascii

    _port_crc32 = binascii.crc32
except (ImportError, AttributeError):  # a port built without it
    _port_crc32 = soft_crc32


def crc32(data, crc=0):
    return _port_crc32(data, crc) & 0xFFFFFFFF
