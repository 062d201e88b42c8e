//! `writeParquet`: a cc-index-table dataset from WARC/ARC files or CDX(J)
//! indexes, converted on a libuv worker thread, with progress and problems
//! sent to a JS callback as JSON events.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use napi::bindgen_prelude::*;
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use serde::Deserialize;
use warcdex_parquet::job::{run, Observer, ParquetJob};
use warcdex_core::index::Selection;
use warcdex_parquet::inputs::Kinds;
use warcdex_parquet::writer::Codec;

use crate::guard;
use crate::job::{CancelToken, EventCallback};

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ParquetOptions {
    crawl: Option<String>,
    partition_by: Option<Vec<String>>,
    compression: Option<String>,
    max_file_rows: Option<f64>,
    row_group_rows: Option<f64>,
    page_rows: Option<f64>,
    bloom_filters: bool,
    sort_budget_bytes: Option<f64>,
    tmp_dir: Option<String>,
    /// `error` (default), `append` or `overwrite`.
    mode: Option<String>,
    /// `captures` (default), `index`, `all` or a comma-separated list of WARC-Types.
    records: Option<String>,
    /// What a directory of both archives and indexes gives: `auto`
    /// (refused), `archives`, `indexes` or `all`.
    inputs: Option<String>,
}

impl ParquetOptions {
    fn job(self) -> Result<ParquetJob> {
        let mut job = ParquetJob::default();
        job.rules.crawl = self.crawl.filter(|c| !c.is_empty());
        if let Some(by) = self.partition_by {
            job.rules.partition_by = by;
        }
        if let Some(c) = self.compression {
            job.layout.codec = Codec::parse(&c).ok_or_else(|| Error::from_reason(format!("unknown compression {c:?}: zstd, gzip, snappy or none")))?;
        }
        let count = |v: Option<f64>, what: &str| -> Result<Option<u64>> {
            match v {
                Some(n) if n >= 1.0 && n.fract() == 0.0 => Ok(Some(n as u64)),
                Some(n) => Err(Error::from_reason(format!("{what} must be a positive integer, not {n}"))),
                None => Ok(None),
            }
        };
        if let Some(n) = count(self.max_file_rows, "maxFileRows")? {
            job.layout.max_file_rows = n;
        }
        if let Some(n) = count(self.row_group_rows, "rowGroupRows")? {
            job.layout.row_group_rows = n as usize;
        }
        if let Some(n) = count(self.page_rows, "pageRows")? {
            job.layout.page_rows = n as usize;
        }
        if let Some(n) = count(self.sort_budget_bytes, "sortBudgetBytes")? {
            job.sort_budget = n as usize;
        }
        job.layout.bloom_filters = self.bloom_filters;
        job.tmp_dir = self.tmp_dir.map(PathBuf::from);
        job.records = match self.records.as_deref() {
            None | Some("captures") => warcdex_parquet::job::Records::Captures,
            Some("index") => warcdex_parquet::job::Records::Indexed(Selection::Default),
            Some("all") => warcdex_parquet::job::Records::Indexed(Selection::All),
            Some(list) => warcdex_parquet::job::Records::Indexed(Selection::Types(list.split(',').map(|s| s.trim().to_string()).collect())),
        };
        if let Some(m) = self.mode {
            job.mode = warcdex_core::output::Mode::parse(&m).ok_or_else(|| Error::from_reason(format!("unknown mode {m:?}: error, append or overwrite")))?;
        }
        job.check().map_err(Error::from_reason)?;
        Ok(job)
    }
}

struct JsObserver {
    events: Option<Arc<EventCallback>>,
    cancel: Arc<AtomicBool>,
    last: Instant,
}

impl JsObserver {
    fn send(&self, s: String) {
        if let Some(cb) = &self.events {
            cb.call(s, ThreadsafeFunctionCallMode::NonBlocking);
        }
    }
}

impl Observer for JsObserver {
    fn problem(&mut self, skipped: bool, message: &str) {
        let mut s = format!("{{\"event\":\"problem\",\"skipped\":{skipped},\"message\":");
        warcdex_core::json::push_str(&mut s, message);
        s.push('}');
        self.send(s);
    }
    fn progress(&mut self, bytes: u64, rows: u64) {
        if self.last.elapsed() >= Duration::from_millis(100) {
            self.last = Instant::now();
            self.send(format!("{{\"event\":\"progress\",\"bytes\":{bytes},\"rows\":{rows}}}"));
        }
    }
    fn note(&mut self, message: &str) {
        let mut s = String::from("{\"event\":\"note\",\"message\":");
        warcdex_core::json::push_str(&mut s, message);
        s.push('}');
        self.send(s);
    }
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

pub struct ParquetTask {
    inputs: Vec<String>,
    kinds: Kinds,
    out_dir: PathBuf,
    job: ParquetJob,
    events: Option<Arc<EventCallback>>,
    cancel: Arc<AtomicBool>,
}

impl Task for ParquetTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        guard("writeParquet", || {
            let inputs = warcdex_parquet::inputs::expand_kinds(&self.inputs, self.kinds).map_err(|e| Error::from_reason(e.to_string()))?;
            let mut obs = JsObserver { events: self.events.clone(), cancel: self.cancel.clone(), last: Instant::now() };
            let s = run(&inputs, &self.out_dir, &self.job, &mut obs).map_err(|e| Error::from_reason(e.to_string()))?;
            let mut files = String::from("[");
            for (i, f) in s.files.iter().enumerate() {
                if i > 0 {
                    files.push(',');
                }
                files.push_str("{\"path\":");
                warcdex_core::json::push_str(&mut files, &f.path.display().to_string());
                files.push_str(&format!(",\"rows\":{},\"bytes\":{}}}", f.rows, f.bytes));
            }
            files.push(']');
            Ok(format!(
                "{{\"inputs\":{},\"rows\":{},\"skipped\":{},\"warnings\":{},\"bytesRead\":{},\"spilledRuns\":{},\"streamedRows\":{},\"existingFiles\":{},\"existingRows\":{},\"cancelled\":{},\"files\":{files}}}",
                s.inputs, s.rows, s.skipped, s.warnings, s.bytes_read, s.spilled_runs, s.streamed_rows, s.existing_files, s.existing_rows, obs.cancelled()
            ))
        })
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// Converts `inputs` (archives, indexes, directories, `-` for index lines on
/// standard input) into a Hive-partitioned dataset under `outDir`.
/// Resolves to a JSON summary; `onEvent` receives JSON events.
#[napi(ts_return_type = "Promise<string>")]
pub fn write_parquet(
    inputs: Vec<String>,
    out_dir: String,
    options_json: String,
    on_event: Option<EventCallback>,
    cancel: Option<&CancelToken>,
) -> Result<AsyncTask<ParquetTask>> {
    let opts: ParquetOptions = serde_json::from_str(&options_json).map_err(|e| Error::from_reason(format!("invalid options: {e}")))?;
    let kinds = match opts.inputs.as_deref() {
        None => Kinds::One,
        Some(k) => Kinds::parse(k).ok_or_else(|| Error::from_reason(format!("unknown inputs {k:?}: auto, archives, indexes or all")))?,
    };
    Ok(AsyncTask::new(ParquetTask {
        inputs,
        kinds,
        out_dir: PathBuf::from(out_dir),
        job: opts.job()?,
        events: on_event.map(Arc::new),
        cancel: cancel.map(|c| c.flag.clone()).unwrap_or_default(),
    }))
}
