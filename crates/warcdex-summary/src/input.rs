//! Inputs: files, directories and standard input; CDX, CDXJ, or WARC/ARC
//! (indexed on the fly by the core indexer, as 11-field CDX); plain, gzip,
//! bzip2, xz or zstd, recognised from the bytes.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use warcdex_core::cdx::Format;
use warcdex_core::index::IndexOptions;
use warcdex_core::inputs::{index_filename, is_archive_name};
use warcdex_core::pipeline::{index_one, IndexJob, NoObserver, Summary as IndexSummary};

use crate::accumulate::Accumulator;
use crate::cdxj_line::{is_cdxj, to_cdx11};
use crate::parquet_input::{is_parquet, summarize_parquet};

/// What one input turned out to be, for the caller's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Cdx,
    Cdxj,
    Archive,
    Parquet,
    Empty,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Cdx => "cdx",
            Kind::Cdxj => "cdxj",
            Kind::Archive => "warc",
            Kind::Parquet => "parquet",
            Kind::Empty => "empty",
        }
    }
}

#[derive(Debug, Clone)]
pub struct InputReport {
    pub name: String,
    pub kind: Kind,
    pub compression: &'static str,
    /// Bad records skipped by the indexer (archives only).
    pub skipped_records: u64,
}

/// Index file names looked for inside directories.
pub fn is_index_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    let base = ["", ".gz", ".bz2", ".xz", ".zst"].iter().find_map(|c| n.strip_suffix(c)).unwrap_or(&n);
    [".cdx", ".cdxj", ".cdx11", ".cdx9"].iter().any(|e| base.ends_with(e))
        || ["", ".gz", ".bz2", ".xz", ".zst"].iter().any(|c| {
            n.strip_suffix(c).is_some_and(|b| [".cdx", ".cdxj", ".cdx11", ".cdx9"].iter().any(|e| b.ends_with(e)))
        })
}

/// Expands inputs: `-` stays (standard input), a directory gives its index,
/// archive and Parquet files (recursively, in name order), a file is taken as it is.
pub fn expand(inputs: &[String]) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    for i in inputs {
        if i == "-" {
            out.push(i.clone());
            continue;
        }
        let meta = std::fs::metadata(i).map_err(|e| io::Error::new(e.kind(), format!("{i}: {e}")))?;
        if meta.is_dir() {
            walk(Path::new(i), &mut out)?;
        } else {
            out.push(i.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<String>) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            let name = e.file_name().to_string_lossy().into_owned();
            if is_index_name(&name) || is_archive_name(&name) || name.ends_with(".parquet") {
                out.push(path.display().to_string());
            }
        }
    }
    Ok(())
}

/// Standard input as a blocking reader: Node may leave fd 0 non-blocking.
struct Stdin;

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match io::stdin().lock().read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(std::time::Duration::from_micros(500)),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }
}

const GZIP: &[u8] = b"\x1f\x8b";
const BZIP2: &[u8] = b"BZh";
const XZ: &[u8] = b"\xfd7zXZ\x00";
const ZSTD: &[u8] = b"\x28\xb5\x2f\xfd";

fn compression_of(head: &[u8]) -> &'static str {
    if head.starts_with(GZIP) {
        "gzip"
    } else if head.starts_with(BZIP2) && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b)) {
        "bzip2"
    } else if head.starts_with(XZ) {
        "xz"
    } else if head.starts_with(ZSTD) {
        "zstd"
    } else {
        "none"
    }
}

fn decoder<'a>(r: impl BufRead + 'a, compression: &str) -> io::Result<Box<dyn Read + 'a>> {
    Ok(match compression {
        "gzip" => Box::new(flate2::bufread::MultiGzDecoder::new(r)),
        "bzip2" => Box::new(bzip2::bufread::MultiBzDecoder::new(r)),
        "xz" => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(r)),
        "zstd" => Box::new(zstd::stream::read::Decoder::with_buffer(r)?),
        _ => Box::new(r),
    })
}

fn looks_like_archive(decoded_head: &[u8]) -> bool {
    decoded_head.starts_with(b"WARC/") || decoded_head.starts_with(b"filedesc:")
}

/// The first decoded bytes of a peeked head (best effort: a short head may
/// not decode, which only means "not recognised as an archive").
fn decoded_head(head: &[u8], compression: &str) -> Vec<u8> {
    let mut out = vec![0u8; 16];
    let mut n = 0;
    if let Ok(mut d) = decoder(head, compression) {
        while n < out.len() {
            match d.read(&mut out[n..]) {
                Ok(0) | Err(_) => break,
                Ok(k) => n += k,
            }
        }
    }
    out.truncate(n);
    out
}

/// Reads one input into `acc`.
pub fn summarize_input(name: &str, acc: &mut Accumulator) -> io::Result<InputReport> {
    let src: Box<dyn Read> = if name == "-" {
        Box::new(Stdin)
    } else {
        Box::new(File::open(name).map_err(|e| io::Error::new(e.kind(), format!("{name}: cannot open: {e}")))?)
    };
    let mut r = BufReader::with_capacity(1 << 20, src);
    let head = r.fill_buf()?.to_vec();
    let compression = compression_of(&head);
    let mut report = InputReport { name: name.to_string(), kind: Kind::Empty, compression, skipped_records: 0 };
    if head.is_empty() {
        return Ok(report);
    }
    if name != "-" && is_parquet(&head) {
        drop(r);
        report.kind = Kind::Parquet;
        summarize_parquet(Path::new(name), acc)?;
        return Ok(report);
    }
    let base = Path::new(name).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if (name != "-" && is_archive_name(&base)) || looks_like_archive(&decoded_head(&head, compression)) {
        report.kind = Kind::Archive;
        report.skipped_records = summarize_archive(r, name, acc)?;
        return Ok(report);
    }
    // Lines are split in the reader's own buffer: with a plain file the
    // bytes go from the kernel to that buffer and nowhere else.
    let mut decoded = BufReader::with_capacity(1 << 20, decoder(r, compression)?);
    report.kind = summarize_lines(&mut decoded, acc).map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
    Ok(report)
}

/// An archive, indexed as warcdex writes 11-field CDX (cdxj-indexer's
/// record selection), each line fed to the accumulator.
fn summarize_archive(r: impl Read, name: &str, acc: &mut Accumulator) -> io::Result<u64> {
    let job = IndexJob { format: Format::Cdx11, ..IndexJob::default() };
    let options = IndexOptions { filename: index_filename(&PathBuf::from(name), None), ..IndexOptions::default() };
    let mut summary = IndexSummary::default();
    let mut line = String::with_capacity(1024);
    let mut sink = |l: &str| {
        acc.line(l.strip_suffix('\n').unwrap_or(l).as_bytes());
        Ok(())
    };
    index_one(r, name, &options, &job, &mut summary, &mut line, &mut sink, &mut NoObserver)?;
    Ok(summary.skipped)
}

/// Index lines (split at `\n` only, as Python's binary `fileinput` does);
/// CDXJ or CDX as the first line that is neither blank nor a ` CDX` header says.
fn summarize_lines(r: &mut impl BufRead, acc: &mut Accumulator) -> io::Result<Kind> {
    let mut kind = Kind::Empty;
    let mut converted = Vec::with_capacity(1024);
    let mut handle = |line: &[u8], kind: &mut Kind| {
        if *kind == Kind::Empty {
            let t = line.strip_suffix(b"\r").unwrap_or(line);
            if t.iter().all(|b| b.is_ascii_whitespace()) || t.starts_with(b" CDX") {
                acc.line(line);
                return;
            }
            *kind = if is_cdxj(t) { Kind::Cdxj } else { Kind::Cdx };
        }
        if *kind == Kind::Cdxj {
            let t = line.strip_suffix(b"\r").unwrap_or(line);
            if to_cdx11(t, &mut converted) {
                acc.line(&converted);
            } else {
                acc.line(line);
            }
        } else {
            acc.line(line);
        }
    };
    warcdex_core::lines::for_each_line(r, |line| {
        handle(line, &mut kind);
        Ok(true)
    })?;
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_names() {
        for n in ["a.cdx", "A.CDX.GZ", "b.cdxj", "c.cdx.bz2", "d.cdxj.zst"] {
            assert!(is_index_name(n), "{n}");
        }
        for n in ["a.warc.gz", "notes.txt", "cdx"] {
            assert!(!is_index_name(n), "{n}");
        }
    }

    #[test]
    fn lines_split_across_reads_count_as_whole_lines() {
        let text = "com,a)/x 20200101000000 http://a.com/x text/html 200 D1 - - 10 0 f1\n\
                    com,b)/y?q=1 20210201000000 http://b.com/y?q=1 image/png 404 D2 - - 5 7 f2\n\n\
                    com,c)/ 20190101000000 http://c.com/ warc/revisit - D3 - - - 9 f1";
        let summary = |capacity: usize| {
            let mut acc = Accumulator::new(crate::Options::default());
            let mut r = BufReader::with_capacity(capacity, text.as_bytes());
            assert_eq!(summarize_lines(&mut r, &mut acc).unwrap(), Kind::Cdx);
            (acc.lines, acc.captures, acc.bytes, acc.files.entries.clone(), acc.first_out().to_string())
        };
        let whole = summary(1 << 20);
        assert_eq!(whole.0, 3);
        assert_eq!(whole.3, vec![("f1".to_string(), 2), ("f2".to_string(), 1)]);
        for capacity in 1..40 {
            assert_eq!(summary(capacity), whole, "reads of {capacity} bytes");
        }
    }

    #[test]
    fn compressions_from_bytes() {
        assert_eq!(compression_of(b"\x1f\x8b\x08"), "gzip");
        assert_eq!(compression_of(b"BZh9"), "bzip2");
        assert_eq!(compression_of(b"BZhx"), "none");
        assert_eq!(compression_of(b"com,x)/"), "none");
    }
}
