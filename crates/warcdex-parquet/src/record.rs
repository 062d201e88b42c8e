//! A capture as the sorter keeps it: its partition, its fetch time and the
//! index fields as read, encoded back to back in one byte string. The
//! columns are derived after the sort, from the decoded capture: the
//! derived row repeats the URL's parts, the host's and the file name's
//! (about 490 bytes a row against 230 for the capture), and the sort
//! writes, spills and reads back every byte it keeps.
//!
//! A record is `u32 length` + body:
//!
//!   [header bytes: u8] [fetch_time: i64 LE]
//!   [partition: varint id] [SURT key: varint len]
//!   [file name's stem: varint(id + 1), 0 for none]
//!   [segment: varint(start + 1), 0 for none; varint(len)]
//!   [per other text: varint(len + 1), 0 for null] [texts]
//!
//! The texts are the SURT key and the capture's other index fields, back
//! to back, so that a record read back from disk is checked as UTF-8 in
//! one pass. Partition, key and fetch time lead, where the sorter reads
//! them without decoding the rest. Partition paths and the stems of WARC
//! file names (up to their last `/` or `-`: Common Crawl's
//! `.../CC-MAIN-<start>-<end>-` is shared by a segment's files, whose names
//! differ in `00502.warc.gz`) repeat from record to record (a third of a
//! Common Crawl record): the job's [`Names`] keeps each once and records
//! carry its number. The segment is a byte range of the whole file name: with
//! the partition, what [`Placement`] found before the sort.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io;

use crate::capture::Capture;
use crate::row::Placement;
use crate::varint;

/// Texts a record holds with a length in the header: the capture's fields
/// but the SURT key (before them) and the timestamp (the fetch time stands
/// for it). The file name's is the part after its stem.
const N_TEXT: usize = 12;

/// Stems kept at most: a job's names stay small whatever its inputs (a
/// Common Crawl crawl has a few hundred); file names with further stems
/// are kept whole in their records.
const MAX_STEMS: usize = 1 << 16;

/// The partition paths and file-name stems of a job's records,
/// numbered in first-seen order. Records name them by number.
#[derive(Debug)]
pub struct Names {
    partitions: NameTable,
    stems: NameTable,
}

impl Default for Names {
    fn default() -> Self {
        Names { partitions: NameTable::new(usize::MAX), stems: NameTable::new(MAX_STEMS) }
    }
}

/// Looked up once a row (a CC index alternates between a few hundred
/// stems): ahash, where std's SipHash took a third of the encoding.
type FastMap = HashMap<Box<str>, u32, ahash::RandomState>;

/// Texts numbered in first-seen order, at most `cap` of them.
#[derive(Debug)]
struct NameTable {
    names: Vec<Box<str>>,
    ids: FastMap,
    /// Consecutive rows mostly repeat the last one looked up.
    last: u32,
    cap: usize,
}

impl NameTable {
    fn new(cap: usize) -> NameTable {
        NameTable { names: Vec::new(), ids: FastMap::default(), last: 0, cap }
    }

    /// The number of `s`, given one if new; `None` once the table is full.
    fn id(&mut self, s: &str) -> Option<u32> {
        if self.names.get(self.last as usize).is_some_and(|q| **q == *s) {
            return Some(self.last);
        }
        // Few names, alternating row to row (partitions): a scan beats hashing.
        let scanned = if self.names.len() <= 16 { self.names.iter().position(|q| **q == *s).map(|i| i as u32) } else { None };
        let id = match scanned.or_else(|| self.ids.get(s).copied()) {
            Some(id) => id,
            None if self.names.len() < self.cap => {
                let id = self.names.len() as u32;
                self.names.push(s.into());
                self.ids.insert(s.into(), id);
                id
            }
            None => return None,
        };
        self.last = id;
        Some(id)
    }

    fn get(&self, id: usize) -> Option<&str> {
        self.names.get(id).map(|n| &**n)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.names.len()
    }
}

impl Names {
    /// The number of partition `p`, given one if new.
    pub fn partition_id(&mut self, p: &str) -> u32 {
        self.partitions.id(p).expect("partitions are not capped")
    }

    pub fn partition(&self, id: u32) -> Option<&str> {
        self.partitions.get(id as usize)
    }

    /// Each partition's rank in name order, by number: records compare by
    /// it. Ranks grow with the names, so a run sorted before a partition
    /// was added stays in order.
    pub fn partition_ranks(&self) -> Vec<u32> {
        let names = &self.partitions.names;
        let mut by_name: Vec<u32> = (0..names.len() as u32).collect();
        by_name.sort_unstable_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
        let mut rank = vec![0u32; by_name.len()];
        for (r, &id) in by_name.iter().enumerate() {
            rank[id as usize] = r as u32;
        }
        rank
    }

    /// The number of stem `s` (with its final `/` or `-`), given one if
    /// new; `None` once the table is full.
    fn stem_id(&mut self, s: &str) -> Option<u32> {
        self.stems.id(s)
    }

    fn stem(&self, id: usize) -> Option<&str> {
        self.stems.get(id)
    }
}

/// A decoded record: strings borrow from the body, the job's names and
/// the buffer the file name is put back together in.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<'a> {
    pub partition: &'a str,
    /// The segment's bytes in the capture's file name (empty: none).
    pub segment: std::ops::Range<usize>,
    pub fetch_time: i64,
    /// The capture, its timestamp empty.
    pub capture: Capture<'a>,
}

fn texts<'c>(c: &'c Capture<'_>, file: Option<&'c str>) -> [Option<&'c str>; N_TEXT] {
    let o = |v: &'c Option<Cow<'_, str>>| v.as_deref();
    [
        o(&c.url),
        o(&c.mime),
        o(&c.status),
        o(&c.digest),
        o(&c.length),
        o(&c.offset),
        file,
        o(&c.redirect),
        o(&c.mime_detected),
        o(&c.charset),
        o(&c.languages),
        o(&c.truncated),
    ]
}

/// Appends one length-prefixed record; its partition's number is returned.
pub fn encode(names: &mut Names, placement: &Placement<'_>, fetch_time: i64, c: &Capture<'_>, buf: &mut Vec<u8>) -> u32 {
    let part = names.partition_id(placement.partition);
    // The stem is everything up to the last '/' or '-'. Stems ended at the
    // last '/' alone left CC's 51-byte base names in every record; with
    // '-', 13 bytes (1M CC rows 2.12 -> 2.07 s).
    let (stem, file) = match c.filename.as_deref() {
        Some(f) => match f.rfind(['/', '-']).and_then(|i| Some((names.stem_id(&f[..=i])?, &f[i + 1..]))) {
            Some((id, rest)) => (Some(id), Some(rest)),
            None => (None, Some(f)),
        },
        None => (None, None),
    };
    let start = buf.len();
    buf.extend_from_slice(&[0; 5]);
    buf.extend_from_slice(&fetch_time.to_le_bytes());
    varint::put(buf, part as u64);
    varint::put(buf, c.urlkey.len() as u64);
    varint::put(buf, stem.map_or(0, |d| d as u64 + 1));
    let seg = &placement.segment;
    varint::put(buf, if seg.is_empty() { 0 } else { seg.start as u64 + 1 });
    varint::put(buf, seg.len() as u64);
    let texts = texts(c, file);
    for t in &texts {
        // A length fits five varint bytes, so the header fits its u8.
        varint::put(buf, t.map_or(0, |s| s.len() as u64 + 1));
    }
    buf[start + 4] = (buf.len() - start - 13) as u8;
    buf.extend_from_slice(c.urlkey.as_bytes());
    for s in texts.iter().flatten() {
        buf.extend_from_slice(s.as_bytes());
    }
    let len = (buf.len() - start - 4) as u32;
    buf[start..start + 4].copy_from_slice(&len.to_le_bytes());
    part
}

fn bad_record() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "corrupt sort record")
}

/// Fetch time, the length header and the texts of a body.
fn split(body: &[u8]) -> io::Result<(i64, &[u8], &[u8])> {
    let (&n, rest) = body.split_first().ok_or_else(bad_record)?;
    let n = n as usize;
    if rest.len() < 8 + n {
        return Err(bad_record());
    }
    let t = i64::from_le_bytes(rest[..8].try_into().unwrap());
    let (header, texts) = rest[8..].split_at(n);
    Ok((t, header, texts))
}

/// The varint at the front of a header, taken off it.
fn next_varint(h: &mut &[u8]) -> io::Result<usize> {
    let (v, used) = varint::get(h).ok_or_else(bad_record)?;
    *h = &h[used..];
    usize::try_from(v).map_err(|_| bad_record())
}

/// The `N` varints of a whole header. Most are one byte (lengths, small
/// numbers), read without the general decoder.
#[inline(always)]
fn header<const N: usize>(mut h: &[u8]) -> io::Result<[usize; N]> {
    let mut out = [0usize; N];
    for slot in &mut out {
        match h.split_first() {
            Some((&b, rest)) if b < 0x80 => {
                *slot = b as usize;
                h = rest;
            }
            _ => *slot = next_varint(&mut h)?,
        }
    }
    if !h.is_empty() {
        return Err(bad_record());
    }
    Ok(out)
}

/// Partition number, SURT key and fetch time of a record body, for sorting.
pub fn sort_key(body: &[u8]) -> (u32, &[u8], i64) {
    // Checked when the record was made or read back: see `check_sort_key`.
    checked_sort_key(body).expect("sort record")
}

/// Whether [`sort_key`] can read `body` (for records read back from disk).
pub fn check_sort_key(body: &[u8]) -> io::Result<()> {
    checked_sort_key(body).map(|_| ())
}

fn checked_sort_key(body: &[u8]) -> io::Result<(u32, &[u8], i64)> {
    let (t, mut h, texts) = split(body)?;
    let p = u32::try_from(next_varint(&mut h)?).map_err(|_| bad_record())?;
    let k = next_varint(&mut h)?;
    Ok((p, texts.get(..k).ok_or_else(bad_record)?, t))
}

impl<'a> Record<'a> {
    /// Partition and segment, as found before the sort.
    pub fn placement(&self) -> Placement<'a> {
        Placement { partition: self.partition, segment: self.segment.clone() }
    }

    /// A view of one record body (after its length prefix) written by
    /// [`encode`] with `names`; a file name kept by its stem is put
    /// back together in `file`.
    pub fn decode(body: &'a [u8], names: &'a Names, file: &'a mut String) -> io::Result<Record<'a>> {
        Record::decode_with(body, names, file, |b| simdutf8::basic::from_utf8(b).map_err(|_| bad_record()))
    }

    /// [`Record::decode`] without checking UTF-8.
    ///
    /// # Safety
    /// `body` must be a record [`encode`] wrote (its texts are then whole
    /// `str`s); the sorter's in-memory arena holds only such.
    pub unsafe fn decode_unchecked(body: &'a [u8], names: &'a Names, file: &'a mut String) -> io::Result<Record<'a>> {
        // SAFETY: the caller guarantees every text was a `str`.
        Record::decode_with(body, names, file, |b| Ok(unsafe { std::str::from_utf8_unchecked(b) }))
    }

    fn decode_with(body: &'a [u8], names: &'a Names, file: &'a mut String, utf8: impl Fn(&'a [u8]) -> io::Result<&'a str>) -> io::Result<Record<'a>> {
        let (fetch_time, h, texts) = split(body)?;
        let v = header::<{ 5 + N_TEXT }>(h)?;
        let [part, key_len, stem, seg_start, seg_len] = [v[0], v[1], v[2], v[3], v[4]];
        let partition = u32::try_from(part).ok().and_then(|p| names.partition(p)).ok_or_else(bad_record)?;
        let stem = match stem.checked_sub(1) {
            Some(d) => Some(names.stem(d).ok_or_else(bad_record)?),
            None => None,
        };
        let segment = match seg_start.checked_sub(1) {
            Some(s) => s..s.checked_add(seg_len).ok_or_else(bad_record)?,
            None => 0..0,
        };
        let texts = utf8(texts)?;
        // `get` refuses a cut inside a character, which a corrupt header
        // could ask for even in valid UTF-8.
        let urlkey = texts.get(..key_len).ok_or_else(bad_record)?;
        let mut t: [Option<&str>; N_TEXT] = [None; N_TEXT];
        let mut end = key_len;
        for (slot, &n) in t.iter_mut().zip(&v[5..]) {
            if let Some(n) = n.checked_sub(1) {
                *slot = Some(texts.get(end..end.checked_add(n).ok_or_else(bad_record)?).ok_or_else(bad_record)?);
                end += n;
            }
        }
        if texts.len() != end {
            return Err(bad_record());
        }
        let c = |v: Option<&'a str>| v.map(Cow::Borrowed);
        let [url, mime, status, digest, length, offset, mut filename, redirect, mime_detected, charset, languages, truncated] = t;
        if let Some(d) = stem {
            let rest = filename.ok_or_else(bad_record)?;
            file.clear();
            file.push_str(d);
            file.push_str(rest);
            let file: &'a String = file;
            filename = Some(file.as_str());
        }
        if !segment.is_empty() && filename.and_then(|f| f.get(segment.clone())).is_none() {
            return Err(bad_record());
        }
        Ok(Record {
            partition,
            segment,
            fetch_time,
            capture: Capture {
                urlkey: urlkey.into(),
                timestamp: "".into(),
                url: c(url),
                mime: c(mime),
                status: c(status),
                digest: c(digest),
                length: c(length),
                offset: c(offset),
                filename: c(filename),
                redirect: c(redirect),
                mime_detected: c(mime_detected),
                charset: c(charset),
                languages: c(languages),
                truncated: c(truncated),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{parse_line, LineFormat};

    const FULL: &str = r#"org,commoncrawl)/faq 20220127163355 {"url": "https://commoncrawl.org/faq/", "mime": "text/html", "mime-detected": "text/html", "status": "301", "digest": "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "length": "958", "offset": "6946714", "filename": "crawl-data/CC-MAIN-2022-05/segments/1642320305277.88/crawldiagnostics/CC-MAIN-20220127163150-20220127193150-00502.warc.gz", "redirect": "/big-picture/", "charset": "UTF-8", "languages": "eng", "truncated": "length"}"#;

    #[test]
    fn round_trip_keeps_every_field() {
        let mut names = Names::default();
        let other = r#"org,x)/ 20200101000000 {"filename": "dir/a/other.warc.gz"}"#;
        let flat = r#"org,x)/ 20200101000000 {"filename": "flat.warc.gz"}"#;
        for (i, line) in [FULL, r#"org,x)/ 20200101000000 {}"#, "org,y)/ 20200101000000 http://y.org/ - - - - - - - -", other, FULL, flat].into_iter().enumerate() {
            let c = parse_line(line, LineFormat::Auto).unwrap();
            let mut buf = Vec::new();
            let segment = if line == FULL { 36..52 } else { 0..0 };
            let partition = ["crawl=X/subset=warc", "crawl=Y/subset=warc"][i % 2];
            let id = encode(&mut names, &Placement { partition, segment: segment.clone() }, 1234, &c, &mut buf);
            assert_eq!(names.partition(id), Some(partition));
            assert_eq!(u32::from_le_bytes(buf[..4].try_into().unwrap()) as usize, buf.len() - 4);
            let mut file = String::new();
            let r = Record::decode(&buf[4..], &names, &mut file).unwrap();
            assert_eq!((r.partition, r.segment.clone(), r.fetch_time), (partition, segment, 1234));
            assert_eq!(format!("{:?}", r.capture), format!("{:?}", Capture { timestamp: "".into(), ..c.clone() }), "{line}");
            assert_eq!(sort_key(&buf[4..]), (id, c.urlkey.as_bytes(), 1234));
            let r = r.clone();
            let mut file2 = String::new();
            // SAFETY: `encode` wrote it.
            assert_eq!(unsafe { Record::decode_unchecked(&buf[4..], &names, &mut file2) }.unwrap(), r);
        }
        // Two stems (FULL's twice), two partitions; the flat name is kept whole.
        assert_eq!((names.stems.len(), names.partitions.len()), (2, 2));
        let cc = "crawl-data/CC-MAIN-2022-05/segments/1642320305277.88/crawldiagnostics/CC-MAIN-20220127163150-20220127193150-";
        assert_eq!((names.stem(0), names.stem(1)), (Some(cc), Some("dir/a/")), "CC's names up to their serial");
        assert_eq!(names.partition_ranks(), [0, 1]);
    }

    #[test]
    fn stems_past_the_limit_stay_in_their_records() {
        let mut names = Names::default();
        for i in 0..MAX_STEMS {
            names.stem_id(&format!("d{i}/")).unwrap();
        }
        let c = Capture { urlkey: "x)/".into(), filename: Some("new/dir/f.warc.gz".into()), ..Default::default() };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        encode(&mut names, &Placement { partition: "p", segment: 4..7 }, 0, &c, &mut a);
        let known = Capture { filename: Some("d7/f.warc.gz".into()), ..c.clone() };
        encode(&mut names, &Placement { partition: "p", segment: 0..0 }, 0, &known, &mut b);
        assert!(a.len() > b.len() + "new/dir/".len() - "d7/".len(), "the new stem is written out");
        let mut file = String::new();
        let r = Record::decode(&a[4..], &names, &mut file).unwrap();
        assert_eq!((r.capture.filename.as_deref(), r.segment), (Some("new/dir/f.warc.gz"), 4..7));
        let r = Record::decode(&b[4..], &names, &mut file).unwrap();
        assert_eq!(r.capture.filename.as_deref(), Some("d7/f.warc.gz"));
    }

    #[test]
    fn partition_ranks_follow_names() {
        let mut names = Names::default();
        for p in ["crawl=B", "crawl=A", "crawl=C", "crawl=A", "crawl=B"] {
            names.partition_id(p);
        }
        assert_eq!(names.partition_ranks(), [1, 0, 2]);
        names.partition_id("crawl=AA");
        assert_eq!(names.partition_ranks(), [2, 0, 3, 1], "ranks keep the order of the names before");
    }

    #[test]
    fn corrupt_records_are_errors() {
        let mut names = Names::default();
        let c = Capture { urlkey: "é,x)/".into(), url: Some("http://x.é/".into()), ..Default::default() };
        let mut buf = Vec::new();
        encode(&mut names, &Placement { partition: "p", segment: 0..0 }, -1, &c, &mut buf);
        let body = &buf[4..];
        let mut file = String::new();
        assert!(Record::decode(body, &names, &mut file).is_ok());
        let texts_at = 9 + body[0] as usize;
        for cut in 0..body.len() {
            assert!(Record::decode(&body[..cut], &names, &mut file).is_err(), "cut at {cut}");
            // The keys are read from the front: a cut must leave them whole.
            if cut < texts_at + "é,x)/".len() {
                assert!(check_sort_key(&body[..cut]).is_err(), "cut at {cut}");
            }
        }
        // Texts that are not UTF-8: the one check over all of them sees it.
        let mut bad = body.to_vec();
        bad[texts_at + 2] = 0xff;
        assert!(Record::decode(&bad, &names, &mut file).is_err());
        // A header that moves a boundary inside 'é' (two bytes): the texts
        // are still UTF-8 as a whole, the fields would not be.
        let mut shifted = body.to_vec();
        assert_eq!(&shifted[9..15], [0, 6, 0, 0, 0, 13], "partition 0, key 6, no stem or segment, url 12");
        (shifted[10], shifted[14]) = (1, 18);
        assert!(Record::decode(&shifted, &names, &mut file).is_err());
        // A partition or stem the names do not have.
        for (at, v) in [(9, 1), (11, 5)] {
            let mut unknown = body.to_vec();
            unknown[at] = v;
            assert!(Record::decode(&unknown, &names, &mut file).is_err(), "byte {at} = {v}");
        }
        // A segment outside the file name, or inside a character of it.
        let c = Capture { filename: Some("é/x".into()), ..c };
        for (segment, ok) in [(0..2, true), (1..2, false), (2..5, false), (3..4, true)] {
            let mut buf = Vec::new();
            encode(&mut names, &Placement { partition: "p", segment: segment.clone() }, -1, &c, &mut buf);
            assert_eq!(Record::decode(&buf[4..], &names, &mut file).is_ok(), ok, "{segment:?}");
        }
    }
}
