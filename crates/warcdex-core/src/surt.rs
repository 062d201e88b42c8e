//! SURT keys (Sort-friendly URI Reordering Transform), byte-identical to the
//! Python package `surt` 0.3.1 called with its default options
//! (`surt.surt(url)`), which is what cdxj-indexer and pywb write as the first
//! field of CDX(J) lines.
//!
//! `http://www.Example.com:80/a/../B/?b=2&a=1#top` becomes `com,example)/b?a=1&b=2`.
//!
//! The reference applies, in this order:
//! * parsing: trim ASCII whitespace, delete every `\t`, `\r`, `\n`; prefix
//!   `http://` when there is no scheme; collapse `http://https://…` chains;
//!   split like RFC 2396 appendix B; a port that is not a number in
//!   0..=65535 is an error; `http:///host/` takes its host from the path;
//! * Google-style canonicalisation: drop the fragment and user info;
//!   unescape the host repeatedly, IDNA-encode it (IDNA 2003), collapse `..`,
//!   turn numeric IPv4 forms into a dotted quad, lower-case and escape it;
//!   unescape the path repeatedly, resolve dot segments (only when there is a
//!   host), escape it; unescape and re-escape the query;
//! * Internet Archive canonicalisation: strip one leading `www\d*.`, drop the
//!   scheme's default port, lower-case path and query, drop ASP.NET and
//!   other session ids, drop a trailing `/`, sort the query arguments, drop an
//!   empty query;
//! * output: host labels reversed and joined by `,`, the port, `)`, path and
//!   query. Without a host the output is `scheme:` followed by the path.
//!
//! Input starting with `filedesc` passes through unchanged and an empty input
//! gives `-`. Everything else, `dns:` or `mailto:` included, goes through the
//! pipeline above (which lower-cases their "path").
//!
//! The code works on bytes like the reference (which runs on the UTF-8
//! encoding of its input) and is free of regular expressions. Common
//! `http(s)` URLs take a single-scan fast path; the general pipeline reuses
//! per-thread scratch buffers, so only the rare IDNA conversion allocates.
//!
//! Two places where the reference depends on its environment are pinned
//! down: numeric hosts are resolved like glibc's `inet_aton` (the reference
//! calls `gethostbyname`, which would also consult `/etc/hosts` and DNS for
//! the few forms `inet_aton` rejects, such as `256.1.1.1`; here those are not
//! addresses, as they are when the lookup fails), and IDNA follows CPython's
//! `idna` codec (IDNA 2003, tables generated from CPython 3.11).

pub mod idna2003;
#[rustfmt::skip] // generated
mod idna2003_tables;

use std::cell::RefCell;
use std::cmp::Ordering;

use memchr::memchr3;

/// Inputs for which the reference implementation raises an exception.
///
/// [`surt`] and [`surt_into`] then return the input unchanged, as
/// cdxj-indexer does; the `try_` functions report the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SurtError {
    /// The URL is not empty but consists only of whitespace
    /// (the reference fails with an `AttributeError`).
    #[error("URL consists only of whitespace")]
    BlankUrl,
    /// The authority has a port that is not a decimal number in 0..=65535
    /// (the reference fails with a `ValueError`).
    #[error("URL has a port that is not a number in 0..=65535")]
    InvalidPort,
}

/// The SURT key of `url`; the input itself if the reference would raise.
pub fn surt(url: &str) -> String {
    let mut key = String::with_capacity(url.len() + 4);
    surt_into(url, &mut key);
    key
}

/// Appends the SURT key of `url` to `out` (the input itself if the reference
/// would raise). Apart from growing `out` (and converting a non-ASCII host),
/// it does not allocate.
pub fn surt_into(url: &str, out: &mut String) {
    if try_surt_into(url, out).is_err() {
        out.push_str(url);
    }
}

/// The SURT key of `url`, or the error the reference would raise.
pub fn try_surt(url: &str) -> Result<String, SurtError> {
    let mut key = String::with_capacity(url.len() + 4);
    try_surt_into(url, &mut key)?;
    Ok(key)
}

/// Appends the SURT key of `url` to `out`; on error `out` is left unchanged.
pub fn try_surt_into(url: &str, out: &mut String) -> Result<(), SurtError> {
    with_scratch(|scratch| {
        let mut key = std::mem::take(&mut scratch.key);
        key.clear();
        let result = canonicalize(url.as_bytes(), &mut key, scratch);
        if result.is_ok() {
            // The key is ASCII except for a pass-through copy of the input.
            out.push_str(std::str::from_utf8(&key).expect("SURT keys of UTF-8 input are UTF-8"));
        }
        scratch.key = key;
        result
    })
}

/// Appends the SURT key of raw URL bytes to `out`, like the reference's
/// `surt.surt(bytes)`; on error `out` is left unchanged. Bytes that are not
/// UTF-8 are handled as the reference does (percent-escaped in the key, or
/// ignored by IDNA), so the key is ASCII unless it is a `filedesc` pass-through.
pub fn surt_bytes_into(url: &[u8], out: &mut Vec<u8>) -> Result<(), SurtError> {
    let start = out.len();
    let result = with_scratch(|scratch| canonicalize(url, out, scratch));
    if result.is_err() {
        out.truncate(start);
    }
    result
}

// --- scratch buffers ------------------------------------------------------------

/// Buffers reused across calls so the hot path does not allocate.
#[derive(Default)]
struct Scratch {
    key: Vec<u8>,
    cleaned: Vec<u8>,
    host_buf: Vec<u8>,
    host_tmp: Vec<u8>,
    unescaped: Vec<u8>,
    normalized: Vec<u8>,
    segments: Vec<(usize, usize)>,
    query_args: Vec<(usize, usize)>,
    query_tmp: Vec<u8>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        // Only reachable through re-entrance, which the code never does;
        // stay correct anyway.
        Err(_) => f(&mut Scratch::default()),
    })
}

// --- pipeline -------------------------------------------------------------------

fn canonicalize(url: &[u8], out: &mut Vec<u8>, scratch: &mut Scratch) -> Result<(), SurtError> {
    if url.is_empty() {
        out.push(b'-');
        return Ok(());
    }
    // ARC file headers are keyed by their own URL (checked before trimming).
    if url.starts_with(b"filedesc") {
        out.extend_from_slice(url);
        return Ok(());
    }

    if let Some(simple) = SimpleHttpUrl::parse(url) {
        push_simple_http(
            &simple,
            out,
            &mut scratch.query_args,
            &mut scratch.query_tmp,
        );
        return Ok(());
    }
    canonicalize_general(url, out, scratch)
}

/// The whole pipeline, for any non-empty input other than `filedesc…`.
fn canonicalize_general(
    url: &[u8],
    out: &mut Vec<u8>,
    scratch: &mut Scratch,
) -> Result<(), SurtError> {
    let Scratch {
        cleaned,
        host_buf,
        host_tmp,
        unescaped,
        normalized,
        segments,
        query_args,
        query_tmp,
        ..
    } = scratch;
    let url = clean_whitespace(url, cleaned);
    if url.is_empty() {
        return Err(SurtError::BlankUrl);
    }
    let parts = UrlParts::parse(url)?;

    let host = match parts.host {
        Some(raw) => canonical_host(raw, parts.scheme, host_buf, host_tmp, unescaped),
        None => &b""[..],
    };
    let has_host = !host.is_empty();

    if has_host {
        push_reversed_labels(host, out);
        if let Some(port) = parts
            .port
            .filter(|&p| Some(p) != default_port(parts.scheme))
        {
            push_port(port, out);
        }
        out.push(b')');
    } else {
        out.extend_from_slice(parts.scheme);
        out.push(b':');
    }

    let path_start = out.len();
    push_path(parts.path, has_host, out, unescaped, normalized, segments);
    let path_is_empty = out.len() == path_start;

    let query_start = out.len();
    if push_query(parts.query, out, unescaped, query_args, query_tmp) && path_is_empty {
        // A query needs a path in front of it.
        out.insert(query_start, b'/');
    }
    Ok(())
}

// --- fast path ----------------------------------------------------------------------

/// Byte classes for the fast path: bytes of a simple host label
/// (`[A-Za-z0-9_-]`), and bytes that need no escaping (printable ASCII
/// except `#` and `%`), which a simple query may contain and a simple path
/// too, except `(` (ASP.NET session ids) and `?`.
const SIMPLE_HOST: u8 = 1;
const SIMPLE_QUERY: u8 = 2;
const SIMPLE_PATH: u8 = 4;

static SIMPLE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut class = 0;
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            class |= SIMPLE_HOST;
        }
        if !needs_escape(b) {
            class |= SIMPLE_QUERY;
            if b != b'(' && b != b'?' {
                class |= SIMPLE_PATH;
            }
        }
        table[i] = class;
        i += 1;
    }
    table
};

fn is_class(b: u8, class: u8) -> bool {
    SIMPLE_CLASS[usize::from(b)] & class != 0
}

/// The parts of a URL the fast path can take, borrowed from the input.
struct SimpleHttpUrl<'a> {
    host: &'a [u8],
    port: Option<u16>,
    default_port: u16,
    path: &'a [u8],
    query: &'a [u8],
}

impl<'a> SimpleHttpUrl<'a> {
    /// Accepts `http(s)://host[:port][/path][?query][#…]` when nothing in it
    /// needs trimming, unescaping, escaping, IDNA, IP or dot-segment
    /// handling (see the conditions on each part).
    fn parse(url: &'a [u8]) -> Option<Self> {
        let (default_port, rest) = if let Some(rest) = url.strip_prefix(b"http://") {
            (80, rest)
        } else {
            (443, url.strip_prefix(b"https://")?)
        };
        if rest.starts_with(b"http://") || rest.starts_with(b"https://") {
            return None;
        }

        let host = &rest[..simple_host_len(rest)?];
        let mut rest = &rest[host.len()..];
        let mut port = None;
        if let Some(after_colon) = rest.strip_prefix(b":") {
            let digits = after_colon
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if !(1..=5).contains(&digits) {
                return None;
            }
            port = parse_port(&after_colon[..digits]).ok()?;
            rest = &after_colon[digits..];
        }

        let path = &rest[..simple_path_len(rest)?];
        rest = &rest[path.len()..];
        let mut query = &b""[..];
        if let Some(after_mark) = rest.strip_prefix(b"?") {
            let len = after_mark
                .iter()
                .position(|&b| !is_class(b, SIMPLE_QUERY))
                .unwrap_or(after_mark.len());
            query = &after_mark[..len];
            rest = &after_mark[len..];
        }
        // Whatever follows `#` is dropped, whitespace and all.
        if !(rest.is_empty() || rest[0] == b'#') {
            return None;
        }
        Some(SimpleHttpUrl {
            host,
            port,
            default_port,
            path,
            query,
        })
    }
}

/// Length of the host at the start of `s` if it is simple: dot-separated
/// non-empty labels of [`SIMPLE_HOST`] bytes, not all digits (so not an IP
/// address). Such a host is only lower-cased by the general pipeline.
fn simple_host_len(s: &[u8]) -> Option<usize> {
    let mut after_dot = true; // also rejects a leading dot
    let mut numeric = true;
    let mut len = 0;
    for &b in s {
        if b == b'.' {
            if after_dot {
                return None;
            }
            after_dot = true;
        } else if is_class(b, SIMPLE_HOST) {
            after_dot = false;
            numeric &= b.is_ascii_digit();
        } else {
            break;
        }
        len += 1;
    }
    (!after_dot && !numeric).then_some(len)
}

/// Length of the path at the start of `s` if it is simple: empty, or `/`
/// and [`SIMPLE_PATH`] bytes without a segment that is empty or starts with
/// a dot (so there is nothing to resolve).
fn simple_path_len(s: &[u8]) -> Option<usize> {
    if s.first() != Some(&b'/') {
        return Some(0);
    }
    let mut after_slash = true;
    let mut len = 1;
    for &b in &s[1..] {
        if !is_class(b, SIMPLE_PATH) {
            break;
        }
        if after_slash && (b == b'.' || b == b'/') {
            return None;
        }
        after_slash = b == b'/';
        len += 1;
    }
    Some(len)
}

/// Writes the key of a URL the fast path accepted; the same bytes as the
/// general pipeline, without its intermediate buffers.
fn push_simple_http(
    url: &SimpleHttpUrl,
    out: &mut Vec<u8>,
    args: &mut Vec<(usize, usize)>,
    tmp: &mut Vec<u8>,
) {
    let host_start = out.len();
    let host = url.host;
    let www = if host.len() > 3 && host[..3].eq_ignore_ascii_case(b"www") {
        www_prefix_len_after_www(host)
    } else {
        0
    };
    push_reversed_labels(&host[www..], out);
    out[host_start..].make_ascii_lowercase();
    if let Some(port) = url.port.filter(|&p| p != url.default_port) {
        push_port(port, out);
    }
    out.push(b')');

    let path_start = out.len();
    match url.path {
        b"" => out.push(b'/'),
        path => {
            let keep = if path.len() > 1 && path.ends_with(b"/") {
                path.len() - 1
            } else {
                path.len()
            };
            out.extend_from_slice(&path[..keep]);
            out[path_start..].make_ascii_lowercase();
        }
    }

    if !url.query.is_empty() {
        out.push(b'?');
        let query_start = out.len();
        out.extend_from_slice(url.query);
        out[query_start..].make_ascii_lowercase();
        finish_query(out, query_start, args, tmp);
    }
}

/// Trims ASCII whitespace (as Python's `bytes.strip()`: `\t\n\v\f\r` and
/// space) and deletes every `\t`, `\r` and `\n` left inside.
fn clean_whitespace<'a>(url: &'a [u8], buf: &'a mut Vec<u8>) -> &'a [u8] {
    let is_space = |b: &u8| matches!(b, b'\t'..=b'\r' | b' ');
    let start = url.iter().position(|b| !is_space(b)).unwrap_or(url.len());
    let end = url
        .iter()
        .rposition(|b| !is_space(b))
        .map_or(start, |i| i + 1);
    let url = &url[start..end];
    if memchr3(b'\t', b'\r', b'\n', url).is_none() {
        return url;
    }
    buf.clear();
    buf.extend(
        url.iter()
            .copied()
            .filter(|b| !matches!(b, b'\t' | b'\r' | b'\n')),
    );
    buf
}

/// The components of a URL as the reference's parser sees them.
#[derive(Debug)]
struct UrlParts<'a> {
    /// As written (not lower-cased); `http` when the URL has no scheme.
    scheme: &'a [u8],
    /// Raw host name; `None` when absent or empty.
    host: Option<&'a [u8]>,
    /// `None` when absent or 0.
    port: Option<u16>,
    path: &'a [u8],
    query: &'a [u8],
}

impl<'a> UrlParts<'a> {
    fn parse(url: &'a [u8]) -> Result<Self, SurtError> {
        let (scheme, authority, rest) = split_scheme_and_authority(url);

        let path_end = rest
            .iter()
            .position(|&b| b == b'?' || b == b'#')
            .unwrap_or(rest.len());
        let mut path = &rest[..path_end];
        let query = match rest.get(path_end) {
            Some(b'?') => {
                let query = &rest[path_end + 1..];
                &query[..find_byte(b'#', query).unwrap_or(query.len())]
            }
            _ => &b""[..],
        };

        let (mut host, port) = match authority {
            Some(authority) => split_host_and_port(authority)?,
            None => (None, None),
        };

        // `http:////www.example.com/` and `http:example.com/`: an http(s)
        // URL without a host takes it from the start of the path.
        if scheme.starts_with(b"http") && host.is_none() && !path.is_empty() {
            let trimmed = &path[path.iter().position(|&b| b != b'/').unwrap_or(path.len())..];
            let host_end = find_byte(b'/', trimmed).unwrap_or(trimmed.len());
            host = Some(&trimmed[..host_end]).filter(|h| !h.is_empty());
            path = if host_end < trimmed.len() {
                &trimmed[host_end..]
            } else {
                b"/"
            };
        }

        Ok(UrlParts {
            scheme,
            host,
            port,
            path,
            query,
        })
    }
}

/// Returns (scheme, authority if `//` follows the scheme, rest).
fn split_scheme_and_authority(url: &[u8]) -> (&[u8], Option<&[u8]>, &[u8]) {
    let Some(scheme_len) = scheme_len(url) else {
        // No scheme: the reference prefixes `http://`.
        return with_authority(b"http", url);
    };
    if let Some((scheme, authority_start)) = last_http_prefix(url) {
        return with_authority(scheme, &url[authority_start..]);
    }
    let scheme = &url[..scheme_len];
    let rest = &url[scheme_len + 1..];
    match rest.strip_prefix(b"//") {
        Some(rest) => with_authority(scheme, rest),
        None => (scheme, None, rest),
    }
}

/// `http://https://example.com/` counts as `https://example.com/`: returns
/// the scheme of the last of the repeated `http://`/`https://` prefixes and
/// where the authority after it starts.
fn last_http_prefix(url: &[u8]) -> Option<(&[u8], usize)> {
    let mut last = None;
    let mut pos = 0;
    loop {
        let rest = &url[pos..];
        let scheme_len = if rest.starts_with(b"http://") {
            4
        } else if rest.starts_with(b"https://") {
            5
        } else {
            return last;
        };
        last = Some((&url[pos..pos + scheme_len], pos + scheme_len + 3));
        pos += scheme_len + 3;
    }
}

/// Splits what follows `//` into the authority and the rest.
fn with_authority<'a>(scheme: &'a [u8], rest: &'a [u8]) -> (&'a [u8], Option<&'a [u8]>, &'a [u8]) {
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    (scheme, Some(&rest[..end]), &rest[end..])
}

/// Length of a leading `[a-zA-Z][a-zA-Z0-9+.-]*` followed by `:`.
fn scheme_len(url: &[u8]) -> Option<usize> {
    if !url.first()?.is_ascii_alphabetic() {
        return None;
    }
    let len = url
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
        .unwrap_or(url.len());
    (url.get(len) == Some(&b':')).then_some(len)
}

/// Splits an authority the way `urllib.parse` reads `hostname` and `port`.
fn split_host_and_port(authority: &[u8]) -> Result<(Option<&[u8]>, Option<u16>), SurtError> {
    // A host followed by a bare `:` has no port.
    let authority_end = authority
        .iter()
        .rposition(|&b| b != b':')
        .map_or(0, |i| i + 1);
    let authority = &authority[..authority_end];
    // User info ends at the last `@`.
    let host_and_port = match rfind_byte(b'@', authority) {
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    let (host, port) = match find_byte(b'[', host_and_port) {
        // `[v6]:port`; anything before `[` is ignored.
        Some(open) => {
            let bracketed = &host_and_port[open + 1..];
            match find_byte(b']', bracketed) {
                Some(close) => {
                    let after = &bracketed[close + 1..];
                    let port = find_byte(b':', after).map_or(&b""[..], |c| &after[c + 1..]);
                    (&bracketed[..close], port)
                }
                None => (bracketed, &b""[..]),
            }
        }
        None => match find_byte(b':', host_and_port) {
            Some(colon) => (&host_and_port[..colon], &host_and_port[colon + 1..]),
            None => (host_and_port, &b""[..]),
        },
    };
    let port = if port.is_empty() {
        None
    } else {
        parse_port(port)?
    };
    Ok((Some(host).filter(|h| !h.is_empty()), port))
}

/// A port of ASCII digits in 0..=65535 (leading zeros allowed); 0 means none.
fn parse_port(digits: &[u8]) -> Result<Option<u16>, SurtError> {
    let mut value: u32 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return Err(SurtError::InvalidPort);
        }
        value = value * 10 + u32::from(b - b'0');
        if value > u32::from(u16::MAX) {
            return Err(SurtError::InvalidPort);
        }
    }
    Ok(Some(value as u16).filter(|&p| p != 0))
}

fn default_port(scheme: &[u8]) -> Option<u16> {
    if scheme.eq_ignore_ascii_case(b"http") {
        Some(80)
    } else if scheme.eq_ignore_ascii_case(b"https") {
        Some(443)
    } else {
        None
    }
}

// --- host -------------------------------------------------------------------------

/// The canonical host, lower-case and escaped, `www.` stripped; may be empty.
fn canonical_host<'a>(
    raw: &'a [u8],
    scheme: &[u8],
    buf: &'a mut Vec<u8>,
    tmp: &mut Vec<u8>,
    unescaped: &mut Vec<u8>,
) -> &'a [u8] {
    let host: &'a [u8] = if is_plain_host(raw) {
        // Common case: nothing to unescape, encode, collapse or escape, and it
        // cannot be an IP address; only lower-case it.
        if raw.iter().any(u8::is_ascii_uppercase) {
            buf.clear();
            buf.extend(raw.iter().map(u8::to_ascii_lowercase));
            buf
        } else {
            raw
        }
    } else {
        build_canonical_host(raw, buf, tmp, unescaped);
        buf
    };
    // The reference leaves `www` alone for `dns` (exact, case-sensitive match).
    if scheme == b"dns" {
        host
    } else {
        &host[www_prefix_len(host)..]
    }
}

/// True if the host is printable ASCII without `%`, has no empty label and is
/// not made of digits and dots only (those may be IP addresses).
fn is_plain_host(host: &[u8]) -> bool {
    let mut has_non_numeric = false;
    for &b in host {
        if needs_escape(b) {
            return false;
        }
        has_non_numeric |= !(b.is_ascii_digit() || b == b'.');
    }
    has_non_numeric
        && host.first() != Some(&b'.')
        && host.last() != Some(&b'.')
        && !contains(host, b"..")
}

/// The general host pipeline: unescape, IDNA, collapse dots, IPv4, escape.
fn build_canonical_host(raw: &[u8], out: &mut Vec<u8>, tmp: &mut Vec<u8>, unescaped: &mut Vec<u8>) {
    unescaped.clear();
    unescape_repeatedly(raw, unescaped);
    let mut host: &[u8] = unescaped;
    if !host.is_ascii() {
        tmp.clear();
        // A host IDNA rejects is kept as it is (and escaped below).
        if idna2003::host_to_ascii(host, tmp) {
            host = tmp;
        }
    }
    out.clear();
    collapse_dots(host, out);
    if let Some(ip) = parse_ipv4(out) {
        out.clear();
        push_dotted_quad(ip, out);
    } else if out
        .iter()
        .any(|&b| needs_escape(b) || b.is_ascii_uppercase())
    {
        std::mem::swap(out, tmp);
        out.clear();
        push_escaped_lowercase(tmp, out);
    }
}

/// Replaces `..` by `.` in one left-to-right pass (so `...` becomes `..`),
/// then strips dots from both ends, like `replace(b'..', b'.').strip(b'.')`.
fn collapse_dots(host: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < host.len() {
        out.push(host[i]);
        i += if host[i] == b'.' && host.get(i + 1) == Some(&b'.') {
            2
        } else {
            1
        };
    }
    let end = out.iter().rposition(|&b| b != b'.').map_or(0, |i| i + 1);
    out.truncate(end);
    let start = out.iter().position(|&b| b != b'.').unwrap_or(out.len());
    out.drain(..start);
}

/// Length of a leading `www\d*.`, or 0.
fn www_prefix_len(host: &[u8]) -> usize {
    if host.starts_with(b"www") {
        www_prefix_len_after_www(host)
    } else {
        0
    }
}

/// Length of `www\d*.` at the start of a host known to start with `www`
/// (in any case), or 0.
fn www_prefix_len_after_www(host: &[u8]) -> usize {
    let digits = host[3..].iter().take_while(|b| b.is_ascii_digit()).count();
    if host.get(3 + digits) == Some(&b'.') {
        4 + digits
    } else {
        0
    }
}

/// Writes `a.b.c` as `c,b,a`.
fn push_reversed_labels(host: &[u8], out: &mut Vec<u8>) {
    let mut end = host.len();
    while let Some(dot) = rfind_byte(b'.', &host[..end]) {
        out.extend_from_slice(&host[dot + 1..end]);
        out.push(b',');
        end = dot;
    }
    out.extend_from_slice(&host[..end]);
}

/// Writes `:port`.
fn push_port(port: u16, out: &mut Vec<u8>) {
    out.push(b':');
    let mut digits = [0u8; 5];
    let mut n = port;
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

// --- IPv4 -------------------------------------------------------------------------

/// The numeric host forms the reference turns into a dotted quad.
///
/// All digits: the number modulo 2^32. Otherwise, up to four dot-separated
/// digit groups that are either decimal-led (`[1-9]…`) or all octal digits
/// with a leading `0`, resolved like glibc's `inet_aton` (a leading `0`
/// means octal; the last group fills the remaining bytes). Anything else, or
/// a value `inet_aton` rejects, is not an address.
fn parse_ipv4(host: &[u8]) -> Option<u32> {
    if host.is_empty() {
        return None;
    }
    if host.iter().all(u8::is_ascii_digit) {
        return Some(host.iter().fold(0u32, |acc, &b| {
            acc.wrapping_mul(10).wrapping_add(u32::from(b - b'0'))
        }));
    }
    if !looks_like_dotted_number(host) {
        return None;
    }
    inet_aton(host)
}

/// The two patterns the reference checks before resolving a host:
/// `[1-9][0-9]*(\.[0-9]+){0,3}` or `0[0-7]*(\.[0-7]+){0,3}`.
fn looks_like_dotted_number(host: &[u8]) -> bool {
    let mut groups = 0;
    for group in host.split(|&b| b == b'.') {
        groups += 1;
        if group.is_empty() || groups > 4 || !group.iter().all(u8::is_ascii_digit) {
            return false;
        }
    }
    host[0] != b'0'
        || host
            .iter()
            .all(|&b| b == b'.' || (b'0'..=b'7').contains(&b))
}

/// glibc `inet_aton` (strict: no trailing characters) on digit groups.
/// (The reference's pattern would also accept a trailing newline, from
/// `%0A`, but then the lookup fails, so it is not an address here either.)
fn inet_aton(host: &[u8]) -> Option<u32> {
    let mut groups = [0u32; 4];
    let mut count = 0;
    for group in host.split(|&b| b == b'.') {
        groups[count] = parse_c_number(group)?;
        count += 1;
    }
    let (last, leading) = (groups[count - 1], &groups[..count - 1]);
    if leading.iter().any(|&g| g > 0xFF) {
        return None;
    }
    let max_last = u32::MAX >> (8 * leading.len());
    if last > max_last {
        return None;
    }
    let mut address = 0u32;
    for (i, &g) in leading.iter().enumerate() {
        address |= g << (24 - 8 * i);
    }
    Some(address | last)
}

/// `strtoul(s, NULL, 0)` on a digit group: octal with a leading `0`, else
/// decimal; `None` for invalid octal digits or values above 32 bits.
fn parse_c_number(digits: &[u8]) -> Option<u32> {
    let radix = if digits.len() > 1 && digits[0] == b'0' {
        8
    } else {
        10
    };
    let mut value: u64 = 0;
    for &b in digits {
        let d = u64::from(b - b'0');
        if d >= radix {
            return None;
        }
        value = value * radix + d;
        if value > u64::from(u32::MAX) {
            return None;
        }
    }
    Some(value as u32)
}

fn push_dotted_quad(ip: u32, out: &mut Vec<u8>) {
    for (i, byte) in ip.to_be_bytes().into_iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        if byte >= 100 {
            out.push(b'0' + byte / 100);
        }
        if byte >= 10 {
            out.push(b'0' + byte / 10 % 10);
        }
        out.push(b'0' + byte % 10);
    }
}

// --- path -------------------------------------------------------------------------

fn push_path(
    path: &[u8],
    has_host: bool,
    out: &mut Vec<u8>,
    unescaped: &mut Vec<u8>,
    normalized: &mut Vec<u8>,
    segments: &mut Vec<(usize, usize)>,
) {
    let path = unescape_if_needed(path, unescaped);
    // Without a host the "path" is free-form (`mailto:`, `dns:`, …).
    let path = if has_host {
        normalize_path(path, normalized, segments)
    } else {
        path
    };
    let start = out.len();
    push_escaped_lowercase(path, out);
    strip_path_session_id(out, start);
    if out.len() - start > 1 && out.last() == Some(&b'/') {
        out.pop();
    }
}

/// Resolves `.` and `..` segments and drops empty ones (except a trailing
/// one), the reference's way: the part before the first `/` is dropped, a
/// `..` with nothing left to remove is kept, an empty path becomes `/`.
fn normalize_path<'a>(
    path: &'a [u8],
    buf: &'a mut Vec<u8>,
    kept: &mut Vec<(usize, usize)>,
) -> &'a [u8] {
    if path.is_empty() {
        return b"/";
    }
    if path[0] == b'/' && !has_dot_or_empty_segment(path) {
        return path;
    }
    kept.clear();
    let mut start = match find_byte(b'/', path) {
        Some(slash) => slash + 1,
        None => path.len() + 1, // a single segment, which is dropped
    };
    while start <= path.len() {
        let end = find_byte(b'/', &path[start..]).map_or(path.len(), |i| start + i);
        match &path[start..end] {
            b"." => {}
            b".." if !kept.is_empty() => {
                kept.pop();
            }
            _ => kept.push((start, end)),
        }
        start = end + 1;
    }
    buf.clear();
    buf.push(b'/');
    if let Some((&(last_start, last_end), rest)) = kept.split_last() {
        for &(s, e) in rest.iter().filter(|(s, e)| e > s) {
            buf.extend_from_slice(&path[s..e]);
            buf.push(b'/');
        }
        buf.extend_from_slice(&path[last_start..last_end]);
    }
    buf
}

/// True if a segment after the first `/` is `.`, `..`, or empty but not last.
fn has_dot_or_empty_segment(path: &[u8]) -> bool {
    let mut slashes = memchr::memchr_iter(b'/', path);
    if !slashes.any(|i| matches!(path.get(i + 1), Some(b'.' | b'/'))) {
        return false;
    }
    let mut segments = path.split(|&b| b == b'/').skip(1).peekable();
    while let Some(segment) = segments.next() {
        let is_last = segments.peek().is_none();
        if segment == b"." || segment == b".." || (segment.is_empty() && !is_last) {
            return true;
        }
    }
    false
}

/// Removes an ASP.NET cookieless session segment, `/(s(…24…))/` or
/// `/(…24…)/`, from a lower-cased path when an `.aspx` page follows it.
fn strip_path_session_id(out: &mut Vec<u8>, start: usize) {
    let path = &out[start..];
    if find_byte(b'(', path).is_none() || !contains(path, b".aspx") {
        return;
    }
    for segment_len in [
        multi_session_segment_len as fn(&[u8]) -> Option<usize>,
        single_session_segment_len,
    ] {
        let path = &out[start..];
        if let Some((from, to)) = find_path_session_segment(path, segment_len) {
            out.drain(start + from..start + to);
        }
    }
}

/// The last session segment (as `(from, to)`) that starts right after a `/`
/// and is followed by `[^?]+\.aspx`.
fn find_path_session_segment(
    path: &[u8],
    segment_len: fn(&[u8]) -> Option<usize>,
) -> Option<(usize, usize)> {
    let mut end = path.len();
    while let Some(slash) = rfind_byte(b'/', &path[..end]) {
        let from = slash + 1;
        if let Some(len) = segment_len(&path[from..]) {
            let to = from + len;
            let page = &path[to..];
            let before_query = &page[..find_byte(b'?', page).unwrap_or(page.len())];
            if before_query.len() > 1 && contains(&before_query[1..], b".aspx") {
                return Some((from, to));
            }
        }
        end = slash;
    }
    None
}

/// `\((?:[a-z]\([0-9a-z]{24}\))+\)/` at the start of `s`: its length.
fn multi_session_segment_len(s: &[u8]) -> Option<usize> {
    if s.first() != Some(&b'(') {
        return None;
    }
    let mut pos = 1;
    let mut ids = 0;
    // Each id is a letter, `(`, 24 letters or digits, `)`.
    while s.get(pos).is_some_and(u8::is_ascii_alphabetic) {
        let id = s.get(pos + 1..pos + 27)?;
        if id[0] != b'(' || id[25] != b')' || !id[1..25].iter().all(u8::is_ascii_alphanumeric) {
            return None;
        }
        pos += 27;
        ids += 1;
    }
    (ids > 0 && s.get(pos..pos + 2) == Some(b")/")).then_some(pos + 2)
}

/// `\([0-9a-z]{24}\)/` at the start of `s`: its length.
fn single_session_segment_len(s: &[u8]) -> Option<usize> {
    let segment = s.get(..27)?;
    (segment[0] == b'('
        && segment[1..25].iter().all(u8::is_ascii_alphanumeric)
        && &segment[25..] == b")/")
        .then_some(27)
}

// --- query ------------------------------------------------------------------------

/// Writes `?query` if the canonical query is not empty; returns whether it did.
fn push_query(
    query: &[u8],
    out: &mut Vec<u8>,
    unescaped: &mut Vec<u8>,
    args: &mut Vec<(usize, usize)>,
    tmp: &mut Vec<u8>,
) -> bool {
    if query.is_empty() {
        return false;
    }
    out.push(b'?');
    let start = out.len();
    push_escaped_lowercase(unescape_if_needed(query, unescaped), out);
    finish_query(out, start, args, tmp)
}

/// Drops session ids from the escaped, lower-cased query at `out[start..]`
/// and sorts its arguments; removes the `?` before it if nothing is left.
/// Returns whether a query remains.
fn finish_query(
    out: &mut Vec<u8>,
    start: usize,
    args: &mut Vec<(usize, usize)>,
    tmp: &mut Vec<u8>,
) -> bool {
    // The reference matches session ids case-insensitively before it
    // lower-cases, so matching after lower-casing finds the same spans.
    // Every session-id literal contains `id`; most queries can skip the search.
    if contains(&out[start..], b"id") {
        for pattern in QUERY_SESSION_IDS {
            strip_query_session_id(out, start, pattern);
        }
    }
    sort_query_args(out, start, args, tmp);
    if out.len() == start {
        out.pop();
        return false;
    }
    true
}

/// The shape of one session-id argument.
#[derive(Clone, Copy)]
enum SessionIdPattern {
    /// `name` followed by exactly `len` ASCII letters and digits.
    Alphanumeric { name: &'static [u8], len: usize },
    /// `aspsessionid` + 8 letters + `=` + 24 letters.
    AspSessionId,
    /// `cfid=…&cftoken=…` with non-empty values.
    ColdFusion,
}

const QUERY_SESSION_IDS: [SessionIdPattern; 5] = [
    SessionIdPattern::Alphanumeric {
        name: b"jsessionid=",
        len: 32,
    },
    SessionIdPattern::Alphanumeric {
        name: b"phpsessid=",
        len: 32,
    },
    SessionIdPattern::Alphanumeric {
        name: b"sid=",
        len: 32,
    },
    SessionIdPattern::AspSessionId,
    SessionIdPattern::ColdFusion,
];

impl SessionIdPattern {
    fn literal(self) -> &'static [u8] {
        match self {
            SessionIdPattern::Alphanumeric { name, .. } => name,
            SessionIdPattern::AspSessionId => b"aspsessionid",
            SessionIdPattern::ColdFusion => b"cfid=",
        }
    }

    /// End of the session id if one starts at the beginning of `s`.
    fn match_len(self, s: &[u8]) -> Option<usize> {
        let lit = self.literal();
        if !s.starts_with(lit) {
            return None;
        }
        match self {
            SessionIdPattern::Alphanumeric { len, .. } => {
                let value = s.get(lit.len()..lit.len() + len)?;
                value
                    .iter()
                    .all(u8::is_ascii_alphanumeric)
                    .then_some(lit.len() + len)
            }
            SessionIdPattern::AspSessionId => {
                let rest = s.get(lit.len()..lit.len() + 33)?;
                let ok = rest[..8].iter().all(u8::is_ascii_alphabetic)
                    && rest[8] == b'='
                    && rest[9..].iter().all(u8::is_ascii_alphabetic);
                ok.then_some(lit.len() + 33)
            }
            SessionIdPattern::ColdFusion => {
                let id_len = s[lit.len()..]
                    .iter()
                    .position(|&b| b == b'&')
                    .unwrap_or(s.len() - lit.len());
                let after_id = lit.len() + id_len;
                if id_len == 0 || !s[after_id..].starts_with(b"&cftoken=") {
                    return None;
                }
                let token_start = after_id + b"&cftoken=".len();
                let token_len = find_byte(b'&', &s[token_start..]).unwrap_or(s.len() - token_start);
                (token_len > 0).then_some(token_start + token_len)
            }
        }
    }
}

/// Removes the last occurrence of a session id that ends the query or is
/// followed by `&`, as `^(.*)ID(?:&(.*))?$` → `\1\2` does: the `&` before it
/// stays, the one after it goes.
fn strip_query_session_id(out: &mut Vec<u8>, start: usize, pattern: SessionIdPattern) {
    let query = &out[start..];
    let mut search_end = query.len();
    while let Some(at) = rfind(&query[..search_end], pattern.literal()) {
        if let Some(len) = pattern.match_len(&query[at..]) {
            let end = at + len;
            if end == query.len() || query[end] == b'&' {
                let keeps_rest = end + 1 < query.len();
                if keeps_rest {
                    out.drain(start + at..start + end + 1);
                } else {
                    out.truncate(start + at);
                }
                return;
            }
        }
        // The literal may also match further left, even overlapping.
        search_end = at + pattern.literal().len() - 1;
    }
}

/// Sorts `&`-separated arguments by (name, value), where an argument without
/// `=` sorts before the same name with one, as Python sorts the tuples from
/// `arg.split('=', 1)`.
fn sort_query_args(
    out: &mut Vec<u8>,
    start: usize,
    args: &mut Vec<(usize, usize)>,
    tmp: &mut Vec<u8>,
) {
    let query = &out[start..];
    if find_byte(b'&', query).is_none() {
        return;
    }
    args.clear();
    let mut arg_start = 0;
    for amp in memchr::memchr_iter(b'&', query) {
        args.push((arg_start, amp));
        arg_start = amp + 1;
    }
    args.push((arg_start, query.len()));

    let arg = |&(s, e): &(usize, usize)| &query[s..e];
    if args
        .windows(2)
        .all(|w| compare_query_args(arg(&w[0]), arg(&w[1])) != Ordering::Greater)
    {
        return;
    }
    // Arguments that compare equal are identical, so stability is moot.
    args.sort_unstable_by(|a, b| compare_query_args(arg(a), arg(b)));
    tmp.clear();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            tmp.push(b'&');
        }
        tmp.extend_from_slice(arg(a));
    }
    out.truncate(start);
    out.extend_from_slice(tmp);
}

fn compare_query_args(a: &[u8], b: &[u8]) -> Ordering {
    let (a_name, a_value) = split_query_arg(a);
    let (b_name, b_value) = split_query_arg(b);
    a_name.cmp(b_name).then_with(|| a_value.cmp(&b_value))
}

/// `name=value` → (name, Some(value)); `name` → (name, None).
fn split_query_arg(arg: &[u8]) -> (&[u8], Option<&[u8]>) {
    match find_byte(b'=', arg) {
        Some(eq) => (&arg[..eq], Some(&arg[eq + 1..])),
        None => (arg, None),
    }
}

// --- byte-string search ------------------------------------------------------------

// URL components are short: below a few dozen bytes a plain loop beats the
// set-up of `memchr`, and a scan for the first byte beats building a
// substring searcher for each call.

const SHORT: usize = 32;

fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    if haystack.len() < SHORT {
        haystack.iter().position(|&b| b == needle)
    } else {
        memchr::memchr(needle, haystack)
    }
}

fn rfind_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    if haystack.len() < SHORT {
        haystack.iter().rposition(|&b| b == needle)
    } else {
        memchr::memrchr(needle, haystack)
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w[0] == needle[0] && w == needle)
}

/// Start of the last occurrence of `needle` in `haystack`.
fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memrchr_iter(needle[0], haystack).find(|&i| haystack[i..].starts_with(needle))
}

// --- escaping ---------------------------------------------------------------------

/// Bytes the reference escapes: controls, space, `#`, `%`, DEL and non-ASCII
/// (everything else printable is in its "safe" set).
const fn needs_escape(b: u8) -> bool {
    b <= b' ' || b == b'#' || b == b'%' || b >= 0x7F
}

/// For each byte: 0 = copy, 1 = lower-case, 2 = escape.
static ESCAPE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = if needs_escape(b as u8) {
            2
        } else if (b as u8).is_ascii_uppercase() {
            1
        } else {
            0
        };
        b += 1;
    }
    table
};

/// Escapes (`%xx`, lower-case hex) and lower-cases ASCII letters in one
/// pass: the reference escapes with upper-case hex and then lower-cases the
/// whole component.
fn push_escaped_lowercase(input: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(input.len());
    let mut rest = input;
    loop {
        // Copy the longest run that needs neither escaping nor lower-casing.
        let run = rest
            .iter()
            .position(|&b| ESCAPE_CLASS[usize::from(b)] != 0)
            .unwrap_or(rest.len());
        out.extend_from_slice(&rest[..run]);
        let Some(&b) = rest.get(run) else { break };
        if ESCAPE_CLASS[usize::from(b)] == 2 {
            out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xF)]]);
        } else {
            out.push(b.to_ascii_lowercase());
        }
        rest = &rest[run + 1..];
    }
}

fn unescape_if_needed<'a>(input: &'a [u8], buf: &'a mut Vec<u8>) -> &'a [u8] {
    if find_byte(b'%', input).is_none() {
        return input;
    }
    buf.clear();
    unescape_repeatedly(input, buf);
    buf
}

/// Decodes `%XX` until none is left, as repeated `unquote_to_bytes` does
/// (`%2541` → `%41` → `A`), in a single pass: a decoded byte can only
/// complete a new escape together with the two bytes before it.
fn unescape_repeatedly(input: &[u8], out: &mut Vec<u8>) {
    for &b in input {
        out.push(b);
        while let [.., b'%', hi, lo] = out[..] {
            let (Some(hi), Some(lo)) = (hex_value(hi), hex_value(lo)) else {
                break;
            };
            out.truncate(out.len() - 3);
            out.push(hi << 4 | lo);
        }
    }
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cases: &[(&str, &str)]) {
        let failures: Vec<String> = cases
            .iter()
            .filter(|(input, expected)| surt(input) != *expected)
            .map(|(input, expected)| {
                format!("{input:?}: expected {expected:?}, got {:?}", surt(input))
            })
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn empty_and_pass_through() {
        check(&[
            ("", "-"),
            (
                "filedesc://IA-001.arc.gz 0.0.0.0 2008",
                "filedesc://IA-001.arc.gz 0.0.0.0 2008",
            ),
            ("dns:alexa.com", "dns:alexa.com"),
            ("mailto:Foo@Example.COM", "mailto:foo@example.com"),
            ("warcinfo:Foo.warc.gz", "warcinfo:foo.warc.gz"),
        ]);
    }

    #[test]
    fn errors_fall_back_to_the_input() {
        assert_eq!(try_surt("  \t "), Err(SurtError::BlankUrl));
        assert_eq!(try_surt("http://host:abc/"), Err(SurtError::InvalidPort));
        assert_eq!(try_surt("http://host:65536/"), Err(SurtError::InvalidPort));
        assert_eq!(surt("http://host:abc/"), "http://host:abc/");
        let mut out = b"kept ".to_vec();
        assert!(surt_bytes_into(b"http://h:x/", &mut out).is_err());
        assert_eq!(out, b"kept ");
    }

    #[test]
    fn scheme_and_whitespace() {
        check(&[
            ("www.example.com/foo", "com,example)/foo"),
            ("//foo/bar", "foo)/bar"),
            ("\u{b}http://a/\u{c}", "a)/"),
            ("http://a/\u{1c}", "a)/%1c"),
            (" http://ex\tam\nple.com/a b ", "com,example)/a%20b"),
            ("http://http://https://x.com/", "com,x)/"),
            ("http:////www.vikings.com", "com,vikings)/"),
            ("https:example.com/x", "com,example)/x"),
            ("http:///", "http:/"),
            ("http:?x", "http:/?x"),
            ("HTTP://WWW.FOO.COM:80/A", "com,foo)/a"),
        ]);
    }

    #[test]
    fn host_forms() {
        check(&[
            ("http://user:pw@Host.COM:8080/", "com,host:8080)/"),
            ("https://example.com:443/", "com,example)/"),
            ("http://example.com:443/", "com,example:443)/"),
            ("http://www2.example.com/", "com,example)/"),
            ("http://www.www.example.com/", "com,example,www)/"),
            ("dns://www.foo.com/", "com,foo,www)/"),
            ("http://a..b...c/", "c,,b,a)/"),
            ("http://.example.com./", "com,example)/"),
            ("http://EX%41MPLE.com/", "com,example)/"),
            ("http://[::1]:8080/", "::1:8080)/"),
            ("http://%FF/x", "http:/x"),
        ]);
    }

    #[test]
    fn ipv4_forms() {
        check(&[
            ("http://192.168.1.254/info/", "254,1,168,192)/info"),
            ("http://3232235777/", "1,1,168,192)/"),
            ("http://1.2.3/", "3,0,2,1)/"),
            ("http://0177.0.0.1/", "1,0,0,127)/"),
            ("http://1.2.3.04/", "4,3,2,1)/"),
            ("http://1.08.3.4/", "4,3,08,1)/"),
            ("http://256.1.1.1/", "1,1,1,256)/"),
            ("http://0x7f.1/", "1,0x7f)/"),
            ("http://1.2.3.4%0a/", "4%0a,3,2,1)/"),
        ]);
    }

    #[test]
    fn international_hosts() {
        check(&[
            ("http://ä.com/", "com,xn--4ca)/"),
            ("http://%C3%A4.com/", "com,xn--4ca)/"),
            ("http://straße.de/", "de,strasse)/"),
            ("http://☃.net/", "net,xn--n3h)/"),
            ("http://ä..com/", "com,%c3%a4)/"),
        ]);
    }

    #[test]
    fn paths() {
        check(&[
            ("http://a/b/./c/../../../d", "a)/../d"),
            ("http://a//b//c/", "a)/b/c"),
            ("http://a/%2541", "a)/a"),
            ("http://a/%2e%2E/x", "a)/../x"),
            ("http://a/b?", "a)/b"),
            ("http://./foo/../x", "http:/foo/../x"),
            (
                "http://a/(a(012345678901234567890123))/x.aspx?b",
                "a)/x.aspx?b",
            ),
            (
                "http://a/(012345678901234567890123)/foo.aspx",
                "a)/foo.aspx",
            ),
            (
                "http://a/(012345678901234567890123)/foo.html",
                "a)/(012345678901234567890123)/foo.html",
            ),
        ]);
    }

    #[test]
    fn queries() {
        check(&[
            ("http://a/?b&a", "a)/?a&b"),
            ("http://a/?a=2&b&a=1", "a)/?a=1&a=2&b"),
            ("http://a/?a=1&a-b", "a)/?a=1&a-b"),
            (
                "http://a/?a=1&sid=0123456789abcdef0123456789abcdef",
                "a)/?&a=1",
            ),
            (
                "http://a/?jsessionid=0123456789ABCDEF0123456789abcdef&x=1",
                "a)/?x=1",
            ),
            ("http://a/?x=1&cfid=12&cftoken=ab&y=2", "a)/?x=1&y=2"),
            ("http://a/?q=%26b%3Dc", "a)/?b=c&q="),
            ("http://a/?%", "a)/?%25"),
            ("http://a/?&&", "a)/?&&"),
        ]);
    }

    #[test]
    fn raw_bytes() {
        let key = |url: &[u8]| {
            let mut out = Vec::new();
            surt_bytes_into(url, &mut out).map(|()| out)
        };
        assert_eq!(key(b"http://a/\xff\xfe"), Ok(b"a)/%ff%fe".to_vec()));
        // IDNA decodes the host as UTF-8 ignoring errors: nothing is left.
        assert_eq!(key(b"http://\xff/x"), Ok(b"http:/x".to_vec()));
        assert_eq!(key(b"http://a\xffb.com/"), Ok(b"com,ab)/".to_vec()));
        assert_eq!(key(b"filedesc:\xff"), Ok(b"filedesc:\xff".to_vec()));
    }

    #[test]
    fn fast_path_agrees_with_the_general_pipeline() {
        let hosts = [
            "a.com",
            "WWW.Example.co.uk",
            "www12.a-b_c.d",
            "www.x",
            "wwwx.y",
            "1a.2",
            "a.b.c.d.e",
        ];
        let ports = ["", ":80", ":443", ":8080", ":0", ":00080"];
        let paths = ["", "/", "/A/b/", "/a-b~c/d.html", "/x;y=z/", "/a+b/c,d!$"];
        let queries = [
            "",
            "?",
            "?b=1&A=2",
            "?a&a=&a=1",
            "?x=/y?z",
            "?jsessionid=0123456789abcdef0123456789ABCDEF&q=1",
        ];
        let mut checked = 0;
        for scheme in ["http://", "https://"] {
            for url in hosts
                .iter()
                .flat_map(|h| ports.iter().map(move |p| format!("{scheme}{h}{p}")))
            {
                for path in paths {
                    for query in queries {
                        let url = format!("{url}{path}{query}#frag");
                        let simple =
                            SimpleHttpUrl::parse(url.as_bytes()).expect("fast path should take it");
                        let mut scratch = Scratch::default();
                        let (mut fast, mut general) = (Vec::new(), Vec::new());
                        push_simple_http(
                            &simple,
                            &mut fast,
                            &mut scratch.query_args,
                            &mut scratch.query_tmp,
                        );
                        canonicalize_general(url.as_bytes(), &mut general, &mut scratch).unwrap();
                        assert_eq!(
                            String::from_utf8(fast).unwrap(),
                            String::from_utf8(general).unwrap(),
                            "{url}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 7 * 6 * 6 * 6);
        for url in [
            "HTTP://a.com/",
            "http://1.2.3.4/",
            "http://a..b/",
            "http://a.com/./x",
            "http://a.com//x",
            "http://a.com/%41",
            "http://a.com/(x)",
            "http://u@a.com/",
            "http://a.com:/",
            "http://a.com:123456/",
            "http://a.com/ x",
            "http://http://a.com/",
            "http://ä.com/",
            "http://a.com/x\t",
        ] {
            assert!(SimpleHttpUrl::parse(url.as_bytes()).is_none(), "{url}");
        }
    }

    #[test]
    fn unescaping_is_repeated_to_a_fixed_point() {
        let mut out = Vec::new();
        unescape_repeatedly(b"%%3541%zz%2", &mut out);
        assert_eq!(out, b"T1%zz%2");
    }
}
