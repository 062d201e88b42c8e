//! `summarize`: cdx-summary's numbers (and warcdex's extras) for CDX, CDXJ
//! and WARC/ARC inputs, computed on a libuv worker thread.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde::Deserialize;

use crate::guard;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct SummaryOptions {
    /// Top hosts; a negative number (or absent with `allHosts`) means all.
    top: Option<f64>,
    samples: Option<f64>,
    seed: Option<f64>,
    exact_limit: Option<f64>,
    report: bool,
}

pub struct SummaryTask {
    inputs: Vec<String>,
    opts: warcdex_summary::Options,
    report: bool,
}

impl Task for SummaryTask {
    type Output = String;
    type JsValue = String;
    fn compute(&mut self) -> Result<String> {
        guard("summarize", || {
            warcdex_summary::summarize(&self.inputs, self.opts.clone(), self.report).map_err(|e| Error::from_reason(e.to_string()))
        })
    }
    fn resolve(&mut self, _env: Env, o: String) -> Result<String> {
        Ok(o)
    }
}

/// Summarizes `inputs` (files, directories, `-` for standard input);
/// resolves to JSON `{summary, report?, extras, inputs}`.
#[napi(ts_return_type = "Promise<string>")]
pub fn summarize(inputs: Vec<String>, options_json: String) -> Result<AsyncTask<SummaryTask>> {
    let o: SummaryOptions =
        serde_json::from_str(&options_json).map_err(|e| Error::from_reason(format!("invalid options: {e}")))?;
    let mut opts = warcdex_summary::Options::default();
    if let Some(t) = o.top {
        opts.top = (t >= 0.0).then_some(t as usize);
    }
    if let Some(s) = o.samples {
        opts.samples = s.max(0.0) as usize;
    }
    opts.seed = match o.seed {
        Some(s) => s as u64,
        // No seed: a different sample each run, as cdx-summary gives.
        None => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64),
    };
    if let Some(l) = o.exact_limit {
        opts.exact_limit = l.max(0.0) as usize;
    }
    Ok(AsyncTask::new(SummaryTask { inputs, opts, report: o.report }))
}
