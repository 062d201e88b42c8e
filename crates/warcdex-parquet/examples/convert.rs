//! Converts CDX(J) files to a dataset without Node, for profiling:
//! `cargo run --release -p warcdex-parquet --example convert -- OUT_DIR INPUT...`
//! `SORT_BUDGET=<bytes>` forces spilled runs (to check the merge path);
//! `PROBE_ROWS=0` sorts even an input in order; `ROW_GROUP_ROWS`, `PAGE_ROWS`, `CODEC` set the layout; `-` reads standard input, so
//! inputs larger than the disk's free space can be streamed from a generator.
use std::path::PathBuf;
use std::time::Instant;

use warcdex_parquet::inputs::Input;
use warcdex_parquet::job::{run, NoObserver, ParquetJob};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().expect("OUT_DIR"));
    let inputs: Vec<Input> = args.map(|a| if a == "-" { Input::Stdin } else { Input::Index(a.into()) }).collect();
    let mut job = ParquetJob::default();
    if let Ok(b) = std::env::var("SORT_BUDGET") {
        job.sort_budget = b.parse().expect("SORT_BUDGET in bytes");
    }
    if let Ok(n) = std::env::var("ROW_GROUP_ROWS") {
        job.layout.row_group_rows = n.parse().expect("ROW_GROUP_ROWS");
    }
    if let Ok(n) = std::env::var("PAGE_ROWS") {
        job.layout.page_rows = n.parse().expect("PAGE_ROWS");
    }
    if let Ok(n) = std::env::var("PROBE_ROWS") {
        job.probe_rows = n.parse().expect("PROBE_ROWS");
    }
    if let Ok(c) = std::env::var("CODEC") {
        job.layout.codec = warcdex_parquet::writer::Codec::parse(&c).expect("CODEC: zstd, gzip, snappy or none");
    }
    // Runs are repeated into the same directory.
    job.mode = warcdex_core::output::Mode::Overwrite;
    let t = Instant::now();
    let s = run(&inputs, &out, &job, &mut NoObserver).expect("conversion");
    let secs = t.elapsed().as_secs_f64();
    let bytes: u64 = s.files.iter().map(|f| f.bytes).sum();
    eprintln!("{} rows, {} files, {bytes} bytes, {} spilled runs in {secs:.2} s: {:.0} rows/s", s.rows, s.files.len(), s.spilled_runs, s.rows as f64 / secs);
}
