//! Captures sorted by (partition, url_surtkey, fetch_time, arrival) in
//! bounded memory: sorted runs are spilled to temporary files and merged at
//! the end.
//!
//! Captures are kept as sort records ([`record::encode`]) in one arena, so
//! a row costs no allocation and the budget counts real bytes; the sort
//! moves small keys that point into the arena.
//!
//! The arena is cut into chunks, each holding records of one range of SURT
//! keys (a bucket; the ranges are quantiles of the keys seen first). The
//! sorted walk then reads a bucket's records while they are in the cache,
//! where records placed in arrival order put every row a cache miss away
//! from the last: that walk cost as much as writing the run to disk and
//! reading it back (benches/README.md).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use crate::capture::Capture;
use crate::record::{self, check_sort_key, sort_key, Names, Record};
use crate::row::Placement;

/// Memory for rows held before a run is spilled (arena and keys).
pub const DEFAULT_BUDGET: usize = 512 << 20;

/// Runs spilled as they are before later ones are zstd-compressed: a
/// conversion that spills a little stays as fast as it was, one that spills
/// a lot (100 million rows spill about 60 GB of encoded rows) needs a third
/// of the disk for the price of a fast zstd level.
const PLAIN_RUNS: usize = 4;
/// zstd's fastest levels: about 1 GB/s, and rows of URLs still shrink ~3x.
const RUN_LEVEL: i32 = -1;
/// A small window keeps each run's decoder small in the merge (hundreds of runs).
const RUN_WINDOW_LOG: u32 = 17;
/// How many records ahead the sorted walk prefetches.
const PREFETCH: usize = 16;
/// Bytes of a bucket's chunk: a few hundred CC-style records.
const CHUNK: usize = 64 << 10;
/// Buckets at most; fewer for a small budget, so that the chunks being
/// filled (half empty on average when a run is spilled) take at most a
/// sixteenth of it. 256 buckets of a 512 MiB run are about 2 MiB each,
/// an L2 cache.
const MAX_BUCKETS: usize = 256;
/// The arena's first size at most (a larger budget grows it as it fills).
const MAX_FIRST_ARENA: usize = 1 << 30;
/// Rows placed in arrival order before the first run's buckets are chosen
/// from their keys.
const SAMPLE: usize = 8192;

/// A spilled run, compressed or not.
struct Run {
    file: File,
    compressed: bool,
}

/// One arena record. `part` and the prefixes settle most comparisons without
/// touching the arena: `part` is the partition's rank in name order (its
/// number until the sort), `prefix` the surtkey's first 32 bytes
/// as big-endian words (zero-padded: equal prefixes fall back to the full
/// key, which is read from the arena, a cache miss away; a host's keys
/// share their first 16 bytes). Words, not `u128`s: 48 bytes a key, not 64.
#[derive(Clone, Copy)]
struct Key {
    part: u32,
    /// The record's size with its length prefix (for [`prefetch`]; the key
    /// has room for it beside `part`).
    len: u32,
    prefix: [u64; 4],
    /// Offset of the record's length prefix: also the arrival order among
    /// equal keys (which share a bucket, whose chunks are taken in order),
    /// which breaks ties so the sort is stable.
    off: usize,
}

/// The order of two keys by partition rank and prefix (`Equal`: their
/// records decide). Word by word with early exits: the tuple's compare
/// took a generic loop, a quarter of the sort's instructions.
#[inline(always)]
fn prefix_order(a: &Key, b: &Key) -> Ordering {
    if a.part != b.part {
        return a.part.cmp(&b.part);
    }
    for i in 0..4 {
        if a.prefix[i] != b.prefix[i] {
            return a.prefix[i].cmp(&b.prefix[i]);
        }
    }
    Ordering::Equal
}

/// The order of two records with equal prefixes: whole key, fetch time,
/// arrival.
#[cold]
#[inline(never)]
fn record_order(arena: &[u8], a: &Key, b: &Key) -> Ordering {
    let (_, ka, ta) = sort_key(body(arena, a.off));
    let (_, kb, tb) = sort_key(body(arena, b.off));
    ka.cmp(kb).then(ta.cmp(&tb)).then(a.off.cmp(&b.off))
}

fn prefix_of(k: &[u8]) -> [u64; 4] {
    let mut b = [0u8; 32];
    let n = k.len().min(32);
    b[..n].copy_from_slice(&k[..n]);
    std::array::from_fn(|i| u64::from_be_bytes(b[8 * i..8 * i + 8].try_into().unwrap()))
}

/// A hint to load the record of `k`, every cache line of it: the walk
/// reads all its bytes (a CC-style record spans six lines; loading only the
/// first two left the others to stall).
#[inline]
fn prefetch(arena: &[u8], k: &Key) {
    #[cfg(target_arch = "x86_64")]
    if k.off + k.len as usize <= arena.len() {
        // SAFETY: a prefetch is only a hint, and the addresses are inside the arena.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let start = arena.as_ptr().add(k.off);
            let mut line = (start as usize & !63) as *const i8;
            let end = start.add(k.len as usize) as *const i8;
            while line < end {
                _mm_prefetch(line, _MM_HINT_T0);
                line = line.wrapping_add(64);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (arena, k);
}

fn body(arena: &[u8], off: usize) -> &[u8] {
    let len = u32::from_le_bytes(arena[off..off + 4].try_into().unwrap()) as usize;
    &arena[off + 4..off + 4 + len]
}

pub struct RowSorter {
    budget: usize,
    tmp_dir: Option<PathBuf>,
    /// Allocated zeroed at the first row (the OS maps its pages as they are
    /// written); records lie in `arena[..top]`.
    arena: Vec<u8>,
    top: usize,
    keys: Vec<Key>,
    /// The record being placed, encoded before its size is known.
    scratch: Vec<u8>,
    chunk: usize,
    /// Rows of the first run placed in arrival order before buckets are chosen.
    sample: usize,
    /// Bucket `i` holds keys whose first 8 bytes are below `bounds[i]` and
    /// not below `bounds[i - 1]`; empty while rows are placed in arrival
    /// order (the first run's first rows, or a budget too small to bucket).
    bounds: Vec<u64>,
    /// Each bucket's free space in its current chunk.
    free: Vec<std::ops::Range<usize>>,
    /// The partitions and file-name stems the records name by number.
    names: Names,
    runs: Vec<Run>,
}

impl RowSorter {
    pub fn new(budget: usize, tmp_dir: Option<PathBuf>) -> RowSorter {
        RowSorter::with_chunk(budget, tmp_dir, CHUNK, SAMPLE)
    }

    /// [`RowSorter::new`] with the chunk size and the first run's sample
    /// set (the tests bucket a few rows with small ones).
    fn with_chunk(budget: usize, tmp_dir: Option<PathBuf>, chunk: usize, sample: usize) -> RowSorter {
        RowSorter {
            budget,
            tmp_dir,
            arena: Vec::new(),
            top: 0,
            keys: Vec::new(),
            scratch: Vec::new(),
            chunk,
            sample,
            bounds: Vec::new(),
            free: Vec::new(),
            names: Names::default(),
            runs: Vec::new(),
        }
    }

    /// Keeps a capture fetched at `fetch_time`, placed before the sort.
    pub fn push(&mut self, placement: &Placement<'_>, fetch_time: i64, c: &Capture<'_>) -> io::Result<()> {
        self.scratch.clear();
        let part = record::encode(&mut self.names, placement, fetch_time, c, &mut self.scratch);
        let prefix = prefix_of(c.urlkey.as_bytes());
        let len = self.scratch.len();
        let off = self.place(prefix[0], len);
        self.arena[off..off + len].copy_from_slice(&self.scratch);
        self.keys.push(Key { part, len: len as u32, prefix, off });
        if self.keys.len() == self.sample && self.runs.is_empty() {
            self.choose_buckets();
        }
        if self.top + self.keys.len() * std::mem::size_of::<Key>() >= self.budget {
            self.spill()?;
        }
        Ok(())
    }

    /// Where a record of `len` bytes whose key starts with `first` goes.
    fn place(&mut self, first: u64, len: usize) -> usize {
        if self.bounds.is_empty() {
            return self.take(len);
        }
        let b = self.bounds.partition_point(|&x| x <= first);
        if self.free[b].len() < len {
            // The rest of the chunk stays empty. Chunks are taken in
            // order, so a bucket's offsets still follow arrival.
            let size = self.chunk.max(len);
            let start = self.take(size);
            self.free[b] = start..start + size;
        }
        let off = self.free[b].start;
        self.free[b].start += len;
        off
    }

    /// The next `n` bytes of the arena.
    fn take(&mut self, n: usize) -> usize {
        let off = self.top;
        self.top += n;
        if self.top > self.arena.len() {
            if self.arena.is_empty() {
                // Zeroed memory comes from the OS untouched: no page is
                // written before a record is.
                self.arena = vec![0; self.budget.min(MAX_FIRST_ARENA).max(self.top)];
            } else {
                // Past the budget by one chunk or one large record.
                self.arena.resize(self.top.max(self.arena.len() * 2), 0);
            }
        }
        off
    }

    /// Buckets with equal shares of the held keys' first 8 bytes (about
    /// `sample` of them), as many as the budget affords.
    fn choose_buckets(&mut self) {
        let n = (self.budget / (16 * self.chunk)).min(MAX_BUCKETS);
        self.bounds.clear();
        self.free.clear();
        let step = (self.keys.len() / self.sample).max(1);
        let mut firsts: Vec<u64> = self.keys.iter().step_by(step).map(|k| k.prefix[0]).collect();
        firsts.sort_unstable();
        if n < 2 || firsts.is_empty() {
            return;
        }
        self.bounds.extend((1..n).map(|i| firsts[i * firsts.len() / n]));
        self.bounds.dedup();
        self.free.resize(self.bounds.len() + 1, 0..0);
    }

    /// Sorts the keys of the rows held.
    fn sort(&mut self) {
        let rank = self.names.partition_ranks();
        for k in &mut self.keys {
            k.part = rank[k.part as usize];
        }
        let arena = &self.arena;
        self.keys.sort_unstable_by(|a, b| match prefix_order(a, b) {
            Ordering::Equal => record_order(arena, a, b),
            o => o,
        });
    }

    /// Asks the CPU for the start of the record the sorted walk reads
    /// `PREFETCH` steps later: the walk jumps around an arena far larger
    /// than the caches, and each record would otherwise stall on memory.
    #[inline]
    fn prefetch(&self, i: usize) {
        if let Some(k) = self.keys.get(i) {
            prefetch(&self.arena, k);
        }
    }

    pub fn spilled_runs(&self) -> usize {
        self.runs.len()
    }

    fn spill(&mut self) -> io::Result<()> {
        self.sort();
        let compressed = self.runs.len() >= PLAIN_RUNS;
        let dir = self.tmp_dir.clone().unwrap_or_else(std::env::temp_dir);
        let write = || -> io::Result<File> {
            // Unlinked at once: the run's space is freed however the process ends.
            let mut f = tempfile::tempfile_in(&dir)?;
            let mut w = BufWriter::with_capacity(1 << 20, &mut f);
            if compressed {
                let mut z = zstd::stream::write::Encoder::new(&mut w, RUN_LEVEL)?;
                z.window_log(RUN_WINDOW_LOG)?;
                self.write_run(&mut z)?;
                z.finish()?;
            } else {
                self.write_run(&mut w)?;
            }
            w.flush()?;
            drop(w);
            f.seek(SeekFrom::Start(0))?;
            Ok(f)
        };
        let f = write().map_err(|e| warcdex_core::output::at_path(&dir, io::Error::new(e.kind(), format!("spilling sorted rows: {e}"))))?;
        self.runs.push(Run { file: f, compressed });
        // The next run takes buckets from this one's keys, and keeps the
        // arena (its pages are mapped).
        self.choose_buckets();
        self.top = 0;
        self.keys.clear();
        Ok(())
    }

    fn write_run(&self, w: &mut impl Write) -> io::Result<()> {
        for (i, k) in self.keys.iter().enumerate() {
            self.prefetch(i + PREFETCH);
            let len = body(&self.arena, k.off).len();
            w.write_all(&self.arena[k.off..k.off + 4 + len])?;
        }
        Ok(())
    }

    /// Hands every capture to `sink` in order.
    pub fn finish(mut self, sink: &mut dyn FnMut(&Record<'_>) -> io::Result<()>) -> io::Result<()> {
        // A file name kept by its stem is put back together here.
        let mut file = String::new();
        if self.runs.is_empty() {
            self.sort();
            for (i, k) in self.keys.iter().enumerate() {
                self.prefetch(i + PREFETCH);
                // SAFETY: the arena holds only records `push` encoded from `str`s.
                hand(unsafe { Record::decode_unchecked(body(&self.arena, k.off), &self.names, &mut file) }, sink)?;
            }
            return Ok(());
        }
        // The rows still held join the merge from memory: writing them out
        // only to read them back cost a second pass through the disk. The
        // arena is no larger than while it was filling.
        self.sort();
        let arena = std::mem::take(&mut self.arena);
        let held = std::mem::take(&mut self.keys);
        let names = std::mem::take(&mut self.names);
        let rank = names.partition_ranks();
        let mut readers: Vec<RunReader> = Vec::with_capacity(self.runs.len() + 1);
        for run in self.runs.drain(..) {
            readers.push(RunReader::Disk(if run.compressed {
                let mut d = zstd::stream::read::Decoder::with_buffer(BufReader::with_capacity(64 << 10, run.file))?;
                d.window_log_max(RUN_WINDOW_LOG)?;
                // zstd's output comes in blocks; a small buffer keeps reads of one record cheap.
                Box::new(BufReader::with_capacity(64 << 10, d))
            } else {
                Box::new(BufReader::with_capacity(256 << 10, run.file))
            }));
        }
        // Last: the held rows arrived after every spilled one (ties go by run).
        readers.push(RunReader::Memory { keys: held, next: 0 });
        let mut heap = BinaryHeap::with_capacity(readers.len());
        for (run, r) in readers.iter_mut().enumerate() {
            let mut rec = Rec::Read(Vec::new());
            if r.next(&arena, &mut rec)? {
                heap.push(Head::new(rec, run, &rank)?);
            }
        }
        while let Some(mut top) = heap.peek_mut() {
            let rec = match &top.rec {
                // Checked: runs come back from disk.
                Rec::Read(buf) => Record::decode(buf, &names, &mut file),
                // SAFETY: the arena holds only records `push` encoded from `str`s.
                Rec::Held(body) => unsafe { Record::decode_unchecked(body, &names, &mut file) },
            };
            hand(rec, sink)?;
            // Refill the head in place: no allocation per row.
            let run = top.run;
            if readers[run].next(&arena, &mut top.rec)? {
                top.rank = part_rank(&rank, top.rec.body())?;
            } else {
                std::collections::binary_heap::PeekMut::pop(top);
            }
        }
        Ok(())
    }
}

/// Gives a decoded record to `sink` where it lies: taken out of its
/// `Result` first (`?`), the 360-byte record was copied once a row.
#[inline(always)]
fn hand(rec: io::Result<Record<'_>>, sink: &mut dyn FnMut(&Record<'_>) -> io::Result<()>) -> io::Result<()> {
    match rec {
        Ok(ref r) => sink(r),
        Err(e) => Err(e),
    }
}

/// A run in the merge: spilled, or the rows still in the arena.
enum RunReader {
    Disk(Box<dyn Read>),
    Memory { keys: Vec<Key>, next: usize },
}

/// A record in the merge: read back into a buffer, or still in the arena
/// (neither copied nor checked again).
enum Rec<'a> {
    Read(Vec<u8>),
    Held(&'a [u8]),
}

impl Rec<'_> {
    fn body(&self) -> &[u8] {
        match self {
            Rec::Read(b) => b,
            Rec::Held(b) => b,
        }
    }
}

impl RunReader {
    /// The run's next record into `rec` (its buffer reused); `false` at the end.
    fn next<'a>(&mut self, arena: &'a [u8], rec: &mut Rec<'a>) -> io::Result<bool> {
        match self {
            RunReader::Disk(r) => {
                let Rec::Read(buf) = rec else { unreachable!("a spilled run's head holds its own buffer") };
                read_record(r, buf)
            }
            RunReader::Memory { keys, next } => {
                let Some(k) = keys.get(*next) else { return Ok(false) };
                if let Some(ahead) = keys.get(*next + PREFETCH) {
                    prefetch(arena, ahead);
                }
                *next += 1;
                *rec = Rec::Held(body(arena, k.off));
                Ok(true)
            }
        }
    }
}

/// The next record body of a run into `buf`; `false` at the end.
fn read_record(r: &mut impl Read, buf: &mut Vec<u8>) -> io::Result<bool> {
    let mut len = [0u8; 4];
    match r.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
        Err(e) => return Err(e),
    }
    buf.resize(u32::from_le_bytes(len) as usize, 0);
    r.read_exact(buf)?;
    check_sort_key(buf)?;
    Ok(true)
}

/// A run's current record in the merge.
struct Head<'a> {
    rec: Rec<'a>,
    /// Its partition's rank in name order.
    rank: u32,
    run: usize,
}

impl<'a> Head<'a> {
    fn new(rec: Rec<'a>, run: usize, rank: &[u32]) -> io::Result<Head<'a>> {
        Ok(Head { rank: part_rank(rank, rec.body())?, rec, run })
    }
}

/// The rank of a record's partition (a number read back from disk is checked).
fn part_rank(rank: &[u32], body: &[u8]) -> io::Result<u32> {
    rank.get(sort_key(body).0 as usize).copied().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "corrupt sort record"))
}

impl PartialEq for Head<'_> {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Head<'_> {}
impl PartialOrd for Head<'_> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Head<'_> {
    // Reversed for a min-heap. Runs hold consecutive stretches of the input,
    // so the run index breaks ties in arrival order, as within a run.
    fn cmp(&self, o: &Self) -> Ordering {
        let (_, ka, ta) = sort_key(self.rec.body());
        let (_, kb, tb) = sort_key(o.rec.body());
        (o.rank, kb, tb, o.run).cmp(&(self.rank, ka, ta, self.run))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the tests sort: partition, fetch time and a capture.
    #[derive(Debug, Clone, PartialEq)]
    struct Item {
        partition: String,
        fetch_time: i64,
        capture: Capture<'static>,
    }

    fn placement(it: &Item) -> Placement<'_> {
        Placement { partition: &it.partition, segment: 0..0 }
    }

    fn push(s: &mut RowSorter, it: &Item) {
        s.push(&placement(it), it.fetch_time, &it.capture).unwrap();
    }

    fn sorted(budget: usize, items: &[Item]) -> (usize, Vec<Item>) {
        sorted_by(RowSorter::new(budget, None), items)
    }

    fn sorted_by(mut s: RowSorter, items: &[Item]) -> (usize, Vec<Item>) {
        for it in items {
            push(&mut s, it);
        }
        let runs = s.spilled_runs();
        let mut got = Vec::new();
        s.finish(&mut |r| {
            let c = &r.capture;
            let own = |v: &Option<std::borrow::Cow<'_, str>>| v.as_deref().map(|s| s.to_string().into());
            got.push(Item {
                partition: r.partition.to_string(),
                fetch_time: r.fetch_time,
                capture: Capture { urlkey: c.urlkey.to_string().into(), url: own(&c.url), offset: own(&c.offset), filename: own(&c.filename), ..Default::default() },
            });
            Ok(())
        })
        .unwrap();
        (runs, got)
    }

    /// Captures with equal sort keys but different contents, so that the
    /// order of ties is visible; SURT keys share long prefixes, some differ
    /// only past 16 or 32 bytes or in length.
    fn rows() -> Vec<Item> {
        (0..3000u32)
            .map(|i| {
                let k = (i * 7919) % 1000;
                Item {
                    partition: format!("p={}", ["b", "a", "c", "a/b"][(k % 4) as usize]),
                    fetch_time: (k % 2) as i64,
                    capture: Capture {
                        // Half the keys differ only past the 32-byte prefix.
                        urlkey: format!("com,example)/{}{:03}{}", if k % 5 < 2 { "" } else { "path/of/twenty/chars" }, k / 3, if k % 3 == 0 { "" } else { "x" }).into(),
                        offset: Some(i.to_string().into()),
                        url: (i % 5 == 0).then(|| format!("http://example.com/?q{i}").into()),
                        // Names with a few stems (kept by number), or none.
                        filename: (i % 7 != 0).then(|| format!("{}f{i}.warc.gz", ["", "a/", "a/b/", "crawl-data/x/"][(i % 4) as usize]).into()),
                        ..Default::default()
                    },
                }
            })
            .collect()
    }

    fn want(rows: &[Item]) -> Vec<Item> {
        let mut want = rows.to_vec();
        // Stable: ties keep arrival order.
        want.sort_by(|a, b| (&a.partition, &a.capture.urlkey, a.fetch_time).cmp(&(&b.partition, &b.capture.urlkey, b.fetch_time)));
        want
    }

    #[test]
    fn in_memory_sort_is_stable() {
        let rows = rows();
        let (runs, got) = sorted(DEFAULT_BUDGET, &rows);
        assert_eq!(runs, 0);
        assert_eq!(got, want(&rows));
    }

    /// [`rows`] each three times in a row, told apart by their offset: ties
    /// that share a chunk.
    fn triples() -> Vec<Item> {
        rows()
            .into_iter()
            .flat_map(|it| {
                (0..3).map(move |j| {
                    let mut it = it.clone();
                    it.capture.offset = Some(format!("{}-{j}", it.capture.offset.as_deref().unwrap_or("")).into());
                    it
                })
            })
            .collect()
    }

    /// [`triples`], each changed by `f` with its index.
    fn triples_with(f: impl Fn(usize, &mut Item)) -> Vec<Item> {
        let mut rows = triples();
        for (i, it) in rows.iter_mut().enumerate() {
            f(i, it);
        }
        rows
    }

    #[test]
    fn bucketed_sort_is_stable() {
        let rows = triples();
        let mut s = RowSorter::with_chunk(DEFAULT_BUDGET, None, 256, 500);
        for r in &rows {
            push(&mut s, r);
        }
        // The keys' first 8 bytes are all "com,exam": one bucket of many
        // chunks; equal keys in one chunk and in chunks far apart.
        assert_eq!(s.bounds.len(), 1);
        assert!(s.free[1].end > 0 && s.free[0].end == 0, "rows went to the second bucket's chunks");
        let (runs, got) = sorted_by(s, &[]);
        assert_eq!(runs, 0);
        assert_eq!(got, want(&rows));
    }

    #[test]
    fn buckets_split_keys_and_keep_ties_in_arrival_order() {
        // Keys spread over many first bytes, each key several times.
        let rows = triples_with(|i, it| it.capture.urlkey = format!("{:02},{}", (i / 3 * 37) % 97, it.capture.urlkey).into());
        let mut s = RowSorter::with_chunk(DEFAULT_BUDGET, None, 256, 500);
        for r in &rows {
            push(&mut s, r);
        }
        assert!(s.bounds.len() > 50, "{} buckets", s.bounds.len() + 1);
        let (runs, got) = sorted_by(s, &[]);
        assert_eq!(runs, 0);
        assert_eq!(got, want(&rows));
        // Spilled: each run chooses the next one's buckets.
        let (runs, got) = sorted_by(RowSorter::with_chunk(40_000, None, 256, 100), &rows);
        assert!(runs > 5, "the budget forces spills: {runs}");
        assert_eq!(got, want(&rows));
    }

    #[test]
    fn records_larger_than_a_chunk_or_the_budget_take_room_of_their_own() {
        // Every 50th row's URL is larger than a chunk (256 bytes) and, every
        // 250th, than the whole budget.
        let rows = triples_with(|i, it| {
            let n = if i % 250 == 0 { 30_000 } else if i % 50 == 0 { 1_000 } else { 0 };
            if n > 0 {
                it.capture.url = Some(format!("http://example.com/{}", "x".repeat(n)).into());
            }
        });
        let (runs, got) = sorted_by(RowSorter::with_chunk(20_000, None, 256, 100), &rows);
        assert!(runs > 10, "{runs} runs");
        assert_eq!(got, want(&rows));
        let (runs, got) = sorted_by(RowSorter::with_chunk(DEFAULT_BUDGET, None, 256, 100), &rows);
        assert_eq!(runs, 0);
        assert_eq!(got, want(&rows));
    }

    #[test]
    fn runs_after_the_first_few_are_compressed() {
        let rows = rows();
        let mut s = RowSorter::new(20_000, None);
        for r in &rows {
            push(&mut s, r);
        }
        let size = |r: &Run| r.file.metadata().unwrap().len();
        let (plain, packed): (Vec<&Run>, Vec<&Run>) = s.runs.iter().partition(|r| !r.compressed);
        assert_eq!(plain.len(), PLAIN_RUNS);
        assert!(!packed.is_empty());
        let smallest_plain = plain.iter().map(|r| size(r)).min().unwrap();
        assert!(packed.iter().all(|r| size(r) * 2 < smallest_plain), "compressed runs are not smaller");
    }

    #[test]
    fn spilled_runs_merge_in_order() {
        let rows = rows();
        let (runs, got) = sorted(20_000, &rows);
        assert!(runs > 5, "the budget forces spills: {runs}");
        assert_eq!(got, want(&rows));
    }

    #[test]
    fn budget_counts_arena_bytes() {
        let rows = rows();
        let mut all = Vec::new();
        let mut names = Names::default();
        for r in &rows[..100] {
            record::encode(&mut names, &placement(r), r.fetch_time, &r.capture, &mut all);
        }
        // Room for about ten rows per run.
        let (runs, got) = sorted(10 * (all.len() / 100 + std::mem::size_of::<Key>()), &rows[..100]);
        assert!((9..=11).contains(&runs), "{runs} runs");
        assert_eq!(got, want(&rows[..100]));
    }
}
