//! URL parts as Common Crawl's `WarcUri` gets them from `java.net.URL` (with
//! `java.net.URI` as the fallback for schemes URL does not know): raw, not
//! decoded, the port only when written, the fragment dropped.

use std::borrow::Cow;

/// The parts of one URL. Borrowed from the URL string where possible.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct UrlParts<'a> {
    /// Lower-cased scheme (`None` without a scheme); borrowed unless the URL
    /// spells it with capitals, so the common case does not allocate.
    pub protocol: Option<Cow<'a, str>>,
    /// The host as written (not normalised), or the special-case host of
    /// `dns:`, `whois:` and the like.
    pub host: Option<&'a str>,
    pub port: Option<i32>,
    pub path: Option<&'a str>,
    pub query: Option<&'a str>,
}

/// Schemes `java.net.URL` parses itself; others go through `java.net.URI`.
fn url_handles(scheme: &str) -> bool {
    matches!(scheme, "http" | "https" | "ftp" | "file" | "jar")
}

fn scheme_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let colon = memchr::memchr(b':', b)?;
    if colon == 0 || !b[0].is_ascii_alphabetic() {
        return None;
    }
    b[..colon]
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        .then_some(colon)
}

/// Splits `url` like CC's WarcUri does.
pub fn parse(url: &str) -> UrlParts<'_> {
    // java.net.URL trims control characters and spaces at both ends.
    let url = trim_controls(url);
    let Some(colon) = scheme_len(url) else {
        // No scheme: java.net.URI reads it all as a relative path.
        let (path, query) = split_path_query(strip_fragment(url));
        return UrlParts { path: Some(path), query, ..Default::default() };
    };
    let scheme: Cow<str> = match &url[..colon] {
        s if s.bytes().any(|c| c.is_ascii_uppercase()) => s.to_ascii_lowercase().into(),
        s => s.into(),
    };
    let rest = &url[colon + 1..];
    let mut parts = match &*scheme {
        "dns" => UrlParts { host: Some(strip_fragment(rest)), ..Default::default() },
        _ if rest.starts_with("//") => hierarchical(rest),
        _ if url_handles(&scheme) => {
            // `https:/x` or `http:x`: CC collapses the slashes to `//` and
            // parses again when the host came out empty.
            let fixed = rest.trim_start_matches('/');
            hierarchical_from(fixed)
        }
        _ => UrlParts::default(), // opaque URI: no host, path or query
    };
    if (scheme == "http" || scheme == "https") && parts.host.is_some_and(str::is_empty) {
        // `https:////host/path` → `https://host/path`
        parts = hierarchical_from(rest.trim_start_matches('/'));
    }
    match &*scheme {
        "whois" => parts.host = parts.path.map(|p| p.trim_start_matches('/')),
        "filedesc" => parts.host = None,
        _ => {}
    }
    parts.protocol = Some(scheme);
    parts
}

/// `s` without the spaces and control characters at its ends (all ASCII,
/// so a byte walk does what a `char` predicate did, at a fraction of the cost).
fn trim_controls(s: &str) -> &str {
    let b = s.as_bytes();
    let start = b.iter().position(|&c| c > b' ').unwrap_or(b.len());
    let end = b.iter().rposition(|&c| c > b' ').map_or(start, |i| i + 1);
    &s[start..end]
}

fn strip_fragment(s: &str) -> &str {
    match memchr::memchr(b'#', s.as_bytes()) {
        Some(i) => &s[..i],
        None => s,
    }
}

fn split_path_query(s: &str) -> (&str, Option<&str>) {
    match memchr::memchr(b'?', s.as_bytes()) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    }
}

/// `//authority/path?query#fragment`
fn hierarchical(rest: &str) -> UrlParts<'_> {
    hierarchical_from(&rest[2..])
}

/// `authority/path?query#fragment` (after the `//`).
fn hierarchical_from(s: &str) -> UrlParts<'_> {
    let s = strip_fragment(s);
    let end = s.bytes().position(|c| c == b'/' || c == b'?').unwrap_or(s.len());
    let authority = &s[..end];
    let (path, query) = split_path_query(&s[end..]);
    let host_port = match memchr::memrchr(b'@', authority.as_bytes()) {
        Some(i) => &authority[i + 1..],
        None => authority,
    };
    let (host, port) = if host_port.starts_with('[') {
        match memchr::memchr(b']', host_port.as_bytes()) {
            Some(i) => (&host_port[..=i], host_port[i + 1..].strip_prefix(':')),
            None => (host_port, None),
        }
    } else {
        match memchr::memchr(b':', host_port.as_bytes()) {
            Some(i) => (&host_port[..i], Some(&host_port[i + 1..])),
            None => (host_port, None),
        }
    };
    let port = port.and_then(|p| if p.is_empty() { None } else { p.parse::<i32>().ok() });
    UrlParts { protocol: None, host: Some(host), port, path: Some(path), query }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_url_parts() {
        let p = parse("https://www.example.com:8443/path/index.html?q=abc&lang=en#frag");
        assert_eq!(p.protocol.as_deref(), Some("https"));
        assert_eq!(p.host, Some("www.example.com"));
        assert_eq!(p.port, Some(8443));
        assert_eq!(p.path, Some("/path/index.html"));
        assert_eq!(p.query, Some("q=abc&lang=en"));
        let p = parse("HTTP://Example.com");
        assert_eq!((p.protocol.as_deref(), p.path, p.query, p.port), (Some("http"), Some(""), None, None));
        assert_eq!(parse("http://a.com:80/").port, Some(80));
        assert_eq!(parse("http://a.com/?").query, Some(""));
        assert_eq!(parse("https://www.example.com/path with space").path, Some("/path with space"));
        assert_eq!(parse("https:////www.google.com/robots.txt").host, Some("www.google.com"));
        assert_eq!(parse("http://[::1]:8080/x").host, Some("[::1]"));
        assert_eq!(parse("http://[::1]:8080/x").port, Some(8080));
        assert_eq!(parse("dns:forum.example.io").host, Some("forum.example.io"));
        assert_eq!(parse("whois://whois.iana.org/example.com").host, Some("example.com"));
        assert_eq!(parse("metadata://gnu.org/software/wget/warc/").host, Some("gnu.org"));
        assert_eq!(parse("filedesc://x.arc").host, None);
        assert_eq!(parse("http://user:pw@h.org/").host, Some("h.org"));
        assert_eq!(parse("http://a@b@h.org/").host, Some("h.org"), "the last @ ends the user info");
        let p = parse(" \t\u{1}http://h.org/é \r\n");
        assert_eq!((p.host, p.path), (Some("h.org"), Some("/é")), "controls and spaces trimmed, not the letter");
        assert_eq!(parse(" \t ").path, Some(""));
    }
}
