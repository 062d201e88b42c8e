//! A capture as the sorter keeps it: its partition path, its fetch time and
//! the index fields as read, encoded back to back in one byte string. The
//! columns are derived after the sort, from the decoded capture: the
//! derived row repeats the URL's parts, the host's and the file name's
//! (about 490 bytes a row against 330 for the capture), and the sort
//! writes, spills and reads back every byte it keeps.
//!
//! A record is `u32 length` + body:
//!
//!   [header bytes: u8] [fetch_time: i64 LE]
//!   [segment: varint(start + 1), 0 for none; varint(len)]
//!   [per text: varint(len + 1), 0 for null] [texts]
//!
//! The texts are the partition, the SURT key and the capture's other index
//! fields, back to back, so that a record read back from disk is checked as
//! UTF-8 in one pass. Partition, key and fetch time are where the sorter
//! reads them without decoding the rest. The segment is a byte range of the
//! file name: with the partition, what [`Placement`] found before the sort.

use std::borrow::Cow;
use std::io;

use crate::capture::Capture;
use crate::row::Placement;
use crate::varint;

/// Texts a record holds: partition, then the capture's fields but the
/// timestamp (the fetch time stands for it).
const N_TEXT: usize = 14;

/// A decoded record: strings borrow from the body.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<'a> {
    pub partition: &'a str,
    /// The segment's bytes in the capture's file name (empty: none).
    pub segment: std::ops::Range<usize>,
    pub fetch_time: i64,
    /// The capture, its timestamp empty.
    pub capture: Capture<'a>,
}

fn texts<'c>(partition: &'c str, c: &'c Capture<'_>) -> [Option<&'c str>; N_TEXT] {
    let o = |v: &'c Option<Cow<'_, str>>| v.as_deref();
    [
        Some(partition),
        Some(&c.urlkey),
        o(&c.url),
        o(&c.mime),
        o(&c.status),
        o(&c.digest),
        o(&c.length),
        o(&c.offset),
        o(&c.filename),
        o(&c.redirect),
        o(&c.mime_detected),
        o(&c.charset),
        o(&c.languages),
        o(&c.truncated),
    ]
}

/// Appends one length-prefixed record.
pub fn encode(placement: &Placement<'_>, fetch_time: i64, c: &Capture<'_>, buf: &mut Vec<u8>) {
    let start = buf.len();
    buf.extend_from_slice(&[0; 5]);
    buf.extend_from_slice(&fetch_time.to_le_bytes());
    let seg = &placement.segment;
    varint::put(buf, if seg.is_empty() { 0 } else { seg.start as u64 + 1 });
    varint::put(buf, seg.len() as u64);
    let texts = texts(placement.partition, c);
    for t in &texts {
        // A length fits five varint bytes, so the header fits its u8.
        varint::put(buf, t.map_or(0, |s| s.len() as u64 + 1));
    }
    buf[start + 4] = (buf.len() - start - 13) as u8;
    for s in texts.iter().flatten() {
        buf.extend_from_slice(s.as_bytes());
    }
    let len = (buf.len() - start - 4) as u32;
    buf[start..start + 4].copy_from_slice(&len.to_le_bytes());
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

/// The next length of a header: `None` for a null field.
fn next_len(h: &mut &[u8]) -> io::Result<Option<usize>> {
    Ok(next_varint(h)?.checked_sub(1))
}

/// Partition, SURT key and fetch time of a record body, for sorting.
pub fn sort_key(body: &[u8]) -> (&[u8], &[u8], i64) {
    // Checked when the record was made or read back: see `check_sort_key`.
    checked_sort_key(body).expect("sort record")
}

/// Whether [`sort_key`] can read `body` (for records read back from disk).
pub fn check_sort_key(body: &[u8]) -> io::Result<()> {
    checked_sort_key(body).map(|_| ())
}

/// The segment range at the front of a header.
fn segment_of(h: &mut &[u8]) -> io::Result<std::ops::Range<usize>> {
    let (start, len) = (next_varint(h)?, next_varint(h)?);
    Ok(match start.checked_sub(1) {
        Some(s) => s..s.checked_add(len).ok_or_else(bad_record)?,
        None => 0..0,
    })
}

fn checked_sort_key(body: &[u8]) -> io::Result<(&[u8], &[u8], i64)> {
    let (t, mut h, texts) = split(body)?;
    segment_of(&mut h)?;
    let p = next_len(&mut h)?.unwrap_or(0);
    let k = next_len(&mut h)?.unwrap_or(0);
    if texts.len() < p + k {
        return Err(bad_record());
    }
    Ok((&texts[..p], &texts[p..p + k], t))
}

impl<'a> Record<'a> {
    /// Partition and segment, as found before the sort.
    pub fn placement(&self) -> Placement<'a> {
        Placement { partition: self.partition, segment: self.segment.clone() }
    }

    /// A view of one record body (after its length prefix) written by [`encode`].
    pub fn decode(body: &'a [u8]) -> io::Result<Record<'a>> {
        Record::decode_with(body, |b| simdutf8::basic::from_utf8(b).map_err(|_| bad_record()))
    }

    /// [`Record::decode`] without checking UTF-8.
    ///
    /// # Safety
    /// `body` must be a record [`encode`] wrote (its texts are then whole
    /// `str`s); the sorter's in-memory arena holds only such.
    pub unsafe fn decode_unchecked(body: &'a [u8]) -> io::Result<Record<'a>> {
        // SAFETY: the caller guarantees every text was a `str`.
        Record::decode_with(body, |b| Ok(unsafe { std::str::from_utf8_unchecked(b) }))
    }

    fn decode_with(body: &'a [u8], utf8: impl Fn(&'a [u8]) -> io::Result<&'a str>) -> io::Result<Record<'a>> {
        let (fetch_time, mut h, texts) = split(body)?;
        let segment = segment_of(&mut h)?;
        let texts = utf8(texts)?;
        let mut t: [Option<&str>; N_TEXT] = [None; N_TEXT];
        let mut end = 0usize;
        for slot in &mut t {
            if let Some(n) = next_len(&mut h)? {
                // `get` refuses a cut inside a character, which a corrupt
                // header could ask for even in valid UTF-8.
                *slot = Some(texts.get(end..end + n).ok_or_else(bad_record)?);
                end += n;
            }
        }
        if !h.is_empty() || texts.len() != end {
            return Err(bad_record());
        }
        let c = |v: Option<&'a str>| v.map(Cow::Borrowed);
        let [partition, urlkey, url, mime, status, digest, length, offset, filename, redirect, mime_detected, charset, languages, truncated] = t;
        if !segment.is_empty() && filename.and_then(|f| f.get(segment.clone())).is_none() {
            return Err(bad_record());
        }
        Ok(Record {
            partition: partition.unwrap_or_default(),
            segment,
            fetch_time,
            capture: Capture {
                urlkey: urlkey.unwrap_or_default().into(),
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
        for line in [FULL, r#"org,x)/ 20200101000000 {}"#, "org,y)/ 20200101000000 http://y.org/ - - - - - - - -"] {
            let c = parse_line(line, LineFormat::Auto).unwrap();
            let mut buf = Vec::new();
            let segment = if c.filename.is_some() { 36..52 } else { 0..0 };
            encode(&Placement { partition: "crawl=X/subset=warc", segment: segment.clone() }, 1234, &c, &mut buf);
            assert_eq!(u32::from_le_bytes(buf[..4].try_into().unwrap()) as usize, buf.len() - 4);
            let r = Record::decode(&buf[4..]).unwrap();
            assert_eq!((r.partition, r.segment.clone(), r.fetch_time), ("crawl=X/subset=warc", segment, 1234));
            assert_eq!(format!("{:?}", r.capture), format!("{:?}", Capture { timestamp: "".into(), ..c.clone() }), "{line}");
            assert_eq!(sort_key(&buf[4..]), (&b"crawl=X/subset=warc"[..], c.urlkey.as_bytes(), 1234));
            // SAFETY: `encode` wrote it.
            assert_eq!(unsafe { Record::decode_unchecked(&buf[4..]) }.unwrap(), r);
        }
    }

    #[test]
    fn corrupt_records_are_errors() {
        let c = Capture { urlkey: "é,x)/".into(), url: Some("http://x.é/".into()), ..Default::default() };
        let mut buf = Vec::new();
        encode(&Placement { partition: "p", segment: 0..0 }, -1, &c, &mut buf);
        let body = &buf[4..];
        assert!(Record::decode(body).is_ok());
        let texts_at = 9 + body[0] as usize;
        for cut in 0..body.len() {
            assert!(Record::decode(&body[..cut]).is_err(), "cut at {cut}");
            // The keys are read from the front: a cut must leave them whole.
            if cut < texts_at + "pé,x)/".len() {
                assert!(check_sort_key(&body[..cut]).is_err(), "cut at {cut}");
            }
        }
        // Texts that are not UTF-8: the one check over all of them sees it.
        let mut bad = body.to_vec();
        bad[texts_at + 2] = 0xff;
        assert!(Record::decode(&bad).is_err());
        // A header that moves a boundary inside 'é' (two bytes): the texts
        // are still UTF-8 as a whole, the fields would not be.
        let mut shifted = body.to_vec();
        assert_eq!(&shifted[9..14], [0, 0, 2, 7, 13], "no segment, partition 1 byte, key 6, url 12");
        (shifted[12], shifted[13]) = (2, 18);
        assert!(Record::decode(&shifted).is_err());
        // A segment outside the file name, or inside a character of it.
        let c = Capture { filename: Some("é/x".into()), ..c };
        for (segment, ok) in [(0..2, true), (1..2, false), (2..5, false), (3..4, true)] {
            let mut buf = Vec::new();
            encode(&Placement { partition: "p", segment: segment.clone() }, -1, &c, &mut buf);
            assert_eq!(Record::decode(&buf[4..]).is_ok(), ok, "{segment:?}");
        }
    }
}
