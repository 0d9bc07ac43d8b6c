# pngsum.py FILE...: each PNG's size, colour type and a SHA-256 of its decoded pixels
# (the IDAT stream inflated and unfiltered), which do not depend on the zlib or libpng
# that wrote the file. Used by the chart cases (table/29xx).
import hashlib, struct, sys, zlib

def pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit('%s: not a PNG' % path)
    pos, idat, hdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype = hdr[:4]
    bpp = {2: 3, 6: 4, 0: 1, 4: 2}[ctype] * depth // 8
    raw, stride, out, prev = zlib.decompress(idat), w * bpp, bytearray(), bytearray(w * bpp)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        out += line
        prev = line
    return w, h, ctype, hashlib.sha256(bytes(out)).hexdigest()

for p in sys.argv[1:]:
    w, h, ctype, digest = pixels(p)
    print('%s: %dx%d colour type %d pixels %s' % (p, w, h, ctype, digest[:16]))
