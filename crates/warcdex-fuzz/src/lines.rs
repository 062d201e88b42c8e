//! Index lines: the summary's CDX scan (`warcdex_summary::cdx_line`) and
//! counters, its CDXJ conversion (`cdxj_line`), and the Parquet converter's
//! line parser (`warcdex_parquet::capture::parse_line`).

use std::borrow::Cow;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use warcdex_parquet::capture::{parse_line, Capture, LineFormat};
use warcdex_summary::cdx_line::{bytes_value, parse_bytes, segments, CdxFields};
use warcdex_summary::cdxj_line::{is_cdxj, to_cdx11};
use warcdex_summary::{output, Accumulator, Options};

fn lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    data.split(|&b| b == b'\n')
}

/// The regex groups must fit together as the regex puts them.
fn check_fields(f: &CdxFields) {
    let mut surt = format!("{})", f.host) + f.path;
    if !f.query.is_empty() {
        surt.push('?');
        surt.push_str(f.query);
    }
    assert_eq!(f.surt, surt, "surt group is not host ) path ? query");
    assert_eq!(f.datetime.chars().count(), 14, "datetime {:?}", f.datetime);
    assert!(f.datetime.starts_with(&format!("{}{}", f.year, f.month)), "year/month {:?}/{:?} of {:?}", f.year, f.month, f.datetime);
    assert_eq!((f.year.chars().count(), f.month.chars().count()), (4, 2));
    assert!(f.status == "-" || f.status.chars().count() == 3, "status {:?}", f.status);
    assert!(f.bytes.is_empty() || f.bytes == "-" || f.bytes.chars().all(|c| c.is_numeric()), "bytes {:?}", f.bytes);
    if let Some(name) = f.filename {
        assert!(!name.is_empty() && !name.contains(char::is_whitespace), "file name {name:?}");
    }
    let _ = bytes_value(f.bytes);
    let _ = (segments(f.path, b'/'), segments(f.query, b'&'));
}

/// The summary's three JSON documents must be JSON, whatever the lines held.
fn check_outputs(acc: &Accumulator) {
    assert_eq!(acc.captures + acc.skipped_lines, acc.lines, "every counted line is a capture or skipped");
    assert!(acc.urls <= acc.captures && acc.hosts <= acc.captures);
    // A date equal to a bound's starting value (`00000000000000` for the
    // last, `99999999999999` for the first) leaves that bound empty, as
    // cdx-summary's sentinels do; otherwise first comes before last.
    if !acc.first_out().is_empty() && !acc.last_out().is_empty() {
        assert!(acc.first_out() <= acc.last_out(), "first {:?} after last {:?}", acc.first_out(), acc.last_out());
    }
    for write in [output::summary_json, output::report_json, output::extras_json] {
        let mut text = String::new();
        write(&mut text, acc);
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&text) {
            panic!("summary output is not JSON ({e}): {text}");
        }
        let indented = output::python_indent(&text);
        let a: serde_json::Value = serde_json::from_str(&text).expect("checked");
        let b: serde_json::Value = serde_json::from_str(&indented).unwrap_or_else(|e| panic!("indented output is not JSON ({e}): {indented}"));
        assert_eq!(a, b, "indenting changed the document");
    }
}

fn small_options() -> Options {
    // A low exact limit takes the HyperLogLog path too.
    Options { top: Some(3), samples: 2, seed: 7, exact_limit: 4 }
}

/// Target `cdx_line`: lines of a CDX file, fed to the summary.
pub fn cdx_line(data: &[u8]) {
    let mut acc = Accumulator::new(small_options());
    for line in lines(data) {
        if let Some(f) = parse_bytes(line) {
            check_fields(&f);
        }
        acc.line(line);
    }
    check_outputs(&acc);
}

/// Target `cdxj_line`: lines of a CDXJ file, converted to CDX-11 as the
/// summary does, then scanned and counted.
///
/// Checks: a converted line starts with the key and timestamp it came
/// from; then as `cdx_line`.
pub fn cdxj_line(data: &[u8]) {
    let mut acc = Accumulator::new(small_options());
    let mut out = Vec::new();
    for line in lines(data) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let _ = is_cdxj(line);
        if to_cdx11(line, &mut out) {
            let mut it = line.splitn(3, |&b| b == b' ');
            let (key, ts) = (it.next().unwrap_or_default(), it.next().unwrap_or_default());
            let head = [key, b" ", ts, b" "].concat();
            assert!(out.starts_with(&head), "converted line does not start with key and timestamp");
            if let Some(f) = parse_bytes(&out) {
                check_fields(&f);
            }
            acc.line(&out);
        } else {
            acc.line(line);
        }
    }
    check_outputs(&acc);
}

// --- the Parquet converter's lines, against an independent JSON reading ------

/// Any JSON scalar, as a string (the converter reads values as Gson's
/// `getAsString` does).
struct Scalar(String);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON scalar")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// The CDXJ keys the converter keeps; serde's own rules for the rest
/// (unknown keys ignored, a known key twice is an error, `null` is absent).
#[derive(Deserialize)]
struct Oracle {
    url: Option<Scalar>,
    mime: Option<Scalar>,
    status: Option<Scalar>,
    digest: Option<Scalar>,
    length: Option<Scalar>,
    offset: Option<Scalar>,
    filename: Option<Scalar>,
    redirect: Option<Scalar>,
    #[serde(rename = "mime-detected")]
    mime_detected: Option<Scalar>,
    charset: Option<Scalar>,
    languages: Option<Scalar>,
    truncated: Option<Scalar>,
}

fn fields_of(c: &Capture) -> Vec<Option<String>> {
    let s = |v: &Option<Cow<str>>| v.as_deref().map(str::to_string);
    vec![
        s(&c.url),
        s(&c.mime),
        s(&c.status),
        s(&c.digest),
        s(&c.length),
        s(&c.offset),
        s(&c.filename),
        s(&c.redirect),
        s(&c.mime_detected),
        s(&c.charset),
        s(&c.languages),
        s(&c.truncated),
    ]
}

fn fields_of_oracle(o: Oracle) -> Vec<Option<String>> {
    [o.url, o.mime, o.status, o.digest, o.length, o.offset, o.filename, o.redirect, o.mime_detected, o.charset, o.languages, o.truncated]
        .into_iter()
        .map(|v| v.map(|s| s.0))
        .collect()
}

/// Target `capture_line`: index lines as `warcdex parquet` reads them.
///
/// Checks: every format parses or fails without panicking; the key and
/// timestamp are the line's first two fields; a CDXJ line reads exactly as
/// a plain serde_json reading of its JSON says (the converter's quote-scan
/// fast path must never change a result); 11- and 9-field lines keep
/// their fields.
pub fn capture_line(data: &[u8]) {
    for line in lines(data) {
        let Ok(line) = std::str::from_utf8(line) else { continue };
        let _ = LineFormat::from_header(line);
        for format in [LineFormat::Cdx11, LineFormat::Cdx9] {
            if let Ok(c) = parse_line(line, format) {
                assert!(line.starts_with(&format!("{} {} ", c.urlkey, c.timestamp)));
            }
        }
        let got = parse_line(line, LineFormat::Auto);
        let trimmed = line.trim_end_matches(['\r', '\n']);
        let Some((key, rest)) = trimmed.split_once(' ') else {
            assert!(got.is_err(), "a line without a space parsed");
            continue;
        };
        let Some((ts, rest)) = rest.split_once(' ') else {
            assert!(got.is_err(), "a line without a second space parsed");
            continue;
        };
        if let Ok(c) = &got {
            assert_eq!((c.urlkey.as_ref(), c.timestamp.as_ref()), (key, ts));
        }
        if !rest.starts_with('{') {
            continue;
        }
        match (serde_json::from_str::<Oracle>(rest), got) {
            (Ok(o), Ok(c)) => assert_eq!(fields_of(&c), fields_of_oracle(o), "CDXJ fields of {line:?}"),
            (Err(_), Err(_)) => {}
            (o, c) => panic!("CDXJ {line:?}: serde says {:?}, the converter {:?}", o.is_ok(), c.map(|c| fields_of(&c))),
        }
    }
}
