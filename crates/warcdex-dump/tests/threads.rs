//! The segment reader decodes on its own thread and to-warc gzips on
//! workers: what comes out must still be in tar order, complete, and the
//! same from run to run.

use std::io::Read;

use warcdex_dump::generate::{generate, Options};
use warcdex_dump::segment::{read_segment, Event, Options as ReadOptions};

fn segments(dir: &std::path::Path) -> warcdex_dump::generate::Report {
    let opts = Options { segments: 2, ids_per_segment: 400, page_bytes: 3000, bad_md5_rate: 0.05, xz_level: 1, ..Options::default() };
    generate(dir, &opts).expect("generate")
}

#[test]
fn pages_come_in_tar_order_and_the_raw_md5_covers_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let rep = segments(dir.path());
    let seg = &rep.segments[0];
    let mut ids = Vec::new();
    let mut failed = 0;
    let out = read_segment(&seg.data, &ReadOptions { file_md5: true, fallback_rows: None }, &mut |ev| {
        if let Event::Page(p) = ev {
            ids.push(p.id);
            failed += !p.verified as u64;
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(ids.len() as u64, seg.pages);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "ids out of order");
    assert!(failed > 0, "the bad md5s planted were not found");
    let bytes = std::fs::read(&seg.data).unwrap();
    assert_eq!(out.raw_bytes, bytes.len() as u64);
    assert_eq!(out.raw_md5.as_deref(), Some(warcdex_dump::md5_hex(&bytes).as_str()));
}

#[test]
fn a_sink_error_stops_the_reader_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let rep = segments(dir.path());
    let mut n = 0;
    let r = read_segment(&rep.segments[0].data, &ReadOptions::default(), &mut |ev| {
        if let Event::Page(_) = ev {
            n += 1;
            if n == 3 {
                return Err(std::io::Error::other("stop"));
            }
        }
        Ok(())
    });
    assert_eq!(r.unwrap_err().to_string(), "stop");
    assert_eq!(n, 3);
}

/// The `WARC-Dump-Id` of every record, in file order.
fn dump_ids(warc_gz: &[u8]) -> Vec<u64> {
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(warc_gz).read_to_string(&mut text).unwrap();
    text.lines().filter_map(|l| l.strip_prefix("WARC-Dump-Id: ")).map(|v| v.trim().parse().unwrap()).collect()
}

#[test]
fn to_warc_writes_records_in_page_order_whatever_the_workers_do() {
    let dir = tempfile::tempdir().unwrap();
    let rep = segments(dir.path());
    let paths: Vec<_> = rep.segments.iter().map(|s| s.data.clone()).collect();
    let run = || {
        let mut out = Vec::new();
        let s = warcdex_dump::to_warc::to_warc(&paths, &mut out, 1, &mut |_| Ok(())).unwrap();
        (s, out)
    };
    let (s, first) = run();
    let ids = dump_ids(&first);
    let pages: u64 = rep.segments.iter().map(|s| s.pages).sum();
    assert_eq!((s.records, ids.len() as u64), (pages, pages));
    // The second segment's ids follow the first's: all in one rising run.
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "records out of page order");
    assert_eq!(s.bytes, first.len() as u64);
    for _ in 0..3 {
        // Only the warcinfo record's date may differ between runs.
        let (_, again) = run();
        assert_eq!(dump_ids(&again), ids);
    }
}

/// Accepts `limit` bytes, then fails like a full disk.
struct FullDisk {
    limit: usize,
    written: usize,
}

impl std::io::Write for FullDisk {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written + buf.len() > self.limit {
            return Err(std::io::Error::other("no space left on device"));
        }
        self.written += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failed_write_ends_to_warc_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let rep = segments(dir.path());
    let paths: Vec<_> = rep.segments.iter().map(|s| s.data.clone()).collect();
    let mut codes = Vec::new();
    let r = warcdex_dump::to_warc::to_warc(&paths, &mut FullDisk { limit: 20_000, written: 0 }, 1, &mut |p| {
        codes.push(p.code);
        Ok(())
    });
    assert_eq!(r.unwrap_err().to_string(), "no space left on device");
    // The bad md5s planted may be reported before the write fails, but the
    // failed write is not made a "cannot read" problem of the segment.
    assert!(!codes.contains(&"io"), "{codes:?}");
}
