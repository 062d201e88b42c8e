//! `multipart/*` request bodies as pywb 2.x reads them for its POST append:
//! through Python's `cgi.FieldStorage` (Python 3.11, `keep_blank_values`,
//! UTF-8 with `errors='replace'`), then `urlencode(values, doseq=True)` of
//! every part's `(name, value)`.
//!
//! What that means, compared with cdxj-indexer's `multipart` package:
//! - the boundary is the `boundary` parameter as `cgi.parse_header` reads it
//!   (quotes removed); one that is missing or not 1 to 201 printable ASCII
//!   characters (not ending in a space) makes `FieldStorage` raise
//!   `ValueError`, and pywb then keeps the body as base64;
//! - nothing else raises: text before the first boundary is skipped, a part
//!   without a closing boundary ends at the end of the body, a part without
//!   `Content-Disposition` is named `None`;
//! - a text field's lines are decoded one by one with `errors='replace'`; a
//!   part with a `filename` parameter (even empty) keeps its raw bytes;
//! - the value ends before the line break that precedes the next boundary.
//!
//! A part whose own content type is `application/x-www-form-urlencoded` or
//! `multipart/...` has a list as its value, which `urlencode` renders through
//! Python object representations; that is not reproduced
//! ([`CgiError::NestedForm`]).

use super::pystr::{py_strip, urlencode};

/// `FieldStorage` reads lines of at most this many bytes inside a part.
const MAX_LINE: usize = 1 << 16;

/// Why no query is given for a multipart body that pywb does index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CgiError {
    /// A part is itself a form (urlencoded or multipart): its value is a list
    /// of field objects, rendered by Python's `repr`.
    NestedForm(String),
}

/// The query for a `multipart/*` body, `None` where `FieldStorage` raises
/// `ValueError` (no usable boundary), which pywb answers with base64.
pub(super) fn field_storage_query(content_type: &str, body: &[u8]) -> Result<Option<String>, CgiError> {
    let (_, params) = parse_header(content_type);
    let boundary = params
        .iter()
        .rev()
        .find(|(name, _)| name == "boundary")
        .map(|(_, value)| value.as_bytes().to_vec())
        .unwrap_or_default();
    if !valid_boundary(&boundary) {
        return Ok(None);
    }
    let Some(parts) = read_multi(body, &boundary)? else {
        return Ok(None);
    };
    let pairs: Vec<(Vec<u8>, Vec<u8>)> = parts
        .into_iter()
        .map(|part| (part.name.unwrap_or_else(|| "None".to_owned()).into_bytes(), part.value))
        .collect();
    Ok(Some(urlencode(pairs.iter().map(|(k, v)| (k.as_slice(), v.as_slice())))))
}

/// `cgi.valid_boundary`: `^[ -~]{0,200}[!-~]$`.
fn valid_boundary(boundary: &[u8]) -> bool {
    match boundary.split_last() {
        Some((last, rest)) => {
            rest.len() <= 200 && rest.iter().all(|b| (b' '..=b'~').contains(b)) && (b'!'..=b'~').contains(last)
        }
        None => false,
    }
}

/// One field: its name (`None` without a `name` parameter) and the bytes
/// `urlencode` quotes (UTF-8 of the decoded text, or a file's raw bytes).
struct Field {
    name: Option<String>,
    value: Vec<u8>,
}

/// `readline(limit)` over a byte string, as `BytesIO` does it.
struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Lines<'a> {
    fn readline(&mut self, limit: usize) -> &'a [u8] {
        let rest = &self.data[self.pos..];
        let end = match memchr::memchr(b'\n', rest) {
            Some(nl) => (nl + 1).min(limit),
            None => rest.len().min(limit),
        };
        self.pos += end;
        &rest[..end]
    }
}

/// `FieldStorage.read_multi` at the top level.
/// `None` where a nested part raises `ValueError`.
fn read_multi(body: &[u8], boundary: &[u8]) -> Result<Option<Vec<Field>>, CgiError> {
    let mut lines = Lines { data: body, pos: 0 };
    let mut delimiter = b"--".to_vec();
    delimiter.extend_from_slice(boundary);
    // Everything up to the first boundary line is skipped.
    loop {
        let line = lines.readline(usize::MAX);
        if line.is_empty() || ascii_strip(line) == delimiter.as_slice() {
            break;
        }
    }
    let mut fields = Vec::new();
    loop {
        // Part headers: lines up to one that is blank once stripped (or the end).
        let start = lines.pos;
        loop {
            let line = lines.readline(usize::MAX);
            if ascii_strip(line).is_empty() {
                break;
            }
        }
        if lines.pos == start {
            break;
        }
        let header_text = String::from_utf8_lossy(&body[start..lines.pos]);
        let headers = parse_part_headers(&header_text);
        let header = |name: &str| headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
        let (name, filename) = match header("content-disposition") {
            Some(value) => {
                let (_, params) = parse_header(value);
                let param = |key: &str| params.iter().rev().find(|(n, _)| n == key).map(|(_, v)| v.clone());
                (param("name"), param("filename"))
            }
            None => (None, None),
        };
        if let Some((part_type, part_params)) = header("content-type").map(parse_header) {
            if part_type.starts_with("multipart/") {
                // A nested form checks its own boundary first: ValueError again.
                let inner = part_params.iter().rev().find(|(n, _)| n == "boundary").map(|(_, v)| v.as_bytes());
                if !valid_boundary(inner.unwrap_or_default()) {
                    return Ok(None);
                }
                return Err(CgiError::NestedForm(part_type));
            }
            if part_type == "application/x-www-form-urlencoded" {
                return Err(CgiError::NestedForm(part_type));
            }
        }
        let (value, done) = read_lines_to_outer_boundary(&mut lines, boundary, filename.is_some());
        fields.push(Field { name, value });
        if done || lines.pos >= body.len() {
            break;
        }
    }
    Ok(Some(fields))
}

/// `read_lines_to_outerboundary`: the part's content up to the next boundary
/// line, without the line break before it. Returns the value and whether
/// the body is done (closing boundary or end of input).
fn read_lines_to_outer_boundary(lines: &mut Lines, boundary: &[u8], binary: bool) -> (Vec<u8>, bool) {
    let mut next = b"--".to_vec();
    next.extend_from_slice(boundary);
    let mut last = next.clone();
    last.extend_from_slice(b"--");
    let mut value = Vec::new();
    let mut text = String::new();
    let mut delim: &[u8] = b"";
    let mut last_line_lf_end = true;
    let mut pending_cr = false;
    let mut done = false;
    loop {
        let read = lines.readline(MAX_LINE);
        if read.is_empty() {
            done = true;
            break;
        }
        let mut line: Vec<u8> = Vec::with_capacity(read.len() + 1);
        if pending_cr {
            line.push(b'\r');
            pending_cr = false;
        }
        line.extend_from_slice(read);
        if line.starts_with(b"--") && last_line_lf_end {
            let stripped = ascii_rstrip(&line);
            if stripped == next.as_slice() {
                break;
            }
            if stripped == last.as_slice() {
                done = true;
                break;
            }
        }
        let previous_delim = delim;
        let content_end;
        if line.ends_with(b"\r\n") {
            delim = b"\r\n";
            content_end = line.len() - 2;
            last_line_lf_end = true;
        } else if line.ends_with(b"\n") {
            delim = b"\n";
            content_end = line.len() - 1;
            last_line_lf_end = true;
        } else if line.ends_with(b"\r") {
            // Held back: it may be the first half of a CRLF split by the line limit.
            delim = b"";
            pending_cr = true;
            content_end = line.len() - 1;
            last_line_lf_end = false;
        } else {
            delim = b"";
            content_end = line.len();
            last_line_lf_end = false;
        }
        let mut piece = previous_delim.to_vec();
        piece.extend_from_slice(&line[..content_end]);
        if binary {
            value.extend_from_slice(&piece);
        } else {
            // Each write is decoded on its own.
            text.push_str(&String::from_utf8_lossy(&piece));
        }
    }
    if binary {
        (value, done)
    } else {
        (text.into_bytes(), done)
    }
}

/// The header lines of a part as the `email` package's feed parser (compat32
/// policy) reads them: lines split at CR, LF or CRLF; headers end at the
/// first line that does not look like one; continuation lines are joined
/// (keeping their line breaks inside the value); `From ` lines and lines
/// starting with `:` are dropped. Values have leading blanks removed and
/// trailing line breaks stripped. `Content-Length` is removed, as
/// `FieldStorage` does.
fn parse_part_headers(text: &str) -> Vec<(String, String)> {
    let mut raw_lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = match rest.find(['\r', '\n']) {
            Some(i) if rest[i..].starts_with("\r\n") => i + 2,
            Some(i) => i + 1,
            None => rest.len(),
        };
        raw_lines.push(&rest[..end]);
        rest = &rest[end..];
    }
    let lines: Vec<&str> = raw_lines.into_iter().take_while(|line| looks_like_header(line)).collect();
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in &lines {
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = current.as_mut() {
                value.push_str(line);
            }
            continue;
        }
        headers.extend(current.take());
        if line.starts_with("From ") {
            continue;
        }
        match line.find(':') {
            Some(i) if i > 0 => {
                let value = line[i + 1..].trim_start_matches([' ', '\t']);
                current = Some((line[..i].to_owned(), value.to_owned()));
            }
            _ => {}
        }
    }
    headers.extend(current);
    for (_, value) in &mut headers {
        let kept = value.trim_end_matches(['\r', '\n']).len();
        value.truncate(kept);
    }
    headers.retain(|(name, _)| !name.eq_ignore_ascii_case("content-length"));
    headers
}

/// `email.feedparser.headerRE`: `^(From |[\041-\071\073-\176]*:|[\t ])`.
fn looks_like_header(line: &str) -> bool {
    if line.starts_with("From ") || line.starts_with([' ', '\t']) {
        return true;
    }
    let name_len = line.bytes().take_while(|b| (0x21..=0x7e).contains(b) && *b != b':').count();
    line.as_bytes().get(name_len) == Some(&b':')
}

/// `cgi.parse_header`: the value before the first `;`, and the parameters
/// in order (names stripped and lower-cased, values stripped and unquoted).
/// A later parameter of the same name wins when looked up from the end.
fn parse_header(line: &str) -> (String, Vec<(String, String)>) {
    let mut pieces = parse_params(line).into_iter();
    let key = pieces.next().unwrap_or_default();
    let mut params = Vec::new();
    for piece in pieces {
        let Some(eq) = piece.find('=') else { continue };
        let name = py_strip(&piece[..eq]).to_lowercase();
        let mut value = py_strip(&piece[eq + 1..]).to_owned();
        if value.chars().count() >= 2 && value.starts_with('"') && value.ends_with('"') {
            value = value[1..value.len() - 1].replace("\\\\", "\\").replace("\\\"", "\"");
        }
        params.push((name, value));
    }
    (key, params)
}

/// `cgi._parseparam(';' + line)`: split at `;` outside double quotes (a `\"`
/// does not count as a quote), each piece stripped.
fn parse_params(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut s = format!(";{line}");
    while let Some(rest) = s.strip_prefix(';') {
        let rest = rest.to_owned();
        let quotes_before = |end: usize| rest[..end].matches('"').count() - rest[..end].matches("\\\"").count();
        let mut end = rest.find(';');
        while let Some(e) = end {
            if e > 0 && quotes_before(e) % 2 == 1 {
                end = rest[e + 1..].find(';').map(|n| n + e + 1);
            } else {
                break;
            }
        }
        let end = end.unwrap_or(rest.len());
        out.push(py_strip(&rest[..end]).to_owned());
        s = rest[end..].to_owned();
    }
    out
}

/// `bytes.strip()`: ASCII whitespace (space, `\t\n\r\x0b\x0c`) on both ends.
fn ascii_strip(bytes: &[u8]) -> &[u8] {
    let trimmed = ascii_rstrip(bytes);
    let start = trimmed.iter().position(|b| !is_ascii_space(*b)).unwrap_or(trimmed.len());
    &trimmed[start..]
}

fn ascii_rstrip(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().rposition(|b| !is_ascii_space(*b)).map_or(0, |i| i + 1);
    &bytes[..end]
}

fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(content_type: &str, body: &[u8]) -> Option<String> {
        field_storage_query(content_type, body).unwrap()
    }

    #[test]
    fn fields_files_and_unnamed_parts() {
        let body = b"--XX\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello world\r\n\
--XX\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\xff\r\n\
--XX\r\nContent-Disposition: form-data\r\n\r\nnoname\r\n--XX--\r\n";
        assert_eq!(
            query("multipart/form-data; boundary=XX", body).unwrap(),
            "a=hello+world&f=%00%FF&None=noname"
        );
    }

    #[test]
    fn text_is_decoded_with_replacement() {
        let body = b"--XX\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\xe9t\xc3\xa9\r\n--XX--";
        assert_eq!(query("multipart/form-data; boundary=\"XX\"", body).unwrap(), "a=%EF%BF%BDt%C3%A9");
    }

    #[test]
    fn boundaries() {
        assert_eq!(query("multipart/form-data", b"x"), None);
        assert_eq!(query("multipart/form-data; boundary=", b"x"), None);
        assert_eq!(query("multipart/form-data; boundary=\"a \"", b"x"), None);
        assert_eq!(query(&format!("multipart/form-data; boundary={}", "b".repeat(202)), b"x"), None);
        assert_eq!(query("multipart/form-data; boundary=XX", b"no boundary here\r\n").unwrap(), "");
        // A part without a closing boundary runs to the end of the body.
        let open = b"preamble\r\n--XX\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nline1\r\nline2\r\n";
        assert_eq!(query("multipart/form-data; boundary=XX", open).unwrap(), "a=line1%0D%0Aline2");
    }

    #[test]
    fn nested_forms_are_not_reproduced() {
        let body = b"--XX\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Type: multipart/mixed; boundary=YY\r\n\r\n--YY--\r\n--XX--";
        assert!(field_storage_query("multipart/form-data; boundary=XX", body).is_err());
    }

    #[test]
    fn header_parsing() {
        assert_eq!(
            parse_header("form-data; name=\"a;b\"; filename=\"c\\\"d\""),
            ("form-data".to_owned(), vec![("name".to_owned(), "a;b".to_owned()), ("filename".to_owned(), "c\"d".to_owned())])
        );
        let headers = parse_part_headers("Content-Disposition: form-data;\r\n name=\"x\"\r\nContent-Length: 3\r\nbad line\r\nX: y\r\n");
        assert_eq!(headers, vec![("Content-Disposition".to_owned(), "form-data;\r\n name=\"x\"".to_owned())]);
    }
}
