//! A whole indexing job: inputs → records → rows → one output.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::cdx::{write_line, Format};
use crate::error::{Error, ErrorKind};
use crate::index::{Event, IndexOptions, Indexer, Style};
use crate::inputs::index_filename;
use crate::reader::ArchiveReader;
use crate::sort::ExternalSorter;

#[derive(Debug, Clone)]
pub struct IndexJob {
    pub format: Format,
    pub options: IndexOptions,
    pub sort: bool,
    /// Write file names relative to this directory.
    pub dir_root: Option<PathBuf>,
    /// Stop at the first bad record.
    pub strict: bool,
    pub sort_budget: usize,
    /// Threads to index with (1: the calling thread only).
    pub jobs: usize,
    /// Where sorted runs spill (default: the system's temporary directory).
    pub tmp_dir: Option<PathBuf>,
}

impl Default for IndexJob {
    fn default() -> Self {
        IndexJob {
            format: Format::Cdxj,
            options: IndexOptions::default(),
            sort: false,
            dir_root: None,
            strict: false,
            sort_budget: crate::sort::DEFAULT_BUDGET,
            jobs: 1,
            tmp_dir: None,
        }
    }
}

/// Counts of a finished job.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: u64,
    pub entries: u64,
    pub records: u64,
    pub skipped: u64,
    pub bytes_skipped: u64,
    pub warnings: u64,
    pub bytes_read: u64,
    pub failed_files: u64,
    /// The job stopped at a bad record (strict mode).
    pub stopped: bool,
}

/// What a running job tells its caller.
pub trait Observer {
    /// A bad record (skipped) or a warning.
    fn problem(&mut self, _skipped: bool, _error: &Error) {}
    /// Raw input bytes read so far in the current file, and rows written so far.
    fn progress(&mut self, _file_bytes: u64, _entries: u64) {}
    /// A file is about to be read.
    fn file_started(&mut self, _path: &Path) {}
    /// True asks the job to stop early (e.g. the user pressed Ctrl-C).
    fn cancelled(&self) -> bool {
        false
    }
}

pub struct NoObserver;
impl Observer for NoObserver {}

/// Indexes `files` into `out`.
pub fn run_index<W: Write>(files: &[PathBuf], job: &IndexJob, out: &mut W, obs: &mut dyn Observer) -> std::io::Result<Summary> {
    if job.jobs > 1 && job.options.style != Style::Pywb && !crate::foreign::claims_any(files) {
        return crate::parallel::run_index_parallel(files, job, job.jobs, out, obs);
    }
    let mut summary = Summary::default();
    // pywb sorts without dropping repeated lines, and writes one CDX header
    // for the whole output, before anything else.
    let pywb = job.options.style == Style::Pywb;
    let mut sorter = job.sort.then(|| ExternalSorter::new(job.sort_budget, job.tmp_dir.clone()).keep_duplicates(pywb));
    let mut line = String::with_capacity(1024);
    let mut buffered = std::io::BufWriter::with_capacity(1 << 20, out);
    if let Some(h) = job.format.header().filter(|_| pywb) {
        buffered.write_all(format!("{h}\n").as_bytes())?;
    }
    for path in files {
        if obs.cancelled() || summary.stopped {
            break;
        }
        obs.file_started(path);
        let mut sink = |l: &str| match sorter.as_mut() {
            Some(s) => s.push(l.as_bytes()),
            None => buffered.write_all(l.as_bytes()),
        };
        let foreign_options = IndexOptions { filename: index_filename(path, job.dir_root.as_deref()), ..job.options.clone() };
        if crate::foreign::try_index(path, &foreign_options, job, &mut summary, &mut line, &mut sink, obs)? {
            continue;
        }
        let name = path.display().to_string();
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => {
                let err = Error::new(ErrorKind::Io(format!("cannot open: {e}")), &name, None);
                summary.failed_files += 1;
                summary.skipped += 1;
                obs.problem(true, &err);
                if job.strict {
                    summary.stopped = true;
                }
                continue;
            }
        };
        let mut options = job.options.clone();
        options.filename = index_filename(path, job.dir_root.as_deref());
        index_one(file, &name, &options, job, &mut summary, &mut line, &mut |l: &str| match sorter.as_mut() {
            Some(s) => s.push(l.as_bytes()),
            None => buffered.write_all(l.as_bytes()),
        }, obs)?;
    }
    if let Some(s) = sorter {
        s.finish(&mut buffered)?;
    }
    buffered.flush()?;
    Ok(summary)
}

/// Where one input's events go: lines to the sink, problems to the
/// observer, counts to the summary. Shared by archives and foreign inputs.
pub(crate) struct EventSink<'a> {
    pub job: &'a IndexJob,
    pub summary: &'a mut Summary,
    pub line: &'a mut String,
    pub sink: &'a mut dyn FnMut(&str) -> std::io::Result<()>,
    pub obs: &'a mut dyn Observer,
}

impl EventSink<'_> {
    /// Counts the input and writes the format's header line, which comes
    /// once per input as in cdxj-indexer (pywb's once per output: see run_index).
    pub fn begin(&mut self, options: &IndexOptions) -> std::io::Result<()> {
        self.summary.files += 1;
        if let Some(h) = self.job.format.header().filter(|_| options.style != Style::Pywb) {
            (self.sink)(&format!("{h}\n"))?;
        }
        Ok(())
    }

    /// Handles one event; false when the job must stop (`--strict`).
    pub fn event(&mut self, ev: Event) -> std::io::Result<bool> {
        match ev {
            Event::Entry(e) => {
                self.line.clear();
                write_line(self.line, self.job.format, &e);
                (self.sink)(self.line)?;
                self.summary.entries += 1;
            }
            Event::Skipped(err) => {
                self.summary.skipped += 1;
                self.obs.problem(true, &err);
                if self.job.strict {
                    self.summary.stopped = true;
                    return Ok(false);
                }
            }
            Event::Warning(err) => {
                self.summary.warnings += 1;
                self.obs.problem(false, &err);
            }
        }
        Ok(true)
    }
}

/// Indexes one input (a file or any reader) into `sink`, line by line.
#[allow(clippy::too_many_arguments)]
pub fn index_one<R: Read>(
    src: R,
    name: &str,
    options: &IndexOptions,
    job: &IndexJob,
    summary: &mut Summary,
    line: &mut String,
    sink: &mut dyn FnMut(&str) -> std::io::Result<()>,
    obs: &mut dyn Observer,
) -> std::io::Result<()> {
    let mut out = EventSink { job, summary, line, sink, obs };
    // The header comes before the file is read at all, as in cdxj-indexer.
    out.begin(options)?;
    let reader = match ArchiveReader::new(src, name) {
        Ok(r) => r,
        Err(e) if e.message() == "empty file" => {
            out.summary.warnings += 1;
            out.obs.problem(false, &e);
            return Ok(());
        }
        Err(e) => {
            out.summary.failed_files += 1;
            out.summary.skipped += 1;
            out.obs.problem(true, &e);
            if job.strict {
                out.summary.stopped = true;
            }
            return Ok(());
        }
    };
    let mut indexer = Indexer::new(reader, options.clone());
    let mut n = 0u64;
    while let Some(ev) = indexer.next_event() {
        if !out.event(ev)? {
            break;
        }
        n += 1;
        if n % 1024 == 0 {
            out.obs.progress(indexer.reader().raw_position(), out.summary.entries);
            if out.obs.cancelled() {
                break;
            }
        }
    }
    let EventSink { summary, obs, .. } = out;
    let stats = indexer.reader().stats();
    summary.records += stats.records;
    summary.bytes_skipped += stats.bytes_skipped;
    summary.bytes_read += indexer.reader().raw_position();
    obs.progress(indexer.reader().raw_position(), summary.entries);
    Ok(())
}
