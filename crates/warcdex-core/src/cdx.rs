//! Index line formats: CDXJ, CDX (11 and 9 fields) and NDJSON.

use std::fmt::Write as _;

use crate::index::IndexEntry;
use crate::json;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Cdxj,
    Cdx11,
    Cdx9,
    Ndjson,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "cdxj" => Some(Format::Cdxj),
            "cdx11" | "cdx" => Some(Format::Cdx11),
            "cdx9" => Some(Format::Cdx9),
            "ndjson" | "json" => Some(Format::Ndjson),
            _ => None,
        }
    }

    /// The header line written before each input's lines, if the format has one.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Format::Cdx11 => Some(" CDX N b a m s k r M S V g"),
            Format::Cdx9 => Some(" CDX N b a m s k r V g"),
            _ => None,
        }
    }
}

/// Appends one line (with its `\n`) for `e` in `format`.
pub fn write_line(out: &mut String, format: Format, e: &IndexEntry) {
    if let (Some(fields), false) = (&e.pywb, format == Format::Ndjson) {
        return crate::pywb::write_line(out, format, e, fields);
    }
    match format {
        Format::Cdxj => write_cdxj(out, e),
        Format::Cdx11 => write_cdx(out, e, true),
        Format::Cdx9 => write_cdx(out, e, false),
        Format::Ndjson => write_ndjson(out, e),
    }
    out.push('\n');
}

/// `urlkey timestamp {json}` with cdxj-indexer's keys, order and spacing.
fn write_cdxj(out: &mut String, e: &IndexEntry) {
    out.push_str(&e.urlkey);
    out.push(' ');
    out.push_str(&e.timestamp);
    out.push_str(" {");
    let mut first = true;
    let mut field = |out: &mut String, k: &str, v: Option<&str>| {
        if let Some(v) = v {
            if !first {
                out.push_str(", ");
            }
            first = false;
            json::push_str(out, k);
            out.push_str(": ");
            json::push_str(out, v);
        }
    };
    let (length, offset) = (e.length.to_string(), e.offset.to_string());
    field(out, "url", e.url.as_deref());
    field(out, "mime", e.mime.as_deref());
    field(out, "status", e.status.as_deref());
    field(out, "digest", e.digest.as_deref());
    field(out, "length", Some(&length));
    field(out, "offset", Some(&offset));
    field(out, "filename", Some(&e.filename));
    field(out, "redirect", e.redirect.as_deref());
    field(out, "robotflags", e.robots.as_deref());
    if let Some(body) = &e.request_body {
        match body {
            Some(b) => field(out, "requestBody", Some(b)),
            None => {
                out.push_str(", \"requestBody\": null");
            }
        }
    }
    field(out, "method", e.method.as_deref());
    out.push('}');
}

/// Space-separated CDX; a missing field is `-`, the digest has no `sha1:` label.
fn write_cdx(out: &mut String, e: &IndexEntry, eleven: bool) {
    let dash = |v: Option<&str>| v.map(str::to_string).unwrap_or_else(|| "-".into());
    let digest = e.digest.as_deref().map(|d| d.rsplit(':').next().unwrap_or(d).to_string());
    let _ = write!(
        out,
        "{} {} {} {} {} {} {}",
        e.urlkey,
        e.timestamp,
        dash(e.url.as_deref()),
        dash(e.mime.as_deref()),
        dash(e.status.as_deref()),
        dash(digest.as_deref()),
        dash(e.redirect.as_deref()),
    );
    if eleven {
        let _ = write!(out, " {} {}", dash(e.robots.as_deref()), e.length);
    }
    let _ = write!(out, " {} {}", e.offset, e.filename);
}

/// One JSON object with every field warcdex knows; absent fields are left out.
fn write_ndjson(out: &mut String, e: &IndexEntry) {
    out.push('{');
    let mut first = true;
    let mut key = |out: &mut String, k: &str| {
        if !first {
            out.push(',');
        }
        first = false;
        json::push_str(out, k);
        out.push(':');
    };
    let mut s = |out: &mut String, k: &str, v: Option<&str>| {
        if let Some(v) = v {
            key(out, k);
            json::push_str(out, v);
        }
    };
    s(out, "urlkey", Some(&e.urlkey));
    s(out, "timestamp", Some(&e.timestamp));
    s(out, "url", e.url.as_deref());
    s(out, "mime", e.mime.as_deref());
    s(out, "status", e.status.as_deref());
    s(out, "digest", e.digest.as_deref());
    s(out, "filename", Some(&e.filename));
    s(out, "recordType", Some(&e.record_type));
    s(out, "recordId", e.record_id.as_deref());
    s(out, "date", e.date.as_deref());
    s(out, "contentType", e.content_type.as_deref());
    s(out, "location", e.location.as_deref());
    s(out, "redirect", e.redirect.as_deref());
    s(out, "robotflags", e.robots.as_deref());
    s(out, "method", e.method.as_deref());
    if let Some(Some(b)) = &e.request_body {
        s(out, "requestBody", Some(b));
    }
    if let Some(p) = &e.pywb {
        s(out, "metadata", p.metadata.as_deref());
        s(out, "mimeDetected", p.mime_detected.as_deref());
    }
    let _ = write!(out, ",\"length\":{},\"offset\":{}", e.length, e.offset);
    if let Some(p) = e.payload_length {
        let _ = write!(out, ",\"payloadLength\":{p}");
    }
    if !e.seekable {
        out.push_str(",\"seekable\":false");
    }
    if e.truncated {
        out.push_str(",\"truncated\":true");
    }
    out.push('}');
}
