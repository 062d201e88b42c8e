//! Header blocks: a status line, then `Name: value` lines up to a blank line.
//!
//! The rules follow warcio's parser, which the reference indexers use: each
//! line is decoded as UTF-8, or as ISO-8859-1 when it is not valid UTF-8;
//! trailing whitespace is stripped as Python's `str.rstrip()` does; a line
//! starting with a space or tab continues the previous value (kept with its
//! leading whitespace); a line without a colon is dropped; repeated headers
//! are kept in order.

use std::ops::Range;

use crate::error::{ErrorKind, Result};
use crate::source::Fill;

/// Decoded header lines with their names and values, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers {
    text: String,
    fields: Vec<(Range<u32>, Range<u32>)>,
}

impl Headers {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, name: &str, value: &str) {
        let n0 = self.text.len() as u32;
        self.text.push_str(name);
        let n1 = self.text.len() as u32;
        self.text.push_str(value);
        let v1 = self.text.len() as u32;
        self.fields.push((n0..n1, n1..v1));
    }

    /// First value of a header, names compared case-insensitively.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }

    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.fields
            .iter()
            .map(|(n, v)| (&self.text[n.start as usize..n.end as usize], &self.text[v.start as usize..v.end as usize]))
    }

    pub fn len(&self) -> usize {
        self.fields.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Replaces the first value of a header (used for repaired target URIs).
    pub fn replace(&mut self, name: &str, value: &str) {
        let mut rebuilt = Headers::new();
        let mut done = false;
        for (n, v) in self.iter() {
            if !done && n.eq_ignore_ascii_case(name) {
                rebuilt.push(n, value);
                done = true;
            } else {
                rebuilt.push(n, v);
            }
        }
        *self = rebuilt;
    }

    fn append_to_last_value(&mut self, more: &str) {
        if let Some((_, v)) = self.fields.last_mut() {
            // The last value always ends the text buffer.
            debug_assert_eq!(v.end as usize, self.text.len());
            self.text.push_str(more);
            v.end = self.text.len() as u32;
        }
    }

    fn clear(&mut self) {
        self.text.clear();
        self.fields.clear();
    }
}

/// A parsed header block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusAndHeaders {
    /// First word of the status line (`WARC/1.0`, `HTTP/1.1`, `GET`...).
    pub protocol: String,
    /// The rest of the status line, trimmed (`200 OK`, `/path HTTP/1.1`).
    pub status_line: String,
    pub headers: Headers,
    /// Characters read (Python counts decoded characters, not bytes).
    pub total_chars: usize,
    /// Bytes read, including the terminating blank line.
    pub total_bytes: usize,
    /// True when the input ended before the blank line.
    pub unterminated: bool,
    /// Some line was not valid UTF-8 (and was read as ISO-8859-1).
    pub not_utf8: bool,
}

impl StatusAndHeaders {
    /// The status code: the first word of the status line.
    pub fn status_code(&self) -> &str {
        self.status_line.split(' ').next().unwrap_or("")
    }

    pub fn clear(&mut self) {
        self.protocol.clear();
        self.status_line.clear();
        self.headers.clear();
        self.total_chars = 0;
        self.total_bytes = 0;
        self.unterminated = false;
        self.not_utf8 = false;
    }
}

/// Python's `str.isspace()` for one character.
pub fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

pub fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(py_isspace)
}

pub fn py_strip(s: &str) -> &str {
    s.trim_matches(py_isspace)
}

/// Decodes one header line as warcio does: UTF-8, else ISO-8859-1.
/// Returns false when the line was not UTF-8.
pub fn decode_line_into(line: &[u8], out: &mut String) -> bool {
    match std::str::from_utf8(line) {
        Ok(s) => {
            out.push_str(s);
            true
        }
        Err(_) => {
            out.extend(line.iter().map(|&b| b as char));
            false
        }
    }
}

/// Reads one line (through `\n`, or to the end of input) into `buf`,
/// returning its length in bytes; 0 means end of input.
pub fn read_line<F: Fill + ?Sized>(src: &mut F, buf: &mut Vec<u8>, limit: usize) -> Result<usize> {
    buf.clear();
    loop {
        let avail = src.fill()?;
        if avail.is_empty() {
            return Ok(buf.len());
        }
        match memchr::memchr(b'\n', avail) {
            Some(i) => {
                buf.extend_from_slice(&avail[..=i]);
                src.consume(i + 1);
                return Ok(buf.len());
            }
            None => {
                let n = avail.len();
                buf.extend_from_slice(avail);
                src.consume(n);
                if buf.len() > limit {
                    return Err(src.error(ErrorKind::BadRecord(format!(
                        "header line longer than {limit} bytes"
                    ))));
                }
            }
        }
    }
}

/// Which status lines a parser accepts.
#[derive(Clone, Copy)]
pub enum StatusRule<'a> {
    /// Any first line; split at the first space into protocol and status.
    Any,
    /// The line must start (case-insensitively) with one of these prefixes.
    Prefixes(&'a [&'a str]),
}

/// A header block whose status line did not match the rule.
pub struct WrongStatusLine {
    pub line: String,
}

/// Parses a header block from `src`. `first` is an already-read status line.
/// Returns Ok(None) at end of input (nothing read).
pub fn parse_block<F: Fill + ?Sized>(
    src: &mut F,
    first: Option<&[u8]>,
    rule: StatusRule<'_>,
    limit: usize,
    out: &mut StatusAndHeaders,
    scratch: &mut Vec<u8>,
) -> Result<std::result::Result<bool, WrongStatusLine>> {
    out.clear();
    let mut decoded = String::new();
    let mut byte_count = 0usize;
    match first {
        Some(line) => {
            byte_count += line.len();
            out.not_utf8 |= !decode_line_into(line, &mut decoded);
        }
        None => {
            let n = read_line(src, scratch, limit)?;
            if n == 0 {
                return Ok(Ok(false));
            }
            byte_count += n;
            out.not_utf8 |= !decode_line_into(scratch, &mut decoded);
        }
    }
    out.total_chars = decoded.chars().count();
    let status = py_rstrip(&decoded);
    if status.is_empty() {
        out.total_bytes = byte_count;
        return Ok(Ok(true));
    }
    let (protocol, rest) = match rule {
        StatusRule::Any => match status.split_once(' ') {
            Some((p, r)) => (p.to_string(), Some(r.to_string())),
            None => (status.to_string(), None),
        },
        StatusRule::Prefixes(prefixes) => {
            let found = prefixes.iter().find(|p| {
                status.len() >= p.len() && status.is_char_boundary(p.len()) && status[..p.len()].eq_ignore_ascii_case(p)
            });
            match found {
                Some(p) => (status[..p.len()].to_ascii_uppercase(), Some(status[p.len()..].to_string())),
                None => return Ok(Err(WrongStatusLine { line: decoded })),
            }
        }
    };
    out.protocol = protocol;
    out.status_line = rest.map(|r| py_strip(&r).to_string()).unwrap_or_default();

    let mut line = String::new();
    // Continuation lines extend the header before them, if it had a colon.
    let mut after_header = false;
    let mut last_has_value = false;
    let mut total_chars = out.total_chars;
    loop {
        let n = read_line(src, scratch, limit)?;
        if n == 0 {
            out.unterminated = true;
        }
        byte_count += n;
        if byte_count > limit {
            return Err(src.error(ErrorKind::BadRecord(format!("header block larger than {limit} bytes"))));
        }
        line.clear();
        out.not_utf8 |= !decode_line_into(scratch, &mut line);
        total_chars += line.chars().count();
        let stripped = py_rstrip(&line);
        if after_header && stripped.starts_with([' ', '\t']) {
            if last_has_value {
                out.headers.append_to_last_value(stripped);
            }
            continue;
        }
        if stripped.is_empty() {
            break;
        }
        last_has_value = match stripped.split_once(':') {
            Some((name, value)) => {
                out.headers.push(name.trim_end_matches([' ', '\t']), value.trim_start_matches(py_isspace));
                true
            }
            None => false,
        };
        after_header = true;
    }
    out.total_chars = total_chars;
    out.total_bytes = byte_count;
    Ok(Ok(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SliceFill;

    fn parse(text: &[u8], rule: StatusRule<'_>) -> StatusAndHeaders {
        let mut src = SliceFill::new(text);
        let mut out = StatusAndHeaders::default();
        let mut scratch = Vec::new();
        match parse_block(&mut src, None, rule, 1 << 20, &mut out, &mut scratch).unwrap() {
            Ok(true) => out,
            _ => panic!("no block"),
        }
    }

    #[test]
    fn folded_repeated_and_case_insensitive_headers() {
        let h = parse(
            b"WARC/1.0\r\nWARC-Type: response\r\nX-Long: a\r\n  b\r\n\tc\r\nx-rep: 1\r\nX-Rep: 2\r\nnocolon\r\n\r\nbody",
            StatusRule::Prefixes(&["WARC/1.0"]),
        );
        assert_eq!(h.protocol, "WARC/1.0");
        assert_eq!(h.headers.get("warc-type"), Some("response"));
        assert_eq!(h.headers.get("x-long"), Some("a  b\tc"));
        assert_eq!(h.headers.get_all("X-REP").collect::<Vec<_>>(), vec!["1", "2"]);
        assert_eq!(h.headers.len(), 4);
    }

    #[test]
    fn non_utf8_lines_fall_back_to_latin1_per_line() {
        let h = parse(b"HTTP/1.1 200 OK\r\nX-A: caf\xe9\r\nX-B: caf\xc3\xa9\r\n\r\n", StatusRule::Any);
        assert_eq!(h.headers.get("x-a"), Some("caf\u{e9}"));
        assert_eq!(h.headers.get("x-b"), Some("caf\u{e9}"));
        assert_eq!(h.status_code(), "200");
    }

    #[test]
    fn lf_only_and_missing_reason() {
        let h = parse(b"HTTP/1.0 302 \nLocation: /x\n\n", StatusRule::Any);
        assert_eq!(h.status_line, "302");
        assert_eq!(h.headers.get("location"), Some("/x"));
        assert_eq!(h.total_bytes, 28);
    }
}
