//! CDXJ lines as the 11-field CDX line warcdex would write for the same
//! capture (`warcdex_core::cdx`'s layout: missing fields `-`, the digest
//! without its `sha1:` label), so CDXJ gives exactly the summary of the
//! equivalent CDX (cdx-summary itself skips CDXJ lines).

use std::borrow::Cow;

use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
struct Fields<'a> {
    #[serde(borrow)]
    url: Option<Cow<'a, str>>,
    #[serde(borrow)]
    mime: Option<Cow<'a, str>>,
    #[serde(borrow)]
    status: Option<Cow<'a, str>>,
    #[serde(borrow)]
    digest: Option<Cow<'a, str>>,
    #[serde(borrow)]
    redirect: Option<Cow<'a, str>>,
    #[serde(borrow, alias = "robotflags")]
    robots: Option<Cow<'a, str>>,
    length: Option<serde_json::Value>,
    offset: Option<serde_json::Value>,
    #[serde(borrow)]
    filename: Option<Cow<'a, str>>,
}

/// True when `line` looks like CDXJ: `key timestamp {`.
pub fn is_cdxj(line: &[u8]) -> bool {
    let mut it = line.splitn(3, |&b| b == b' ');
    let (Some(k), Some(t), Some(rest)) = (it.next(), it.next(), it.next()) else { return false };
    !k.is_empty() && !t.is_empty() && rest.first() == Some(&b'{')
}

fn number(v: &Option<serde_json::Value>) -> String {
    match v {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        _ => "-".into(),
    }
}

/// Writes the equivalent CDX-11 line into `out`; false if the line is not CDXJ.
pub fn to_cdx11(line: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    let Ok(s) = std::str::from_utf8(line) else { return false };
    let mut it = s.splitn(3, ' ');
    let (Some(key), Some(ts), Some(json)) = (it.next(), it.next(), it.next()) else { return false };
    let Ok(f) = serde_json::from_str::<Fields>(json.trim_end()) else { return false };
    let dash = |v: &Option<Cow<str>>| v.as_deref().unwrap_or("-").to_string();
    let digest = f.digest.as_deref().map(|d| d.rsplit(':').next().unwrap_or(d).to_string()).unwrap_or_else(|| "-".into());
    let parts = [
        key.to_string(),
        ts.to_string(),
        dash(&f.url),
        dash(&f.mime),
        dash(&f.status),
        digest,
        dash(&f.redirect),
        dash(&f.robots),
        number(&f.length),
        number(&f.offset),
        dash(&f.filename),
    ];
    out.extend_from_slice(parts.join(" ").as_bytes());
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdxj_becomes_the_cdx11_warcdex_writes() {
        let l = br#"io,gentan-rour,forum)/robots.txt 20190101000002 {"url": "https://forum.gentan-rour.io/robots.txt", "mime": "text/plain", "status": "200", "digest": "sha1:45L4JR6SOEIP72BBTAHI7RLKH6PIKNYS", "length": "633", "offset": "1223", "filename": "sample-00000.warc.gz"}"#;
        assert!(is_cdxj(l));
        let mut out = Vec::new();
        assert!(to_cdx11(l, &mut out));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "io,gentan-rour,forum)/robots.txt 20190101000002 https://forum.gentan-rour.io/robots.txt text/plain 200 45L4JR6SOEIP72BBTAHI7RLKH6PIKNYS - - 633 1223 sample-00000.warc.gz"
        );
        assert!(!is_cdxj(b"com,x)/ 20190101000002 http://x/ text/html 200 D - - 1 2 f"));
    }
}
