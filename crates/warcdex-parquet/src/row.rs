//! One cc-index-table row: every column derived from a [`Capture`], plus
//! the partition it belongs to.
//!
//! A [`Row`] is generic over its strings: `Row<String>` owns them, and
//! `Row<&str>` borrows them from the capture (a line or a sort record) and
//! from a [`DeriveScratch`], so that the hot path allocates nothing per row.

use std::fmt::Write;

use crate::capture::{split_at_byte, Capture};
use crate::host::{host_columns_in, HostColumns, HostScratch};
use crate::url;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Row<S = String> {
    /// Hive partition path (`crawl=X/subset=Y`), the first sort key.
    pub partition: S,
    pub surtkey: S,
    pub url: S,
    pub host: HostColumns<S>,
    pub protocol: S,
    pub port: Option<i32>,
    pub path: S,
    pub query: Option<S>,
    /// Milliseconds since the epoch, UTC.
    pub fetch_time: i64,
    pub status: i16,
    pub redirect: Option<S>,
    pub digest: Option<S>,
    pub mime: Option<S>,
    pub mime_detected: Option<S>,
    pub charset: Option<S>,
    pub languages: Option<S>,
    pub truncated: Option<S>,
    pub filename: S,
    pub offset: i64,
    pub length: i64,
    pub segment: S,
}

/// A row borrowing its strings.
pub type RowView<'a> = Row<&'a str>;

/// The crawl a Common Crawl WARC path names.
enum CrawlName<'a> {
    Plain(&'a str),
    /// CC-NEWS: `CC-NEWS-<year>-<month>`.
    News(&'a str, &'a str),
}

/// The text before the first `/` of `s` and the text after it.
fn split_slash(s: &str) -> Option<(&str, &str)> {
    split_at_byte(s, b'/')
}

/// Crawl, segment and subset of a Common Crawl WARC path, borrowed.
fn cc_filename(name: &str) -> Option<(CrawlName<'_>, &str, &str)> {
    let s = name.strip_prefix("common-crawl/").unwrap_or(name);
    let s = s.strip_prefix("crawl-data/")?;
    let (crawl, s) = split_slash(s)?;
    if crawl == "CC-NEWS" {
        let (y, s) = split_slash(s)?;
        let (m, s) = split_slash(s)?;
        let file = s.split('/').next()?;
        if !(y.bytes().all(|c| c.is_ascii_digit()) && m.bytes().all(|c| c.is_ascii_digit())) {
            return None;
        }
        let seg = file.strip_prefix("CC-NEWS-")?.strip_suffix(".warc.gz")?;
        return Some((CrawlName::News(y, m), seg, "news-warc"));
    }
    let s = s.strip_prefix("segments/")?;
    let (segment, s) = split_slash(s)?;
    // A file name must follow the subset (even an empty one, as `split` read it).
    let (subset, _file) = split_slash(s)?;
    if crawl.is_empty() || segment.is_empty() || !matches!(subset, "crawldiagnostics" | "robotstxt" | "warc" | "wat" | "wet") {
        return None;
    }
    Some((CrawlName::Plain(crawl), segment, subset))
}

impl<'a> CrawlName<'a> {
    fn into_str(self, buf: &'a mut String) -> &'a str {
        match self {
            CrawlName::Plain(c) => c,
            CrawlName::News(y, m) => {
                buf.clear();
                let _ = write!(buf, "CC-NEWS-{y}-{m}");
                buf
            }
        }
    }
}

/// Crawl, segment and subset from a Common Crawl WARC path
/// (`CCWarcFilenameParser`), including CC-NEWS.
pub fn parse_cc_filename(name: &str) -> Option<(String, String, String)> {
    let (crawl, segment, subset) = cc_filename(name)?;
    Some((crawl.into_str(&mut String::new()).to_string(), segment.to_string(), subset.to_string()))
}

/// `yyyyMMddHHmmss` (shorter stamps padded as the earliest instant) in UTC.
pub fn timestamp_millis(ts: &str) -> Option<i64> {
    let b = ts.as_bytes();
    let (y, mo, d, h, mi, s) = match <&[u8; 14]>::try_from(b) {
        Ok(full) => fourteen_digits(full)?,
        Err(_) => {
            if b.len() < 4 || b.len() > 17 || !b.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let num = |r: std::ops::Range<usize>, dflt: i64| -> i64 {
                if r.end <= b.len() {
                    b[r].iter().fold(0i64, |a, c| a * 10 + (c - b'0') as i64)
                } else {
                    dflt
                }
            };
            (num(0..4, 0), num(4..6, 1), num(6..8, 1), num(8..10, 0), num(10..12, 0), num(12..14, 0))
        }
    };
    // A month or day of 00 means "not given", as when a shorter stamp is
    // padded: CDX-Writer writes 20151200000000 for an ARC date of 201512.
    let (mo, d) = (mo.max(1), d.max(1));
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let yy = if mo <= 2 { y - 1 } else { y };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146097 + doe - 719468;
    Some(((days * 24 + h) * 60 + mi) * 60_000 + s * 1000)
}

/// Year, month, day, hour, minute and second of the usual 14-digit stamp,
/// eight digits at a time (bytes 0-7 and the overlapping 6-13). Digit by
/// digit it was 3% of reading a CDXJ's rows (1M rows 2.04 -> 1.99 s).
#[inline]
fn fourteen_digits(b: &[u8; 14]) -> Option<(i64, i64, i64, i64, i64, i64)> {
    const NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
    let (hi, lo) = (word(0), word(6));
    // A digit's byte is 0x3_ with a low nibble under 10 (adding 6 to it
    // stays in the nibble); bytes cannot carry into each other.
    let digits = |x: u64| x & !NIBBLES == 0x3030_3030_3030_3030 && ((x & NIBBLES) + 0x0606_0606_0606_0606) & !NIBBLES == 0;
    if !digits(hi) || !digits(lo) {
        return None;
    }
    // Each 16-bit lane: the two-digit number of its two bytes (first byte
    // is the tens, little-endian).
    let pairs = |x: u64| {
        let v = x & NIBBLES;
        let p = (v & 0x00FF_00FF_00FF_00FF) * 10 + ((v >> 8) & 0x00FF_00FF_00FF_00FF);
        [p & 0xFFFF, (p >> 16) & 0xFFFF, (p >> 32) & 0xFFFF, p >> 48].map(|n| n as i64)
    };
    let [y1, y2, mo, d] = pairs(hi);
    let [_, h, mi, s] = pairs(lo);
    Some((y1 * 100 + y2, mo, d, h, mi, s))
}

/// How rows are assigned to partitions.
#[derive(Debug, Clone)]
pub struct RowRules {
    /// Crawl name for every row (else parsed from CC paths, else `unknown`).
    pub crawl: Option<String>,
    /// Partition columns, from `crawl` and `subset`, in path order.
    pub partition_by: Vec<String>,
}

pub const UNKNOWN_CRAWL: &str = "unknown";

/// Buffers for the derived strings that are not slices of the capture,
/// reused from row to row (one scratch serves one [`RowRules`]: partition
/// paths are kept by crawl and subset).
#[derive(Debug, Default)]
pub struct DeriveScratch {
    row: RowScratch,
    crawl: String,
    /// Partition paths built so far, with the crawl and subset each was
    /// built from: rows share a few, and escaping them again cost more than
    /// finding them (consecutive rows alternate between subsets).
    partitions: Vec<(String, String, String)>,
}

/// The buffers [`Row::derive_at`] fills.
#[derive(Debug, Default)]
pub struct RowScratch {
    host: HostScratch,
    protocol: String,
}

/// At most this many partition paths are kept in [`DeriveScratch`].
const KEPT_PARTITIONS: usize = 16;

impl Row {
    /// Derives every column; `None` when the timestamp cannot be read (CC
    /// drops such lines too).
    pub fn derive(c: &Capture<'_>, rules: &RowRules) -> Option<Row> {
        Row::derive_in(c, rules, &mut DeriveScratch::default()).map(|r| r.to_owned())
    }
}

/// Crawl, segment and subset of a capture, borrowed; `path` gives the URL
/// path when the file name is not a CC path (robots.txt captures are a
/// subset of their own). The segment is a slice of the file name.
fn crawl_segment_subset<'a>(c: &'a Capture<'_>, rules: &'a RowRules, crawl_buf: &'a mut String, status: i16, path: impl FnOnce() -> &'a str) -> (&'a str, &'a str, &'a str) {
    let filename = c.filename.as_deref().unwrap_or("");
    match cc_filename(filename) {
        Some((crawl, segment, subset)) => (rules.crawl.as_deref().unwrap_or_else(|| crawl.into_str(crawl_buf)), segment, subset),
        None => (rules.crawl.as_deref().unwrap_or(UNKNOWN_CRAWL), "", subset_of(path(), status, c.mime.as_deref())),
    }
}

/// Where a capture's rows go, found before the sort: the partition path,
/// and the segment as a byte range of the capture's file name (empty when
/// the name is not a CC path). The sort record keeps both, so that the
/// columns derived after the sort need not parse the name again.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement<'s> {
    pub partition: &'s str,
    pub segment: std::ops::Range<usize>,
}

fn status_of(c: &Capture<'_>) -> i16 {
    c.status.as_deref().and_then(|s| s.parse::<i16>().ok()).unwrap_or(-1)
}

impl DeriveScratch {
    /// The partition path of `crawl` and `subset`, built once.
    fn partition<'s>(partitions: &'s mut Vec<(String, String, String)>, crawl: &str, subset: &str, rules: &RowRules) -> &'s str {
        let known = partitions.iter().position(|(c, s, _)| c == crawl && s == subset);
        let at = known.unwrap_or_else(|| {
            if partitions.len() >= KEPT_PARTITIONS {
                partitions.clear();
            }
            let mut path = String::new();
            partition_into(&mut path, crawl, subset, &rules.partition_by);
            partitions.push((crawl.to_string(), subset.to_string(), path));
            partitions.len() - 1
        });
        &partitions[at].2
    }

    /// The partition and segment of `c`, without deriving the other
    /// columns (the sorter needs them first).
    pub fn placement<'s>(&'s mut self, c: &Capture<'_>, rules: &RowRules) -> Placement<'s> {
        let DeriveScratch { crawl, partitions, .. } = self;
        let url = c.url.as_deref().unwrap_or("");
        placement(c, rules, crawl, partitions, || url::parse(url).path.unwrap_or(""))
    }
}

/// `path` gives the URL's path, asked for only when the file name is not a
/// CC path.
fn placement<'s, 'c>(c: &'c Capture<'_>, rules: &'c RowRules, crawl_buf: &'s mut String, partitions: &'s mut Vec<(String, String, String)>, path: impl FnOnce() -> &'c str) -> Placement<'s> {
    let (crawl, segment, subset) = crawl_segment_subset(c, rules, crawl_buf, status_of(c), move || path());
    let filename = c.filename.as_deref().unwrap_or("");
    // `cc_filename` hands out slices of the name: the segment's offset is
    // where it starts in the name.
    let at = (segment.as_ptr() as usize).wrapping_sub(filename.as_ptr() as usize);
    let range = if segment.is_empty() { 0..0 } else { at..at + segment.len() };
    debug_assert_eq!(filename.get(range.clone()), Some(segment), "a segment outside its file name");
    Placement { partition: DeriveScratch::partition(partitions, crawl, subset, rules), segment: range }
}

impl<'a> Row<&'a str> {
    /// [`Row::derive`] without allocating: strings borrow from `c`, `rules`
    /// and `s`.
    pub fn derive_in(c: &'a Capture<'_>, rules: &'a RowRules, s: &'a mut DeriveScratch) -> Option<RowView<'a>> {
        let fetch_time = timestamp_millis(&c.timestamp)?;
        Some(Row::derive_timed(c, fetch_time, rules, s))
    }

    /// [`Row::derive_in`] with the fetch time already read.
    pub fn derive_timed(c: &'a Capture<'_>, fetch_time: i64, rules: &'a RowRules, s: &'a mut DeriveScratch) -> RowView<'a> {
        let DeriveScratch { row, crawl, partitions } = s;
        // The URL parsed once, for the placement (its path, for names that
        // are not CC paths) and the columns.
        let parts = url::parse(c.url.as_deref().unwrap_or(""));
        let path = parts.path.unwrap_or("");
        let placement = placement(c, rules, crawl, partitions, || path);
        Row::derive_parsed(c, fetch_time, placement, parts, row)
    }

    /// [`Row::derive_in`] with the fetch time and the placement already
    /// found (before the sort; they travel in the sort record).
    pub fn derive_at(c: &'a Capture<'_>, fetch_time: i64, placement: Placement<'a>, s: &'a mut RowScratch) -> RowView<'a> {
        Row::derive_parsed(c, fetch_time, placement, url::parse(c.url.as_deref().unwrap_or("")), s)
    }

    fn derive_parsed(c: &'a Capture<'_>, fetch_time: i64, placement: Placement<'a>, parts: url::UrlParts<'a>, s: &'a mut RowScratch) -> RowView<'a> {
        let RowScratch { host: host_scratch, protocol } = s;
        let url_str = c.url.as_deref().unwrap_or("");
        let host = parts.host.map(|h| host_columns_in(h, host_scratch)).unwrap_or_default();
        let status = status_of(c);
        let path = parts.path.unwrap_or("");
        let filename = c.filename.as_deref().unwrap_or("");
        protocol.clear();
        protocol.push_str(parts.protocol.as_deref().unwrap_or(""));
        Row {
            partition: placement.partition,
            surtkey: &c.urlkey,
            url: url_str,
            host,
            protocol,
            port: parts.port,
            path,
            query: parts.query,
            fetch_time,
            status,
            redirect: c.redirect.as_deref(),
            digest: c.digest.as_deref(),
            mime: c.mime.as_deref(),
            mime_detected: c.mime_detected.as_deref(),
            charset: c.charset.as_deref(),
            languages: c.languages.as_deref(),
            truncated: c.truncated.as_deref(),
            filename,
            offset: c.offset.as_deref().and_then(|s| s.parse().ok()).unwrap_or(-1),
            length: c.length.as_deref().and_then(|s| s.parse().ok()).unwrap_or(-1),
            segment: filename.get(placement.segment).unwrap_or(""),
        }
    }
}

/// Common Crawl's subsets for captures outside CC's own paths: robots.txt
/// captures, successful captures and revisits, and everything else.
pub fn subset_of(path: &str, status: i16, mime: Option<&str>) -> &'static str {
    if path.eq_ignore_ascii_case("/robots.txt") {
        "robotstxt"
    } else if (200..300).contains(&status) || status == -1 || mime == Some("warc/revisit") {
        "warc"
    } else {
        "crawldiagnostics"
    }
}

/// Escapes a partition value as Hive does (`/`, `=`, `%` and controls).
fn hive_escape(v: &str, out: &mut String) {
    for ch in v.chars() {
        if ch < ' ' || matches!(ch, '/' | '=' | '%' | '"' | '#' | '\'' | '*' | ':' | '?' | '\\' | '[' | ']' | '{' | '^' | '\x7f') {
            let _ = write!(out, "%{:02X}", ch as u32);
        } else {
            out.push(ch);
        }
    }
}

fn partition_into(s: &mut String, crawl: &str, subset: &str, by: &[String]) {
    s.clear();
    for col in by {
        if !s.is_empty() {
            s.push('/');
        }
        s.push_str(col);
        s.push('=');
        match col.as_str() {
            "crawl" => hive_escape(crawl, s),
            "subset" => hive_escape(subset, s),
            _ => unreachable!("partition columns are checked"),
        }
    }
}

impl<S: AsRef<str>> Row<S> {
    pub fn to_owned(&self) -> Row {
        let s = |v: &S| v.as_ref().to_string();
        let o = |v: &Option<S>| v.as_ref().map(s);
        Row {
            partition: s(&self.partition),
            surtkey: s(&self.surtkey),
            url: s(&self.url),
            host: self.host.to_owned(),
            protocol: s(&self.protocol),
            port: self.port,
            path: s(&self.path),
            query: o(&self.query),
            fetch_time: self.fetch_time,
            status: self.status,
            redirect: o(&self.redirect),
            digest: o(&self.digest),
            mime: o(&self.mime),
            mime_detected: o(&self.mime_detected),
            charset: o(&self.charset),
            languages: o(&self.languages),
            truncated: o(&self.truncated),
            filename: s(&self.filename),
            offset: self.offset,
            length: self.length,
            segment: s(&self.segment),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{parse_line, LineFormat};
    use crate::record;

    #[test]
    fn timestamps() {
        assert_eq!(timestamp_millis("19700101000000"), Some(0));
        assert_eq!(timestamp_millis("20240518015810"), Some(1715997490000));
        assert_eq!(timestamp_millis("2024"), Some(1704067200000));
        assert_eq!(timestamp_millis("20241301000000"), None);
        // 00 for a month or day is "not given": the first.
        assert_eq!(timestamp_millis("20151200000000"), timestamp_millis("20151201000000"));
        assert_eq!(timestamp_millis("20150000000000"), timestamp_millis("2015"));
        // The 14-digit path against the digit-by-digit one: every digit
        // position with every byte, and dates across the calendar.
        let slow = |t: &str| {
            let mut padded = t.to_string();
            padded.push('0'); // 15 digits: the general path, same instant
            timestamp_millis(&padded)
        };
        let base = *b"20240229235960";
        for i in 0..14 {
            for c in 0..=255u8 {
                let mut t = base;
                t[i] = c;
                if let Ok(t) = std::str::from_utf8(&t) {
                    assert_eq!(timestamp_millis(t), slow(t), "{t:?}");
                }
            }
        }
        for t in ["19700101000000", "00010101000000", "99991231235959", "20000229120000", "21000229000000", "19691231235959"] {
            assert_eq!(timestamp_millis(t), slow(t), "{t}");
        }
        assert_eq!(timestamp_millis("20240229235960"), Some(1709251200000), "second 60 rolls over");
    }

    #[test]
    fn cc_fixture_and_roundtrip() {
        let line = r#"org,commoncrawl)/faq 20220127163355 {"url": "https://commoncrawl.org/faq/", "mime": "text/html", "mime-detected": "text/html", "status": "301", "digest": "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "length": "958", "offset": "6946714", "filename": "crawl-data/CC-MAIN-2022-05/segments/1642320305277.88/crawldiagnostics/CC-MAIN-20220127163150-20220127193150-00502.warc.gz", "redirect": "/big-picture/frequently-asked-questions/"}"#;
        let rules = RowRules { crawl: None, partition_by: vec!["crawl".into(), "subset".into()] };
        let row = Row::derive(&parse_line(line, LineFormat::Auto).unwrap(), &rules).unwrap();
        assert_eq!(row.partition, "crawl=CC-MAIN-2022-05/subset=crawldiagnostics");
        assert_eq!(row.segment, "1642320305277.88");
        assert_eq!(row.status, 301);
        assert_eq!(row.path, "/faq/");
        assert_eq!(row.host.registered_domain.as_deref(), Some("commoncrawl.org"));
        // Through a sort record: the same row is derived after the sort.
        let c = parse_line(line, LineFormat::Auto).unwrap();
        let mut scratch = DeriveScratch::default();
        let mut buf = Vec::new();
        let placement = scratch.placement(&c, &rules);
        assert_eq!(&c.filename.as_deref().unwrap()[placement.segment.clone()], "1642320305277.88");
        let mut names = record::Names::default();
        record::encode(&mut names, &placement, row.fetch_time, &c, &mut buf);
        let mut file = String::new();
        let back = record::Record::decode(&buf[4..], &names, &mut file).unwrap();
        assert_eq!(back.placement(), placement);
        assert_eq!(Row::derive_at(&back.capture, back.fetch_time, back.placement(), &mut scratch.row).to_owned(), row);
    }

    /// Reused buffers must not carry a field of one row into the next: each
    /// line is derived after a line that sets every optional column, and
    /// must come out as it does from fresh buffers.
    #[test]
    fn reused_scratch_leaks_nothing() {
        let full = r#"org,x)/ 20200101000000 {"url": "HTTPS://a.b.c.d.example.co.uk:8443/p?q=1", "mime": "text/html", "mime-detected": "text/html", "status": "200", "digest": "D", "length": "1", "offset": "2", "filename": "crawl-data/CC-NEWS/2024/05/CC-NEWS-20240501-00001.warc.gz", "redirect": "/r", "charset": "UTF-8", "languages": "eng", "truncated": "length"}"#;
        let sparse = [
            r#"org,y)/ 20200101000000 {"url": "dns:example.org"}"#,
            r#"org,y)/ 20200101000000 {"url": "http://[::1]/"}"#,
            r#"org,y)/ 20200101000000 {"url": "http://123.8092843/x"}"#,
            r#"org,y)/ 20200101000000 {"url": "http://co.uk/", "filename": "x.warc.gz"}"#,
            r#"org,y)/ 20200101000000 {"url": "http://example.invalid/robots.txt", "status": 404}"#,
            r#"org,y)/ 20200101000000 {"url": "filedesc://x.arc"}"#,
            r#"org,y)/ 20200101000000 {}"#,
            "org,y)/ 20200101000000 http://y.org/ - - - - - - - -",
        ];
        let rules = RowRules { crawl: None, partition_by: vec!["crawl".into(), "subset".into()] };
        let mut scratch = DeriveScratch::default();
        let mut arena = Vec::new();
        let mut names = record::Names::default();
        let mut want = Vec::new();
        for line in sparse {
            for l in [full, line] {
                let c = parse_line(l, LineFormat::Auto).unwrap();
                let fresh = Row::derive(&c, &rules).unwrap();
                let reused = Row::derive_in(&c, &rules, &mut scratch).unwrap().to_owned();
                assert_eq!(reused, fresh, "{l}");
                let placement = scratch.placement(&c, &rules);
                assert_eq!(placement.partition, fresh.partition, "{l}");
                record::encode(&mut names, &placement, fresh.fetch_time, &c, &mut arena);
                want.push(fresh);
            }
        }
        // The sort records give the same rows, derived with reused buffers.
        let mut rest = &arena[..];
        let mut file = String::new();
        for w in &want {
            let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
            let r = record::Record::decode(&rest[4..4 + len], &names, &mut file).unwrap();
            assert_eq!(Row::derive_at(&r.capture, r.fetch_time, r.placement(), &mut scratch.row).to_owned(), *w);
            rest = &rest[4 + len..];
        }
        assert!(rest.is_empty());
        // want[2k] is `full`, want[2k + 1] is sparse[k].
        assert_eq!((want[0].partition.as_str(), want[0].segment.as_str()), ("crawl=CC-NEWS-2024-05/subset=news-warc", "20240501-00001"));
        assert_eq!(want[13].host, HostColumns::default());
        assert_eq!((want[13].query.as_deref(), want[13].partition.as_str(), want[13].segment.as_str()), (None, "crawl=unknown/subset=warc", ""));
        assert_eq!(want[3].host.parts[0], None, "IPv6: the name only");
        assert_eq!(want[7].host.registered_domain, None);
    }

    #[test]
    fn subsets() {
        assert_eq!(subset_of("/robots.txt", 404, None), "robotstxt");
        assert_eq!(subset_of("/", 200, None), "warc");
        assert_eq!(subset_of("/", -1, Some("warc/revisit")), "warc");
        assert_eq!(subset_of("/", 302, None), "crawldiagnostics");
        assert_eq!(subset_of("/", 304, Some("warc/revisit")), "warc");
    }
}
