//! `multipart/*` request bodies as cdxj-indexer 1.5.0 reads them, through the
//! `multipart` 2.0.1 package (`MultipartParser(stream, boundary, charset="utf8")`,
//! non-strict, default limits). Fields become `name=value` pairs; a part
//! with a file name contributes its raw bytes, percent-encoded.
//!
//! That parser raises on anything it does not like (no closing boundary, a
//! part without `Content-Disposition: form-data`, more than 128 parts, an
//! undecodable text field...). cdxj-indexer does not catch those errors, so
//! the indexer stops; here they come back as [`MultipartError`].
//!
//! The parser is fed in 64 KiB chunks like the original, because a few of
//! its checks only look at what is buffered.

use super::pystr::{decode_strict, lookup_codec, py_strip, py_title, urlencode};

/// `MultipartParser`'s `buffer_size`: the body is read and parsed in chunks of this size.
const CHUNK_SIZE: usize = 64 * 1024;
/// `headersize_limit`: the longest part header line accepted.
const MAX_HEADER_LINE: usize = 4096 + 128;
/// `header_limit`: headers per part.
const MAX_HEADERS_PER_PART: usize = 8;
/// `part_limit`: parts per body.
const MAX_PARTS: usize = 128;
/// Header names taken as they are, without title-casing or validation.
const KNOWN_HEADERS: [&str; 4] = [
    "Content-Disposition",
    "Content-Type",
    "Content-Length",
    "Content-Range",
];

/// Why the reference multipart parser raised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MultipartError {
    /// A `multipart.MultipartError` (message as in the original).
    Parser(&'static str),
    /// A text field's bytes do not decode in its charset (`UnicodeDecodeError`).
    FieldDecode,
    /// A text field names a charset other than UTF-8, Latin-1 or ASCII: Python
    /// either decodes it with a codec not reproduced here or raises
    /// `LookupError`.
    UnsupportedCharset(String),
}

/// The query for a multipart body with the given `boundary` (everything
/// after `boundary=` in the content type, quotes and all).
pub(super) fn multipart_query(body: &[u8], boundary: &str) -> Result<String, MultipartError> {
    let mut parser = PushParser::new(boundary.as_bytes())?;
    for chunk in body.chunks(CHUNK_SIZE) {
        parser.feed(chunk)?;
    }
    let parts = parser.finish()?;
    let mut values = Vec::with_capacity(parts.len());
    for part in &parts {
        values.push((part.name.as_bytes().to_vec(), part.query_value()?));
    }
    Ok(urlencode(
        values
            .iter()
            .map(|(name, value)| (name.as_slice(), value.as_slice())),
    ))
}

/// One complete part.
struct Part {
    name: String,
    filename: Option<String>,
    charset: Option<String>,
    body: Vec<u8>,
}

impl Part {
    /// The bytes that `urlencode` quotes for this part: raw for a file upload,
    /// else the text decoded in the part's charset (UTF-8 by default).
    fn query_value(&self) -> Result<Vec<u8>, MultipartError> {
        if self
            .filename
            .as_deref()
            .is_some_and(|name| !name.is_empty())
        {
            return Ok(self.body.clone());
        }
        let charset = self
            .charset
            .as_deref()
            .filter(|charset| !charset.is_empty())
            .unwrap_or("utf8");
        let codec = lookup_codec(charset)
            .ok_or_else(|| MultipartError::UnsupportedCharset(charset.to_owned()))?;
        let text = decode_strict(&self.body, codec).ok_or(MultipartError::FieldDecode)?;
        Ok(text.into_bytes())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Preamble,
    Header,
    Body,
    Complete,
}

/// The incremental parser (`PushMultipartParser`), collecting parts.
struct PushParser {
    /// `\r\n--boundary`; the first one may come without the line break.
    delimiter: Vec<u8>,
    /// Bytes kept from the previous chunk because they may start a delimiter.
    buffer: Vec<u8>,
    state: State,
    part_count: usize,
    headers: Vec<(String, String)>,
    /// The part's own `Content-Length`, if it gave one.
    declared_length: Option<usize>,
    current: Option<Part>,
    parts: Vec<Part>,
}

fn parser_error(message: &'static str) -> MultipartError {
    MultipartError::Parser(message)
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|i| i + from)
}

/// Python's `bytes.rfind(b"\r", start)`.
fn rfind_cr(haystack: &[u8], start: usize) -> Option<usize> {
    haystack
        .get(start..)?
        .iter()
        .rposition(|&byte| byte == b'\r')
        .map(|i| i + start)
}

impl PushParser {
    fn new(boundary: &[u8]) -> Result<Self, MultipartError> {
        if boundary.is_empty() {
            return Err(parser_error("Empty boundary"));
        }
        if boundary.contains(&b'\n') {
            return Err(parser_error("Invalid characters in boundary"));
        }
        Ok(PushParser {
            delimiter: [b"\r\n--".as_slice(), boundary].concat(),
            buffer: Vec::new(),
            state: State::Preamble,
            part_count: 0,
            headers: Vec::new(),
            declared_length: None,
            current: None,
            parts: Vec::new(),
        })
    }

    /// End of input: the closing delimiter must have been seen.
    fn finish(self) -> Result<Vec<Part>, MultipartError> {
        if self.state != State::Complete {
            return Err(parser_error(
                "Unexpected end of multipart stream (parser closed)",
            ));
        }
        Ok(self.parts)
    }

    fn feed(&mut self, chunk: &[u8]) -> Result<(), MultipartError> {
        // Whatever follows the closing delimiter is ignored.
        if self.state == State::Complete {
            return Ok(());
        }
        let mut buffer = std::mem::take(&mut self.buffer);
        buffer.extend_from_slice(chunk);
        let mut offset = 0;
        while offset < buffer.len() {
            let step = match self.state {
                State::Preamble => self.scan_preamble(&buffer, offset)?,
                State::Header => self.scan_header(&buffer, offset)?,
                State::Body => self.scan_body(&buffer, offset)?,
                State::Complete => Step::Wait(offset),
            };
            match step {
                Step::Continue(next) => offset = next,
                Step::Wait(next) => {
                    offset = next;
                    break;
                }
            }
        }
        self.buffer = buffer.split_off(offset);
        Ok(())
    }

    /// Before the first delimiter: skip the preamble, which must end with a
    /// line break unless the delimiter opens the body.
    fn scan_preamble(&mut self, buffer: &[u8], offset: usize) -> Result<Step, MultipartError> {
        let d_len = self.delimiter.len();
        if buffer.len() < d_len {
            return Ok(Step::Wait(offset));
        }
        if let Some(index) = find(buffer, &self.delimiter[2..], offset) {
            if index > 0 && (index < 2 || &buffer[index - 2..index] != b"\r\n") {
                return Err(parser_error("Unexpected byte in front of first boundary"));
            }
            let next_start = index + d_len;
            let tail = buffer
                .get(next_start - 2..next_start.min(buffer.len()))
                .unwrap_or_default();
            return match tail {
                b"\r\n" => {
                    self.start_part()?;
                    self.state = State::Header;
                    Ok(Step::Continue(next_start))
                }
                b"--" => {
                    self.state = State::Complete;
                    Ok(Step::Wait(next_start))
                }
                [b'\n', ..] => Err(parser_error("Invalid line break after first boundary")),
                _ if next_start <= buffer.len() => {
                    Err(parser_error("Unexpected byte after first boundary"))
                }
                _ => Ok(Step::Wait(index.saturating_sub(2))),
            };
        }
        // Keep a trailing `\r...` that could be the start of the delimiter.
        let keep_from = rfind_cr(buffer, buffer.len() - (d_len - 1)).unwrap_or(buffer.len());
        Ok(Step::Wait(keep_from))
    }

    fn scan_header(&mut self, buffer: &[u8], offset: usize) -> Result<Step, MultipartError> {
        match find(buffer, b"\r\n", offset) {
            Some(line_end) if line_end > offset => {
                self.header_line(&buffer[offset..line_end])?;
                Ok(Step::Continue(line_end + 2))
            }
            Some(_) => {
                self.begin_body()?;
                self.state = State::Body;
                Ok(Step::Continue(offset + 2))
            }
            None => {
                if buffer[offset..].contains(&b'\n') {
                    return Err(parser_error("Invalid line break in segment header"));
                }
                if buffer.len() - offset > MAX_HEADER_LINE {
                    return Err(parser_error("Maximum segment header length exceeded"));
                }
                Ok(Step::Wait(offset))
            }
        }
    }

    fn scan_body(&mut self, buffer: &[u8], offset: usize) -> Result<Step, MultipartError> {
        let d_len = self.delimiter.len();
        if let Some(index) = find(buffer, &self.delimiter, offset) {
            self.body_bytes(&buffer[offset..index])?;
            let next_start = index + d_len + 2;
            match buffer.get(index + d_len..next_start) {
                Some(b"\r\n") => {
                    self.end_part()?;
                    self.start_part()?;
                    self.state = State::Header;
                    return Ok(Step::Continue(next_start));
                }
                Some(b"--") => {
                    self.end_part()?;
                    self.state = State::Complete;
                    return Ok(Step::Wait(next_start));
                }
                None => return Ok(Step::Wait(index)),
                Some(_) => return Err(parser_error("Unexpected bytes after boundary")),
            }
        }
        // No delimiter: pass on everything but a trailing `\r...` that could
        // be the start of one.
        let search_from = offset.max(buffer.len().saturating_sub(d_len - 1));
        match rfind_cr(buffer, search_from) {
            Some(index) if self.delimiter.starts_with(&buffer[index..]) => {
                self.body_bytes(&buffer[offset..index])?;
                Ok(Step::Wait(index))
            }
            _ => {
                self.body_bytes(&buffer[offset..])?;
                Ok(Step::Wait(buffer.len()))
            }
        }
    }

    fn start_part(&mut self) -> Result<(), MultipartError> {
        self.part_count += 1;
        if self.part_count > MAX_PARTS {
            return Err(parser_error("Maximum segment count exceeded"));
        }
        self.headers.clear();
        self.declared_length = None;
        self.current = None;
        Ok(())
    }

    /// One header line; a line starting with a space or tab continues the
    /// previous header.
    fn header_line(&mut self, line: &[u8]) -> Result<(), MultipartError> {
        let mut joined;
        let mut line = line;
        if matches!(line[0], b' ' | b'\t') {
            let Some((name, value)) = self.headers.pop() else {
                return Err(parser_error("Unexpected segment header continuation"));
            };
            if line
                .iter()
                .all(|byte| byte.is_ascii_whitespace() || *byte == 0x0B)
            {
                return Err(parser_error("Empty segment header continuation"));
            }
            joined = format!("{name}: {value} ").into_bytes();
            joined.extend_from_slice(&line[1..]);
            line = &joined;
        }
        if line.len() > MAX_HEADER_LINE {
            return Err(parser_error("Maximum segment header length exceeded"));
        }
        if self.headers.len() >= MAX_HEADERS_PER_PART {
            return Err(parser_error("Maximum segment header count exceeded"));
        }
        let line = std::str::from_utf8(line)
            .map_err(|_| parser_error("Segment header failed to decode"))?;
        let Some((name, value)) = line.split_once(':') else {
            return Err(parser_error("Malformed segment header"));
        };
        let name = normalize_header_name(name)?;
        let value = value.trim_start_matches([' ', '\t']);
        if name == "Content-Length" {
            self.declare_length(value)?;
        }
        self.headers.push((name, value.to_owned()));
        Ok(())
    }

    /// A part's `Content-Length` must be a plain unsigned decimal.
    fn declare_length(&mut self, value: &str) -> Result<(), MultipartError> {
        if self.declared_length.is_some() {
            return Err(parser_error("Multiple segment Content-Length headers"));
        }
        let canonical = value == "0"
            || (value.starts_with(|c: char| ('1'..='9').contains(&c))
                && value.bytes().all(|b| b.is_ascii_digit()));
        if !canonical || value.len() > super::pystr::MAX_INT_DIGITS {
            return Err(parser_error("Invalid segment Content-Length header value"));
        }
        self.declared_length = Some(value.parse().unwrap_or(usize::MAX));
        Ok(())
    }

    /// The blank line after the headers: the part must be `form-data`.
    fn begin_body(&mut self) -> Result<(), MultipartError> {
        let mut disposition = None;
        let mut name = None;
        let mut filename = None;
        let mut charset = None;
        // Later headers of the same kind override earlier ones.
        for (header, value) in &self.headers {
            match header.as_str() {
                "Content-Disposition" => {
                    (disposition, name, filename) = parse_content_disposition(value)
                }
                "Content-Type" => {
                    charset = parse_options(value, header_unquote)
                        .1
                        .into_iter()
                        .rev()
                        .find(|(key, _)| key == "charset")
                        .map(|(_, value)| value)
                }
                _ => {}
            }
        }
        match disposition.as_deref() {
            Some("form-data") => {}
            None => return Err(parser_error("Missing Content-Disposition segment header")),
            Some(_) => {
                return Err(parser_error(
                    "Invalid Content-Disposition segment header: Wrong type",
                ))
            }
        }
        self.current = Some(Part {
            name: name.unwrap_or_default(),
            filename,
            charset,
            body: Vec::new(),
        });
        Ok(())
    }

    fn body_bytes(&mut self, bytes: &[u8]) -> Result<(), MultipartError> {
        let part = self
            .current
            .as_mut()
            .expect("body bytes only follow a part's headers");
        part.body.extend_from_slice(bytes);
        if self
            .declared_length
            .is_some_and(|declared| part.body.len() > declared)
        {
            return Err(parser_error("Segment Content-Length exceeded"));
        }
        Ok(())
    }

    fn end_part(&mut self) -> Result<(), MultipartError> {
        let part = self
            .current
            .take()
            .expect("a part ends only after its headers");
        if self
            .declared_length
            .is_some_and(|declared| part.body.len() < declared)
        {
            return Err(parser_error(
                "Segment size does not match Content-Length header",
            ));
        }
        self.parts.push(part);
        Ok(())
    }
}

/// What to do after scanning: go on at this offset, or keep the buffer from
/// this offset and wait for the next chunk.
enum Step {
    Continue(usize),
    Wait(usize),
}

/// Known names stay as written; others are stripped, title-cased and must
/// then be plain tokens (`[A-Za-z0-9_-]+`).
fn normalize_header_name(name: &str) -> Result<String, MultipartError> {
    if KNOWN_HEADERS.contains(&name) {
        return Ok(name.to_owned());
    }
    let name = py_title(py_strip(name));
    let is_token = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if KNOWN_HEADERS.contains(&name.as_str()) || is_token {
        Ok(name)
    } else {
        Err(parser_error("Invalid segment header name"))
    }
}

type Unquote = fn(&str, bool) -> String;

/// `(disposition, name, filename)` of a `Content-Disposition` value. The exact
/// shapes browsers send are split on quotes; anything else goes through the
/// general option parser.
fn parse_content_disposition(value: &str) -> (Option<String>, Option<String>, Option<String>) {
    let pieces: Vec<&str> = value.splitn(5, '"').collect();
    if pieces[0] == "form-data; name=" && pieces.last() == Some(&"") {
        let unquote_name = |name: &str| {
            if name.contains('%') {
                content_disposition_unquote(name, false)
            } else {
                name.to_owned()
            }
        };
        if pieces.len() == 3 {
            return (
                Some("form-data".into()),
                Some(unquote_name(pieces[1])),
                None,
            );
        }
        if pieces.len() == 5 && pieces[2] == "; filename=" {
            let filename = pieces[3];
            let filename = if filename.contains(['%', '\\']) {
                content_disposition_unquote(filename, true)
            } else {
                filename.to_owned()
            };
            return (
                Some("form-data".into()),
                Some(unquote_name(pieces[1])),
                Some(filename),
            );
        }
    }
    let (disposition, options) = parse_options(value, content_disposition_unquote);
    let option = |wanted: &str| {
        options
            .iter()
            .rev()
            .find(|(key, _)| key == wanted)
            .map(|(_, value)| value.clone())
    };
    (Some(disposition), option("name"), option("filename"))
}

/// `parse_options_header`: the lower-cased value before the first `;`, and
/// every `; key=value` option after it (keys lower-cased, values unquoted).
fn parse_options(header: &str, unquote: Unquote) -> (String, Vec<(String, String)>) {
    let Some(semicolon) = header.find(';') else {
        return (py_strip(&header.to_lowercase()).to_owned(), Vec::new());
    };
    let mut options = Vec::new();
    let mut pos = semicolon;
    while pos < header.len() {
        match match_option(header, pos) {
            Some((key, value, end)) => {
                let key = key.to_ascii_lowercase();
                let is_filename = key == "filename";
                options.push((key, unquote(value, is_filename)));
                pos = end;
            }
            None => pos += 1,
        }
    }
    (
        py_strip(&header[..semicolon].to_lowercase()).to_owned(),
        options,
    )
}

/// The regex `; *([a-zA-Z0-9-_]+) *= *("[^\\"]*"|TOKEN|"(?:\\.|[^\\"])*")`
/// anchored at `pos`: `(key, raw value, end)`.
fn match_option(text: &str, pos: usize) -> Option<(&str, &str, usize)> {
    let bytes = text.as_bytes();
    let skip_spaces = |mut at: usize| {
        while bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        at
    };
    if bytes.get(pos) != Some(&b';') {
        return None;
    }
    let key_start = skip_spaces(pos + 1);
    let key_end = key_start
        + bytes[key_start..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            .count();
    if key_end == key_start {
        return None;
    }
    let equals = skip_spaces(key_end);
    if bytes.get(equals) != Some(&b'=') {
        return None;
    }
    let value_start = skip_spaces(equals + 1);
    let value_end = match_option_value(bytes, value_start)?;
    Some((
        &text[key_start..key_end],
        &text[value_start..value_end],
        value_end,
    ))
}

fn match_option_value(bytes: &[u8], start: usize) -> Option<usize> {
    const TOKEN_PUNCTUATION: &[u8] = b"-!#$%&'*+.^_`|~";
    if bytes.get(start) == Some(&b'"') {
        // A quoted string; a backslash escapes any character but a line feed.
        let mut at = start + 1;
        loop {
            match bytes.get(at)? {
                b'"' => return Some(at + 1),
                b'\\' if bytes.get(at + 1).is_some_and(|&next| next != b'\n') => at += 2,
                b'\\' => return None,
                _ => at += 1,
            }
        }
    }
    let token_len = bytes[start..]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || TOKEN_PUNCTUATION.contains(&b))
        .count();
    (token_len > 0).then_some(start + token_len)
}

fn strip_quotes(value: &str) -> Option<&str> {
    (!value.is_empty() && value.starts_with('"') && value.ends_with('"'))
        .then(|| value.get(1..value.len() - 1).unwrap_or(""))
}

/// `header_unquote` (for `Content-Type` options): drop surrounding quotes and
/// undo backslash escapes of `\` and `"`.
fn header_unquote(value: &str, _is_filename: bool) -> String {
    match strip_quotes(value) {
        Some(inner) => inner.replace("\\\\", "\\").replace("\\\"", "\""),
        None => value.to_owned(),
    }
}

/// `content_disposition_unquote`: quoted values undo either legacy backslash
/// escapes or the HTML5 `%0D`/`%0A`/`%22` escapes; a file name that is a
/// Windows path keeps only its last component.
fn content_disposition_unquote(value: &str, is_filename: bool) -> String {
    let html5_unescape = |text: &str| {
        text.replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%22", "\"")
    };
    let mut unquoted = match strip_quotes(value) {
        Some(inner) if inner.contains("\\\"") => inner.replace("\\\\", "\\").replace("\\\"", "\""),
        Some(inner) if inner.contains('%') => html5_unescape(inner),
        Some(inner) => inner.to_owned(),
        None if value.contains('%') => html5_unescape(value),
        None => value.to_owned(),
    };
    if is_filename && is_windows_path(&unquoted) {
        unquoted = unquoted.rsplit('\\').next().unwrap_or_default().to_owned();
    }
    unquoted
}

/// `C:\...` or `\\server\...`, compared by characters as Python slices do.
fn is_windows_path(name: &str) -> bool {
    let chars: Vec<char> = name.chars().take(3).collect();
    chars.get(1..3) == Some(&[':', '\\']) || chars.get(..2) == Some(&['\\', '\\'])
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORM: &[u8] = b"--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1 2\r\n\
        --xyz\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n\
        Content-Type: application/octet-stream\r\n\r\n\xff\r\n--xyz--\r\n";

    #[test]
    fn fields_and_files() {
        assert_eq!(multipart_query(FORM, "xyz").unwrap(), "a=1+2&f=%FF");
    }

    #[test]
    fn broken_bodies_raise() {
        let unterminated = b"--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue";
        assert!(multipart_query(unterminated, "xyz").is_err());
        assert!(multipart_query(b"", "xyz").is_err());
        assert!(multipart_query(b"--xyz--", "").is_err());
        let not_form = b"--xyz\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--xyz--";
        assert_eq!(
            multipart_query(not_form, "xyz"),
            Err(parser_error(
                "Invalid Content-Disposition segment header: Wrong type"
            ))
        );
    }

    #[test]
    fn disposition_parsing() {
        let parsed =
            parse_content_disposition("form-data; name=\"a%22b\"; filename=\"C:\\\\dir\\\\f.txt\"");
        assert_eq!(
            parsed,
            (
                Some("form-data".into()),
                Some("a\"b".into()),
                Some("f.txt".into())
            )
        );
        let parsed = parse_content_disposition("Form-Data ; NAME = plain ; filename=\"q\\\"uote\"");
        assert_eq!(
            parsed,
            (
                Some("form-data".into()),
                Some("plain".into()),
                Some("q\"uote".into())
            )
        );
    }
}
