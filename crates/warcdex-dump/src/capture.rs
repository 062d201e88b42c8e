//! Pages as index rows, so `warcdex index` reads segments like any archive:
//! one capture per page (URL, timestamp, SHA-1 Base32 digest of the response,
//! its length, mime `text/html`). The locator is the filename field (the
//! segment) and the offset field, which holds the page id: `dump extract
//! SEGMENT ID` finds the page from it. Pages that fail a check are still
//! indexed; each failure is a warning naming segment and id, and the NDJSON
//! row says `"recordType":"dump-page-unverified"`.

use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

use sha1::{Digest, Sha1};
use warcdex_core::error::{Error, ErrorKind};
use warcdex_core::index::{Event, IndexEntry, IndexOptions};

use crate::names::base_name;
use crate::problem::Problem;
use crate::segment::{read_segment, Options, Page};

const XZ_MAGIC: &[u8] = b"\xFD7zXZ\x00";

/// True when `path` is a page-dump segment: an xz stream whose content
/// starts with a tar header (the name is not trusted, the bytes are).
pub fn is_segment(path: &Path) -> bool {
    let Ok(mut f) = std::fs::File::open(path) else { return false };
    let mut head = vec![0u8; 1 << 16];
    let n = read_up_to(&mut f, &mut head);
    if n < XZ_MAGIC.len() || &head[..XZ_MAGIC.len()] != XZ_MAGIC {
        return false;
    }
    let mut tar = [0u8; 512];
    let k = read_up_to(&mut liblzma::read::XzDecoder::new(&head[..n]), &mut tar);
    k == 512 && &tar[257..262] == b"ustar"
}

fn read_up_to(r: &mut dyn Read, buf: &mut [u8]) -> usize {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
    }
    got
}

pub use warcdex_core::timestamp::unix_to_timestamp;

pub fn sha1_base32(body: &[u8]) -> String {
    data_encoding::BASE32.encode(&Sha1::digest(body))
}

/// The index row of one page.
pub fn entry(page: &Page, filename: &Arc<str>, segment: &str) -> Option<IndexEntry> {
    let url = page.url?;
    let (timestamp, date) = unix_to_timestamp(page.timestamp?);
    Some(IndexEntry {
        urlkey: warcdex_core::surt::surt(url),
        timestamp,
        url: Some(url.to_string()),
        mime: Some("text/html".into()),
        status: None,
        digest: Some(format!("sha1:{}", sha1_base32(page.body))),
        length: page.body.len() as u64,
        offset: page.id,
        filename: filename.clone(),
        method: None,
        request_body: None,
        redirect: None,
        robots: None,
        record_type: if page.verified { "dump-page" } else { "dump-page-unverified" }.into(),
        record_id: Some(format!("<dump:{segment}#{}>", page.id)),
        date: Some(date),
        payload_length: Some(page.body.len() as u64),
        content_type: Some("text/html".into()),
        location: None,
        // The offset is a page id, not a byte offset.
        seekable: false,
        truncated: false,
        pywb: None,
    })
}

fn problem_error(p: &Problem) -> Error {
    let kind = match p.code {
        "md5-mismatch" | "length-mismatch" => ErrorKind::DigestMismatch,
        "truncated" => ErrorKind::Truncated,
        "corrupt" => ErrorKind::Corrupt,
        _ => ErrorKind::BadRecord,
    };
    let id = p.id.map(|i| format!("id {i}")).unwrap_or_else(|| "segment".into());
    Error::new(kind(format!("{id}: {}: {}", p.code, p.message)), &p.segment, None)
}

/// The hook `warcdex index` calls for every input (see `warcdex_core::foreign`).
pub fn index_hook(path: &Path, options: &IndexOptions, emit: &mut dyn FnMut(Event) -> io::Result<()>) -> Option<io::Result<()>> {
    if !is_segment(path) {
        return None;
    }
    let segment = base_name(path);
    let filename: Arc<str> = Arc::from(options.filename.as_str());
    let r = read_segment(path, &Options::default(), &mut |ev| match ev {
        crate::segment::Event::Page(p) => match entry(p, &filename, &segment) {
            Some(e) => emit(Event::Entry(e)),
            None => Ok(()),
        },
        crate::segment::Event::Problem(p) => {
            // A cut-off segment loses pages; everything else is a flag on a page still indexed.
            let err = problem_error(&p);
            if matches!(p.code, "truncated" | "corrupt" | "not-html" | "missing-page") {
                emit(Event::Skipped(err))
            } else {
                emit(Event::Warning(err))
            }
        }
    });
    Some(r.map(|_| ()))
}

/// Lets `warcdex index` read segments.
pub fn register_index_hook() {
    warcdex_core::foreign::register(index_hook, is_segment);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_seconds_become_timestamps() {
        assert_eq!(unix_to_timestamp(0).0, "19700101000000");
        assert_eq!(unix_to_timestamp(1_600_000_000), ("20200913122640".into(), "2020-09-13T12:26:40Z".into()));
        assert_eq!(unix_to_timestamp(951_782_400).0, "20000229000000");
    }
}
