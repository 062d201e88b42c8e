//! HTTP messages inside records: which records carry one, the status line
//! and headers, and the decoding of a (small) body for POST queries.

use std::io::Read;

use crate::error::{ErrorKind, Result};
use crate::headers::{parse_block, StatusAndHeaders, StatusRule};
use crate::reader::RecordHead;
use crate::source::Fill;

/// HTTP headers larger than this are not parsed as headers (the record is
/// then treated as having none), so that a payload without a blank line
/// cannot make the reader buffer it whole.
pub const MAX_HTTP_HEADER_BYTES: usize = 1 << 20;

/// warcio parses HTTP headers for response, request and revisit records
/// whose target is an http(s) URI and whose block is not empty.
pub fn carries_http(head: &RecordHead) -> bool {
    head.block_length > 0
        && matches!(head.rec_type.as_str(), "response" | "request" | "revisit")
        && head.target_uri.as_deref().is_some_and(|u| u.starts_with("http:") || u.starts_with("https:"))
}

/// Parses the HTTP status line and headers at the start of a block. The
/// status line is not checked (warcio reads non-HTTP first lines too).
/// Returns None for an empty block, or headers over the size limit.
pub fn parse_http_head<F: Fill + ?Sized>(
    block: &mut F,
    out: &mut StatusAndHeaders,
    scratch: &mut Vec<u8>,
) -> Result<bool> {
    match parse_block(block, None, StatusRule::Any, MAX_HTTP_HEADER_BYTES, out, scratch) {
        // warcio treats a status line without status and no headers as no HTTP message.
        Ok(Ok(found)) => Ok(found && (!out.status_line.is_empty() || !out.headers.is_empty())),
        Ok(Err(_)) => Ok(false),
        Err(e) if matches!(e.kind, ErrorKind::BadRecord(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The body as warcio's `content_stream()` gives it: de-chunked when
/// Transfer-Encoding is `chunked`, inflated for gzip or deflate
/// Content-Encoding. Used for request bodies, which are small; the output is
/// capped at `limit` bytes.
pub fn decode_body(http: &StatusAndHeaders, raw: &[u8], limit: usize) -> Vec<u8> {
    let encoding = http.headers.get("content-encoding").map(|e| e.to_ascii_lowercase());
    let chunked = http.headers.get("transfer-encoding") == Some("chunked");
    let dechunked;
    let body: &[u8] = if chunked {
        dechunked = dechunk(raw);
        &dechunked
    } else {
        raw
    };
    let mut out = Vec::new();
    let ok = match encoding.as_deref() {
        Some("gzip") => {
            flate2::read::MultiGzDecoder::new(body).take(limit as u64).read_to_end(&mut out).is_ok()
        }
        Some("deflate") => {
            let zlib = flate2::read::ZlibDecoder::new(body).take(limit as u64).read_to_end(&mut out).is_ok();
            zlib || {
                out.clear();
                flate2::read::DeflateDecoder::new(body).take(limit as u64).read_to_end(&mut out).is_ok()
            }
        }
        _ => false,
    };
    if ok {
        out
    } else {
        body[..body.len().min(limit)].to_vec()
    }
}

/// Decodes a chunked body; on a malformed chunk the data so far is kept and
/// the rest passed through as is (warcio falls back to the raw bytes).
pub fn dechunk(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut pos = 0;
    loop {
        let Some(nl) = memchr::memchr(b'\n', &raw[pos..]) else {
            if pos == 0 {
                return raw.to_vec();
            }
            break;
        };
        let line = std::str::from_utf8(&raw[pos..pos + nl]).unwrap_or("").trim();
        let size_text = line.split(';').next().unwrap_or("").trim();
        let Ok(size) = usize::from_str_radix(size_text, 16) else {
            if out.is_empty() {
                return raw.to_vec();
            }
            break;
        };
        pos += nl + 1;
        if size == 0 {
            return out;
        }
        // A size past the data (even near usize::MAX) takes what is there.
        let end = pos.saturating_add(size).min(raw.len());
        out.extend_from_slice(&raw[pos..end]);
        pos = end;
        // Skip the CRLF after the chunk data.
        while pos < raw.len() && (raw[pos] == b'\r' || raw[pos] == b'\n') {
            pos += 1;
            if raw[pos - 1] == b'\n' {
                break;
            }
        }
        if end == raw.len() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dechunks() {
        assert_eq!(dechunk(b"3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n"), b"abcde");
        assert_eq!(dechunk(b"not chunked"), b"not chunked");
        // Found by fuzzing: a size that overflows the position.
        assert_eq!(dechunk(b"ffffffffffffffff\r\nabc"), b"abc");
    }
}
