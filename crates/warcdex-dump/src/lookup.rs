//! `dump lookup` and `dump build-lookup`: every version of a URL from the
//! manifests alone, latest first (greatest timestamp, then greatest id).
//! URLs match by SURT key, as in an index (scheme, `www.`, host case and
//! query order do not matter).
//!
//! The lookup table is one sorted file of lines
//! `surt \t rev \t timestamp \t id \t segment \t url`, where `rev` makes
//! byte order put the latest version first, cut into zstd blocks of about
//! 256 KiB; a sparse index (each block's first key, offset, length) and a
//! footer end the file. A lookup reads the footer and the index, then
//! decodes only the blocks that can hold the key.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use warcdex_core::sort::ExternalSorter;

use crate::manifest::{looks_like_header, parse_header, parse_row, Columns, Row};
use crate::names::{base_name, Kind, SegmentName};
use crate::problem::Problem;

const MAGIC: &[u8; 8] = b"WDXLKUP1";
const BLOCK_BYTES: usize = 256 << 10;
pub const TABLE_NAME: &str = "dump-lookup.wdxl";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub segment: String,
    pub id: u64,
    pub timestamp: i64,
    pub url: String,
}

impl Version {
    pub fn line(&self) -> String {
        format!("{} {} {} {}", self.segment, self.id, self.timestamp, self.url)
    }
    pub fn json(&self) -> String {
        let mut s = String::from("{\"segment\":");
        warcdex_core::json::push_str(&mut s, &self.segment);
        s.push_str(&format!(",\"id\":{},\"timestamp\":{},\"url\":", self.id, self.timestamp));
        warcdex_core::json::push_str(&mut s, &self.url);
        s.push('}');
        s
    }
}

/// Latest first: greatest timestamp, ties broken by greatest id.
pub fn sort_latest_first(v: &mut [Version]) {
    v.sort_by(|a, b| b.timestamp.cmp(&a.timestamp).then(b.id.cmp(&a.id)));
}

pub fn key(url: &str) -> String {
    warcdex_core::surt::surt(url)
}

/// The manifest files in `dir`, in name order.
pub fn manifests_in(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| SegmentName::of_path(p).is_some_and(|n| n.kind == Kind::Manifest))
        .collect();
    v.sort();
    Ok(v)
}

/// Streams the rows of one manifest file (.tsv.xz or .tsv) to `each`.
pub fn for_each_row(path: &Path, report: &mut dyn FnMut(Problem) -> io::Result<()>, each: &mut dyn FnMut(&Row) -> io::Result<()>) -> io::Result<()> {
    let name = base_name(path);
    let f = File::open(path)?;
    let reader: Box<dyn BufRead> = if name.ends_with(".xz") {
        Box::new(BufReader::with_capacity(1 << 16, liblzma::read::XzDecoder::new(f)))
    } else {
        Box::new(BufReader::with_capacity(1 << 16, f))
    };
    let mut cols = Columns::default();
    let mut first = true;
    let mut line = String::new();
    let mut reader = reader;
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                report(Problem::new(&name, None, if e.kind() == io::ErrorKind::InvalidData { "not-utf8" } else { "truncated" }, format!("manifest cannot be read on: {e}")))?;
                break;
            }
        }
        if first {
            first = false;
            if looks_like_header(&line) {
                if let Err((c, msg)) = parse_header(&line) {
                    cols = c;
                    report(Problem::new(&name, None, "manifest-header", msg))?;
                }
                continue;
            }
            report(Problem::new(&name, None, "manifest-header", "manifest has no header line"))?;
        }
        if line.trim().is_empty() {
            continue;
        }
        match parse_row(&line, cols) {
            Ok(r) => each(&r)?,
            Err(m) => report(Problem::new(&name, line.split('\t').next().and_then(|s| s.parse().ok()), "bad-row", m))?,
        }
    }
    Ok(())
}

fn data_name_for(manifest: &Path) -> String {
    SegmentName::of_path(manifest).map(|n| n.data_name()).unwrap_or_else(|| base_name(manifest))
}

/// Every version of `url` in the manifests in `dir`, read directly (no table).
pub fn scan(dir: &Path, url: &str, report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<Vec<Version>> {
    let k = key(url);
    // Cheap filter before computing SURT keys: the host (without www.) must appear.
    let host = url.split("://").nth(1).unwrap_or(url).split(['/', '?', '#', ':']).next().unwrap_or("").to_ascii_lowercase();
    let host = host.trim_start_matches("www.").to_string();
    let mut out = Vec::new();
    for m in manifests_in(dir)? {
        let segment = data_name_for(&m);
        for_each_row(&m, report, &mut |r| {
            if r.url.to_ascii_lowercase().contains(&host) && key(&r.url) == k {
                out.push(Version { segment: segment.clone(), id: r.id, timestamp: r.timestamp, url: r.url.clone() });
            }
            Ok(())
        })?;
    }
    sort_latest_first(&mut out);
    Ok(out)
}

fn table_line(k: &str, r: &Row, segment: &str, out: &mut Vec<u8>) {
    out.clear();
    // rev: ten-digit complements, so that byte order is latest first.
    let rev_ts = 9_999_999_999i64 - r.timestamp.clamp(0, 9_999_999_999);
    let rev_id = 9_999_999_999u64 - r.id.min(9_999_999_999);
    let _ = write!(out, "{k}\t{rev_ts:010}{rev_id:010}\t{}\t{}\t{segment}\t{}\n", r.timestamp, r.id, r.url);
}

fn parse_table_line(line: &str) -> Option<(&str, Version)> {
    let mut f = line.trim_end_matches('\n').splitn(6, '\t');
    let k = f.next()?;
    let _rev = f.next()?;
    let timestamp = f.next()?.parse().ok()?;
    let id = f.next()?.parse().ok()?;
    let segment = f.next()?.to_string();
    let url = f.next()?.to_string();
    Some((k, Version { segment, id, timestamp, url }))
}

/// Cuts sorted lines into zstd blocks and keeps the sparse index.
struct BlockWriter<W: Write> {
    out: W,
    pos: u64,
    block: Vec<u8>,
    first_key: Option<Vec<u8>>,
    index: Vec<u8>,
    rows: u64,
    pending: Vec<u8>,
}

impl<W: Write> BlockWriter<W> {
    fn flush_block(&mut self) -> io::Result<()> {
        if self.block.is_empty() {
            return Ok(());
        }
        let z = zstd::bulk::compress(&self.block, 3)?;
        self.out.write_all(&z)?;
        let k = self.first_key.take().unwrap_or_default();
        self.index.extend_from_slice(&k);
        let _ = writeln!(self.index, "\t{}\t{}", self.pos, z.len());
        self.pos += z.len() as u64;
        self.block.clear();
        Ok(())
    }

    fn line(&mut self, l: &[u8]) -> io::Result<()> {
        if self.block.len() + l.len() > BLOCK_BYTES && !self.block.is_empty() {
            self.flush_block()?;
        }
        if self.block.is_empty() {
            let k = l.split(|&b| b == b'\t').next().unwrap_or(l);
            self.first_key = Some(k.to_vec());
        }
        self.block.extend_from_slice(l);
        self.rows += 1;
        Ok(())
    }
}

impl<W: Write> Write for BlockWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // The sorter writes whole lines, but not necessarily one per call.
        let mut rest = buf;
        while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
            if self.pending.is_empty() {
                self.line(&rest[..=nl])?;
            } else {
                let mut l = std::mem::take(&mut self.pending);
                l.extend_from_slice(&rest[..=nl]);
                self.line(&l)?;
            }
            rest = &rest[nl + 1..];
        }
        self.pending.extend_from_slice(rest);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BuildSummary {
    pub manifests: u64,
    pub rows: u64,
    pub blocks: u64,
    pub bytes: u64,
}

/// Builds the lookup table of all manifests in `dirs` (or manifest files) into `out`.
pub fn build(inputs: &[PathBuf], out: &Path, sort_budget: usize, force: bool, report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<BuildSummary> {
    let mut files = Vec::new();
    for i in inputs {
        if i.is_dir() {
            files.extend(manifests_in(i)?);
        } else {
            files.push(i.clone());
        }
    }
    let tmp = out.parent().filter(|p| !p.as_os_str().is_empty()).map(Path::to_path_buf);
    let mut sorter = ExternalSorter::new(sort_budget, tmp);
    let mut s = BuildSummary::default();
    let mut line = Vec::with_capacity(256);
    let mut k = String::new();
    for m in &files {
        s.manifests += 1;
        let segment = data_name_for(m);
        for_each_row(m, report, &mut |r| {
            k.clear();
            warcdex_core::surt::surt_into(&r.url, &mut k);
            table_line(&k, r, &segment, &mut line);
            sorter.push(&line)
        })?;
    }
    let file = io::BufWriter::with_capacity(1 << 20, warcdex_core::output::AtomicFile::create(out, force)?);
    let mut bw = BlockWriter { out: file, pos: 8, block: Vec::new(), first_key: None, index: Vec::new(), rows: 0, pending: Vec::new() };
    bw.out.write_all(MAGIC)?;
    sorter.finish(&mut bw)?;
    bw.flush_block()?;
    let index = zstd::bulk::compress(&bw.index, 3)?;
    s.blocks = bw.index.iter().filter(|&&b| b == b'\n').count() as u64;
    s.rows = bw.rows;
    let index_at = bw.pos;
    bw.out.write_all(&index)?;
    bw.out.write_all(&index_at.to_le_bytes())?;
    bw.out.write_all(&(index.len() as u64).to_le_bytes())?;
    bw.out.write_all(&(bw.index.len() as u64).to_le_bytes())?;
    bw.out.write_all(&s.rows.to_le_bytes())?;
    bw.out.write_all(MAGIC)?;
    let mut f = bw.out.into_inner().map_err(|e| e.into_error())?;
    s.bytes = f.file_mut().stream_position()?;
    f.commit()?;
    Ok(s)
}

/// An open lookup table: its sparse index stays in memory between lookups.
pub struct Table {
    file: File,
    /// (first key, offset, compressed length) per block.
    blocks: Vec<(String, u64, u64)>,
    pub rows: u64,
}

impl Table {
    pub fn open(path: &Path) -> io::Result<Table> {
        let mut file = File::open(path)?;
        let bad = |m: &str| io::Error::new(io::ErrorKind::InvalidData, format!("{}: not a lookup table ({m})", path.display()));
        let mut magic = [0u8; 8];
        file.read_exact(&mut magic)?;
        if &magic != MAGIC {
            return Err(bad("magic"));
        }
        let mut footer = [0u8; 40];
        file.seek(SeekFrom::End(-40))?;
        file.read_exact(&mut footer)?;
        if &footer[32..40] != MAGIC {
            return Err(bad("footer"));
        }
        let u = |i: usize| u64::from_le_bytes(footer[i * 8..i * 8 + 8].try_into().unwrap());
        let (index_at, index_len, raw_len, rows) = (u(0), u(1), u(2), u(3));
        let mut z = vec![0u8; index_len as usize];
        file.seek(SeekFrom::Start(index_at))?;
        file.read_exact(&mut z)?;
        let raw = zstd::bulk::decompress(&z, raw_len as usize)?;
        let text = String::from_utf8(raw).map_err(|_| bad("index"))?;
        let mut blocks = Vec::new();
        for l in text.lines() {
            let mut f = l.rsplitn(3, '\t');
            let len = f.next().and_then(|s| s.parse().ok()).ok_or_else(|| bad("index line"))?;
            let off = f.next().and_then(|s| s.parse().ok()).ok_or_else(|| bad("index line"))?;
            let k = f.next().ok_or_else(|| bad("index line"))?.to_string();
            blocks.push((k, off, len));
        }
        Ok(Table { file, blocks, rows })
    }

    /// Every version of `url`, latest first.
    pub fn lookup(&mut self, url: &str) -> io::Result<Vec<Version>> {
        let k = key(url);
        // Blocks from the last one starting before the key through those starting with it.
        let first = self.blocks.partition_point(|(b, _, _)| b.as_str() < k.as_str()).saturating_sub(1);
        let mut out = Vec::new();
        for i in first..self.blocks.len() {
            let (bk, off, len) = self.blocks[i].clone();
            if bk.as_str() > k.as_str() {
                break;
            }
            let mut z = vec![0u8; len as usize];
            self.file.seek(SeekFrom::Start(off))?;
            self.file.read_exact(&mut z)?;
            let raw = zstd::stream::decode_all(&z[..])?;
            let text = String::from_utf8_lossy(&raw);
            let prefix = format!("{k}\t");
            // Lines are sorted: find the first match by binary search over line starts.
            for l in text.lines().filter(|l| l.starts_with(&prefix)) {
                if let Some((_, v)) = parse_table_line(l) {
                    out.push(v);
                }
            }
        }
        Ok(out)
    }
}
