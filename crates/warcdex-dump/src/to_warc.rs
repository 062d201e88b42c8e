//! `dump to-warc`: segments as one WARC 1.1 file, gzip per record: a
//! warcinfo record, then one `resource` record per page whose block is the
//! response (the header line's timestamp and URL become WARC-Date and
//! WARC-Target-URI). The dump's id, md5 and segment stay as extra headers.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use sha1::{Digest, Sha1};
use warcdex_core::deflate::GzipMembers;

use crate::capture::{sha1_base32, unix_to_timestamp};
use crate::names::base_name;
use crate::problem::Problem;
use crate::segment::{read_segment, Event, Options, Page};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub segments: u64,
    pub records: u64,
    pub pages_skipped: u64,
    pub problems: u64,
    pub bytes: u64,
}

/// A record id that is the same for the same page on every run.
fn record_id(seed: &str) -> String {
    let h = Sha1::digest(seed.as_bytes());
    let x = crate::hex(&h[..16]);
    format!("<urn:uuid:{}-{}-5{}-{}-{}>", &x[0..8], &x[8..12], &x[13..16], &x[16..20], &x[20..32])
}

fn gz_record(out: &mut dyn Write, gz: &mut GzipMembers, head: &str, block: &[u8]) -> io::Result<u64> {
    let member = gz.member(&[head.as_bytes(), block, b"\r\n\r\n"]);
    out.write_all(member)?;
    Ok(member.len() as u64)
}

fn page_record(page: &Page, segment: &str, warcinfo_id: &str) -> Option<String> {
    let url = page.url?;
    let (_, date) = unix_to_timestamp(page.timestamp?);
    let digest = sha1_base32(page.body);
    let md5 = page.row.map(|r| r.md5.as_str()).unwrap_or(page.md5.as_str());
    let mut h = String::with_capacity(512 + url.len());
    h.push_str("WARC/1.1\r\nWARC-Type: resource\r\n");
    let _ = write!(h, "WARC-Record-ID: {}\r\n", record_id(&format!("{segment}#{}", page.id)));
    let _ = write!(h, "WARC-Date: {date}\r\nWARC-Target-URI: {url}\r\nWARC-Warcinfo-ID: {warcinfo_id}\r\n");
    let _ = write!(h, "WARC-Payload-Digest: sha1:{digest}\r\nWARC-Block-Digest: sha1:{digest}\r\n");
    h.push_str("Content-Type: text/html\r\n");
    let _ = write!(h, "WARC-Dump-Segment: {segment}\r\nWARC-Dump-Id: {}\r\nWARC-Dump-MD5: {md5}\r\n", page.id);
    if !page.verified {
        h.push_str("WARC-Dump-Verified: false\r\n");
    }
    let _ = write!(h, "Content-Length: {}\r\n\r\n", page.body.len());
    Some(h)
}

/// Converts `segments` into one WARC written to `out`; problems go to `report`.
pub fn to_warc(segments: &[PathBuf], out: &mut dyn Write, level: u32, report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<Summary> {
    let mut s = Summary::default();
    let mut gz = GzipMembers::new(level);
    let names: Vec<String> = segments.iter().map(|p| base_name(p)).collect();
    let warcinfo_id = record_id(&format!("warcinfo {}", names.join(" ")));
    let mut info = String::from("software: warcdex dump to-warc\r\nformat: WARC File Format 1.1\r\n");
    let _ = write!(info, "description: pages of page-dump segments {}\r\n", names.join(", "));
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
    let head = format!(
        "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: {warcinfo_id}\r\nWARC-Date: {}\r\nContent-Type: application/warc-fields\r\nContent-Length: {}\r\n\r\n",
        unix_to_timestamp(now).1,
        info.len()
    );
    s.bytes += gz_record(out, &mut gz, &head, info.as_bytes())?;
    for path in segments {
        s.segments += 1;
        let segment = base_name(path);
        let r = read_segment(path, &Options::default(), &mut |ev| match ev {
            Event::Page(p) => match page_record(p, &segment, &warcinfo_id) {
                Some(head) => {
                    s.bytes += gz_record(out, &mut gz, &head, p.body)?;
                    s.records += 1;
                    Ok(())
                }
                None => {
                    s.pages_skipped += 1;
                    s.problems += 1;
                    report(Problem::new(&segment, Some(p.id), "no-url", "page has neither a header line nor a manifest row: no URL or date, not written"))
                }
            },
            Event::Problem(p) => {
                s.problems += 1;
                report(p)
            }
        });
        if let Err(e) = r {
            s.problems += 1;
            report(Problem::new(&segment, None, "io", format!("cannot read: {e}")))?;
        }
    }
    out.flush()?;
    Ok(s)
}

/// Convenience: to a file path.
pub fn to_warc_file(segments: &[PathBuf], out: &Path, level: u32, report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<Summary> {
    let mut w = io::BufWriter::with_capacity(1 << 20, std::fs::File::create(out)?);
    let s = to_warc(segments, &mut w, level, report)?;
    w.flush()?;
    Ok(s)
}
