//! Inputs that are not WARC or ARC but are indexed like them (page-dump
//! segments, `data_*.tar.xz`). Their readers live in other crates, which
//! register one hook here; the pipeline asks it first for every file.

use std::io;
use std::path::Path;
use std::sync::OnceLock;

use crate::cdx::write_line;
use crate::index::{Event, IndexOptions, Style};
use crate::pipeline::{IndexJob, Observer, Summary};

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

/// True when some of `files` are foreign inputs (the parallel pipeline,
/// which splits WARC files at record boundaries, leaves those to the serial one).
pub(crate) fn claims_any(files: &[std::path::PathBuf]) -> bool {
    HOOK.get().is_some_and(|(_, detect)| files.iter().any(|f| detect(f)))
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
    let mut header_written = false;
    let mut stopped = false;
    let result = hook(path, options, &mut |ev| {
        if stopped {
            return Ok(());
        }
        if !header_written {
            header_written = true;
            summary.files += 1;
            if let Some(h) = job.format.header().filter(|_| options.style != Style::Pywb) {
                sink(&format!("{h}\n"))?;
            }
        }
        match ev {
            Event::Entry(e) => {
                line.clear();
                write_line(line, job.format, &e);
                sink(line)?;
                summary.entries += 1;
                summary.records += 1;
            }
            Event::Skipped(err) => {
                summary.skipped += 1;
                obs.problem(true, &err);
                if job.strict {
                    summary.stopped = true;
                    stopped = true;
                }
            }
            Event::Warning(err) => {
                summary.warnings += 1;
                obs.problem(false, &err);
            }
        }
        if summary.entries % 1024 == 0 {
            obs.progress(0, summary.entries);
        }
        Ok(())
    });
    match result {
        None => Ok(false),
        Some(r) => r.map(|_| true),
    }
}
