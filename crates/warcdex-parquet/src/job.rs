//! A whole conversion: inputs → rows → sorted runs → partitioned files.
//!
//! Indexes are mostly written sorted (Common Crawl's, cdxj-indexer's), and
//! then the sort is wasted work: the first rows are held as for a sort and
//! watched; if they came in order, they are written and later rows go
//! straight to the files for as long as they stay in order. A row out of
//! order closes those files, and the rows from it on are sorted as usual
//! (into files of their own: every file stays sorted).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use warcdex_core::index::{Event, IndexEntry, IndexOptions, Indexer, Selection};
use warcdex_core::lines::for_each_line;
use warcdex_core::output::{Dataset, Mode as OutputMode};
use warcdex_core::reader::ArchiveReader;

use crate::capture::{parse_line, Capture, LineFormat};
use crate::inputs::{decoded, Counting, Input, Stdin};
use crate::row::{timestamp_millis, DeriveScratch, Row, RowRules, RowScratch};
use crate::schema::DEFAULT_PARTITION_BY;
use crate::sort::{RowSorter, DEFAULT_BUDGET};
use crate::writer::{DatasetWriter, Layout, WrittenFile};

#[derive(Debug, Clone)]
pub struct ParquetJob {
    pub rules: RowRules,
    pub layout: Layout,
    pub sort_budget: usize,
    pub tmp_dir: Option<PathBuf>,
    /// Rows watched before an input in order is written without the sort
    /// (0: always sort).
    pub probe_rows: u64,
    /// What to do when the output directory already holds a dataset.
    pub mode: OutputMode,
    /// Which records of WARC/ARC inputs become rows.
    pub records: Records,
}

/// Which records of an archive become rows.
#[derive(Debug, Clone, Default)]
pub enum Records {
    /// Captures, as Common Crawl's tables hold them: response, revisit and
    /// resource records of http(s) and ftp URLs (not `dns:` lookups, not
    /// crawler metadata or warcinfo).
    #[default]
    Captures,
    /// The records an index holds with this selection (`--records index`:
    /// cdxj-indexer's; `all`; a list of WARC-Types).
    Indexed(Selection),
}

impl Records {
    fn selection(&self) -> Selection {
        match self {
            Records::Captures => Selection::Types(["response", "revisit", "resource"].map(String::from).to_vec()),
            Records::Indexed(s) => s.clone(),
        }
    }

    fn keeps(&self, e: &IndexEntry) -> bool {
        match self {
            Records::Indexed(_) => true,
            Records::Captures => {
                let url = e.url.as_deref().unwrap_or("");
                let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
                // Page-dump segments' pages are captures of http(s) URLs too.
                matches!(scheme.as_deref(), Some("http" | "https" | "ftp"))
            }
        }
    }
}

/// Partitions an input in order may interleave (each keeps a file, and a
/// row group, open).
const STREAM_PARTITIONS: usize = 8;

impl Default for ParquetJob {
    fn default() -> Self {
        ParquetJob {
            rules: RowRules { crawl: None, partition_by: DEFAULT_PARTITION_BY.iter().map(|s| s.to_string()).collect() },
            layout: Layout::default(),
            sort_budget: DEFAULT_BUDGET,
            tmp_dir: None,
            probe_rows: 65_536,
            mode: OutputMode::New,
            records: Records::default(),
        }
    }
}

impl ParquetJob {
    /// Checks the partition columns (`crawl` and `subset`, each at most once).
    pub fn check(&self) -> Result<(), String> {
        let by = &self.rules.partition_by;
        for (i, c) in by.iter().enumerate() {
            if !DEFAULT_PARTITION_BY.contains(&c.as_str()) {
                return Err(format!("cannot partition by '{c}': the partition columns are crawl and subset"));
            }
            if by[..i].contains(c) {
                return Err(format!("partition column '{c}' given twice"));
            }
        }
        if self.layout.max_file_rows == 0 {
            return Err("--max-file-rows must be at least 1".into());
        }
        Ok(())
    }
}

#[derive(Debug, Default, Clone)]
pub struct Summary {
    pub inputs: u64,
    pub rows: u64,
    /// Lines or records that gave no row.
    pub skipped: u64,
    pub warnings: u64,
    pub bytes_read: u64,
    pub spilled_runs: u64,
    /// Rows written as they came, without the sort (the input was in order).
    pub streamed_rows: u64,
    /// Files written, under their final names (none when cancelled).
    pub files: Vec<WrittenFile>,
    /// Parquet files and rows the output held before (`--mode append`).
    pub existing_files: u64,
    pub existing_rows: u64,
}

pub trait Observer {
    /// A line or record that gave no row (skipped) or a warning.
    fn problem(&mut self, _skipped: bool, _message: &str) {}
    /// Raw input bytes read so far, rows so far.
    fn progress(&mut self, _bytes: u64, _rows: u64) {}
    /// Something the user should know that is not about the input (the
    /// leftovers of an interrupted run, removed).
    fn note(&mut self, _message: &str) {}
    fn cancelled(&self) -> bool {
        false
    }
}

pub struct NoObserver;
impl Observer for NoObserver {}

/// Where rows go: held for the sort while the first ones are watched,
/// straight to the files, or to the sort for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Probe,
    Stream,
    Sort,
}

/// The last (SURT key, fetch time) of each partition, to see whether rows
/// come in the order the sort would give them.
#[derive(Default)]
struct InOrder {
    last: Vec<(String, Vec<u8>, i64)>,
}

impl InOrder {
    /// Whether the row follows the last one of its partition (recorded if
    /// so); `false` too for one partition more than the files may keep open.
    fn next(&mut self, partition: &str, key: &str, fetch_time: i64) -> bool {
        let Some(i) = self.last.iter().position(|(p, ..)| p == partition) else {
            if self.last.len() >= STREAM_PARTITIONS {
                return false;
            }
            self.last.push((partition.to_string(), key.as_bytes().to_vec(), fetch_time));
            return true;
        };
        let (_, k, t) = &mut self.last[i];
        if (key.as_bytes(), fetch_time) < (&k[..], *t) {
            return false;
        }
        k.clear();
        k.extend_from_slice(key.as_bytes());
        *t = fetch_time;
        true
    }
}

struct Ctx<'a> {
    job: &'a ParquetJob,
    sorter: RowSorter,
    scratch: DeriveScratch,
    mode: Mode,
    in_order: InOrder,
    writer: DatasetWriter,
    summary: Summary,
    counter: Arc<AtomicU64>,
    obs: &'a mut dyn Observer,
}

impl Ctx<'_> {
    fn add(&mut self, c: &Capture<'_>, whence: impl FnOnce() -> String) -> io::Result<()> {
        // Rows in order are derived and written at once (`stream`); the
        // others are derived after the sort (`run`), which needs only the
        // placement (partition, segment) and the fetch time.
        match timestamp_millis(&c.timestamp) {
            Some(fetch_time) => {
                if self.mode == Mode::Stream && self.stream(c, fetch_time)? {
                    // Written.
                } else {
                    let placement = self.scratch.placement(c, &self.job.rules);
                    if self.mode == Mode::Probe && !self.in_order.next(placement.partition, &c.urlkey, fetch_time) {
                        self.mode = Mode::Sort;
                    }
                    self.sorter.push(&placement, fetch_time, c)?;
                    if self.mode == Mode::Probe && self.summary.rows + 1 >= self.job.probe_rows {
                        self.start_streaming()?;
                    }
                }
                self.summary.rows += 1;
                if self.summary.rows % 4096 == 0 {
                    self.obs.progress(self.counter.load(Ordering::Relaxed), self.summary.rows);
                }
            }
            None => {
                self.summary.skipped += 1;
                self.obs.problem(true, &format!("{}: bad timestamp '{}'", whence(), c.timestamp));
            }
        }
        Ok(())
    }

    /// Writes the row of `c` if it comes in order; `false` (and the sort
    /// for every row from it on) if not.
    fn stream(&mut self, c: &Capture<'_>, fetch_time: i64) -> io::Result<bool> {
        let row = Row::derive_timed(c, fetch_time, &self.job.rules, &mut self.scratch);
        if self.in_order.next(&row.partition, &c.urlkey, fetch_time) {
            self.writer.push(&row)?;
            self.summary.streamed_rows += 1;
            return Ok(true);
        }
        // The files so far hold every row before this one, in order.
        self.writer.close_all()?;
        self.writer.set_max_open(1)?;
        self.mode = Mode::Sort;
        Ok(false)
    }

    /// The rows held so far came in order: written as they are (the sort
    /// keeps arrival order), and later rows go straight to the files.
    fn start_streaming(&mut self) -> io::Result<()> {
        let held = std::mem::replace(&mut self.sorter, RowSorter::new(self.job.sort_budget, self.job.tmp_dir.clone()));
        self.summary.spilled_runs += held.spilled_runs() as u64;
        self.writer.set_max_open(STREAM_PARTITIONS)?;
        self.summary.streamed_rows += write_sorted(held, &mut self.writer, &*self.obs)?;
        self.mode = Mode::Stream;
        Ok(())
    }

    fn index_lines(&mut self, name: &str, src: Box<dyn io::Read + Send>) -> io::Result<()> {
        let mut r = decoded(Box::new(Counting::new(src, self.counter.clone())))?;
        let mut format = LineFormat::Auto;
        let mut lineno = 0u64;
        for_each_line(&mut *r, |bytes| {
            lineno += 1;
            // Strict UTF-8 is checked far faster than the lossy path walks
            // it, and simdutf8's vector check faster than std's.
            let line = match simdutf8::basic::from_utf8(bytes) {
                Ok(s) => std::borrow::Cow::Borrowed(s),
                Err(_) => String::from_utf8_lossy(bytes),
            };
            let line = line.trim_end_matches('\r');
            if line.is_empty() {
                return Ok(true);
            }
            if line.starts_with(" CDX") || line.starts_with("CDX ") {
                format = LineFormat::from_header(line).unwrap_or(LineFormat::Auto);
                return Ok(true);
            }
            if line.starts_with("!meta") || line.starts_with('#') {
                return Ok(true); // pywb/ipwb metadata lines
            }
            // Borrowed where it lies (`Ok(c)` moved the 336-byte capture).
            match parse_line(line, format) {
                Ok(ref c) => self.add(c, || format!("{name}:{lineno}"))?,
                Err(e) => {
                    self.summary.skipped += 1;
                    self.obs.problem(true, &format!("{name}:{lineno}: {e}"));
                }
            }
            Ok(lineno % 65536 != 0 || !self.obs.cancelled())
        })
    }

    /// An input that could not be opened: reported, and the job goes on.
    fn unreadable(&mut self, message: &str) {
        self.summary.skipped += 1;
        self.obs.problem(true, message);
    }

    fn archive(&mut self, path: &Path) -> io::Result<()> {
        let name = path.display().to_string();
        let options = IndexOptions { filename: warcdex_core::inputs::index_filename(path, None), selection: self.job.records.selection(), ..Default::default() };
        // Inputs another crate indexes (page-dump segments) come as the same events.
        if let Some(r) = warcdex_core::foreign::index_events(path, &options, &mut |ev| self.event(ev, &name)) {
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            self.counter.fetch_add(size, Ordering::Relaxed);
            return r;
        }
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => {
                self.unreadable(&format!("{name}: cannot open: {e}"));
                return Ok(());
            }
        };
        let reader = match ArchiveReader::new(Counting::new(file, self.counter.clone()), &name) {
            Ok(r) => r,
            Err(e) => {
                self.summary.skipped += 1;
                self.obs.problem(true, &e.to_string());
                return Ok(());
            }
        };
        let mut indexer = Indexer::new(reader, options);
        while let Some(ev) = indexer.next_event() {
            self.event(ev, &name)?;
            if self.obs.cancelled() {
                break;
            }
        }
        Ok(())
    }

    fn event(&mut self, ev: Event, name: &str) -> io::Result<()> {
        match ev {
            Event::Entry(e) if self.job.records.keeps(&e) => self.add(&capture_of(&e), || format!("{name}@{}", e.offset))?,
            Event::Entry(_) => {}
            Event::Skipped(e) => {
                self.summary.skipped += 1;
                self.obs.problem(true, &e.to_string());
            }
            Event::Warning(e) => {
                self.summary.warnings += 1;
                self.obs.problem(false, &e.to_string());
            }
        }
        Ok(())
    }
}

/// The CDXJ fields of an index entry, as cdxj-indexer would write them.
fn capture_of(e: &IndexEntry) -> Capture<'_> {
    fn b(s: &Option<String>) -> Option<std::borrow::Cow<'_, str>> {
        s.as_deref().map(Into::into)
    }
    Capture {
        urlkey: e.urlkey.as_str().into(),
        timestamp: e.timestamp.as_str().into(),
        url: b(&e.url),
        mime: b(&e.mime),
        status: b(&e.status),
        digest: b(&e.digest),
        length: Some(e.length.to_string().into()),
        offset: Some(e.offset.to_string().into()),
        filename: Some(e.filename.to_string().into()),
        redirect: b(&e.redirect),
        ..Default::default()
    }
}

/// Converts `inputs` into a dataset under `out_dir`. The files are staged
/// and published together when every input is read (see
/// `warcdex_core::output`); a cancelled run publishes nothing.
pub fn run(inputs: &[Input], out_dir: &Path, job: &ParquetJob, obs: &mut dyn Observer) -> io::Result<Summary> {
    let dataset = Dataset::begin(out_dir, job.mode)?;
    for n in &dataset.notes {
        obs.note(n);
    }
    let (existing_files, existing_rows) = count_rows(out_dir, &dataset.existing)?;
    let mut ctx = Ctx {
        job,
        sorter: RowSorter::new(job.sort_budget, job.tmp_dir.clone()),
        scratch: DeriveScratch::default(),
        mode: if job.probe_rows == 0 { Mode::Sort } else { Mode::Probe },
        in_order: InOrder::default(),
        writer: DatasetWriter::new(dataset.root(), job.layout.clone(), dataset.run_id(), dataset.staged_suffix())?,
        summary: Summary { existing_files, existing_rows, ..Summary::default() },
        counter: Arc::new(AtomicU64::new(0)),
        obs,
    };
    for input in inputs {
        if ctx.obs.cancelled() {
            break;
        }
        ctx.summary.inputs += 1;
        match input {
            Input::Archive(p) => ctx.archive(p)?,
            Input::Index(p) => match File::open(p) {
                Ok(f) => ctx.index_lines(&p.display().to_string(), Box::new(f))?,
                Err(e) => ctx.unreadable(&format!("{}: cannot open: {e}", p.display())),
            },
            Input::Stdin => ctx.index_lines("<stdin>", Box::new(Stdin))?,
            Input::Unreadable(message) => ctx.unreadable(message),
        }
    }
    if ctx.obs.cancelled() {
        // Dropped, the dataset removes what was staged.
        return Ok(Summary { files: Vec::new(), ..ctx.summary });
    }
    if ctx.mode == Mode::Probe {
        // Every row came in order: written as it came.
        ctx.start_streaming()?;
    }
    let Ctx { sorter, mut summary, counter, obs, mut writer, .. } = ctx;
    summary.bytes_read = counter.load(Ordering::Relaxed);
    summary.spilled_runs += sorter.spilled_runs() as u64;
    obs.progress(summary.bytes_read, summary.rows);
    match write_sorted(sorter, &mut writer, &*obs) {
        Err(_) if obs.cancelled() => return Ok(Summary { files: Vec::new(), ..summary }),
        r => r?,
    };
    summary.files = writer.finish()?;
    for f in &mut summary.files {
        f.path = dataset.final_path(&f.path);
    }
    dataset.commit()?;
    Ok(summary)
}

/// The Parquet files among `files` (relative to `dir`) and their rows, from
/// the footers.
fn count_rows(dir: &Path, files: &[PathBuf]) -> io::Result<(u64, u64)> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let (mut n, mut rows) = (0, 0);
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "parquet")) {
        let p = dir.join(f);
        let file = File::open(&p).map_err(|e| warcdex_core::output::at_path(&p, e))?;
        let reader = SerializedFileReader::new(file).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", p.display())))?;
        rows += reader.metadata().file_metadata().num_rows() as u64;
        n += 1;
    }
    Ok((n, rows))
}

/// The sorter's rows, derived in order into `writer`; how many. Stops with
/// an error when the job is cancelled (this walk can take minutes).
fn write_sorted(sorter: RowSorter, writer: &mut DatasetWriter, obs: &dyn Observer) -> io::Result<u64> {
    // Partition and segment come with the record: found once, before the sort.
    let mut scratch = RowScratch::default();
    let mut n = 0;
    sorter.finish(&mut |r| {
        n += 1;
        if n % 65_536 == 0 && obs.cancelled() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "cancelled"));
        }
        writer.push(&Row::derive_at(&r.capture, r.fetch_time, r.placement(), &mut scratch))
    })?;
    Ok(n)
}
