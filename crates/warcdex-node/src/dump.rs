//! Page-dump segments (`data_*.tar.xz`): verify, look up, extract, convert
//! to WARC and generate, each an AsyncTask on a libuv worker thread. Problems
//! reach JavaScript as JSON strings through a callback as they are found.
//! Loading the addon also lets `runIndex` read segments (the index hook).

use std::path::PathBuf;
use std::sync::Arc;

use napi::bindgen_prelude::*;
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use serde::Deserialize;
use warcdex_dump::problem::Problem;

use crate::guard;
use crate::job::EventCallback;

#[napi_derive::module_init]
fn register_dump_index_hook() {
    warcdex_dump::capture::register_index_hook();
}

fn io_err(what: &str, e: std::io::Error) -> napi::Error {
    napi::Error::from_reason(warcdex_core::output::at_path(std::path::Path::new(what), e).to_string())
}

fn paths(v: Vec<String>) -> Vec<PathBuf> {
    v.into_iter().map(PathBuf::from).collect()
}

/// Sends each problem as JSON to the callback (non-blocking).
fn problem_sender(cb: Option<Arc<EventCallback>>) -> impl FnMut(Problem) -> std::io::Result<()> {
    move |p: Problem| {
        if let Some(cb) = &cb {
            cb.call(p.json(), ThreadsafeFunctionCallMode::NonBlocking);
        }
        Ok(())
    }
}

/// A task whose work is a closure returning JSON.
pub struct JsonTask {
    what: &'static str,
    work: Option<Box<dyn FnOnce() -> napi::Result<String> + Send>>,
}

impl Task for JsonTask {
    type Output = String;
    type JsValue = String;
    fn compute(&mut self) -> Result<String> {
        let work = self.work.take().ok_or_else(|| napi::Error::from_reason("task ran twice"))?;
        guard(self.what, work)
    }
    fn resolve(&mut self, _env: Env, o: String) -> Result<String> {
        Ok(o)
    }
}

fn task(what: &'static str, f: impl FnOnce() -> napi::Result<String> + Send + 'static) -> AsyncTask<JsonTask> {
    AsyncTask::new(JsonTask { what, work: Some(Box::new(f)) })
}

/// Verifies segments, directories or master manifests; resolves to a JSON summary.
#[napi(ts_return_type = "Promise<string>")]
pub fn dump_verify(inputs: Vec<String>, on_problem: Option<EventCallback>) -> AsyncTask<JsonTask> {
    let cb = on_problem.map(Arc::new);
    task("dumpVerify", move || {
        let mut send = problem_sender(cb);
        let s = warcdex_dump::verify::verify(&paths(inputs), &mut send).map_err(|e| io_err("verify", e))?;
        Ok(format!(
            "{{\"files\":{},\"pages\":{},\"verified\":{},\"problems\":{},\"bytes\":{}}}",
            s.files, s.pages, s.verified, s.problems, s.bytes
        ))
    })
}

/// Every version of `url`, latest first: from `table` when given, else by
/// reading the manifests in `dir`. Resolves to a JSON array.
#[napi(ts_return_type = "Promise<string>")]
pub fn dump_lookup(dir: Option<String>, table: Option<String>, urls: Vec<String>, on_problem: Option<EventCallback>) -> AsyncTask<JsonTask> {
    let cb = on_problem.map(Arc::new);
    task("dumpLookup", move || {
        let mut send = problem_sender(cb);
        let mut out = String::from("[");
        let mut opened = match &table {
            Some(t) => Some(warcdex_dump::lookup::Table::open(std::path::Path::new(t)).map_err(|e| io_err(t, e))?),
            None => None,
        };
        for (n, url) in urls.iter().enumerate() {
            let started = std::time::Instant::now();
            let versions = match (&mut opened, &dir) {
                (Some(t), _) => t.lookup(url).map_err(|e| io_err("lookup", e))?,
                (None, Some(d)) => warcdex_dump::lookup::scan(std::path::Path::new(d), url, &mut send).map_err(|e| io_err(d, e))?,
                (None, None) => return Err(napi::Error::from_reason("lookup needs a manifests directory or a table")),
            };
            if n > 0 {
                out.push(',');
            }
            out.push_str("{\"url\":");
            warcdex_core::json::push_str(&mut out, url);
            out.push_str(&format!(",\"micros\":{},\"versions\":[", started.elapsed().as_micros()));
            for (i, v) in versions.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&v.json());
            }
            out.push_str("]}");
        }
        out.push(']');
        Ok(out)
    })
}

/// Builds the sorted lookup table of the manifests in `inputs` into `output`.
#[napi(ts_return_type = "Promise<string>")]
pub fn dump_build_lookup(inputs: Vec<String>, output: String, sort_budget: Option<f64>, force: Option<bool>, on_problem: Option<EventCallback>) -> AsyncTask<JsonTask> {
    let cb = on_problem.map(Arc::new);
    task("dumpBuildLookup", move || {
        let mut send = problem_sender(cb);
        let budget = sort_budget.map(|b| b as usize).unwrap_or(256 << 20);
        let s = warcdex_dump::lookup::build(&paths(inputs), std::path::Path::new(&output), budget, force.unwrap_or(false), &mut send)
            .map_err(|e| io_err(&output, e))?;
        Ok(format!("{{\"manifests\":{},\"rows\":{},\"blocks\":{},\"bytes\":{}}}", s.manifests, s.rows, s.blocks, s.bytes))
    })
}

pub struct ExtractTask {
    segment: String,
    id: u64,
    body_only: bool,
}

impl Task for ExtractTask {
    type Output = (Vec<u8>, String);
    type JsValue = Buffer;
    fn compute(&mut self) -> Result<(Vec<u8>, String)> {
        guard("dumpExtract", || {
            let mut page = Vec::new();
            let o = warcdex_dump::extract::extract(std::path::Path::new(&self.segment), self.id, self.body_only, &mut page)
                .map_err(|e| io_err(&self.segment, e))?;
            if !o.found {
                return Err(napi::Error::from_reason(format!("{}: no page {}", self.segment, self.id)));
            }
            Ok((page, format!("{{\"blocks\":{},\"startBlock\":{},\"decodedBytes\":{}}}", o.blocks, o.start_block, o.decoded_bytes)))
        })
    }
    fn resolve(&mut self, _env: Env, (page, _info): (Vec<u8>, String)) -> Result<Buffer> {
        Ok(page.into())
    }
}

/// Page `id` of a segment (with its header line unless `bodyOnly`).
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn dump_extract(segment: String, id: f64, body_only: Option<bool>) -> AsyncTask<ExtractTask> {
    AsyncTask::new(ExtractTask { segment, id: id as u64, body_only: body_only.unwrap_or(false) })
}

/// How extraction went (blocks, where decoding started, bytes decoded), for tests and benchmarks.
#[napi(ts_return_type = "Promise<string>")]
pub fn dump_extract_info(segment: String, id: f64) -> AsyncTask<JsonTask> {
    task("dumpExtractInfo", move || {
        let o = warcdex_dump::extract::extract(std::path::Path::new(&segment), id as u64, false, &mut std::io::sink())
            .map_err(|e| io_err(&segment, e))?;
        Ok(format!("{{\"found\":{},\"blocks\":{},\"startBlock\":{},\"decodedBytes\":{}}}", o.found, o.blocks, o.start_block, o.decoded_bytes))
    })
}

/// Writes the pages of `segments` as one WARC 1.1 file, gzip per record.
#[napi(ts_return_type = "Promise<string>")]
pub fn dump_to_warc(segments: Vec<String>, output: String, level: Option<u32>, force: Option<bool>, on_problem: Option<EventCallback>) -> AsyncTask<JsonTask> {
    let cb = on_problem.map(Arc::new);
    task("dumpToWarc", move || {
        let mut send = problem_sender(cb);
        let s = warcdex_dump::to_warc::to_warc_file(&paths(segments), std::path::Path::new(&output), level.unwrap_or(6), force.unwrap_or(false), &mut send)
            .map_err(|e| io_err(&output, e))?;
        Ok(format!(
            "{{\"segments\":{},\"records\":{},\"pagesSkipped\":{},\"problems\":{},\"bytes\":{}}}",
            s.segments, s.records, s.pages_skipped, s.problems, s.bytes
        ))
    })
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct GenerateOptions {
    seed: Option<f64>,
    segments: Option<u32>,
    ids_per_segment: Option<f64>,
    first_id: Option<f64>,
    page_bytes: Option<f64>,
    gap_rate: Option<f64>,
    repeat_rate: Option<f64>,
    crlf_rate: Option<f64>,
    bad_md5_rate: Option<f64>,
    bad_length_rate: Option<f64>,
    bad: Vec<String>,
    xz_level: Option<u32>,
    block_size: Option<f64>,
    threads: Option<u32>,
    master: Option<bool>,
    hosts: Option<u32>,
    /// Only manifests (no pages): rows for lookup tables.
    manifests_only: bool,
}

fn ids_json(v: &[u64]) -> String {
    format!("[{}]", v.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(","))
}

/// Writes generated segments into `dir`; resolves to a JSON report of where every quirk is.
#[napi(ts_return_type = "Promise<string>")]
pub fn dump_generate(dir: String, options_json: String) -> Result<AsyncTask<JsonTask>> {
    let o: GenerateOptions = serde_json::from_str(&options_json).map_err(|e| napi::Error::from_reason(format!("options: {e}")))?;
    let d = warcdex_dump::generate::Options::default();
    let mut bad = Vec::new();
    for b in &o.bad {
        bad.push(warcdex_dump::generate::BadInput::parse(b).ok_or_else(|| napi::Error::from_reason(format!("unknown bad input {b:?}")))?);
    }
    let opts = warcdex_dump::generate::Options {
        seed: o.seed.map(|v| v as u64).unwrap_or(d.seed),
        segments: o.segments.map(|v| v as usize).unwrap_or(d.segments),
        ids_per_segment: o.ids_per_segment.map(|v| v as u64).unwrap_or(d.ids_per_segment),
        first_id: o.first_id.map(|v| v as u64).unwrap_or(d.first_id),
        page_bytes: o.page_bytes.map(|v| v as usize).unwrap_or(d.page_bytes),
        gap_rate: o.gap_rate.unwrap_or(d.gap_rate),
        repeat_rate: o.repeat_rate.unwrap_or(d.repeat_rate),
        crlf_rate: o.crlf_rate.unwrap_or(d.crlf_rate),
        bad_md5_rate: o.bad_md5_rate.unwrap_or(d.bad_md5_rate),
        bad_length_rate: o.bad_length_rate.unwrap_or(d.bad_length_rate),
        bad,
        xz_level: o.xz_level.unwrap_or(d.xz_level),
        block_size: o.block_size.map(|v| v as u64),
        threads: o.threads.unwrap_or(d.threads),
        master: o.master.unwrap_or(d.master),
        hosts: o.hosts.map(|v| v as usize).unwrap_or(d.hosts),
    };
    let manifests_only = o.manifests_only;
    Ok(task("dumpGenerate", move || {
        let dir = std::path::Path::new(&dir);
        if manifests_only {
            let n = warcdex_dump::generate::generate_manifests(dir, &opts).map_err(|e| io_err("generate", e))?;
            return Ok(format!("{{\"rows\":{n}}}"));
        }
        let r = warcdex_dump::generate::generate(dir, &opts).map_err(|e| io_err("generate", e))?;
        let mut out = String::from("{\"segments\":[");
        for (i, s) in r.segments.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"data\":");
            warcdex_core::json::push_str(&mut out, &s.data.display().to_string());
            out.push_str(",\"manifest\":");
            warcdex_core::json::push_str(&mut out, &s.manifest.display().to_string());
            out.push_str(&format!(
                ",\"start\":{},\"end\":{},\"pages\":{},\"rows\":{},\"dataBytes\":{},\"uncompressedBytes\":{},\"crlfIds\":{},\"badMd5Ids\":{},\"badLengthIds\":{},\"planted\":[",
                s.start, s.end, s.pages, s.rows, s.data_bytes, s.uncompressed_bytes, ids_json(&s.crlf_ids), ids_json(&s.bad_md5_ids), ids_json(&s.bad_length_ids)
            ));
            for (j, (b, id)) in s.planted.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                out.push_str(&format!("{{\"bad\":\"{}\",\"id\":{}}}", b.name(), id.map(|i| i.to_string()).unwrap_or_else(|| "null".into())));
            }
            out.push_str("]}");
        }
        out.push_str("],\"master\":");
        match &r.master {
            Some(m) => warcdex_core::json::push_str(&mut out, &m.display().to_string()),
            None => out.push_str("null"),
        }
        out.push_str(",\"repeated\":[");
        for (i, (url, v)) in r.repeated.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"url\":");
            warcdex_core::json::push_str(&mut out, url);
            out.push_str(",\"versions\":[");
            out.push_str(&v.iter().map(|(id, ts)| format!("[{id},{ts}]")).collect::<Vec<_>>().join(","));
            out.push_str("]}");
        }
        out.push_str("]}");
        Ok(out)
    }))
}
