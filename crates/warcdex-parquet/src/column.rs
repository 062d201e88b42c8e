//! One column of the row group being written: values into pages (plain or
//! dictionary-encoded, definition levels for nullable columns), pages
//! compressed as they fill, and what the footer and the page index say of
//! them (sizes, statistics, page locations).
//!
//! Values arrive as bytes: strings as they are, integers little-endian,
//! which is their plain encoding.

use std::io;

use hashbrown::HashTable;

use crate::compress::Compressor;
use crate::{delta, rle};
use crate::thrift::Thrift;

/// Parquet's physical types used by the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Physical {
    ByteArray,
    Int32,
    Int64,
}

impl Physical {
    /// The delta encoding of this type's [`Spec::delta`] columns.
    pub fn delta_encoding(self) -> i32 {
        match self {
            Physical::ByteArray => ENC_DELTA_BYTE_ARRAY,
            Physical::Int32 | Physical::Int64 => ENC_DELTA_BINARY_PACKED,
        }
    }

    pub fn thrift_id(self) -> i32 {
        match self {
            Physical::Int32 => 1,
            Physical::Int64 => 2,
            Physical::ByteArray => 6,
        }
    }

    /// Statistics order: bytes unsigned, integers signed.
    #[inline]
    fn less(self, a: &[u8], b: &[u8]) -> bool {
        match self {
            Physical::ByteArray => {
                // Most pairs differ in their first eight bytes, and many
                // values are shorter: integer compares instead of memcmp.
                let (x, y) = (head8(a), head8(b));
                if x != y {
                    return x < y;
                }
                if a.len() <= 8 && b.len() <= 8 {
                    // Equal heads: the shorter is a prefix of the longer.
                    return a.len() < b.len();
                }
                a < b
            }
            Physical::Int32 => i32::from_le_bytes(a.try_into().unwrap()) < i32::from_le_bytes(b.try_into().unwrap()),
            Physical::Int64 => i64::from_le_bytes(a.try_into().unwrap()) < i64::from_le_bytes(b.try_into().unwrap()),
        }
    }

    #[inline]
    fn put_plain(self, v: &[u8], out: &mut Vec<u8>) {
        out.reserve(4 + v.len());
        if self == Physical::ByteArray {
            out.extend_from_slice(&(v.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(v);
    }
}

/// The first eight bytes of `v` big-endian, zero-padded: ordered as the
/// bytes are, up to ties between a value and its zero-padded extensions.
#[inline]
fn head8(v: &[u8]) -> u64 {
    if let Some(c) = v.first_chunk::<8>() {
        return u64::from_be_bytes(*c);
    }
    v.iter().enumerate().fold(0, |x, (i, &b)| x | (b as u64) << (56 - 8 * i))
}

/// The values of a plain-encoded BYTE_ARRAY buffer (`u32` length + bytes).
fn byte_arrays(buf: &[u8]) -> impl Iterator<Item = &[u8]> + Clone {
    let mut p = 0;
    std::iter::from_fn(move || {
        let n = u32::from_le_bytes(buf.get(p..p + 4)?.try_into().unwrap()) as usize;
        let v = &buf[p + 4..p + 4 + n];
        p += 4 + n;
        Some(v)
    })
}

// Parquet's enum numbers.
const PAGE_DATA: i32 = 0;
const PAGE_DICTIONARY: i32 = 2;
pub const ENC_PLAIN: i32 = 0;
pub const ENC_RLE: i32 = 3;
pub const ENC_DELTA_BINARY_PACKED: i32 = 5;
pub const ENC_DELTA_BYTE_ARRAY: i32 = 7;
pub const ENC_RLE_DICTIONARY: i32 = 8;

/// Limits other writers use too: a data page is cut at 1 MiB of values, and
/// a dictionary that outgrows 1 MiB stops taking values (later pages of the
/// chunk are plain).
const PAGE_BYTES: usize = 1 << 20;
const DICT_BYTES: usize = 1 << 20;
/// A chunk's first page decides whether its pages are compressed only
/// from this size on.
const STORE_PROBE_BYTES: usize = 8 << 10;
/// Statistics and page-index bounds of strings are cut to this many bytes
/// (the lower bound truncated, the upper one truncated and incremented).
const STATS_BYTES: usize = 64;

/// The settings of one column.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub physical: Physical,
    pub nullable: bool,
    pub dictionary: bool,
    /// Pages that are not dictionary-encoded are delta-encoded, not PLAIN:
    /// DELTA_BYTE_ARRAY for strings, DELTA_BINARY_PACKED for INT64 (INT32
    /// stays PLAIN).
    pub delta: bool,
    pub bloom_filter: bool,
    /// Values arrive in ascending order (the file's sort column): a plain
    /// page's bounds are its first and last value.
    pub sorted: bool,
}

/// A dictionary: distinct values in first-seen order, plain-encoded back to
/// back (which is the dictionary page), found again through a hash table.
struct Dict {
    plain: Vec<u8>,
    /// Where each entry's bytes start and end in `plain`.
    spans: Vec<(u32, u32)>,
    table: HashTable<(u64, u32)>,
    hasher: ahash::RandomState,
    /// The first entries' [`head8`], for the scan of small dictionaries.
    heads: Vec<u64>,
    /// Sorted rows repeat values: the last entry is tried first.
    last: u32,
    last_head: (u64, u32),
}

/// Dictionaries up to this many entries are scanned rather than hashed.
const SMALL_DICT: usize = 16;

impl Dict {
    fn new() -> Dict {
        Dict {
            plain: Vec::new(),
            spans: Vec::new(),
            table: HashTable::new(),
            hasher: ahash::RandomState::with_seeds(1, 2, 3, 4),
            heads: Vec::new(),
            last: u32::MAX,
            last_head: (0, 0),
        }
    }

    fn get(&self, i: u32) -> &[u8] {
        let (s, e) = self.spans[i as usize];
        &self.plain[s as usize..e as usize]
    }

    /// The entry of `v`, added if new. The repeat of the last value is
    /// handled inline (in the row push); the rest out of line.
    #[inline(always)]
    fn index(&mut self, v: &[u8], physical: Physical) -> u32 {
        let (head, len) = (head8(v), v.len() as u32);
        // The last entry's head and length settle most repeats of short
        // values without a call to memcmp.
        if self.last != u32::MAX && self.last_head == (head, len) && (len <= 8 || self.get(self.last) == v) {
            return self.last;
        }
        self.find_or_add(v, head, physical)
    }

    #[inline(never)]
    fn find_or_add(&mut self, v: &[u8], head: u64, physical: Physical) -> u32 {
        let len = v.len() as u32;
        // Columns of a few values (status, MIME types, languages) in random
        // order: a scan of the entries' heads costs less than hashing.
        if self.spans.len() <= SMALL_DICT {
            let found = self.heads.iter().zip(&self.spans).position(|(&h, &(s, e))| {
                h == head && e - s == len && (len <= 8 || &self.plain[s as usize..e as usize] == v)
            });
            if let Some(i) = found {
                self.last = i as u32;
                self.last_head = (head, len);
                return i as u32;
            }
        }
        let h = self.hasher.hash_one(v);
        let (plain, spans) = (&self.plain, &self.spans);
        let found = self.table.find(h, |&(eh, i)| {
            let (s, e) = spans[i as usize];
            eh == h && &plain[s as usize..e as usize] == v
        });
        let i = match found {
            Some(&(_, i)) => i,
            None => {
                let i = self.spans.len() as u32;
                physical.put_plain(v, &mut self.plain);
                let end = self.plain.len();
                self.spans.push(((end - v.len()) as u32, end as u32));
                if self.heads.len() < SMALL_DICT {
                    self.heads.push(head);
                }
                self.table.insert_unique(h, (h, i), |&(eh, _)| eh);
                i
            }
        };
        self.last = i;
        self.last_head = (head, len);
        i
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    fn clear(&mut self) {
        self.plain.clear();
        self.spans.clear();
        self.table.clear();
        self.heads.clear();
        self.last = u32::MAX;
    }
}

/// A finished column chunk, ready for the file.
pub struct Chunk {
    /// The dictionary page (header and body), if any page used it.
    pub dict_page: Vec<u8>,
    /// The data pages, headers and bodies.
    pub pages: Vec<u8>,
    pub info: ChunkInfo,
    pub bloom: Option<parquet::bloom_filter::Sbbf>,
}

/// What the footer and the page index say of a chunk, gathered page by page.
#[derive(Default)]
pub struct ChunkInfo {
    /// Per data page: offset (in `Chunk::pages` until the file places
    /// them), size, first row.
    pub locations: Vec<(u64, u32, u64)>,
    pub index: PageIndex,
    /// Nulls counted page by page; the bounds set when the chunk ends.
    pub stats: Stats,
    pub values: u64,
    pub uncompressed: u64,
    pub compressed: u64,
    pub dict_data_pages: u32,
    pub plain_data_pages: u32,
    pub delta_data_pages: u32,
}

/// What the column index holds for each page of a chunk.
#[derive(Default)]
pub struct PageIndex {
    pub null_pages: Vec<bool>,
    pub mins: Vec<Vec<u8>>,
    pub maxs: Vec<Vec<u8>>,
    pub null_counts: Vec<i64>,
    /// 0 unordered, 1 ascending, 2 descending.
    pub boundary_order: i32,
}

#[derive(Default)]
pub struct Stats {
    pub nulls: u64,
    /// Bound, and whether it is the exact value (not truncated).
    pub min: Option<(Vec<u8>, bool)>,
    pub max: Option<(Vec<u8>, bool)>,
}

pub struct Column {
    spec: Spec,
    page_rows: usize,
    /// This chunk's dictionary and whether new pages still use it.
    dict: Dict,
    dict_on: bool,
    // The page being filled. Definition levels are kept from the page's
    // first null on (before it, every level is 1).
    defs: Vec<u8>,
    plain: Vec<u8>,
    idx: Vec<u32>,
    rows: usize,
    nulls: usize,
    // The chunk so far (bounds untruncated until it ends).
    pages: Vec<u8>,
    info: ChunkInfo,
    min: Option<Vec<u8>>,
    max: Option<Vec<u8>>,
    /// Scratch: the dictionary entries a page uses (a bit each).
    seen: Vec<u64>,
    /// Scratch for DELTA_BYTE_ARRAY's lengths (`prefixes` also for the
    /// values of a DELTA_BINARY_PACKED page).
    prefixes: Vec<i64>,
    suffixes: Vec<i64>,
    bloom: Option<parquet::bloom_filter::Sbbf>,
    bloom_ndv: u64,
    /// The chunk's first page did not compress: its later pages are stored
    /// in the codec's frame without being compressed.
    store: bool,
}

impl Column {
    pub fn new(spec: Spec, page_rows: usize, bloom_ndv: u64) -> Column {
        let mut c = Column {
            spec,
            page_rows: page_rows.max(1),
            dict: Dict::new(),
            dict_on: spec.dictionary,
            defs: Vec::new(),
            plain: Vec::new(),
            idx: Vec::new(),
            rows: 0,
            nulls: 0,
            pages: Vec::new(),
            info: ChunkInfo::default(),
            min: None,
            max: None,
            seen: Vec::new(),
            prefixes: Vec::new(),
            suffixes: Vec::new(),
            bloom: None,
            bloom_ndv,
            store: false,
        };
        c.bloom = c.new_bloom();
        c
    }

    fn new_bloom(&self) -> Option<parquet::bloom_filter::Sbbf> {
        self.spec.bloom_filter.then(|| crate::bloom::empty(self.bloom_ndv))
    }

    /// Inlined into the writer's row push: a call per value (30 a row) cost
    /// more than the work of most values.
    #[inline(always)]
    pub fn push(&mut self, v: Option<&[u8]>, comp: &mut Compressor) -> io::Result<()> {
        // Whether the page's values or the dictionary reached their limit:
        // checked where they grow.
        let full = match v {
            Some(v) => {
                if self.nulls > 0 {
                    self.defs.push(1);
                }
                if let Some(b) = &mut self.bloom {
                    b.insert(v);
                }
                if self.dict_on {
                    let i = self.dict.index(v, self.spec.physical);
                    self.idx.push(i);
                    self.dict.plain.len() >= DICT_BYTES
                } else {
                    self.spec.physical.put_plain(v, &mut self.plain);
                    self.plain.len() >= PAGE_BYTES
                }
            }
            None => {
                debug_assert!(self.spec.nullable, "null in a required column");
                if self.nulls == 0 {
                    self.defs.resize(self.rows, 1);
                }
                self.defs.push(0);
                self.nulls += 1;
                false
            }
        };
        self.rows += 1;
        if full || self.rows >= self.page_rows {
            self.finish_page(comp)?;
        }
        Ok(())
    }

    /// The page's lowest and highest value.
    fn page_bounds(&mut self) -> Option<(&[u8], &[u8])> {
        let p = self.spec.physical;
        if self.dict_on {
            // Each entry the page uses is compared once: a column of a few
            // values in random order compared every row before.
            let seen = &mut self.seen;
            seen.clear();
            seen.resize(self.dict.len().div_ceil(64), 0);
            let dict = &self.dict;
            let used = self.idx.iter().filter_map(|&i| {
                let (word, bit) = (&mut seen[i as usize / 64], 1u64 << (i % 64));
                let new = *word & bit == 0;
                *word |= bit;
                new.then(|| dict.get(i))
            });
            return bounds(p, used);
        }
        match p {
            Physical::ByteArray if self.spec.sorted && !self.spec.nullable => {
                debug_assert!(byte_arrays(&self.plain).is_sorted(), "a sorted column's values out of order");
                let mut values = byte_arrays(&self.plain);
                values.next().map(|first| (first, values.last().unwrap_or(first)))
            }
            Physical::ByteArray => bounds(p, byte_arrays(&self.plain)),
            Physical::Int32 => bounds(p, self.plain.chunks_exact(4)),
            Physical::Int64 => bounds(p, self.plain.chunks_exact(8)),
        }
    }

    /// Re-encodes the page's values plainly and drops the dictionary: used
    /// when more than half of the first page's values are distinct, where
    /// a dictionary costs time and, after zstd, space (on 1M CC-style rows
    /// the host and domain columns were 5% smaller without; the earlier
    /// threshold of three quarters kept dictionaries there).
    fn drop_dictionary(&mut self) {
        for &i in &self.idx {
            let (s, e) = self.dict.spans[i as usize];
            self.spec.physical.put_plain(&self.dict.plain[s as usize..e as usize], &mut self.plain);
        }
        self.idx.clear();
        self.dict.clear();
        self.dict_on = false;
    }

    #[inline(never)]
    fn finish_page(&mut self, comp: &mut Compressor) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let first_page = self.info.locations.is_empty();
        if self.dict_on && first_page && self.dict.len() * 2 > self.rows {
            self.drop_dictionary();
        }
        let mut body = comp.take_page_buffer();
        body.reserve(self.plain.len() + self.idx.len() * 2 + self.defs.len() / 4 + 16);
        if self.spec.nullable {
            body.extend_from_slice(&[0; 4]);
            if self.nulls == 0 {
                // All 1: one run, as `rle::encode` writes it.
                rle::put_run(self.rows, 1, 1, &mut body);
            } else {
                rle::encode(&self.defs, 1, &mut body);
            }
            let n = (body.len() - 4) as u32;
            body[..4].copy_from_slice(&n.to_le_bytes());
        }
        let encoding = if self.dict_on {
            let w = rle::width_for(self.dict.len().saturating_sub(1) as u32);
            body.push(w);
            rle::encode(&self.idx, w, &mut body);
            self.info.dict_data_pages += 1;
            ENC_RLE_DICTIONARY
        } else if self.spec.delta && self.spec.physical == Physical::ByteArray {
            delta::byte_array(byte_arrays(&self.plain), &mut body, &mut self.prefixes, &mut self.suffixes);
            self.info.delta_data_pages += 1;
            ENC_DELTA_BYTE_ARRAY
        } else if self.spec.delta && self.spec.physical == Physical::Int64 {
            self.prefixes.clear();
            self.prefixes.extend(self.plain.chunks_exact(8).map(|b| i64::from_le_bytes(b.try_into().unwrap())));
            delta::binary_packed(&self.prefixes, &mut body);
            self.info.delta_data_pages += 1;
            ENC_DELTA_BINARY_PACKED
        } else {
            body.extend_from_slice(&self.plain);
            self.info.plain_data_pages += 1;
            ENC_PLAIN
        };
        let bounds = self.page_bounds().map(|(lo, hi)| (lo.to_vec(), hi.to_vec()));
        let p = self.spec.physical;
        match &bounds {
            Some((lo, hi)) => {
                if self.min.as_ref().is_none_or(|m| p.less(lo, m)) {
                    self.min = Some(lo.clone());
                }
                if self.max.as_ref().is_none_or(|m| p.less(m, hi)) {
                    self.max = Some(hi.clone());
                }
                let (lo, hi) = (self.bound(lo, false).0, self.bound(hi, true).0);
                self.info.index.mins.push(lo);
                self.info.index.maxs.push(hi);
            }
            None => {
                self.info.index.mins.push(Vec::new());
                self.info.index.maxs.push(Vec::new());
            }
        }
        self.info.index.null_pages.push(bounds.is_none());
        self.info.index.null_counts.push(self.nulls as i64);

        // Bit-packed deltas (offsets, lengths, fetch times) leave zstd
        // nothing to find, but it still looks: about 14 ms per million CC
        // rows for those three columns (timed per column). A chunk whose
        // first page zstd shrinks by less than 1/32 stores the rest (pages
        // of a chunk are alike; tiny pages say too little to decide on).
        let data = if self.store { comp.store(&body)? } else { comp.compress(&body)? };
        if first_page && body.len() >= STORE_PROBE_BYTES && data.len() * 32 > body.len() * 31 {
            self.store = true;
        }
        let mut h = Thrift::new();
        h.open().i32(1, PAGE_DATA).i32(2, body.len() as i32).i32(3, data.len() as i32);
        h.begin(5).i32(1, self.rows as i32).i32(2, encoding).i32(3, ENC_RLE).i32(4, ENC_RLE).end();
        h.end();
        let offset = self.pages.len() as u64;
        self.pages.extend_from_slice(&h.buf);
        self.pages.extend_from_slice(data);
        let info = &mut self.info;
        info.locations.push((offset, (h.buf.len() + data.len()) as u32, info.values));
        info.uncompressed += (h.buf.len() + body.len()) as u64;
        info.compressed += (h.buf.len() + data.len()) as u64;
        info.stats.nulls += self.nulls as u64;
        info.values += self.rows as u64;
        comp.give_back_page_buffer(body);

        self.defs.clear();
        self.plain.clear();
        self.idx.clear();
        self.rows = 0;
        self.nulls = 0;
        if self.dict_on && self.dict.plain.len() >= DICT_BYTES {
            self.dict_on = false;
        }
        Ok(())
    }

    /// A statistics bound: strings longer than [`STATS_BYTES`] are cut, an
    /// upper bound then raised so that it still bounds the value.
    fn bound(&self, v: &[u8], upper: bool) -> (Vec<u8>, bool) {
        if self.spec.physical != Physical::ByteArray || v.len() <= STATS_BYTES {
            return (v.to_vec(), true);
        }
        let cut = match std::str::from_utf8(v) {
            Ok(s) => {
                let mut n = STATS_BYTES;
                while !s.is_char_boundary(n) {
                    n -= 1;
                }
                n
            }
            Err(_) => STATS_BYTES,
        };
        let head = &v[..cut];
        if !upper {
            return (head.to_vec(), false);
        }
        match increment(head) {
            Some(up) => (up, false),
            None => (v.to_vec(), true),
        }
    }

    /// Takes back a finished chunk's page buffer (once written) for the
    /// next chunk: grown afresh each row group, it was reallocated and
    /// copied a dozen times per chunk.
    pub fn recycle(&mut self, mut pages: Vec<u8>) {
        debug_assert!(self.pages.is_empty(), "recycled while a chunk is filling");
        pages.clear();
        self.pages = pages;
    }

    /// Ends the chunk (the row group): its dictionary page, pages and
    /// metadata. The column starts a new chunk afterwards.
    pub fn finish_chunk(&mut self, comp: &mut Compressor) -> io::Result<Chunk> {
        self.finish_page(comp)?;
        let mut dict_page = Vec::new();
        if self.info.dict_data_pages > 0 {
            let data = comp.compress(&self.dict.plain)?;
            let mut h = Thrift::new();
            h.open().i32(1, PAGE_DICTIONARY).i32(2, self.dict.plain.len() as i32).i32(3, data.len() as i32);
            h.begin(7).i32(1, self.dict.len() as i32).i32(2, ENC_PLAIN).end();
            h.end();
            dict_page.extend_from_slice(&h.buf);
            dict_page.extend_from_slice(data);
            self.info.uncompressed += (h.buf.len() + self.dict.plain.len()) as u64;
            self.info.compressed += dict_page.len() as u64;
        }
        let min = self.min.take().map(|m| self.bound(&m, false));
        let max = self.max.take().map(|m| self.bound(&m, true));
        let fresh_bloom = self.new_bloom();
        let mut info = std::mem::take(&mut self.info);
        (info.stats.min, info.stats.max) = (min, max);
        info.index.boundary_order = boundary_order(self.spec.physical, &info.index);
        self.dict.clear();
        self.dict_on = self.spec.dictionary;
        self.store = false;
        Ok(Chunk { dict_page, pages: std::mem::take(&mut self.pages), info, bloom: std::mem::replace(&mut self.bloom, fresh_bloom) })
    }
}

/// The lowest and highest of `values`. They are taken in pairs: the smaller
/// of two can only lower the bound and the larger only raise it, three
/// compares for two values where one at a time takes up to four.
fn bounds<'a>(p: Physical, mut values: impl Iterator<Item = &'a [u8]>) -> Option<(&'a [u8], &'a [u8])> {
    let first = values.next()?;
    let (mut lo, mut hi) = (first, first);
    while let Some(a) = values.next() {
        let (small, large) = match values.next() {
            Some(b) if p.less(b, a) => (b, a),
            Some(b) => (a, b),
            None => (a, a),
        };
        if p.less(small, lo) {
            lo = small;
        }
        if p.less(hi, large) {
            hi = large;
        }
    }
    Some((lo, hi))
}

/// The smallest string above every string starting with `head`, no longer
/// than `head` plus one character: the last character that can be raised
/// is raised (UTF-8 stays valid), what follows it dropped.
fn increment(head: &[u8]) -> Option<Vec<u8>> {
    match std::str::from_utf8(head) {
        Ok(s) => {
            let mut chars: Vec<char> = s.chars().collect();
            while let Some(c) = chars.pop() {
                let mut n = c as u32 + 1;
                if (0xD800..0xE000).contains(&n) {
                    n = 0xE000;
                }
                if let Some(up) = char::from_u32(n) {
                    chars.push(up);
                    return Some(chars.into_iter().collect::<String>().into_bytes());
                }
            }
            None
        }
        Err(_) => {
            let mut b = head.to_vec();
            while let Some(last) = b.pop() {
                if last < 0xff {
                    b.push(last + 1);
                    return Some(b);
                }
            }
            None
        }
    }
}

fn boundary_order(p: Physical, index: &PageIndex) -> i32 {
    let pages: Vec<(&[u8], &[u8])> =
        index.null_pages.iter().enumerate().filter(|(_, &null)| !null).map(|(i, _)| (&index.mins[i][..], &index.maxs[i][..])).collect();
    let asc = pages.windows(2).all(|w| !p.less(w[1].0, w[0].0) && !p.less(w[1].1, w[0].1));
    let desc = pages.windows(2).all(|w| !p.less(w[0].0, w[1].0) && !p.less(w[0].1, w[1].1));
    if asc {
        1
    } else if desc {
        2
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_holds_for_short_values_and_zero_bytes() {
        let vals: [&[u8]; 11] = [b"", b"\0", b"\0\0", b"a", b"a\0", b"ab", b"abcdefg", b"abcdefgh", b"abcdefgh\0", b"abcdefghi", b"b"];
        for a in vals {
            for b in vals {
                assert_eq!(Physical::ByteArray.less(a, b), a < b, "{a:?} < {b:?}");
            }
        }
    }

    #[test]
    fn dictionary_indexes_are_stable_past_the_scanned_size() {
        let mut d = Dict::new();
        let vals: Vec<Vec<u8>> = (0..3 * SMALL_DICT).map(|i| format!("v{}", i * 7 % 40).into_bytes()).collect();
        let mut first = std::collections::HashMap::new();
        for round in 0..3 {
            for (k, v) in vals.iter().enumerate() {
                let i = d.index(v, Physical::ByteArray);
                assert_eq!(d.get(i), &v[..]);
                assert_eq!(*first.entry(v.clone()).or_insert(i), i, "round {round}, value {k}");
            }
        }
        assert_eq!(d.len(), first.len());
    }

    /// Pages end at their row count, or when their values (plain) or the
    /// chunk's dictionary reach 1 MiB; later pages of that chunk are plain.
    #[test]
    fn pages_and_dictionaries_end_at_their_byte_limits() {
        let mut comp = Compressor::new(crate::compress::Codec::None).unwrap();
        let value = |i: usize| format!("{i:0>1000}");
        // Plain: 1,000-byte values (1,004 with the length), 10,000 rows a page.
        let spec = Spec { physical: Physical::ByteArray, nullable: true, dictionary: false, delta: false, bloom_filter: false, sorted: false };
        let mut c = Column::new(spec, 10_000, 0);
        for i in 0..3000 {
            let v = value(i);
            c.push((i % 2 == 1).then_some(v.as_bytes()), &mut comp).unwrap();
        }
        let chunk = c.finish_chunk(&mut comp).unwrap();
        let firsts: Vec<u64> = chunk.info.locations.iter().map(|l| l.2).collect();
        // The page ends with the value that takes it to 1 MiB: the 1,045th, at row 2,089.
        assert_eq!(firsts, [0, 2090], "pages start at these rows");
        // Dictionary: distinct values until it holds 1 MiB, then plain pages.
        let spec = Spec { dictionary: true, ..spec };
        let mut c = Column::new(spec, 600, 0);
        for i in 0..3000 {
            // Repeats keep the first page's dictionary (fewer than half distinct).
            let v = if i < 600 { value(i % 10) } else { value(i) };
            c.push(Some(v.as_bytes()), &mut comp).unwrap();
        }
        let chunk = c.finish_chunk(&mut comp).unwrap();
        let firsts: Vec<u64> = chunk.info.locations.iter().map(|l| l.2).collect();
        // 10 entries from the first page; the 1,045th entry (row 1,634) fills it.
        assert_eq!(firsts, [0, 600, 1200, 1635, 2235, 2835]);
        assert_eq!((chunk.info.dict_data_pages, chunk.info.plain_data_pages), (3, 3));
    }

    /// Raw zstd frames as `compress::raw_zstd_frame` starts them (magic,
    /// single segment with a four-byte content size): zstd's own frames of
    /// these pages start otherwise.
    fn stored_pages(chunk: &Chunk) -> usize {
        chunk.pages.windows(5).filter(|w| *w == [0x28, 0xb5, 0x2f, 0xfd, 0b1010_0000]).count()
    }

    #[test]
    fn chunks_whose_first_page_does_not_compress_store_the_rest() {
        let spec = Spec { physical: Physical::Int64, nullable: false, dictionary: false, delta: false, bloom_filter: false, sorted: false };
        let column = |page_rows: usize, value: &dyn Fn(u64) -> u64| {
            let mut comp = Compressor::new(crate::compress::Codec::Zstd).unwrap();
            let mut c = Column::new(spec, page_rows, 0);
            for i in 0..10_000u64 {
                c.push(Some(&value(i).to_le_bytes()), &mut comp).unwrap();
            }
            c.finish_chunk(&mut comp).unwrap()
        };
        // splitmix64: 8 random bytes a row, 16,000-byte pages.
        let random = |i: u64| {
            let mut z = i.wrapping_add(1).wrapping_mul(0x9e3779b97f4a7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
            z ^ (z >> 31)
        };
        let chunk = column(2000, &random);
        assert_eq!(stored_pages(&chunk), 4, "pages 2-5 stored, the first compressed (and kept)");
        assert!(chunk.info.compressed > chunk.info.uncompressed, "nothing compressed");
        // Compressible values: every page compressed.
        let chunk = column(2000, &|i| i / 100);
        assert_eq!(stored_pages(&chunk), 0);
        assert!(chunk.info.compressed * 4 < chunk.info.uncompressed);
        // Random but pages of 800 bytes: too small to decide on.
        assert_eq!(stored_pages(&column(100, &random)), 0);
    }

    #[test]
    fn dictionary_page_bounds_cover_every_value() {
        let spec = Spec { physical: Physical::ByteArray, nullable: true, dictionary: true, delta: false, bloom_filter: false, sorted: false };
        let mut c = Column::new(spec, 500, 0);
        let mut comp = Compressor::new(crate::compress::Codec::None).unwrap();
        // Two pages of few values in random order: the second uses only
        // entries the first saw, so it has bounds only if each page looks
        // at its entries afresh.
        let pages = [&["fra,eng", "deu", "eng"][..], &["eng", "deu"][..]];
        let mut x = 7u32;
        for words in pages {
            for _ in 0..500 {
                x = x.wrapping_mul(1103515245).wrapping_add(12345);
                let w = words[(x >> 16) as usize % words.len()];
                c.push(if x % 5 == 0 { None } else { Some(w.as_bytes()) }, &mut comp).unwrap();
            }
        }
        let chunk = c.finish_chunk(&mut comp).unwrap();
        let ix = &chunk.info.index;
        assert_eq!(chunk.info.dict_data_pages, 2);
        assert_eq!((&ix.mins[0][..], &ix.maxs[0][..]), (&b"deu"[..], &b"fra,eng"[..]));
        assert_eq!((&ix.mins[1][..], &ix.maxs[1][..]), (&b"deu"[..], &b"eng"[..]));
    }

    #[test]
    fn upper_bounds_stay_above_and_valid() {
        assert_eq!(increment(b"abc"), Some(b"abd".to_vec()));
        assert_eq!(increment("a\u{10FFFF}".as_bytes()), Some(b"b".to_vec()));
        assert_eq!(increment("\u{D7FF}".as_bytes()), Some("\u{E000}".as_bytes().to_vec()));
        assert_eq!(increment(&[0x61, 0xff]), Some(vec![0x62]), "bytes that are not UTF-8");
        let c = Column::new(Spec { physical: Physical::ByteArray, nullable: false, dictionary: false, delta: false, bloom_filter: false, sorted: false }, 10, 0);
        let long = "é".repeat(40); // 80 bytes, two per character
        let (lo, exact) = c.bound(long.as_bytes(), false);
        assert_eq!((lo.len(), exact), (64, false));
        let (hi, exact) = c.bound(long.as_bytes(), true);
        assert!(!exact && hi.as_slice() > long.as_bytes() && std::str::from_utf8(&hi).is_ok());
        assert_eq!(c.bound(b"short", true), (b"short".to_vec(), true));
    }
}
