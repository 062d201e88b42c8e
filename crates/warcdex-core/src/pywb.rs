//! Index rows as pywb 2.x's `cdx-indexer` writes them
//! (`pywb.indexer.cdxindexer`, records read by
//! `pywb/indexer/archiveindexer.py` through warcio with
//! `ensure_http_headers=True`), for [`crate::index::Style::Pywb`].
//!
//! Which records become rows:
//! - a first pass drops records whose HTTP status code is `-` (unless all
//!   records or the minimal index are asked for), the ARC file header,
//!   WARC `request` and `warcinfo` records (unless all records or POST
//!   append are asked for) and records of Content-Type
//!   `application/warc-fields` (unless all records are asked for);
//! - of what remains, `request` rows are written only with `-a`; `warcinfo`
//!   rows never (not even with `-a`); nor `metadata` rows of mime
//!   `text/anvl`, nor rows without a URL.
//!
//! How each field is derived (`-` where a CDX field has no value):
//! - records without HTTP headers (or whose HTTP head is empty) get
//!   warcio's default head `HTTP/1.0 200 OK` with the record's own
//!   Content-Type and length: status `200`, mime from the record;
//! - mime: `warc/revisit` for revisits; else the HTTP Content-Type up to the
//!   first `;` or space (so it may be empty), `unk` when there is none (`-`
//!   for requests); ARC records use the ARC header's content type;
//! - status: for `response` records (and ARC records) only, the first word
//!   of the HTTP status line, `-` when empty or for `204` with `Error` in
//!   the status line;
//! - digest: WARC-Payload-Digest without a `sha1:` prefix (other labels are
//!   kept as written); when absent, the SHA-1 of the raw payload after the
//!   HTTP head, except for `revisit` and `request` records, which get `-`;
//!   ARC records always get the computed digest;
//! - ARC: the URL as written with CR, LF, FF and NUL percent-escaped, the
//!   timestamp cut to 14 characters (not padded);
//! - CDXJ also has `metadata` (WARC-Json-Metadata, first) and
//!   `mime-detected` (WARC-Identified-Payload-Type), leaves out every field
//!   that is empty or `-`, and writes the digest without `sha1:`.
//!
//! The minimal index (`-m`, [`crate::index::IndexOptions::minimal`]) does
//! not parse HTTP headers at all: no mime (but `warc/revisit`), no status,
//! and a digest computed over the whole record block, HTTP head included.
//!
//! POST append (`-p`) pairs consecutive rows of the first pass (any record
//! types, as long as one is a request) whose URLs are equal and where the
//! second's WARC-Concurrent-To is the first's WARC-Record-ID; the query is
//! pywb's ([`crate::post::pywb_method_query`]).
//!
//! Not reproduced: the `-u` (non-SURT), `-v` (verify HTTP) and `arc2warc`
//! options, and the effects of pywb reusing one row object per record type
//! across the files of a job (CDXJ key order and a stale `mime-detected`
//! when ARC and WARC files are indexed together).

use std::fmt::Write as _;

use crate::cdx::Format;
use crate::headers::StatusAndHeaders;
use crate::index::{IndexEntry, IndexOptions, Selection};
use crate::json;
use crate::reader::{RecordFormat, RecordHead};
use crate::surt::try_surt;
use crate::timestamp::iso_date_to_timestamp;

/// Fields of a row that only pywb writes (CDXJ only).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PywbFields {
    /// WARC-Json-Metadata: the CDXJ `metadata` field, written first.
    pub metadata: Option<String>,
    /// WARC-Identified-Payload-Type: the CDXJ `mime-detected` field.
    pub mime_detected: Option<String>,
}

/// A record's HTTP head as pywb sees it: the parsed one, or warcio's
/// default (`HTTP/1.0 200 OK`, the record's Content-Type and length) when
/// none was parsed or the parsed one is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpView<'a> {
    /// First word of the HTTP first line: the method of a request.
    pub protocol: &'a str,
    /// The rest of the first line.
    pub status_line: &'a str,
    pub content_type: Option<&'a str>,
    pub content_length: Option<String>,
}

impl<'a> HttpView<'a> {
    pub fn new(head: &'a RecordHead, parsed: Option<&'a StatusAndHeaders>) -> Self {
        match parsed {
            Some(h) => HttpView {
                protocol: &h.protocol,
                status_line: &h.status_line,
                content_type: h.headers.get("Content-Type"),
                content_length: h.headers.get("Content-Length").map(str::to_string),
            },
            None => HttpView {
                protocol: "HTTP/1.0",
                status_line: "200 OK",
                content_type: head.content_type.as_deref().filter(|c| !c.is_empty()),
                content_length: Some(head.block_length.to_string()),
            },
        }
    }

    /// warcio's `get_statuscode()`: the first word of the status line.
    pub fn status_code(&self) -> &str {
        self.status_line.split(' ').next().unwrap_or("")
    }
}

/// `-a`: every record (pywb has no list of types; a list is applied on top).
pub fn include_all(selection: &Selection) -> bool {
    !matches!(selection, Selection::Default)
}

/// pywb's first pass, before the HTTP head is read: is the record an entry?
pub fn first_pass(head: &RecordHead, opts: &IndexOptions) -> bool {
    let all = include_all(&opts.selection);
    match head.format {
        RecordFormat::Arc => !head.is_arc_filedesc(),
        RecordFormat::Warc => {
            if matches!(head.rec_type.as_str(), "request" | "warcinfo") && !all && !opts.post_append {
                return false;
            }
            all || head.content_type.as_deref() != Some("application/warc-fields")
        }
    }
}

/// The first pass also drops records whose HTTP status code is `-`.
pub fn skipped_for_status(view: &HttpView, opts: &IndexOptions) -> bool {
    !include_all(&opts.selection) && !opts.minimal && view.status_code() == "-"
}

/// A row's values before the record's content is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Derived {
    pub url: Option<String>,
    /// `None` is `-` (or absent in the minimal index).
    pub mime: Option<String>,
    pub status: Option<String>,
    /// As the record states it (`sha1:` removed); `None` is `-`.
    pub digest: Option<String>,
    pub fields: PywbFields,
}

/// The URL, mime, status, stated digest and pywb-only fields of a record.
pub fn derive(head: &RecordHead, view: &HttpView, opts: &IndexOptions) -> Derived {
    let minimal = opts.minimal;
    match head.format {
        RecordFormat::Arc => Derived {
            url: arc_url(head),
            mime: (!minimal).then(|| extract_mime(head.content_type.as_deref(), Some("unk"))).flatten(),
            status: (!minimal).then(|| extract_status(view)).flatten(),
            digest: None,
            fields: PywbFields::default(),
        },
        RecordFormat::Warc => {
            let rec_type = head.rec_type.as_str();
            let mime = if rec_type == "revisit" {
                Some("warc/revisit".to_string())
            } else if minimal {
                None
            } else {
                extract_mime(view.content_type, if rec_type == "request" { None } else { Some("unk") })
            };
            let mime_detected = (rec_type != "revisit" && !minimal)
                .then(|| head.headers.get("WARC-Identified-Payload-Type").map(str::to_string))
                .flatten();
            let status = if rec_type == "response" && !minimal { extract_status(view) } else { None };
            // A warcinfo row (never written) has the file name as its URL.
            let url = match rec_type {
                "warcinfo" => head.headers.get("WARC-Filename").map(str::to_string),
                _ => warc_url(head),
            };
            Derived {
                url,
                mime,
                status,
                digest: stated_digest(head.headers.get("WARC-Payload-Digest")),
                fields: PywbFields {
                    metadata: head.headers.get("WARC-Json-Metadata").filter(|m| !m.is_empty()).map(str::to_string),
                    mime_detected,
                },
            }
        }
    }
}

/// The 14-digit timestamp: from WARC-Date, or the ARC date's first 14
/// characters (pywb does not pad short ARC dates).
pub fn timestamp(head: &RecordHead) -> Option<String> {
    let date = head.date.as_deref()?;
    match head.format {
        RecordFormat::Warc => iso_date_to_timestamp(date),
        RecordFormat::Arc => Some(date.chars().take(14).collect()),
    }
}

/// Whether the digest is computed from the content: none is stated, and the
/// record is not a revisit, request or warcinfo record.
pub fn computes_digest(head: &RecordHead, derived: &Derived) -> bool {
    derived.digest.is_none() && !matches!(head.rec_type.as_str(), "revisit" | "request" | "warcinfo")
}

/// Whether an entry of the first pass is written.
pub fn visible(head: &RecordHead, derived: &Derived, opts: &IndexOptions) -> bool {
    let rec_type = head.rec_type.as_str();
    let type_ok = match &opts.selection {
        Selection::Default => rec_type != "request",
        Selection::All => true,
        Selection::Types(types) => types.iter().any(|t| t == rec_type),
    };
    type_ok
        && rec_type != "warcinfo"
        && !(rec_type == "metadata" && derived.mime.as_deref() == Some("text/anvl"))
        && derived.url.as_deref().is_some_and(|u| !u.is_empty())
}

/// pywb's `canonicalize`: the SURT key; a URL the SURT library rejects is
/// kept as it is if it is a `urn:`, else `None` (pywb raises).
pub fn canonicalize(url: &str) -> Option<String> {
    match try_surt(url) {
        Ok(key) => Some(key),
        Err(_) if url.starts_with("urn:") => Some(url.to_string()),
        Err(_) => None,
    }
}

/// The URL key of a POST append pair: the URL with the method and query
/// appended and every `WB_wombat_` removed, when that differs from the URL
/// (it does for every method but `GET`).
pub fn merged_url(url: &str, query: &crate::post::PywbMethodQuery) -> Option<String> {
    let new_url = query.append_query(url).replace("WB_wombat_", "");
    (new_url != url).then_some(new_url)
}

/// `extract_mime`: the value up to the first `;` or space, or the default
/// when the value is missing or empty.
fn extract_mime(content_type: Option<&str>, default: Option<&str>) -> Option<String> {
    match content_type.filter(|c| !c.is_empty()) {
        Some(c) => Some(c[..c.find([';', ' ']).unwrap_or(c.len())].to_string()),
        None => default.map(str::to_string),
    }
}

/// `extract_status`: the status code, `None` (`-`) when empty or for a 204
/// whose status line mentions `Error`.
fn extract_status(view: &HttpView) -> Option<String> {
    let code = view.status_code();
    if code.is_empty() || (code == "204" && view.status_line.contains("Error")) {
        None
    } else {
        Some(code.to_string())
    }
}

fn stated_digest(value: Option<&str>) -> Option<String> {
    match value {
        Some(d) if d.starts_with("sha1:") => Some(d["sha1:".len()..].to_string()),
        Some("") | None => None,
        Some(d) => Some(d.to_string()),
    }
}

/// WARC-Target-URI as pywb reads it: warcio repairs the value (`<...>`
/// removed, spaces escaped) by replacing the *last* header of that name, and
/// pywb reads the first; so with repeated headers the first stays as written.
fn warc_url(head: &RecordHead) -> Option<String> {
    let mut values = head.headers.get_all("WARC-Target-URI");
    match (values.next(), values.next()) {
        (Some(first), Some(_)) => Some(first.to_string()),
        _ => head.target_uri.clone(),
    }
}

/// The ARC URL field as written, with CR, LF, FF and NUL escaped.
fn arc_url(head: &RecordHead) -> Option<String> {
    let uri = head.headers.get("uri").map(str::to_string).or_else(|| head.target_uri.clone())?;
    Some(uri.replace('\r', "%0D").replace('\n', "%0A").replace('\x0c', "%0C").replace('\0', "%00"))
}

/// Appends one line (with its `\n`) for a pywb row. NDJSON is not a pywb
/// format and is written by the common writer.
pub fn write_line(out: &mut String, format: Format, e: &IndexEntry, fields: &PywbFields) {
    match format {
        Format::Cdxj => write_cdxj(out, e, fields),
        Format::Cdx11 => write_cdx(out, e, true),
        Format::Cdx9 => write_cdx(out, e, false),
        Format::Ndjson => unreachable!("NDJSON rows are written by cdx::write_line"),
    }
    out.push('\n');
}

/// CDX: every field as pywb holds it, `-` for none; an empty mime stays empty.
fn write_cdx(out: &mut String, e: &IndexEntry, eleven: bool) {
    let v = |x: &Option<String>| x.clone().unwrap_or_else(|| "-".into());
    let _ = write!(
        out,
        "{} {} {} {} {} {} -",
        e.urlkey,
        e.timestamp,
        v(&e.url),
        v(&e.mime),
        v(&e.status),
        v(&e.digest)
    );
    if eleven {
        let _ = write!(out, " - {}", e.length);
    }
    let _ = write!(out, " {} {}", e.offset, e.filename);
}

/// CDXJ in pywb's key order, without empty or `-` values, as Python's
/// `json.dumps` writes it.
fn write_cdxj(out: &mut String, e: &IndexEntry, fields: &PywbFields) {
    out.push_str(&e.urlkey);
    out.push(' ');
    out.push_str(&e.timestamp);
    out.push_str(" {");
    let (length, offset) = (e.length.to_string(), e.offset.to_string());
    let request_body = e.request_body.clone().flatten();
    let pairs: [(&str, Option<&str>); 11] = [
        ("metadata", fields.metadata.as_deref()),
        ("url", e.url.as_deref()),
        ("mime", e.mime.as_deref()),
        ("mime-detected", fields.mime_detected.as_deref()),
        ("status", e.status.as_deref()),
        ("digest", e.digest.as_deref()),
        ("length", Some(&length)),
        ("offset", Some(&offset)),
        ("method", e.method.as_deref()),
        ("requestBody", request_body.as_deref()),
        ("filename", Some(&e.filename)),
    ];
    let mut first = true;
    for (k, v) in pairs {
        // Empty and `-` values are left out; the file name is always written.
        let Some(v) = v.filter(|v| k == "filename" || (!v.is_empty() && *v != "-")) else { continue };
        if !first {
            out.push_str(", ");
        }
        first = false;
        json::push_str(out, k);
        out.push_str(": ");
        json::push_str(out, v);
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::headers::Headers;

    fn head(format: RecordFormat, rec_type: &str, content_type: Option<&str>, headers: &[(&str, &str)]) -> RecordHead {
        let mut h = Headers::new();
        for (n, v) in headers {
            h.push(n, v);
        }
        RecordHead {
            format,
            version: "WARC/1.0".into(),
            rec_type: rec_type.into(),
            headers: h,
            target_uri: Some("http://example.com/".into()),
            date: Some("2014-01-03T03:03:21Z".into()),
            content_type: content_type.map(str::to_string),
            block_length: 10,
            offset: 0,
            header_length: 0,
            notes: Vec::new(),
        }
    }

    fn http(status_line: &str, headers: &[(&str, &str)]) -> StatusAndHeaders {
        let mut h = StatusAndHeaders { protocol: "HTTP/1.1".into(), status_line: status_line.into(), ..Default::default() };
        for (n, v) in headers {
            h.headers.push(n, v);
        }
        h
    }

    fn opts(all: bool, post_append: bool, minimal: bool) -> IndexOptions {
        IndexOptions {
            selection: if all { Selection::All } else { Selection::Default },
            post_append,
            minimal,
            ..Default::default()
        }
    }

    #[test]
    fn record_selection() {
        let o = opts(false, false, false);
        assert!(first_pass(&head(RecordFormat::Warc, "response", None, &[]), &o));
        assert!(!first_pass(&head(RecordFormat::Warc, "request", None, &[]), &o));
        assert!(first_pass(&head(RecordFormat::Warc, "request", None, &[]), &opts(false, true, false)));
        assert!(first_pass(&head(RecordFormat::Warc, "request", None, &[]), &opts(true, false, false)));
        let fields = head(RecordFormat::Warc, "metadata", Some("application/warc-fields"), &[]);
        assert!(!first_pass(&fields, &o));
        assert!(first_pass(&fields, &opts(true, false, false)));
        let mut filedesc = head(RecordFormat::Arc, "warcinfo", None, &[]);
        assert!(!first_pass(&filedesc, &opts(true, false, false)));
        filedesc.rec_type = "response".into();
        assert!(first_pass(&filedesc, &o));
        // -a includes requests but never warcinfo records.
        let all = opts(true, false, false);
        let request = head(RecordFormat::Warc, "request", None, &[]);
        assert!(visible(&request, &Derived { url: Some("x".into()), ..Default::default() }, &all));
        assert!(!visible(&request, &Derived { url: Some("x".into()), ..Default::default() }, &opts(false, true, false)));
        let warcinfo = head(RecordFormat::Warc, "warcinfo", None, &[]);
        assert!(!visible(&warcinfo, &Derived { url: Some("x".into()), ..Default::default() }, &all));
        let anvl = head(RecordFormat::Warc, "metadata", Some("text/anvl"), &[]);
        let d = derive(&anvl, &HttpView::new(&anvl, None), &all);
        assert_eq!(d.mime.as_deref(), Some("text/anvl"));
        assert!(!visible(&anvl, &d, &all));
        assert!(!visible(&head(RecordFormat::Warc, "response", None, &[]), &Derived::default(), &all));
    }

    #[test]
    fn status_dash_is_skipped_unless_all_or_minimal() {
        let h = head(RecordFormat::Warc, "response", None, &[]);
        let parsed = http("- nothing", &[]);
        let view = HttpView::new(&h, Some(&parsed));
        assert!(skipped_for_status(&view, &opts(false, false, false)));
        assert!(!skipped_for_status(&view, &opts(true, false, false)));
        assert!(!skipped_for_status(&view, &opts(false, false, true)));
    }

    #[test]
    fn mime_and_status_rules() {
        let o = opts(false, false, false);
        let h = head(RecordFormat::Warc, "response", Some("application/http; msgtype=response"), &[]);
        // No HTTP head: warcio's default, status 200 and the record's type.
        let d = derive(&h, &HttpView::new(&h, None), &o);
        assert_eq!((d.mime.as_deref(), d.status.as_deref()), (Some("application/http"), Some("200")));
        let parsed = http("302", &[]);
        let d = derive(&h, &HttpView::new(&h, Some(&parsed)), &o);
        assert_eq!((d.mime.as_deref(), d.status.as_deref()), (Some("unk"), Some("302")));
        let parsed = http("text/html; charset", &[("Content-Type", "; charset=utf-8")]);
        let d = derive(&h, &HttpView::new(&h, Some(&parsed)), &o);
        assert_eq!((d.mime.as_deref(), d.status.as_deref()), (Some(""), Some("text/html;")));
        let parsed = http("204 Error", &[("Content-Type", "text/html charset")]);
        let d = derive(&h, &HttpView::new(&h, Some(&parsed)), &o);
        assert_eq!((d.mime.as_deref(), d.status), (Some("text/html"), None));
        let parsed = http("", &[]);
        assert_eq!(derive(&h, &HttpView::new(&h, Some(&parsed)), &o).status, None);
        // Requests: '-' without a type; no status for anything but responses.
        let req = head(RecordFormat::Warc, "request", None, &[]);
        let parsed = http("/ HTTP/1.1", &[]);
        let d = derive(&req, &HttpView::new(&req, Some(&parsed)), &o);
        assert_eq!((d.mime, d.status), (None, None));
        let res = head(RecordFormat::Warc, "resource", Some("text/plain"), &[("WARC-Identified-Payload-Type", "text/x")]);
        let d = derive(&res, &HttpView::new(&res, None), &o);
        assert_eq!((d.mime.as_deref(), d.status, d.fields.mime_detected.as_deref()), (Some("text/plain"), None, Some("text/x")));
        let rev = head(RecordFormat::Warc, "revisit", None, &[("WARC-Payload-Digest", "sha1:ABC")]);
        let parsed = http("200 OK", &[]);
        let d = derive(&rev, &HttpView::new(&rev, Some(&parsed)), &o);
        assert_eq!((d.mime.as_deref(), d.status, d.digest.as_deref()), (Some("warc/revisit"), None, Some("ABC")));
        assert!(!computes_digest(&rev, &derive(&head(RecordFormat::Warc, "revisit", None, &[]), &HttpView::new(&rev, None), &o)));
    }

    #[test]
    fn digests() {
        assert_eq!(stated_digest(Some("sha1:ABC")), Some("ABC".into()));
        assert_eq!(stated_digest(Some("sha256:abc")), Some("sha256:abc".into()));
        assert_eq!(stated_digest(Some("SHA1:ABC")), Some("SHA1:ABC".into()));
        assert_eq!(stated_digest(Some("sha1:")), Some("".into()));
        assert_eq!(stated_digest(Some("")), None);
        let o = opts(false, false, false);
        let resp = head(RecordFormat::Warc, "response", None, &[]);
        assert!(computes_digest(&resp, &derive(&resp, &HttpView::new(&resp, None), &o)));
        let req = head(RecordFormat::Warc, "request", None, &[]);
        assert!(!computes_digest(&req, &derive(&req, &HttpView::new(&req, None), &o)));
    }

    #[test]
    fn minimal_has_no_mime_or_status() {
        let o = opts(false, false, true);
        let h = head(RecordFormat::Warc, "response", Some("application/http"), &[("WARC-Identified-Payload-Type", "x")]);
        let d = derive(&h, &HttpView::new(&h, None), &o);
        assert_eq!((d.mime, d.status, d.fields.mime_detected), (None, None, None));
        let arc = head(RecordFormat::Arc, "response", Some("text/html"), &[]);
        let d = derive(&arc, &HttpView::new(&arc, None), &o);
        assert_eq!((d.mime, d.status), (None, None));
    }

    #[test]
    fn repeated_target_uris_keep_the_first_as_written() {
        let mut h = head(RecordFormat::Warc, "resource", None, &[("WARC-Target-URI", "<http://e.com/>"), ("WARC-Target-URI", "x y")]);
        h.target_uri = Some("http://e.com/".into());
        let o = opts(false, false, false);
        assert_eq!(derive(&h, &HttpView::new(&h, None), &o).url.as_deref(), Some("<http://e.com/>"));
        let single = head(RecordFormat::Warc, "resource", None, &[("WARC-Target-URI", "<http://e.com/>")]);
        assert_eq!(derive(&single, &HttpView::new(&single, None), &o).url.as_deref(), Some("http://example.com/"));
    }

    #[test]
    fn arc_fields() {
        let mut arc = head(RecordFormat::Arc, "response", Some("text/html; charset=x"), &[("uri", "http://e.com/a b\x0c")]);
        arc.date = Some("2014021605".into());
        let o = opts(false, false, false);
        let d = derive(&arc, &HttpView::new(&arc, None), &o);
        assert_eq!(d.url.as_deref(), Some("http://e.com/a b%0C"));
        assert_eq!((d.mime.as_deref(), d.status.as_deref()), (Some("text/html"), Some("200")));
        assert_eq!(timestamp(&arc).as_deref(), Some("2014021605"));
        arc.date = Some("201402160502210000".into());
        assert_eq!(timestamp(&arc).as_deref(), Some("20140216050221"));
        assert!(computes_digest(&arc, &d));
    }

    #[test]
    fn post_append_urls() {
        let q = crate::post::pywb_method_query("post", Some("application/x-www-form-urlencoded"), Some("3"), b"a=b").unwrap();
        assert_eq!(merged_url("http://x/WB_wombat_p", &q).as_deref(), Some("http://x/p?__wb_method=POST&a=b"));
        let get = crate::post::pywb_method_query("GET", None, None, b"").unwrap();
        assert_eq!(merged_url("http://x/p", &get), None);
        assert_eq!(merged_url("http://x/WB_wombat_p", &get).as_deref(), Some("http://x/p"));
        assert_eq!(canonicalize("urn:x:y").as_deref(), Some("urn:x:y"));
    }

    fn entry() -> IndexEntry {
        IndexEntry {
            urlkey: "com,example)/".into(),
            timestamp: "20140103030321".into(),
            url: Some("http://example.com/".into()),
            mime: Some("".into()),
            status: None,
            digest: Some("ABC".into()),
            length: 5,
            offset: 7,
            filename: "f.warc.gz".into(),
            method: Some("POST".into()),
            request_body: Some(Some("a=é".into())),
            redirect: None,
            robots: None,
            record_type: "response".into(),
            record_id: None,
            date: None,
            payload_length: None,
            content_type: None,
            location: None,
            seekable: true,
            truncated: false,
            pywb: None,
        }
    }

    #[test]
    fn writers() {
        let fields = PywbFields { metadata: Some("{\"a\": 1}".into()), mime_detected: Some("-".into()) };
        let mut out = String::new();
        write_line(&mut out, Format::Cdx11, &entry(), &fields);
        write_line(&mut out, Format::Cdx9, &entry(), &fields);
        write_line(&mut out, Format::Cdxj, &entry(), &fields);
        assert_eq!(
            out,
            "com,example)/ 20140103030321 http://example.com/  - ABC - - 5 7 f.warc.gz\n\
             com,example)/ 20140103030321 http://example.com/  - ABC - 7 f.warc.gz\n\
             com,example)/ 20140103030321 {\"metadata\": \"{\\\"a\\\": 1}\", \"url\": \"http://example.com/\", \
             \"digest\": \"ABC\", \"length\": \"5\", \"offset\": \"7\", \"method\": \"POST\", \
             \"requestBody\": \"a=\\u00e9\", \"filename\": \"f.warc.gz\"}\n"
        );
    }
}
