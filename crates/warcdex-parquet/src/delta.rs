//! Parquet's DELTA_BYTE_ARRAY encoding: each string as the length of the
//! prefix it shares with the one before and the rest (lengths as
//! DELTA_BINARY_PACKED). Sorted keys and URLs repeat long prefixes, which
//! then never reach zstd.

const BLOCK: usize = 128;
const MINIBLOCKS: usize = 4;
const PER_MINIBLOCK: usize = BLOCK / MINIBLOCKS;

use crate::varint;

/// DELTA_BINARY_PACKED of `values`. Deltas wrap as the format's 64-bit
/// arithmetic does, so any values round-trip.
pub fn binary_packed(values: &[i64], out: &mut Vec<u8>) {
    varint::put(out, BLOCK as u64);
    varint::put(out, MINIBLOCKS as u64);
    varint::put(out, values.len() as u64);
    varint::put_signed(out, values.first().copied().unwrap_or(0));
    let mut deltas = [0i64; BLOCK];
    let mut rest = values;
    while rest.len() > 1 {
        // One block: the deltas of up to BLOCK + 1 values.
        let n = (rest.len() - 1).min(BLOCK);
        for (d, w) in deltas.iter_mut().zip(rest[..n + 1].windows(2)) {
            *d = w[1].wrapping_sub(w[0]);
        }
        rest = &rest[n..];
        let block = &deltas[..n];
        let min = *block.iter().min().expect("non-empty block");
        varint::put_signed(out, min);
        let widths_at = out.len();
        out.extend_from_slice(&[0; MINIBLOCKS]);
        for (m, mini) in block.chunks(PER_MINIBLOCK).enumerate() {
            let mut vals = [0u64; PER_MINIBLOCK];
            // The width of the largest value is the width of them all or'ed.
            let mut any = 0u64;
            for (v, &d) in vals.iter_mut().zip(mini) {
                *v = d.wrapping_sub(min) as u64;
                any |= *v;
            }
            let width = 64 - any.leading_zeros();
            out[widths_at + m] = width as u8;
            pack(&vals, width, out);
        }
    }
}

/// 32 values of `width` bits, LSB first: exactly `4 * width` bytes.
#[inline]
fn pack(vals: &[u64; PER_MINIBLOCK], width: u32, out: &mut Vec<u8>) {
    let bytes = 4 * width as usize;
    if width <= 57 {
        // Each value or'ed in as one unaligned word at its byte: its bits
        // and the shift within the byte fit 64 (the 8 spare bytes take the
        // last word's overhang).
        let mut buf = [0u8; 4 * 57 + 8];
        for (k, &v) in vals.iter().enumerate() {
            let bit = k * width as usize;
            let at = bit / 8;
            let word = u64::from_le_bytes(buf[at..at + 8].try_into().unwrap()) | v << (bit % 8);
            buf[at..at + 8].copy_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&buf[..bytes]);
        return;
    }
    let mut packed = [0u8; 8 * PER_MINIBLOCK];
    let (mut acc, mut bits, mut n) = (0u128, 0u32, 0usize);
    for &v in vals {
        acc |= (v as u128) << bits;
        bits += width;
        if bits >= 64 {
            packed[n..n + 8].copy_from_slice(&(acc as u64).to_le_bytes());
            n += 8;
            acc >>= 64;
            bits -= 64;
        }
    }
    debug_assert_eq!(n + (bits as usize).div_ceil(8), bytes);
    packed[n..n + bits.div_ceil(8) as usize].copy_from_slice(&(acc as u64).to_le_bytes()[..bits.div_ceil(8) as usize]);
    out.extend_from_slice(&packed[..bytes]);
}

/// How many leading bytes `a` and `b` share, compared eight at a time.
fn shared_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_le_bytes(a[i..i + 8].try_into().unwrap()) ^ u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + a[i..n].iter().zip(&b[i..n]).take_while(|(x, y)| x == y).count()
}

/// DELTA_BYTE_ARRAY of `values`; `prefixes` and `suffixes` are scratch.
pub fn byte_array<'a>(values: impl Iterator<Item = &'a [u8]> + Clone, out: &mut Vec<u8>, prefixes: &mut Vec<i64>, suffixes: &mut Vec<i64>) {
    prefixes.clear();
    suffixes.clear();
    let mut prev: &[u8] = &[];
    for v in values.clone() {
        let shared = shared_prefix(prev, v);
        prefixes.push(shared as i64);
        suffixes.push((v.len() - shared) as i64);
        prev = v;
    }
    binary_packed(prefixes, out);
    binary_packed(suffixes, out);
    // The suffixes follow the lengths: a second walk over the values.
    for (v, &shared) in values.zip(prefixes.iter()) {
        out.extend_from_slice(&v[shared as usize..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reference decoder of DELTA_BINARY_PACKED, from the format's text.
    fn unpack(b: &mut &[u8]) -> Vec<i64> {
        let uvarint = varint::take;
        let z = |v: u64| ((v >> 1) as i64) ^ -((v & 1) as i64);
        let (block, minis, n) = (uvarint(b) as usize, uvarint(b) as usize, uvarint(b) as usize);
        let mut out = vec![z(uvarint(b))];
        let per = block / minis;
        while out.len() < n {
            let min = z(uvarint(b));
            let widths: Vec<u32> = b[..minis].iter().map(|&w| w as u32).collect();
            *b = &b[minis..];
            for w in widths {
                if out.len() >= n {
                    break;
                }
                let bytes = per * w as usize / 8;
                let (mut acc, mut bits, mut k) = (0u128, 0u32, 0);
                for _ in 0..per {
                    while bits < w {
                        acc |= (b[k] as u128) << bits;
                        k += 1;
                        bits += 8;
                    }
                    let d = (acc & ((1u128 << w) - 1)) as i64;
                    acc >>= w;
                    bits -= w;
                    if out.len() < n {
                        let last = *out.last().unwrap();
                        // The format's arithmetic wraps (two's complement).
                        out.push(last.wrapping_add(min).wrapping_add(d));
                    }
                }
                *b = &b[bytes..];
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn binary_packed_round_trips() {
        let mut seed = 3u64;
        for n in [0usize, 1, 2, 31, 32, 33, 127, 128, 129, 200, 1000, 1001] {
            let values: Vec<i64> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    // Widths from a few bits to 62 (the packer spills 64-bit words).
                    ((seed >> 33) % if n % 2 == 0 { 300 } else { 1 << 30 }) as i64 * if n == 1001 { 1 << 31 } else { 1 }
                })
                .collect();
            let mut out = Vec::new();
            binary_packed(&values, &mut out);
            let mut b = &out[..];
            let back = unpack(&mut b);
            assert_eq!(back, values, "n = {n}");
            assert!(b.is_empty(), "n = {n}: {} bytes left", b.len());
        }
    }

    /// Fetch times, offsets and lengths are packed too: any i64, deltas
    /// that overflow included, must come back.
    #[test]
    fn binary_packed_wraps_like_the_format() {
        let ms = 1_715_900_000_000i64;
        let cases: [Vec<i64>; 4] = [
            vec![i64::MIN, i64::MAX, 0, -1, i64::MAX, i64::MIN, 1],
            (0..300).map(|i| if i % 2 == 0 { i64::MAX - i } else { i64::MIN + i }).collect(),
            (0..300).map(|i| ms + (i * 7_919_000) % 2_600_000_000 - 1_300_000_000).collect(),
            (0..300).map(|i| -(i * i)).collect(),
        ];
        for values in cases {
            let mut out = Vec::new();
            binary_packed(&values, &mut out);
            let mut b = &out[..];
            assert_eq!(unpack(&mut b), values);
            assert!(b.is_empty());
        }
    }

    #[test]
    fn shared_prefixes_at_every_position() {
        let a: Vec<u8> = (0..40u8).collect();
        for len_b in 0..=40 {
            for diff in 0..=len_b {
                let mut b = a[..len_b].to_vec();
                if diff < len_b {
                    b[diff] ^= 0x80;
                }
                assert_eq!(shared_prefix(&a, &b), diff.min(len_b), "len {len_b}, first difference at {diff}");
                assert_eq!(shared_prefix(&b, &a), diff.min(len_b));
            }
        }
    }

    #[test]
    fn byte_arrays_keep_prefixes_out() {
        let vals = ["com,example)/", "com,example)/a", "com,example)/b", "org,x)/", ""];
        let mut out = Vec::new();
        byte_array(vals.iter().map(|v| v.as_bytes()), &mut out, &mut Vec::new(), &mut Vec::new());
        let mut b = &out[..];
        assert_eq!(unpack(&mut b), [0, 13, 13, 0, 0]);
        assert_eq!(unpack(&mut b), [13, 1, 1, 7, 0]);
        assert_eq!(b, b"com,example)/aborg,x)/");
    }
}
