//! The record reader and the indexer, over raw files (any container, as
//! sniffed) and over plain records that the harness itself compresses (so
//! that mutations land in the records, not in checksums that reject them).
//!
//! Invariants checked on every input (see `check_archive`):
//! - reading the input in small, uneven pieces gives the same rows and
//!   problems as reading it whole (buffer boundaries must not matter);
//! - the reader makes progress: it returns at most about one head or error
//!   per input byte;
//! - every seekable span lies inside the input, and seekable spans come in
//!   increasing order;
//! - every seekable record offset is a record start: a reader opened at
//!   that offset (with a zstd file's leading dictionary frame, which a
//!   reader of a `.warc.zst` loads first) returns a head equal to the one
//!   the whole-file reader returned;
//! - the rows of the whole input are the rows of its records read one by
//!   one: each seekable row's byte span, indexed alone, gives that row and
//!   no other.
//!
//! The wrapping targets add: when the plain records index without a
//! skipped record, their compressed form gives the same rows, offsets and
//! lengths aside (and, for one member holding the whole file, the same
//! offsets and lengths for every record after the first, which count
//! decoded bytes).

use std::io::{self, Read};

use warcdex_core::decode::{sniff, Compression};
use warcdex_core::index::{Event, IndexEntry, IndexOptions, Indexer, Selection, Style};
use warcdex_core::reader::{ArchiveReader, RecordFormat, RecordHead, RecordSpan};

use crate::seeds::{gzip, xz};

const NAME: &str = "fuzz.warc";

/// What an indexing pass said, comparable across passes (messages left out:
/// they quote bytes and name positions in words).
#[derive(Debug, Clone, PartialEq)]
enum Said {
    Row(Box<IndexEntry>),
    Skipped(&'static str, Option<u64>),
    Warning(&'static str, Option<u64>),
}

impl Said {
    fn row(&self) -> Option<&IndexEntry> {
        match self {
            Said::Row(e) => Some(e),
            _ => None,
        }
    }
}

/// The option sets a fuzzed input runs under, chosen by its length so that
/// every mutation that adds or removes a byte moves to another set.
fn options_for(data: &[u8]) -> IndexOptions {
    let mut o = IndexOptions { filename: NAME.into(), ..IndexOptions::default() };
    match data.len() % 8 {
        0 | 1 => {}
        2 => o.style = Style::CdxWriter,
        3 => o.style = Style::Pywb,
        4 => {
            o.style = Style::Pywb;
            o.minimal = true;
        }
        5 => {
            o.selection = Selection::All;
            o.verify = true;
        }
        6 => o.post_append = true,
        _ => {
            o.style = Style::Pywb;
            o.post_append = true;
            o.selection = Selection::All;
        }
    }
    o
}

fn default_options() -> IndexOptions {
    IndexOptions { filename: NAME.into(), ..IndexOptions::default() }
}

fn index_pass<R: Read>(src: R, base: u64, opts: &IndexOptions) -> Vec<Said> {
    let reader = match ArchiveReader::new_at(src, NAME, base) {
        Ok(r) => r,
        Err(e) => return vec![Said::Skipped(e.code(), e.offset)],
    };
    let mut indexer = Indexer::new(reader, opts.clone());
    let mut out = Vec::new();
    while let Some(ev) = indexer.next_event() {
        out.push(match ev {
            Event::Entry(e) => Said::Row(Box::new(e)),
            Event::Skipped(e) => Said::Skipped(e.code(), e.offset),
            Event::Warning(e) => Said::Warning(e.code(), e.offset),
        });
    }
    out
}

/// A reader that hands out the input a few bytes at a time, in sizes that
/// cross every buffer boundary the decoders keep.
struct Drip<'a> {
    data: &'a [u8],
    pos: usize,
    turn: usize,
}

impl Read for Drip<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        const SIZES: [usize; 7] = [1, 2, 7, 64, 3, 511, 4099];
        let n = SIZES[self.turn % SIZES.len()].min(buf.len()).min(self.data.len() - self.pos);
        self.turn += 1;
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The skippable frames a zstd file starts with (the `.warc.zst`
/// dictionary lives there): a reader opened mid-file needs them first.
fn zstd_preamble(data: &[u8]) -> &[u8] {
    let mut at = 0;
    while data.len() >= at + 8 && data[at] & 0xf0 == 0x50 && data[at + 1..at + 4] == [0x2a, 0x4d, 0x18] {
        let len = u32::from_le_bytes([data[at + 4], data[at + 5], data[at + 6], data[at + 7]]) as usize;
        match (at + 8).checked_add(len) {
            Some(end) if end <= data.len() => at = end,
            _ => break,
        }
    }
    &data[..at]
}

/// `data[offset..end]` as a reader opened at `offset` sees it, and the
/// base offset to open it with.
fn from_offset(data: &[u8], offset: usize, end: usize) -> (Vec<u8>, u64) {
    let pre = zstd_preamble(data);
    let pre = if offset >= pre.len() { pre } else { &[][..] };
    let mut bytes = Vec::with_capacity(pre.len() + end - offset);
    bytes.extend_from_slice(pre);
    bytes.extend_from_slice(&data[offset..end]);
    (bytes, (offset - pre.len()) as u64)
}

/// The fields of a head that must not depend on where reading began.
fn head_key(h: &RecordHead) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} block={} offset={} header={}",
        h.format,
        h.version,
        h.rec_type,
        h.headers,
        h.target_uri,
        h.date,
        h.content_type,
        h.block_length,
        h.offset,
        h.header_length
    )
}

/// Every record of the input with its span, checking progress and spans.
fn read_records(data: &[u8]) -> Vec<(RecordHead, RecordSpan)> {
    let Ok(mut r) = ArchiveReader::new(data, NAME) else { return Vec::new() };
    let compression = r.compression();
    let mut out = Vec::new();
    let mut calls = 0usize;
    loop {
        calls += 1;
        assert!(calls <= 2 * data.len() + 4, "the reader makes no progress: {calls} calls on {} bytes", data.len());
        match r.next_head() {
            Ok(Some(h)) => {
                if let Ok(span) = r.finish_record() {
                    out.push((h, span));
                }
            }
            Ok(None) => break,
            Err(_) => {}
        }
    }
    if compression == Compression::None {
        let skipped = r.stats().bytes_skipped;
        assert!(skipped <= data.len() as u64, "{skipped} bytes skipped of a {}-byte input", data.len());
    }
    let mut last_end = None;
    for (h, span) in &out {
        if !span.seekable {
            continue;
        }
        let end = span.offset.checked_add(span.length).expect("span end overflows");
        assert!(end <= data.len() as u64, "span {span:?} of {:?} ends past the input ({} bytes)", h.target_uri, data.len());
        if let Some(prev) = last_end {
            assert!(span.offset >= prev, "span {span:?} starts before the previous one ends ({prev})");
        }
        last_end = Some(end);
    }
    out
}

/// Reopens the input at each seekable record offset. Returns the offsets
/// of ARC records that are records only in their file's context.
fn check_record_starts(data: &[u8], records: &[(RecordHead, RecordSpan)]) -> Vec<u64> {
    let mut in_context = Vec::new();
    for (h, span) in records {
        // ARC v2 lines are only told from v1 lines by the file header; a
        // reader opened later reads them as v1 (as any ARC reader must).
        if !span.seekable || h.version == "ARC/2" {
            continue;
        }
        let (bytes, base) = from_offset(data, span.offset as usize, data.len());
        let again = ArchiveReader::new_at(&bytes[..], NAME, base).and_then(|mut r| r.next_head());
        match again {
            Ok(Some(h2)) => assert_eq!(head_key(&h2), head_key(h), "the record at offset {} reads differently on its own", span.offset),
            // After an ARC file header, every line that can be split into the
            // header's fields is a record (a length of `-1` or `abc` too);
            // alone, it has to look like one (a number at the end).
            _ if h.format == RecordFormat::Arc => in_context.push(span.offset),
            other => panic!("offset {} of record {:?} is not a record start: {other:?}", span.offset, h.target_uri),
        }
    }
    in_context
}

/// Each seekable row's span, indexed alone, gives that row.
fn check_rows_alone(data: &[u8], whole: &[Said], opts: &IndexOptions, arc_v2: bool, in_context: &[u64]) {
    // A POST row's key comes from its neighbour; an ARC v2 row needs the file header.
    if opts.post_append || arc_v2 {
        return;
    }
    let rows: Vec<&IndexEntry> = whole.iter().filter_map(Said::row).collect();
    for row in rows {
        if !row.seekable || in_context.contains(&row.offset) {
            continue;
        }
        let end = row.offset.checked_add(row.length).expect("row end overflows");
        assert!(end <= data.len() as u64, "row {:?} at {}+{} ends past the input", row.url, row.offset, row.length);
        let (bytes, base) = from_offset(data, row.offset as usize, end as usize);
        let alone = index_pass(&bytes[..], base, opts);
        let alone_rows: Vec<&IndexEntry> = alone.iter().filter_map(Said::row).collect();
        assert_eq!(alone_rows, vec![row], "the span {}+{} indexed alone gives other rows", row.offset, row.length);
    }
}

/// All the invariants of one archive input (raw bytes of a file).
fn check_archive(data: &[u8]) -> Vec<Said> {
    let opts = options_for(data);
    let whole = index_pass(data, 0, &opts);
    let dripped = index_pass(Drip { data, pos: 0, turn: data.len() }, 0, &opts);
    assert_eq!(dripped, whole, "reading in small pieces changes the result");
    let records = read_records(data);
    let in_context = check_record_starts(data, &records);
    let arc_v2 = records.iter().any(|(h, _)| h.version == "ARC/2");
    check_rows_alone(data, &whole, &opts, arc_v2, &in_context);
    whole
}

/// Target `archive`: the bytes are a whole input file.
pub fn archive(data: &[u8]) {
    check_archive(data);
}

// --- the harness's own containers -------------------------------------------

fn members(plain: &[u8], compress: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    crate::seeds::record_pieces(plain).into_iter().flat_map(compress).collect()
}

/// A row with what depends on the container left out.
fn content_of(e: &IndexEntry) -> IndexEntry {
    IndexEntry { offset: 0, length: 0, seekable: true, ..e.clone() }
}

/// The compressed file indexes like the plain records it was made of.
fn compare_with_plain(plain: &[u8], file: &[u8], one_member: bool) {
    if sniff(plain) != Ok(Compression::None) {
        return;
    }
    let opts = default_options();
    let plain_said = index_pass(plain, 0, &opts);
    if plain_said.iter().any(|s| matches!(s, Said::Skipped(..))) {
        return;
    }
    // An ARC record line that is one only after its file header (see
    // `check_record_starts`) is not taken for a record after another
    // record's content inside one member, where the reader asks whether
    // the next line starts a record on its own.
    let records = read_records(plain);
    if !check_record_starts(plain, &records).is_empty() {
        return;
    }
    let file_said = index_pass(file, 0, &opts);
    let plain_rows: Vec<&IndexEntry> = plain_said.iter().filter_map(Said::row).collect();
    let file_rows: Vec<&IndexEntry> = file_said.iter().filter_map(Said::row).collect();
    let a: Vec<IndexEntry> = plain_rows.iter().map(|e| content_of(e)).collect();
    let b: Vec<IndexEntry> = file_rows.iter().map(|e| content_of(e)).collect();
    assert_eq!(b, a, "the compressed records index differently from the plain ones");
    if one_member {
        for (p, f) in plain_rows.iter().zip(&file_rows) {
            if !f.seekable {
                assert_eq!((f.offset, f.length), (p.offset, p.length), "decoded offsets of a one-member file");
            }
        }
    }
}

/// Target `archive_gzip`: byte 0 picks one gzip member per record (even)
/// or one member for the whole file (odd); the rest is plain records.
pub fn archive_gzip(data: &[u8]) {
    let Some((&mode, plain)) = data.split_first() else { return };
    let one_member = mode & 1 == 1;
    let file = if one_member { gzip(plain) } else { members(plain, gzip) };
    check_archive(&file);
    compare_with_plain(plain, &file, one_member);
}

/// Target `archive_xz`: like `archive_gzip`, with xz streams.
pub fn archive_xz(data: &[u8]) {
    let Some((&mode, plain)) = data.split_first() else { return };
    let one_member = mode & 1 == 1;
    let file = if one_member { xz(plain) } else { members(plain, xz) };
    check_archive(&file);
    compare_with_plain(plain, &file, one_member);
}

/// Target `archive_zstd`: byte 0 picks frames without a dictionary (0),
/// with the dictionary stored raw (1) or zstd-compressed (2) in the
/// skippable frame `.warc.zst` keeps it in; byte 1 times 16 is the length
/// of the dictionary, which follows; the rest is plain records, one frame
/// each.
pub fn archive_zstd(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let mode = data[0] % 3;
    let dict_len = if mode == 0 { 0 } else { (data[1] as usize * 16).min(data.len() - 2) };
    let (dict, plain) = data[2..].split_at(dict_len);
    let mut file = Vec::new();
    let compressor = if dict.is_empty() {
        zstd::bulk::Compressor::new(1)
    } else {
        let stored = if mode == 2 { zstd::bulk::compress(dict, 1).expect("in memory") } else { dict.to_vec() };
        file.extend_from_slice(&[0x5d, 0x2a, 0x4d, 0x18]);
        file.extend_from_slice(&(stored.len() as u32).to_le_bytes());
        file.extend_from_slice(&stored);
        zstd::bulk::Compressor::with_dictionary(1, dict)
    };
    // A dictionary zstd itself refuses (a damaged formatted one) makes no file.
    let Ok(mut compressor) = compressor else { return };
    for piece in crate::seeds::record_pieces(plain) {
        match compressor.compress(piece) {
            Ok(frame) => file.extend_from_slice(&frame),
            Err(_) => return,
        }
    }
    check_archive(&file);
    compare_with_plain(plain, &file, false);
}
