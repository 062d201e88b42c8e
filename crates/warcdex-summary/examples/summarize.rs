//! `cargo run --release -p warcdex-summary --example summarize -- INPUT...`:
//! the summary JSON without Node, for quick checks against cdx-summary.
fn main() {
    let inputs: Vec<String> = std::env::args().skip(1).collect();
    let opts = warcdex_summary::Options { samples: 0, ..Default::default() };
    match warcdex_summary::summarize(&inputs, opts, false) {
        Ok(j) => println!("{j}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1)
        }
    }
}
