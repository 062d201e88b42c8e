//! Parquet files as `warcdex summary` input
//! (`warcdex_summary::parquet_input::summarize_parquet`, which takes a path:
//! the bytes go through a file of this thread's own).

use std::path::PathBuf;

use warcdex_summary::parquet_input::summarize_parquet;
use warcdex_summary::{output, Accumulator, Options};

thread_local! {
    static SCRATCH_FILE: PathBuf = std::env::temp_dir().join(format!(
        "warcdex-fuzz-{}-{:?}.parquet",
        std::process::id(),
        std::thread::current().id()
    ));
}

/// Target `summary_parquet`: a whole Parquet file.
///
/// Checks: reading fails or gives rows without panicking; every row is fed
/// as one line (so the summary counts at most as many lines as rows); the
/// summary's JSON stays JSON.
pub fn summary_parquet(data: &[u8]) {
    SCRATCH_FILE.with(|path| {
        std::fs::write(path, data).expect("the scratch file can be written");
        let mut acc = Accumulator::new(Options { top: Some(3), samples: 2, seed: 1, exact_limit: 4 });
        let result = summarize_parquet(path, &mut acc);
        if let Ok(rows) = result {
            assert!(acc.lines <= rows, "{} lines counted from {rows} rows", acc.lines);
            assert_eq!(acc.captures + acc.skipped_lines, acc.lines);
        }
        let mut text = String::new();
        output::summary_json(&mut text, &acc);
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&text) {
            panic!("summary output is not JSON ({e}): {text}");
        }
    });
}
