//! `generateSample`: the project's own realistic WARC/ARC collections.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde::Deserialize;
use warcdex_synth::{Format, Options};

use crate::guard;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct SampleOptions {
    seed: Option<f64>,
    files: Option<u32>,
    target_bytes: Option<f64>,
    hosts: Option<u32>,
    format: Option<String>,
    omit_payload_digest: bool,
    prefix: Option<String>,
}

fn parse_format(name: &str) -> Option<Format> {
    Format::ALL.into_iter().find(|f| f.name() == name || f.extension() == name)
}

pub struct SampleTask {
    dir: String,
    opts: Options,
}

impl Task for SampleTask {
    type Output = String;
    type JsValue = String;
    fn compute(&mut self) -> Result<String> {
        guard("generateSample", || {
            let stats = warcdex_synth::write_collection(std::path::Path::new(&self.dir), &self.opts)
                .map_err(|e| Error::from_reason(format!("{}: {e}", self.dir)))?;
            let mut out = String::from("[");
            for (i, s) in stats.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"path\":");
                warcdex_core::json::push_str(&mut out, &s.path.display().to_string());
                out.push_str(&format!(
                    ",\"records\":{},\"captures\":{},\"bytes\":{}}}",
                    s.records.total(),
                    s.captures,
                    s.file_bytes
                ));
            }
            out.push(']');
            Ok(out)
        })
    }
    fn resolve(&mut self, _env: Env, o: String) -> Result<String> {
        Ok(o)
    }
}

/// Writes a sample collection into `dir`; resolves to JSON stats per file.
/// Formats: the extensions `warc`, `warc.gz`, `warc.zst`, `warc.xz`, `arc`, `arc.gz`, or a format name.
#[napi(ts_return_type = "Promise<string>")]
pub fn generate_sample(dir: String, options_json: String) -> Result<AsyncTask<SampleTask>> {
    let o: SampleOptions =
        serde_json::from_str(&options_json).map_err(|e| Error::from_reason(format!("invalid options: {e}")))?;
    let mut opts = Options::default();
    if let Some(s) = o.seed {
        opts.seed = s as u64;
    }
    if let Some(f) = o.files {
        opts.files = f as usize;
    }
    if let Some(t) = o.target_bytes {
        opts.target_bytes = t as u64;
    }
    if let Some(h) = o.hosts {
        opts.hosts = h as usize;
    }
    if let Some(f) = o.format.as_deref() {
        opts.format = parse_format(f).ok_or_else(|| Error::from_reason(format!("unknown sample format {f:?}")))?;
    }
    if let Some(p) = o.prefix {
        opts.prefix = p;
    }
    opts.omit_payload_digest = o.omit_payload_digest;
    Ok(AsyncTask::new(SampleTask { dir, opts }))
}
