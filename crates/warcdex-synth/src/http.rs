//! HTTP/1.1 message heads as a crawler records them, and chunked framing.

use crate::crawl::Host;
use crate::rng::Rng;
use crate::time::Timestamp;

pub const USER_AGENT: &str =
    "Mozilla/5.0 (compatible; warcdex-synth/0.1; +https://warcdex.invalid/bot)";

pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        206 => "Partial Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        410 => "Gone",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

/// Statuses that never carry a body.
pub fn bodiless(status: u16) -> bool {
    matches!(status, 204 | 304)
}

/// Header writer that applies the host's name casing.
struct Head {
    buf: Vec<u8>,
    lower: bool,
}

impl Head {
    fn line(&mut self, name: &str, value: &str) {
        if self.lower {
            self.buf
                .extend(name.bytes().map(|b| b.to_ascii_lowercase()));
        } else {
            self.buf.extend_from_slice(name.as_bytes());
        }
        self.buf.extend_from_slice(b": ");
        self.buf.extend_from_slice(value.as_bytes());
        self.buf.extend_from_slice(b"\r\n");
    }
}

/// How the entity body is delimited on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    None,
    Length(usize),
    Chunked,
}

pub struct ResponseHead<'a> {
    pub status: u16,
    pub date: Timestamp,
    pub content_type: Option<&'a str>,
    pub framing: Framing,
    pub location: Option<&'a str>,
    pub cacheable: bool,
}

/// Status line and headers, ending with the blank line.
pub fn response_head(rng: &mut Rng, host: &Host, r: &ResponseHead) -> Vec<u8> {
    let mut h = Head {
        buf: Vec::with_capacity(512),
        lower: host.lowercase_headers,
    };
    h.buf
        .extend_from_slice(format!("HTTP/1.1 {} {}\r\n", r.status, reason(r.status)).as_bytes());
    h.line("Date", &r.date.http_date());
    h.line("Server", host.server);
    if let Some(ct) = r.content_type {
        h.line("Content-Type", ct);
    }
    match r.framing {
        Framing::Length(n) => h.line("Content-Length", &n.to_string()),
        Framing::Chunked => h.line("Transfer-Encoding", "chunked"),
        Framing::None => {}
    }
    h.line(
        "Connection",
        if rng.chance(0.6) {
            "close"
        } else {
            "keep-alive"
        },
    );
    if let Some(loc) = r.location {
        h.line("Location", loc);
    }
    if r.cacheable && r.status == 200 {
        if rng.chance(0.5) {
            let age = 86_400 * (1 + rng.below(2000)) as i64;
            h.line(
                "Last-Modified",
                &Timestamp {
                    secs: r.date.secs - age,
                    nanos: 0,
                }
                .http_date(),
            );
        }
        if rng.chance(0.5) {
            h.line("ETag", &format!("\"{}-{}\"", rng.hex(8), rng.hex(12)));
        }
        h.line(
            "Cache-Control",
            rng.pick(&[
                "max-age=3600",
                "public, max-age=31536000",
                "no-cache",
                "private, max-age=0",
            ]),
        );
        if rng.chance(0.3) {
            h.line("Accept-Ranges", "bytes");
        }
    }
    if let Some(p) = host.powered_by {
        h.line("X-Powered-By", p);
    }
    if host.session != crate::crawl::SessionStyle::None && rng.chance(0.3) {
        h.line(
            "Set-Cookie",
            &format!("session={}; Path=/; HttpOnly", rng.hex(32)),
        );
    }
    if r.content_type.is_some_and(|c| c.starts_with("text/")) {
        h.line("Vary", "Accept-Encoding");
    }
    if host.scheme == "https" && rng.chance(0.3) {
        h.line(
            "Strict-Transport-Security",
            "max-age=31536000; includeSubDomains",
        );
    }
    h.buf.extend_from_slice(b"\r\n");
    h.buf
}

pub struct RequestHead<'a> {
    pub method: &'a str,
    /// Origin-form target: path and query.
    pub target: &'a str,
    pub host: &'a Host,
    pub referer: Option<&'a str>,
    pub if_modified_since: Option<Timestamp>,
    /// (Content-Type, length) of a request body.
    pub body: Option<(&'a str, usize)>,
}

/// Request line and headers in the order Heritrix writes them.
pub fn request_head(rng: &mut Rng, r: &RequestHead) -> Vec<u8> {
    let mut h = Head {
        buf: Vec::with_capacity(512),
        lower: false,
    };
    h.buf
        .extend_from_slice(format!("{} {} HTTP/1.1\r\n", r.method, r.target).as_bytes());
    h.line("User-Agent", USER_AGENT);
    h.line("Connection", "close");
    if let Some(refr) = r.referer {
        h.line("Referer", refr);
    }
    h.line(
        "Accept",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    );
    h.line("Host", &r.host.authority());
    if let Some(t) = r.if_modified_since {
        h.line("If-Modified-Since", &t.http_date());
    }
    if r.host.session != crate::crawl::SessionStyle::None && rng.chance(0.5) {
        h.line("Cookie", &format!("session={}", rng.hex(32)));
    }
    if let Some((ct, len)) = r.body {
        h.line("Content-Type", ct);
        h.line("Content-Length", &len.to_string());
    }
    h.buf.extend_from_slice(b"\r\n");
    h.buf
}

/// Chunked transfer coding of `body` appended to `out`, with chunk sizes
/// like real servers use (a fixed buffer size per response).
pub fn chunk(rng: &mut Rng, body: &[u8], out: &mut Vec<u8>) {
    let size = rng.pick(&[1024usize, 4096, 8000, 8192, 16384, 32768]);
    for piece in body.chunks(size) {
        out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_roundtrip_shape() {
        let mut out = Vec::new();
        chunk(&mut Rng::new(1), &[b'x'; 3000], &mut out);
        assert!(out.ends_with(b"0\r\n\r\n"));
        let first_line = out.split(|&b| b == b'\r').next().unwrap();
        let n = usize::from_str_radix(std::str::from_utf8(first_line).unwrap(), 16).unwrap();
        assert!(n > 0 && n <= 3000);
    }
}
