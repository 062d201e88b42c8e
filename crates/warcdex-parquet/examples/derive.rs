//! Times line parsing and row derivation alone (no sort, no Parquet) over a
//! CDXJ file held in memory:
//! `cargo run --release -p warcdex-parquet --example derive -- FILE.cdxj`
use std::time::Instant;

use warcdex_parquet::capture::{parse_line, LineFormat};
use warcdex_parquet::row::{DeriveScratch, Row, RowRules};

fn main() {
    let path = std::env::args().nth(1).expect("FILE.cdxj");
    let text = std::fs::read_to_string(path).expect("a UTF-8 CDXJ file");
    let lines: Vec<&str> = text.lines().collect();
    let rules = RowRules { crawl: None, partition_by: vec!["crawl".into(), "subset".into()] };
    let mut scratch = DeriveScratch::default();
    let t = Instant::now();
    let mut sum = 0usize;
    for l in &lines {
        sum += parse_line(l, LineFormat::Auto).map_or(0, |c| c.urlkey.len());
    }
    let parse = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for l in &lines {
        if let Ok(c) = parse_line(l, LineFormat::Auto) {
            if let Some(r) = Row::derive_in(&c, &rules, &mut scratch) {
                sum += r.partition.len() + r.path.len() + r.host.registered_domain.map_or(0, str::len);
            }
        }
    }
    let both = t.elapsed().as_secs_f64();
    let per = |s: f64| s * 1e9 / lines.len() as f64;
    eprintln!("{} lines: parse {:.0} ns/line, derive {:.0} ns/line (checksum {sum})", lines.len(), per(parse), per(both - parse));
}
