//! One CDX line read the way cdx-summary reads it: its `parser.py` regex
//! (`re.match`, so anchored at the start but not at the end), applied to
//! `line.decode().strip()`. The regex has one way to match at most (every
//! quantifier is greedy and nothing after an optional group can fail), so a
//! left-to-right scan gives the same groups without a regex engine.

use crate::pychars::{digit_value, is_digit, is_space, py_strip};

/// The groups of a matching line that the summary uses (slices of the line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CdxFields<'a> {
    pub surt: &'a str,
    pub host: &'a str,
    pub path: &'a str,
    pub query: &'a str,
    pub datetime: &'a str,
    pub year: &'a str,
    pub month: &'a str,
    pub url: &'a str,
    pub mime: &'a str,
    pub status: &'a str,
    pub digest: &'a str,
    /// The `bytes` group: digits, `-` or empty (for CDX-9 it holds the offset:
    /// cdx-summary's quirk, kept).
    pub bytes: &'a str,
    /// Not cdx-summary's: the last field of an 11- or 9-field line (the WARC
    /// file name), for the records-per-file extra.
    pub filename: Option<&'a str>,
}

#[inline]
fn char_at(s: &str, i: usize) -> Option<(char, usize)> {
    let b = *s.as_bytes().get(i)?;
    if b < 0x80 {
        return Some((b as char, 1));
    }
    let c = s[i..].chars().next()?;
    Some((c, c.len_utf8()))
}

/// End of the longest run from `i` of characters satisfying `keep`.
#[inline]
fn run(s: &str, mut i: usize, keep: impl Fn(char) -> bool) -> usize {
    let b = s.as_bytes();
    while i < b.len() {
        if b[i] < 0x80 {
            if !keep(b[i] as char) {
                break;
            }
            i += 1;
        } else {
            let (c, n) = char_at(s, i).expect("in bounds");
            if !keep(c) {
                break;
            }
            i += n;
        }
    }
    i
}

/// One whitespace character at `i`: the position after it.
#[inline]
fn space(s: &str, i: usize) -> Option<usize> {
    let (c, n) = char_at(s, i)?;
    is_space(c).then_some(i + n)
}

/// A non-empty run of non-whitespace from `i`: its end.
#[inline]
fn token(s: &str, i: usize) -> Option<usize> {
    let e = run(s, i, |c| !is_space(c));
    (e > i).then_some(e)
}

/// Parses a raw line (bytes without the newline); `None` where cdx-summary
/// skips the line (undecodable UTF-8, or no regex match).
pub fn parse_bytes(line: &[u8]) -> Option<CdxFields<'_>> {
    parse(std::str::from_utf8(line).ok()?)
}

/// Parses a decoded line (strips it first, as cdx-summary does).
pub fn parse(line: &str) -> Option<CdxFields<'_>> {
    let s = py_strip(line);
    // (?P<surt>(?P<host>[^\)\s]+)\)(?P<path>[^\?\s]+)?(\?(?P<query>\S+))?)
    let host_end = run(s, 0, |c| c != ')' && !is_space(c));
    if host_end == 0 || s.as_bytes().get(host_end) != Some(&b')') {
        return None;
    }
    let path_start = host_end + 1;
    let path_end = run(s, path_start, |c| c != '?' && !is_space(c));
    let (query, surt_end) = if s.as_bytes().get(path_end) == Some(&b'?') {
        // `\?\S+` needs one character after the `?`; without it nothing can match.
        let q_end = token(s, path_end + 1)?;
        (&s[path_end + 1..q_end], q_end)
    } else {
        ("", path_end)
    };
    // \s(?P<datetime>\d{14})
    let mut i = space(s, surt_end)?;
    let dt_start = i;
    let mut year_end = 0;
    let mut month_end = 0;
    for k in 0..14 {
        let (c, n) = char_at(s, i)?;
        if !is_digit(c) {
            return None;
        }
        i += n;
        if k == 3 {
            year_end = i;
        } else if k == 5 {
            month_end = i;
        }
    }
    let dt_end = i;
    // \s(?P<url>\S+)\s(?P<mime>\S+)
    let url_start = space(s, dt_end)?;
    let url_end = token(s, url_start)?;
    let mime_start = space(s, url_end)?;
    let mime_end = token(s, mime_start)?;
    // \s(?P<status>(-|\d{3}))
    let st_start = space(s, mime_end)?;
    let mut st_end = st_start;
    if s.as_bytes().get(st_start) == Some(&b'-') {
        st_end += 1;
    } else {
        for _ in 0..3 {
            let (c, n) = char_at(s, st_end)?;
            if !is_digit(c) {
                return None;
            }
            st_end += n;
        }
    }
    // \s(?P<digest>\S+)
    let dg_start = space(s, st_end)?;
    let dg_end = token(s, dg_start)?;
    // (\s(?P<redirect>[^\s\d]+))?(\s(?P<metatags>[^\s\d]+))?(\s(?P<bytes>(-|\d+)))?
    let mut i = dg_end;
    for _ in 0..2 {
        if let Some(j) = space(s, i) {
            let e = run(s, j, |c| !is_space(c) && !is_digit(c));
            if e > j {
                i = e;
            }
        }
    }
    let mut bytes = "";
    if let Some(j) = space(s, i) {
        if s.as_bytes().get(j) == Some(&b'-') {
            bytes = &s[j..j + 1];
        } else {
            let e = run(s, j, is_digit);
            bytes = &s[j..e];
        }
    }
    let filename = last_of_cdx_layout(&s[dg_end..]);
    Some(CdxFields {
        surt: &s[..surt_end],
        host: &s[..host_end],
        path: &s[path_start..path_end],
        query,
        datetime: &s[dt_start..dt_end],
        year: &s[dt_start..year_end],
        month: &s[year_end..month_end],
        url: &s[url_start..url_end],
        mime: &s[mime_start..mime_end],
        status: &s[st_start..st_end],
        digest: &s[dg_start..dg_end],
        bytes,
        filename,
    })
}

/// After the digest, CDX-11 has `r M S V g` and CDX-9 `r V g`: the last is the file.
fn last_of_cdx_layout(rest: &str) -> Option<&str> {
    let mut n = 0;
    let mut last = "";
    for t in rest.split(is_space).filter(|t| !t.is_empty()) {
        n += 1;
        last = t;
    }
    matches!(n, 3 | 5).then_some(last)
}

/// `int(bytes)` as cdx-summary adds it (`None` for `-` or empty).
pub fn bytes_value(bytes: &str) -> Option<u128> {
    if bytes.is_empty() || bytes == "-" {
        return None;
    }
    let mut v: u128 = 0;
    for c in bytes.chars() {
        v = v.saturating_mul(10).saturating_add(digit_value(c)? as u128);
    }
    Some(v)
}

/// cdx-summary's segment count: `seg.strip(sep).count(sep) + 1`, or 0 when
/// nothing is left after the strip.
pub fn segments(seg: &str, sep: u8) -> usize {
    let b = seg.as_bytes();
    let start = b.iter().position(|&c| c != sep);
    let Some(start) = start else { return 0 };
    let end = b.iter().rposition(|&c| c != sep).expect("non-empty") + 1;
    memchr::memchr_iter(sep, &b[start..end]).count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const L11: &str = "com,example)/a/b?x=1&y=2 20200102030405 http://example.com/a/b?x=1&y=2 text/html 200 ABCD - - 1234 99 file.warc.gz";

    #[test]
    fn eleven_fields() {
        let f = parse(L11).unwrap();
        assert_eq!((f.host, f.path, f.query), ("com,example", "/a/b", "x=1&y=2"));
        assert_eq!((f.year, f.month, f.datetime), ("2020", "01", "20200102030405"));
        assert_eq!((f.mime, f.status, f.digest, f.bytes), ("text/html", "200", "ABCD", "1234"));
        assert_eq!(f.filename, Some("file.warc.gz"));
        assert_eq!(f.surt, "com,example)/a/b?x=1&y=2");
    }

    #[test]
    fn nine_fields_put_the_offset_in_bytes() {
        let f = parse("com,example)/ 20200102030405 http://example.com/ text/html 200 ABCD - 777 f.warc.gz").unwrap();
        assert_eq!(f.bytes, "777");
        assert_eq!(f.filename, Some("f.warc.gz"));
    }

    #[test]
    fn a_redirect_with_a_digit_loses_the_rest() {
        let f = parse("com,example)/ 20200102030405 http://example.com/ text/html 301 ABCD http://x.com/1 - 55 0 f").unwrap();
        assert_eq!(f.bytes, "");
    }

    #[test]
    fn lines_cdx_summary_skips() {
        assert!(parse(" CDX N b a m s k r M S V g").is_none());
        assert!(parse("dns:example.com 20200102030405 dns:example.com text/dns - ABCD - - 5 0 f").is_none());
        assert!(parse("com,example)/ 2020010203040 http://example.com/ text/html 200 ABCD").is_none());
        assert!(parse("com,example)/a? 20200102030405 http://example.com/ text/html 200 ABCD").is_none());
        assert!(parse("com,example)/  20200102030405 http://example.com/ text/html 200 ABCD").is_none());
        assert!(parse("com,example)/ 20200102030405 http://example.com/ text/html 2000 ABCD").is_none());
        assert!(parse("com,example)/ 20200102030405 http://example.com/ text/html 200").is_none());
        assert!(parse_bytes(b"com,example)/ 20200102030405 http://example.com/\xff text/html 200 X").is_none());
    }

    #[test]
    fn python_whitespace_and_digits() {
        // A tab and U+001F separate fields; Arabic-Indic digits are digits.
        let f = parse("com,x)/\t20200102030405\u{1f}u text/html \u{662}\u{660}\u{660} D - - \u{661}\u{662} 0 f").unwrap();
        assert_eq!(f.status, "\u{662}\u{660}\u{660}");
        assert_eq!(bytes_value(f.bytes), Some(12));
        assert_eq!(bytes_value("-"), None);
    }

    #[test]
    fn segment_counts() {
        assert_eq!(segments("/", b'/'), 0);
        assert_eq!(segments("", b'/'), 0);
        assert_eq!(segments("/a/b/", b'/'), 2);
        assert_eq!(segments("/a//b", b'/'), 3);
        assert_eq!(segments("a=1&&b=2", b'&'), 3);
    }
}
