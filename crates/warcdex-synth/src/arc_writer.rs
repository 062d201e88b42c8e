//! ARC v1 serialization (Internet Archive ARC File Format, 1996).
//!
//! ARC stores only what came back from the network: no request, metadata or
//! revisit records. Layout, as Heritrix writes it:
//!
//! ```text
//! filedesc://NAME 0.0.0.0 YYYYMMDDhhmmss text/plain LEN\n
//! 1 0 ORG\n
//! URL IP-address Archive-date Content-type Archive-length\n
//! \n
//! URL IP YYYYMMDDhhmmss MIME LEN\n
//! <LEN bytes: HTTP status line, headers, body>\n
//! ```
//!
//! LEN of the version block counts its second and third lines; every record
//! (the version block included) is followed by a single `\n`.

use crate::compress::RecordSink;
use crate::warc_writer::{ArchiveWriter, Exchange, Extra, FileHeader};
use crate::RecordCounts;
use std::io;

pub(crate) struct ArcWriter<S: RecordSink> {
    pub sink: S,
    organization: String,
    buf: Vec<u8>,
    counts: RecordCounts,
}

impl<S: RecordSink> ArcWriter<S> {
    pub fn new(sink: S, organization: &str) -> Self {
        // Fields are space-separated; the origin code must not contain any.
        let organization: String = organization
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let organization = if organization.is_empty() {
            "warcdex".into()
        } else {
            organization
        };
        ArcWriter {
            sink,
            organization,
            buf: Vec::with_capacity(1 << 20),
            counts: RecordCounts::default(),
        }
    }

    fn record(&mut self, line: &str, parts: &[&[u8]]) -> io::Result<()> {
        self.buf.clear();
        self.buf.extend_from_slice(line.as_bytes());
        self.buf.push(b'\n');
        for p in parts {
            self.buf.extend_from_slice(p);
        }
        self.buf.push(b'\n');
        self.sink.put(&self.buf)
    }
}

/// ARC's content-type field: the bare media type, since parameters would
/// introduce spaces; "no-type" when the server sent none.
fn arc_mime(ct: Option<&str>) -> String {
    match ct.map(|c| {
        c.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    }) {
        Some(m) if !m.is_empty() => m,
        _ => "no-type".into(),
    }
}

impl<S: RecordSink> ArchiveWriter for ArcWriter<S> {
    fn header(&mut self, h: &FileHeader) -> io::Result<()> {
        let rest = format!(
            "1 0 {}\nURL IP-address Archive-date Content-type Archive-length\n",
            self.organization
        );
        let line = format!(
            "filedesc://{} 0.0.0.0 {} text/plain {}",
            h.filename,
            h.date.digits14(),
            rest.len()
        );
        self.counts.warcinfo += 1;
        self.record(&line, &[rest.as_bytes()])
    }

    fn exchange(&mut self, x: &Exchange) -> io::Result<()> {
        debug_assert!(x.refers_to.is_none(), "ARC has no revisit records");
        let len = x.response_head.len() + x.body.len();
        let line = format!(
            "{} {} {} {} {}",
            x.url,
            x.ip,
            x.date.digits14(),
            arc_mime(x.content_type),
            len
        );
        self.counts.response += 1;
        self.record(&line, &[x.response_head, x.body])
    }

    fn metadata(&mut self, _m: &Extra) -> io::Result<()> {
        Ok(())
    }

    /// Only DNS lookups have an ARC form (Heritrix wrote `dns:` records);
    /// screenshots and other resources did not exist in the ARC era.
    fn resource(&mut self, r: &Extra) -> io::Result<()> {
        if !r.uri.starts_with("dns:") {
            return Ok(());
        }
        // The IP field of a dns record is the resolver; unknown here.
        let line = format!(
            "{} 0.0.0.0 {} {} {}",
            r.uri,
            r.date.digits14(),
            r.content_type,
            r.body.len()
        );
        self.counts.resource += 1;
        self.record(&line, &[r.body])
    }

    fn uncompressed(&self) -> u64 {
        self.sink.uncompressed()
    }

    fn counts(&self) -> RecordCounts {
        self.counts.clone()
    }
}
