//! What the command-line inputs name: WARC/ARC files (indexed on the way) or
//! index files (CDXJ, CDX; plain, gzip or bzip2, told by their bytes), found
//! in directories recursively, or index lines on standard input.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use warcdex_core::inputs::is_archive_name;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Archive(PathBuf),
    Index(PathBuf),
    Stdin,
    /// A path that could not be read (missing, no permission): reported
    /// when its turn comes, and the other inputs are converted.
    Unreadable(String),
}

/// Index files found in directories: `.cdx`, `.cdxj` (optionally `.gz` or
/// `.bz2`) and Common Crawl's `cdx-00000.gz` shards.
pub fn is_index_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    let base = [".gz", ".bz2"].iter().find_map(|c| n.strip_suffix(c)).unwrap_or(&n);
    let cc_shard = n.starts_with("cdx-") && n.ends_with(".gz");
    base.ends_with(".cdx") || base.ends_with(".cdxj") || cc_shard
}

/// Which kinds of files a directory contributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kinds {
    /// Whichever the directory holds, but not both: an index beside the
    /// archives it was made from would give every row twice.
    #[default]
    One,
    Archives,
    Indexes,
    Both,
}

impl Kinds {
    pub fn parse(s: &str) -> Option<Kinds> {
        match s {
            "auto" => Some(Kinds::One),
            "archives" => Some(Kinds::Archives),
            "indexes" => Some(Kinds::Indexes),
            "all" | "both" => Some(Kinds::Both),
            _ => None,
        }
    }
}

/// The prefix of errors about the command line, as opposed to the data.
pub const USAGE_PREFIX: &str = "EUSAGE: ";

fn walk(dir: &Path, out: &mut Vec<Input>) -> io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<io::Result<_>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out)?;
        } else {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if is_archive_name(&name) || warcdex_core::foreign::claims(&p) {
                out.push(Input::Archive(p));
            } else if is_index_name(&name) {
                out.push(Input::Index(p));
            }
        }
    }
    Ok(())
}

/// Expands paths (`-` is standard input); a file is an archive when its
/// name or its first decoded bytes say so.
pub fn expand(paths: &[String]) -> io::Result<Vec<Input>> {
    expand_kinds(paths, Kinds::Both)
}

/// [`expand`], with what a directory holding both archives and indexes
/// contributes (`Kinds::One` refuses such a directory, saying what it holds).
pub fn expand_kinds(paths: &[String], kinds: Kinds) -> io::Result<Vec<Input>> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Input::Stdin);
            continue;
        }
        let path = PathBuf::from(p);
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                out.push(Input::Unreadable(format!("{p}: cannot open: {e}")));
                continue;
            }
        };
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(&path, &mut found)?;
            let archives = found.iter().filter(|i| matches!(i, Input::Archive(_))).count();
            let indexes: Vec<&Path> = found.iter().filter_map(|i| if let Input::Index(p) = i { Some(p.as_path()) } else { None }).collect();
            match kinds {
                Kinds::One if archives > 0 && !indexes.is_empty() => {
                    let shown: Vec<String> = indexes.iter().take(3).map(|p| p.display().to_string()).collect();
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "{USAGE_PREFIX}{p} holds {archives} WARC/ARC files and {} index files ({}{}): an index made from those archives would give every row twice; give --inputs archives, --inputs indexes or --inputs all",
                            indexes.len(),
                            shown.join(", "),
                            if indexes.len() > 3 { ", ..." } else { "" }
                        ),
                    ));
                }
                Kinds::Archives => found.retain(|i| matches!(i, Input::Archive(_))),
                Kinds::Indexes => found.retain(|i| matches!(i, Input::Index(_))),
                _ => {}
            }
            out.extend(found);
        } else if is_archive_name(p) || warcdex_core::foreign::claims(&path) || looks_like_archive(&path).unwrap_or(false) {
            out.push(Input::Archive(path));
        } else {
            out.push(Input::Index(path));
        }
    }
    Ok(out)
}

fn looks_like_archive(path: &Path) -> io::Result<bool> {
    let mut r = decoded(Box::new(File::open(path)?))?;
    let buf = r.fill_buf()?;
    Ok(buf.starts_with(b"WARC/") || buf.starts_with(b"filedesc://"))
}

/// A reader that counts the raw bytes read through it (for progress).
pub struct Counting<R> {
    inner: R,
    pub count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R> Counting<R> {
    pub fn new(inner: R, count: Arc<AtomicU64>) -> Self {
        Counting { inner, count }
    }
}

/// Standard input, waiting when Node left the descriptor non-blocking.
pub struct Stdin;

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::fd::FromRawFd;
        let mut f = std::mem::ManuallyDrop::new(unsafe { File::from_raw_fd(0) });
        loop {
            match f.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(std::time::Duration::from_micros(200)),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }
}

/// The decoded bytes of an index: gzip (all members) and bzip2 are told by
/// their magic bytes, anything else is read as it is.
pub fn decoded(src: Box<dyn Read + Send>) -> io::Result<Box<dyn BufRead + Send>> {
    let mut raw = BufReader::with_capacity(1 << 20, src);
    let magic = raw.fill_buf()?;
    Ok(if magic.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::with_capacity(1 << 20, flate2::bufread::MultiGzDecoder::new(raw)))
    } else if magic.starts_with(b"BZh") {
        Box::new(BufReader::with_capacity(1 << 20, bzip2::bufread::MultiBzDecoder::new(raw)))
    } else {
        Box::new(raw)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_names() {
        for n in ["a.cdx", "a.cdxj", "a.CDXJ.gz", "x.cdx.bz2", "cdx-00042.gz"] {
            assert!(is_index_name(n), "{n}");
        }
        for n in ["a.warc.gz", "notes.txt", "cluster.idx"] {
            assert!(!is_index_name(n), "{n}");
        }
    }
}
