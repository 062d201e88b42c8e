//! Index lines (CDXJ, 11-field CDX, 9-field CDX) and index entries of WARC
//! files, read into the fields the cc-index-table columns come from.

use std::borrow::Cow;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// One capture as the index gives it, before any derivation.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Capture<'a> {
    pub urlkey: Cow<'a, str>,
    pub timestamp: Cow<'a, str>,
    pub url: Option<Cow<'a, str>>,
    pub mime: Option<Cow<'a, str>>,
    pub status: Option<Cow<'a, str>>,
    pub digest: Option<Cow<'a, str>>,
    pub length: Option<Cow<'a, str>>,
    pub offset: Option<Cow<'a, str>>,
    pub filename: Option<Cow<'a, str>>,
    pub redirect: Option<Cow<'a, str>>,
    pub mime_detected: Option<Cow<'a, str>>,
    pub charset: Option<Cow<'a, str>>,
    pub languages: Option<Cow<'a, str>>,
    pub truncated: Option<Cow<'a, str>>,
}

/// A JSON value read as a string whatever its type (CC reads every value
/// with Gson's `getAsString`, so `"status": 200` and `"200"` are the same).
struct Val<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Val<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Val<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or a number")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Val<'a>, E> {
                Ok(Val(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Val<'a>, E> {
                Ok(Val(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Val<'a>, E> {
                Ok(Val(Cow::Owned(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Val<'a>, E> {
                Ok(Val(Cow::Owned(v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Val<'a>, E> {
                Ok(Val(Cow::Owned(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Val<'a>, E> {
                Ok(Val(Cow::Owned(v.to_string())))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Val<'a>, E> {
                Ok(Val(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The CDXJ keys CC's converter reads; any other key is ignored.
#[derive(Deserialize, Default)]
struct CdxjJson<'a> {
    #[serde(borrow)]
    url: Option<Val<'a>>,
    #[serde(borrow)]
    mime: Option<Val<'a>>,
    #[serde(borrow)]
    status: Option<Val<'a>>,
    #[serde(borrow)]
    digest: Option<Val<'a>>,
    #[serde(borrow)]
    length: Option<Val<'a>>,
    #[serde(borrow)]
    offset: Option<Val<'a>>,
    #[serde(borrow)]
    filename: Option<Val<'a>>,
    #[serde(borrow)]
    redirect: Option<Val<'a>>,
    #[serde(borrow, rename = "mime-detected")]
    mime_detected: Option<Val<'a>>,
    #[serde(borrow)]
    charset: Option<Val<'a>>,
    #[serde(borrow)]
    languages: Option<Val<'a>>,
    #[serde(borrow)]
    truncated: Option<Val<'a>>,
}

/// The layout of a plain-text index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineFormat {
    /// Told by each line: `{` after the timestamp is CDXJ, else the field count.
    Auto,
    /// ` CDX N b a m s k r M S V g`
    Cdx11,
    /// ` CDX N b a m s k r V g` (the UK Web Archive's form: no length)
    Cdx9,
}

impl LineFormat {
    /// The format a ` CDX ...` header line announces.
    pub fn from_header(line: &str) -> Option<LineFormat> {
        let fields: Vec<&str> = line.trim().strip_prefix("CDX")?.split_whitespace().collect();
        match fields.as_slice() {
            ["N", "b", "a", "m", "s", "k", "r", "M", "S", "V", "g"] => Some(LineFormat::Cdx11),
            ["N", "b", "a", "m", "s", "k", "r", "V", "g"] => Some(LineFormat::Cdx9),
            _ => Some(LineFormat::Auto),
        }
    }
}

fn dash(v: &str) -> Option<Cow<'_, str>> {
    (v != "-").then_some(Cow::Borrowed(v))
}

/// The text before the first `sep` (an ASCII byte) of `s` and the text
/// after it: `split_once` with memchr, whose search cost ~190 instructions
/// less a call on index lines and CC paths.
#[inline]
pub(crate) fn split_at_byte(s: &str, sep: u8) -> Option<(&str, &str)> {
    debug_assert!(sep.is_ascii());
    let i = memchr::memchr(sep, s.as_bytes())?;
    Some((&s[..i], &s[i + 1..]))
}

/// Parses one index line; `Err` names what is wrong.
pub fn parse_line<'a>(line: &'a str, format: LineFormat) -> Result<Capture<'a>, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let (urlkey, rest) = split_at_byte(line, b' ').ok_or("no timestamp")?;
    let (timestamp, rest) = split_at_byte(rest, b' ').ok_or("no fields after the timestamp")?;
    if rest.starts_with('{') {
        if let Some(f) = flat_cdxj(rest) {
            let v = |i: usize| f[i].map(Cow::Borrowed);
            return Ok(Capture {
                urlkey: urlkey.into(),
                timestamp: timestamp.into(),
                url: v(0),
                mime: v(1),
                status: v(2),
                digest: v(3),
                length: v(4),
                offset: v(5),
                filename: v(6),
                redirect: v(7),
                mime_detected: v(8),
                charset: v(9),
                languages: v(10),
                truncated: v(11),
            });
        }
        cdxj_serde(urlkey, timestamp, rest)
    } else {
        cdx_fields(urlkey, timestamp, rest, format)
    }
}

/// Where each key [`CdxjJson`] reads lands in [`flat_cdxj`]'s array.
fn key_slot(key: &[u8]) -> Option<usize> {
    Some(match key {
        b"url" => 0,
        b"mime" => 1,
        b"status" => 2,
        b"digest" => 3,
        b"length" => 4,
        b"offset" => 5,
        b"filename" => 6,
        b"redirect" => 7,
        b"mime-detected" => 8,
        b"charset" => 9,
        b"languages" => 10,
        b"truncated" => 11,
        _ => return None,
    })
}

/// For one block of at most 64 bytes: bit `k` of the first mask set when
/// `block[k]` is a double quote, of the second when it is a backslash or a
/// control character.
#[inline]
fn block_bits(block: &[u8]) -> (u64, u64) {
    // Padded with spaces, which are neither.
    let mut a = [b' '; 64];
    let full: &[u8; 64] = match block.try_into() {
        Ok(b) => b,
        Err(_) => {
            a[..block.len()].copy_from_slice(block);
            &a
        }
    };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86_64; the loads read 4 x 16 bytes of a 64-byte array.
        unsafe {
            let (quote, backslash, c31) = (_mm_set1_epi8(b'"' as i8), _mm_set1_epi8(b'\\' as i8), _mm_set1_epi8(0x1f));
            let (mut q, mut sp) = (0u64, 0u64);
            for k in 0..4 {
                let v = _mm_loadu_si128(full.as_ptr().add(16 * k) as *const _);
                // Unsigned v <= 0x1f: max(v, 0x1f) == 0x1f.
                let special = _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(_mm_max_epu8(v, c31), c31));
                q |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) as u16 as u64) << (16 * k);
                sp |= (_mm_movemask_epi8(special) as u16 as u64) << (16 * k);
            }
            (q, sp)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut q, mut sp) = (0u64, 0u64);
        for (k, &c) in full.iter().enumerate() {
            q |= ((c == b'"') as u64) << k;
            sp |= ((c == b'\\' || c < 0x20) as u64) << k;
        }
        (q, sp)
    }
}

/// The positions of the double quotes in `b`, found 64 bytes at a time. It
/// ends early, as if there were no more quotes, at a block holding a
/// backslash or a control character (serde's cases).
struct Quotes<'a> {
    b: &'a [u8],
    base: usize,
    bits: u64,
}

impl<'a> Quotes<'a> {
    fn new(b: &'a [u8]) -> Self {
        let mut q = Quotes { b, base: 0, bits: 0 };
        q.load();
        q
    }

    fn load(&mut self) {
        let (quotes, special) = block_bits(&self.b[self.base..(self.base + 64).min(self.b.len())]);
        if special != 0 {
            self.base = self.b.len();
        }
        self.bits = if special != 0 { 0 } else { quotes };
    }
}

impl Iterator for Quotes<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.base += 64;
            if self.base >= self.b.len() {
                return None;
            }
            self.load();
        }
        let k = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.base + k)
    }
}

fn only_spaces(b: &[u8]) -> bool {
    b.iter().all(|&c| c == b' ')
}

/// `:` with spaces around it (mostly the bare `:` of compact JSON).
fn is_colon(b: &[u8]) -> bool {
    if b == b":" {
        return true;
    }
    let n = b.iter().take_while(|&&c| c == b' ').count();
    b.get(n) == Some(&b':') && only_spaces(&b[n + 1..])
}

/// The CDXJ JSON real indexes hold (one flat object of escape-free string
/// values, keys once each, spaces as the only whitespace), read by borrowing
/// slices: serde_json was most of the line parsing time. Anything else gives
/// `None` and goes to serde, so the result never depends on which path read
/// the line.
///
/// Without backslashes every quote delimits a string, so the object's
/// structure is read off the quote positions alone; the bytes between them
/// must then be exactly `{`, `:`, `,`, `}` and spaces. Every byte up to the
/// last quote is seen by [`Quotes`] (backslashes and control characters go
/// to serde: it unescapes the one and rejects the other in strings), and
/// only spaces and `}` may follow it. (A scan of the strings byte by byte
/// cost 1.5x as many instructions.)
fn flat_cdxj(json: &str) -> Option<[Option<&str>; 12]> {
    let b = json.as_bytes();
    if b.first() != Some(&b'{') {
        return None;
    }
    let mut out: [Option<&str>; 12] = [None; 12];
    let mut quotes = Quotes::new(b);
    let mut i = 1; // just after `{` or `,`
    loop {
        let key_start = quotes.next()?;
        let key_end = quotes.next()?;
        let value_start = quotes.next()?;
        let value_end = quotes.next()?;
        if !only_spaces(&b[i..key_start]) || !is_colon(&b[key_end + 1..value_start]) {
            return None;
        }
        if let Some(slot) = key_slot(&b[key_start + 1..key_end]) {
            if out[slot].is_some() {
                return None; // serde rejects a duplicate field
            }
            // Quotes are ASCII, so both ends are char boundaries.
            out[slot] = Some(&json[value_start + 1..value_end]);
        }
        let mut j = value_end + 1;
        while b.get(j) == Some(&b' ') {
            j += 1;
        }
        match b.get(j) {
            Some(b',') => i = j + 1,
            Some(b'}') if j + 1 == b.len() => return Some(out),
            _ => return None,
        }
    }
}

fn cdxj_serde<'a>(urlkey: &'a str, timestamp: &'a str, rest: &'a str) -> Result<Capture<'a>, String> {
    let j: CdxjJson = serde_json::from_str(rest).map_err(|e| format!("bad JSON: {e}"))?;
    let v = |x: Option<Val<'a>>| x.map(|x| x.0);
    Ok(Capture {
        urlkey: urlkey.into(),
        timestamp: timestamp.into(),
        url: v(j.url),
        mime: v(j.mime),
        status: v(j.status),
        digest: v(j.digest),
        length: v(j.length),
        offset: v(j.offset),
        filename: v(j.filename),
        redirect: v(j.redirect),
        mime_detected: v(j.mime_detected),
        charset: v(j.charset),
        languages: v(j.languages),
        truncated: v(j.truncated),
    })
}

fn cdx_fields<'a>(urlkey: &'a str, timestamp: &'a str, rest: &'a str, format: LineFormat) -> Result<Capture<'a>, String> {
    let f: Vec<&str> = rest.split(' ').collect();
    let mut c = Capture { urlkey: urlkey.into(), timestamp: timestamp.into(), ..Default::default() };
    let n = f.len();
    let format = match format {
        LineFormat::Auto if n == 9 => LineFormat::Cdx11,
        LineFormat::Auto if n == 7 => LineFormat::Cdx9,
        other => other,
    };
    match format {
        LineFormat::Cdx11 if n == 9 => {
            // a m s k r M S V g
            c.url = dash(f[0]);
            c.mime = dash(f[1]);
            c.status = dash(f[2]);
            c.digest = dash(f[3]);
            c.redirect = dash(f[4]);
            c.length = dash(f[6]);
            c.offset = dash(f[7]);
            c.filename = dash(f[8]);
        }
        LineFormat::Cdx9 if n == 7 => {
            // a m s k r V g
            c.url = dash(f[0]);
            c.mime = dash(f[1]);
            c.status = dash(f[2]);
            c.digest = dash(f[3]);
            c.redirect = dash(f[4]);
            c.offset = dash(f[5]);
            c.filename = dash(f[6]);
        }
        _ => return Err(format!("{} fields: neither CDXJ nor 9- or 11-field CDX", n + 2)),
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let c = parse_line(r#"org,x)/ 20200101000000 {"url": "http://x.org/", "status": 301, "length": "12", "mime-detected": "text/html"}"#, LineFormat::Auto).unwrap();
        assert_eq!(c.status.as_deref(), Some("301"));
        assert_eq!(c.mime_detected.as_deref(), Some("text/html"));
        let c = parse_line("org,x)/ 20200101000000 http://x.org/ text/html 200 ABC - - 100 200 f.warc.gz", LineFormat::Auto).unwrap();
        assert_eq!((c.length.as_deref(), c.offset.as_deref(), c.redirect), (Some("100"), Some("200"), None));
        let c = parse_line("org,x)/ 20200101000000 http://x.org/ text/html 200 ABC - 200 f.warc.gz", LineFormat::Cdx9).unwrap();
        assert_eq!((c.length, c.offset.as_deref()), (None, Some("200")));
        assert!(parse_line("org,x)/ 20200101000000 a b", LineFormat::Auto).is_err());
    }

    /// What parse_line gives for a CDXJ line when serde reads every line.
    fn by_serde(line: &str) -> String {
        let line = line.trim_end_matches(['\r', '\n']);
        let (urlkey, rest) = line.split_once(' ').unwrap();
        let (timestamp, rest) = rest.split_once(' ').unwrap();
        format!("{:?}", cdxj_serde(urlkey, timestamp, rest))
    }

    /// Checks one JSON object both ways; true when the fast path read it.
    fn same_as_serde(json: &str) -> bool {
        let line = format!("org,x)/ 20200101000000 {json}");
        let fast = flat_cdxj(json).is_some();
        let serde = by_serde(&line);
        if fast {
            assert!(serde.starts_with("Ok("), "fast path accepted what serde rejects: {json:?} -> {serde}");
        }
        assert_eq!(format!("{:?}", parse_line(&line, LineFormat::Auto)), serde, "{json:?}");
        fast
    }

    #[test]
    fn fast_path_takes_plain_lines() {
        for j in [
            r#"{"url": "http://x.org/", "mime": "text/html", "status": "200", "digest": "ABC", "length": "12", "offset": "34", "filename": "f.warc.gz"}"#,
            r#"{"url":"https://www.x.com.au/a?id=1","mime":"text/css","mime-detected":"text/css","status":"404","digest":"RY7P","length":"23227","offset":"10474722","filename":"crawl-data/CC-MAIN-2024-22/segments/1.39/crawldiagnostics/x.warc.gz","charset":"UTF-8","languages":"eng"}"#,
            r#"{"url": "http://café.org/ü", "redirect": "http://x.org/", "truncated": "length", "extra": "ignored", "extra": "twice"}"#,
            r#"{ "url" : "http://x.org/" , "status" : "301" }"#,
            r#"{"url": ""}"#,
        ] {
            assert!(same_as_serde(j), "not taken by the fast path: {j}");
        }
    }

    #[test]
    fn fast_path_matches_serde_on_tricky_lines() {
        for j in [
            r#"{"url":"http://x.org/a\"q","status":"200"}"#,
            r#"{"url":"http://x.org/b\u00e9"}"#,
            r#"{"url":"http:\/\/x.org\/c"}"#,
            r#"{"url":"a\\b"}"#,
            r#"{"url":"x","status":200,"length":1234,"offset":0}"#,
            r#"{"url":"x","status":2.5e2,"length":true,"offset":-0}"#,
            r#"{"url":"x","status":1e400}"#,
            r#"{"url":"x","status":12345678901234567890}"#,
            r#"{"url":"x","status":null,"mime":null}"#,
            r#"{"url":"x","status":"200","status":"404"}"#,
            r#"{"url":"x","url":"y"}"#,
            r#"{"mime-detected":"a","mime-detected":"a"}"#,
            r#"{"url":"x","extra":{"a":[1,2,{"b":"c"}]},"status":"200"}"#,
            r#"{"url":"x","status":[200]}"#,
            r#"{"url":"x","status":"200"} trailing"#,
            r#"{"url":"x","status":"200"} "#,
            r#"{"url":"x","status":"200"}}"#,
            r#"{"url":"x","status":"200""#,
            r#"{"url":"x","status":"200",}"#,
            r#"{"url":"x",,"status":"200"}"#,
            r#"{"url" "x"}"#,
            r#"{"url":"x"#,
            r#"{"url""#,
            r#"{"#,
            r#"{}"#,
            r#"{ }"#,
            r#"{"url":"x\ud83d\ude00"}"#,
            r#"{"url":"x\ud800"}"#,
            r#"{"\u0073tatus":"500"}"#,
            r#"{"mime\u002ddetected":"text/plain"}"#,
            r#"{"mime_detected":"text/plain","MIME":"a","url ":"b"}"#,
            "{\"url\":\"x\",\t\"status\":\"200\"}",
            "{\"url\":\"x\",\n\"status\":\"200\"}",
            "{\"url\":\"x\",\r\"status\":\"200\"}",
            "{\"url\":\"tab\there\"}",
            "{\"url\":\"nul\u{0}x\"}",
            "{\"url\":\"del\u{7f}x\"}",
            "{\"url\":\"x\"}\t",
        ] {
            same_as_serde(j);
        }
    }

    #[test]
    fn fast_path_matches_serde_on_generated_lines() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let keys = [
            "url", "mime", "status", "digest", "length", "offset", "filename", "redirect", "mime-detected", "charset", "languages", "truncated",
            "mime_detected", "URL", "extra", "", "mime\\u002ddetected", "st\\\"atus", "url ",
        ];
        let values = [
            r#""http://x.org/a?b=c&d=é""#, r#""""#, r#""200""#, r#""text/html""#, r#""-""#, r#""😀 ü""#,
            r#""a\"b""#, r#""a\\b""#, r#""\/x""#, r#""caf\u00e9""#, r#""\ud83d\ude00""#, r#""\ud800""#,
            "\"raw\ttab\"", "\"nul\u{0}\"", r#""bad\x""#,
            r#""http://x.org/path\"q""#, r#""http://x.org/caf\u00e9/x""#, "\"http://x.org/\ttab\"", "\"http://x.org/p\u{1f}\"",
            "200", "-1", "2.5e2", "1e400", "0", "null", "true", "false", "[1,\"a\"]", r#"{"a":"b"}"#, "[]",
        ];
        let spaces = ["", "", "", " ", " ", "  ", "\t", "\n"];
        let (mut taken, total) = (0, 20_000);
        for _ in 0..total {
            // Clean lines (distinct known keys, plain values, no odd whitespace)
            // with at most a few flaws each, and some lines that are all noise.
            let noisy = rnd(4) == 0;
            let flaw = |rnd: &mut dyn FnMut(usize) -> usize| noisy || rnd(12) == 0;
            let mut order: Vec<usize> = (0..12).collect();
            for i in (1..12).rev() {
                order.swap(i, rnd(i + 1));
            }
            let mut j = String::from("{");
            let n = rnd(14);
            let sp = |rnd: &mut dyn FnMut(usize) -> usize| if flaw(rnd) { spaces[rnd(spaces.len())] } else { spaces[rnd(2) * 3] };
            j.push_str(sp(&mut rnd));
            for k in 0..n {
                if k > 0 {
                    j.push_str(sp(&mut rnd));
                    j.push_str(if flaw(&mut rnd) && rnd(10) == 0 { ",," } else { "," });
                    j.push_str(sp(&mut rnd));
                }
                let key = if flaw(&mut rnd) { keys[rnd(keys.len())] } else { keys[order[k % 12]] };
                let value = if flaw(&mut rnd) { values[rnd(values.len())] } else { values[rnd(6)] };
                let (s1, s2) = (sp(&mut rnd), sp(&mut rnd));
                j.push_str(&format!("\"{key}\"{s1}:{s2}{value}"));
            }
            if flaw(&mut rnd) && rnd(4) == 0 {
                j.push(',');
            }
            j.push_str(sp(&mut rnd));
            j.push('}');
            if flaw(&mut rnd) && rnd(3) == 0 {
                j.push_str([" ", "x", "}", ",", "\t", "\n", "\r\n"][rnd(7)]);
            }
            if flaw(&mut rnd) && rnd(3) == 0 {
                let mut cut = 1 + rnd(j.len());
                while !j.is_char_boundary(cut) {
                    cut -= 1;
                }
                j.truncate(cut);
            }
            taken += same_as_serde(&j) as usize;
        }
        // Both paths must have been exercised for the comparison to mean anything.
        assert!(taken > total / 20 && taken < total * 19 / 20, "fast path took {taken} of {total}");
    }
}
