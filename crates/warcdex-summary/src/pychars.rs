//! Python's character classes as cdx-summary's regex sees them: `\s` and
//! `str.strip()` use `str.isspace()` (which includes U+001C..U+001F, unlike
//! Rust's `char::is_whitespace`), and `\d` is any Unicode decimal digit
//! (category Nd), which `int()` also accepts. Tables from Python 3.11's
//! `unicodedata` (Unicode 14.0).

/// The code points for which Python's `str.isspace()` is true.
const PY_SPACES: [u32; 29] = [
    0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
    0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];

/// The zero of every run of ten Nd digits (every Nd character is zero..zero+9
/// of one of these, and its value is the distance from it).
const ND_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0,
    0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620,
    0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0,
    0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60,
    0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

#[inline]
pub fn is_space(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return matches!(u, 0x9..=0xd | 0x1c..=0x20);
    }
    PY_SPACES.binary_search(&u).is_ok()
}

/// The value of a decimal digit (`\d` in a Python `str` pattern), if `c` is one.
#[inline]
pub fn digit_value(c: char) -> Option<u32> {
    let u = c as u32;
    if u < 0x80 {
        return c.to_digit(10);
    }
    let i = match ND_ZEROS.binary_search(&u) {
        Ok(i) => i,
        Err(0) => return None,
        Err(i) => i - 1,
    };
    let d = u - ND_ZEROS[i];
    (d < 10).then_some(d)
}

#[inline]
pub fn is_digit(c: char) -> bool {
    digit_value(c).is_some()
}

/// `s.strip()` as Python does it.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_whitespace_is_wider_than_ascii() {
        assert!(is_space('\u{1c}') && is_space('\u{85}') && is_space('\u{3000}') && is_space('\x0b'));
        assert!(!is_space('\u{feff}') && !is_space('\u{200b}') && !is_space('a'));
        assert_eq!(py_strip("\u{1f}\u{a0} x y \r"), "x y");
    }

    #[test]
    fn unicode_decimal_digits() {
        assert_eq!(digit_value('7'), Some(7));
        assert_eq!(digit_value('\u{663}'), Some(3)); // ARABIC-INDIC DIGIT THREE
        assert_eq!(digit_value('\u{1d7d9}'), Some(1)); // second run of the mathematical digits
        assert_eq!(digit_value('\u{b2}'), None); // superscript two is No, not Nd
        assert_eq!(digit_value('\u{66a}'), None);
    }
}
