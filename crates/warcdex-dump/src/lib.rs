//! Page-dump segments: a crawl published as numbered `data_${start}_${end}.tar.xz`
//! archives with TSV manifests (`manifest_${start}_${end}.tsv.xz`) and a
//! `master_manifest.tsv` (format: `shared/spec/dump-segments.md`).
//!
//! - [`names`]: segment file names and id ranges
//! - [`entries`]: a segment's tar entries, decoded on their own thread
//! - [`tar`]: a small streaming tar reader and writer (ustar)
//! - [`manifest`]: manifest rows, the master manifest
//! - [`page`]: the `<!-- ts\turl -->` header line of a page
//! - [`segment`]: pages of one segment, streamed, each checked against its row
//! - [`problem`]: what is wrong, named by segment and id
//! - [`verify`], [`capture`] (index rows), [`lookup`], [`extract`], [`to_warc`]: the commands
//! - [`xz_index`]: the xz block index, to seek into multi-block streams
//! - [`generate`]: segments that follow the spec, with every quirk and bad input on demand

pub mod capture;
pub mod entries;
pub mod extract;
pub mod generate;
pub mod lookup;
pub mod manifest;
pub mod names;
pub mod page;
pub mod problem;
pub mod segment;
pub mod tar;
pub mod to_warc;
pub mod verify;
pub mod xz_index;

/// Hex MD5 of `data`.
pub fn md5_hex(data: &[u8]) -> String {
    use md5::{Digest, Md5};
    hex(&Md5::digest(data))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}
