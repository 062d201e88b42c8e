//! Indexing on several cores.
//!
//! Work is cut into units: whole files, and for large per-record gzip files,
//! ranges that start at a gzip member holding the start of a record. Members
//! are independent, so each range decodes on its own (the idea of pugz and
//! rapidgzip, made simple by WARC's one-member-per-record layout). Workers
//! index units into buffers; the calling thread writes them in input order,
//! so the output is the same as with one core.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use crate::cdx::write_line;
use crate::error::{Error, ErrorKind};
use crate::index::{Event, Indexer};
use crate::inputs::index_filename;
use crate::pipeline::{IndexJob, Observer, Summary};
use crate::reader::ArchiveReader;
use crate::sort::ExternalSorter;
use crate::source::read_full;

/// Files larger than this are split into ranges (when they can be).
const SPLIT_ABOVE: u64 = 48 << 20;
/// Target size of a range.
const RANGE_BYTES: u64 = 32 << 20;

#[derive(Debug, Clone)]
struct Unit {
    file: usize,
    start: u64,
    /// The unit indexes records that start before this offset (None: to the end).
    end: Option<u64>,
    first_of_file: bool,
}

/// What a worker hands back for one unit.
#[derive(Default)]
struct Done {
    lines: Vec<u8>,
    /// Problems in order, `true` for skipped records.
    problems: Vec<(bool, Error)>,
    summary: Summary,
}

/// Indexes `files` on `jobs` threads into `out`, in input order.
pub fn run_index_parallel<W: Write>(
    files: &[PathBuf],
    job: &IndexJob,
    jobs: usize,
    out: &mut W,
    obs: &mut dyn Observer,
) -> io::Result<Summary> {
    let units = plan_units(files, job);
    let next_unit = AtomicUsize::new(0);
    let results: Mutex<BTreeMap<usize, Done>> = Mutex::new(BTreeMap::new());
    let ready = Condvar::new();
    let written = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let bytes_done = AtomicU64::new(0);
    // At most this many units are finished but not yet written (bounds memory).
    let window = jobs * 2;
    let mut summary = Summary::default();
    let mut sorter = job.sort.then(|| ExternalSorter::new(job.sort_budget, job.tmp_dir.clone()));
    let mut buffered = io::BufWriter::with_capacity(1 << 20, out);

    std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next_unit.fetch_add(1, Ordering::Relaxed);
                if i >= units.len() || stop.load(Ordering::Relaxed) {
                    return;
                }
                {
                    let mut r = results.lock().unwrap_or_else(|p| p.into_inner());
                    while i >= written.load(Ordering::Acquire) + window && !stop.load(Ordering::Relaxed) {
                        r = ready.wait(r).unwrap_or_else(|p| p.into_inner());
                    }
                }
                let done = index_unit(&units[i], files, job, &bytes_done);
                results.lock().unwrap_or_else(|p| p.into_inner()).insert(i, done);
                ready.notify_all();
            });
        }
        // The calling thread writes finished units in order.
        let outcome = (|| -> io::Result<()> {
            for i in 0..units.len() {
                let done = {
                    let mut r = results.lock().unwrap_or_else(|p| p.into_inner());
                    loop {
                        if let Some(d) = r.remove(&i) {
                            break d;
                        }
                        let (g, _) = ready
                            .wait_timeout(r, std::time::Duration::from_millis(100))
                            .unwrap_or_else(|p| p.into_inner());
                        r = g;
                        obs.progress(bytes_done.load(Ordering::Relaxed), summary.entries);
                        if obs.cancelled() {
                            return Ok(());
                        }
                    }
                };
                if units[i].first_of_file {
                    obs.file_started(&files[units[i].file]);
                }
                for (skipped, e) in &done.problems {
                    obs.problem(*skipped, e);
                }
                add(&mut summary, &done.summary);
                match sorter.as_mut() {
                    Some(s) => {
                        for l in done.lines.split_inclusive(|&b| b == b'\n') {
                            s.push(l)?;
                        }
                    }
                    None => buffered.write_all(&done.lines)?,
                }
                written.store(i + 1, Ordering::Release);
                ready.notify_all();
                obs.progress(bytes_done.load(Ordering::Relaxed), summary.entries);
                if job.strict && summary.skipped > 0 {
                    summary.stopped = true;
                    return Ok(());
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        ready.notify_all();
        outcome
    })?;
    if let Some(s) = sorter {
        s.finish(&mut buffered)?;
    }
    buffered.flush()?;
    Ok(summary)
}

fn add(total: &mut Summary, s: &Summary) {
    total.files += s.files;
    total.entries += s.entries;
    total.records += s.records;
    total.skipped += s.skipped;
    total.bytes_skipped += s.bytes_skipped;
    total.warnings += s.warnings;
    total.bytes_read += s.bytes_read;
    total.failed_files += s.failed_files;
}

/// Cuts the job into units. POST pairing looks across records, so with
/// `post_append` files are not split.
fn plan_units(files: &[PathBuf], job: &IndexJob) -> Vec<Unit> {
    let mut units = Vec::new();
    for (fi, path) in files.iter().enumerate() {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let mut starts = vec![0u64];
        if size > SPLIT_ABOVE && !job.options.post_append {
            if let Ok(mut f) = File::open(path) {
                if is_gzip(&mut f) {
                    let mut target = RANGE_BYTES;
                    while target + RANGE_BYTES / 2 < size {
                        match find_record_member(&mut f, target, RANGE_BYTES) {
                            Some(at) if at > *starts.last().expect("starts has 0") => {
                                starts.push(at);
                                target = at + RANGE_BYTES;
                            }
                            _ => break,
                        }
                    }
                }
            }
        }
        for (k, &start) in starts.iter().enumerate() {
            units.push(Unit { file: fi, start, end: starts.get(k + 1).copied(), first_of_file: k == 0 });
        }
    }
    units
}

fn is_gzip(f: &mut File) -> bool {
    let mut magic = [0u8; 2];
    f.seek(SeekFrom::Start(0)).is_ok() && f.read_exact(&mut magic).is_ok() && magic == [0x1f, 0x8b]
}

/// The offset of the first gzip member at or after `from` (within `limit`
/// bytes) whose content starts a WARC record. A candidate is checked by
/// decoding its first bytes, so a 1f 8b inside compressed data is not taken
/// for a member start.
pub fn find_record_member(f: &mut File, from: u64, limit: u64) -> Option<u64> {
    // Read a little at a time: records are small, so the first member start
    // is usually within the first window, and planning must not read the
    // whole file before the workers start.
    const WINDOW: usize = 256 << 10;
    // Bytes after a candidate that its check may need; candidates closer to
    // the window's end are looked at again from the next window.
    const MARGIN: usize = 4 << 10;
    let mut buf = vec![0u8; WINDOW];
    let mut base = from;
    while base < from + limit {
        f.seek(SeekFrom::Start(base)).ok()?;
        let n = read_full(f, &mut buf).ok()?;
        let at_eof = n < WINDOW;
        let hay = &buf[..n];
        let searchable = if at_eof { n } else { n - MARGIN };
        let mut i = 0;
        while let Some(j) = memchr::memmem::find(&hay[i..], &[0x1f, 0x8b, 0x08]) {
            let at = i + j;
            if at >= searchable {
                break;
            }
            if starts_record(&hay[at..]) {
                return Some(base + at as u64);
            }
            i = at + 1;
        }
        if at_eof {
            return None;
        }
        base += searchable as u64;
    }
    None
}

fn starts_record(member: &[u8]) -> bool {
    let mut d = flate2::bufread::GzDecoder::new(member);
    let mut head = [0u8; 16];
    read_full(&mut d, &mut head).is_ok_and(|got| head[..got].starts_with(b"WARC/"))
}

fn index_unit(unit: &Unit, files: &[PathBuf], job: &IndexJob, bytes_done: &AtomicU64) -> Done {
    let path = &files[unit.file];
    let name = path.display().to_string();
    let mut done = Done::default();
    if unit.first_of_file {
        done.summary.files = 1;
    }
    let header = job.format.header().filter(|_| unit.first_of_file);
    if let Some(h) = header {
        done.lines.extend_from_slice(h.as_bytes());
        done.lines.push(b'\n');
    }
    let file = match open_at(path, unit.start) {
        Ok(f) => f,
        Err(e) => {
            done.summary.failed_files += 1;
            done.summary.skipped += 1;
            done.problems.push((true, Error::new(ErrorKind::Io(format!("cannot open: {e}")), &name, None)));
            return done;
        }
    };
    let reader = match ArchiveReader::new_at(file, &name, unit.start) {
        Ok(r) => r,
        Err(e) => {
            let skipped = e.message() != "empty file";
            if skipped {
                done.summary.failed_files += 1;
                done.summary.skipped += 1;
            } else {
                done.summary.warnings += 1;
            }
            done.problems.push((skipped, e));
            return done;
        }
    };
    let mut options = job.options.clone();
    options.filename = index_filename(path, job.dir_root.as_deref());
    let mut indexer = Indexer::new(reader, options);
    if let Some(end) = unit.end {
        indexer.stop_before(end);
    }
    let mut line = String::with_capacity(1024);
    let past_end = |offset: Option<u64>| matches!((unit.end, offset), (Some(end), Some(o)) if o >= end);
    let mut last_pos = unit.start;
    while let Some(ev) = indexer.next_event() {
        match ev {
            Event::Entry(e) => {
                if past_end(Some(e.offset)) {
                    break;
                }
                line.clear();
                write_line(&mut line, job.format, &e);
                done.lines.extend_from_slice(line.as_bytes());
                done.summary.entries += 1;
            }
            Event::Skipped(e) => {
                if past_end(e.offset) {
                    break;
                }
                done.summary.skipped += 1;
                done.problems.push((true, e));
                if job.strict {
                    break;
                }
            }
            Event::Warning(e) => {
                if past_end(e.offset) {
                    continue;
                }
                done.summary.warnings += 1;
                done.problems.push((false, e));
            }
        }
        let pos = indexer.reader().raw_position();
        bytes_done.fetch_add(pos.saturating_sub(last_pos), Ordering::Relaxed);
        last_pos = pos;
    }
    let stats = indexer.reader().stats();
    done.summary.records += indexer.records_read();
    done.summary.bytes_skipped += stats.bytes_skipped;
    let end = unit.end.unwrap_or(u64::MAX).min(indexer.reader().raw_position());
    done.summary.bytes_read += end.saturating_sub(unit.start);
    done
}

fn open_at(path: &Path, start: u64) -> io::Result<File> {
    let mut f = File::open(path)?;
    f.seek(SeekFrom::Start(start))?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn record_members_are_found_and_false_magic_is_not() {
        // A member whose content is not a record start, holding gzip magic bytes.
        let decoy = member(b"\x1f\x8b\x08 not a record");
        let rec = member(b"WARC/1.0\r\nContent-Length: 0\r\n\r\n\r\n\r\n");
        let data = [b"\x1f\x8b\x08garbage".to_vec(), decoy.clone(), rec.clone()].concat();
        let path = std::env::temp_dir().join(format!("warcdex-par-{}.warc.gz", std::process::id()));
        std::fs::write(&path, &data).unwrap();
        let mut f = File::open(&path).unwrap();
        let at = find_record_member(&mut f, 0, 1 << 20).unwrap();
        assert_eq!(at as usize, 10 + decoy.len());
        assert_eq!(find_record_member(&mut f, at + 1, 1 << 20), None);
        std::fs::remove_file(path).unwrap();
    }
}
