//! Inputs that are not WARC or ARC but are indexed like them (page-dump
//! segments, `data_*.tar.xz`). Their readers live in other crates, which
//! register one hook here; the pipeline asks it first for every file.

use std::io;
use std::path::Path;
use std::sync::OnceLock;

use crate::index::{Event, IndexOptions};
use crate::pipeline::{EventSink, IndexJob, Observer, Summary};

/// Indexes `path` into `emit` if it is an input the hook knows; returns
/// None (without reading anything) when it is not.
pub type ForeignIndexer = fn(path: &Path, options: &IndexOptions, emit: &mut dyn FnMut(Event) -> io::Result<()>) -> Option<io::Result<()>>;

/// True when `path` is an input the hook indexes (without indexing it).
pub type ForeignDetector = fn(path: &Path) -> bool;

static HOOK: OnceLock<(ForeignIndexer, ForeignDetector)> = OnceLock::new();

/// Registers the hook (the first registration wins; later ones are ignored).
pub fn register(hook: ForeignIndexer, detect: ForeignDetector) {
    let _ = HOOK.set((hook, detect));
}

/// True when `path` is an input the registered hook indexes.
pub fn claims(path: &Path) -> bool {
    HOOK.get().is_some_and(|(_, detect)| detect(path))
}

/// The hook's events for `path` (entries, skipped records, warnings), for
/// consumers other than the index writer (the Parquet converter); None when
/// no hook claims the file.
pub fn index_events(path: &Path, options: &IndexOptions, emit: &mut dyn FnMut(Event) -> io::Result<()>) -> Option<io::Result<()>> {
    let (hook, _) = HOOK.get()?;
    hook(path, options, emit)
}

/// True when some of `files` are foreign inputs (the parallel pipeline,
/// which splits WARC files at record boundaries, leaves those to the serial one).
pub(crate) fn claims_any(files: &[std::path::PathBuf]) -> bool {
    files.iter().any(|f| claims(f))
}

/// Indexes `path` with the registered hook; false when it is not a foreign input.
pub(crate) fn try_index(
    path: &Path,
    options: &IndexOptions,
    job: &IndexJob,
    summary: &mut Summary,
    line: &mut String,
    sink: &mut dyn FnMut(&str) -> io::Result<()>,
    obs: &mut dyn Observer,
) -> io::Result<bool> {
    let Some((hook, _)) = HOOK.get() else { return Ok(false) };
    let mut out = EventSink { job, summary, line, sink, obs };
    let mut begun = false;
    let mut stopped = false;
    let result = hook(path, options, &mut |ev| {
        if stopped {
            return Ok(());
        }
        // Counted and headed only once the hook has claimed the file.
        if !begun {
            begun = true;
            out.begin(options)?;
        }
        if matches!(ev, Event::Entry(_)) {
            out.summary.records += 1;
        }
        stopped = !out.event(ev)?;
        if out.summary.entries % 1024 == 0 {
            out.obs.progress(0, out.summary.entries);
        }
        Ok(())
    });
    match result {
        None => Ok(false),
        Some(r) => r.map(|_| true),
    }
}
