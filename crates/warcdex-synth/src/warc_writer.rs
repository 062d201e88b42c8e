//! WARC record serialization (WARC/1.0 and WARC/1.1) with SHA-1 digests.

use crate::compress::RecordSink;
use crate::time::Timestamp;
use crate::RecordCounts;
use sha1::{Digest, Sha1};
use std::io;

/// `sha1:` + RFC 4648 Base32 (uppercase), the form used by Heritrix and
/// most CDX indexes.
pub fn sha1_label(parts: &[&[u8]]) -> String {
    let mut h = Sha1::new();
    for p in parts {
        h.update(p);
    }
    format!("sha1:{}", data_encoding::BASE32.encode(&h.finalize()))
}

/// One HTTP exchange as seen by the writers. For a revisit, `body` is empty
/// and `refers_to` names the original capture.
pub(crate) struct Exchange<'a> {
    pub url: &'a str,
    pub ip: &'a str,
    pub date: Timestamp,
    pub request: &'a [u8],
    pub request_id: &'a str,
    pub response_id: &'a str,
    pub response_head: &'a [u8],
    pub body: &'a [u8],
    pub payload_digest: &'a str,
    pub content_type: Option<&'a str>,
    pub refers_to: Option<RefersTo<'a>>,
}

pub(crate) struct RefersTo<'a> {
    pub uri: &'a str,
    pub date: Timestamp,
    pub record_id: &'a str,
}

/// A resource record (dns lookups, screenshots) or a metadata record.
pub(crate) struct Extra<'a> {
    pub uri: &'a str,
    pub date: Timestamp,
    pub id: &'a str,
    pub content_type: &'a str,
    pub body: &'a [u8],
    pub concurrent_to: Option<&'a str>,
}

pub(crate) struct FileHeader<'a> {
    pub filename: &'a str,
    pub date: Timestamp,
    pub id: &'a str,
    pub fields: &'a [(&'a str, String)],
}

/// What the generator drives; implemented for WARC and ARC output.
pub(crate) trait ArchiveWriter {
    fn header(&mut self, h: &FileHeader) -> io::Result<()>;
    fn exchange(&mut self, x: &Exchange) -> io::Result<()>;
    fn metadata(&mut self, m: &Extra) -> io::Result<()>;
    fn resource(&mut self, r: &Extra) -> io::Result<()>;
    fn uncompressed(&self) -> u64;
    fn counts(&self) -> RecordCounts;
}

pub(crate) struct WarcWriter<S: RecordSink> {
    pub sink: S,
    v11: bool,
    omit_payload_digest: bool,
    warcinfo_id: String,
    buf: Vec<u8>,
    counts: RecordCounts,
}

/// Optional named fields of one record, written in the order Common Crawl
/// uses (note Content-Length is not last: parsers must not assume order).
#[derive(Default)]
struct Fields<'a> {
    typ: &'a str,
    date: Option<Timestamp>,
    id: &'a str,
    content_type: Option<&'a str>,
    warcinfo_id: Option<&'a str>,
    concurrent_to: Option<&'a str>,
    ip: Option<&'a str>,
    target_uri: Option<&'a str>,
    payload_digest: Option<&'a str>,
    extra: Vec<(&'a str, String)>,
}

impl<S: RecordSink> WarcWriter<S> {
    pub fn new(sink: S, v11: bool, omit_payload_digest: bool) -> Self {
        WarcWriter {
            sink,
            v11,
            omit_payload_digest,
            warcinfo_id: String::new(),
            buf: Vec::with_capacity(1 << 20),
            counts: RecordCounts::default(),
        }
    }

    fn date(&self, t: Timestamp) -> String {
        // WARC/1.1 permits fractions; vary the precision like real crawlers
        // that write milliseconds or microseconds (derived from the
        // timestamp itself so formatting needs no randomness).
        let digits = if self.v11 {
            [0, 3, 6][(t.nanos % 3) as usize]
        } else {
            0
        };
        t.iso8601(digits)
    }

    fn write(&mut self, f: Fields, block: &[&[u8]]) -> io::Result<()> {
        let len: usize = block.iter().map(|b| b.len()).sum();
        let block_digest = sha1_label(block);
        let date = f.date.map(|d| self.date(d));
        let b = &mut self.buf;
        b.clear();
        b.extend_from_slice(if self.v11 {
            b"WARC/1.1\r\n"
        } else {
            b"WARC/1.0\r\n"
        });
        let mut line = |name: &str, value: &str| {
            b.extend_from_slice(name.as_bytes());
            b.extend_from_slice(b": ");
            b.extend_from_slice(value.as_bytes());
            b.extend_from_slice(b"\r\n");
        };
        line("WARC-Type", f.typ);
        if let Some(d) = &date {
            line("WARC-Date", d);
        }
        line("WARC-Record-ID", &format!("<urn:uuid:{}>", f.id));
        line("Content-Length", &len.to_string());
        if let Some(ct) = f.content_type {
            line("Content-Type", ct);
        }
        if let Some(w) = f.warcinfo_id {
            line("WARC-Warcinfo-ID", &format!("<urn:uuid:{w}>"));
        }
        if let Some(c) = f.concurrent_to {
            line("WARC-Concurrent-To", &format!("<urn:uuid:{c}>"));
        }
        if let Some(ip) = f.ip {
            line("WARC-IP-Address", ip);
        }
        if let Some(u) = f.target_uri {
            line("WARC-Target-URI", u);
        }
        if let Some(p) = f.payload_digest {
            line("WARC-Payload-Digest", p);
        }
        line("WARC-Block-Digest", &block_digest);
        for (k, v) in &f.extra {
            line(k, v);
        }
        b.extend_from_slice(b"\r\n");
        for part in block {
            b.extend_from_slice(part);
        }
        b.extend_from_slice(b"\r\n\r\n");
        self.sink.put(&self.buf)
    }
}

impl<S: RecordSink> ArchiveWriter for WarcWriter<S> {
    fn header(&mut self, h: &FileHeader) -> io::Result<()> {
        let mut body = String::new();
        for (k, v) in h.fields {
            body.push_str(&format!("{k}: {v}\r\n"));
        }
        self.warcinfo_id = h.id.to_string();
        self.counts.warcinfo += 1;
        self.write(
            Fields {
                typ: "warcinfo",
                date: Some(h.date),
                id: h.id,
                content_type: Some("application/warc-fields"),
                extra: vec![("WARC-Filename", h.filename.to_string())],
                ..Fields::default()
            },
            &[body.as_bytes()],
        )
    }

    fn exchange(&mut self, x: &Exchange) -> io::Result<()> {
        let wi = self.warcinfo_id.clone();
        // Request first, as Common Crawl and wget do; it points at the
        // response it belongs to.
        if !x.request.is_empty() {
            self.counts.request += 1;
            self.write(
                Fields {
                    typ: "request",
                    date: Some(x.date),
                    id: x.request_id,
                    content_type: Some("application/http; msgtype=request"),
                    warcinfo_id: Some(&wi),
                    concurrent_to: Some(x.response_id),
                    ip: Some(x.ip),
                    target_uri: Some(x.url),
                    ..Fields::default()
                },
                &[x.request],
            )?;
        }
        match &x.refers_to {
            None => {
                self.counts.response += 1;
                let digest = if self.omit_payload_digest {
                    None
                } else {
                    Some(x.payload_digest)
                };
                self.write(
                    Fields {
                        typ: "response",
                        date: Some(x.date),
                        id: x.response_id,
                        content_type: Some("application/http; msgtype=response"),
                        warcinfo_id: Some(&wi),
                        ip: Some(x.ip),
                        target_uri: Some(x.url),
                        payload_digest: digest,
                        ..Fields::default()
                    },
                    &[x.response_head, x.body],
                )
            }
            Some(r) => {
                self.counts.revisit += 1;
                let profile = if self.v11 {
                    "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
                } else {
                    "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"
                };
                // The payload digest is kept even with omit_payload_digest:
                // it is what identifies the original, and a revisit has no
                // payload to recompute it from.
                let refers_date = self.date(r.date);
                self.write(
                    Fields {
                        typ: "revisit",
                        date: Some(x.date),
                        id: x.response_id,
                        content_type: Some("application/http; msgtype=response"),
                        warcinfo_id: Some(&wi),
                        ip: Some(x.ip),
                        target_uri: Some(x.url),
                        payload_digest: Some(x.payload_digest),
                        extra: vec![
                            ("WARC-Profile", profile.to_string()),
                            ("WARC-Refers-To", format!("<urn:uuid:{}>", r.record_id)),
                            ("WARC-Refers-To-Target-URI", r.uri.to_string()),
                            ("WARC-Refers-To-Date", refers_date),
                        ],
                        ..Fields::default()
                    },
                    &[x.response_head],
                )
            }
        }
    }

    fn metadata(&mut self, m: &Extra) -> io::Result<()> {
        self.counts.metadata += 1;
        let wi = self.warcinfo_id.clone();
        self.write(
            Fields {
                typ: "metadata",
                date: Some(m.date),
                id: m.id,
                content_type: Some(m.content_type),
                warcinfo_id: Some(&wi),
                concurrent_to: m.concurrent_to,
                target_uri: Some(m.uri),
                ..Fields::default()
            },
            &[m.body],
        )
    }

    fn resource(&mut self, r: &Extra) -> io::Result<()> {
        self.counts.resource += 1;
        let wi = self.warcinfo_id.clone();
        let digest = sha1_label(&[r.body]);
        self.write(
            Fields {
                typ: "resource",
                date: Some(r.date),
                id: r.id,
                content_type: Some(r.content_type),
                warcinfo_id: Some(&wi),
                concurrent_to: r.concurrent_to,
                target_uri: Some(r.uri),
                payload_digest: if self.omit_payload_digest {
                    None
                } else {
                    Some(&digest)
                },
                ..Fields::default()
            },
            &[r.body],
        )
    }

    fn uncompressed(&self) -> u64 {
        self.sink.uncompressed()
    }

    fn counts(&self) -> RecordCounts {
        self.counts.clone()
    }
}
