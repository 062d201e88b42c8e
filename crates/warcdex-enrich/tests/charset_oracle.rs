//! Charset detection against the enrichment oracle (`../shared/enrich`, see its README):
//! the `cc` convention (Tika's `AutoDetectReader`, Java names) must match Tika on HTML
//! payloads (target: 98 %); the `unt` convention (chardet 4.0.0) is measured and its
//! differences are listed by class. Prints SKIPPED when the oracle is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use warcdex_enrich::charset::{detect_cc, detect_unt, html_meta_charset, tika_charset};

const WARCS: [&str; 4] = [
    "payloads-corpus",
    "payloads-chardet",
    "payloads-web",
    "payloads-formats",
];

/// The share of HTML payloads whose cc charset must equal Tika's.
const CC_TARGET: f64 = 0.98;

fn oracle_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/enrich");
    dir.join("payloads-web.oracle.ndjson")
        .is_file()
        .then_some(dir)
}

mod common;

/// The payloads of the `response`/`resource` records, in file order.
fn payloads(path: &Path) -> Vec<Vec<u8>> {
    common::read_warc(path).into_iter().map(|r| r.payload).collect()
}

#[derive(Default)]
struct Tally {
    same: usize,
    total: usize,
    /// (expected, got) → (count, first URL).
    classes: BTreeMap<(String, String), (usize, String)>,
}

impl Tally {
    fn add(&mut self, expected: Option<&str>, got: Option<&str>, url: &str) {
        self.total += 1;
        if expected == got {
            self.same += 1;
            return;
        }
        let key = (
            expected.unwrap_or("null").to_string(),
            got.unwrap_or("null").to_string(),
        );
        self.classes.entry(key).or_insert((0, url.to_string())).0 += 1;
    }

    fn rate(&self) -> f64 {
        self.same as f64 / self.total.max(1) as f64
    }

    fn report(&self, what: &str) {
        println!(
            "{what}: {}/{} = {:.1}%",
            self.same,
            self.total,
            100.0 * self.rate()
        );
        let mut classes: Vec<_> = self.classes.iter().collect();
        classes.sort_by_key(|c| std::cmp::Reverse(c.1 .0));
        for ((expected, got), (n, url)) in classes.iter().take(25) {
            println!("    {n:4}  oracle {expected:<14} ours {got:<14} e.g. {url}");
        }
    }
}

/// The statistical step done with chardetng instead of the ICU port: the measurement that
/// decided the port (kept so the figure stays visible).
fn chardetng_baseline(payload: &[u8], content_type: Option<&str>) -> Option<String> {
    if let Some(cs) = html_meta_charset(&payload[..payload.len().min(8192)]) {
        return Some(cs.to_string());
    }
    let _ = content_type;
    let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    d.feed(&payload[..payload.len().min(12_000)], true);
    let e = d.guess(None, chardetng::Utf8Detection::Allow);
    Some(
        match e.name() {
            "gbk" | "GBK" => "GBK",
            "gb18030" => "GB18030",
            "x-mac-cyrillic" => "x-MacCyrillic",
            n => n,
        }
        .to_string(),
    )
}

#[test]
fn charset_against_oracle() {
    let Some(dir) = oracle_dir() else {
        println!("SKIPPED: no enrichment oracle at ../shared/enrich");
        return;
    };
    let (mut cc, mut tika_all, mut baseline) =
        (Tally::default(), Tally::default(), Tally::default());
    let (mut unt_all, mut unt_gated) = (Tally::default(), Tally::default());
    for name in WARCS {
        let records = payloads(&dir.join(format!("{name}.warc.gz")));
        let oracle = std::fs::read_to_string(dir.join(format!("{name}.oracle.ndjson"))).unwrap();
        let lines: Vec<Value> = oracle
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            records.len(),
            lines.len(),
            "{name}: one oracle line per payload record"
        );
        for (payload, o) in records.iter().zip(&lines) {
            assert_eq!(
                o["payload_length"].as_u64(),
                Some(payload.len() as u64),
                "pairing"
            );
            let url = o["url"].as_str().unwrap();
            let ct = o["http_content_type"].as_str();
            let mime = o["tika_mime"].as_str().unwrap_or("");
            if o["cc_applies"].as_bool() == Some(true) {
                let ours = detect_cc(payload, ct, mime);
                cc.add(o["cc_charset"].as_str(), ours.as_deref(), url);
                baseline.add(
                    o["cc_charset"].as_str(),
                    chardetng_baseline(payload, ct).as_deref(),
                    url,
                );
            }
            if let Some(expected) = o["tika_charset"].as_str() {
                tika_all.add(Some(expected), tika_charset(payload, ct), url);
            }
            let ours = detect_unt(payload);
            unt_all.add(o["chardet"]["encoding"].as_str(), ours.as_deref(), url);
            if o["unt_gate"].as_bool() == Some(true) {
                unt_gated.add(o["unt_charset"].as_str(), ours.as_deref(), url);
            }
        }
    }
    println!("== cc convention (Tika 2.9.1 AutoDetectReader, Java names)");
    cc.report("cc charset == Tika on HTML payloads (cc_applies)");
    tika_all.report("Tika charset on every textual payload (informative)");
    baseline.report("baseline: meta prescan + chardetng instead of the ICU port (informative)");
    println!("== unt convention (chardet 4.0.0)");
    unt_gated.report("unt charset == unt_charset (records passing UNT's gate)");
    unt_all.report("chardet encoding on every payload (informative)");
    assert!(
        cc.rate() >= CC_TARGET,
        "cc charset agreement {:.1}% is below the {:.0}% target",
        100.0 * cc.rate(),
        100.0 * CC_TARGET
    );
}
