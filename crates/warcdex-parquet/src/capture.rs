//! Index lines (CDXJ, 11-field CDX, 9-field CDX) and index entries of WARC
//! files, read into the fields the cc-index-table columns come from.

use std::borrow::Cow;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// One capture as the index gives it, before any derivation.
#[derive(Debug, Default, Clone)]
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

/// Parses one index line; `Err` names what is wrong.
pub fn parse_line<'a>(line: &'a str, format: LineFormat) -> Result<Capture<'a>, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let (urlkey, rest) = line.split_once(' ').ok_or("no timestamp")?;
    let (timestamp, rest) = rest.split_once(' ').ok_or("no fields after the timestamp")?;
    if rest.starts_with('{') {
        let j: CdxjJson = serde_json::from_str(rest).map_err(|e| format!("bad JSON: {e}"))?;
        let v = |x: Option<Val<'a>>| x.map(|x| x.0);
        return Ok(Capture {
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
        });
    }
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
}
