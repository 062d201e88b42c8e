//! `dump to-warc`: segments as one WARC 1.1 file, gzip per record: a
//! warcinfo record, then one `resource` record per page whose block is the
//! response (the header line's timestamp and URL become WARC-Date and
//! WARC-Target-URI). The dump's id, md5 and segment stay as extra headers.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use sha1::{Digest, Sha1};
use warcdex_core::deflate::GzipMembers;

use crate::capture::{sha1_base32, unix_to_timestamp};
use crate::names::base_name;
use crate::problem::Problem;
use crate::segment::{read_segment, Event, Options, Page};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub segments: u64,
    pub records: u64,
    pub pages_skipped: u64,
    pub problems: u64,
    pub bytes: u64,
}

/// A record id that is the same for the same page on every run.
fn record_id(seed: &str) -> String {
    let h = Sha1::digest(seed.as_bytes());
    let x = crate::hex(&h[..16]);
    format!("<urn:uuid:{}-{}-5{}-{}-{}>", &x[0..8], &x[8..12], &x[13..16], &x[16..20], &x[20..32])
}

/// One record as one gzip member: header block, content block, the two CRLFs.
fn gz_record<'g>(gz: &'g mut GzipMembers, head: &str, block: &[u8]) -> &'g [u8] {
    gz.member(&[head.as_bytes(), block, b"\r\n\r\n"])
}

/// What a page's record needs, owned, so that a worker can build it while
/// the page's buffer goes back to the decoder.
struct PageRecord {
    id: u64,
    url: String,
    timestamp: i64,
    md5: String,
    verified: bool,
    body: Vec<u8>,
}

impl PageRecord {
    /// `None` for a page with neither a header line nor a manifest row.
    fn of(page: &Page) -> Option<PageRecord> {
        Some(PageRecord {
            id: page.id,
            url: page.url?.to_string(),
            timestamp: page.timestamp?,
            md5: page.row.map(|r| r.md5.as_str()).unwrap_or(page.md5.as_str()).to_string(),
            verified: page.verified,
            body: page.body.to_vec(),
        })
    }

    fn head(&self, segment: &str, warcinfo_id: &str) -> String {
        let (_, date) = unix_to_timestamp(self.timestamp);
        let digest = sha1_base32(&self.body);
        let mut h = String::with_capacity(512 + self.url.len());
        h.push_str("WARC/1.1\r\nWARC-Type: resource\r\n");
        let _ = write!(h, "WARC-Record-ID: {}\r\n", record_id(&format!("{segment}#{}", self.id)));
        let _ = write!(h, "WARC-Date: {date}\r\nWARC-Target-URI: {}\r\nWARC-Warcinfo-ID: {warcinfo_id}\r\n", self.url);
        let _ = write!(h, "WARC-Payload-Digest: sha1:{digest}\r\nWARC-Block-Digest: sha1:{digest}\r\n");
        h.push_str("Content-Type: text/html\r\n");
        let _ = write!(h, "WARC-Dump-Segment: {segment}\r\nWARC-Dump-Id: {}\r\nWARC-Dump-MD5: {}\r\n", self.id, self.md5);
        if !self.verified {
            h.push_str("WARC-Dump-Verified: false\r\n");
        }
        let _ = write!(h, "Content-Length: {}\r\n\r\n", self.body.len());
        h
    }
}

type Job = (u64, Arc<str>, PageRecord);
type Done = (u64, Result<Vec<u8>, String>);

/// Records built and gzipped by worker threads (SHA-1 and deflate are most
/// of the work of converting), written in page order.
struct Writer<'o> {
    out: &'o mut dyn Write,
    jobs: Option<SyncSender<Job>>,
    done: Receiver<Done>,
    /// Members finished ahead of the next one to write.
    ready: BTreeMap<u64, Vec<u8>>,
    next_seq: u64,
    next_write: u64,
    in_flight: usize,
    limit: usize,
    bytes: u64,
}

impl Writer<'_> {
    fn submit(&mut self, segment: &Arc<str>, rec: PageRecord) -> io::Result<()> {
        let jobs = self.jobs.as_ref().expect("open until finished");
        jobs.send((self.next_seq, segment.clone(), rec)).map_err(|_| io::Error::other("to-warc: the gzip workers stopped"))?;
        self.next_seq += 1;
        self.in_flight += 1;
        while self.in_flight >= self.limit {
            self.collect_one()?;
        }
        Ok(())
    }

    fn collect_one(&mut self) -> io::Result<()> {
        let (seq, member) = self.done.recv().map_err(|_| io::Error::other("to-warc: the gzip workers stopped"))?;
        self.in_flight -= 1;
        self.ready.insert(seq, member.map_err(io::Error::other)?);
        while let Some(m) = self.ready.remove(&self.next_write) {
            self.out.write_all(&m)?;
            self.bytes += m.len() as u64;
            self.next_write += 1;
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.jobs = None;
        while self.in_flight > 0 {
            self.collect_one()?;
        }
        Ok(())
    }
}

fn worker(jobs: &Mutex<Receiver<Job>>, done: SyncSender<Done>, level: u32, warcinfo_id: &str) {
    let mut gz = GzipMembers::new(level);
    loop {
        let job = jobs.lock().map(|rx| rx.recv());
        let Ok(Ok((seq, segment, rec))) = job else { return };
        // A panic stays with its record, reported as an error, instead of
        // leaving the writer waiting for a member that never comes.
        let member = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let head = rec.head(&segment, warcinfo_id);
            gz_record(&mut gz, &head, &rec.body).to_vec()
        }))
        .map_err(|_| format!("{segment}: building the record of page {} panicked", rec.id));
        if done.send((seq, member)).is_err() {
            return;
        }
    }
}

/// Converts `segments` into one WARC written to `out`; problems go to `report`.
pub fn to_warc(segments: &[PathBuf], out: &mut dyn Write, level: u32, report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<Summary> {
    let mut s = Summary::default();
    let names: Vec<String> = segments.iter().map(|p| base_name(p)).collect();
    let warcinfo_id = record_id(&format!("warcinfo {}", names.join(" ")));
    let mut info = String::from("software: warcdex dump to-warc\r\nformat: WARC File Format 1.1\r\n");
    let _ = write!(info, "description: pages of page-dump segments {}\r\n", names.join(", "));
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
    let head = format!(
        "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: {warcinfo_id}\r\nWARC-Date: {}\r\nContent-Type: application/warc-fields\r\nContent-Length: {}\r\n\r\n",
        unix_to_timestamp(now).1,
        info.len()
    );
    let mut gz = GzipMembers::new(level);
    let warcinfo = gz_record(&mut gz, &head, info.as_bytes());
    out.write_all(warcinfo)?;
    s.bytes += warcinfo.len() as u64;
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (job_tx, job_rx) = sync_channel::<Job>(workers * 8);
    let (done_tx, done) = sync_channel::<Done>(workers * 16);
    let job_rx = Mutex::new(job_rx);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let done_tx = done_tx.clone();
            let (job_rx, warcinfo_id) = (&job_rx, warcinfo_id.as_str());
            scope.spawn(move || worker(job_rx, done_tx, level, warcinfo_id));
        }
        drop(done_tx);
        let mut w = Writer { out, jobs: Some(job_tx), done, ready: BTreeMap::new(), next_seq: 0, next_write: 0, in_flight: 0, limit: workers * 16, bytes: 0 };
        let converted = convert(segments, &mut w, &mut s, report).and_then(|()| w.finish());
        // Closing the queue lets the workers end, also after an error.
        w.jobs = None;
        s.bytes += w.bytes;
        converted
    })?;
    out.flush()?;
    Ok(s)
}

fn convert(segments: &[PathBuf], w: &mut Writer, s: &mut Summary, report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<()> {
    for path in segments {
        s.segments += 1;
        let segment: Arc<str> = base_name(path).into();
        // A failed write ends the conversion; a segment that cannot be read
        // is a problem, and the next segment is converted.
        let mut write_error = None;
        let r = read_segment(path, &Options::default(), &mut |ev| match ev {
            Event::Page(p) => match PageRecord::of(p) {
                Some(rec) => {
                    s.records += 1;
                    w.submit(&segment, rec).inspect_err(|e| write_error = Some(io::Error::new(e.kind(), e.to_string())))
                }
                None => {
                    s.pages_skipped += 1;
                    s.problems += 1;
                    report(Problem::new(&segment, Some(p.id), "no-url", "page has neither a header line nor a manifest row: no URL or date, not written"))
                }
            },
            Event::Problem(p) => {
                s.problems += 1;
                report(p)
            }
        });
        if let Some(e) = write_error {
            return Err(e);
        }
        if let Err(e) = r {
            s.problems += 1;
            report(Problem::new(&segment, None, "io", format!("cannot read: {e}")))?;
        }
    }
    Ok(())
}

/// To a file path, published when complete (an existing file only with `force`).
pub fn to_warc_file(segments: &[PathBuf], out: &Path, level: u32, force: bool, report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<Summary> {
    let mut w = io::BufWriter::with_capacity(1 << 20, warcdex_core::output::AtomicFile::create(out, force)?);
    let s = to_warc(segments, &mut w, level, report)?;
    w.into_inner().map_err(|e| e.into_error())?.commit()?;
    Ok(s)
}
