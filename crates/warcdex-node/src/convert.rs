//! Options from JavaScript (as JSON) and rows to JavaScript (as JSON text).

use serde::Deserialize;
use warcdex_core::cdx::Format;
use warcdex_core::error::Error;
use warcdex_core::index::{IndexOptions, Selection, Style};
use warcdex_core::pipeline::IndexJob;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct JobOptions {
    pub format: Option<String>,
    pub style: Option<String>,
    /// "default", "all", or a comma-separated list of record types.
    pub records: Option<String>,
    pub post_append: bool,
    /// pywb's minimal index (style "pywb" only).
    pub minimal: bool,
    pub verify: bool,
    pub sort: bool,
    pub strict: bool,
    pub dir_root: Option<String>,
    pub sort_budget_bytes: Option<f64>,
    /// Threads for whole-file jobs; 0 means one per core.
    pub jobs: Option<f64>,
    /// Name written in the filename field for stream/Buffer sources.
    pub filename: Option<String>,
    /// readRecords: keep up to this many payload bytes per record.
    pub keep_payload_bytes: Option<f64>,
    /// Where sorted runs spill.
    pub tmp_dir: Option<String>,
    /// Replace an existing output file.
    pub force: bool,
}

impl JobOptions {
    pub fn parse(json: &str) -> napi::Result<Self> {
        serde_json::from_str(json).map_err(|e| napi::Error::from_reason(format!("invalid options: {e}")))
    }

    pub fn index_options(&self) -> napi::Result<IndexOptions> {
        let selection = match self.records.as_deref() {
            None | Some("") | Some("default") => Selection::Default,
            Some("all") => Selection::All,
            Some(list) => Selection::Types(list.split(',').map(|s| s.trim().to_string()).collect()),
        };
        let style = match self.style.as_deref() {
            None | Some("cdxj-indexer") => Style::CdxjIndexer,
            Some("cdx-writer") => Style::CdxWriter,
            Some("pywb") => Style::Pywb,
            Some(other) => return Err(napi::Error::from_reason(format!("unknown style {other:?}"))),
        };
        let options = IndexOptions {
            selection,
            post_append: self.post_append,
            style,
            verify: self.verify,
            filename: self.filename.clone().unwrap_or_default(),
            minimal: self.minimal,
        };
        options.check().map_err(napi::Error::from_reason)?;
        Ok(options)
    }

    pub fn job(&self) -> napi::Result<IndexJob> {
        let format = match self.format.as_deref() {
            None => Format::Cdxj,
            Some(f) => Format::parse(f).ok_or_else(|| napi::Error::from_reason(format!("unknown format {f:?}")))?,
        };
        // pywb writes its minimal index as CDXJ only.
        if self.minimal && matches!(format, Format::Cdx11 | Format::Cdx9) {
            return Err(napi::Error::from_reason("the minimal index is written as cdxj (or ndjson), not as CDX"));
        }
        let mut job = IndexJob {
            format,
            options: self.index_options()?,
            sort: self.sort,
            dir_root: self.dir_root.as_ref().map(Into::into),
            strict: self.strict,
            tmp_dir: self.tmp_dir.as_ref().map(Into::into),
            ..IndexJob::default()
        };
        if let Some(b) = self.sort_budget_bytes {
            job.sort_budget = b as usize;
        }
        job.jobs = match self.jobs {
            Some(n) if n >= 1.0 => n as usize,
            Some(_) => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            None => 1,
        };
        Ok(job)
    }
}

/// `{"event":"skipped"|"warning", ...}` for a problem.
pub fn problem_json(out: &mut String, skipped: bool, e: &Error) {
    use warcdex_core::json::push_str;
    out.push_str(if skipped { "{\"event\":\"skipped\"" } else { "{\"event\":\"warning\"" });
    out.push_str(",\"code\":");
    push_str(out, e.code());
    out.push_str(",\"source\":");
    push_str(out, &e.source_name);
    if let Some(o) = e.offset {
        out.push_str(&format!(",\"offset\":{o}"));
    }
    out.push_str(",\"message\":");
    push_str(out, &e.to_string());
    out.push('}');
}
