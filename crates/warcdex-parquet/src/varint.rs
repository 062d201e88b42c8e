//! Unsigned LEB128 varints, as Thrift's compact protocol, Parquet's RLE and
//! delta headers and warcdex's sort records write lengths and counts.

pub fn put(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Zigzag-mapped, so small negative numbers stay short.
pub fn put_signed(out: &mut Vec<u8>, v: i64) {
    put(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// The varint at the start of `b` and the bytes it took; `None` when `b`
/// ends inside it or it runs past ten bytes.
#[inline]
pub fn get(b: &[u8]) -> Option<(u64, usize)> {
    // Most varints (lengths, small counts) are one byte.
    if let Some(&c) = b.first() {
        if c < 0x80 {
            return Some((c as u64, 1));
        }
    }
    let mut v = 0u64;
    for (i, &c) in b.iter().enumerate().take(10) {
        v |= ((c & 0x7f) as u64) << (7 * i);
        if c < 0x80 {
            return Some((v, i + 1));
        }
    }
    None
}

/// Reads a varint off the front of `b` (for the tests' reference decoders).
#[cfg(test)]
pub fn take(b: &mut &[u8]) -> u64 {
    let (v, n) = get(b).expect("a whole varint");
    *b = &b[n..];
    v
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trips() {
        for v in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            super::put(&mut out, v);
            assert_eq!(super::get(&out), Some((v, out.len())));
        }
        let mut out = Vec::new();
        super::put_signed(&mut out, -1);
        assert_eq!(out, [1]);
        assert_eq!(super::get(&[0x80, 0x80]), None, "cut short");
    }
}
