//! Converts CDX(J) files to a dataset without Node, for profiling:
//! `cargo run --release -p warcdex-parquet --example convert -- OUT_DIR INPUT...`
use std::path::PathBuf;
use std::time::Instant;

use warcdex_parquet::inputs::Input;
use warcdex_parquet::job::{run, NoObserver, ParquetJob};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().expect("OUT_DIR"));
    let inputs: Vec<Input> = args.map(|a| Input::Index(a.into())).collect();
    let t = Instant::now();
    let s = run(&inputs, &out, &ParquetJob::default(), &mut NoObserver).expect("conversion");
    let secs = t.elapsed().as_secs_f64();
    eprintln!("{} rows, {} files in {secs:.2} s: {:.0} rows/s", s.rows, s.files.len(), s.rows as f64 / secs);
}
