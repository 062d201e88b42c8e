//! The handful of Python string routines whose exact behaviour shows up in
//! the query cdxj-indexer derives from a request body: `int()` as used on
//! `Content-Length`, `urllib.parse.unquote_plus` / `quote_plus`, `repr(float)`,
//! `str.strip()` / `str.title()` and the codec-name lookup behind `bytes.decode`.

/// Python's `str.isspace()`: Unicode White_Space plus the ASCII information
/// separators U+001C..U+001F, which Rust's `char::is_whitespace` leaves out.
pub(super) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()` without arguments.
pub(super) fn py_strip(text: &str) -> &str {
    text.trim_matches(is_py_space)
}

/// Python refuses to convert integers written with more digits than this
/// (`sys.get_int_max_str_digits()`, 4300 by default); `int()` then raises
/// `ValueError`, like any other malformed number.
pub(super) const MAX_INT_DIGITS: usize = 4300;

/// First code point of every run of ten Unicode decimal digits (category Nd,
/// Unicode 14 as shipped with Python 3.11) outside ASCII. Python's `int()`
/// accepts these digits, so a `Content-Length` written with them still counts.
const NON_ASCII_DIGIT_ZEROS: [u32; 65] = [
    0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6,
    0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50,
    0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650,
    0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50,
    0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

fn decimal_value(c: char) -> Option<u8> {
    if c.is_ascii_digit() {
        return Some(c as u8 - b'0');
    }
    let code = c as u32;
    // The table is sorted, so the run that could hold `c` starts at the last zero <= c.
    let run = NON_ASCII_DIGIT_ZEROS.partition_point(|&zero| zero <= code);
    let zero = *NON_ASCII_DIGIT_ZEROS.get(run.checked_sub(1)?)?;
    u8::try_from(code - zero).ok().filter(|&digit| digit < 10)
}

/// A number as Python's `int(text)` reads it (base 10), or `None` where
/// `int()` raises `ValueError`. Magnitudes beyond `i128` saturate: callers
/// only compare the value with byte counts and `isize::MAX`.
pub(super) fn parse_py_int(text: &str) -> Option<i128> {
    // Unlike `str.strip()`, `int()` keeps U+001C..U+001F (they fail as
    // digits): its notion of space is exactly Unicode White_Space.
    let text = text.trim_matches(char::is_whitespace);
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let mut magnitude: u128 = 0;
    let mut digit_count = 0;
    let mut previous_was_digit = false;
    for c in digits.chars() {
        if c == '_' {
            // Underscores may only separate two digits.
            if !previous_was_digit {
                return None;
            }
            previous_was_digit = false;
            continue;
        }
        let digit = decimal_value(c)?;
        magnitude = magnitude
            .saturating_mul(10)
            .saturating_add(u128::from(digit));
        digit_count += 1;
        previous_was_digit = true;
    }
    if !previous_was_digit || digit_count > MAX_INT_DIGITS {
        return None;
    }
    let magnitude = i128::try_from(magnitude).unwrap_or(i128::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

/// `urllib.parse.unquote_plus(text)` with its defaults (UTF-8, errors='replace').
///
/// Python decodes each maximal run of ASCII characters on its own, so escapes
/// on either side of a literal non-ASCII character never join into one UTF-8
/// sequence; that is reproduced by working run by run.
pub(super) fn unquote_plus(text: &str) -> String {
    let text = text.replace('+', " ");
    if !text.contains('%') {
        return text;
    }
    let mut decoded = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let ascii_len = rest.bytes().take_while(u8::is_ascii).count();
        let (ascii_run, after) = rest.split_at(ascii_len);
        decoded.push_str(&String::from_utf8_lossy(&percent_decode(
            ascii_run.as_bytes(),
        )));
        let other_len = after.find(|c: char| c.is_ascii()).unwrap_or(after.len());
        let (non_ascii_run, after) = after.split_at(other_len);
        decoded.push_str(non_ascii_run);
        rest = after;
    }
    decoded
}

/// `%XX` with two hex digits (either case) becomes that byte; any other `%`
/// stays as it is.
fn percent_decode(input: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let escaped = (input[i] == b'%')
            .then(|| input.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| Some(hex_value(hex[0])? << 4 | hex_value(hex[1])?));
        match escaped {
            Some(byte) => {
                bytes.push(byte);
                i += 3;
            }
            None => {
                bytes.push(input[i]);
                i += 1;
            }
        }
    }
    bytes
}

fn hex_value(digit: u8) -> Option<u8> {
    (digit as char).to_digit(16).map(|value| value as u8)
}

/// Appends `quote_plus(bytes)` (safe='') to `out`: letters, digits and `_.-~`
/// stay, a space becomes `+`, every other byte becomes `%XX` (upper case).
pub(super) fn push_quote_plus(bytes: &[u8], out: &mut String) {
    for &byte in bytes {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'.' | b'-' | b'~' => {
                out.push(byte as char)
            }
            b' ' => out.push('+'),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(HEX[usize::from(byte >> 4)] as char);
                out.push(HEX[usize::from(byte & 0xF)] as char);
            }
        }
    }
}

/// `urllib.parse.urlencode(pairs)`: `key=value` pairs joined by `&`, both sides
/// passed through `quote_plus`.
pub(super) fn urlencode<'a>(pairs: impl IntoIterator<Item = (&'a [u8], &'a [u8])>) -> String {
    let mut encoded = String::new();
    for (key, value) in pairs {
        if !encoded.is_empty() {
            encoded.push('&');
        }
        push_quote_plus(key, &mut encoded);
        encoded.push('=');
        push_quote_plus(value, &mut encoded);
    }
    encoded
}

/// `repr(x)` / `str(x)` of a Python float: the shortest digits that round-trip,
/// written positionally when the decimal exponent lies in -4..16 and in
/// scientific notation (`1e+16`, `1.5e-07`) otherwise.
pub(super) fn py_float_repr(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    let (digits, exponent) = shortest_digits(value.abs());
    let sign = if value.is_sign_negative() { "-" } else { "" };
    // Position of the decimal point relative to the start of `digits`.
    let point = exponent + 1;
    let body = if (-3..=16).contains(&point) {
        positional(&digits, point)
    } else {
        scientific_layout(&digits, exponent)
    };
    format!("{sign}{body}")
}

/// The shortest digits that read back as `value` (no trailing zeros) and
/// the decimal exponent of the first one, as Python's `repr` picks them.
///
/// Rust's `{:e}` finds the same digits except when the exact binary value
/// lies halfway between two equally short candidates: Python then takes the
/// one ending in an even digit, Rust the upper one.
fn shortest_digits(value: f64) -> (String, i32) {
    let (digits, exponent) = split_scientific(&format!("{value:e}"));
    // A double has at most 767 significant decimal digits, so 800 shows its
    // exact value.
    let (exact, exact_exponent) = split_scientific(&format!("{value:.800e}"));
    let length = digits.len();
    let is_tie = exact_exponent == exponent
        && exact.as_bytes().get(length) == Some(&b'5')
        && exact[length + 1..].bytes().all(|digit| digit == b'0');
    if !is_tie {
        return (digits, exponent);
    }
    let lower = exact[..length].to_owned();
    let (upper, upper_exponent) = increment_digits(&lower, exponent);
    let lower_is_even = lower
        .bytes()
        .last()
        .is_some_and(|digit| matches!(digit, b'0' | b'2' | b'4' | b'6' | b'8'));
    let (even, even_exponent) = if lower_is_even {
        (lower, exponent)
    } else {
        (upper, upper_exponent)
    };
    let even = even.trim_end_matches('0').to_owned();
    let reads_back =
        format!("{}e{}", even, even_exponent - (even.len() as i32 - 1)).parse() == Ok(value);
    if reads_back && even.len() == length {
        (even, even_exponent)
    } else {
        (digits, exponent)
    }
}

/// `d.ddde±N` → (`dddd`, N).
fn split_scientific(scientific: &str) -> (String, i32) {
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` always has an exponent");
    let digits = mantissa.chars().filter(|c| *c != '.').collect();
    (
        digits,
        exponent.parse().expect("`{:e}` exponent is an integer"),
    )
}

/// Adds one in the last place of a digit string, carrying into a new
/// leading digit (and a higher exponent) when needed.
fn increment_digits(digits: &str, exponent: i32) -> (String, i32) {
    let mut bytes = digits.as_bytes().to_vec();
    for digit in bytes.iter_mut().rev() {
        if *digit == b'9' {
            *digit = b'0';
        } else {
            *digit += 1;
            return (String::from_utf8(bytes).expect("ASCII digits"), exponent);
        }
    }
    bytes.insert(0, b'1');
    bytes.pop();
    (
        String::from_utf8(bytes).expect("ASCII digits"),
        exponent + 1,
    )
}

fn positional(digits: &str, point: i32) -> String {
    if point <= 0 {
        return format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize));
    }
    let point = point as usize;
    if point >= digits.len() {
        format!("{digits}{}.0", "0".repeat(point - digits.len()))
    } else {
        format!("{}.{}", &digits[..point], &digits[point..])
    }
}

fn scientific_layout(digits: &str, exponent: i32) -> String {
    let (first, rest) = digits.split_at(1);
    let fraction = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{first}{fraction}e{sign}{:02}", exponent.unsigned_abs())
}

/// Python's `str.title()`, exact for ASCII. Outside ASCII it upper-cases where
/// Python title-cases, which differs only for ligatures and digraphs (`ﬁ` →
/// `FI` instead of `Fi`); multipart header names are never spelled that way.
pub(super) fn py_title(text: &str) -> String {
    let mut titled = String::with_capacity(text.len());
    let mut previous_is_cased = false;
    for c in text.chars() {
        if previous_is_cased {
            titled.extend(c.to_lowercase());
        } else {
            titled.extend(c.to_uppercase());
        }
        previous_is_cased = c.is_lowercase() || c.is_uppercase();
    }
    titled
}

/// The codecs this port can apply to a multipart text field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Codec {
    Utf8,
    Latin1,
    Ascii,
}

/// Resolves a charset name the way Python's `codecs.lookup` does for the
/// UTF-8, Latin-1 and ASCII codecs (case, punctuation and aliases such as
/// `utf8`, `u8`, `l1`, `iso_8859_1`, `us-ascii`). Any other name, whether
/// Python knows it or not, gives `None`.
pub(super) fn lookup_codec(name: &str) -> Option<Codec> {
    const UTF8: &[&str] = &[
        "utf_8",
        "cp65001",
        "u8",
        "utf",
        "utf8",
        "utf8_ucs2",
        "utf8_ucs4",
    ];
    const LATIN1: &[&str] = &[
        "latin_1",
        "iso8859_1",
        "8859",
        "cp819",
        "csisolatin1",
        "ibm819",
        "iso8859",
        "iso_8859_1",
        "iso_8859_1_1987",
        "iso_ir_100",
        "l1",
        "latin",
        "latin1",
    ];
    const ASCII: &[&str] = &[
        "ascii",
        "646",
        "ansi_x3.4_1968",
        "ansi_x3.4_1986",
        "ansi_x3_4_1968",
        "cp367",
        "csascii",
        "ibm367",
        "iso646_us",
        "iso_646.irv_1991",
        "iso_ir_6",
        "us",
        "us_ascii",
    ];
    let normalized = normalize_codec_name(name);
    let underscored = normalized.replace('.', "_");
    let known = |names: &[&str]| {
        names.contains(&normalized.as_str()) || names.contains(&underscored.as_str())
    };
    if known(UTF8) {
        Some(Codec::Utf8)
    } else if known(LATIN1) {
        Some(Codec::Latin1)
    } else if known(ASCII) {
        Some(Codec::Ascii)
    } else {
        None
    }
}

/// `encodings.normalize_encoding` after `codecs.lookup` lower-cased the name:
/// runs of punctuation become one `_` (none at the start), non-ASCII
/// alphanumerics vanish.
fn normalize_codec_name(name: &str) -> String {
    let mut normalized = String::with_capacity(name.len());
    let mut pending_separator = false;
    for c in name.to_lowercase().chars() {
        if c.is_alphanumeric() || c == '.' {
            if pending_separator && !normalized.is_empty() {
                normalized.push('_');
            }
            if c.is_ascii() {
                normalized.push(c);
            }
            pending_separator = false;
        } else {
            pending_separator = true;
        }
    }
    normalized
}

/// `bytes.decode(codec)` with strict error handling; `None` where Python
/// raises `UnicodeDecodeError`.
pub(super) fn decode_strict(bytes: &[u8], codec: Codec) -> Option<String> {
    match codec {
        Codec::Utf8 => String::from_utf8(bytes.to_vec()).ok(),
        Codec::Latin1 => Some(bytes.iter().map(|&b| char::from(b)).collect()),
        Codec::Ascii => bytes
            .is_ascii()
            .then(|| String::from_utf8_lossy(bytes).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_parsing_follows_python() {
        assert_eq!(parse_py_int("12"), Some(12));
        assert_eq!(parse_py_int(" +1_000 \u{b}\u{3000}"), Some(1000));
        assert_eq!(parse_py_int("3\u{1c}"), None);
        assert_eq!(parse_py_int("-5"), Some(-5));
        assert_eq!(parse_py_int("\u{ff12}\u{0663}"), Some(23));
        for bad in [
            "", " ", "1__0", "_1", "1_", "0x10", "1.0", "- 1", "+-1", "1\u{0}",
        ] {
            assert_eq!(parse_py_int(bad), None, "{bad:?}");
        }
        assert_eq!(parse_py_int(&"9".repeat(4300)), Some(i128::MAX));
        assert_eq!(parse_py_int(&"9".repeat(4301)), None);
    }

    #[test]
    fn unquote_plus_decodes_ascii_runs_separately() {
        assert_eq!(unquote_plus("a+b%2B%41%zz%4"), "a b+A%zz%4");
        assert_eq!(unquote_plus("%C3%A9"), "é");
        assert_eq!(unquote_plus("%C3é%A9"), "\u{fffd}é\u{fffd}");
        assert_eq!(unquote_plus("%ED%A0%80"), "\u{fffd}\u{fffd}\u{fffd}");
    }

    #[test]
    fn quote_plus_matches_python() {
        let mut out = String::new();
        push_quote_plus("a b+c&é~".as_bytes(), &mut out);
        assert_eq!(out, "a+b%2Bc%26%C3%A9~");
    }

    #[test]
    #[allow(clippy::excessive_precision)] // the exact binary values are the point
    fn float_repr_matches_python() {
        let cases = [
            (0.1, "0.1"),
            (-0.0, "-0.0"),
            (44.0, "44.0"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (123456789.125, "123456789.125"),
            (5e-324, "5e-324"),
            (1.5e-323, "1.5e-323"),
            (677094678653030.25, "677094678653030.2"),
            (677094678653030.75, "677094678653030.8"),
            (-82820151387220.125, "-82820151387220.12"),
            (9007199254740993.0, "9007199254740992.0"),
            (1e23, "1e+23"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (value, expected) in cases {
            assert_eq!(py_float_repr(value), expected);
        }
    }

    #[test]
    fn title_and_codecs() {
        assert_eq!(py_title("content-DISPOSITION"), "Content-Disposition");
        assert_eq!(py_title("x_y2z"), "X_Y2Z");
        assert_eq!(lookup_codec("UTF-8"), Some(Codec::Utf8));
        assert_eq!(lookup_codec(" utf--8 "), Some(Codec::Utf8));
        assert_eq!(lookup_codec("ISO-8859-1"), Some(Codec::Latin1));
        assert_eq!(lookup_codec("US-ASCII"), Some(Codec::Ascii));
        assert_eq!(lookup_codec("utf_8."), None);
        assert_eq!(lookup_codec("cp1252"), None);
    }
}
