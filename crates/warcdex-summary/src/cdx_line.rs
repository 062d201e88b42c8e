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

// Character classes, so that one scan loop serves every group of the regex.
// ASCII bytes (nearly every byte of a real index) take a table lookup; other
// characters are decoded and classified with Python's rules.
const SPACE: u8 = 1;
const DIGIT: u8 = 2;
const RPAREN: u8 = 4;
const QMARK: u8 = 8;
/// Set for everything that is not a digit, to scan runs of digits.
const NOT_DIGIT: u8 = 16;

const ASCII_CLASS: [u8; 128] = {
    let mut t = [NOT_DIGIT; 128];
    let mut b = 0;
    while b < 128 {
        if matches!(b, 0x9..=0xd | 0x1c..=0x20) {
            t[b] |= SPACE;
        }
        if b >= b'0' as usize && b <= b'9' as usize {
            t[b] = DIGIT;
        }
        b += 1;
    }
    t[b')' as usize] |= RPAREN;
    t[b'?' as usize] |= QMARK;
    t
};

/// The class of the character at `i` and its length in bytes.
#[inline(always)]
fn class_at(s: &str, i: usize) -> Option<(u8, usize)> {
    let b = *s.as_bytes().get(i)?;
    if b < 0x80 {
        return Some((ASCII_CLASS[b as usize], 1));
    }
    let c = s[i..].chars().next()?;
    let class = if is_space(c) { SPACE | NOT_DIGIT } else if is_digit(c) { DIGIT } else { NOT_DIGIT };
    Some((class, c.len_utf8()))
}

/// The high bit of each of the eight bytes of `x` that may stop a run that
/// stops at `stop`: bytes below `!` or above `~` (spaces, controls,
/// non-ASCII), and `)` or `?` when asked. The lowest flagged byte is exact
/// (a borrow only disturbs the bytes above a true hit), which is all the
/// scan needs: it goes there and looks at that character itself.
#[inline(always)]
fn may_stop(x: u64, stop: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * n as u64) & !x & HIGH;
    let mut hit = below(x, 0x21) | (x & HIGH);
    if stop & RPAREN != 0 {
        hit |= below(x ^ (ONES * b')' as u64), 1);
    }
    if stop & QMARK != 0 {
        hit |= below(x ^ (ONES * b'?' as u64), 1);
    }
    hit
}

/// End of the longest run from `i` of characters in none of the `stop` classes.
#[inline(always)]
fn run(s: &str, mut i: usize, stop: u8) -> usize {
    let b = s.as_bytes();
    // Runs that stop at digits are short: no skipping for them.
    let skip = stop & (DIGIT | NOT_DIGIT) == 0;
    loop {
        if skip {
            if let Some(chunk) = b.get(i..i + 8) {
                let hit = may_stop(u64::from_le_bytes(chunk.try_into().expect("8 bytes")), stop);
                if hit == 0 {
                    i += 8;
                    continue;
                }
                i += hit.trailing_zeros() as usize / 8;
            }
        }
        let Some(&c) = b.get(i) else { return i };
        if c < 0x80 {
            if ASCII_CLASS[c as usize] & stop != 0 {
                return i;
            }
            i += 1;
        } else {
            let (class, n) = class_at(s, i).expect("in bounds");
            if class & stop != 0 {
                return i;
            }
            i += n;
        }
    }
}

/// One whitespace character at `i`: the position after it.
#[inline]
fn space(s: &str, i: usize) -> Option<usize> {
    let (class, n) = class_at(s, i)?;
    (class & SPACE != 0).then_some(i + n)
}

/// A non-empty run of non-whitespace from `i`: its end.
#[inline]
fn token(s: &str, i: usize) -> Option<usize> {
    let e = run(s, i, SPACE);
    (e > i).then_some(e)
}

/// Exactly `n` digits from `i`: the position after them.
#[inline]
fn digits(s: &str, mut i: usize, n: usize) -> Option<usize> {
    if s.as_bytes().get(i..i + n).is_some_and(|d| d.iter().all(u8::is_ascii_digit)) {
        return Some(i + n);
    }
    for _ in 0..n {
        let (class, len) = class_at(s, i)?;
        if class & DIGIT == 0 {
            return None;
        }
        i += len;
    }
    Some(i)
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
    let host_end = run(s, 0, RPAREN | SPACE);
    if host_end == 0 || s.as_bytes().get(host_end) != Some(&b')') {
        return None;
    }
    let path_start = host_end + 1;
    let path_end = run(s, path_start, QMARK | SPACE);
    let (query, surt_end) = if s.as_bytes().get(path_end) == Some(&b'?') {
        // `\?\S+` needs one character after the `?`; without it nothing can match.
        let q_end = token(s, path_end + 1)?;
        (&s[path_end + 1..q_end], q_end)
    } else {
        ("", path_end)
    };
    // \s(?P<datetime>\d{14})
    let dt_start = space(s, surt_end)?;
    let year_end = digits(s, dt_start, 4)?;
    let month_end = digits(s, year_end, 2)?;
    let dt_end = digits(s, month_end, 8)?;
    // \s(?P<url>\S+)\s(?P<mime>\S+)
    let url_start = space(s, dt_end)?;
    let url_end = token(s, url_start)?;
    let mime_start = space(s, url_end)?;
    let mime_end = token(s, mime_start)?;
    // \s(?P<status>(-|\d{3}))
    let st_start = space(s, mime_end)?;
    let st_end = if s.as_bytes().get(st_start) == Some(&b'-') { st_start + 1 } else { digits(s, st_start, 3)? };
    // \s(?P<digest>\S+)
    let dg_start = space(s, st_end)?;
    let dg_end = token(s, dg_start)?;
    // (\s(?P<redirect>[^\s\d]+))?(\s(?P<metatags>[^\s\d]+))?(\s(?P<bytes>(-|\d+)))?
    // Whole fields taken by these groups are counted for the file name, so
    // that only what follows them is scanned again.
    let mut tail = Tail { end: dg_end, fields: 0, last: "" };
    let mut i = dg_end;
    for _ in 0..2 {
        if let Some(j) = space(s, i) {
            let e = run(s, j, SPACE | DIGIT);
            if e > j {
                tail.took(s, i, j, e);
                i = e;
            }
        }
    }
    let mut bytes = "";
    if let Some(j) = space(s, i) {
        let e = if s.as_bytes().get(j) == Some(&b'-') { j + 1 } else { run(s, j, NOT_DIGIT) };
        bytes = &s[j..e];
        tail.took(s, i, j, e);
    }
    let filename = tail.last_of_cdx_layout(s);
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

/// The fields after the digest: CDX-11 has `r M S V g` and CDX-9 `r V g`,
/// and the last is the file. `end` is where the fields counted so far end.
struct Tail<'a> {
    end: usize,
    fields: usize,
    last: &'a str,
}

impl<'a> Tail<'a> {
    /// A group matched `s[j..e]` after the separator at `from`: counted when
    /// it follows the fields counted so far and is a whole field.
    #[inline]
    fn took(&mut self, s: &'a str, from: usize, j: usize, e: usize) {
        if from == self.end && e > j && (e == s.len() || space(s, e).is_some()) {
            self.end = e;
            self.fields += 1;
            self.last = &s[j..e];
        }
    }

    fn last_of_cdx_layout(mut self, s: &'a str) -> Option<&'a str> {
        let mut i = self.end;
        while i < s.len() {
            let e = run(s, i, SPACE);
            if e > i {
                self.fields += 1;
                self.last = &s[i..e];
                i = e;
            } else {
                i = space(s, i).expect("a space stopped the run");
            }
        }
        matches!(self.fields, 3 | 5).then_some(self.last)
    }
}

/// `int(bytes)` as cdx-summary adds it (`None` for `-` or empty).
pub fn bytes_value(bytes: &str) -> Option<u128> {
    if bytes.is_empty() || bytes == "-" {
        return None;
    }
    if bytes.len() <= 19 && bytes.bytes().all(|b| b.is_ascii_digit()) {
        return Some(bytes.bytes().fold(0u64, |v, b| v * 10 + (b - b'0') as u64) as u128);
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
    fn eight_byte_skipping_stops_where_a_char_by_char_scan_stops() {
        let naive = |s: &str, stop: u8| -> usize {
            let mut i = 0;
            for c in s.chars() {
                let class = if c == ')' {
                    RPAREN | NOT_DIGIT
                } else if c == '?' {
                    QMARK | NOT_DIGIT
                } else if is_space(c) {
                    SPACE | NOT_DIGIT
                } else if is_digit(c) {
                    DIGIT
                } else {
                    NOT_DIGIT
                };
                if class & stop != 0 {
                    break;
                }
                i += c.len_utf8();
            }
            i
        };
        let alphabet = ['a', 'b', ' ', '\t', '\x1c', '\x01', '\x7f', ')', '?', '5', '\u{a0}', '\u{3000}', 'é', '\u{662}', '\u{1f600}'];
        let mut seed = 7u64;
        for _ in 0..20_000 {
            let mut s = String::new();
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let len = (seed >> 33) % 40;
            for _ in 0..len {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                // Mostly letters, so that long runs take the eight-byte path.
                let r = (seed >> 33) as usize % (alphabet.len() * 4);
                s.push(if r < alphabet.len() { alphabet[r] } else { 'x' });
            }
            for stop in [SPACE, RPAREN | SPACE, QMARK | SPACE, SPACE | DIGIT, NOT_DIGIT] {
                assert_eq!(run(&s, 0, stop), naive(&s, stop), "{s:?} stop {stop}");
            }
        }
    }

    #[test]
    fn file_name_counts_the_fields_after_the_digest() {
        let file = |tail: &str| {
            parse(&format!("com,x)/ 20200102030405 http://x.com/ text/html 200 D{tail}")).unwrap().filename.map(str::to_string)
        };
        assert_eq!(file(" - - 12 34 f.warc.gz").as_deref(), Some("f.warc.gz"));
        assert_eq!(file(" - 34 f.warc.gz").as_deref(), Some("f.warc.gz"));
        assert_eq!(file(" -  34\tf").as_deref(), Some("f"));
        assert_eq!(file(" http://y.com/1 - 12 34 f").as_deref(), Some("f"));
        assert_eq!(file(" a1 b 12 34 f").as_deref(), Some("f"));
        assert_eq!(file(" -- -x 1-2 34 f").as_deref(), Some("f"));
        assert_eq!(file(" \u{a0}- - 12 34 f").as_deref(), Some("f"));
        assert_eq!(file(" - - 12 34"), None);
        assert_eq!(file(" - - 12 34 f g"), None);
        assert_eq!(file(" - 34"), None);
        assert_eq!(file(""), None);
        assert_eq!(file(" -"), None);
        assert_eq!(file(" 1 2 3").as_deref(), Some("3"));
        // Against a count of every field after the digest, on random tails.
        fn recount(rest: &str) -> Option<&str> {
            let fields: Vec<&str> = rest.split(is_space).filter(|f| !f.is_empty()).collect();
            matches!(fields.len(), 3 | 5).then(|| *fields.last().unwrap())
        }
        let parts = ["-", "12", "a1", "x", "http://y/1", "\u{662}", "--", "1-"];
        let seps = [" ", "  ", "\t", "\u{a0}", " \u{3000}"];
        let mut seed = 11u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..20_000 {
            let mut tail = String::new();
            for _ in 0..next(7) {
                tail.push_str(seps[next(seps.len())]);
                tail.push_str(parts[next(parts.len())]);
            }
            let line = format!("com,x)/ 20200102030405 http://x.com/ text/html 200 D{tail}");
            let stripped = py_strip(&line);
            assert_eq!(parse(&line).unwrap().filename, recount(&stripped[stripped.find(" D").unwrap() + 2..]), "{line:?}");
        }
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
