//! The languages of a page, by CLD2, in the two conventions (see the crate docs).
//!
//! - [`cld2`]: one call of CLD2 (full tables), as pycld2 0.41's `detect` makes it: the top three
//!   languages with percent and normalized score, the reliable flag, the text bytes. Both
//!   conventions are built on it.
//! - [`detect_cc`]: Common Crawl's `content_languages` (HTML mode; TLD, Content-Language and
//!   encoding hints; pruned; ISO-639-3; comma-separated).
//! - [`detect_unt`]: UNT warc-metadata-sidecar's `Languages-cld2` and merged-CDXJ `languages`
//!   (HTML mode, best effort, no hints, unpruned, langcodes alpha-3).
//!
//! # Why `cld2-sys` is called directly
//! The `cld2` crate's `detect_language_ext` passes no flags, so it cannot ask for CLD2's
//! best-effort mode (pycld2's `bestEffort=True`, which UNT uses), and it maps languages to a Rust
//! enum that does not carry CLD2's names. `cld2-sys` builds the same CLD2 sources pycld2 vendors
//! (the `0122` quadgram/octagram tables: the "full" tables) and its C wrapper exports
//! `ExtDetectLanguageSummary` with hints and flags, which is the call pycld2's
//! `ExtDetectLanguageSummaryCheckUTF8` makes after its UTF-8 check. We declare that function
//! ourselves with `int` for CLD2's `Language` so that no language number CLD2 returns can be
//! an invalid Rust enum value.
//!
//! # Input bound
//! Neither pycld2 nor CC's JNA binding limits the input (CC's payloads are already capped by its
//! fetcher). CLD2 takes an `int` length and its time is linear in the input, so we cap what it
//! is given at [`MAX_CLD2_INPUT_BYTES`] (at a character boundary): far above any page of the
//! oracle (payloads up to 3 MiB), low enough to bound the work per record.

mod decode;
mod tables;

pub use decode::{decode_java, decode_python};

use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_void, CStr, CString};

// Links libcld2.a (built by cld2-sys from source); the functions are declared below.
use cld2_sys as _;

/// The most bytes of UTF-8 given to CLD2 in one call; longer text is cut at a character boundary.
pub const MAX_CLD2_INPUT_BYTES: usize = 16 << 20;

/// Hints for [`cld2`], as pycld2's `hintTopLevelDomain`, `hintLanguageHTTPHeaders`, `hintEncoding`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hints<'a> {
    /// Top-level domain without the dot (`"id"` boosts Indonesian). CLD2 ignores more than 3 letters.
    pub tld: Option<&'a str>,
    /// A Content-Language header value (`"mi,en"`).
    pub content_language: Option<&'a str>,
    /// The name of a CLD2 `Encoding` value (`"JAPANESE_SHIFT_JIS"`, `"UTF8"`); unknown names and
    /// `"UNKNOWN_ENCODING"` give no hint.
    pub encoding: Option<&'a str>,
}

/// One of CLD2's three result slots.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cld2Language {
    /// CLD2's code (`"en"`, `"zh-Hant"`, `"xx-Goth"`, `"un"`).
    pub code: &'static str,
    /// CLD2's name (`"ENGLISH"`, `"Unknown"` for an empty slot).
    pub name: &'static str,
    /// Percent of the text in this language.
    pub percent: i32,
    /// Normalized score (pycld2's fourth field).
    pub score: f64,
}

/// What pycld2's `detect` returns: `(reliable, text_bytes, ((name, code, percent, score) × 3))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cld2Result {
    pub reliable: bool,
    pub text_bytes: i32,
    pub languages: [Cld2Language; 3],
}

#[repr(C)]
struct CldHints {
    content_language_hint: *const c_char,
    tld_hint: *const c_char,
    encoding_hint: c_int,
    language_hint: c_int,
}

extern "C" {
    fn CLD2_ExtDetectLanguageSummary4(
        buffer: *const c_char,
        buffer_length: c_int,
        is_plain_text: bool,
        cld_hints: *const CldHints,
        flags: c_int,
        language3: *mut c_int,
        percent3: *mut c_int,
        normalized_score3: *mut f64,
        resultchunkvector: *mut c_void,
        text_bytes: *mut c_int,
        is_reliable: *mut bool,
    ) -> c_int;
    fn CLD2_LanguageName(lang: c_int) -> *const c_char;
    fn CLD2_LanguageCode(lang: c_int) -> *const c_char;
}

const UNKNOWN_LANGUAGE: c_int = 26;
const UNKNOWN_ENCODING: c_int = 23;
/// compact_lang_det.h `kCLDFlagBestEffort`.
const FLAG_BEST_EFFORT: c_int = 0x4000;

/// CLD2's `Encoding` enum (public/encodings.h), by value.
const ENCODING_NAMES: [&str; 75] = [
    "ISO_8859_1",
    "ISO_8859_2",
    "ISO_8859_3",
    "ISO_8859_4",
    "ISO_8859_5",
    "ISO_8859_6",
    "ISO_8859_7",
    "ISO_8859_8",
    "ISO_8859_9",
    "ISO_8859_10",
    "JAPANESE_EUC_JP",
    "JAPANESE_SHIFT_JIS",
    "JAPANESE_JIS",
    "CHINESE_BIG5",
    "CHINESE_GB",
    "CHINESE_EUC_CN",
    "KOREAN_EUC_KR",
    "UNICODE_UNUSED",
    "CHINESE_EUC_DEC",
    "CHINESE_CNS",
    "CHINESE_BIG5_CP950",
    "JAPANESE_CP932",
    "UTF8",
    "UNKNOWN_ENCODING",
    "ASCII_7BIT",
    "RUSSIAN_KOI8_R",
    "RUSSIAN_CP1251",
    "MSFT_CP1252",
    "RUSSIAN_KOI8_RU",
    "MSFT_CP1250",
    "ISO_8859_15",
    "MSFT_CP1254",
    "MSFT_CP1257",
    "ISO_8859_11",
    "MSFT_CP874",
    "MSFT_CP1256",
    "MSFT_CP1255",
    "ISO_8859_8_I",
    "HEBREW_VISUAL",
    "CZECH_CP852",
    "CZECH_CSN_369103",
    "MSFT_CP1253",
    "RUSSIAN_CP866",
    "ISO_8859_13",
    "ISO_2022_KR",
    "GBK",
    "GB18030",
    "BIG5_HKSCS",
    "ISO_2022_CN",
    "TSCII",
    "TAMIL_MONO",
    "TAMIL_BI",
    "JAGRAN",
    "MACINTOSH_ROMAN",
    "UTF7",
    "BHASKAR",
    "HTCHANAKYA",
    "UTF16BE",
    "UTF16LE",
    "UTF32BE",
    "UTF32LE",
    "BINARYENC",
    "HZ_GB_2312",
    "UTF8UTF8",
    "TAM_ELANGO",
    "TAM_LTTMBARANI",
    "TAM_SHREE",
    "TAM_TBOOMIS",
    "TAM_TMNEWS",
    "TAM_WEBTAMIL",
    "KDDI_SHIFT_JIS",
    "DOCOMO_SHIFT_JIS",
    "SOFTBANK_SHIFT_JIS",
    "KDDI_ISO_2022_JP",
    "SOFTBANK_ISO_2022_JP",
];

fn encoding_value(name: Option<&str>) -> c_int {
    name.and_then(|n| {
        ENCODING_NAMES
            .iter()
            .position(|e| e.eq_ignore_ascii_case(n))
    })
    .map_or(UNKNOWN_ENCODING, |i| i as c_int)
}

/// A hint as a C string: CLD2 reads it up to its NUL, so an embedded NUL ends it here too.
fn c_hint(s: Option<&str>) -> Option<CString> {
    let s = s?;
    let s = &s[..s.find('\0').unwrap_or(s.len())];
    Some(CString::new(s).expect("no NUL left"))
}

fn static_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: CLD2's name and code tables are static, NUL-terminated ASCII.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

fn language(lang: c_int, percent: c_int, score: f64) -> Cld2Language {
    // SAFETY: both functions index static tables and return a fixed string out of range.
    let (name, code) = unsafe { (CLD2_LanguageName(lang), CLD2_LanguageCode(lang)) };
    Cld2Language {
        code: static_str(code),
        name: static_str(name),
        percent,
        score,
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends at a character boundary.
fn bounded(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// One CLD2 call: `ExtDetectLanguageSummary` with `hints`, HTML mode unless `is_plain_text`,
/// `best_effort` = pycld2's `bestEffort` (`kCLDFlagBestEffort`: a guess for short text instead of
/// `un`). Equal to pycld2's `detect(text, ...)` whenever pycld2 accepts `text`; unlike pycld2 it
/// does not reject text that is valid UTF-8 but not "interchange valid" (C0/C1 controls other
/// than TAB/LF/CR, noncharacters): CLD2 is given it as Common Crawl's binding gives it.
/// At most [`MAX_CLD2_INPUT_BYTES`] of `text` are read.
pub fn cld2(text: &str, is_plain_text: bool, best_effort: bool, hints: &Hints) -> Cld2Result {
    let text = bounded(text, MAX_CLD2_INPUT_BYTES);
    // CLD2 is always handed NUL-terminated memory by pycld2 (Python bytes) and by CC (which
    // appends the NUL); keep that, without counting the NUL, so no scan can run off the end.
    let mut buf = Vec::with_capacity(text.len() + 1);
    buf.extend_from_slice(text.as_bytes());
    buf.push(0);

    let tld = c_hint(hints.tld);
    let content_language = c_hint(hints.content_language);
    let c_hints = CldHints {
        content_language_hint: content_language
            .as_ref()
            .map_or(std::ptr::null(), |s| s.as_ptr()),
        tld_hint: tld.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
        encoding_hint: encoding_value(hints.encoding),
        language_hint: UNKNOWN_LANGUAGE,
    };
    let mut language3 = [UNKNOWN_LANGUAGE; 3];
    let mut percent3: [c_int; 3] = [0; 3];
    let mut score3 = [0f64; 3];
    let mut text_bytes: c_int = 0;
    let mut reliable = false;
    // SAFETY: every pointer is valid for the call; the buffer is `text.len()` readable bytes
    // plus a NUL; the result vector is optional (null).
    unsafe {
        CLD2_ExtDetectLanguageSummary4(
            buf.as_ptr() as *const c_char,
            text.len() as c_int,
            is_plain_text,
            &c_hints,
            if best_effort { FLAG_BEST_EFFORT } else { 0 },
            language3.as_mut_ptr(),
            percent3.as_mut_ptr(),
            score3.as_mut_ptr(),
            std::ptr::null_mut(),
            &mut text_bytes,
            &mut reliable,
        );
    }
    Cld2Result {
        reliable,
        text_bytes,
        languages: [0, 1, 2].map(|i| language(language3[i], percent3[i], score3[i])),
    }
}

// ---------------------------------------------------------------------------------------------
// Common Crawl

/// What Common Crawl's crawler knows about a page when it detects its languages.
#[derive(Clone, Copy, Debug, Default)]
pub struct CcHints<'a> {
    /// WARC-Target-URI: its TLD becomes the TLD hint.
    pub url: Option<&'a str>,
    /// The raw HTTP Content-Language header.
    pub content_language: Option<&'a str>,
    /// The detected charset as a Java canonical name (CC's `charset`, Tika's `AutoDetectReader`):
    /// the payload is decoded with it and it becomes the encoding hint. `None`: UTF-8.
    pub charset: Option<&'a str>,
}

/// Common Crawl's languages of a page.
#[derive(Clone, Debug, PartialEq)]
pub struct CcLanguages {
    /// The CLD2 result the codes come from.
    pub cld2: Cld2Result,
    /// ISO-639-3 codes after CC's pruning, deduplicated, in CLD2's order.
    pub codes: Vec<&'static str>,
}

impl CcLanguages {
    /// CC's `content_languages` / CDX `languages` value: `"eng,fra"`; `None` when no language is left.
    pub fn joined(&self) -> Option<String> {
        (!self.codes.is_empty()).then(|| self.codes.join(","))
    }
}

/// Common Crawl's language detection (commoncrawl/nutch `LanguageDetector` on
/// language-detection-cld2), for a page CC applies it to (`text/html`, `application/xhtml+xml`):
/// the payload as CC gives it to CLD2 ([`cc_text`]), HTML mode, hints from [`cc_hints`], then
/// `Result.configurePruning(10, 2, 0.0)` and the ISO-639-3 codes ([`cc_codes`]).
///
/// CC passes the text with a trailing NUL counted in the length; like the oracle (pycld2 cannot
/// take a NUL) we do not count it: no CC record of the oracle changes with it.
pub fn detect_cc(payload: &[u8], hints: &CcHints) -> CcLanguages {
    let text = cc_text(payload, hints.charset);
    let tld = hints.url.and_then(cc_tld);
    let cld2_hints = cc_hints(tld.as_deref(), hints.content_language, hints.charset);
    let result = cld2(&text, false, false, &cld2_hints);
    CcLanguages {
        codes: cc_codes(&result),
        cld2: result,
    }
}

/// The CLD2 hints CC passes for a page: its TLD (see [`cc_tld`]), the raw Content-Language
/// header, and the CLD2 encoding for the Java charset ([`cc_encoding_hint`]).
pub fn cc_hints<'a>(
    tld: Option<&'a str>,
    content_language: Option<&'a str>,
    charset: Option<&str>,
) -> Hints<'a> {
    Hints {
        tld,
        content_language,
        encoding: charset.and_then(cc_encoding_hint),
    }
}

/// The text CC gives CLD2: the payload itself when it is well-formed UTF-8 and the charset is
/// UTF-8 (or unknown), else `new String(payload, charset)` (U+FFFD for malformed input).
/// A charset [`decode_java`] does not support is decoded as UTF-8 with replacement.
pub fn cc_text<'a>(payload: &'a [u8], charset: Option<&str>) -> Cow<'a, str> {
    let utf8 = charset.is_none_or(|c| c.eq_ignore_ascii_case("UTF-8"));
    if utf8 {
        return String::from_utf8_lossy(payload);
    }
    match decode_java(payload, charset.unwrap_or("UTF-8")) {
        Some(s) => Cow::Owned(s),
        None => String::from_utf8_lossy(payload),
    }
}

/// CC's TLD hint: the last label of `java.net.URI(url).getHost()`, lower-cased, only if it
/// starts with a letter. `None` where Java's URI parser would throw or find no host (characters
/// RFC 2396 does not allow, a host that is not a hostname such as one with `_`, an IP address).
pub fn cc_tld(url: &str) -> Option<String> {
    if !java_uri_chars_ok(url) {
        return None;
    }
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    if scheme.is_empty()
        || !scheme.as_bytes()[0].is_ascii_alphabetic()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    let rest = url[colon + 1..].strip_prefix("//")?;
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if hostport.starts_with('[') {
        return None;
    }
    let host = match hostport.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        Some(_) => return None,
        None => hostport,
    };
    let host = host.strip_suffix('.').unwrap_or(host);
    // RFC 2396 hostname: labels of letters, digits and inner hyphens; otherwise Java keeps the
    // authority as registry-based and getHost() is null.
    let labels: Vec<&str> = host.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    if !labels.iter().all(label_ok) {
        return None;
    }
    // CC takes the part after the last dot: a host without one has no TLD.
    if labels.len() < 2 {
        return None;
    }
    let last = labels.last()?;
    last.as_bytes()[0]
        .is_ascii_alphabetic()
        .then(|| last.to_ascii_lowercase())
}

/// Characters `java.net.URI(String)` accepts: RFC 2396 unreserved and reserved characters,
/// `%` escapes, `[]`, one `#`, and non-ASCII characters other than controls and spaces.
fn java_uri_chars_ok(url: &str) -> bool {
    let bytes = url.as_bytes();
    let mut hashes = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => {}
            b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'' | b'(' | b')' => {}
            b';' | b'/' | b'?' | b':' | b'@' | b'&' | b'=' | b'+' | b'$' | b',' | b'[' | b']' => {}
            b'#' => {
                hashes += 1;
                if hashes > 1 {
                    return false;
                }
            }
            b'%' => {
                if i + 2 >= bytes.len()
                    || !(bytes[i + 1].is_ascii_hexdigit() && bytes[i + 2].is_ascii_hexdigit())
                {
                    return false;
                }
                i += 2;
            }
            0x80.. => {}
            _ => return false,
        }
        i += 1;
    }
    url.chars()
        .all(|c| c.is_ascii() || !(c.is_control() || c.is_whitespace()))
}

/// CC's `Encoding.convert`: the CLD2 encoding for a Java charset, by canonical name. CC fixes
/// four (US-ASCII, GB2312, x-windows-950, windows-31j) and matches the others by name or alias;
/// this is the outcome of that matching on OpenJDK 17's charsets. `None`: no hint.
pub fn cc_encoding_hint(java_charset: &str) -> Option<&'static str> {
    const TABLE: &[(&str, &str)] = &[
        ("US-ASCII", "ASCII_7BIT"),
        ("GB2312", "CHINESE_GB"),
        ("x-windows-950", "CHINESE_BIG5_CP950"),
        ("windows-31j", "JAPANESE_CP932"),
        ("ISO-8859-1", "ISO_8859_1"),
        ("ISO-8859-2", "ISO_8859_2"),
        ("ISO-8859-3", "ISO_8859_3"),
        ("ISO-8859-4", "ISO_8859_4"),
        ("ISO-8859-5", "ISO_8859_5"),
        ("ISO-8859-6", "ISO_8859_6"),
        ("ISO-8859-7", "ISO_8859_7"),
        ("ISO-8859-8", "ISO_8859_8"),
        ("ISO-8859-9", "ISO_8859_9"),
        ("ISO-8859-13", "ISO_8859_13"),
        ("ISO-8859-15", "ISO_8859_15"),
        ("EUC-JP", "JAPANESE_EUC_JP"),
        ("Shift_JIS", "JAPANESE_SHIFT_JIS"),
        ("ISO-2022-JP", "JAPANESE_JIS"),
        ("Big5", "CHINESE_BIG5"),
        ("EUC-KR", "KOREAN_EUC_KR"),
        ("UTF-8", "UTF8"),
        ("KOI8-R", "RUSSIAN_KOI8_R"),
        ("windows-1250", "MSFT_CP1250"),
        ("windows-1251", "RUSSIAN_CP1251"),
        ("windows-1252", "MSFT_CP1252"),
        ("windows-1253", "MSFT_CP1253"),
        ("windows-1254", "MSFT_CP1254"),
        ("windows-1255", "MSFT_CP1255"),
        ("windows-1256", "MSFT_CP1256"),
        ("windows-1257", "MSFT_CP1257"),
        ("x-IBM874", "MSFT_CP874"),
        ("IBM852", "CZECH_CP852"),
        ("IBM866", "RUSSIAN_CP866"),
        ("ISO-2022-KR", "ISO_2022_KR"),
        ("GBK", "GBK"),
        ("GB18030", "GB18030"),
        ("Big5-HKSCS", "BIG5_HKSCS"),
        ("ISO-2022-CN", "ISO_2022_CN"),
        ("UTF-16BE", "UTF16BE"),
        ("UTF-16LE", "UTF16LE"),
        ("UTF-32BE", "UTF32BE"),
        ("UTF-32LE", "UTF32LE"),
    ];
    TABLE
        .iter()
        .find(|(java, _)| java.eq_ignore_ascii_case(java_charset))
        .map(|&(_, cld2)| cld2)
}

/// CC's codes for a CLD2 result: `Result.configurePruning(10, 2, 0.0)` (nothing below 10 text
/// bytes; skip a slot under 2 % or with a negative score; stop at an `un` slot after the first
/// kept or skipped one), then each slot's ISO-639-3 code from CC's table (languages without one
/// are dropped), without repeats.
pub fn cc_codes(r: &Cld2Result) -> Vec<&'static str> {
    let mut codes = Vec::new();
    if r.text_bytes < 10 {
        return codes;
    }
    for (i, l) in r.languages.iter().enumerate() {
        if l.percent < 2 || l.score < 0.0 {
            continue;
        }
        if i > 0 && l.code == "un" {
            break;
        }
        if let Some(code) = tables::cc_iso639_3(l.code) {
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
    }
    codes
}

// ---------------------------------------------------------------------------------------------
// UNT

/// How the UNT convention turns the payload into text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UntDecoding {
    /// Decode with the page's charset (chardet's name, as UNT's `charset` field holds it), UTF-8
    /// when there is none or it is not supported. The default: the text CLD2 is meant to read.
    #[default]
    Charset,
    /// `payload.decode('utf-8', 'replace')` whatever the charset, as warc-metadata-sidecar v1.0
    /// does: non-UTF-8 pages become mostly U+FFFD and their languages are often wrong. For output
    /// identical to the tool's.
    Utf8AsTool,
}

/// UNT's languages of a page.
#[derive(Clone, Debug, PartialEq)]
pub struct UntLanguages {
    /// The CLD2 result (pycld2 `detect(text, bestEffort=True)`).
    pub cld2: Cld2Result,
}

impl UntLanguages {
    /// The sidecar's `Languages-cld2` entries: every slot whose name is not `Unknown`, in order,
    /// 0 % ones included. Empty: the sidecar writes no `Languages-cld2`.
    pub fn entries(&self) -> impl Iterator<Item = &Cld2Language> {
        self.cld2.languages.iter().filter(|l| l.name != "Unknown")
    }

    /// The merged CDXJ `languages` value: langcodes 3.3.0 `to_alpha3()` of each entry's code,
    /// three-letter results only, joined by `,`, neither deduplicated nor pruned (`"eng,dan,zzp"`).
    /// `None` when no code is left.
    pub fn joined(&self) -> Option<String> {
        let codes: Vec<&str> = self
            .entries()
            .filter_map(|l| tables::unt_alpha3(l.code))
            .collect();
        (!codes.is_empty()).then(|| codes.join(","))
    }
}

/// UNT warc-metadata-sidecar's language detection for a page that passes its text gate: the
/// payload decoded (see [`UntDecoding`]; `charset` is chardet's encoding name), every
/// `\p{Cc}\p{Cs}\p{Cn}` character deleted (TAB/LF/CR too), then pycld2 in HTML mode with
/// `bestEffort=True` and no hints.
pub fn detect_unt(payload: &[u8], charset: Option<&str>, decoding: UntDecoding) -> UntLanguages {
    UntLanguages {
        cld2: cld2(
            &unt_text(payload, charset, decoding),
            false,
            true,
            &Hints::default(),
        ),
    }
}

/// The text UNT gives CLD2 (see [`detect_unt`]).
pub fn unt_text(payload: &[u8], charset: Option<&str>, decoding: UntDecoding) -> String {
    let decoded: Cow<str> = match (decoding, charset) {
        (UntDecoding::Charset, Some(c)) => match decode_python(payload, c) {
            Some(s) => Cow::Owned(s),
            None => String::from_utf8_lossy(payload),
        },
        _ => String::from_utf8_lossy(payload),
    };
    decoded.chars().filter(|&c| !unt_deleted(c)).collect()
}

/// `\p{Cc}` or `\p{Cn}` (Rust strings hold no surrogates, so `\p{Cs}` never occurs), with the
/// Unicode 16 tables of the `regex` module the tool pins (2024.11.6).
fn unt_deleted(c: char) -> bool {
    if c.is_control() {
        return true;
    }
    if c.is_ascii() {
        return false;
    }
    let ranges = unassigned();
    let i = ranges.partition_point(|&(_, hi)| hi < c);
    i < ranges.len() && ranges[i].0 <= c
}

fn unassigned() -> &'static [(char, char)] {
    use std::sync::OnceLock;
    static RANGES: OnceLock<Vec<(char, char)>> = OnceLock::new();
    RANGES.get_or_init(|| {
        let hir = regex_syntax::parse(r"\p{Cn}").expect("a valid class");
        match hir.kind() {
            regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(cls)) => {
                cls.ranges().iter().map(|r| (r.start(), r.end())).collect()
            }
            other => unreachable!("\\p{{Cn}} parsed as {other:?}"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_and_padding() {
        let text =
            "It is an ancient Mariner, And he stoppeth one of three. By thy long grey beard \
                    and glittering eye, Now wherefore stopp'st thou me? The Bridegroom's doors are \
                    opened wide, And I am next of kin; The guests are met, the feast is set.";
        let r = cld2(text, true, false, &Hints::default());
        assert_eq!(r.languages[0].code, "en");
        assert_eq!(r.languages[0].name, "ENGLISH");
        assert_eq!(r.languages[1].name, "Unknown");
        assert_eq!(r.languages[1].code, "un");
        assert!(r.reliable);
        assert_eq!(cc_codes(&r), ["eng"]);
    }

    #[test]
    fn best_effort_guesses_short_text() {
        let plain = cld2("bonjour", false, false, &Hints::default());
        assert_eq!(plain.languages[0].code, "un");
        let guess = cld2("bonjour tout le monde", false, true, &Hints::default());
        assert_ne!(guess.languages[0].code, "un");
    }

    #[test]
    fn tld_like_java_uri() {
        assert_eq!(cc_tld("http://www.Example.DE/a?b#c").as_deref(), Some("de"));
        assert_eq!(cc_tld("https://user@host.fr:8080/").as_deref(), Some("fr"));
        assert_eq!(cc_tld("http://1.2.3.4/"), None);
        assert_eq!(cc_tld("http://a_b.com/"), None);
        assert_eq!(cc_tld("http://a.com/x y"), None);
        assert_eq!(cc_tld("http://a.com/%zz"), None);
        assert_eq!(cc_tld("http://localhost/"), None);
    }

    #[test]
    fn unt_deletes_controls_and_unassigned() {
        assert_eq!(
            unt_text(b"a\tb\r\n\x7fc\xef\xbf\xbfd", None, UntDecoding::Utf8AsTool),
            "abcd"
        );
        assert_eq!(
            unt_text(b"\xe9t\xe9", Some("ISO-8859-1"), UntDecoding::Charset),
            "été"
        );
        assert_eq!(
            unt_text(b"\xe9t\xe9", Some("ISO-8859-1"), UntDecoding::Utf8AsTool),
            "\u{fffd}t\u{fffd}"
        );
    }

    #[test]
    fn bounded_cuts_at_char_boundary() {
        assert_eq!(bounded("aé", 2), "a");
        assert_eq!(bounded("aé", 3), "aé");
    }

    #[test]
    fn encoding_names() {
        assert_eq!(encoding_value(Some("UTF8")), 22);
        assert_eq!(encoding_value(Some("ascii_7bit")), 24);
        assert_eq!(encoding_value(Some("nonsense")), UNKNOWN_ENCODING);
        assert_eq!(cc_encoding_hint("windows-1251"), Some("RUSSIAN_CP1251"));
        assert_eq!(cc_encoding_hint("x-MacCyrillic"), None);
    }
}
