//! SURT keys (`warcdex_core::surt`) and pywb's use of them.
//!
//! Each property below was checked on every URL of the conformance corpus
//! (target URIs and CDX url fields) before it was asserted; properties that
//! looked plausible but do not hold for this implementation (or for the
//! Python `surt` it reproduces) are listed in fuzz/README.md.

use warcdex_core::pywb::canonicalize;
use warcdex_core::surt::{surt, surt_bytes_into, surt_into, try_surt};

/// The host part of the key of an `http(s)://` URL (before the first `)`),
/// without its percent-escapes (escaping writes upper-case hex digits).
/// Keys of other URLs may have no host: `scheme:path`, where the scheme
/// keeps its case (`DNS:alexa.com`, as the reference) and `)` can be
/// anywhere in the path.
fn host_part(url: &str, key: &str) -> Option<String> {
    let u = url.trim_start_matches(|c: char| c.is_ascii_whitespace()).as_bytes();
    let web = [&b"http://"[..], b"https://"].iter().any(|p| u.len() >= p.len() && u[..p.len()].eq_ignore_ascii_case(p));
    let host = &key[..key.find(')')?];
    if !web || host.contains('/') {
        return None;
    }
    let mut out = String::with_capacity(host.len());
    let b = host.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && b.len() >= i + 3 && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() {
            i += 3;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    Some(out)
}

/// Target `surt`: a URL (bytes, possibly not UTF-8).
///
/// Checks: the str and bytes entry points agree on UTF-8 input; a key is
/// never empty for a non-empty input; a key is ASCII (but for the
/// `filedesc` pass-through, and the input returned as is when the
/// reference would raise); the host part of an `http(s)` key has no upper-case ASCII outside
/// percent-escapes; a key does
/// not depend on what was computed before it (per-thread scratch buffers);
/// `surt_into` appends and keeps what `out` held; pywb's `canonicalize` is
/// `try_surt`, or the input for a `urn:` the SURT library rejects.
pub fn surt_target(data: &[u8]) {
    // Raw bytes, as the reference's `surt.surt(bytes)` takes them.
    let mut raw_key = Vec::new();
    let raw = surt_bytes_into(data, &mut raw_key);
    if let Ok(()) = raw {
        if !data.starts_with(b"filedesc") {
            assert!(raw_key.is_ascii(), "key of bytes {data:?} is not ASCII: {raw_key:?}");
        }
    } else {
        assert!(raw_key.is_empty(), "a failed key leaves output behind");
    }

    let url = String::from_utf8_lossy(data);
    let url = url.as_ref();
    let first = try_surt(url);
    let mut bytes_key = Vec::new();
    let from_bytes = surt_bytes_into(url.as_bytes(), &mut bytes_key).map(|()| String::from_utf8(bytes_key).expect("UTF-8 key"));
    assert_eq!(from_bytes, first, "str and bytes keys differ for {url:?}");

    let key = surt(url);
    match &first {
        Ok(k) => assert_eq!(&key, k),
        Err(_) => assert_eq!(key, url, "a URL the reference rejects is kept as it is"),
    }
    if !url.is_empty() {
        assert!(!key.is_empty(), "empty key for {url:?}");
    }
    if let Ok(k) = &first {
        if !url.starts_with("filedesc") {
            assert!(k.is_ascii(), "key of {url:?} is not ASCII: {k:?}");
            if let Some(host) = host_part(url, k) {
                assert!(!host.bytes().any(|b| b.is_ascii_uppercase()), "upper case in the host of {k:?} (from {url:?})");
            }
        }
    }

    // Another URL in between must not change the key (scratch buffers are reused).
    let other: String = url.chars().rev().collect();
    let _ = try_surt(&other);
    let _ = try_surt(&format!("HTTP://WWW.{other}:80/A/../B?b=2&a=1#x"));
    assert_eq!(try_surt(url), first, "the key of {url:?} changed after other keys");

    let mut out = String::from("prefix ");
    surt_into(url, &mut out);
    assert_eq!(out, format!("prefix {key}"));

    let expected = match &first {
        Ok(k) => Some(k.clone()),
        Err(_) if url.starts_with("urn:") => Some(url.to_string()),
        Err(_) => None,
    };
    assert_eq!(canonicalize(url), expected);
}
