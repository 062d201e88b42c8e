//! Cross-check with Python's warcio: it must read every generated format it
//! supports (WARC, per-record WARC.gz, ARC, per-record ARC.gz) to the end,
//! verifying WARC digests, with the record counts we report.

mod common;

use common::{scratch, small};
use std::process::Command;
use warcdex_synth::{write_collection, FileStats, Format, Options};

const SCRIPT: &str = r#"
import json, sys
from warcio.archiveiterator import ArchiveIterator
counts = {}
with open(sys.argv[1], 'rb') as f:
    check = sys.argv[2] == 'warc'
    for rec in ArchiveIterator(f, check_digests='raise' if check else False):
        rec.content_stream().read()
        counts[rec.rec_type] = counts.get(rec.rec_type, 0) + 1
print(json.dumps(counts, sort_keys=True))
"#;

fn warcio_available() -> bool {
    Command::new("python3")
        .args(["-c", "import warcio"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn warcio_counts(st: &FileStats) -> String {
    let kind = if st.format.is_arc() { "arc" } else { "warc" };
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(&st.path)
        .arg(kind)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "warcio failed on {}: {}",
        st.path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The JSON warcio prints, computed from our own counts.
fn expected(st: &FileStats) -> String {
    let r = &st.records;
    let mut pairs: Vec<(&str, u64)> = if st.format.is_arc() {
        // warcio reports the version block as arc_header and every URL
        // record (HTTP and dns:) as response.
        vec![
            ("arc_header", r.warcinfo),
            ("response", r.response + r.resource),
        ]
    } else {
        vec![
            ("metadata", r.metadata),
            ("request", r.request),
            ("resource", r.resource),
            ("response", r.response),
            ("revisit", r.revisit),
            ("warcinfo", r.warcinfo),
        ]
    };
    pairs.retain(|p| p.1 > 0);
    pairs.sort();
    let body: Vec<String> = pairs.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
    format!("{{{}}}", body.join(", "))
}

#[test]
fn warcio_reads_generated_files() {
    if !warcio_available() {
        println!("SKIPPED: python3 warcio not available");
        return;
    }
    for format in [Format::Warc, Format::WarcGz, Format::Arc, Format::ArcGz] {
        for omit in [false, true] {
            if omit && format.is_arc() {
                continue;
            }
            let dir = scratch(&format!(
                "warcio-{}-{omit}",
                format.name().replace('.', "_")
            ));
            let opts = Options {
                omit_payload_digest: omit,
                ..small(format, 13)
            };
            for st in write_collection(&dir, &opts).unwrap() {
                assert_eq!(warcio_counts(&st), expected(&st), "{}", st.path.display());
            }
        }
    }
}
