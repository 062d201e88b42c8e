//! Bytes to text the way each convention's glue does it before CLD2.
//!
//! CLD2 only reads UTF-8, so a page in another charset is decoded first. The two conventions
//! decode with different runtimes, and the differences reach CLD2: Java's `new String(bytes,
//! charset)` in Common Crawl's crawler, Python's `bytes.decode(codec, 'replace')` in UNT's
//! tool. Most charsets go through `encoding_rs`; the ones where the WHATWG decoders it implements
//! differ from Java/Python in ways that change the text (ISO-8859-1 and -9 are not windows-1252
//! and -1254 there, UTF-32 and ISO-2022-KR are missing) are decoded here.
//!
//! Unsupported charsets give `None`: the caller decides the fallback.

use std::borrow::Cow;

use encoding_rs::Encoding;

/// `new String(bytes, Charset.forName(name))` for a Java canonical charset name (what Tika
/// reports): malformed input becomes U+FFFD, byte-order marks are kept except where Java's
/// decoder for that name consumes them (`UTF-16`, `UTF-32`). `None` for charsets not supported
/// here (EBCDIC code pages such as `IBM420`/`IBM500`, `ISO-2022-CN`, ...).
pub fn decode_java(bytes: &[u8], name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let text = match lower.as_str() {
        "iso-8859-1" => latin1(bytes),
        "us-ascii" => ascii(bytes),
        "iso-8859-9" => latin5(bytes),
        // Java: a BOM picks the byte order and is dropped; big-endian without one.
        "utf-16" => utf16_by_bom(bytes, true),
        "utf-32" => utf32_by_bom(bytes, true),
        "utf-32be" => utf32(bytes, true),
        "utf-32le" => utf32(bytes, false),
        "iso-2022-kr" => iso2022kr(bytes),
        "shift_jis" => whatwg(encoding_rs::SHIFT_JIS, &jis_x0208_only(bytes)),
        // IBM's Shift_JIS variant: the differences are in symbols, not in letters.
        "x-ibm942c" | "x-ibm942" | "windows-31j" | "x-sjis_0213" => {
            whatwg(encoding_rs::SHIFT_JIS, bytes)
        }
        "x-windows-950" | "x-ms950-hkscs" | "big5-hkscs" => whatwg(encoding_rs::BIG5, bytes),
        "x-ibm874" | "x-windows-874" | "tis-620" | "x-iso-8859-11" => {
            whatwg(encoding_rs::WINDOWS_874, bytes)
        }
        "x-maccyrillic" => whatwg(encoding_rs::X_MAC_CYRILLIC, bytes),
        "x-macroman" => whatwg(encoding_rs::MACINTOSH, bytes),
        _ if lower.starts_with("windows-125") => {
            // WHATWG gives the bytes these code pages leave undefined their C1 control; Java's
            // decoders report them as unmappable: U+FFFD.
            let enc = Encoding::for_label_no_replacement(lower.as_bytes())?;
            whatwg(enc, bytes)
                .chars()
                .map(|c| {
                    if ('\u{80}'..='\u{9f}').contains(&c) {
                        '\u{FFFD}'
                    } else {
                        c
                    }
                })
                .collect()
        }
        _ => {
            let enc = Encoding::for_label_no_replacement(lower.as_bytes())?;
            if enc == encoding_rs::REPLACEMENT {
                return None;
            }
            whatwg(enc, bytes)
        }
    };
    Some(text)
}

/// `bytes.decode(codec, 'replace')` for a chardet 4.0.0 encoding name (what UNT's
/// `unt_charset` holds). `None` for codecs not supported here (`IBM855`, `EUC-TW`,
/// `HZ-GB-2312`, `Johab`, ...).
pub fn decode_python(bytes: &[u8], codec: &str) -> Option<String> {
    let lower = codec.to_ascii_lowercase().replace('_', "-");
    let text = match lower.as_str() {
        "ascii" => ascii(bytes),
        "utf-8" => String::from_utf8_lossy(bytes).into_owned(),
        "utf-8-sig" => {
            String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
                .into_owned()
        }
        "iso-8859-1" | "latin-1" => latin1(bytes),
        "iso-8859-9" => latin5(bytes),
        // Python: a BOM picks the byte order and is dropped; the machine's order (little-endian
        // everywhere the tool runs) without one.
        "utf-16" => utf16_by_bom(bytes, false),
        "utf-32" => utf32_by_bom(bytes, false),
        "iso-2022-kr" => iso2022kr(bytes),
        "maccyrillic" => whatwg(encoding_rs::X_MAC_CYRILLIC, bytes),
        "cp932" => whatwg(encoding_rs::SHIFT_JIS, bytes),
        "cp949" => whatwg(encoding_rs::EUC_KR, bytes),
        "tis-620" => whatwg(encoding_rs::WINDOWS_874, bytes),
        _ => {
            let enc = Encoding::for_label_no_replacement(lower.as_bytes())?;
            if enc == encoding_rs::REPLACEMENT {
                return None;
            }
            whatwg(enc, bytes)
        }
    };
    Some(text)
}

/// Java's `Shift_JIS` is JIS X 0201 + JIS X 0208 only; WHATWG's also decodes the NEC row 13
/// (lead 0x87), the IBM extensions (leads 0xED, 0xEE, 0xFA-0xFC) and user-defined characters
/// (leads 0xF0-0xF9). Each such pair becomes one byte WHATWG rejects (0xFF), so it decodes to
/// the one U+FFFD Java gives it.
fn jis_x0208_only(bytes: &[u8]) -> Cow<'_, [u8]> {
    let lead_excluded = |b: u8| b == 0x87 || b == 0xED || b == 0xEE || (0xF0..=0xFC).contains(&b);
    let is_lead = |b: u8| (0x81..=0x9F).contains(&b) || (0xE0..=0xFC).contains(&b);
    let is_trail = |b: u8| (0x40..=0x7E).contains(&b) || (0x80..=0xFC).contains(&b);
    let has_excluded = bytes
        .windows(2)
        .any(|w| lead_excluded(w[0]) && is_trail(w[1]));
    if !has_excluded {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if is_lead(b) && i + 1 < bytes.len() && is_trail(bytes[i + 1]) {
            if lead_excluded(b) {
                out.push(0xFF);
            } else {
                out.extend_from_slice(&bytes[i..i + 2]);
            }
            i += 2;
        } else {
            out.push(b);
            i += 1;
        }
    }
    Cow::Owned(out)
}

fn whatwg(enc: &'static Encoding, bytes: &[u8]) -> String {
    enc.decode_without_bom_handling(bytes).0.into_owned()
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

fn ascii(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| if b < 0x80 { b as char } else { '\u{FFFD}' })
        .collect()
}

/// ISO-8859-9 is Latin-1 with six Turkish letters; WHATWG decodes it as windows-1254, which
/// also gives 0x80-0x9F letters and punctuation instead of C1 controls.
fn latin5(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            0xD0 => '\u{011E}',
            0xDD => '\u{0130}',
            0xDE => '\u{015E}',
            0xF0 => '\u{011F}',
            0xFD => '\u{0131}',
            0xFE => '\u{015F}',
            _ => b as char,
        })
        .collect()
}

fn utf32(bytes: &[u8], big_endian: bool) -> String {
    let mut out = String::with_capacity(bytes.len() / 2);
    let mut chunks = bytes.chunks_exact(4);
    for c in &mut chunks {
        let arr = [c[0], c[1], c[2], c[3]];
        let v = if big_endian {
            u32::from_be_bytes(arr)
        } else {
            u32::from_le_bytes(arr)
        };
        out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
    }
    if !chunks.remainder().is_empty() {
        out.push('\u{FFFD}');
    }
    out
}

/// ISO-2022-KR (RFC 1557): KS X 1001 pairs between SO and SI, 7-bit. Re-expressed as EUC-KR
/// (the same pairs with the high bit set) and decoded as that.
fn iso2022kr(bytes: &[u8]) -> String {
    let mut euc = Vec::with_capacity(bytes.len());
    let mut shifted = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            0x1B if bytes[i..].starts_with(b"\x1B$)C") => i += 4,
            0x0E => {
                shifted = true;
                i += 1;
            }
            0x0F => {
                shifted = false;
                i += 1;
            }
            b'\n' | b'\r' => {
                // A line ends the shift state (RFC 1557 requires SI before it anyway).
                shifted = false;
                euc.push(b);
                i += 1;
            }
            0x21..=0x7E if shifted => {
                euc.push(b | 0x80);
                i += 1;
            }
            _ => {
                // High bytes are malformed in a 7-bit encoding: keep them so EUC-KR rejects them.
                euc.push(if b >= 0x80 { 0xFF } else { b });
                i += 1;
            }
        }
    }
    whatwg(encoding_rs::EUC_KR, &euc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_names() {
        assert_eq!(
            decode_java(b"\x80\xe9", "ISO-8859-1").unwrap(),
            "\u{80}\u{e9}"
        );
        assert_eq!(decode_java(b"\xd0", "ISO-8859-9").unwrap(), "\u{11e}");
        assert_eq!(decode_java(b"\xe9", "windows-1252").unwrap(), "\u{e9}");
        assert_eq!(decode_java(b"\xef\xbb\xbfa", "UTF-8").unwrap(), "\u{feff}a");
        assert_eq!(
            decode_java(b"a\0\0\0\0\0\xd8\0", "UTF-32LE").unwrap(),
            "a\u{fffd}"
        );
        assert_eq!(
            decode_java(b"\x1b$)C\x0e\x30\x21\x0fa", "ISO-2022-KR").unwrap(),
            "\u{ac00}a"
        );
        assert!(decode_java(b"abc", "IBM500").is_none());
    }

    #[test]
    fn python_codecs() {
        assert_eq!(decode_python(b"a\x80", "ascii").unwrap(), "a\u{fffd}");
        assert_eq!(decode_python(b"\xef\xbb\xbfa", "UTF-8-SIG").unwrap(), "a");
        assert_eq!(decode_python(b"\xff\xfea\0", "UTF-16").unwrap(), "a");
        assert_eq!(decode_python(b"\xcf", "windows-1251").unwrap(), "\u{41f}");
    }
}

/// UTF-16 whose BOM (dropped) picks the byte order; `big_endian` without one.
fn utf16_by_bom(bytes: &[u8], big_endian: bool) -> String {
    let (enc, rest) = match bytes {
        [0xFF, 0xFE, rest @ ..] => (encoding_rs::UTF_16LE, rest),
        [0xFE, 0xFF, rest @ ..] => (encoding_rs::UTF_16BE, rest),
        _ if big_endian => (encoding_rs::UTF_16BE, bytes),
        _ => (encoding_rs::UTF_16LE, bytes),
    };
    whatwg(enc, rest)
}

/// UTF-32 whose BOM (dropped) picks the byte order; `big_endian` without one.
fn utf32_by_bom(bytes: &[u8], big_endian: bool) -> String {
    match bytes {
        [0xFF, 0xFE, 0, 0, rest @ ..] => utf32(rest, false),
        [0, 0, 0xFE, 0xFF, rest @ ..] => utf32(rest, true),
        _ => utf32(bytes, big_endian),
    }
}
