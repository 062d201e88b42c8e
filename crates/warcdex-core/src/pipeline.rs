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
    let mut sorter = job.sort.then(|| ExternalSorter::new(job.sort_budget, None).keep_duplicates(pywb));
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
    summary.files += 1;
    // Like cdxj-indexer, the header comes before the file is read at all
    // (pywb's comes once per output: see run_index).
    if let Some(h) = job.format.header().filter(|_| options.style != Style::Pywb) {
        sink(&format!("{h}\n"))?;
    }
    let reader = match ArchiveReader::new(src, name) {
        Ok(r) => r,
        Err(e) if e.message() == "empty file" => {
            summary.warnings += 1;
            obs.problem(false, &e);
            return Ok(());
        }
        Err(e) => {
            summary.failed_files += 1;
            summary.skipped += 1;
            obs.problem(true, &e);
            if job.strict {
                summary.stopped = true;
            }
            return Ok(());
        }
    };
    let mut indexer = Indexer::new(reader, options.clone());
    let mut n = 0u64;
    while let Some(ev) = indexer.next_event() {
        match ev {
            Event::Entry(e) => {
                line.clear();
                write_line(line, job.format, &e);
                sink(line)?;
                summary.entries += 1;
            }
            Event::Skipped(err) => {
                summary.skipped += 1;
                obs.problem(true, &err);
                if job.strict {
                    summary.stopped = true;
                    break;
                }
            }
            Event::Warning(err) => {
                summary.warnings += 1;
                obs.problem(false, &err);
            }
        }
        n += 1;
        if n % 1024 == 0 {
            obs.progress(indexer.reader().raw_position(), summary.entries);
            if obs.cancelled() {
                break;
            }
        }
    }
    let stats = indexer.reader().stats();
    summary.records += stats.records;
    summary.bytes_skipped += stats.bytes_skipped;
    summary.bytes_read += indexer.reader().raw_position();
    obs.progress(indexer.reader().raw_position(), summary.entries);
    Ok(())
}
