//! JSON text exactly as Python's `json.dumps` writes it by default: `", "`
//! and `": "` separators, every non-ASCII character escaped as `\uXXXX`
//! (UTF-16 surrogate pairs above U+FFFF).

/// Appends `s` as a JSON string literal.
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b >= 0x20 && b < 0x7f && b != b'"' && b != b'\\' {
            continue;
        }
        if b >= 0x80 && !s.is_char_boundary(i) {
            continue;
        }
        out.push_str(&s[start..i]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            0x7f => out.push('\x7f'),
            b if b < 0x20 => push_u(out, b as u32),
            _ => {
                let c = s[i..].chars().next().expect("char boundary");
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    push_u(out, *u as u32);
                }
                start = i + c.len_utf8();
                continue;
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

fn push_u(out: &mut String, u: u32) {
    use std::fmt::Write;
    let _ = write!(out, "\\u{u:04x}");
}

/// Writes `{"k": "v", ...}` for string values, in the given order.
pub fn push_object<'a>(out: &mut String, fields: impl IntoIterator<Item = (&'a str, &'a str)>) {
    out.push('{');
    for (i, (k, v)) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_str(out, k);
        out.push_str(": ");
        push_str(out, v);
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(s: &str) -> String {
        let mut o = String::new();
        push_str(&mut o, s);
        o
    }

    #[test]
    fn escapes_like_python() {
        assert_eq!(js("a\"b\\c/d"), r#""a\"b\\c/d""#);
        assert_eq!(js("\n\r\t\x08\x0c\x01\x7f"), "\"\\n\\r\\t\\b\\f\\u0001\x7f\"");
        assert_eq!(js("caf\u{e9}"), r#""caf\u00e9""#);
        assert_eq!(js("\u{1F600}"), r#""\ud83d\ude00""#);
    }

    #[test]
    fn object_separators() {
        let mut o = String::new();
        push_object(&mut o, [("url", "http://x/"), ("mime", "text/html")]);
        assert_eq!(o, r#"{"url": "http://x/", "mime": "text/html"}"#);
    }
}
