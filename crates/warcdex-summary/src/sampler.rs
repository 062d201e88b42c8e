//! cdx-summary's sampler of OK HTML captures (`DynamicRandomStreamSampler`):
//! the n-th candidate goes to slot `n % size` with probability
//! `1 / (n / size + 1)`. Same rule, but with a seedable generator, so
//! `--seed` reproduces a sample.

pub struct Sampler {
    slots: Vec<Option<(String, String)>>,
    processed: u64,
    rng: SplitMix64,
}

impl Sampler {
    pub fn new(size: usize, seed: u64) -> Self {
        Sampler { slots: vec![None; size], processed: 0, rng: SplitMix64(seed) }
    }

    /// Offers a candidate; `make` builds the `(datetime, url)` only when it is kept.
    pub fn offer(&mut self, make: impl FnOnce() -> (String, String)) {
        let size = self.slots.len() as u64;
        if size == 0 {
            return;
        }
        let (quotient, remainder) = (self.processed / size, self.processed % size);
        if self.rng.next_f64() < 1.0 / (quotient as f64 + 1.0) {
            self.slots[remainder as usize] = Some(make());
        }
        self.processed += 1;
    }

    /// The filled slots, in slot order.
    pub fn samples(&self) -> Vec<(String, String)> {
        self.slots.iter().flatten().cloned().collect()
    }
}

/// splitmix64: small, fast, and good enough to pick samples.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// cdx-summary's candidate rule.
pub fn is_candidate(status: &str, mime: &str, surt: &str) -> bool {
    status == "200" && mime == "text/html" && !surt.ends_with("/robots.txt")
}

/// cdx-summary's sample URL: the first `:80/` removed (its bug, kept:
/// `http://h:80/p` becomes `http://hp`).
pub fn sample_url(url: &str) -> String {
    url.replacen(":80/", "", 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_every_slot_first_and_is_reproducible() {
        let run = |seed| {
            let mut s = Sampler::new(3, seed);
            for i in 0..1000 {
                s.offer(|| (format!("{i}"), String::new()));
            }
            s.samples()
        };
        assert_eq!(run(7), run(7));
        assert_eq!(run(7).len(), 3);
        let mut s = Sampler::new(5, 1);
        for i in 0..3 {
            s.offer(|| (format!("{i}"), String::new()));
        }
        // The first `size` candidates are always kept (probability 1).
        assert_eq!(s.samples().iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["0", "1", "2"]);
    }

    #[test]
    fn the_port_80_quirk() {
        assert_eq!(sample_url("http://h:80/p:80/q"), "http://hp:80/q");
        assert!(!is_candidate("200", "text/html", "com,x)/robots.txt"));
        assert!(!is_candidate("200", "text/html;charset=utf-8", "com,x)/"));
    }
}
