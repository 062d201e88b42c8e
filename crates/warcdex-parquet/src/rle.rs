//! Parquet's RLE / bit-packed hybrid encoding, for definition levels and
//! dictionary indices. Repeats of eight or more values become one RLE run;
//! anything else is bit-packed in groups of eight (the last group padded).

/// Bit-packed runs are split every this many groups of eight, as other
/// writers do, so no reader meets a run longer than it expects.
const MAX_GROUPS: usize = 63;

/// Bits needed for values up to `max`, at least 1.
pub fn width_for(max: u32) -> u8 {
    (32 - max.leading_zeros()).max(1) as u8
}

use crate::varint;

/// Appends the hybrid encoding of `values` (each below `1 << width`).
pub fn encode<T: Copy + PartialEq + Into<u32>>(values: &[T], width: u8, out: &mut Vec<u8>) {
    let n = values.len();
    let mut lit = Literals { start: 0, groups: 0 };
    let mut i = 0;
    while i < n {
        let end = (i + 8).min(n);
        let v = values[i];
        if values[i + 1..end].iter().all(|&x| x == v) {
            let j = run_end(values, end, v);
            lit.flush(values, width, out);
            put_run(j - i, v.into(), width, out);
            i = j;
        } else {
            if lit.groups == 0 {
                lit.start = i;
            }
            lit.groups += 1;
            i = end;
            if lit.groups == MAX_GROUPS {
                lit.flush(values, width, out);
            }
        }
    }
    lit.flush(values, width, out);
}

/// A run of `n` values `v` of `width` bits.
pub fn put_run(n: usize, v: u32, width: u8, out: &mut Vec<u8>) {
    varint::put(out, (n as u64) << 1);
    out.extend_from_slice(&v.to_le_bytes()[..(width as usize).div_ceil(8)]);
}

/// Where the run of `v` that reaches `from` ends. Sixteen values at a time
/// (compares the compiler turns into vector code: definition levels are
/// mostly one long run per page), then one at a time.
fn run_end<T: Copy + PartialEq>(values: &[T], from: usize, v: T) -> usize {
    let mut j = from;
    while let Some(chunk) = values.get(j..j + 16) {
        if !chunk.iter().fold(true, |all, &x| all & (x == v)) {
            break;
        }
        j += 16;
    }
    while j < values.len() && values[j] == v {
        j += 1;
    }
    j
}

struct Literals {
    start: usize,
    groups: usize,
}

impl Literals {
    fn flush<T: Copy + Into<u32>>(&mut self, values: &[T], width: u8, out: &mut Vec<u8>) {
        if self.groups == 0 {
            return;
        }
        varint::put(out, ((self.groups as u64) << 1) | 1);
        let w = width as u32;
        let (mut acc, mut bits) = (0u64, 0u32);
        for k in 0..self.groups * 8 {
            let v: u32 = values.get(self.start + k).map_or(0, |&x| x.into());
            acc |= (v as u64) << bits;
            bits += w;
            while bits >= 8 {
                out.push(acc as u8);
                acc >>= 8;
                bits -= 8;
            }
        }
        self.groups = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reference decoder, written from the format's grammar.
    fn decode(mut b: &[u8], width: u8, n: usize) -> Vec<u32> {
        let mut out = Vec::new();
        while out.len() < n {
            let h = varint::take(&mut b);
            if h & 1 == 1 {
                let count = (h >> 1) as usize * 8;
                let bytes = count * width as usize / 8;
                let (mut acc, mut bits, mut k) = (0u64, 0u32, 0);
                for _ in 0..count {
                    while bits < width as u32 {
                        acc |= (b[k] as u64) << bits;
                        k += 1;
                        bits += 8;
                    }
                    out.push((acc & ((1 << width) - 1)) as u32);
                    acc >>= width;
                    bits -= width as u32;
                }
                b = &b[bytes..];
            } else {
                let nb = (width as usize).div_ceil(8);
                let mut v = [0u8; 4];
                v[..nb].copy_from_slice(&b[..nb]);
                b = &b[nb..];
                out.extend(std::iter::repeat_n(u32::from_le_bytes(v), (h >> 1) as usize));
            }
        }
        assert!(b.is_empty(), "trailing bytes");
        out.truncate(n);
        out
    }

    #[test]
    fn round_trips() {
        let mut seed = 7u64;
        let mut rnd = |m: u32| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as u32) % m
        };
        for case in 0..400 {
            let width = 1 + (case % 20) as u8;
            let max = if width >= 32 { u32::MAX } else { (1u32 << width) - 1 };
            let n = rnd(2000) as usize;
            // Runs of random length, so both encodings and their borders occur.
            let mut values = Vec::new();
            while values.len() < n {
                let v = rnd(max.saturating_add(1).max(1)).min(max);
                let run = if rnd(3) == 0 { rnd(80) as usize } else { 1 };
                values.extend(std::iter::repeat_n(v, run.min(n - values.len()).max(1)));
            }
            let mut out = Vec::new();
            encode(&values, width, &mut out);
            assert_eq!(decode(&out, width, values.len()), values, "case {case}");
        }
    }

    #[test]
    fn run_ends_where_the_value_changes() {
        // Runs of every length around the 16-value chunks.
        for len in 0..70 {
            for from in 0..=len {
                let mut v = vec![3u32; len];
                v.extend([4, 3, 3]);
                assert_eq!(run_end(&v, from, 3), len, "run of {len} from {from}");
            }
        }
        assert_eq!(run_end(&[5u8; 40], 3, 5), 40, "to the end");
    }

    #[test]
    fn runs_and_literals() {
        let mut out = Vec::new();
        encode(&[1u8; 100], 1, &mut out);
        assert_eq!(out, [0xc8, 0x01, 1], "one RLE run of 100 (varint 200), value 1");
        out.clear();
        encode(&[1u8, 0, 1], 1, &mut out);
        assert_eq!(out, [3, 0b101], "one padded bit-packed group");
        assert_eq!((width_for(0), width_for(1), width_for(2), width_for(255), width_for(256)), (1, 1, 2, 8, 9));
    }
}
