//! JSON request bodies turned into `key=value` pairs the way cdxj-indexer
//! does it: Python's `json.loads` (bytes in, encoding sniffed) followed by a
//! walk that keeps every scalar under the name of the object member holding
//! it and renames repeated names to `name.2_`, `name.3_`, ...
//!
//! Python's decoder is looser and stricter than most: it takes `NaN`,
//! `Infinity`, `-Infinity`, integers of any size (up to 4300 digits), lone
//! UTF-16 surrogates and duplicate keys (last value wins, first position
//! kept), but rejects raw control characters in strings. Values are rendered
//! with Python's `str()`: `True`, `False`, `None`, `1e+16`, `inf`...

use std::collections::HashMap;

use super::pystr::{py_float_repr, urlencode, MAX_INT_DIGITS};

/// How deep objects and arrays may nest before Python gives up with
/// `RecursionError`. The limit is the interpreter's recursion limit (1000)
/// minus the frames cdxj-indexer's command line already uses when it parses a
/// body; measured with cdxj-indexer 1.5.0 on Python 3.11.
pub(super) const MAX_NESTING: usize = 984;

/// The same limit for pywb 2.x's `cdx-indexer -p`, whose call stack is
/// shallower when it parses a body; measured on Python 3.11 as well.
pub(super) const MAX_NESTING_PYWB: usize = 987;

/// Whose `json_parse` the body goes through. The two differ in how scalars
/// are rendered, in the nesting limit, and in cdxj-indexer's line-by-line
/// retry, which pywb does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    /// cdxj-indexer 1.5: Python's `str()` of every scalar.
    CdxjIndexer,
    /// pywb 2.x: `true`, `false`, `null`; a float without a fraction as the
    /// integer it holds (`1.0` → `1`, `1e16` → `10000000000000000`).
    Pywb,
}

/// Text as a Python `str` holds it: any code points, including the lone
/// surrogates that JSON `\uD800` escapes and `surrogatepass` decoding
/// produce. Stored as generalized UTF-8 (surrogates take the three bytes
/// UTF-8 would give them), so equal texts have equal bytes and the text is a
/// valid Rust `String` exactly when Python could encode it as UTF-8.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
struct PyText(Vec<u8>);

impl PyText {
    fn push(&mut self, code_point: u32) {
        match char::from_u32(code_point) {
            Some(c) => self
                .0
                .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            // A surrogate: the same bit layout as any other three-byte sequence.
            None => self.0.extend_from_slice(&[
                0xE0 | (code_point >> 12) as u8,
                0x80 | ((code_point >> 6) & 0x3F) as u8,
                0x80 | (code_point & 0x3F) as u8,
            ]),
        }
    }

    fn push_str(&mut self, text: &str) {
        self.0.extend_from_slice(text.as_bytes());
    }

    fn from_str(text: &str) -> Self {
        PyText(text.as_bytes().to_vec())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The UTF-8 bytes Python's `str.encode('utf-8')` gives, or `None` where
    /// it raises because of a lone surrogate.
    fn utf8(&self) -> Option<&[u8]> {
        std::str::from_utf8(&self.0).ok().map(str::as_bytes)
    }
}

/// A decoded JSON document, with scalars already rendered by Python's `str()`.
#[derive(Debug)]
enum Value {
    /// Members in Python dict order: a repeated key keeps the position of its
    /// first occurrence and the value of its last.
    Object(Vec<(PyText, Value)>),
    Array(Vec<Value>),
    Scalar(PyText),
    /// pywb: an infinite float, whose `int()` raises `OverflowError` when
    /// (and only when) the walk reaches it under a name.
    Unrenderable,
}

/// Why `json.loads` raised. Only a syntax error (`JSONDecodeError`) makes
/// cdxj-indexer retry the body line by line.
#[derive(Debug, PartialEq, Eq)]
enum LoadError {
    Syntax,
    /// `UnicodeDecodeError`, `ValueError` for an over-long integer, or
    /// `RecursionError`.
    Other,
}

/// The `key=value` query for a JSON body, or `None` where cdxj-indexer's
/// `json_parse` raises (it then falls back to an empty query or base64,
/// depending on the content type).
pub(super) fn json_body_query(body: &[u8]) -> Option<String> {
    let mut fields = FlatFields::default();
    match load(body) {
        Ok(document) => fields.collect(&document, &PyText::default()),
        // A body that is not one JSON text may be one per line (NDJSON); then
        // every line, even an empty last one, has to parse.
        Err(LoadError::Syntax) if body.contains(&b'\n') => {
            for line in body.split(|&byte| byte == b'\n') {
                let document = load(line).ok()?;
                fields.collect(&document, &PyText::default());
            }
        }
        Err(_) => return None,
    }
    fields.urlencode()
}

/// The `key=value` query pywb 2.x's `MethodQueryCanonicalizer.json_parse`
/// derives from a JSON body, or `None` where it raises: no line-by-line
/// retry, scalars rendered as pywb does (see [`Dialect::Pywb`]).
pub(super) fn pywb_json_body_query(body: &[u8]) -> Option<String> {
    let document = load_with(body, Dialect::Pywb).ok()?;
    let mut fields = FlatFields::default();
    fields.collect(&document, &PyText::default());
    if fields.unrenderable {
        return None;
    }
    fields.urlencode()
}

/// The flattened fields in insertion order, as the Python dict `data`.
#[derive(Default)]
struct FlatFields {
    entries: Vec<(PyText, PyText)>,
    position: HashMap<PyText, usize>,
    /// How often each name has been seen, for the `.N_` suffix.
    repeats: HashMap<PyText, u64>,
    /// pywb: a named scalar could not be rendered (the walk raised).
    unrenderable: bool,
}

impl FlatFields {
    fn collect(&mut self, value: &Value, name: &PyText) {
        match value {
            Value::Object(members) => {
                for (key, member) in members {
                    self.collect(member, key);
                }
            }
            // Array items are filed under the name of the member holding the array.
            Value::Array(items) => {
                for item in items {
                    self.collect(item, name);
                }
            }
            // Scalars with no name (top level, or the empty key) are dropped.
            Value::Scalar(text) if !name.is_empty() => {
                let key = self.unused_key(name);
                self.insert(key, text.clone());
            }
            Value::Scalar(_) => {}
            Value::Unrenderable => self.unrenderable |= !name.is_empty(),
        }
    }

    /// `name` itself the first time, then `name.2_`, `name.3_`... The renamed
    /// key is not checked again, so it may overwrite a member that was
    /// literally called `name.2_`.
    fn unused_key(&mut self, name: &PyText) -> PyText {
        if !self.position.contains_key(name) {
            return name.clone();
        }
        let seen = self.repeats.entry(name.clone()).or_insert(1);
        *seen += 1;
        let mut key = name.clone();
        key.push_str(&format!(".{seen}_"));
        key
    }

    fn insert(&mut self, key: PyText, value: PyText) {
        match self.position.get(&key) {
            Some(&index) => self.entries[index].1 = value,
            None => {
                self.position.insert(key.clone(), self.entries.len());
                self.entries.push((key, value));
            }
        }
    }

    /// `urlencode(data)`; `None` where a key or value holds a lone surrogate,
    /// which makes Python's UTF-8 encoding raise.
    fn urlencode(&self) -> Option<String> {
        let mut pairs = Vec::with_capacity(self.entries.len());
        for (key, value) in &self.entries {
            pairs.push((key.utf8()?, value.utf8()?));
        }
        Some(urlencode(pairs))
    }
}

/// `json.loads(bytes)`: sniff the encoding, decode with `surrogatepass`,
/// then parse one JSON text surrounded by optional whitespace.
fn load(bytes: &[u8]) -> Result<Value, LoadError> {
    load_with(bytes, Dialect::CdxjIndexer)
}

fn load_with(bytes: &[u8], dialect: Dialect) -> Result<Value, LoadError> {
    let text = decode_json_bytes(bytes).ok_or(LoadError::Other)?;
    let mut parser = Parser {
        text: &text,
        pos: 0,
        depth: 0,
        dialect,
    };
    parser.skip_whitespace();
    let value = parser.value()?;
    parser.skip_whitespace();
    if parser.pos != text.len() {
        return Err(LoadError::Syntax);
    }
    Ok(value)
}

/// The code points of a JSON byte string per `json.detect_encoding`: a BOM
/// picks UTF-32, UTF-16 or UTF-8 (and is dropped), otherwise the pattern of
/// zero bytes at the start does, defaulting to UTF-8. Lone surrogates pass.
fn decode_json_bytes(bytes: &[u8]) -> Option<Vec<u32>> {
    const UTF32_LE_BOM: &[u8] = b"\xFF\xFE\x00\x00";
    const UTF32_BE_BOM: &[u8] = b"\x00\x00\xFE\xFF";
    if let Some(rest) = bytes.strip_prefix(UTF32_LE_BOM) {
        return decode_utf32(rest, u32::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(UTF32_BE_BOM) {
        return decode_utf32(rest, u32::from_be_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return decode_utf16(rest, u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return decode_utf16(rest, u16::from_be_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return decode_utf8_surrogatepass(rest);
    }
    match *bytes {
        [0, 0, _, _, ..] => decode_utf32(bytes, u32::from_be_bytes),
        [0, _, _, _, ..] | [0, _] => decode_utf16(bytes, u16::from_be_bytes),
        [_, 0, 0, 0, ..] => decode_utf32(bytes, u32::from_le_bytes),
        [_, 0, _, _, ..] | [_, 0] => decode_utf16(bytes, u16::from_le_bytes),
        _ => decode_utf8_surrogatepass(bytes),
    }
}

/// A trailing partial unit is an error ("truncated data"), as in Python.
fn decode_utf32(bytes: &[u8], unit: fn([u8; 4]) -> u32) -> Option<Vec<u32>> {
    let quads = bytes.chunks_exact(4);
    if !quads.remainder().is_empty() {
        return None;
    }
    quads
        .map(|quad| unit([quad[0], quad[1], quad[2], quad[3]]))
        .map(|code_point| (code_point <= 0x10FFFF).then_some(code_point))
        .collect()
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Option<Vec<u32>> {
    let pairs = bytes.chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return None;
    }
    let units = pairs.map(|pair| unit([pair[0], pair[1]]));
    // Unpaired surrogates come through as themselves (`surrogatepass`).
    Some(
        char::decode_utf16(units)
            .map(|decoded| {
                decoded.map_or_else(|lone| u32::from(lone.unpaired_surrogate()), u32::from)
            })
            .collect(),
    )
}

/// UTF-8 as Python's decoder with `surrogatepass` reads it: strict, except
/// that the three-byte forms of U+D800..U+DFFF are let through.
fn decode_utf8_surrogatepass(bytes: &[u8]) -> Option<Vec<u32>> {
    let mut code_points = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                code_points.extend(valid.chars().map(u32::from));
                break;
            }
            Err(error) => {
                let (valid, after) = rest.split_at(error.valid_up_to());
                let valid = std::str::from_utf8(valid).expect("prefix checked valid");
                code_points.extend(valid.chars().map(u32::from));
                match *after {
                    [0xED, second @ 0xA0..=0xBF, third @ 0x80..=0xBF, ..] => {
                        code_points
                            .push(0xD000 | u32::from(second & 0x3F) << 6 | u32::from(third & 0x3F));
                        rest = &after[3..];
                    }
                    _ => return None,
                }
            }
        }
    }
    Some(code_points)
}

/// Python's C JSON scanner over decoded code points.
struct Parser<'a> {
    text: &'a [u32],
    pos: usize,
    depth: usize,
    dialect: Dialect,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u32> {
        self.text.get(self.pos).copied()
    }

    fn at(&self, literal: &str) -> bool {
        let rest = &self.text[self.pos.min(self.text.len())..];
        literal
            .chars()
            .map(u32::from)
            .eq(rest.iter().copied().take(literal.len()))
    }

    /// JSON whitespace only: space, tab, LF, CR.
    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(0x20 | 0x09 | 0x0A | 0x0D)) {
            self.pos += 1;
        }
    }

    fn value(&mut self) -> Result<Value, LoadError> {
        let scalar = |text: &str| Ok(Value::Scalar(PyText::from_str(text)));
        match self.peek().and_then(char::from_u32) {
            Some('"') => {
                self.pos += 1;
                self.string().map(Value::Scalar)
            }
            Some('{') => self.nested(Self::object),
            Some('[') => self.nested(Self::array),
            _ if self.dialect == Dialect::Pywb => self.pywb_keyword(),
            _ if self.at("null") => self.keyword("null", scalar("None")),
            _ if self.at("true") => self.keyword("true", scalar("True")),
            _ if self.at("false") => self.keyword("false", scalar("False")),
            _ if self.at("NaN") => self.keyword("NaN", scalar("nan")),
            _ if self.at("Infinity") => self.keyword("Infinity", scalar("inf")),
            _ if self.at("-Infinity") => self.keyword("-Infinity", scalar("-inf")),
            _ => self.number(),
        }
    }

    fn keyword(&mut self, word: &str, value: Result<Value, LoadError>) -> Result<Value, LoadError> {
        self.pos += word.len();
        value
    }

    /// pywb renders the JSON literals as JSON writes them; the infinities
    /// cannot be rendered (`int(inf)` raises).
    fn pywb_keyword(&mut self) -> Result<Value, LoadError> {
        let scalar = |text: &str| Ok(Value::Scalar(PyText::from_str(text)));
        match () {
            _ if self.at("null") => self.keyword("null", scalar("null")),
            _ if self.at("true") => self.keyword("true", scalar("true")),
            _ if self.at("false") => self.keyword("false", scalar("false")),
            _ if self.at("NaN") => self.keyword("NaN", scalar("nan")),
            _ if self.at("Infinity") => self.keyword("Infinity", Ok(Value::Unrenderable)),
            _ if self.at("-Infinity") => self.keyword("-Infinity", Ok(Value::Unrenderable)),
            _ => self.number(),
        }
    }

    fn nested(
        &mut self,
        parse: fn(&mut Self) -> Result<Value, LoadError>,
    ) -> Result<Value, LoadError> {
        self.depth += 1;
        let limit = match self.dialect {
            Dialect::CdxjIndexer => MAX_NESTING,
            Dialect::Pywb => MAX_NESTING_PYWB,
        };
        if self.depth > limit {
            return Err(LoadError::Other);
        }
        self.pos += 1;
        let value = parse(self);
        self.depth -= 1;
        value
    }

    fn expect(&mut self, delimiter: char) -> Result<(), LoadError> {
        if self.peek() != Some(u32::from(delimiter)) {
            return Err(LoadError::Syntax);
        }
        self.pos += 1;
        Ok(())
    }

    fn object(&mut self) -> Result<Value, LoadError> {
        let mut members: Vec<(PyText, Value)> = Vec::new();
        let mut index_of: HashMap<PyText, usize> = HashMap::new();
        self.skip_whitespace();
        if self.peek() == Some(u32::from('}')) {
            self.pos += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.expect('"')?;
            let key = self.string()?;
            self.skip_whitespace();
            self.expect(':')?;
            self.skip_whitespace();
            let value = self.value()?;
            match index_of.get(&key) {
                Some(&index) => members[index].1 = value,
                None => {
                    index_of.insert(key.clone(), members.len());
                    members.push((key, value));
                }
            }
            self.skip_whitespace();
            if self.peek() == Some(u32::from('}')) {
                self.pos += 1;
                return Ok(Value::Object(members));
            }
            self.expect(',')?;
            self.skip_whitespace();
        }
    }

    fn array(&mut self) -> Result<Value, LoadError> {
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(u32::from(']')) {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_whitespace();
            if self.peek() == Some(u32::from(']')) {
                self.pos += 1;
                return Ok(Value::Array(items));
            }
            self.expect(',')?;
            self.skip_whitespace();
        }
    }

    /// A string body after its opening quote. Raw control characters are
    /// refused (`strict=True`); DEL and everything above pass.
    fn string(&mut self) -> Result<PyText, LoadError> {
        let mut text = PyText::default();
        loop {
            let c = self.peek().ok_or(LoadError::Syntax)?;
            self.pos += 1;
            match c {
                0x22 => return Ok(text),
                0x5C => self.escape(&mut text)?,
                0x00..=0x1F => return Err(LoadError::Syntax),
                _ => text.push(c),
            }
        }
    }

    fn escape(&mut self, text: &mut PyText) -> Result<(), LoadError> {
        let c = self
            .peek()
            .and_then(char::from_u32)
            .ok_or(LoadError::Syntax)?;
        self.pos += 1;
        let unescaped = match c {
            '"' | '\\' | '/' => c,
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                let unit = self.hex4()?;
                text.push(self.join_low_surrogate(unit)?);
                return Ok(());
            }
            _ => return Err(LoadError::Syntax),
        };
        text.push(u32::from(unescaped));
        Ok(())
    }

    /// A high surrogate directly followed by a `\u` low surrogate is one
    /// character; anything else leaves it lone.
    fn join_low_surrogate(&mut self, unit: u32) -> Result<u32, LoadError> {
        if !(0xD800..=0xDBFF).contains(&unit) || !self.at("\\u") {
            return Ok(unit);
        }
        let before = self.pos;
        self.pos += 2;
        let low = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&low) {
            return Ok(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
        }
        self.pos = before;
        Ok(unit)
    }

    /// Four hex digits of a `\u` escape; Python also wants at least one more
    /// character after them (the closing quote, in any valid document).
    fn hex4(&mut self) -> Result<u32, LoadError> {
        if self.pos + 4 >= self.text.len() {
            return Err(LoadError::Syntax);
        }
        let mut unit = 0;
        for &c in &self.text[self.pos..self.pos + 4] {
            let digit = char::from_u32(c)
                .and_then(|c| c.to_digit(16))
                .ok_or(LoadError::Syntax)?;
            unit = unit << 4 | digit;
        }
        self.pos += 4;
        Ok(unit)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?` with ASCII digits. A
    /// fraction or exponent makes it a float; integers keep their digits.
    fn number(&mut self) -> Result<Value, LoadError> {
        let start = self.pos;
        let is_digit = |c: Option<u32>| c.is_some_and(|c| (0x30..=0x39).contains(&c));
        if self.peek() == Some(u32::from('-')) {
            self.pos += 1;
        }
        match self.peek() {
            Some(0x30) => self.pos += 1,
            Some(0x31..=0x39) => {
                while is_digit(self.peek()) {
                    self.pos += 1;
                }
            }
            _ => return Err(LoadError::Syntax),
        }
        let integer_end = self.pos;
        if self.peek() == Some(u32::from('.')) && is_digit(self.text.get(self.pos + 1).copied()) {
            self.pos += 1;
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(0x45 | 0x65)) {
            let exponent_start = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(0x2B | 0x2D)) {
                self.pos += 1;
            }
            if is_digit(self.peek()) {
                while is_digit(self.peek()) {
                    self.pos += 1;
                }
            } else {
                // No digits: the `e` is not part of the number.
                self.pos = exponent_start;
            }
        }
        let literal: String = self.text[start..self.pos]
            .iter()
            .filter_map(|&c| char::from_u32(c))
            .collect();
        if self.pos == integer_end {
            integer_text(&literal).map(|text| Value::Scalar(PyText::from_str(&text)))
        } else {
            let value: f64 = literal.parse().map_err(|_| LoadError::Syntax)?;
            if self.dialect == Dialect::Pywb {
                return Ok(pywb_float(value));
            }
            Ok(Value::Scalar(PyText::from_str(&py_float_repr(value))))
        }
    }
}

/// pywb's rendering of a float: `str(int(x))` when `math.modf(x)` has no
/// fraction (the exact integer a double holds, however long), else `str(x)`.
/// An infinity has no fraction either, and `int()` of it raises.
fn pywb_float(value: f64) -> Value {
    if value.is_infinite() {
        return Value::Unrenderable;
    }
    let text = if value.is_nan() || value.fract() != 0.0 {
        py_float_repr(value)
    } else if value == 0.0 {
        "0".to_owned()
    } else {
        // Formatting with a precision prints a double's exact decimal value.
        format!("{value:.0}")
    };
    Value::Scalar(PyText::from_str(&text))
}

/// `str(int(literal))`: the digits as written, except that `-0` is `0`.
fn integer_text(literal: &str) -> Result<String, LoadError> {
    let digits = literal.trim_start_matches('-');
    if digits.len() > MAX_INT_DIGITS {
        return Err(LoadError::Other);
    }
    Ok(if digits == "0" {
        digits.to_owned()
    } else {
        literal.to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(body: &str) -> Option<String> {
        json_body_query(body.as_bytes())
    }

    #[test]
    fn flattens_with_renamed_repeats() {
        assert_eq!(
            query(r#"{"a": "b", "c": {"a": 2}, "d": "e"}"#).unwrap(),
            "a=b&a.2_=2&d=e"
        );
        assert_eq!(
            query(r#"{"values": [true, false, null], "x": {"values": [3, 4.0]}}"#).unwrap(),
            "values=True&values.2_=False&values.3_=None&values.4_=3&values.5_=4.0"
        );
        assert_eq!(
            query(r#"[{"a":1},{"a.2_":5},{"a":7}]"#).unwrap(),
            "a=1&a.2_=7"
        );
    }

    #[test]
    fn python_value_rendering() {
        assert_eq!(
            query(r#"{"a":1e400,"b":-0.0,"c":-0,"d":1e16,"h":NaN,"i":-Infinity,"j":1.5e-7}"#)
                .unwrap(),
            "a=inf&b=-0.0&c=0&d=1e%2B16&h=nan&i=-inf&j=1.5e-07"
        );
        assert_eq!(query(r#"{"a":1,"b":2,"a":3}"#).unwrap(), "a=3&b=2");
        assert_eq!(query(r#"{"":1,"b":{"":2}}"#).unwrap(), "");
    }

    #[test]
    fn lone_surrogates_fail_only_when_kept() {
        assert_eq!(query(r#"{"a":"\ud800"}"#), None);
        assert_eq!(query(r#"["\ud800"]"#).unwrap(), "");
        assert_eq!(query(r#"{"a":"\ud83d\ude00"}"#).unwrap(), "a=%F0%9F%98%80");
        assert_eq!(json_body_query(b"{\"a\":\"\xed\xa0\x80\"}"), None);
    }

    #[test]
    fn line_fallback_needs_every_line() {
        assert_eq!(query("{\"a\":1}\n{\"a\":2}").unwrap(), "a=1&a.2_=2");
        assert_eq!(query("{\"a\":1}\n{\"a\":2}\n"), None);
        assert_eq!(query("not json"), None);
    }

    #[test]
    fn encodings_are_sniffed() {
        let utf16: Vec<u8> = "\u{feff}{\"a\":\"é\"}"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(json_body_query(&utf16).unwrap(), "a=%C3%A9");
        assert_eq!(json_body_query(b"\xEF\xBB\xBF{\"a\":1}").unwrap(), "a=1");
        assert_eq!(json_body_query(b"\xEF\xBB\xBF\xEF\xBB\xBF{\"a\":1}"), None);
    }

    #[test]
    fn pywb_renders_literals_and_whole_floats() {
        let pywb = |body: &str| pywb_json_body_query(body.as_bytes());
        assert_eq!(
            pywb(r#"{"a":true,"b":null,"c":1.0,"d":1.5,"e":1e16,"f":[1,2],"g":-0.0,"h":NaN}"#).unwrap(),
            "a=true&b=null&c=1&d=1.5&e=10000000000000000&f=1&f.2_=2&g=0&h=nan"
        );
        assert_eq!(
            pywb(r#"{"i":1e300}"#).unwrap(),
            "i=1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160"
        );
        assert_eq!(pywb(r#"{"a":-2.5e-7,"b":false}"#).unwrap(), "a=-2.5e-07&b=false");
        // int(inf) raises, but only for a value the walk renders.
        assert_eq!(pywb(r#"{"a":Infinity}"#), None);
        assert_eq!(pywb(r#"{"a":1e400}"#), None);
        assert_eq!(pywb(r#"{"a":Infinity,"a":1}"#).unwrap(), "a=1");
        assert_eq!(pywb(r#"[Infinity]"#).unwrap(), "");
        // No line-by-line retry.
        assert_eq!(pywb("{\"a\":1}\n{\"a\":2}"), None);
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(pywb(&nested(MAX_NESTING_PYWB)).unwrap(), "");
        assert_eq!(pywb(&nested(MAX_NESTING_PYWB + 1)), None);
    }

    #[test]
    fn limits() {
        let long_int = format!("{{\"a\":{}}}", "1".repeat(MAX_INT_DIGITS + 1));
        assert_eq!(query(&long_int), None);
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(query(&nested(MAX_NESTING)).unwrap(), "");
        assert_eq!(query(&nested(MAX_NESTING + 1)), None);
    }
}
