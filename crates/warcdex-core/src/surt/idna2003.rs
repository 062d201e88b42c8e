//! IDNA 2003 `ToASCII`, exactly as CPython's `idna` codec does it.
//!
//! The SURT reference converts a non-ASCII host with
//! `host.decode('utf-8', 'ignore').encode('idna')`. That codec is IDNA 2003
//! (RFC 3490 with RFC 3491 nameprep), which differs from the UTS 46 /
//! IDNA 2008 processing of the `idna` crate in many details (`ß` becomes
//! `ss`, symbols are allowed, no hyphen or CONTEXTJ rules, other bidi rules),
//! so it is reimplemented here. The tables are probed from CPython itself
//! (see `tools/gen_idna2003_tables.py`), including its quirks: Unicode 3.2
//! decompositions, but reordering and composition with the current Unicode
//! database.

use super::idna2003_tables::{
    BIDI_L, BIDI_R_AL, COMBINING_CLASS, COMPOSITION, DECOMPOSITION, DECOMPOSITION_DATA,
    NAMEPREP_MAP, NAMEPREP_MAP_DATA, PROHIBITED,
};

/// Longest label the codec accepts (it rejects `len >= 64`).
const MAX_LABEL_LEN: usize = 63;

/// Appends `host.decode('utf-8', 'ignore').encode('idna')` to `out`.
///
/// Returns `false` where CPython raises `UnicodeError`; `out` may then hold
/// partial output and must be discarded by the caller.
pub fn host_to_ascii(host: &[u8], out: &mut Vec<u8>) -> bool {
    // 'ignore' drops every byte that is not part of a valid UTF-8 sequence.
    let mut text = String::with_capacity(host.len());
    for chunk in host.utf8_chunks() {
        text.push_str(chunk.valid());
    }

    if text.is_ascii() {
        return ascii_host_fast_path(text.as_bytes(), out);
    }

    // Labels are separated by any of the four IDNA dots; a trailing empty
    // label is a trailing dot, any other empty label is an error.
    let mut labels: Vec<&str> = text.split(is_idna_dot).collect();
    let trailing_dot = labels.last().is_some_and(|l| l.is_empty());
    if trailing_dot {
        labels.pop();
    }
    for (i, label) in labels.iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        if !label_to_ascii(label, out) {
            return false;
        }
    }
    if trailing_dot {
        out.push(b'.');
    }
    true
}

fn is_idna_dot(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// The codec's shortcut for an all-ASCII name: only label lengths are checked
/// (the last label may be empty), nothing is lower-cased.
fn ascii_host_fast_path(host: &[u8], out: &mut Vec<u8>) -> bool {
    let mut labels = host.split(|&b| b == b'.').peekable();
    while let Some(label) = labels.next() {
        let is_last = labels.peek().is_none();
        let too_short = label.is_empty() && !is_last;
        if too_short || label.len() > MAX_LABEL_LEN {
            return false;
        }
    }
    out.extend_from_slice(host);
    true
}

/// RFC 3490 ToASCII with AllowUnassigned and without UseSTD3ASCIIRules.
fn label_to_ascii(label: &str, out: &mut Vec<u8>) -> bool {
    if label.is_ascii() {
        return push_label_checked(label.as_bytes(), out);
    }
    let Some(prepared) = nameprep(label) else {
        return false;
    };
    if prepared.iter().all(char::is_ascii) {
        let ascii: Vec<u8> = prepared.iter().map(|&c| c as u8).collect();
        return push_label_checked(&ascii, out);
    }
    if prepared.starts_with(&['x', 'n', '-', '-']) {
        return false;
    }
    // "xn--" plus at least one output byte per input character: a label of
    // 60 or more characters cannot fit, which also keeps the arithmetic small.
    if prepared.len() + 4 > MAX_LABEL_LEN {
        return false;
    }
    let start = out.len();
    out.extend_from_slice(b"xn--");
    punycode_encode(&prepared, out);
    out.len() - start <= MAX_LABEL_LEN
}

fn push_label_checked(label: &[u8], out: &mut Vec<u8>) -> bool {
    if label.is_empty() || label.len() > MAX_LABEL_LEN {
        return false;
    }
    out.extend_from_slice(label);
    true
}

/// RFC 3491 nameprep (map, NFKC, prohibit, bidi); `None` if rejected.
fn nameprep(label: &str) -> Option<Vec<char>> {
    let mut mapped = String::with_capacity(label.len());
    for c in label.chars() {
        match lookup_string(&NAMEPREP_MAP, NAMEPREP_MAP_DATA, c) {
            Some(replacement) => mapped.push_str(replacement),
            None => mapped.push(c),
        }
    }
    let normalized = nfkc(&mapped);
    if normalized.iter().any(|&c| in_ranges(&PROHIBITED, c)) {
        return None;
    }
    if !bidi_ok(&normalized) {
        return None;
    }
    Some(normalized)
}

/// RFC 3454 section 6: a label with right-to-left characters must not contain
/// left-to-right ones and must start and end with right-to-left characters.
fn bidi_ok(label: &[char]) -> bool {
    let is_r_al = |c: &char| in_ranges(&BIDI_R_AL, *c);
    if !label.iter().any(is_r_al) {
        return true;
    }
    if label.iter().any(|&c| in_ranges(&BIDI_L, c)) {
        return false;
    }
    label.first().is_some_and(is_r_al) && label.last().is_some_and(is_r_al)
}

// --- NFKC as CPython's `unicodedata.ucd_3_2_0.normalize('NFKC', ...)` -------

const S_BASE: u32 = 0xAC00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;
const S_COUNT: u32 = L_COUNT * N_COUNT;

fn nfkc(text: &str) -> Vec<char> {
    let mut chars = Vec::with_capacity(text.len());
    for c in text.chars() {
        push_decomposed(c, &mut chars);
    }
    canonical_reorder(&mut chars);
    compose(&chars)
}

fn push_decomposed(c: char, out: &mut Vec<char>) {
    let cp = c as u32;
    if (S_BASE..S_BASE + S_COUNT).contains(&cp) {
        let index = cp - S_BASE;
        out.push(char_from(L_BASE + index / N_COUNT));
        out.push(char_from(V_BASE + (index % N_COUNT) / T_COUNT));
        let t = index % T_COUNT;
        if t != 0 {
            out.push(char_from(T_BASE + t));
        }
    } else if let Some(decomposition) = lookup_string(&DECOMPOSITION, DECOMPOSITION_DATA, c) {
        out.extend(decomposition.chars());
    } else {
        out.push(c);
    }
}

/// Stable insertion sort of each run of non-starters by combining class.
fn canonical_reorder(chars: &mut [char]) {
    for i in 1..chars.len() {
        let class = combining_class(chars[i]);
        if class == 0 {
            continue;
        }
        let mut j = i;
        while j > 0 {
            let before = combining_class(chars[j - 1]);
            if before == 0 || before <= class {
                break;
            }
            chars.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Canonical composition, following the structure of CPython's `nfc_nfkc`.
fn compose(chars: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len());
    let mut consumed = vec![false; chars.len()];
    let mut i = 0;
    while i < chars.len() {
        if consumed[i] {
            i += 1;
            continue;
        }
        let c = chars[i] as u32;
        // Hangul: a leading consonant and a vowel (and an optional trailing
        // consonant) form a syllable.
        if (L_BASE..L_BASE + L_COUNT).contains(&c) {
            if let Some(&v) = chars.get(i + 1) {
                let v = v as u32;
                if (V_BASE..V_BASE + V_COUNT).contains(&v) {
                    let mut syllable = S_BASE + ((c - L_BASE) * V_COUNT + (v - V_BASE)) * T_COUNT;
                    i += 2;
                    if let Some(&t) = chars.get(i) {
                        let t = t as u32;
                        if T_BASE < t && t < T_BASE + T_COUNT {
                            syllable += t - T_BASE;
                            i += 1;
                        }
                    }
                    out.push(char_from(syllable));
                    continue;
                }
            }
        }

        let mut base = chars[i];
        // Combining class of the last character left uncombined after the
        // base; 0 while every character so far has been combined.
        let mut blocking_class = 0u8;
        let mut j = i + 1;
        while j < chars.len() {
            let next = chars[j];
            let class = combining_class(next);
            if blocking_class != 0 {
                if class == 0 {
                    break;
                }
                if blocking_class >= class {
                    j += 1;
                    continue;
                }
            }
            match compose_pair(base, next) {
                Some(composite) => {
                    base = composite;
                    consumed[j] = true;
                    j += 1;
                }
                None => {
                    if class == 0 {
                        break;
                    }
                    blocking_class = class;
                    j += 1;
                }
            }
        }
        out.push(base);
        i += 1;
    }
    out
}

fn compose_pair(first: char, second: char) -> Option<char> {
    let key = (first as u32, second as u32);
    COMPOSITION
        .binary_search_by(|&(a, b, _)| (a, b).cmp(&key))
        .ok()
        .map(|i| char_from(COMPOSITION[i].2))
}

fn combining_class(c: char) -> u8 {
    let cp = c as u32;
    match COMBINING_CLASS.binary_search_by(|&(first, last, _)| {
        if last < cp {
            std::cmp::Ordering::Less
        } else if first > cp {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    }) {
        Ok(i) => COMBINING_CLASS[i].2,
        Err(_) => 0,
    }
}

// --- RFC 3492 Punycode --------------------------------------------------------

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;

/// Appends the Punycode form of `label` (without the `xn--` prefix).
fn punycode_encode(label: &[char], out: &mut Vec<u8>) {
    let basic_count = label.iter().filter(|c| c.is_ascii()).count() as u32;
    out.extend(label.iter().filter(|c| c.is_ascii()).map(|&c| c as u8));
    if basic_count > 0 {
        out.push(b'-');
    }

    let total = label.len() as u32;
    let mut n = INITIAL_N;
    let mut delta: u32 = 0;
    let mut bias = INITIAL_BIAS;
    let mut handled = basic_count;
    while handled < total {
        let m = label
            .iter()
            .map(|&c| c as u32)
            .filter(|&c| c >= n)
            .min()
            .unwrap_or(n);
        delta += (m - n) * (handled + 1);
        n = m;
        for &c in label {
            let c = c as u32;
            if c < n {
                delta += 1;
            }
            if c == n {
                push_variable_length_integer(delta, bias, out);
                bias = adapt(delta, handled + 1, handled == basic_count);
                delta = 0;
                handled += 1;
            }
        }
        delta += 1;
        n += 1;
    }
}

fn push_variable_length_integer(mut q: u32, bias: u32, out: &mut Vec<u8>) {
    let mut k = BASE;
    loop {
        let t = k.saturating_sub(bias).clamp(T_MIN, T_MAX);
        if q < t {
            break;
        }
        out.push(punycode_digit(t + (q - t) % (BASE - t)));
        q = (q - t) / (BASE - t);
        k += BASE;
    }
    out.push(punycode_digit(q));
}

fn adapt(delta: u32, num_points: u32, first_time: bool) -> u32 {
    let mut delta = if first_time { delta / DAMP } else { delta / 2 };
    delta += delta / num_points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

fn punycode_digit(d: u32) -> u8 {
    if d < 26 {
        b'a' + d as u8
    } else {
        b'0' + (d - 26) as u8
    }
}

// --- table lookups ----------------------------------------------------------------

fn lookup_string(index: &[(u32, u16, u16)], data: &'static str, c: char) -> Option<&'static str> {
    let cp = c as u32;
    index
        .binary_search_by_key(&cp, |&(k, _, _)| k)
        .ok()
        .map(|i| &data[index[i].1 as usize..index[i].2 as usize])
}

fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    let cp = c as u32;
    let i = ranges.partition_point(|&(_, last)| last < cp);
    ranges.get(i).is_some_and(|&(first, _)| first <= cp)
}

/// Every value passed here comes from the Unicode tables or Hangul
/// arithmetic, so it is always a valid scalar value.
fn char_from(cp: u32) -> char {
    char::from_u32(cp).unwrap_or(char::REPLACEMENT_CHARACTER)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_ascii(host: &str) -> Option<String> {
        let mut out = Vec::new();
        host_to_ascii(host.as_bytes(), &mut out).then(|| String::from_utf8(out).unwrap())
    }

    #[test]
    fn converts_like_cpython() {
        assert_eq!(to_ascii("ä.com").as_deref(), Some("xn--4ca.com"));
        assert_eq!(to_ascii("straße.de").as_deref(), Some("strasse.de"));
        assert_eq!(to_ascii("☃.net").as_deref(), Some("xn--n3h.net"));
        assert_eq!(to_ascii("ＡＢＣ。com").as_deref(), Some("abc.com"));
        assert_eq!(to_ascii("bücher.").as_deref(), Some("xn--bcher-kva."));
        assert_eq!(to_ascii("ä..com"), None);
    }

    #[test]
    fn punycode_rfc_sample() {
        // RFC 3492 7.1 (A): Arabic (Egyptian).
        let label: Vec<char> = "\u{644}\u{64A}\u{647}\u{645}\u{627}\u{628}\u{62A}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64A}\u{61F}".chars().collect();
        let mut out = Vec::new();
        punycode_encode(&label, &mut out);
        assert_eq!(out, b"egbpdaj6bu4bxfgehfvwxn");
    }
}
