//! The statistical step of Tika's `Icu4jEncodingDetector`: a re-implementation of Tika 2.9.1's
//! fork of ICU4J's `CharsetDetector` (`org.apache.tika.parser.txt`), recognizer by recognizer,
//! so that the confidences, and therefore the winner, are the same. The trigram tables are
//! ICU's trained data (`icu_tables.rs`, generated).
//!
//! Quirks kept on purpose, because they decide real results:
//! - the 12,000-byte window is a zero-padded buffer: the UTF-16 recognizers always look at
//!   30 bytes, zeros included, on shorter input;
//! - markup stripping is abandoned on input that looks unmarked or badly marked, and the
//!   multi-byte and Unicode recognizers always read the raw bytes;
//! - Java sorts matches stably ascending and then reverses the list, so among equal
//!   confidences the recognizer registered *last* wins;
//! - GB18030's trail-byte test compares with decimal 80, not 0x80.

use super::icu_tables::*;

/// Tika's `CharsetDetector.DEFAULT_MARK_LIMIT` (ICU's own is 8,000).
pub(super) const WINDOW: usize = 12_000;

struct Input<'a> {
    /// `fRawInput`: the window, zero-padded to its full size.
    raw: Vec<u8>,
    raw_len: usize,
    /// `fInputBytes[..fInputLen]`: markup stripped, unless stripping was abandoned.
    text: Vec<u8>,
    c1_bytes: bool,
    declared: Option<&'a str>,
}

impl<'a> Input<'a> {
    fn new(payload: &[u8], declared: Option<&'a str>) -> Self {
        let raw_len = payload.len().min(WINDOW);
        let mut raw = vec![0u8; if payload.is_empty() { 0 } else { WINDOW }];
        raw[..raw_len].copy_from_slice(&payload[..raw_len]);
        let bytes = &raw[..raw_len];

        let mut text = Vec::with_capacity(raw_len);
        let (mut in_markup, mut open_tags, mut bad_tags) = (false, 0usize, 0usize);
        for &b in bytes {
            if text.len() >= WINDOW {
                break;
            }
            if b == b'<' {
                if in_markup {
                    bad_tags += 1;
                }
                in_markup = true;
                open_tags += 1;
            }
            if !in_markup {
                text.push(b);
            }
            if b == b'>' {
                in_markup = false;
            }
        }
        if open_tags < 5 || open_tags / 5 < bad_tags || (text.len() < 100 && raw_len > 600) {
            text.clear();
            text.extend_from_slice(bytes);
        }
        let c1_bytes = text.iter().any(|&b| (0x80..=0x9f).contains(&b));
        Input {
            raw,
            raw_len,
            text,
            c1_bytes,
            declared,
        }
    }

    fn raw(&self) -> &[u8] {
        &self.raw[..self.raw_len]
    }
}

/// One recognizer's verdict: the name it reports (which may depend on C1 bytes) and its
/// confidence, 1..=100.
struct Match {
    name: &'static str,
    confidence: u32,
}

/// The charset names Tika's detector proposes for `payload`, best first, with the
/// `_rtl`/`_ltr` suffixes already removed (Tika's `getNormalizedName`). `declared` is the
/// HTTP charset as a Java canonical name: it halves the doubt of the recognizer of that name.
pub(super) fn detect_all(payload: &[u8], declared: Option<&str>) -> Vec<(&'static str, u32)> {
    let det = Input::new(payload, declared);
    let mut matches: Vec<Match> = Vec::new();
    for (recognizer_name, recognize) in RECOGNIZERS {
        let Some(mut m) = recognize(&det) else {
            continue;
        };
        m.confidence &= 0xff;
        if m.confidence == 0 {
            continue;
        }
        m.confidence = m.confidence.min(100);
        if det
            .declared
            .is_some_and(|d| d.eq_ignore_ascii_case(recognizer_name))
        {
            m.confidence += (100 - m.confidence) / 2;
        }
        matches.push(m);
    }
    matches.sort_by_key(|m| m.confidence);
    matches.reverse();
    matches
        .into_iter()
        .map(|m| {
            let name = m
                .name
                .strip_suffix("_rtl")
                .or_else(|| m.name.strip_suffix("_ltr"))
                .unwrap_or(m.name);
            (name, m.confidence)
        })
        .collect()
}

type Recognizer = fn(&Input) -> Option<Match>;

/// Tika's registration order (it breaks ties, see the module docs), with each recognizer's
/// `getName()`, the name the declared charset is compared with.
const RECOGNIZERS: [(&str, Recognizer); 35] = [
    ("UTF-8", utf8),
    ("UTF-16BE", |d| utf16(d, true)),
    ("UTF-16LE", |d| utf16(d, false)),
    ("UTF-32BE", |d| utf32(d, true)),
    ("UTF-32LE", |d| utf32(d, false)),
    ("Shift_JIS", |d| {
        mbcs(d, "Shift_JIS", next_sjis, &COMMON_SJIS)
    }),
    ("ISO-2022-JP", |d| iso2022(d, "ISO-2022-JP", ESC_2022_JP)),
    ("ISO-2022-CN", |d| iso2022(d, "ISO-2022-CN", ESC_2022_CN)),
    ("ISO-2022-KR", |d| iso2022(d, "ISO-2022-KR", ESC_2022_KR)),
    ("GB18030", |d| {
        mbcs(d, "GB18030", next_gb18030, &COMMON_GB_18030)
    }),
    ("EUC-JP", |d| mbcs(d, "EUC-JP", next_euc, &COMMON_EUC_JP)),
    ("EUC-KR", |d| mbcs(d, "EUC-KR", next_euc, &COMMON_EUC_KR)),
    ("Big5", |d| mbcs(d, "Big5", next_big5, &COMMON_BIG5)),
    ("ISO-8859-1", latin1),
    ("ISO-8859-2", latin2),
    ("ISO-8859-5", |d| {
        sbcs(d, "ISO-8859-5", &NGRAMS_8859_5_RU, &BYTEMAP_8859_5)
    }),
    ("ISO-8859-6", |d| {
        sbcs(d, "ISO-8859-6", &NGRAMS_8859_6_AR, &BYTEMAP_8859_6)
    }),
    ("ISO-8859-7", |d| {
        let name = c1(d, "windows-1253", "ISO-8859-7");
        sbcs(d, name, &NGRAMS_8859_7_EL, &BYTEMAP_8859_7)
    }),
    ("ISO-8859-8-I", |d| {
        let name = c1(d, "windows-1255", "ISO-8859-8-I");
        sbcs(d, name, &NGRAMS_8859_8_I_HE, &BYTEMAP_8859_8)
    }),
    ("ISO-8859-8", |d| {
        let name = c1(d, "windows-1255", "ISO-8859-8");
        sbcs(d, name, &NGRAMS_8859_8_HE, &BYTEMAP_8859_8)
    }),
    ("windows-1251", |d| {
        sbcs(
            d,
            "windows-1251",
            &NGRAMS_WINDOWS_1251,
            &BYTEMAP_WINDOWS_1251,
        )
    }),
    ("windows-1256", |d| {
        sbcs(
            d,
            "windows-1256",
            &NGRAMS_WINDOWS_1256,
            &BYTEMAP_WINDOWS_1256,
        )
    }),
    ("KOI8-R", |d| {
        sbcs(d, "KOI8-R", &NGRAMS_KOI8_R, &BYTEMAP_KOI8_R)
    }),
    ("ISO-8859-9", |d| {
        let name = c1(d, "windows-1254", "ISO-8859-9");
        sbcs(d, name, &NGRAMS_8859_9_TR, &BYTEMAP_8859_9)
    }),
    ("IBM500", |d| {
        sbcs(d, "IBM500", &NGRAMS_8859_1_DE, &BYTEMAP_EBCDIC_500)
    }),
    ("IBM500", |d| {
        sbcs(d, "IBM500", &NGRAMS_8859_1_EN, &BYTEMAP_EBCDIC_500)
    }),
    ("IBM500", |d| {
        sbcs(d, "IBM500", &NGRAMS_8859_1_ES, &BYTEMAP_EBCDIC_500)
    }),
    ("IBM500", |d| {
        sbcs(d, "IBM500", &NGRAMS_8859_1_FR, &BYTEMAP_EBCDIC_500)
    }),
    ("IBM500", |d| {
        sbcs(d, "IBM500", &NGRAMS_8859_1_IT, &BYTEMAP_EBCDIC_500)
    }),
    ("IBM500", |d| {
        sbcs(d, "IBM500", &NGRAMS_8859_1_NL, &BYTEMAP_EBCDIC_500)
    }),
    ("IBM424_rtl", |d| {
        sbcs_with(
            d,
            "IBM424_rtl",
            &NGRAMS_IBM424_HE_RTL,
            &BYTEMAP_IBM424_HE,
            0x40,
            false,
        )
    }),
    ("IBM424_ltr", |d| {
        sbcs_with(
            d,
            "IBM424_ltr",
            &NGRAMS_IBM424_HE_LTR,
            &BYTEMAP_IBM424_HE,
            0x40,
            false,
        )
    }),
    ("IBM420_rtl", |d| {
        sbcs_with(
            d,
            "IBM420_rtl",
            &NGRAMS_IBM420_AR_RTL,
            &BYTEMAP_IBM420_AR,
            0x40,
            true,
        )
    }),
    ("IBM420_ltr", |d| {
        sbcs_with(
            d,
            "IBM420_ltr",
            &NGRAMS_IBM420_AR_LTR,
            &BYTEMAP_IBM420_AR,
            0x40,
            true,
        )
    }),
    ("IBM866", |d| {
        sbcs(d, "IBM866", &NGRAMS_IBM866_RU, &BYTEMAP_IBM866_RU)
    }),
];

fn found(name: &'static str, confidence: u32) -> Option<Match> {
    (confidence > 0).then_some(Match { name, confidence })
}

fn c1(d: &Input, with_c1: &'static str, without: &'static str) -> &'static str {
    if d.c1_bytes {
        with_c1
    } else {
        without
    }
}

fn utf8(d: &Input) -> Option<Match> {
    let input = d.raw();
    let has_bom = input.starts_with(&[0xef, 0xbb, 0xbf]);
    let (mut valid, mut invalid) = (0u32, 0u32);
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b & 0x80 == 0 {
            i += 1;
            continue;
        }
        let mut trail = if b & 0xe0 == 0xc0 {
            1
        } else if b & 0xf0 == 0xe0 {
            2
        } else if b & 0xf8 == 0xf0 {
            3
        } else {
            invalid += 1;
            i += 1;
            continue;
        };
        // Like ICU, a bad trail byte is consumed with the sequence it breaks.
        loop {
            i += 1;
            if i >= input.len() {
                break;
            }
            if input[i] & 0xc0 != 0x80 {
                invalid += 1;
                break;
            }
            trail -= 1;
            if trail == 0 {
                valid += 1;
                break;
            }
        }
        i += 1;
    }
    let confidence = if has_bom && invalid == 0 {
        100
    } else if has_bom && valid > invalid * 10 {
        80
    } else if valid > 3 && invalid == 0 {
        100
    } else if valid > 0 && invalid == 0 {
        80
    } else if valid == 0 && invalid == 0 {
        // Plain ASCII: just above UTF-16's floor of 10.
        15
    } else if valid > invalid * 10 {
        25
    } else {
        0
    };
    found("UTF-8", confidence)
}

fn utf16(d: &Input, big_endian: bool) -> Option<Match> {
    let input = &d.raw;
    let to_check = input.len().min(30);
    let mut confidence: i32 = 10;
    let mut at = 0;
    while at + 1 < to_check {
        let (hi, lo) = if big_endian {
            (input[at], input[at + 1])
        } else {
            (input[at + 1], input[at])
        };
        let unit = u16::from(hi) << 8 | u16::from(lo);
        if at == 0 && unit == 0xfeff {
            confidence = 100;
            break;
        }
        if unit == 0 {
            confidence -= 10;
        } else if (0x20..=0xff).contains(&unit) || unit == 0x0a {
            confidence += 10;
        }
        confidence = confidence.clamp(0, 100);
        if confidence == 0 || confidence == 100 {
            break;
        }
        at += 2;
    }
    if to_check < 4 && confidence < 100 {
        confidence = 0;
    }
    found(
        if big_endian { "UTF-16BE" } else { "UTF-16LE" },
        confidence as u32,
    )
}

fn utf32(d: &Input, big_endian: bool) -> Option<Match> {
    let input = d.raw();
    let limit = input.len() / 4 * 4;
    if limit == 0 {
        return None;
    }
    let char_at = |i: usize| {
        let b: [u8; 4] = input[i..i + 4].try_into().unwrap();
        if big_endian {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        }
    };
    let has_bom = char_at(0) == 0xfeff;
    let (mut valid, mut invalid) = (0u32, 0u32);
    for i in (0..limit).step_by(4) {
        let ch = char_at(i);
        // Java's int is signed: a set top bit is "negative", hence invalid.
        if ch >= 0x10ffff || (0xd800..=0xdfff).contains(&ch) {
            invalid += 1;
        } else {
            valid += 1;
        }
    }
    let confidence = if has_bom && invalid == 0 {
        100
    } else if has_bom && valid > invalid * 10 {
        80
    } else if valid > 3 && invalid == 0 {
        100
    } else if valid > 0 && invalid == 0 {
        80
    } else if valid > invalid * 10 {
        25
    } else {
        0
    };
    found(if big_endian { "UTF-32BE" } else { "UTF-32LE" }, confidence)
}

const ESC_2022_JP: &[&[u8]] = &[
    b"\x1b$(C", b"\x1b$(D", b"\x1b$@", b"\x1b$A", b"\x1b$B", b"\x1b&@", b"\x1b(B", b"\x1b(H",
    b"\x1b(I", b"\x1b(J", b"\x1b.A", b"\x1b.F",
];
const ESC_2022_KR: &[&[u8]] = &[b"\x1b$)C"];
const ESC_2022_CN: &[&[u8]] = &[
    b"\x1b$)A", b"\x1b$)G", b"\x1b$*H", b"\x1b$)E", b"\x1b$+I", b"\x1b$+J", b"\x1b$+K", b"\x1b$+L",
    b"\x1b$+M", b"\x1bN", b"\x1bO",
];

fn iso2022(d: &Input, name: &'static str, escapes: &[&[u8]]) -> Option<Match> {
    let text = &d.text;
    let (mut hits, mut misses, mut shifts) = (0i32, 0i32, 0i32);
    let mut i = 0;
    while i < text.len() {
        if text[i] == 0x1b {
            if let Some(seq) = escapes.iter().find(|s| text[i..].starts_with(s)) {
                hits += 1;
                i += seq.len();
                continue;
            }
            misses += 1;
        }
        if text[i] == 0x0e || text[i] == 0x0f {
            shifts += 1;
        }
        i += 1;
    }
    if hits == 0 {
        return None;
    }
    let mut quality = (100 * hits - 100 * misses) / (hits + misses);
    if hits + shifts < 5 {
        quality -= (5 - (hits + shifts)) * 10;
    }
    found(name, quality.max(0) as u32)
}

/// One character of a multi-byte charset: its bytes packed into an integer, whether it is
/// malformed, or `None` at the end of the input (a character cut off by the end included).
type NextChar = fn(&[u8], &mut usize) -> Option<(u32, bool)>;

fn byte_at(input: &[u8], at: &mut usize) -> Option<u32> {
    let b = input.get(*at).copied()?;
    *at += 1;
    Some(u32::from(b))
}

fn next_sjis(input: &[u8], at: &mut usize) -> Option<(u32, bool)> {
    let first = byte_at(input, at)?;
    if first <= 0x7f || (first > 0xa0 && first <= 0xdf) {
        return Some((first, false));
    }
    let second = byte_at(input, at)?;
    Some((first << 8 | second, second < 0x40))
}

fn next_big5(input: &[u8], at: &mut usize) -> Option<(u32, bool)> {
    let first = byte_at(input, at)?;
    if first <= 0x7f || first == 0xff {
        return Some((first, false));
    }
    let second = byte_at(input, at)?;
    Some((
        first << 8 | second,
        second < 0x40 || second == 0x7f || second == 0xff,
    ))
}

fn next_euc(input: &[u8], at: &mut usize) -> Option<(u32, bool)> {
    let first = byte_at(input, at)?;
    if first <= 0x8d {
        return Some((first, false));
    }
    let second = byte_at(input, at)?;
    let value = first << 8 | second;
    if (0xa1..=0xfe).contains(&first) || first == 0x8e {
        return Some((value, second < 0xa1));
    }
    if first == 0x8f {
        let third = byte_at(input, at)?;
        return Some((value << 8 | third, third < 0xa1));
    }
    Some((value, false))
}

fn next_gb18030(input: &[u8], at: &mut usize) -> Option<(u32, bool)> {
    let first = byte_at(input, at)?;
    if first <= 0x80 {
        return Some((first, false));
    }
    let second = byte_at(input, at);
    let value = first << 8 | second.unwrap_or(0xff);
    if first == 0xff {
        return second.map(|_| (value, false));
    }
    let second = second?;
    // 80, not 0x80: ICU's typo, kept.
    if (0x40..=0x7e).contains(&second) || (80..=0xfe).contains(&second) {
        return Some((value, false));
    }
    if (0x30..=0x39).contains(&second) {
        let third = byte_at(input, at)?;
        if (0x81..=0xfe).contains(&third) {
            let fourth = byte_at(input, at)?;
            if (0x30..=0x39).contains(&fourth) {
                return Some((value << 16 | third << 8 | fourth, false));
            }
        }
    }
    Some((value, true))
}

fn mbcs(d: &Input, name: &'static str, next: NextChar, common: &[u32]) -> Option<Match> {
    let input = d.raw();
    let (mut double, mut common_count, mut bad, mut total) = (0u32, 0u32, 0u32, 0u32);
    let mut at = 0;
    let mut gave_up = false;
    while let Some((value, error)) = next(input, &mut at) {
        total += 1;
        if error {
            bad += 1;
        } else if value > 0xff {
            double += 1;
            if common.binary_search(&value).is_ok() {
                common_count += 1;
            }
        }
        if bad >= 2 && bad * 5 >= double {
            gave_up = true;
            break;
        }
    }
    let confidence = if gave_up {
        0
    } else if double <= 10 && bad == 0 {
        if double == 0 && total < 10 {
            0
        } else {
            10
        }
    } else if double < 20 * bad {
        0
    } else {
        let max = f64::from(double as f32 / 4.0).ln();
        let scale = 90.0 / max;
        ((f64::from(common_count + 1).ln() * scale + 10.0) as i32).clamp(0, 100) as u32
    };
    found(name, confidence)
}

fn latin1(d: &Input) -> Option<Match> {
    let name = c1(d, "windows-1252", "ISO-8859-1");
    let tables = [
        &NGRAMS_8859_1_DA,
        &NGRAMS_8859_1_DE,
        &NGRAMS_8859_1_EN,
        &NGRAMS_8859_1_ES,
        &NGRAMS_8859_1_FR,
        &NGRAMS_8859_1_IT,
        &NGRAMS_8859_1_NL,
        &NGRAMS_8859_1_NO,
        &NGRAMS_8859_1_PT,
        &NGRAMS_8859_1_SV,
    ];
    best_language(d, name, &tables, &BYTEMAP_8859_1)
}

fn latin2(d: &Input) -> Option<Match> {
    let name = c1(d, "windows-1250", "ISO-8859-2");
    let tables = [
        &NGRAMS_8859_2_CS,
        &NGRAMS_8859_2_HU,
        &NGRAMS_8859_2_PL,
        &NGRAMS_8859_2_RO,
    ];
    best_language(d, name, &tables, &BYTEMAP_8859_2)
}

fn best_language(
    d: &Input,
    name: &'static str,
    tables: &[&[u32; 64]],
    byte_map: &[u8; 256],
) -> Option<Match> {
    let best = tables
        .iter()
        .map(|t| ngram_confidence(d, t, byte_map, 0x20, false))
        .max()
        .unwrap_or(0);
    found(name, best)
}

fn sbcs(d: &Input, name: &'static str, ngrams: &[u32; 64], byte_map: &[u8; 256]) -> Option<Match> {
    found(name, ngram_confidence(d, ngrams, byte_map, 0x20, false))
}

fn sbcs_with(
    d: &Input,
    name: &'static str,
    ngrams: &[u32; 64],
    byte_map: &[u8; 256],
    space: u8,
    ibm420: bool,
) -> Option<Match> {
    found(name, ngram_confidence(d, ngrams, byte_map, space, ibm420))
}

/// ICU's `NGramParser`: the share of byte trigrams (after mapping bytes to letters or space,
/// runs of spaces collapsed) found in the language's 64 most frequent ones, scaled.
fn ngram_confidence(
    d: &Input,
    ngrams: &[u32; 64],
    byte_map: &[u8; 256],
    space: u8,
    ibm420: bool,
) -> u32 {
    let mut ngram = 0u32;
    let (mut count, mut hits) = (0u32, 0u32);
    let mut add = |b: u8| {
        ngram = ((ngram << 8) + u32::from(b)) & 0xff_ffff;
        count += 1;
        if ngrams.binary_search(&ngram).is_ok() {
            hits += 1;
        }
    };
    let mut ignore_space = false;
    let mut feed = |mb: u8, add: &mut dyn FnMut(u8)| {
        if mb != 0 {
            if !(mb == space && ignore_space) {
                add(mb);
            }
            ignore_space = mb == space;
        }
    };
    for &b in &d.text {
        if !ibm420 {
            feed(byte_map[usize::from(b)], &mut add);
            continue;
        }
        // IBM420: a NUL ends the text; lam-alef ligatures count as lam then alef.
        if b == 0 {
            break;
        }
        let alef = match b {
            0xb2 | 0xb3 => 0x47,
            0xb4 | 0xb5 => 0x49,
            0xb8 | 0xb9 => 0x56,
            _ => 0,
        };
        let unshaped = if alef != 0 {
            0xb1
        } else {
            UNSHAPE_IBM420[usize::from(b)]
        };
        feed(byte_map[usize::from(unshaped)], &mut add);
        if alef != 0 {
            feed(byte_map[alef], &mut add);
        }
    }
    add(space);
    let share = f64::from(hits) / f64::from(count);
    if share > 0.33 {
        98
    } else {
        (share * 300.0) as u32
    }
}
