//! Times the Parquet writer alone: the rows of a CDXJ file are parsed,
//! derived and sorted in memory first, then written:
//! `cargo run --release -p warcdex-parquet --example writer -- FILE.cdxj OUT_DIR [REPEAT]`
//! (`CODEC` as for the `convert` example)
use std::time::Instant;

use warcdex_parquet::capture::{parse_line, LineFormat};
use warcdex_parquet::row::{DeriveScratch, Row, RowRules};
use warcdex_parquet::writer::{DatasetWriter, Layout};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE.cdxj");
    let out = std::path::PathBuf::from(args.next().expect("OUT_DIR"));
    let repeat: usize = args.next().map_or(3, |n| n.parse().expect("REPEAT"));
    let text = std::fs::read_to_string(path).expect("a UTF-8 CDXJ file");
    let rules = RowRules { crawl: None, partition_by: vec!["crawl".into(), "subset".into()] };
    let mut scratch = DeriveScratch::default();
    let mut rows: Vec<Row> = text
        .lines()
        .filter_map(|l| parse_line(l, LineFormat::Auto).ok().and_then(|c| Row::derive_in(&c, &rules, &mut scratch).map(|r| r.to_owned())))
        .collect();
    drop(text);
    rows.sort_by(|a, b| (&a.partition, &a.surtkey, a.fetch_time).cmp(&(&b.partition, &b.surtkey, b.fetch_time)));
    // Copied in sorted order, so that the walk reads memory in sequence (as
    // the conversion's writer reads its derive buffers).
    let rows: Vec<Row> = rows.iter().map(Row::clone).collect();
    let mut layout = Layout::default();
    if let Ok(c) = std::env::var("CODEC") {
        layout.codec = warcdex_parquet::writer::Codec::parse(&c).expect("CODEC: zstd, gzip, snappy or none");
    }
    let mut times = Vec::new();
    for _ in 0..repeat {
        let _ = std::fs::remove_dir_all(&out);
        let t = Instant::now();
        let mut w = DatasetWriter::new(&out, layout.clone(), "bench", "").expect("dataset");
        for r in &rows {
            w.push(r).expect("push");
        }
        let files = w.finish().expect("finish");
        times.push(t.elapsed().as_secs_f64());
        let bytes: u64 = files.iter().map(|f| f.bytes).sum();
        eprintln!("{} rows, {bytes} bytes in {:.3} s", rows.len(), times.last().unwrap());
    }
    times.sort_by(f64::total_cmp);
    eprintln!("median {:.0} ns/row", times[times.len() / 2] * 1e9 / rows.len() as f64);
}
