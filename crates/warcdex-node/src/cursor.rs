//! Cursors that hand index rows or records to JavaScript in batches.

use std::fmt::Write as _;
use std::fs::File;
use std::io::Read;
use std::sync::{Arc, Mutex};

use napi::bindgen_prelude::*;
use napi_derive::napi;
use warcdex_core::cdx::{write_line, Format};
use warcdex_core::index::{Event, IndexOptions, Indexer};
use warcdex_core::json::push_str;
use warcdex_core::reader::ArchiveReader;
use warcdex_core::records::{PayloadMode, RecordEvent, RecordInfo, RecordIter};

use crate::convert::{problem_json, JobOptions};
use crate::guard;
use crate::push::{PushQueue, PushReader};

type Source = Box<dyn Read + Send>;

enum Pipeline {
    /// Not opened yet: opening reads the first bytes, which is work for the worker.
    Closed(Source, String),
    Index(Box<Indexer<Source>>),
    Records(Box<RecordIter<Source>>),
    Finished,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Index rows as JSON objects.
    Index,
    /// Index lines as text in the job's format (the JSON buffer holds the text).
    Lines(Format),
    Records,
}

struct State {
    pipeline: Pipeline,
    kind: Kind,
    index: IndexOptions,
    payload: PayloadMode,
}

/// A source of index rows (`indexRecords`) or records (`readRecords`).
#[napi]
pub struct Cursor {
    state: Arc<Mutex<State>>,
    push: Option<Arc<PushQueue>>,
}

/// One batch: JSON text of an array of items, and the payload bytes the
/// items point into (`"payload":[start,end]`).
#[napi(object)]
pub struct Batch {
    pub json: Buffer,
    pub payloads: Option<Buffer>,
}

fn new_cursor(source: Source, name: String, options_json: &str, kind: &str, push: Option<Arc<PushQueue>>) -> Result<Cursor> {
    let opts = JobOptions::parse(options_json)?;
    let mut index = opts.index_options()?;
    if index.filename.is_empty() {
        let root = opts.dir_root.as_ref().map(std::path::PathBuf::from);
        index.filename = warcdex_core::inputs::index_filename(std::path::Path::new(&name), root.as_deref());
    }
    let kind = match kind {
        "index" => Kind::Index,
        "records" => Kind::Records,
        "lines" => Kind::Lines(opts.job()?.format),
        other => return Err(Error::from_reason(format!("unknown cursor kind {other:?}"))),
    };
    let payload = match opts.keep_payload_bytes {
        Some(n) if n > 0.0 => PayloadMode::Keep(n as usize),
        _ => PayloadMode::Skip,
    };
    Ok(Cursor {
        state: Arc::new(Mutex::new(State { pipeline: Pipeline::Closed(source, name), kind, index, payload })),
        push,
    })
}

#[napi]
impl Cursor {
    /// A cursor over a file. `kind` is "index" (rows as JSON), "lines" (index
    /// text in the options' format) or "records".
    #[napi(factory)]
    pub fn open_file(path: String, options_json: String, kind: String) -> Result<Cursor> {
        let file = File::open(&path).map_err(|e| Error::from_reason(format!("{path}: cannot open: {e}")))?;
        new_cursor(Box::new(std::io::BufReader::with_capacity(1 << 16, file)), path, &options_json, &kind, None)
    }

    /// A cursor over bytes pushed from JavaScript.
    #[napi(factory)]
    pub fn open_push(name: String, options_json: String, kind: String) -> Result<Cursor> {
        let q = PushQueue::new();
        new_cursor(Box::new(PushReader(q.clone())), name, &options_json, &kind, Some(q))
    }

    /// Queues a chunk (copied) for a push cursor.
    #[napi]
    pub fn push(&self, chunk: &[u8]) -> Result<()> {
        self.push.as_ref().ok_or_else(|| Error::from_reason("not a push cursor"))?.push(chunk.to_vec());
        Ok(())
    }

    #[napi]
    pub fn end(&self) {
        if let Some(q) = &self.push {
            q.end();
        }
    }

    /// Stops a push cursor: a waiting read fails with `reason`.
    #[napi]
    pub fn abort(&self, reason: String) {
        if let Some(q) = &self.push {
            q.abort(reason);
        }
    }

    #[napi]
    pub fn queued_bytes(&self) -> f64 {
        self.push.as_ref().map(|q| q.queued() as f64).unwrap_or(0.0)
    }

    /// Resolves once fewer than `low` bytes are queued.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn wait_drain(&self, low: f64) -> AsyncTask<WaitDrain> {
        AsyncTask::new(WaitDrain { queue: self.push.clone(), low: low as usize })
    }

    /// The next batch of at most `max_items` items, or null at the end.
    #[napi(ts_return_type = "Promise<Batch | null>")]
    pub fn next_batch(&self, max_items: u32) -> AsyncTask<NextBatch> {
        AsyncTask::new(NextBatch { state: self.state.clone(), max: max_items.max(1) as usize })
    }
}

pub struct WaitDrain {
    queue: Option<Arc<PushQueue>>,
    low: usize,
}

impl Task for WaitDrain {
    type Output = ();
    type JsValue = ();
    fn compute(&mut self) -> Result<()> {
        if let Some(q) = &self.queue {
            q.wait_below(self.low);
        }
        Ok(())
    }
    fn resolve(&mut self, _env: Env, _o: ()) -> Result<()> {
        Ok(())
    }
}

pub struct NextBatch {
    state: Arc<Mutex<State>>,
    max: usize,
}

impl Task for NextBatch {
    type Output = Option<(Vec<u8>, Option<Vec<u8>>)>;
    type JsValue = Option<Batch>;

    fn compute(&mut self) -> Result<Self::Output> {
        guard("nextBatch", || {
            let mut st = self.state.lock().map_err(|_| Error::from_reason("cursor used after a failure"))?;
            let st = &mut *st;
            if let Pipeline::Closed(..) = st.pipeline {
                let Pipeline::Closed(src, name) = std::mem::replace(&mut st.pipeline, Pipeline::Finished) else { unreachable!() };
                let reader = match ArchiveReader::new(src, &name) {
                    Ok(r) => r,
                    Err(e) => {
                        // An input that is not an archive (or empty) is reported like a
                        // bad record, so callers see it through the same channel.
                        let skipped = e.message() != "empty file";
                        let mut json = String::new();
                        problem_json(&mut json, skipped, &e);
                        return Ok(Some(match st.kind {
                            Kind::Lines(_) => (Vec::new(), Some(format!("[{json}]").into_bytes())),
                            _ => (format!("[{json}]").into_bytes(), None),
                        }));
                    }
                };
                st.pipeline = if st.kind == Kind::Records {
                    Pipeline::Records(Box::new(RecordIter::new(reader, st.payload)))
                } else {
                    Pipeline::Index(Box::new(Indexer::new(reader, st.index.clone())))
                };
            }
            let mut json = String::with_capacity(64 << 10);
            let mut payloads = Vec::new();
            let mut n = 0;
            // Lines cursors return text lines, with problems as JSON in `payloads`.
            let mut problems = String::from("[");
            let lines = match st.kind {
                Kind::Lines(f) => Some(f),
                _ => None,
            };
            if lines.is_none() {
                json.push('[');
            }
            while n < self.max {
                let item_start = json.len();
                if n > 0 && lines.is_none() {
                    json.push(',');
                }
                let more = match &mut st.pipeline {
                    Pipeline::Index(ix) => match ix.next_event() {
                        Some(Event::Entry(e)) => {
                            match lines {
                                Some(f) => write_line(&mut json, f, &e),
                                None => {
                                    write_line(&mut json, Format::Ndjson, &e);
                                    json.pop();
                                }
                            }
                            true
                        }
                        Some(ev @ (Event::Skipped(_) | Event::Warning(_))) if lines.is_some() => {
                            let (skipped, e) = match ev {
                                Event::Skipped(e) => (true, e),
                                Event::Warning(e) => (false, e),
                                Event::Entry(_) => unreachable!(),
                            };
                            if problems.len() > 1 {
                                problems.push(',');
                            }
                            problem_json(&mut problems, skipped, &e);
                            true
                        }
                        Some(Event::Skipped(e)) => {
                            problem_json(&mut json, true, &e);
                            true
                        }
                        Some(Event::Warning(e)) => {
                            problem_json(&mut json, false, &e);
                            true
                        }
                        None => false,
                    },
                    Pipeline::Records(it) => match it.next_event() {
                        Some(RecordEvent::Record(r)) => {
                            record_json(&mut json, &r, &mut payloads);
                            true
                        }
                        Some(RecordEvent::Skipped(e)) => {
                            problem_json(&mut json, true, &e);
                            true
                        }
                        Some(RecordEvent::Warning(e)) => {
                            problem_json(&mut json, false, &e);
                            true
                        }
                        None => false,
                    },
                    Pipeline::Finished | Pipeline::Closed(..) => false,
                };
                if !more {
                    json.truncate(item_start);
                    st.pipeline = Pipeline::Finished;
                    break;
                }
                n += 1;
            }
            if n == 0 {
                return Ok(None);
            }
            if lines.is_some() {
                problems.push(']');
                return Ok(Some((json.into_bytes(), Some(problems.into_bytes()))));
            }
            json.push(']');
            let payloads = if st.kind == Kind::Records && matches!(st.payload, PayloadMode::Keep(_)) { Some(payloads) } else { None };
            Ok(Some((json.into_bytes(), payloads)))
        })
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Option<Batch>> {
        Ok(output.map(|(json, payloads)| Batch { json: json.into(), payloads: payloads.map(Into::into) }))
    }
}

fn pairs_json(out: &mut String, pairs: impl Iterator<Item = (impl AsRef<str>, impl AsRef<str>)>) {
    out.push('[');
    for (i, (n, v)) in pairs.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        push_str(out, n.as_ref());
        out.push(',');
        push_str(out, v.as_ref());
        out.push(']');
    }
    out.push(']');
}

fn record_json(out: &mut String, r: &RecordInfo, payloads: &mut Vec<u8>) {
    let h = &r.head;
    out.push_str("{\"event\":\"record\",\"type\":");
    push_str(out, &h.rec_type);
    out.push_str(",\"format\":");
    push_str(out, if h.format == warcdex_core::reader::RecordFormat::Warc { "warc" } else { "arc" });
    out.push_str(",\"version\":");
    push_str(out, &h.version);
    let _ = write!(
        out,
        ",\"offset\":{},\"length\":{},\"seekable\":{},\"truncated\":{},\"blockLength\":{},\"httpHeaderLength\":{},\"payloadLength\":{}",
        r.span.offset,
        r.span.length,
        r.span.seekable,
        r.span.truncated_at.is_some(),
        h.block_length,
        r.http_header_length,
        r.payload_length
    );
    for (k, v) in [("targetUri", &h.target_uri), ("date", &h.date), ("contentType", &h.content_type)] {
        if let Some(v) = v {
            out.push_str(",\"");
            out.push_str(k);
            out.push_str("\":");
            push_str(out, v);
        }
    }
    out.push_str(",\"headers\":");
    pairs_json(out, h.headers.iter());
    if let Some(http) = &r.http {
        out.push_str(",\"http\":{\"protocol\":");
        push_str(out, &http.protocol);
        out.push_str(",\"statusLine\":");
        push_str(out, &http.status_line);
        out.push_str(",\"headers\":");
        pairs_json(out, http.headers.iter());
        out.push('}');
    }
    if let Some(p) = &r.payload {
        let start = payloads.len();
        payloads.extend_from_slice(p);
        let _ = write!(out, ",\"payload\":[{},{}],\"payloadCut\":{}", start, payloads.len(), r.payload_cut);
    }
    out.push('}');
}
