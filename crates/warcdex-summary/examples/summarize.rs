//! Summarizes inputs without Node, for profiling:
//! `cargo run --release -p warcdex-summary --example summarize -- INPUT...`
use std::time::Instant;

fn main() {
    let inputs: Vec<String> = std::env::args().skip(1).collect();
    let t = Instant::now();
    let opts = warcdex_summary::Options { samples: 0, ..Default::default() };
    let json = warcdex_summary::summarize(&inputs, opts, false).expect("summary");
    eprintln!("{} bytes of JSON in {:.3} s", json.len(), t.elapsed().as_secs_f64());
    if std::env::var_os("PRINT").is_some() {
        println!("{json}");
    }
}
