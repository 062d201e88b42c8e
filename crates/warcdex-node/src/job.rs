//! `runIndex`: a whole indexing job on a worker thread, writing to a file or
//! to standard output, with progress and problems sent to a JS callback.

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use warcdex_core::error::Error as CoreError;
use warcdex_core::output::AtomicFile;
use warcdex_core::pipeline::{run_index as run_job, IndexJob, Observer, Summary};

use crate::convert::{problem_json, JobOptions};
use crate::guard;

/// Callback receiving one JSON event string.
pub type EventCallback = ThreadsafeFunction<String, (), String, Status, false>;

/// Lets JavaScript stop a running job (e.g. on SIGINT).
#[napi]
#[derive(Default)]
pub struct CancelToken {
    pub(crate) flag: Arc<AtomicBool>,
}

#[napi]
impl CancelToken {
    #[napi(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
    #[napi]
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }
}

pub struct IndexTask {
    files: Vec<PathBuf>,
    job: IndexJob,
    output: Option<PathBuf>,
    force: bool,
    events: Option<Arc<EventCallback>>,
    cancel: Arc<AtomicBool>,
}

/// Sends events to JavaScript without blocking; progress at most every 100 ms.
struct JsObserver {
    events: Option<Arc<EventCallback>>,
    cancel: Arc<AtomicBool>,
    last_progress: Instant,
    buf: String,
}

impl JsObserver {
    fn send(&self, s: String) {
        if let Some(cb) = &self.events {
            cb.call(s, ThreadsafeFunctionCallMode::NonBlocking);
        }
    }
    fn note(&self, message: &str) {
        let mut s = String::from("{\"event\":\"note\",\"message\":");
        warcdex_core::json::push_str(&mut s, message);
        s.push('}');
        self.send(s);
    }
}

impl Observer for JsObserver {
    fn problem(&mut self, skipped: bool, e: &CoreError) {
        self.buf.clear();
        problem_json(&mut self.buf, skipped, e);
        self.send(self.buf.clone());
    }
    fn progress(&mut self, file_bytes: u64, entries: u64) {
        if self.last_progress.elapsed() >= Duration::from_millis(100) {
            self.last_progress = Instant::now();
            self.send(format!("{{\"event\":\"progress\",\"fileBytes\":{file_bytes},\"entries\":{entries}}}"));
        }
    }
    fn file_started(&mut self, path: &std::path::Path) {
        let mut s = String::from("{\"event\":\"file\",\"path\":");
        warcdex_core::json::push_str(&mut s, &path.display().to_string());
        s.push('}');
        self.send(s);
    }
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// Standard output as a blocking writer: Node may leave fd 1 non-blocking
/// (pipes), so a full pipe is waited on instead of failing.
struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        use std::os::fd::FromRawFd;
        let mut f = std::mem::ManuallyDrop::new(unsafe { File::from_raw_fd(1) });
        loop {
            match f.write(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(Duration::from_micros(200)),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Task for IndexTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        guard("runIndex", || {
            let mut obs = JsObserver {
                events: self.events.clone(),
                cancel: self.cancel.clone(),
                last_progress: Instant::now(),
                buf: String::new(),
            };
            let result = match &self.output {
                Some(p) => {
                    let mut f = AtomicFile::create(p, self.force).map_err(|e| napi::Error::from_reason(e.to_string()))?;
                    for n in std::mem::take(&mut f.notes) {
                        obs.note(&n);
                    }
                    let mut w = io::BufWriter::with_capacity(1 << 16, f);
                    let r = run_job(&self.files, &self.job, &mut w, &mut obs).and_then(|s| Ok((s, w.into_inner().map_err(|e| e.into_error())?)));
                    match r {
                        // Published only when whole: not after a cancel or a --strict stop.
                        Ok((s, f)) if !obs.cancelled() && !s.stopped => f.commit().map(|()| s),
                        Ok((s, _)) => Ok(s),
                        Err(e) => Err(e),
                    }
                }
                None => run_job(&self.files, &self.job, &mut Stdout, &mut obs),
            };
            let (summary, broken_pipe) = match result {
                Ok(s) => (s, false),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => (Summary::default(), true),
                Err(e) => return Err(napi::Error::from_reason(format!("writing the index: {e}"))),
            };
            Ok(summary_json(&summary, broken_pipe, obs.cancelled()))
        })
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

pub fn summary_json(s: &Summary, broken_pipe: bool, cancelled: bool) -> String {
    format!(
        "{{\"files\":{},\"entries\":{},\"records\":{},\"skipped\":{},\"bytesSkipped\":{},\"warnings\":{},\"bytesRead\":{},\"failedFiles\":{},\"stopped\":{},\"brokenPipe\":{},\"cancelled\":{}}}",
        s.files, s.entries, s.records, s.skipped, s.bytes_skipped, s.warnings, s.bytes_read, s.failed_files, s.stopped, broken_pipe, cancelled
    )
}

/// Expands inputs (files and directories) into the files to index, in order.
#[napi]
pub fn expand_inputs(paths: Vec<String>) -> Result<Vec<String>> {
    let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    let files = warcdex_core::inputs::expand(&paths).map_err(crate::js_error)?;
    Ok(files.into_iter().map(|p| p.display().to_string()).collect())
}

/// Indexes `files` into `output` (a path, or standard output when absent).
/// Resolves to a JSON summary; `onEvent` receives JSON events.
#[napi(ts_return_type = "Promise<string>")]
pub fn run_index(
    files: Vec<String>,
    options_json: String,
    output: Option<String>,
    on_event: Option<EventCallback>,
    cancel: Option<&CancelToken>,
) -> Result<AsyncTask<IndexTask>> {
    let opts = JobOptions::parse(&options_json)?;
    Ok(AsyncTask::new(IndexTask {
        files: files.into_iter().map(PathBuf::from).collect(),
        job: opts.job()?,
        output: output.map(PathBuf::from),
        force: opts.force,
        events: on_event.map(Arc::new),
        cancel: cancel.map(|c| c.flag.clone()).unwrap_or_default(),
    }))
}
