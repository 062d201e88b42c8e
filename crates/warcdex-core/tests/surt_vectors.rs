//! Checks `warcdex_core::surt` against vectors produced by the reference
//! (Python `surt` 0.3.1): the shared spec's TSV, when present, and the
//! generated fixture kept in this crate (see `fixtures/gen_surt_vectors.py`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use warcdex_core::surt::{surt, try_surt, SurtError};

/// What the reference does with an input.
#[derive(Debug)]
enum Expected {
    Key(String),
    Error(SurtError),
}

struct Vector {
    line: usize,
    input: String,
    expected: Expected,
}

fn manifest_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The spec file: `input<TAB>expected`, `\N` alone for None, no other escapes.
fn parse_spec(text: &str) -> Vec<Vector> {
    parse_lines(text, |field| {
        if field == "\\N" {
            String::new()
        } else {
            field.to_owned()
        }
    })
}

/// The generated fixture: `\\`, `\t`, `\n`, `\r`, `\u{HEX}` escapes and `\N`.
fn parse_generated(text: &str) -> Vec<Vector> {
    parse_lines(text, |field| {
        if field == "\\N" {
            String::new()
        } else {
            unescape(field)
        }
    })
}

/// None (`\N`) becomes the empty string: both give `-`.
fn parse_lines(text: &str, decode: impl Fn(&str) -> String) -> Vec<Vector> {
    let mut vectors = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (input, output) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("line {}: no tab in {line:?}", i + 1));
        let expected = match output {
            "\\!BlankUrl" => Expected::Error(SurtError::BlankUrl),
            "\\!InvalidPort" => Expected::Error(SurtError::InvalidPort),
            _ => Expected::Key(decode(output)),
        };
        vectors.push(Vector {
            line: i + 1,
            input: decode(input),
            expected,
        });
    }
    vectors
}

fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('u') => {
                let rest = chars.as_str();
                let hex = rest
                    .strip_prefix('{')
                    .and_then(|r| r.split_once('}'))
                    .map(|(hex, _)| hex)
                    .unwrap_or_else(|| panic!("bad \\u escape in {field:?}"));
                let code = u32::from_str_radix(hex, 16).expect("hex code point");
                out.push(char::from_u32(code).expect("scalar value"));
                chars = rest[hex.len() + 2..].chars();
            }
            other => panic!("unknown escape \\{other:?} in {field:?}"),
        }
    }
    out
}

/// Runs every vector and returns a report of all failures.
fn failures(name: &str, vectors: &[Vector]) -> Vec<String> {
    let mut report = Vec::new();
    for v in vectors {
        let (expected, got) = match &v.expected {
            Expected::Key(key) => (key.clone(), surt(&v.input)),
            Expected::Error(err) => {
                // The reference raises: `try_surt` reports it and `surt`
                // falls back to the input, as cdxj-indexer does.
                let got = match try_surt(&v.input) {
                    Err(e) if e == *err && surt(&v.input) == v.input => continue,
                    other => format!("{other:?} / surt() = {:?}", surt(&v.input)),
                };
                (format!("Err({err:?}) / surt() = input"), got)
            }
        };
        if expected != got {
            let mut msg = String::new();
            let _ = write!(
                msg,
                "{name}:{}\n  input:    {:?}\n  expected: {expected:?}\n  got:      {got:?}",
                v.line, v.input
            );
            report.push(msg);
        }
    }
    report
}

fn assert_all_pass(name: &str, vectors: &[Vector]) {
    let report = failures(name, vectors);
    println!(
        "{name}: {} of {} vectors pass",
        vectors.len() - report.len(),
        vectors.len()
    );
    assert!(
        report.is_empty(),
        "{} of {} vectors failed:\n{}",
        report.len(),
        vectors.len(),
        report.join("\n")
    );
}

#[test]
fn spec_vectors() {
    let path = manifest_path("../../../shared/spec/surt-vectors.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("SKIPPED: spec not present");
        return;
    };
    let vectors = parse_spec(&text);
    assert!(!vectors.is_empty(), "no vectors in the spec file");
    assert_all_pass("surt-vectors.tsv", &vectors);
}

#[test]
fn generated_vectors() {
    let path = manifest_path("tests/fixtures/surt-vectors-generated.tsv");
    let text = std::fs::read_to_string(&path).expect("generated SURT fixture");
    let vectors = parse_generated(&text);
    assert!(
        vectors.len() > 1000,
        "fixture looks truncated: {} vectors",
        vectors.len()
    );
    assert_all_pass("surt-vectors-generated.tsv", &vectors);
}

#[test]
fn unescape_handles_every_escape() {
    assert_eq!(
        unescape(r"a\\b\tc\nd\re\u{0}f\u{1F600}"),
        "a\\b\tc\nd\re\0f\u{1F600}"
    );
}
