//! Language detection against the enrichment oracle (`../shared/enrich`, see its README):
//! (a) CLD2 identical to pycld2 on identical input, (b) the `cc` convention's
//! `content_languages`, (c) the `unt` convention's `Languages-cld2` and `languages`.
//! Prints SKIPPED when the oracle is absent.

use std::path::PathBuf;

use serde_json::Value;
use warcdex_enrich::language::{
    cc_hints, cc_text, cc_tld, cld2, detect_cc, detect_unt, unt_text, CcHints, Cld2Result, Hints,
    UntDecoding,
};

const WARCS: [&str; 4] = [
    "payloads-corpus",
    "payloads-chardet",
    "payloads-web",
    "payloads-formats",
];

fn oracle_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/enrich");
    dir.join("payloads-web.oracle.ndjson")
        .is_file()
        .then_some(dir)
}

mod common;
use common::read_warc;


fn oracle_result(v: &Value) -> Cld2Result {
    let langs = v["languages"].as_array().expect("languages");
    let lang = |i: usize| warcdex_enrich::language::Cld2Language {
        code: leak(langs[i]["code"].as_str().unwrap()),
        name: leak(langs[i]["name"].as_str().unwrap()),
        percent: langs[i]["percent"].as_i64().unwrap() as i32,
        score: langs[i]["score"].as_f64().unwrap(),
    };
    Cld2Result {
        reliable: v["reliable"].as_bool().unwrap(),
        text_bytes: v["text_bytes"].as_i64().unwrap() as i32,
        languages: [lang(0), lang(1), lang(2)],
    }
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn opt_str(v: &Value) -> Option<&str> {
    v.as_str()
}

/// What the oracle did to pycld2's input: characters CLD2 calls not interchange-valid (C0/C1
/// controls other than TAB/LF/CR, DEL, noncharacters) replaced by as many ASCII spaces as
/// their UTF-8 bytes. Returns the text and the number replaced.
fn interchange_valid(text: &str) -> (String, usize) {
    let mut n = 0;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let u = c as u32;
        let bad = (u < 0x20 && !matches!(c, '\t' | '\n' | '\r' | '\x0c'))
            || (0x7F..=0x9F).contains(&u)
            || (0xFDD0..=0xFDEF).contains(&u)
            || (u & 0xFFFE) == 0xFFFE;
        if bad {
            n += 1;
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    (out, n)
}

/// How many differences each comparison prints: `WARCDEX_ORACLE_DIFFS`, 6 by default.
fn max_diffs() -> usize {
    std::env::var("WARCDEX_ORACLE_DIFFS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6)
}

#[derive(Default)]
struct Tally {
    name: &'static str,
    total: usize,
    same: usize,
    diffs: Vec<String>,
}

impl Tally {
    fn new(name: &'static str) -> Self {
        Tally {
            name,
            ..Default::default()
        }
    }
    fn check(&mut self, ok: bool, diff: impl FnOnce() -> String) {
        self.total += 1;
        if ok {
            self.same += 1;
        } else if self.diffs.len() < max_diffs() {
            self.diffs.push(diff());
        }
    }
    fn rate(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.same as f64 / self.total as f64
        }
    }
    fn report(&self) {
        println!(
            "{}: {}/{} ({:.2}%)",
            self.name,
            self.same,
            self.total,
            100.0 * self.rate()
        );
        for d in &self.diffs {
            println!("    {d}");
        }
    }
}

#[test]
fn language_against_oracle() {
    let Some(dir) = oracle_dir() else {
        println!("SKIPPED: ../shared/enrich is absent");
        return;
    };
    let mut raw_unt = Tally::new("(a) CLD2 = pycld2, UNT input (UTF-8, bestEffort)");
    let mut raw_cc = Tally::new("(a) CLD2 = pycld2, CC input, payload passed as is");
    let mut raw_cc_recoded =
        Tally::new("(a) CLD2 = pycld2, CC input, decoded by us from the Java charset");
    let mut replaced = Tally::new("    interchange-invalid characters counted as the oracle did");
    let mut hints_t = Tally::new("    cc hints (tld, content-language, encoding) = oracle");
    let mut cc = Tally::new("(b) cc content_languages");
    let mut cc_soft = Tally::new(
        "(b) cc content_languages, without the records with interchange-invalid characters",
    );
    let mut unt_cld2 = Tally::new("(c) unt Languages-cld2");
    let mut unt_codes = Tally::new("(c) unt languages (merged CDXJ)");
    let mut unt_default = Tally::new(
        "    unt, default decoding (page charset), first language = unt's (informational)",
    );
    let mut unt_default_cc =
        Tally::new("    unt, default decoding, first language = cc's (informational)");

    for name in WARCS {
        let records = read_warc(&dir.join(format!("{name}.warc.gz")));
        let oracle =
            std::fs::read_to_string(dir.join(format!("{name}.oracle.ndjson"))).expect("oracle");
        let lines: Vec<Value> = oracle
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(
            records.len(),
            lines.len(),
            "{name}: records vs oracle lines"
        );
        for (rec, o) in records.iter().zip(&lines) {
            assert_eq!(
                rec.url,
                o["url"].as_str().unwrap(),
                "{name}: records out of step"
            );
            let key = format!("{name}@{} {}", o["offset"], rec.url);
            let payload = &rec.payload;

            if o["cld2_unt"].is_object() {
                let want = oracle_result(&o["cld2_unt"]);
                let text = unt_text(payload, None, UntDecoding::Utf8AsTool);
                let got = cld2(&text, false, true, &Hints::default());
                raw_unt.check(got == want, || format!("{key}: {got:?} != {want:?}"));
            }

            if o["cld2_cc"].is_object() {
                let want = oracle_result(&o["cld2_cc"]);
                let charset = opt_str(&o["tika_charset"]);
                let (text, n) = interchange_valid(&cc_text(payload, charset));
                let want_n = o["cc_cld2_replaced_chars"].as_u64().unwrap_or(0) as usize;
                replaced.check(n == want_n, || format!("{key}: {n} != {want_n}"));
                let oh = &o["cc_cld2_hints"];
                let enc = opt_str(&oh["encoding"]).filter(|&e| e != "UNKNOWN_ENCODING");
                let tld = opt_str(&o["url"]).and_then(cc_tld);
                let ours = cc_hints(
                    tld.as_deref(),
                    opt_str(&o["http_content_language"]),
                    charset,
                );
                let same_hints = ours.tld == opt_str(&oh["tld"])
                    && ours.content_language == opt_str(&oh["content_language"])
                    && ours.encoding == enc;
                hints_t.check(same_hints, || format!("{key}: {ours:?} != {oh}"));
                let hints = Hints {
                    tld: opt_str(&oh["tld"]),
                    content_language: opt_str(&oh["content_language"]),
                    encoding: enc,
                };
                let got = cld2(&text, false, false, &hints);
                let t = if o["cc_recoded"].as_bool() == Some(true) {
                    &mut raw_cc_recoded
                } else {
                    &mut raw_cc
                };
                t.check(got == want, || {
                    format!("{key} [{}]: {got:?} != {want:?}", charset.unwrap_or("-"))
                });
            }

            if o["cc_applies"].as_bool() == Some(true) {
                let hints = CcHints {
                    url: Some(&rec.url),
                    content_language: opt_str(&o["http_content_language"]),
                    charset: opt_str(&o["tika_charset"]),
                };
                let got = detect_cc(payload, &hints).joined();
                let want = opt_str(&o["cc_languages"]).map(str::to_string);
                let diff = || {
                    format!(
                        "{key} [{}]: {got:?} != {want:?}",
                        hints.charset.unwrap_or("-")
                    )
                };
                cc.check(got == want, diff);
                if o["cc_cld2_replaced_chars"].as_u64().unwrap_or(0) == 0 {
                    cc_soft.check(got == want, diff);
                }
            }

            if o["unt_gate"].as_bool() == Some(true) {
                let charset = opt_str(&o["unt_charset"]);
                let got = detect_unt(payload, charset, UntDecoding::Utf8AsTool);
                let want = &o["unt_languages_cld2"];
                let entries: Vec<_> = got.entries().collect();
                let same = if entries.is_empty() {
                    want.is_null()
                } else {
                    let w = want["languages"]
                        .as_array()
                        .map(Vec::as_slice)
                        .unwrap_or(&[]);
                    want["reliable"].as_bool() == Some(got.cld2.reliable)
                        && want["text-bytes"].as_i64() == Some(got.cld2.text_bytes as i64)
                        && w.len() == entries.len()
                        && w.iter().zip(&entries).all(|(w, g)| {
                            w["code"] == g.code
                                && w["name"] == g.name
                                && w["text-covered"].as_i64() == Some(g.percent as i64)
                                && w["score"].as_f64() == Some(g.score)
                        })
                };
                unt_cld2.check(same, || format!("{key}: {:?} != {want}", got.cld2));
                let joined = got.joined();
                let want_codes = opt_str(&o["unt_languages"]).map(str::to_string);
                unt_codes.check(joined == want_codes, || {
                    format!("{key}: {joined:?} != {want_codes:?}")
                });

                let default = detect_unt(payload, charset, UntDecoding::Charset).joined();
                let first = |s: &Option<String>| {
                    s.as_deref()
                        .and_then(|s| s.split(',').next())
                        .map(str::to_string)
                };
                if want_codes.is_some() {
                    unt_default.check(first(&default) == first(&want_codes), || {
                        format!(
                            "{key} [{}]: {default:?} vs {want_codes:?}",
                            charset.unwrap_or("-")
                        )
                    });
                }
                if let Some(c) = opt_str(&o["cc_languages"]) {
                    let c = Some(c.to_string());
                    unt_default_cc.check(first(&default) == first(&c), || {
                        format!(
                            "{key} [{}]: {default:?} vs cc {c:?}",
                            charset.unwrap_or("-")
                        )
                    });
                }
            }
        }
    }

    for t in [
        &raw_unt,
        &raw_cc,
        &raw_cc_recoded,
        &replaced,
        &hints_t,
        &cc,
        &cc_soft,
        &unt_cld2,
        &unt_codes,
        &unt_default,
        &unt_default_cc,
    ] {
        t.report();
    }
    assert!(
        raw_unt.total > 0 && raw_cc.total > 0 && cc.total > 0 && unt_codes.total > 0,
        "no record compared"
    );
    assert_eq!(
        raw_unt.rate(),
        1.0,
        "CLD2 must equal pycld2 on the UNT input"
    );
    assert_eq!(raw_cc.rate(), 1.0, "CLD2 must equal pycld2 on the CC input");
    assert!(cc.rate() >= 0.95, "cc languages below 95%");
    assert_eq!(
        unt_cld2.rate(),
        1.0,
        "unt Languages-cld2 must equal the tool's"
    );
    assert_eq!(unt_codes.rate(), 1.0, "unt languages must equal the tool's");
}
