//! Small seeded PRNG (xoshiro256** seeded through splitmix64).
//!
//! We write our own instead of pulling in `rand` because the output must be
//! bit-for-bit reproducible forever: a dependency upgrade that changed a
//! sampling algorithm would silently change every generated sample file.

/// splitmix64 step; used to expand seeds and to hash small tuples.
#[inline]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Stateless mix of a few words into one; gives every (seed, host, page)
/// tuple its own independent stream without keeping any table.
pub fn hash(parts: &[u64]) -> u64 {
    let mut s = 0x5EED_0FC0_FFEE_u64;
    let mut acc = 0;
    for &p in parts {
        s ^= p;
        acc ^= splitmix64(&mut s);
    }
    acc
}

/// xoshiro256**: fast, 256-bit state, good statistical quality.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Rng { s }
    }

    /// A child generator for an independent sub-stream (e.g. one page's
    /// properties), so drawing from it does not shift the parent's sequence.
    pub fn from_parts(parts: &[u64]) -> Rng {
        Rng::new(hash(parts))
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, n) (Lemire's multiply-shift; the tiny bias for huge n
    /// is irrelevant for synthetic data).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in [lo, hi] inclusive.
    #[inline]
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// Uniform in [0, 1).
    #[inline]
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.f64() < p
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Index drawn with probability proportional to `weights[i]`.
    pub fn weighted(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut x = self.f64() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }

    /// Standard normal via Box-Muller (one value per call; the cost only
    /// matters per capture, not per byte).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.f64(); // (0, 1]
        let u2 = self.f64();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Log-normal with the given median and shape: the classic model for
    /// web object sizes (many small objects, a long multi-MB tail).
    pub fn log_normal(&mut self, median: f64, sigma: f64) -> f64 {
        median * (sigma * self.normal()).exp()
    }

    /// Fills `buf` with random bytes, 8 at a time: this is how incompressible
    /// payloads (images, PDF streams) are made, at memory-bandwidth speed.
    pub fn fill(&mut self, buf: &mut [u8]) {
        let mut chunks = buf.chunks_exact_mut(8);
        for c in &mut chunks {
            c.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let v = self.next_u64().to_le_bytes();
            rest.copy_from_slice(&v[..rest.len()]);
        }
    }

    /// A version-4 UUID, as used in `<urn:uuid:...>` record ids.
    pub fn uuid(&mut self) -> String {
        let mut b = [0u8; 16];
        self.fill(&mut b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let h = |r: std::ops::Range<usize>| -> String {
            b[r].iter().map(|x| format!("{x:02x}")).collect()
        };
        format!(
            "{}-{}-{}-{}-{}",
            h(0..4),
            h(4..6),
            h(6..8),
            h(8..10),
            h(10..16)
        )
    }

    /// Lowercase hex token of `n` digits (session ids, ETags).
    pub fn hex(&mut self, n: usize) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        (0..n)
            .map(|_| HEX[(self.next_u64() & 15) as usize] as char)
            .collect()
    }

    /// Alphanumeric token (base64-ish state blobs in long URLs, csrf tokens).
    pub fn token(&mut self, n: usize) -> String {
        const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..n)
            .map(|_| ALNUM[self.below(ALNUM.len() as u64) as usize] as char)
            .collect()
    }
}

/// Pre-computed cumulative table for fast repeated sampling from a fixed
/// distribution (Zipf word ranks, host popularity).
#[derive(Clone, Debug)]
pub struct Cumulative {
    cum: Vec<f64>,
}

impl Cumulative {
    pub fn new(weights: impl IntoIterator<Item = f64>) -> Cumulative {
        let mut total = 0.0;
        let cum = weights
            .into_iter()
            .map(|w| {
                total += w;
                total
            })
            .collect();
        Cumulative { cum }
    }

    /// Zipf weights 1/(rank+1)^s for `n` ranks.
    pub fn zipf(n: usize, s: f64) -> Cumulative {
        Cumulative::new((0..n).map(|i| 1.0 / ((i + 1) as f64).powf(s)))
    }

    pub fn sample(&self, rng: &mut Rng) -> usize {
        let x = rng.f64() * self.cum.last().copied().unwrap_or(0.0);
        self.cum
            .partition_point(|&c| c <= x)
            .min(self.cum.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_and_distinct() {
        let a: Vec<u64> = (0..4)
            .scan(Rng::new(1), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..4)
            .scan(Rng::new(1), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..4)
            .scan(Rng::new(2), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn uuid_shape() {
        let u = Rng::new(7).uuid();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
    }

    #[test]
    fn below_in_range() {
        let mut r = Rng::new(3);
        assert!((0..1000).all(|_| r.below(7) < 7));
        let z = Cumulative::zipf(10, 1.0);
        assert!((0..1000).all(|_| z.sample(&mut r) < 10));
    }
}
