//! From records to index rows, with the rules of the reference indexers.
//!
//! [`Indexer`] reads an archive and yields an [`Event`] per index row, per
//! bad record (skipped) and per warning. Which records become rows, and how
//! each field is derived, follows cdxj-indexer 1.5 (see
//! `shared/spec/cdx-formats.md`); [`Style::CdxWriter`] switches the fields
//! where the Internet Archive's CDX-Writer differs.

use std::io::Read;
use std::sync::Arc;

use crate::digest::{normalize_sha1, Sha1Base32};
use crate::error::{Error, ErrorKind, Result};
use crate::headers::StatusAndHeaders;
use crate::http::{carries_http, decode_body, parse_http_head};
use crate::post::{self, PostRequest};
use crate::pywb;
use crate::reader::{ArchiveReader, RecordFormat, RecordHead, RecordSpan};
use crate::robots;
use crate::source::Fill;
use crate::surt::surt;
use crate::timestamp::{iso_date_to_timestamp, pad_arc_timestamp};

/// Whose conventions the index fields follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    /// cdxj-indexer 1.5 (webrecorder); the default.
    #[default]
    CdxjIndexer,
    /// The Internet Archive's CDX-Writer: mime `unk`, redirects, robots flags.
    CdxWriter,
    /// pywb 2.x's `cdx-indexer`: its record selection, mime, status and
    /// digest rules, POST append and writers (see [`crate::pywb`]).
    Pywb,
}

/// Which records become index rows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Selection {
    /// response, revisit, resource, metadata (not `application/warc-fields`).
    #[default]
    Default,
    /// Every record, including request and warcinfo.
    All,
    /// Records of these WARC-Type values only.
    Types(Vec<String>),
}

impl Selection {
    const DEFAULT_TYPES: [&'static str; 4] = ["response", "revisit", "resource", "metadata"];

    fn accepts(&self, head: &RecordHead) -> bool {
        match self {
            Selection::All => true,
            Selection::Types(t) => t.iter().any(|t| *t == head.rec_type),
            Selection::Default => {
                Self::DEFAULT_TYPES.contains(&head.rec_type.as_str())
                    && !(matches!(head.rec_type.as_str(), "resource" | "metadata")
                        && head.headers.get("Content-Type") == Some("application/warc-fields"))
            }
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    pub selection: Selection,
    /// Pair POST/PUT requests with their responses and key them by body.
    pub post_append: bool,
    pub style: Style,
    /// Recompute block and payload digests and report mismatches.
    pub verify: bool,
    /// Name written in the filename field.
    pub filename: String,
    /// pywb's minimal index (`cdx-indexer -m`), [`Style::Pywb`] only: HTTP
    /// headers are not read, so there is no mime (but `warc/revisit`) and
    /// no status, and a computed digest covers the whole record block.
    pub minimal: bool,
}

impl IndexOptions {
    /// Options that cannot work together, as a message.
    pub fn check(&self) -> std::result::Result<(), String> {
        if self.minimal && self.style != Style::Pywb {
            return Err("the minimal index is a pywb option: use it with style pywb".into());
        }
        if self.minimal && self.post_append {
            // pywb's own words.
            return Err("Sorry, minimal index option and append POST options can not be used together".into());
        }
        Ok(())
    }
}

/// One index row, with every field warcdex knows of the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    pub urlkey: String,
    /// 14 digits.
    pub timestamp: String,
    pub url: Option<String>,
    pub mime: Option<String>,
    pub status: Option<String>,
    /// As written in the record (keeps its `sha1:` label), or computed.
    pub digest: Option<String>,
    pub length: u64,
    pub offset: u64,
    pub filename: Arc<str>,
    /// POST/PUT append: the method, upper-cased.
    pub method: Option<String>,
    /// POST/PUT append: the body as a query; `Some(None)` when it could not be read.
    pub request_body: Option<Option<String>>,
    /// CDX-Writer: Location of a 3xx response.
    pub redirect: Option<String>,
    /// CDX-Writer: robots flags from meta tags and X-Robots-Tag (`A`, `F`, `I`).
    pub robots: Option<String>,
    // Fields beyond the CDX formats, for NDJSON.
    pub record_type: String,
    pub record_id: Option<String>,
    /// WARC-Date as written (full precision), or the ARC date.
    pub date: Option<String>,
    pub payload_length: Option<u64>,
    /// Full HTTP Content-Type (or record Content-Type), parameters kept.
    pub content_type: Option<String>,
    pub location: Option<String>,
    /// False when offsets count decoded bytes (records sharing one member).
    pub seekable: bool,
    pub truncated: bool,
    /// pywb style: the fields only pywb writes; also tells the writers to
    /// use pywb's layout. None in other styles.
    pub pywb: Option<Box<crate::pywb::PywbFields>>,
}

/// Something the indexer has to say about its input.
#[derive(Debug, Clone)]
pub enum Event {
    Entry(IndexEntry),
    /// A record that could not be read; reading went on after it.
    Skipped(Error),
    /// Something wrong or repaired that did not stop the record from being indexed.
    Warning(Error),
}

/// What the one-record lookbehind for POST pairing keeps of a record.
struct Pairing {
    rec_type: String,
    target_uri: Option<String>,
    record_id: Option<String>,
    concurrent_to: Option<String>,
    /// Request line method (HTTP protocol field) when HTTP headers were parsed.
    method: Option<String>,
    content_type: Option<String>,
    content_length: Option<String>,
    body: Vec<u8>,
}

struct Pending {
    entry: Option<IndexEntry>,
    pairing: Pairing,
}

/// Largest request body kept for POST queries.
const MAX_POST_BODY: usize = 16 << 20;
/// How much of an HTML payload is searched for robots meta tags.
const MAX_HTML_HEAD: usize = 64 << 10;

pub struct Indexer<R: Read> {
    reader: ArchiveReader<R>,
    opts: IndexOptions,
    filename: Arc<str>,
    queue: std::collections::VecDeque<Event>,
    pending: Option<Pending>,
    http: StatusAndHeaders,
    scratch: Vec<u8>,
    done: bool,
    warned_unseekable: bool,
    /// Records starting at or after this offset are left to another reader.
    end: Option<u64>,
    records_past_end: u64,
}

impl<R: Read> Indexer<R> {
    pub fn new(reader: ArchiveReader<R>, opts: IndexOptions) -> Self {
        let filename: Arc<str> = Arc::from(opts.filename.as_str());
        Indexer {
            reader,
            opts,
            filename,
            queue: Default::default(),
            pending: None,
            http: StatusAndHeaders::default(),
            scratch: Vec::new(),
            done: false,
            warned_unseekable: false,
            end: None,
            records_past_end: 0,
        }
    }

    pub fn reader(&self) -> &ArchiveReader<R> {
        &self.reader
    }

    /// The next event, or None when the input is exhausted.
    pub fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(e) = self.queue.pop_front() {
                return Some(e);
            }
            if self.done {
                return None;
            }
            self.step();
        }
    }

    /// Stops before the first record that starts at or after `offset` (for
    /// reading one range of a file while other threads read the others).
    pub fn stop_before(&mut self, offset: u64) {
        self.end = Some(offset);
    }

    /// Records read by the reader, less the one found past the range end.
    pub fn records_read(&self) -> u64 {
        self.reader.stats().records - self.records_past_end
    }

    fn step(&mut self) {
        let head = match self.reader.next_head() {
            Ok(Some(h)) if self.end.is_some_and(|end| h.offset >= end) => {
                self.records_past_end += 1;
                self.done = true;
                self.flush_pending();
                return;
            }
            Ok(Some(h)) => h,
            Ok(None) => {
                self.done = true;
                self.flush_pending();
                return;
            }
            Err(e) => {
                self.flush_pending();
                self.queue.push_back(Event::Skipped(e));
                return;
            }
        };
        for note in &head.notes {
            let w = Error::new(ErrorKind::BadRecord(note.clone()), self.reader.name(), Some(head.offset));
            self.queue.push_back(Event::Warning(w));
        }
        match self.process(head) {
            Ok(Some(p)) => self.pair_or_queue(p),
            Ok(None) => {}
            Err(e) => {
                self.flush_pending();
                self.queue.push_back(Event::Skipped(e));
            }
        }
        if self.reader.has_unseekable_offsets() && !self.warned_unseekable {
            self.warned_unseekable = true;
            let msg = "several records share one compressed member (whole-file gzip or single-stream xz): \
                       offsets and lengths count decoded bytes and cannot be used to seek";
            let w = Error::new(ErrorKind::Unsupported(msg.into()), self.reader.name(), Some(0));
            self.queue.push_back(Event::Warning(w));
        }
    }

    fn flush_pending(&mut self) {
        if let Some(p) = self.pending.take() {
            if let Some(e) = p.entry {
                self.queue.push_back(Event::Entry(e));
            }
        }
    }

    /// A record is paired with the one just before it when one is the
    /// request and the other the response of the same exchange (pywb: the
    /// other is anything but a request); the rows then get the key of the
    /// URL with the request's method and body query appended.
    fn pair_or_queue(&mut self, cur: Pending) {
        if !self.opts.post_append {
            if let Some(e) = cur.entry {
                self.queue.push_back(Event::Entry(e));
            }
            return;
        }
        let Some(mut prev) = self.pending.take() else {
            self.pending = Some(cur);
            return;
        };
        let mut cur = cur;
        let (a, b) = (&prev.pairing, &cur.pairing);
        let kinds_pair = match self.opts.style {
            Style::Pywb => (a.rec_type == "request") != (b.rec_type == "request"),
            _ => matches!((a.rec_type.as_str(), b.rec_type.as_str()), ("response", "request") | ("request", "response")),
        };
        if !(kinds_pair && a.target_uri == b.target_uri && b.concurrent_to == a.record_id) {
            if let Some(e) = prev.entry.take() {
                self.queue.push_back(Event::Entry(e));
            }
            self.pending = Some(cur);
            return;
        }
        let (req, other_entry, req_entry) = if prev.pairing.rec_type == "request" {
            (&prev.pairing, &mut cur.entry, &mut prev.entry)
        } else {
            (&cur.pairing, &mut prev.entry, &mut cur.entry)
        };
        let problem = match self.opts.style {
            Style::Pywb => pywb_post_key(req, other_entry, req_entry),
            _ => cdxj_post_key(req, other_entry, req_entry),
        };
        if let Some(problem) = problem {
            let offset = other_entry.as_ref().or(req_entry.as_ref()).map(|e| e.offset);
            let w = Error::new(
                ErrorKind::BadRecord(format!("POST body not appended to the key: {problem}")),
                self.reader.name(),
                offset,
            );
            self.queue.push_back(Event::Warning(w));
        }
        for e in [prev.entry, cur.entry].into_iter().flatten() {
            self.queue.push_back(Event::Entry(e));
        }
    }

    /// Reads the rest of the current block through the digesters, keeping
    /// its first `keep` bytes; returns them and the number of bytes read.
    fn drain_block(
        reader: &mut ArchiveReader<R>,
        mut block_hasher: Option<&mut Sha1Base32>,
        mut payload_hasher: Option<&mut Sha1Base32>,
        keep: usize,
    ) -> Result<(Vec<u8>, u64)> {
        let mut kept = Vec::new();
        let mut length = 0u64;
        let mut block = reader.block();
        loop {
            let chunk = block.fill()?;
            if chunk.is_empty() {
                return Ok((kept, length));
            }
            if let Some(h) = block_hasher.as_deref_mut() {
                h.update(chunk);
            }
            if let Some(h) = payload_hasher.as_deref_mut() {
                h.update(chunk);
            }
            if kept.len() < keep {
                kept.extend_from_slice(&chunk[..chunk.len().min(keep - kept.len())]);
            }
            length += chunk.len() as u64;
            let n = chunk.len();
            block.consume(n);
        }
    }

    /// Reads one record and derives its row (if it is selected).
    fn process(&mut self, head: RecordHead) -> Result<Option<Pending>> {
        if self.opts.style == Style::Pywb {
            return self.process_pywb(head);
        }
        let opts = &self.opts;
        let wanted = opts.selection.accepts(&head);
        let pairing_wanted = opts.post_append && matches!(head.rec_type.as_str(), "request" | "response");
        if !wanted && !pairing_wanted && !opts.verify {
            self.reader.finish_record()?;
            return Ok(None);
        }

        let mut block_hasher = opts.verify.then(Sha1Base32::new);
        let has_http = carries_http(&head);
        let http = if has_http {
            let mut block = Tee { inner: self.reader.block(), hasher: block_hasher.as_mut() };
            parse_http_head(&mut block, &mut self.http, &mut self.scratch)?
        } else {
            false
        };
        // Taken out of self for the borrow checker; put back below to reuse its buffers.
        let http_block = std::mem::take(&mut self.http);
        let http = http.then_some(&http_block);

        let stated_digest = head.headers.get("WARC-Payload-Digest").filter(|d| !d.is_empty()).map(str::to_string);
        let computes_digest = stated_digest.is_none() && !matches!(head.rec_type.as_str(), "warcinfo" | "revisit");
        let mut payload_hasher = (wanted && computes_digest || opts.verify).then(Sha1Base32::new);
        let method = http.filter(|_| head.rec_type == "request").map(|h| h.protocol.clone());
        let keep_body = pairing_wanted && method.as_deref().is_some_and(post::is_post_append_method);
        let mime_full = mime_of(&head, http);
        let keep_html = opts.style == Style::CdxWriter
            && wanted
            && mime_full.as_deref().is_some_and(|m| m.to_ascii_lowercase().starts_with("text/html"));
        let cap = if keep_body { MAX_POST_BODY } else if keep_html { MAX_HTML_HEAD } else { 0 };
        let (body, payload_length) = Self::drain_block(&mut self.reader, block_hasher.as_mut(), payload_hasher.as_mut(), cap)?;
        let span = self.reader.finish_record()?;
        if let Some(damage) = self.reader.take_damage() {
            self.queue.push_back(Event::Warning(damage));
        } else if let Some(t) = span.truncated_at {
            let declared = if head.format == RecordFormat::Arc { "ARC length field" } else { "Content-Length" };
            let w = Error::new(
                ErrorKind::Truncated(format!(
                    "record content ends after {t} of {} bytes ({declared})",
                    head.block_length
                )),
                self.reader.name(),
                Some(span.offset),
            );
            self.queue.push_back(Event::Warning(w));
        }
        let computed_payload = payload_hasher.map(Sha1Base32::finish);
        if opts.verify {
            self.verify(&head, &span, block_hasher.map(Sha1Base32::finish), computed_payload.as_deref(), has_http && http.is_some());
        }

        let entry = if wanted { self.entry(&head, http, &span, stated_digest, computed_payload, mime_full, payload_length, &body)? } else { None };
        let pairing = Pairing {
            rec_type: head.rec_type.clone(),
            target_uri: head.target_uri.clone(),
            record_id: head.headers.get("WARC-Record-ID").map(str::to_string),
            concurrent_to: head.headers.get("WARC-Concurrent-To").map(str::to_string),
            content_type: http.and_then(|h| h.headers.get("Content-Type")).map(str::to_string),
            content_length: http.and_then(|h| h.headers.get("Content-Length")).map(str::to_string),
            body: match (keep_body, http) {
                (true, Some(h)) => decode_body(h, &body, MAX_POST_BODY),
                _ => Vec::new(),
            },
            method,
        };
        self.http = http_block;
        Ok(Some(Pending { entry, pairing }))
    }

    #[allow(clippy::too_many_arguments)]
    fn entry(
        &self,
        head: &RecordHead,
        http: Option<&StatusAndHeaders>,
        span: &RecordSpan,
        stated_digest: Option<String>,
        computed_digest: Option<String>,
        mime_full: Option<String>,
        payload_length: u64,
        body: &[u8],
    ) -> Result<Option<IndexEntry>> {
        let style = self.opts.style;
        let timestamp = match (head.format, head.date.as_deref()) {
            (RecordFormat::Arc, Some(d)) => pad_arc_timestamp(d),
            (RecordFormat::Warc, Some(d)) => iso_date_to_timestamp(d).ok_or_else(|| {
                Error::new(ErrorKind::BadRecord(format!("invalid WARC-Date {d:?}")), self.reader.name(), Some(span.offset))
            })?,
            (_, None) => {
                return Err(Error::new(ErrorKind::BadRecord("record has no WARC-Date".into()), self.reader.name(), Some(span.offset)))
            }
        };
        let url = if head.is_arc_filedesc() { None } else { head.target_uri.clone() };
        let status = http.filter(|_| matches!(head.rec_type.as_str(), "response" | "revisit")).map(|h| h.status_code().to_string());
        let location = http.and_then(|h| h.headers.get("Location")).map(str::to_string);
        let mut mime = if head.rec_type == "revisit" { Some("warc/revisit".to_string()) } else { mime_full.as_deref().map(cut_mime) };
        let digest = stated_digest.or(computed_digest.filter(|_| !matches!(head.rec_type.as_str(), "warcinfo" | "revisit")));
        let mut redirect = None;
        let mut robots_flags = None;
        let mut status_out = status.clone();
        if style == Style::CdxWriter {
            if head.rec_type == "revisit" {
                status_out = None;
            }
            if status.as_deref() == Some("304") || mime.as_deref() == Some("text/dns") {
                return Ok(None);
            }
            mime = Some(cdx_writer_mime(mime.as_deref(), head.rec_type.as_str()));
            if status.as_deref().is_some_and(|s| s.starts_with('3')) {
                redirect = location.clone();
            }
            let tag = http.and_then(|h| h.headers.get("X-Robots-Tag"));
            let flags = robots::flags(body, tag);
            robots_flags = (!flags.is_empty()).then_some(flags);
        }
        let urlkey = surt(url.as_deref().unwrap_or(""));
        Ok(Some(IndexEntry {
            urlkey,
            timestamp,
            url,
            mime,
            status: status_out,
            digest,
            length: span.length,
            offset: span.offset,
            filename: self.filename.clone(),
            method: None,
            request_body: None,
            redirect,
            robots: robots_flags,
            record_type: head.rec_type.clone(),
            record_id: head.headers.get("WARC-Record-ID").map(str::to_string),
            date: head.date.clone(),
            payload_length: Some(payload_length),
            content_type: mime_full,
            location,
            seekable: span.seekable,
            truncated: span.truncated_at.is_some(),
            pywb: None,
        }))
    }

    fn verify(&mut self, head: &RecordHead, span: &RecordSpan, block: Option<String>, payload: Option<&str>, has_http: bool) {
        let mut check = |label: &str, stated: Option<&str>, computed: Option<&str>| {
            let (Some(stated), Some(computed)) = (stated, computed) else { return };
            let Some(stated_b32) = normalize_sha1(stated) else { return };
            let computed_b32 = computed.trim_start_matches("sha1:");
            if stated_b32 != computed_b32 {
                let w = Error::new(
                    ErrorKind::DigestMismatch(format!("{label} mismatch: record says {stated}, content is sha1:{computed_b32}")),
                    self.reader.name(),
                    Some(span.offset),
                );
                self.queue.push_back(Event::Warning(w));
            }
        };
        check("WARC-Block-Digest", head.headers.get("WARC-Block-Digest"), block.as_deref());
        // A payload digest is only defined over the HTTP entity when the record has one.
        if has_http || !matches!(head.rec_type.as_str(), "response" | "request" | "revisit") {
            if head.rec_type != "revisit" {
                check("WARC-Payload-Digest", head.headers.get("WARC-Payload-Digest"), payload);
            }
        }
    }
}

/// cdxj-indexer's POST/PUT key: the body as a query (see [`post`]), set on
/// both rows; the response also gets `method` and `requestBody`.
fn cdxj_post_key(req: &Pairing, resp: &mut Option<IndexEntry>, req_row: &mut Option<IndexEntry>) -> Option<String> {
    let method = req.method.as_deref().filter(|m| post::is_post_append_method(m))?;
    let request = PostRequest {
        method,
        content_type: req.content_type.as_deref(),
        content_length: req.content_length.as_deref(),
        body: &req.body,
    };
    match post::post_query(&request) {
        Ok(query) => {
            let url = req.target_uri.clone().unwrap_or_default();
            let key = surt(&post::append_method_query(&url, method, query.as_deref().unwrap_or("")));
            if let Some(e) = resp.as_mut() {
                e.urlkey = key.clone();
                e.method = Some(method.to_uppercase());
                e.request_body = Some(query);
            }
            if let Some(e) = req_row.as_mut() {
                e.urlkey = key;
            }
            None
        }
        Err(err) => Some(err.to_string()),
    }
}

/// pywb's POST key: its own method query, merged into the URL and
/// canonicalized its way.
fn pywb_post_key(req: &Pairing, other: &mut Option<IndexEntry>, req_entry: &mut Option<IndexEntry>) -> Option<String> {
    let url = req.target_uri.as_deref()?;
    let query = post::pywb_method_query(
        req.method.as_deref().unwrap_or("HTTP/1.0"),
        req.content_type.as_deref(),
        req.content_length.as_deref(),
        &req.body,
    );
    match query {
        Ok(q) => match pywb::merged_url(url, &q) {
            None => None,
            Some(new_url) => match pywb::canonicalize(&new_url) {
                Some(key) => {
                    if let Some(e) = other.as_mut() {
                        e.urlkey = key.clone();
                        e.method = Some(q.method.clone());
                        e.request_body = (!q.query.is_empty()).then(|| Some(q.query.clone()));
                    }
                    if let Some(e) = req_entry.as_mut() {
                        e.urlkey = key;
                    }
                    None
                }
                None => Some(format!("URL {new_url:?} cannot be turned into a SURT key")),
            },
        },
        Err(err) => Some(err.to_string()),
    }
}

/// The full media type that the `mime` field is cut from: HTTP Content-Type
/// for response and request records, else the record's Content-Type.
fn mime_of(head: &RecordHead, http: Option<&StatusAndHeaders>) -> Option<String> {
    match head.rec_type.as_str() {
        "response" | "request" => http.and_then(|h| h.headers.get("Content-Type")).map(str::to_string),
        _ => head.content_type.clone(),
    }
}

/// The media type up to the first `;` or whitespace, as cdxj-indexer cuts it.
fn cut_mime(full: &str) -> String {
    let end = full.find(|c: char| c == ';' || crate::headers::py_isspace(c)).unwrap_or(full.len());
    crate::headers::py_strip(&full[..end]).to_string()
}

/// CDX-Writer keeps a media type only if it matches `[a-z0-9\-\.\+/]+`.
fn cdx_writer_mime(mime: Option<&str>, rec_type: &str) -> String {
    let m = mime.unwrap_or("").to_ascii_lowercase();
    let ok = !m.is_empty() && m.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-.+/".contains(&b));
    if rec_type == "revisit" {
        return "warc/revisit".into();
    }
    if ok {
        m
    } else {
        "unk".into()
    }
}

/// A [`Fill`] that hashes what is consumed through it.
struct Tee<'h, F: Fill> {
    inner: F,
    hasher: Option<&'h mut Sha1Base32>,
}

impl<F: Fill> Fill for Tee<'_, F> {
    fn fill(&mut self) -> Result<&[u8]> {
        self.inner.fill()
    }
    fn consume(&mut self, n: usize) {
        if let Some(h) = self.hasher.as_mut() {
            if let Ok(buf) = self.inner.fill() {
                h.update(&buf[..n]);
            }
        }
        self.inner.consume(n);
    }
    fn error(&self, kind: ErrorKind) -> Error {
        self.inner.error(kind)
    }
}

/// pywb style: records read, and requests paired with their responses, by
/// pywb's rules; the derivations themselves are in [`crate::pywb`].
impl<R: Read> Indexer<R> {
    fn process_pywb(&mut self, head: RecordHead) -> Result<Option<Pending>> {
        if !pywb::first_pass(&head, &self.opts) {
            self.reader.finish_record()?;
            return Ok(None);
        }
        let mut block_hasher = self.opts.verify.then(Sha1Base32::new);
        // The minimal index does not parse HTTP headers.
        let has_http = !self.opts.minimal && carries_http(&head);
        let parsed = if has_http {
            let mut block = Tee { inner: self.reader.block(), hasher: block_hasher.as_mut() };
            parse_http_head(&mut block, &mut self.http, &mut self.scratch)?
        } else {
            false
        };
        let http_block = std::mem::take(&mut self.http);
        let result = self.pywb_record(&head, parsed.then_some(&http_block), has_http, block_hasher);
        self.http = http_block;
        result
    }

    fn pywb_record(
        &mut self,
        head: &RecordHead,
        http: Option<&StatusAndHeaders>,
        has_http: bool,
        mut block_hasher: Option<Sha1Base32>,
    ) -> Result<Option<Pending>> {
        let view = pywb::HttpView::new(head, http);
        if pywb::skipped_for_status(&view, &self.opts) {
            self.reader.finish_record()?;
            return Ok(None);
        }
        let derived = pywb::derive(head, &view, &self.opts);
        let visible = pywb::visible(head, &derived, &self.opts);
        let (post_append, verify) = (self.opts.post_append, self.opts.verify);
        if !visible && !post_append && !verify {
            self.reader.finish_record()?;
            return Ok(None);
        }
        let computes_digest = visible && pywb::computes_digest(head, &derived);
        let mut payload_hasher = (computes_digest || verify).then(Sha1Base32::new);
        let keep_body = post_append
            && head.rec_type == "request"
            && matches!(view.protocol.to_uppercase().as_str(), "POST" | "PUT");
        let cap = if keep_body { MAX_POST_BODY } else { 0 };
        let (body, payload_length) = Self::drain_block(&mut self.reader, block_hasher.as_mut(), payload_hasher.as_mut(), cap)?;
        let span = self.reader.finish_record()?;
        self.report_short_content(head, &span);
        // warcio meets the end of the input where an HTTP head should be (a
        // response or request cut off right after its WARC headers), and pywb
        // takes that as the end of the file: no row.
        if has_http && head.rec_type != "revisit" && span.truncated_at == Some(0) {
            return Ok(None);
        }
        let computed = payload_hasher.map(Sha1Base32::finish_base32);
        if verify {
            self.verify(head, &span, block_hasher.map(Sha1Base32::finish), computed.as_deref(), has_http && http.is_some());
        }
        let entry = if visible { self.pywb_entry(head, &view, http, &span, derived.clone(), computed, payload_length)? } else { None };
        let pairing = Pairing {
            rec_type: head.rec_type.clone(),
            target_uri: derived.url,
            record_id: head.headers.get("WARC-Record-ID").map(str::to_string),
            concurrent_to: head.headers.get("WARC-Concurrent-To").map(str::to_string),
            method: Some(view.protocol.to_string()),
            content_type: view.content_type.map(str::to_string),
            content_length: view.content_length.clone(),
            body,
        };
        Ok(Some(Pending { entry, pairing }))
    }

    #[allow(clippy::too_many_arguments)]
    fn pywb_entry(
        &self,
        head: &RecordHead,
        view: &pywb::HttpView,
        http: Option<&StatusAndHeaders>,
        span: &RecordSpan,
        derived: pywb::Derived,
        computed_digest: Option<String>,
        payload_length: u64,
    ) -> Result<Option<IndexEntry>> {
        let bad = |msg: String| Error::new(ErrorKind::BadRecord(msg), self.reader.name(), Some(span.offset));
        let timestamp = pywb::timestamp(head).ok_or_else(|| match head.date.as_deref() {
            Some(d) => bad(format!("invalid WARC-Date {d:?}")),
            None => bad("record has no WARC-Date".into()),
        })?;
        let url = derived.url.unwrap_or_default();
        let urlkey = pywb::canonicalize(&url).ok_or_else(|| bad(format!("URL {url:?} cannot be turned into a SURT key")))?;
        if urlkey.is_empty() {
            return Ok(None);
        }
        Ok(Some(IndexEntry {
            urlkey,
            timestamp,
            url: Some(url),
            mime: derived.mime,
            status: derived.status,
            digest: derived.digest.or(computed_digest),
            length: span.length,
            offset: span.offset,
            filename: self.filename.clone(),
            method: None,
            request_body: None,
            redirect: None,
            robots: None,
            record_type: head.rec_type.clone(),
            record_id: head.headers.get("WARC-Record-ID").map(str::to_string),
            date: head.date.clone(),
            payload_length: Some(payload_length),
            content_type: view.content_type.map(str::to_string),
            location: http.and_then(|h| h.headers.get("Location")).map(str::to_string),
            seekable: span.seekable,
            truncated: span.truncated_at.is_some(),
            pywb: Some(Box::new(derived.fields)),
        }))
    }

    /// Warnings for a record whose content ended early (the same as
    /// [`Indexer::process`] gives).
    fn report_short_content(&mut self, head: &RecordHead, span: &RecordSpan) {
        if let Some(mut damage) = self.reader.take_damage() {
            damage.kind = ErrorKind::Truncated(format!(
                "record kept with the {} of {} content bytes that could be decoded: {}",
                span.truncated_at.unwrap_or(0),
                head.block_length,
                damage.message()
            ));
            self.queue.push_back(Event::Warning(damage));
        } else if let Some(t) = span.truncated_at {
            let w = Error::new(
                ErrorKind::Truncated(format!("record content ends after {t} of {} bytes (Content-Length)", head.block_length)),
                self.reader.name(),
                Some(span.offset),
            );
            self.queue.push_back(Event::Warning(w));
        }
    }
}
