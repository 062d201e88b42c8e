//! Reading one record's payload from a file by offset, in chunks, so a
//! payload of any size streams into JavaScript with bounded memory.

use std::sync::{Arc, Mutex};

use napi::bindgen_prelude::*;
use napi_derive::napi;
use warcdex_core::records::PayloadReader;

use crate::guard;

#[napi]
pub struct PayloadSource {
    inner: Arc<Mutex<PayloadReader>>,
    head_json: String,
}

#[napi]
impl PayloadSource {
    /// The record's type, target URI and HTTP status as JSON.
    #[napi(getter)]
    pub fn head(&self) -> String {
        self.head_json.clone()
    }

    /// Up to `size` more payload bytes; null at the end.
    #[napi(ts_return_type = "Promise<Buffer | null>")]
    pub fn read(&self, size: u32) -> AsyncTask<ReadPayload> {
        AsyncTask::new(ReadPayload { inner: self.inner.clone(), size: size.clamp(1, 16 << 20) as usize })
    }
}

pub struct ReadPayload {
    inner: Arc<Mutex<PayloadReader>>,
    size: usize,
}

impl Task for ReadPayload {
    type Output = Option<Vec<u8>>;
    type JsValue = Option<Buffer>;
    fn compute(&mut self) -> Result<Self::Output> {
        guard("readPayload", || {
            let mut r = self.inner.lock().map_err(|_| Error::from_reason("payload reader failed earlier"))?;
            let mut buf = vec![0; self.size];
            let mut filled = 0;
            while filled < buf.len() {
                let n = r.read_chunk(&mut buf[filled..]).map_err(crate::js_error)?;
                if n == 0 {
                    break;
                }
                filled += n;
            }
            buf.truncate(filled);
            Ok((filled > 0).then_some(buf))
        })
    }
    fn resolve(&mut self, _env: Env, o: Self::Output) -> Result<Option<Buffer>> {
        Ok(o.map(Into::into))
    }
}

pub struct OpenPayload {
    path: String,
    offset: u64,
}

impl Task for OpenPayload {
    type Output = PayloadSource;
    type JsValue = PayloadSource;
    fn compute(&mut self) -> Result<PayloadSource> {
        guard("openPayload", || {
            let r = PayloadReader::open(std::path::Path::new(&self.path), self.offset).map_err(crate::js_error)?;
            let mut head = String::from("{\"type\":");
            warcdex_core::json::push_str(&mut head, &r.info_head.rec_type);
            if let Some(u) = &r.info_head.target_uri {
                head.push_str(",\"targetUri\":");
                warcdex_core::json::push_str(&mut head, u);
            }
            if let Some(h) = &r.http {
                head.push_str(",\"status\":");
                warcdex_core::json::push_str(&mut head, h.status_code());
                if let Some(ct) = h.headers.get("content-type") {
                    head.push_str(",\"contentType\":");
                    warcdex_core::json::push_str(&mut head, ct);
                }
            }
            head.push('}');
            Ok(PayloadSource { inner: Arc::new(Mutex::new(r)), head_json: head })
        })
    }
    fn resolve(&mut self, _env: Env, o: PayloadSource) -> Result<PayloadSource> {
        Ok(o)
    }
}

/// Opens the record at `offset` of the file at `path`, positioned at its payload.
#[napi(ts_return_type = "Promise<PayloadSource>")]
pub fn open_payload(path: String, offset: f64) -> AsyncTask<OpenPayload> {
    AsyncTask::new(OpenPayload { path, offset: offset as u64 })
}
