//! `dump extract SEGMENT ID`: one page out of a segment. Decoding stops as
//! soon as the page is out; in a multi-block .xz the block index is used to
//! start near the page (a binary search over the blocks' first page ids).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use crate::tar::{probe_header, TarReader};
use crate::xz_index::{decode_from, read_blocks, Block};

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub found: bool,
    /// Blocks in the file (1 for a single-block .xz, 0 when the index cannot be read).
    pub blocks: usize,
    /// The block decoding started at.
    pub start_block: usize,
    /// Decoded bytes read to get the page.
    pub decoded_bytes: u64,
}

fn page_id(name: &str) -> Option<u64> {
    let base = name.rsplit('/').next()?;
    base.strip_suffix(".html")?.parse().ok()
}

/// Walks tar entries from `r` until `id`'s page, writing it to `out`
/// (whole, or the response only when `body_only`). Stops at a greater id
/// when `sorted` (pages are in id order).
fn walk<R: Read>(r: R, id: u64, body_only: bool, sorted: bool, out: &mut dyn Write) -> io::Result<(bool, u64)> {
    let mut tar = TarReader::new(r);
    let mut buf = Vec::new();
    while let Some(e) = tar.next_entry()? {
        let Some(pid) = page_id(&e.name) else { continue };
        if pid == id {
            tar.read_data(&mut buf)?;
            let data = if body_only { crate::page::split(&buf).1 } else { &buf[..] };
            out.write_all(data)?;
            return Ok((true, tar.position()));
        }
        if sorted && pid > id {
            break;
        }
    }
    Ok((false, tar.position()))
}

/// The first page header that starts in `block`: (its decoded offset, id).
fn first_page_in(path: &Path, block: &Block, stream_end: u64) -> io::Result<Option<(u64, u64)>> {
    let mut r = decode_from(File::open(path)?, block, stream_end)?;
    let mut pos = block.uncompressed_offset;
    // Skip to the next 512-byte boundary of the tar stream.
    let skip = (512 - pos % 512) % 512;
    io::copy(&mut (&mut r).take(skip), &mut io::sink())?;
    pos += skip;
    let end = block.uncompressed_offset + block.uncompressed_size;
    let mut h = [0u8; 512];
    while pos < end {
        if r.read_exact(&mut h).is_err() {
            return Ok(None);
        }
        if let Some((name, _)) = probe_header(&h) {
            if let Some(id) = page_id(&name) {
                return Ok(Some((pos, id)));
            }
        }
        pos += 512;
    }
    Ok(None)
}

/// Writes page `id` of the segment at `path` to `out`.
pub fn extract(path: &Path, id: u64, body_only: bool, out: &mut dyn Write) -> io::Result<Outcome> {
    let blocks = read_blocks(&mut File::open(path)?).unwrap_or_default();
    let mut outcome = Outcome { blocks: blocks.len(), ..Default::default() };
    if blocks.len() > 1 {
        // Each stream's blocks end where its index starts.
        let stream_end = |b: &Block| blocks.iter().filter(|x| x.stream_offset == b.stream_offset).map(|x| x.offset + x.size).max().unwrap_or(0);
        // The last block whose first page id is <= id.
        let (mut lo, mut hi) = (0usize, blocks.len());
        let mut best: Option<(usize, u64)> = None;
        while lo < hi {
            let mid = (lo + hi) / 2;
            // A block with no header start (inside one big page) counts with the next one.
            let mut k = mid;
            let mut found = None;
            while k < hi {
                if let Some(f) = first_page_in(path, &blocks[k], stream_end(&blocks[k]))? {
                    found = Some(f);
                    break;
                }
                k += 1;
            }
            match found {
                Some((pos, first)) if first <= id => {
                    best = Some((k, pos));
                    lo = k + 1;
                }
                _ => hi = mid,
            }
        }
        if let Some((k, pos)) = best {
            let b = &blocks[k];
            let mut r = decode_from(File::open(path)?, b, stream_end(b))?;
            io::copy(&mut (&mut r).take(pos - b.uncompressed_offset), &mut io::sink())?;
            let (found, n) = walk(r, id, body_only, true, out)?;
            outcome.start_block = k;
            outcome.found = found;
            outcome.decoded_bytes = n + (pos - b.uncompressed_offset);
            // Pages out of id order: fall back to reading from the start.
            if found {
                return Ok(outcome);
            }
        }
    }
    let r = liblzma::read::XzDecoder::new_multi_decoder(io::BufReader::with_capacity(1 << 16, File::open(path)?));
    let (found, n) = walk(r, id, body_only, false, out)?;
    outcome.found = found;
    outcome.start_block = 0;
    outcome.decoded_bytes = n;
    Ok(outcome)
}
