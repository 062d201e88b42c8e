//! cdx-summary's grouping rules (`summarizer.py`): MIME groups, status
//! groups, and the fixed grids of the summary.

pub const MIME_GROUPS: [&str; 13] =
    ["HTML", "Image", "CSS", "JavaScript", "JSON", "XML", "Text", "PDF", "Font", "Audio", "Video", "Revisit", "Other"];
pub const STATUS_GROUPS: [&str; 5] = ["2XX", "3XX", "4XX", "5XX", "Other"];
pub const PATH_ROWS: [&str; 6] = ["P0", "P1", "P2", "P3", "P4", "Other"];
pub const QUERY_COLS: [&str; 6] = ["Q0", "Q1", "Q2", "Q3", "Q4", "Other"];
pub const MONTHS: [&str; 12] = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"];

fn mime_map(part: &str) -> Option<usize> {
    Some(match part {
        "html" => 0,
        "image" => 1,
        "css" => 2,
        "javascript" => 3,
        "json" => 4,
        "xml" => 5,
        "plain" => 6,
        "pdf" => 7,
        "font" => 8,
        "audio" => 9,
        "video" => 10,
        "revisit" => 11,
        "other" => 12,
        _ => return None,
    })
}

/// The index in [`MIME_GROUPS`] of a raw MIME type: `mime.lower()`, then the
/// subtype, then the type, then `xhtml*` and `*+xml`/`xml-*`, else Other.
pub fn mime_group(mime: &str) -> usize {
    let lower = py_lower(mime);
    let (group, subtype) = match lower.find('/') {
        Some(i) => (&lower[..i], &lower[i + 1..]),
        None => (lower.as_str(), ""),
    };
    if let Some(g) = mime_map(subtype).or_else(|| mime_map(group)) {
        return g;
    }
    if subtype.starts_with("xhtml") {
        return 0;
    }
    if subtype.ends_with("+xml") || subtype.starts_with("xml-") {
        return 5;
    }
    12
}

/// Python's `str.lower()`; only full Unicode lowering can matter for the
/// map's ASCII keys (e.g. KELVIN SIGN lowers to `k`), and Rust's
/// `to_lowercase` follows the same Unicode data.
fn py_lower(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

/// The index in [`STATUS_GROUPS`]: `f"{code[0]}XX"` when `"200" <= code < "600"`
/// as strings, else Other.
pub fn status_group(code: &str) -> usize {
    if code >= "200" && code < "600" {
        (code.as_bytes()[0] - b'2') as usize
    } else {
        4
    }
}

/// The row (or column) of a `P{n}`/`Q{n}` key in the path/query grid.
pub fn segment_slot(n: usize) -> usize {
    n.min(5)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(m: &str) -> &'static str {
        MIME_GROUPS[mime_group(m)]
    }

    #[test]
    fn mime_groups_as_the_spec_lists_them() {
        assert_eq!(g("text/html"), "HTML");
        assert_eq!(g("image/png"), "Image");
        assert_eq!(g("application/javascript"), "JavaScript");
        assert_eq!(g("text/javascript"), "JavaScript");
        assert_eq!(g("application/x-javascript"), "Other");
        assert_eq!(g("text/plain"), "Text");
        assert_eq!(g("font/woff2"), "Font");
        assert_eq!(g("application/font-woff"), "Other");
        assert_eq!(g("warc/revisit"), "Revisit");
        assert_eq!(g("application/rss+xml"), "XML");
        assert_eq!(g("application/xhtml+xml"), "HTML");
        assert_eq!(g("unk"), "Other");
        assert_eq!(g("-"), "Other");
        assert_eq!(g("text/html;charset=utf-8"), "Other");
        assert_eq!(g("TEXT/HTML"), "HTML");
        assert_eq!(g("html"), "HTML");
        assert_eq!(g("text/xml-dtd"), "XML");
    }

    #[test]
    fn status_groups_compare_as_strings() {
        let s = |c| STATUS_GROUPS[status_group(c)];
        assert_eq!(s("200"), "2XX");
        assert_eq!(s("599"), "5XX");
        assert_eq!(s("600"), "Other");
        assert_eq!(s("199"), "Other");
        assert_eq!(s("-"), "Other");
        assert_eq!(s("999"), "Other");
        assert_eq!(s("\u{662}00"), "Other");
    }
}
