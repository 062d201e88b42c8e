//! HTTP messages inside records: the status line and header block
//! (`headers::parse_block`, `http::parse_http_head`), and the body
//! decodings used for request bodies (`http::dechunk`, `http::decode_body`).

use std::io::Write;

use warcdex_core::headers::{parse_block, py_isspace, StatusAndHeaders, StatusRule};
use warcdex_core::http::{decode_body, dechunk, parse_http_head};
use warcdex_core::source::SliceFill;

const LIMIT: usize = 1 << 20;

fn parse_any(data: &[u8]) -> Option<(StatusAndHeaders, usize)> {
    let mut src = SliceFill::new(data);
    let mut out = StatusAndHeaders::default();
    let mut scratch = Vec::new();
    match parse_block(&mut src, None, StatusRule::Any, LIMIT, &mut out, &mut scratch) {
        Ok(Ok(true)) => Some((out, src.position())),
        _ => None,
    }
}

/// The header block written back as text, the way it was understood.
fn rebuild(h: &StatusAndHeaders) -> String {
    let mut text = h.protocol.clone();
    if !h.status_line.is_empty() {
        text.push(' ');
        text.push_str(&h.status_line);
    }
    text.push_str("\r\n");
    for (name, value) in h.headers.iter() {
        text.push_str(name);
        text.push_str(": ");
        text.push_str(value);
        text.push_str("\r\n");
    }
    text.push_str("\r\n");
    text
}

/// A value as a header line can state it: a folded continuation of an
/// empty value keeps its leading whitespace, a written one cannot.
fn stated(v: &str) -> &str {
    v.trim_start_matches(py_isspace)
}

/// Target `http_head`: an HTTP status line and headers, then anything.
///
/// Checks: the parser consumes exactly the bytes it counts; names hold no
/// `:` and nothing holds a line break; the status code is the first word of
/// the status line; the block written back and parsed again gives the same
/// protocol, status line and headers; the prefix rule returns one of its
/// prefixes, upper-cased.
pub fn http_head(data: &[u8]) {
    let mut src = SliceFill::new(data);
    let mut out = StatusAndHeaders::default();
    let mut scratch = Vec::new();
    let _ = parse_http_head(&mut src, &mut out, &mut scratch);

    let Some((h, consumed)) = parse_any(data) else { return };
    assert_eq!(consumed, h.total_bytes, "bytes consumed and bytes counted differ");
    assert!(h.total_bytes <= data.len());
    assert!(!h.protocol.contains(' ') && !h.protocol.contains('\n'), "protocol {:?}", h.protocol);
    assert!(!h.status_line.contains('\n'), "status line {:?}", h.status_line);
    let code = h.status_code();
    assert!(h.status_line.starts_with(code) && !code.contains(' '), "status code {code:?} of {:?}", h.status_line);
    for (name, value) in h.headers.iter() {
        assert!(!name.contains(':') && !name.contains('\n'), "header name {name:?}");
        assert!(!value.contains('\n'), "header value {value:?}");
        assert!(h.headers.get(name).is_some(), "header {name:?} not found by name");
    }
    if !(h.protocol.is_empty() && h.status_line.is_empty()) {
        let text = rebuild(&h);
        if text.len() <= LIMIT {
            let (again, _) = parse_any(text.as_bytes()).expect("a rebuilt block parses");
            assert_eq!((&again.protocol, &again.status_line), (&h.protocol, &h.status_line), "status line of {text:?}");
            let a: Vec<(&str, &str)> = again.headers.iter().map(|(n, v)| (n, stated(v))).collect();
            let b: Vec<(&str, &str)> = h.headers.iter().map(|(n, v)| (n, stated(v))).collect();
            assert_eq!(a, b, "headers of {text:?}");
        }
    }

    let mut src = SliceFill::new(data);
    let mut out = StatusAndHeaders::default();
    let rule = StatusRule::Prefixes(&["HTTP/", "WARC/", "GET", "POST"]);
    if let Ok(Ok(true)) = parse_block(&mut src, None, rule, LIMIT, &mut out, &mut scratch) {
        if !out.protocol.is_empty() {
            assert!(["HTTP/", "WARC/", "GET", "POST"].contains(&out.protocol.as_str()), "protocol {:?}", out.protocol);
        }
    }
}

fn chunked(body: &[u8], size: usize, extension: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + body.len() / size * 8 + 8);
    for chunk in body.chunks(size) {
        write!(out, "{:x}{}\r\n", chunk.len(), if extension { ";x=1" } else { "" }).expect("in memory");
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

fn compress(body: &[u8], encoding: &str) -> Vec<u8> {
    let level = flate2::Compression::fast();
    match encoding {
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), level);
            e.write_all(body).expect("in memory");
            e.finish().expect("in memory")
        }
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
            e.write_all(body).expect("in memory");
            e.finish().expect("in memory")
        }
        _ => body.to_vec(),
    }
}

fn http_with(transfer: Option<&str>, encoding: Option<&str>) -> StatusAndHeaders {
    let mut h = StatusAndHeaders { protocol: "POST".into(), status_line: "/ HTTP/1.1".into(), ..StatusAndHeaders::default() };
    if let Some(t) = transfer {
        h.headers.push("Transfer-Encoding", t);
    }
    if let Some(e) = encoding {
        h.headers.push("Content-Encoding", e);
    }
    h
}

/// Target `http_body`: byte 0 picks the headers (bit 0 chunked, bits 1-2
/// Content-Encoding none/gzip/deflate/x-gzip), byte 1 a chunk size and an
/// output limit; the rest is a body.
///
/// Checks on the body as it comes: de-chunking never grows it; decoding
/// never exceeds its limit. And a round trip: the body, compressed and
/// chunked as the headers say, decodes back to itself (cut at the limit).
pub fn http_body(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let (flags, knob, raw) = (data[0], data[1], &data[2..]);
    let chunked_te = flags & 1 == 1;
    let encoding = [None, Some("gzip"), Some("deflate"), Some("x-gzip")][(flags >> 1 & 3) as usize];
    let limit = if knob & 0x80 != 0 { (knob & 0x7f) as usize * 7 } else { LIMIT };

    let d = dechunk(raw);
    assert!(d.len() <= raw.len(), "de-chunking grew {} bytes into {}", raw.len(), d.len());
    let h = http_with(chunked_te.then_some("chunked"), encoding);
    let decoded = decode_body(&h, raw, limit);
    assert!(decoded.len() <= limit, "{} bytes decoded past a limit of {limit}", decoded.len());

    // x-gzip is not decoded (as in warcio), so it has no round trip.
    if encoding == Some("x-gzip") {
        return;
    }
    let mut wire = compress(raw, encoding.unwrap_or(""));
    if chunked_te {
        wire = chunked(&wire, 1 + (knob & 0x3f) as usize, knob & 0x40 != 0);
    }
    let back = decode_body(&h, &wire, limit);
    assert_eq!(back, &raw[..raw.len().min(limit)], "round trip through {encoding:?}, chunked {chunked_te}");
}
