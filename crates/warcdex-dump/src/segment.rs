//! The pages of one segment, streamed: xz → tar → the manifest (first entry)
//! → one page at a time, each checked against its manifest row. Memory is one
//! page plus the segment's manifest rows (at most the id range, 100,000 in the
//! published dump), never the segment's data.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read};
use std::thread;
use std::path::Path;

use md5::{Digest, Md5};

use crate::entries::{self, Item};

use crate::manifest::{parse_manifest, Row};
use crate::names::{base_name, SegmentName};
use crate::page::{split, HeaderError};
use crate::problem::Problem;

/// One page as read, with what its checks found.
pub struct Page<'a> {
    pub id: u64,
    /// From the header line, else from the manifest row.
    pub timestamp: Option<i64>,
    pub url: Option<&'a str>,
    /// The response after the header line.
    pub body: &'a [u8],
    pub row: Option<&'a Row>,
    pub md5: String,
    /// Row present, length, md5 and header line all agree, UTF-8.
    pub verified: bool,
    /// Offset of the page's tar header in the decoded tar stream.
    pub tar_offset: u64,
}

pub enum Event<'a> {
    Page(&'a Page<'a>),
    Problem(Problem),
}

#[derive(Debug, Default, Clone)]
pub struct Options {
    /// Also compute the md5 of the raw file (for the master manifest).
    pub file_md5: bool,
    /// Rows to check against when the tar has no manifest entry.
    pub fallback_rows: Option<Vec<Row>>,
}

#[derive(Debug, Default, Clone)]
pub struct Outcome {
    pub raw_bytes: u64,
    pub raw_md5: Option<String>,
    pub pages: u64,
    pub problems: u64,
    pub truncated: bool,
}

/// Reads the segment at `path`.
pub fn read_segment(path: &Path, opts: &Options, sink: &mut dyn FnMut(Event) -> io::Result<()>) -> io::Result<Outcome> {
    let name = base_name(path);
    let file = File::open(path)?;
    let range = SegmentName::of_path(path).map(|n| (n.start, n.end));
    read_segment_from(file, &name, range, opts, sink)
}

fn io_problem(e: &io::Error) -> &'static str {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => "truncated",
        _ if e.to_string().contains("premature") || e.to_string().contains("unexpected end") => "truncated",
        _ => "corrupt",
    }
}

/// Reads a segment from any reader; `name` names it in problems, `range` is
/// its [start, end) id range when known (else taken from the manifest entry's name).
pub fn read_segment_from<R: Read + Send>(
    src: R,
    name: &str,
    range: Option<(u64, u64)>,
    opts: &Options,
    sink: &mut dyn FnMut(Event) -> io::Result<()>,
) -> io::Result<Outcome> {
    thread::scope(|scope| {
        let entries = entries::spawn(scope, src, opts.file_md5)?;
        let out = check_pages(&entries, name, range, opts, sink);
        let raw = entries.finish()?;
        let mut out = out?;
        out.raw_bytes = raw.bytes;
        out.raw_md5 = raw.md5;
        Ok(out)
    })
}

/// Checks each page the decoding thread hands over against its manifest row.
fn check_pages(
    entries: &entries::Entries,
    name: &str,
    mut range: Option<(u64, u64)>,
    opts: &Options,
    sink: &mut dyn FnMut(Event) -> io::Result<()>,
) -> io::Result<Outcome> {
    let mut out = Outcome::default();
    let problem = |out: &mut Outcome, sink: &mut dyn FnMut(Event) -> io::Result<()>, p: Problem| {
        out.problems += 1;
        sink(Event::Problem(p))
    };

    let mut rows: Vec<Row> = Vec::new();
    let mut by_id: HashMap<u64, usize> = HashMap::new();
    let mut seen: Vec<bool> = Vec::new();
    let mut first = true;
    let mut have_manifest = false;
    let mut last_id: Option<u64> = None;
    let mut page_ids_seen: HashMap<u64, ()> = HashMap::new();

    let load_rows = |list: Vec<Row>, rows: &mut Vec<Row>, by_id: &mut HashMap<u64, usize>, seen: &mut Vec<bool>, out: &mut Outcome, sink: &mut dyn FnMut(Event) -> io::Result<()>| -> io::Result<()> {
        for r in list {
            if by_id.contains_key(&r.id) {
                problem(out, sink, Problem::new(name, Some(r.id), "duplicate-row", format!("id {} has more than one manifest row", r.id)))?;
                continue;
            }
            by_id.insert(r.id, rows.len());
            rows.push(r);
        }
        seen.resize(rows.len(), false);
        Ok(())
    };

    let cannot_read = |out: &mut Outcome, sink: &mut dyn FnMut(Event) -> io::Result<()>, last_id: Option<u64>, e: io::Error| {
        out.truncated = true;
        let after = last_id.map(|i| format!(" after page {i}")).unwrap_or_default();
        problem(out, sink, Problem::new(name, last_id, io_problem(&e), format!("segment cannot be read{after}: {e}")))
    };
    while let Some(item) = entries.next() {
        let (entry, data) = match item {
            Item::Entry(entry, data) => (entry, data),
            Item::Failed(e) => {
                cannot_read(&mut out, sink, last_id, e)?;
                break;
            }
        };
        if !entry.is_file() {
            continue;
        }
        let base = entry.name.rsplit('/').next().unwrap_or(&entry.name).to_string();
        if first {
            first = false;
            if let Some(m) = SegmentName::parse(&base).filter(|m| m.kind == crate::names::Kind::Manifest) {
                have_manifest = true;
                range = range.or(Some((m.start, m.end)));
                let buf = match data {
                    Ok(buf) => buf,
                    Err(e) => {
                        out.truncated = true;
                        problem(&mut out, sink, Problem::new(name, None, io_problem(&e), format!("manifest entry cannot be read: {e}")))?;
                        break;
                    }
                };
                let text = if base.ends_with(".xz") {
                    let mut t = Vec::new();
                    match liblzma::read::XzDecoder::new(&buf[..]).read_to_end(&mut t) {
                        Ok(_) => t,
                        Err(e) => {
                            problem(&mut out, sink, Problem::new(name, None, "corrupt", format!("manifest entry {base} does not decode: {e}")))?;
                            t
                        }
                    }
                } else {
                    buf
                };
                let text = String::from_utf8_lossy(&text);
                let parsed = parse_manifest(&text);
                for (id, code, msg) in parsed.problems {
                    problem(&mut out, sink, Problem::new(name, id, code, msg))?;
                }
                load_rows(parsed.rows, &mut rows, &mut by_id, &mut seen, &mut out, sink)?;
                continue;
            }
            problem(&mut out, sink, Problem::new(name, None, "manifest-not-first", format!("first tar entry is {base:?}, not the segment's manifest")))?;
            if let Some(list) = opts.fallback_rows.clone() {
                load_rows(list, &mut rows, &mut by_id, &mut seen, &mut out, sink)?;
                have_manifest = true;
            }
        }
        let id = base.strip_suffix(".html").and_then(|s| if s.bytes().all(|b| b.is_ascii_digit()) && !s.is_empty() { s.parse::<u64>().ok() } else { None });
        let Some(id) = id else {
            problem(&mut out, sink, Problem::new(name, last_id, "not-html", format!("entry {:?} is not a ${{id}}.html page (after id {})", entry.name, last_id.map(|i| i.to_string()).unwrap_or_else(|| "-".into()))))?;
            match data {
                Ok(buf) => entries.give_back(buf),
                Err(e) => {
                    cannot_read(&mut out, sink, last_id, e)?;
                    break;
                }
            }
            continue;
        };
        let buf = match data {
            Ok(buf) => buf,
            Err(e) => {
                out.truncated = true;
                problem(&mut out, sink, Problem::new(name, Some(id), io_problem(&e), format!("page cut short: {e}")))?;
                break;
            }
        };
        last_id = Some(id);
        out.pages += 1;
        let mut verified = true;
        if let Some((s, e)) = range {
            if id < s || id >= e {
                verified = false;
                problem(&mut out, sink, Problem::new(name, Some(id), "id-out-of-range", format!("id {id} is outside the segment's range [{s}, {e})")))?;
            }
        }
        if page_ids_seen.insert(id, ()).is_some() {
            verified = false;
            problem(&mut out, sink, Problem::new(name, Some(id), "duplicate-page", format!("{id}.html appears more than once")))?;
        }
        let (header, body) = split(&buf);
        let md5 = crate::hex(&Md5::digest(body));
        if std::str::from_utf8(&buf).is_err() {
            verified = false;
            let at = std::str::from_utf8(&buf).unwrap_err().valid_up_to();
            problem(&mut out, sink, Problem::new(name, Some(id), "not-utf8", format!("page has bytes that are not UTF-8 (first at byte {at})")))?;
        }
        let row = by_id.get(&id).map(|&i| {
            seen[i] = true;
            &rows[i]
        });
        match &header {
            Err(HeaderError::Missing) => {
                verified = false;
                problem(&mut out, sink, Problem::new(name, Some(id), "header-missing", "page has no '<!-- timestamp\\turl -->' header line"))?;
            }
            Err(HeaderError::Malformed(m)) => {
                verified = false;
                problem(&mut out, sink, Problem::new(name, Some(id), "header-malformed", m.clone()))?;
            }
            Ok(h) => {
                if let Some(r) = row {
                    if h.timestamp != r.timestamp || h.url != r.url {
                        verified = false;
                        problem(&mut out, sink, Problem::new(name, Some(id), "header-mismatch", format!("header line says {} {}, manifest says {} {}", h.timestamp, h.url, r.timestamp, r.url)))?;
                    }
                }
            }
        }
        match row {
            None => {
                verified = false;
                let why = if have_manifest { "page is not in the manifest" } else { "segment has no manifest" };
                problem(&mut out, sink, Problem::new(name, Some(id), "extra-page", why))?;
            }
            Some(r) => {
                if body.len() as u64 != r.length {
                    verified = false;
                    problem(&mut out, sink, Problem::new(name, Some(id), "length-mismatch", format!("page has {} bytes, manifest says {}", body.len(), r.length)))?;
                }
                if md5 != r.md5 {
                    verified = false;
                    problem(&mut out, sink, Problem::new(name, Some(id), "md5-mismatch", format!("page md5 is {md5}, manifest says {}", r.md5)))?;
                }
            }
        }
        let (timestamp, url) = match (&header, row) {
            (Ok(h), _) => (Some(h.timestamp), Some(h.url)),
            (Err(_), Some(r)) => (Some(r.timestamp), Some(r.url.as_str())),
            (Err(_), None) => (None, None),
        };
        let page = Page { id, timestamp, url, body, row, md5, verified, tar_offset: entry.header_offset };
        sink(Event::Page(&page))?;
        entries.give_back(buf);
    }
    for (i, r) in rows.iter().enumerate() {
        if !seen[i] {
            let why = if out.truncated { " (the segment is cut short)" } else { "" };
            problem(&mut out, sink, Problem::new(name, Some(r.id), "missing-page", format!("manifest row has no page{why}")))?;
        }
    }
    Ok(out)
}
