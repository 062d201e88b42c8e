//! warcdex summary: the numbers of the Internet Archive's cdx-summary
//! (exactly, line for line), and more, from CDX, CDXJ and WARC/ARC inputs,
//! in one streaming pass with bounded memory.
//!
//! - [`cdx_line`]: cdx-summary's CDX line regex, as a scan; [`pychars`]: the
//!   Python character classes it depends on
//! - [`cdxj_line`]: CDXJ as the equivalent 11-field CDX line
//! - [`accumulate`]: the counters; [`tally`], [`distinct`], [`sampler`]: their parts
//! - [`groups`]: MIME/status/segment groups; [`domains`]: registered domains
//! - [`input`]: files, directories, stdin, compression, archives
//! - [`parquet_input`]: cc-index-table Parquet rows as CDX-11 lines
//! - [`output`]: the summary, report and extras as JSON

pub mod accumulate;
pub mod cdx_line;
pub mod cdxj_line;
pub mod distinct;
pub mod domains;
pub mod groups;
pub mod input;
pub mod output;
pub mod parquet_input;
pub mod pychars;
pub mod sampler;
pub mod tally;

pub use accumulate::{Accumulator, Options};

/// Summarizes `inputs` (paths, directories, or `-`) and returns the result
/// as one JSON object: `summary` (cdx-summary's `-j`), `report` (its `-r`,
/// when `with_report`), each also as `summaryJson`/`reportJson` text in
/// cdx-summary's layout, `extras` and `inputs`.
pub fn summarize(inputs: &[String], opts: Options, with_report: bool) -> std::io::Result<String> {
    let files = input::expand(inputs)?;
    let mut acc = Accumulator::new(opts);
    let mut reports = Vec::with_capacity(files.len());
    for f in &files {
        reports.push(input::summarize_input(f, &mut acc)?);
    }
    let mut summary = String::with_capacity(4096);
    output::summary_json(&mut summary, &acc);
    let mut out = String::with_capacity(4 * summary.len());
    out.push_str("{\"summary\": ");
    out.push_str(&summary);
    // The JSON text too, as cdx-summary prints it: parsed in JavaScript, keys
    // such as months "10".."12" would move ahead of "01".
    out.push_str(", \"summaryJson\": ");
    warcdex_core::json::push_str(&mut out, &output::python_indent(&summary));
    if with_report {
        let mut report = String::with_capacity(4096);
        output::report_json(&mut report, &acc);
        out.push_str(", \"report\": ");
        out.push_str(&report);
        out.push_str(", \"reportJson\": ");
        warcdex_core::json::push_str(&mut out, &output::python_indent(&report));
    }
    out.push_str(", \"extras\": ");
    output::extras_json(&mut out, &acc);
    out.push_str(", \"inputs\": [");
    for (i, r) in reports.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("{\"name\": ");
        warcdex_core::json::push_str(&mut out, &r.name);
        out.push_str(&format!(
            ", \"kind\": \"{}\", \"compression\": \"{}\", \"skippedRecords\": {}}}",
            r.kind.name(),
            r.compression,
            r.skipped_records
        ));
    }
    out.push_str("]}");
    Ok(out)
}
