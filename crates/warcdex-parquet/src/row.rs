//! One cc-index-table row: every column derived from a [`Capture`], plus
//! the partition it belongs to; and its compact binary form for spilled runs.

use std::io::{self, Read};

use crate::capture::Capture;
use crate::host::{host_columns, HostColumns};
use crate::url;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Row {
    /// Hive partition path (`crawl=X/subset=Y`), the first sort key.
    pub partition: String,
    pub surtkey: String,
    pub url: String,
    pub host: HostColumns,
    pub protocol: String,
    pub port: Option<i32>,
    pub path: String,
    pub query: Option<String>,
    /// Milliseconds since the epoch, UTC.
    pub fetch_time: i64,
    pub status: i16,
    pub redirect: Option<String>,
    pub digest: Option<String>,
    pub mime: Option<String>,
    pub mime_detected: Option<String>,
    pub charset: Option<String>,
    pub languages: Option<String>,
    pub truncated: Option<String>,
    pub filename: String,
    pub offset: i64,
    pub length: i64,
    pub segment: String,
    pub crawl: String,
    pub subset: String,
}

/// Crawl, segment and subset from a Common Crawl WARC path
/// (`CCWarcFilenameParser`), including CC-NEWS.
pub fn parse_cc_filename(name: &str) -> Option<(String, String, String)> {
    let s = name.strip_prefix("common-crawl/").unwrap_or(name);
    let s = s.strip_prefix("crawl-data/")?;
    let mut it = s.split('/');
    let crawl = it.next()?;
    if crawl == "CC-NEWS" {
        let (y, m, file) = (it.next()?, it.next()?, it.next()?);
        if !(y.bytes().all(|c| c.is_ascii_digit()) && m.bytes().all(|c| c.is_ascii_digit())) {
            return None;
        }
        let seg = file.strip_prefix("CC-NEWS-")?.strip_suffix(".warc.gz")?;
        return Some((format!("CC-NEWS-{y}-{m}"), seg.to_string(), "news-warc".into()));
    }
    if it.next()? != "segments" {
        return None;
    }
    let segment = it.next()?;
    let subset = it.next()?;
    it.next()?; // a file name must follow
    if crawl.is_empty() || segment.is_empty() || !matches!(subset, "crawldiagnostics" | "robotstxt" | "warc" | "wat" | "wet") {
        return None;
    }
    Some((crawl.into(), segment.into(), subset.into()))
}

/// `yyyyMMddHHmmss` (shorter stamps padded as the earliest instant) in UTC.
pub fn timestamp_millis(ts: &str) -> Option<i64> {
    let b = ts.as_bytes();
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
    let (y, mo, d, h, mi, s) = (num(0..4, 0), num(4..6, 1), num(6..8, 1), num(8..10, 0), num(10..12, 0), num(12..14, 0));
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

/// How rows are assigned to partitions.
#[derive(Debug, Clone)]
pub struct RowRules {
    /// Crawl name for every row (else parsed from CC paths, else `unknown`).
    pub crawl: Option<String>,
    /// Partition columns, from `crawl` and `subset`, in path order.
    pub partition_by: Vec<String>,
}

pub const UNKNOWN_CRAWL: &str = "unknown";

fn owned(v: &Option<std::borrow::Cow<'_, str>>) -> Option<String> {
    v.as_ref().map(|s| s.to_string())
}

impl Row {
    /// Derives every column; `None` when the timestamp cannot be read (CC
    /// drops such lines too).
    pub fn derive(c: &Capture<'_>, rules: &RowRules) -> Option<Row> {
        let fetch_time = timestamp_millis(&c.timestamp)?;
        let url_str = c.url.as_deref().unwrap_or("");
        let parts = url::parse(url_str);
        let host = parts.host.map(host_columns).unwrap_or_default();
        let status = c.status.as_deref().and_then(|s| s.parse::<i16>().ok()).unwrap_or(-1);
        let filename = c.filename.as_deref().unwrap_or("").to_string();
        let parsed = parse_cc_filename(&filename);
        let path = parts.path.unwrap_or("").to_string();
        let (crawl, segment, subset) = match parsed {
            Some((crawl, segment, subset)) => (rules.crawl.clone().unwrap_or(crawl), segment, subset),
            None => (
                rules.crawl.clone().unwrap_or_else(|| UNKNOWN_CRAWL.into()),
                String::new(),
                subset_of(&path, status, c.mime.as_deref()).into(),
            ),
        };
        let mut row = Row {
            partition: String::new(),
            surtkey: c.urlkey.to_string(),
            url: url_str.to_string(),
            host,
            protocol: parts.protocol.unwrap_or_default(),
            port: parts.port,
            path,
            query: parts.query.map(str::to_string),
            fetch_time,
            status,
            redirect: owned(&c.redirect),
            digest: owned(&c.digest),
            mime: owned(&c.mime),
            mime_detected: owned(&c.mime_detected),
            charset: owned(&c.charset),
            languages: owned(&c.languages),
            truncated: owned(&c.truncated),
            filename,
            offset: c.offset.as_deref().and_then(|s| s.parse().ok()).unwrap_or(-1),
            length: c.length.as_deref().and_then(|s| s.parse().ok()).unwrap_or(-1),
            segment,
            crawl,
            subset,
        };
        row.partition = partition_path(&row, &rules.partition_by);
        Some(row)
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
            out.push_str(&format!("%{:02X}", ch as u32));
        } else {
            out.push(ch);
        }
    }
}

fn partition_path(row: &Row, by: &[String]) -> String {
    let mut s = String::new();
    for col in by {
        if !s.is_empty() {
            s.push('/');
        }
        s.push_str(col);
        s.push('=');
        match col.as_str() {
            "crawl" => hive_escape(&row.crawl, &mut s),
            "subset" => hive_escape(&row.subset, &mut s),
            _ => unreachable!("partition columns are checked"),
        }
    }
    s
}

// --- binary form for spilled runs -------------------------------------------

fn put_str(w: &mut Vec<u8>, s: &str) {
    w.extend_from_slice(&(s.len() as u32).to_le_bytes());
    w.extend_from_slice(s.as_bytes());
}

fn put_opt(w: &mut Vec<u8>, s: &Option<String>) {
    match s {
        Some(s) => put_str(w, s),
        None => w.extend_from_slice(&u32::MAX.to_le_bytes()),
    }
}

struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take(4).try_into().unwrap())
    }
    fn i64(&mut self) -> i64 {
        i64::from_le_bytes(self.take(8).try_into().unwrap())
    }
    fn opt(&mut self) -> Option<String> {
        let n = self.u32();
        (n != u32::MAX).then(|| String::from_utf8_lossy(self.take(n as usize)).into_owned())
    }
    fn str(&mut self) -> String {
        self.opt().unwrap_or_default()
    }
}

impl Row {
    /// Appends the row as one length-prefixed record.
    pub fn encode(&self, buf: &mut Vec<u8>) {
        let start = buf.len();
        buf.extend_from_slice(&[0; 4]);
        for s in [&self.partition, &self.surtkey, &self.url, &self.protocol, &self.path, &self.filename, &self.segment, &self.crawl, &self.subset] {
            put_str(buf, s);
        }
        let h = &self.host;
        for o in [&h.name, &h.parts[0], &h.parts[1], &h.parts[2], &h.parts[3], &h.parts[4], &h.registry_suffix, &h.registered_domain, &h.private_suffix, &h.private_domain, &h.name_reversed] {
            put_opt(buf, o);
        }
        for o in [&self.query, &self.redirect, &self.digest, &self.mime, &self.mime_detected, &self.charset, &self.languages, &self.truncated] {
            put_opt(buf, o);
        }
        buf.extend_from_slice(&self.port.map(i64::from).unwrap_or(i64::MIN).to_le_bytes());
        for v in [self.fetch_time, self.status as i64, self.offset, self.length] {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        let len = (buf.len() - start - 4) as u32;
        buf[start..start + 4].copy_from_slice(&len.to_le_bytes());
    }

    /// Reads one record written by [`Row::encode`]; `None` at the end.
    pub fn decode<R: Read>(r: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<Row>> {
        let mut len = [0u8; 4];
        match r.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        buf.resize(u32::from_le_bytes(len) as usize, 0);
        r.read_exact(buf)?;
        let mut c = Cursor(buf);
        let mut row = Row {
            partition: c.str(),
            surtkey: c.str(),
            url: c.str(),
            protocol: c.str(),
            path: c.str(),
            filename: c.str(),
            segment: c.str(),
            crawl: c.str(),
            subset: c.str(),
            ..Default::default()
        };
        let h = &mut row.host;
        h.name = c.opt();
        for i in 0..5 {
            h.parts[i] = c.opt();
        }
        h.registry_suffix = c.opt();
        h.registered_domain = c.opt();
        h.private_suffix = c.opt();
        h.private_domain = c.opt();
        h.name_reversed = c.opt();
        row.query = c.opt();
        row.redirect = c.opt();
        row.digest = c.opt();
        row.mime = c.opt();
        row.mime_detected = c.opt();
        row.charset = c.opt();
        row.languages = c.opt();
        row.truncated = c.opt();
        let port = c.i64();
        row.port = (port != i64::MIN).then_some(port as i32);
        row.fetch_time = c.i64();
        row.status = c.i64() as i16;
        row.offset = c.i64();
        row.length = c.i64();
        Ok(Some(row))
    }

    /// Bytes the row holds in memory, roughly (for the sort budget).
    pub fn heap_size(&self) -> usize {
        let o = |s: &Option<String>| s.as_ref().map_or(0, |s| s.len() + 24);
        let h = &self.host;
        400 + self.partition.len() + self.surtkey.len() + self.url.len() + self.path.len() + self.filename.len() + self.segment.len()
            + self.crawl.len() + self.subset.len() + self.protocol.len()
            + [&h.name, &h.parts[0], &h.parts[1], &h.parts[2], &h.parts[3], &h.parts[4], &h.registry_suffix, &h.registered_domain, &h.private_suffix, &h.private_domain, &h.name_reversed, &self.query, &self.redirect, &self.digest, &self.mime, &self.mime_detected, &self.charset, &self.languages, &self.truncated].iter().map(|s| o(s)).sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{parse_line, LineFormat};

    #[test]
    fn timestamps() {
        assert_eq!(timestamp_millis("19700101000000"), Some(0));
        assert_eq!(timestamp_millis("20240518015810"), Some(1715997490000));
        assert_eq!(timestamp_millis("2024"), Some(1704067200000));
        assert_eq!(timestamp_millis("20241301000000"), None);
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
        let mut buf = Vec::new();
        row.encode(&mut buf);
        let mut scratch = Vec::new();
        let back = Row::decode(&mut &buf[..], &mut scratch).unwrap().unwrap();
        assert_eq!(back, row);
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
