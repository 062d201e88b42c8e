//! The first line of every `${id}.html`: `<!-- ${timestamp}\t${url} -->\n`.
//! The page's length and md5 in the manifest are those of the response that
//! follows this line (the line itself is the dump's addition).

/// The longest header line looked for (URLs in the wild stay far below).
pub const MAX_HEADER_LINE: usize = 64 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header<'a> {
    pub timestamp: i64,
    pub url: &'a str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderError {
    /// The page does not start with `<!-- ` or has no first line.
    Missing,
    /// It starts like a header line but is not `<!-- TS\tURL -->`.
    Malformed(String),
}

/// Splits a page into its header line and the response after it. With no
/// usable header line, the whole page is the response.
pub fn split(page: &[u8]) -> (Result<Header<'_>, HeaderError>, &[u8]) {
    if !page.starts_with(b"<!-- ") {
        return (Err(HeaderError::Missing), page);
    }
    let window = &page[..page.len().min(MAX_HEADER_LINE)];
    let Some(nl) = window.iter().position(|&b| b == b'\n') else {
        return (Err(HeaderError::Malformed("header line has no end".into())), page);
    };
    let line = &page[..nl];
    let body = &page[nl + 1..];
    let Ok(text) = std::str::from_utf8(line) else {
        return (Err(HeaderError::Malformed("header line is not UTF-8".into())), body);
    };
    let inner = text.strip_prefix("<!-- ").and_then(|t| t.strip_suffix(" -->"));
    let Some(inner) = inner else {
        return (Err(HeaderError::Malformed(format!("header line {text:?} does not end with ' -->'"))), body);
    };
    let Some((ts, url)) = inner.split_once('\t') else {
        return (Err(HeaderError::Malformed(format!("header line {text:?} has no tab between timestamp and url"))), body);
    };
    match ts.parse::<i64>() {
        Ok(timestamp) if !url.is_empty() => (Ok(Header { timestamp, url }), body),
        _ => (Err(HeaderError::Malformed(format!("header line {text:?} has no timestamp and url"))), body),
    }
}

/// The header line for a page (what the generator writes).
pub fn header_line(timestamp: i64, url: &str) -> String {
    format!("<!-- {timestamp}\t{url} -->\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_split_off_the_response() {
        let (h, body) = split(b"<!-- 1600000000\thttp://a.example/x?y=1 -->\n<html>\r\n");
        assert_eq!(h.unwrap(), Header { timestamp: 1600000000, url: "http://a.example/x?y=1" });
        assert_eq!(body, b"<html>\r\n");
        assert_eq!(split(b"<html>\n").0, Err(HeaderError::Missing));
        // A space instead of the tab is malformed, and the line is still split off.
        let (h, body) = split(b"<!-- 1600000000 http://a/ -->\nX");
        assert!(matches!(h, Err(HeaderError::Malformed(_))));
        assert_eq!(body, b"X");
    }
}
