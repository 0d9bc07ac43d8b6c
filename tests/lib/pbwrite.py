# SPDX-License-Identifier: ISC
"""pbwrite: the protobuf wire format written by hand, no protobuf library, for the
generators of XSpace profiles (tests/data/jax/mkxspace.py, tests/bench/gen-xplane.py).
Field numbers: docs/jax.md §1.3. Each function returns the bytes of one field (or of a
message's body); a message is the concatenation of its fields, a nested one is fb(num,
body)."""
import struct


def varint(v):
    """A base-128 varint of v as protobuf writes it (negative: its 64-bit two's
    complement, ten bytes)."""
    v &= (1 << 64) - 1
    if v < 0x80:
        return bytes((v,))
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wt):
    """A field's tag: its number and wire type (0 varint, 1 64-bit, 2 length)."""
    return varint(num << 3 | wt)


def fv(num, v):
    """A varint field."""
    return key(num, 0) + varint(v)


def fb(num, b):
    """A length-delimited field: bytes, a str (UTF-8) or a nested message's body."""
    if isinstance(b, str):
        b = b.encode()
    return key(num, 2) + varint(len(b)) + b


def fd(num, d):
    """A double field."""
    return key(num, 1) + struct.pack("<d", d)


def packed(num, vals):
    """A packed repeated varint field."""
    return fb(num, b"".join(varint(v) for v in vals))


# --- HLO (xla.ShapeProto) ----------------------------------------------------------
BF16, F32, U8, S32 = 16, 11, 6, 4     # xla.PrimitiveType
TUPLE = 13


def shape(etype, dims, layout=None):
    """An array shape: element type, dims and minor-to-major layout (by default the
    dims in reverse order, XLA's row-major)."""
    s = fv(2, etype) + packed(3, dims)
    if layout is None:
        layout = list(range(len(dims) - 1, -1, -1))
    if dims:
        s += fb(5, packed(1, layout))
    return s


def tuple_shape(*elems):
    """A tuple shape of the given element shapes."""
    return fv(2, TUPLE) + b"".join(fb(4, e) for e in elems)


# --- XSpace ------------------------------------------------------------------------
def stat(md, kind, v):
    """An XStat's body: metadata id md and a value of kind "u" (uint64), "i" (int64),
    "s" (string), "b" (bytes) or "d" (double)."""
    if kind == "u":
        return fv(1, md) + fv(3, v)
    if kind == "i":
        return fv(1, md) + fv(4, v)
    if kind == "s":
        return fv(1, md) + fb(5, v)
    if kind == "b":
        return fv(1, md) + fb(6, v)
    if kind == "d":
        return fv(1, md) + fd(2, v)
    raise ValueError(kind)


def maps(evmd, stmd):
    """An XPlane's metadata maps: evmd {id: (name, its stats' fields)}, stmd {id:
    name}, as map entries (fields 4 and 5)."""
    b = bytearray()
    for i, (nm, st) in evmd.items():
        v = fv(1, i) + fb(2, nm) + st
        b += fb(4, fv(1, i) + fb(2, v))
    for i, nm in stmd.items():
        b += fb(5, fv(1, i) + fb(2, fv(1, i) + fb(2, nm)))
    return bytes(b)
