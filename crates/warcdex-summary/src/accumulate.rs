//! The single pass over captures: cdx-summary's counters (`analyzer.py`),
//! line for line, plus the extras warcdex adds.

use crate::cdx_line::{bytes_value, parse_bytes, segments, CdxFields};
use crate::distinct::{fingerprint, Distinct};
use crate::sampler::{is_candidate, sample_url, Sampler};
use crate::tally::{pair_code, short_code, Tally, Tally2};

#[derive(Debug, Clone)]
pub struct Options {
    /// Top hosts in the summary (`None`: all, like cdx-summary's bare `-t`).
    pub top: Option<usize>,
    /// Samples of OK HTML captures (cdx-summary's default is 10).
    pub samples: usize,
    pub seed: u64,
    /// Distinct values counted exactly before switching to HyperLogLog.
    pub exact_limit: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { top: Some(10), samples: 10, seed: 0, exact_limit: crate::distinct::DEFAULT_EXACT_LIMIT }
    }
}

/// Everything counted so far. Memory grows with distinct hosts, MIME types,
/// statuses, years and files (as cdx-summary's does), never with lines:
/// distinct URLs and digests are bounded by the exact limit.
pub struct Accumulator {
    pub opts: Options,
    pub captures: u64,
    pub urls: u64,
    pub hosts: u64,
    pub bytes: u128,
    pub first: String,
    pub last: String,
    prev_surt: String,
    prev_host: String,
    pub tophosts: Tally<String>,
    pub mimestatus: Tally2<String, String>,
    pub pathquery: Tally2<usize, usize>,
    pub yearmonth: Tally2<String, String>,
    pub sampler: Sampler,
    // Extras.
    /// Non-blank lines seen, and those cdx-summary would skip.
    pub lines: u64,
    pub skipped_lines: u64,
    pub unique_urls: Distinct,
    pub digests: Distinct,
    /// Non-revisit captures that have a digest (duplicates = these − distinct digests).
    pub digest_captures: u64,
    pub revisits: u64,
    pub files: Tally<String>,
}

impl Accumulator {
    pub fn new(opts: Options) -> Self {
        Accumulator {
            captures: 0,
            urls: 0,
            hosts: 0,
            bytes: 0,
            first: "9".repeat(14),
            last: "0".repeat(14),
            prev_surt: String::new(),
            prev_host: String::new(),
            tophosts: Tally::default(),
            mimestatus: Tally2::default(),
            pathquery: Tally2::default(),
            yearmonth: Tally2::default(),
            sampler: Sampler::new(opts.samples, opts.seed),
            lines: 0,
            skipped_lines: 0,
            unique_urls: Distinct::new(opts.exact_limit),
            digests: Distinct::new(opts.exact_limit),
            digest_captures: 0,
            revisits: 0,
            files: Tally::default(),
            opts,
        }
    }

    /// One raw line (without its `\n`). Blank lines and ` CDX` headers are
    /// not counted as lines (cdx-summary skips them too), so CDX and CDXJ
    /// of the same captures count the same lines.
    pub fn line(&mut self, line: &[u8]) {
        if line.iter().all(|b| b.is_ascii_whitespace()) || line.starts_with(b" CDX ") {
            return;
        }
        self.lines += 1;
        match parse_bytes(line) {
            Some(f) => self.capture(&f),
            None => self.skipped_lines += 1,
        }
    }

    fn capture(&mut self, f: &CdxFields) {
        self.captures += 1;
        if self.prev_surt != f.surt {
            self.prev_surt.clear();
            self.prev_surt.push_str(f.surt);
            self.urls += 1;
            // A repeat of the previous SURT is already in the set.
            self.unique_urls.insert(fingerprint(f.surt.as_bytes()));
        }
        if self.first.as_str() > f.datetime {
            self.first.clear();
            self.first.push_str(f.datetime);
        }
        if self.last.as_str() < f.datetime {
            self.last.clear();
            self.last.push_str(f.datetime);
        }
        if let Some(b) = bytes_value(f.bytes) {
            // Saturates like bytes_value: lengths of 39 digits would overflow (found by fuzzing).
            self.bytes = self.bytes.saturating_add(b);
        }
        self.tophosts.add(f.host, 1);
        if self.prev_host != f.host {
            self.prev_host.clear();
            self.prev_host.push_str(f.host);
            self.hosts += 1;
        }
        let (p, q) = (segments(f.path, b'/'), segments(f.query, b'&'));
        let pq_code = (p < 1 << 32 && q < 1 << 32).then(|| (p as u64) << 32 | q as u64);
        self.pathquery.add_coded(pq_code, &p, &q);
        self.yearmonth.add_coded(pair_code(f.year, f.month), f.year, f.month);
        self.mimestatus.add_inner_coded(f.mime, f.status, short_code(f.status));
        if is_candidate(f.status, f.mime, f.surt) {
            self.sampler.offer(|| (f.datetime.to_string(), sample_url(f.url)));
        }
        if f.mime == "warc/revisit" {
            self.revisits += 1;
        } else if f.digest != "-" {
            self.digest_captures += 1;
            self.digests.insert(fingerprint(f.digest.as_bytes()));
        }
        if let Some(name) = f.filename {
            self.files.add(name, 1);
        }
    }

    /// cdx-summary's `first`/`last`: empty when no capture changed them.
    pub fn first_out(&self) -> &str {
        if self.first == "9".repeat(14) {
            ""
        } else {
            &self.first
        }
    }

    pub fn last_out(&self) -> &str {
        if self.last == "0".repeat(14) {
            ""
        } else {
            &self.last
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lines: &[&str]) -> Accumulator {
        let mut a = Accumulator::new(Options::default());
        for l in lines {
            a.line(l.as_bytes());
        }
        a
    }

    #[test]
    fn consecutive_counts_differ_from_exact_ones_on_unsorted_input() {
        let a = run(&[
            "com,a)/x 20200101000000 http://a.com/x text/html 200 D1 - - 10 0 f1",
            "com,b)/ 20200101000000 http://b.com/ text/html 200 D1 - - 5 0 f1",
            "com,a)/x 20190101000000 http://a.com/x warc/revisit - D1 - - - 0 f2",
            " CDX N b a m s k r M S V g",
            "dns:a.com 20200101000000 dns:a.com text/dns - D - - 1 0 f1",
        ]);
        assert_eq!((a.captures, a.urls, a.hosts), (3, 3, 3));
        assert_eq!(a.unique_urls.count(), 2);
        assert_eq!(a.tophosts.len(), 2);
        assert_eq!(a.bytes, 15);
        assert_eq!((a.first_out(), a.last_out()), ("20190101000000", "20200101000000"));
        assert_eq!((a.revisits, a.digest_captures, a.digests.count()), (1, 2, 1));
        assert_eq!((a.lines, a.skipped_lines), (4, 1));
        assert_eq!(a.files.entries, vec![("f1".to_string(), 2), ("f2".to_string(), 1)]);
    }

    #[test]
    fn nothing_read_gives_empty_dates() {
        let a = run(&["not a cdx line"]);
        assert_eq!((a.captures, a.first_out(), a.last_out()), (0, "", ""));
    }
}
