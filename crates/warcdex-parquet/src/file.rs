//! One Parquet file of cc-index-table rows: row groups of column chunks
//! (each chunk's dictionary page, then its data pages), the bloom filters
//! after their row group, then the page index (column indexes, offset
//! indexes) and the footer.
//!
//! warcdex writes its files itself rather than through parquet-rs's
//! ArrowWriter: rows go straight into page buffers (no Arrow arrays in
//! between), zstd keeps one context, and a column whose first page is
//! mostly distinct drops its dictionary. A 1M-row conversion took 1.25x
//! less time and gave 5% smaller files (benches/README.md). Readers see a
//! plain Parquet 1.0 file: PLAIN and RLE_DICTIONARY data pages, RLE
//! definition levels, the page index, optional bloom filters.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::column::{Chunk, ChunkInfo, Column, PageIndex, Physical, Spec, ENC_PLAIN, ENC_RLE, ENC_RLE_DICTIONARY};
use crate::compress::{Codec, Compressor};
use crate::row::Row;
use crate::schema::{Kind, COLUMNS};
use crate::thrift::{Elem, Thrift};

const MAGIC: &[u8; 4] = b"PAR1";

/// Columns whose values are mostly distinct: no dictionary is tried.
const NO_DICTIONARY: [&str; 7] = ["url_surtkey", "url", "url_path", "fetch_time", "warc_record_offset", "warc_record_length", "content_digest"];
/// Columns whose plain pages are delta-encoded. Strings as DELTA_BYTE_ARRAY:
/// sorted (url_surtkey, reversed host names) or sharing long prefixes row
/// to row (URLs, CC's file paths, domains of one host); on 1M CC-style rows
/// this made files 5% smaller; url_path and url_host_name gained nothing
/// (DELTA_BYTE_ARRAY on them: files 0.5% larger and 3% slower) and stay
/// PLAIN. The INT64 fetch time, offset and length as DELTA_BINARY_PACKED:
/// bit-packed, they leave zstd next to nothing to find, which zstd then
/// skips quickly (1M rows 2.17 -> 2.12 s, files 0.2% smaller).
const DELTA: [&str; 9] = ["url_surtkey", "url", "url_host_name_reversed", "url_host_registered_domain", "url_host_private_domain", "warc_filename", "fetch_time", "warc_record_length", "warc_record_offset"];
/// Columns that get a bloom filter when asked for.
pub const BLOOM_COLUMNS: [&str; 2] = ["url_surtkey", "url_host_registered_domain"];
/// Rows are sorted by these columns inside every file (`sorting_columns`).
const SORTED_BY: [&str; 2] = ["url_surtkey", "fetch_time"];

/// How a file is laid out.
#[derive(Debug, Clone)]
pub struct FileLayout {
    pub codec: Codec,
    pub row_group_rows: usize,
    pub page_rows: usize,
    pub bloom_filters: bool,
    pub created_by: String,
    /// `ARROW:schema` metadata, so Arrow readers get the exact types.
    pub arrow_schema: String,
}

fn physical(kind: Kind) -> Physical {
    match kind {
        Kind::Str => Physical::ByteArray,
        Kind::I16 | Kind::I32 => Physical::Int32,
        Kind::I64 | Kind::TimestampMillis => Physical::Int64,
    }
}

/// A chunk as placed in the file (its locations are file offsets).
struct ChunkMeta {
    start: u64,
    dict_page_offset: Option<u64>,
    data_page_offset: u64,
    info: ChunkInfo,
    bloom: Option<(u64, u32)>,
    column_index: (u64, u32),
    offset_index: (u64, u32),
}

struct GroupMeta {
    chunks: Vec<ChunkMeta>,
    rows: u64,
}

pub struct FileWriter {
    out: BufWriter<File>,
    pos: u64,
    layout: FileLayout,
    cols: Vec<Column>,
    comp: Compressor,
    group_rows: usize,
    groups: Vec<GroupMeta>,
}

impl FileWriter {
    pub fn create(path: &Path, layout: FileLayout) -> io::Result<FileWriter> {
        let cols = COLUMNS
            .iter()
            .map(|&(name, kind, nullable)| {
                let spec = Spec {
                    physical: physical(kind),
                    nullable,
                    dictionary: !NO_DICTIONARY.contains(&name),
                    delta: DELTA.contains(&name),
                    bloom_filter: layout.bloom_filters && BLOOM_COLUMNS.contains(&name),
                    sorted: name == SORTED_BY[0],
                };
                Column::new(spec, layout.page_rows, layout.row_group_rows as u64)
            })
            .collect();
        let mut w = FileWriter {
            out: BufWriter::with_capacity(1 << 20, File::create(path)?),
            pos: 0,
            comp: Compressor::new(layout.codec)?,
            layout,
            cols,
            group_rows: 0,
            groups: Vec::new(),
        };
        w.write(MAGIC)?;
        Ok(w)
    }

    fn write(&mut self, b: &[u8]) -> io::Result<()> {
        self.out.write_all(b)?;
        self.pos += b.len() as u64;
        Ok(())
    }

    /// Appends one row (in the schema's column order).
    pub fn push<S: AsRef<str>>(&mut self, r: &Row<S>) -> io::Result<()> {
        fn o<S: AsRef<str>>(v: &Option<S>) -> Option<&[u8]> {
            v.as_ref().map(|s| s.as_ref().as_bytes())
        }
        fn s<S: AsRef<str>>(v: &S) -> Option<&[u8]> {
            Some(v.as_ref().as_bytes())
        }
        let h = &r.host;
        let (c, z) = (&mut self.cols, &mut self.comp);
        c[0].push(s(&r.surtkey), z)?;
        c[1].push(s(&r.url), z)?;
        c[2].push(Some(o(&h.name).unwrap_or_default()), z)?;
        for (k, part) in h.parts.iter().enumerate() {
            c[3 + k].push(o(part), z)?;
        }
        c[8].push(o(&h.registry_suffix), z)?;
        c[9].push(o(&h.registered_domain), z)?;
        c[10].push(o(&h.private_suffix), z)?;
        c[11].push(o(&h.private_domain), z)?;
        c[12].push(o(&h.name_reversed), z)?;
        c[13].push(s(&r.protocol), z)?;
        c[14].push(r.port.map(i32::to_le_bytes).as_ref().map(|b| &b[..]), z)?;
        c[15].push(s(&r.path), z)?;
        c[16].push(o(&r.query), z)?;
        c[17].push(Some(&r.fetch_time.to_le_bytes()[..]), z)?;
        c[18].push(Some(&(r.status as i32).to_le_bytes()[..]), z)?;
        c[19].push(o(&r.redirect), z)?;
        c[20].push(o(&r.digest), z)?;
        c[21].push(o(&r.mime), z)?;
        c[22].push(o(&r.mime_detected), z)?;
        c[23].push(o(&r.charset), z)?;
        c[24].push(o(&r.languages), z)?;
        c[25].push(o(&r.truncated), z)?;
        c[26].push(s(&r.filename), z)?;
        c[27].push(Some(&r.offset.to_le_bytes()[..]), z)?;
        c[28].push(Some(&r.length.to_le_bytes()[..]), z)?;
        c[29].push(s(&r.segment), z)?;
        self.group_rows += 1;
        if self.group_rows >= self.layout.row_group_rows {
            self.flush_group()?;
        }
        Ok(())
    }

    fn flush_group(&mut self) -> io::Result<()> {
        if self.group_rows == 0 {
            return Ok(());
        }
        let mut chunks = Vec::with_capacity(self.cols.len());
        let mut blooms = Vec::new();
        for i in 0..self.cols.len() {
            let Chunk { dict_page, pages, mut info, bloom } = self.cols[i].finish_chunk(&mut self.comp)?;
            let start = self.pos;
            let dict_page_offset = (!dict_page.is_empty()).then_some(start);
            self.write(&dict_page)?;
            let data_page_offset = self.pos;
            self.write(&pages)?;
            self.cols[i].recycle(pages);
            for loc in &mut info.locations {
                loc.0 += data_page_offset;
            }
            if let Some(b) = bloom {
                blooms.push((i, b));
            }
            chunks.push(ChunkMeta { start, dict_page_offset, data_page_offset, info, bloom: None, column_index: (0, 0), offset_index: (0, 0) });
        }
        for (i, b) in blooms {
            let mut buf = Vec::new();
            b.write(&mut buf).map_err(io::Error::other)?;
            chunks[i].bloom = Some((self.pos, buf.len() as u32));
            self.write(&buf)?;
        }
        self.groups.push(GroupMeta { chunks, rows: self.group_rows as u64 });
        self.group_rows = 0;
        Ok(())
    }

    /// Writes the page index and the footer, and closes the file.
    pub fn close(mut self) -> io::Result<()> {
        self.flush_group()?;
        let mut groups = std::mem::take(&mut self.groups);
        for g in &mut groups {
            for ch in &mut g.chunks {
                let t = column_index(&ch.info.index);
                ch.column_index = (self.pos, t.len() as u32);
                self.write(&t)?;
            }
        }
        for g in &mut groups {
            for ch in &mut g.chunks {
                let t = offset_index(&ch.info.locations);
                ch.offset_index = (self.pos, t.len() as u32);
                self.write(&t)?;
            }
        }
        let footer = file_metadata(&groups, &self.layout);
        self.write(&footer)?;
        self.write(&(footer.len() as u32).to_le_bytes())?;
        self.write(MAGIC)?;
        self.out.flush()
    }
}

fn column_index(ix: &PageIndex) -> Vec<u8> {
    let n = ix.null_pages.len();
    let mut t = Thrift::new();
    t.open().list(1, Elem::Bool, n);
    ix.null_pages.iter().for_each(|&b| t.elem_bool(b));
    t.list(2, Elem::Binary, n);
    ix.mins.iter().for_each(|v| t.bytes(v));
    t.list(3, Elem::Binary, n);
    ix.maxs.iter().for_each(|v| t.bytes(v));
    t.i32(4, ix.boundary_order).list(5, Elem::I64, n);
    ix.null_counts.iter().for_each(|&v| t.elem_i64(v));
    t.end();
    t.buf
}

fn offset_index(locations: &[(u64, u32, u64)]) -> Vec<u8> {
    let mut t = Thrift::new();
    t.open().list(1, Elem::Struct, locations.len());
    for &(off, size, first) in locations {
        t.open().i64(1, off as i64).i32(2, size as i32).i64(3, first as i64).end();
    }
    t.end();
    t.buf
}

fn schema_element(t: &mut Thrift, name: &str, kind: Kind, nullable: bool) {
    t.open().i32(1, physical(kind).thrift_id()).i32(3, nullable as i32).binary(4, name.as_bytes());
    match kind {
        // converted UTF8, logical STRING
        Kind::Str => t.i32(6, 0).begin(10).empty(1).end(),
        // converted INT_16, logical INTEGER(16, signed)
        Kind::I16 => t.i32(6, 16).begin(10).begin(10).i8(1, 16).bool(2, true).end().end(),
        // converted TIMESTAMP_MILLIS, logical TIMESTAMP(isAdjustedToUTC, MILLIS)
        Kind::TimestampMillis => t.i32(6, 9).begin(10).begin(8).bool(1, true).begin(2).empty(1).end().end().end(),
        Kind::I32 | Kind::I64 => t,
    };
    t.end();
}

fn column_metadata(t: &mut Thrift, ch: &ChunkMeta, name: &str, kind: Kind, codec: Codec) {
    let p = physical(kind);
    t.begin(3).i32(1, p.thrift_id());
    let mut encodings = vec![];
    if ch.info.plain_data_pages > 0 || ch.dict_page_offset.is_some() {
        encodings.push(ENC_PLAIN);
    }
    encodings.push(ENC_RLE);
    if ch.info.delta_data_pages > 0 {
        encodings.push(p.delta_encoding());
    }
    if ch.info.dict_data_pages > 0 {
        encodings.push(ENC_RLE_DICTIONARY);
    }
    t.list(2, Elem::I32, encodings.len());
    encodings.iter().for_each(|&e| t.elem_i32(e));
    t.list(3, Elem::Binary, 1);
    t.bytes(name.as_bytes());
    t.i32(4, codec.thrift_id()).i64(5, ch.info.values as i64).i64(6, ch.info.uncompressed as i64).i64(7, ch.info.compressed as i64);
    t.i64(9, ch.data_page_offset as i64);
    if let Some(d) = ch.dict_page_offset {
        t.i64(11, d as i64);
    }
    let s = &ch.info.stats;
    t.begin(12);
    if p != Physical::ByteArray {
        // The deprecated fields too: integers sort the same under both orders.
        if let (Some((max, _)), Some((min, _))) = (&s.max, &s.min) {
            t.binary(1, max).binary(2, min);
        }
    }
    t.i64(3, s.nulls as i64);
    if let (Some((max, max_exact)), Some((min, min_exact))) = (&s.max, &s.min) {
        t.binary(5, max).binary(6, min).bool(7, *max_exact).bool(8, *min_exact);
    }
    t.end();
    // encoding_stats: (page type, encoding, count)
    let mut stats = vec![];
    if ch.dict_page_offset.is_some() {
        stats.push((2, ENC_PLAIN, 1));
    }
    if ch.info.dict_data_pages > 0 {
        stats.push((0, ENC_RLE_DICTIONARY, ch.info.dict_data_pages as i32));
    }
    if ch.info.plain_data_pages > 0 {
        stats.push((0, ENC_PLAIN, ch.info.plain_data_pages as i32));
    }
    if ch.info.delta_data_pages > 0 {
        stats.push((0, p.delta_encoding(), ch.info.delta_data_pages as i32));
    }
    t.list(13, Elem::Struct, stats.len());
    for (page, enc, n) in stats {
        t.open().i32(1, page).i32(2, enc).i32(3, n).end();
    }
    if let Some((off, len)) = ch.bloom {
        t.i64(14, off as i64).i32(15, len as i32);
    }
    t.end();
}

fn file_metadata(groups: &[GroupMeta], layout: &FileLayout) -> Vec<u8> {
    let mut t = Thrift::new();
    t.open().i32(1, 1).list(2, Elem::Struct, COLUMNS.len() + 1);
    t.open().binary(4, b"schema").i32(5, COLUMNS.len() as i32).end();
    for &(name, kind, nullable) in &COLUMNS {
        schema_element(&mut t, name, kind, nullable);
    }
    t.i64(3, groups.iter().map(|g| g.rows as i64).sum());
    t.list(4, Elem::Struct, groups.len());
    for (ordinal, g) in groups.iter().enumerate() {
        t.open().list(1, Elem::Struct, g.chunks.len());
        for (ch, &(name, kind, _)) in g.chunks.iter().zip(COLUMNS.iter()) {
            t.open().i64(2, ch.start as i64);
            column_metadata(&mut t, ch, name, kind, layout.codec);
            t.i64(4, ch.offset_index.0 as i64).i32(5, ch.offset_index.1 as i32);
            t.i64(6, ch.column_index.0 as i64).i32(7, ch.column_index.1 as i32);
            t.end();
        }
        let uncompressed: u64 = g.chunks.iter().map(|c| c.info.uncompressed).sum();
        let compressed: u64 = g.chunks.iter().map(|c| c.info.compressed).sum();
        t.i64(2, uncompressed as i64).i64(3, g.rows as i64);
        t.list(4, Elem::Struct, SORTED_BY.len());
        for name in SORTED_BY {
            let idx = COLUMNS.iter().position(|c| c.0 == name).expect("sort column in the schema");
            t.open().i32(1, idx as i32).bool(2, false).bool(3, false).end();
        }
        t.i64(5, g.chunks[0].start as i64).i64(6, compressed as i64);
        if let Ok(o) = i16::try_from(ordinal) {
            t.i16(7, o);
        }
        t.end();
    }
    t.list(5, Elem::Struct, 1);
    t.open().binary(1, b"ARROW:schema").binary(2, layout.arrow_schema.as_bytes()).end();
    t.binary(6, layout.created_by.as_bytes());
    t.list(7, Elem::Struct, COLUMNS.len());
    for _ in 0..COLUMNS.len() {
        t.open().empty(1).end();
    }
    t.end();
    t.buf
}
