//! Page dumps: the tar reader (`warcdex_dump::tar`), the page header line
//! (`page::split`) and the manifests (`manifest`).

use warcdex_dump::manifest::{looks_like_header, parse_header, parse_manifest, parse_master, parse_row, Columns, HEADER};
use warcdex_dump::page;
use warcdex_dump::tar::{probe_header, TarReader, TarWriter};

/// Target `dump_tar`: a tar stream (as decoded from a segment's `.tar.xz`).
///
/// It reads the stream as the segment reader does (every regular file's
/// data read whole, at the size its header states) and checks: entry
/// headers sit on 512-byte blocks inside the input, in increasing order;
/// the position never passes the input's end; a page's response is the
/// end of the page. Then a round trip: entries made from the input, written
/// by `TarWriter`, read back the same.
pub fn dump_tar(data: &[u8]) {
    let mut tar = TarReader::new(data);
    let mut buf = Vec::new();
    let mut last = None;
    while let Ok(Some(header)) = tar.next_entry() {
        assert_eq!(header.header_offset % 512, 0, "entry header off a block boundary");
        assert!(header.header_offset + 512 <= data.len() as u64);
        if let Some(prev) = last {
            assert!(header.header_offset > prev, "entries go backwards");
        }
        last = Some(header.header_offset);
        if header.is_file() {
            if tar.read_data(&mut buf).is_err() {
                break;
            }
            assert_eq!(buf.len() as u64, header.size);
            let (_, response) = page::split(&buf);
            assert!(buf.ends_with(response));
        }
        assert!(tar.position() <= data.len() as u64);
    }
    for block in data.chunks_exact(512) {
        let _ = probe_header(block.try_into().expect("512 bytes"));
    }

    let entries: Vec<(String, &[u8])> = data
        .split(|&b| b == 0)
        .take(16)
        .map(|piece| {
            let cut = piece.len().min(1 + piece.first().copied().unwrap_or(0) as usize % 100);
            let name: String = piece[..cut].iter().map(|&b| (b'a' + b % 26) as char).collect();
            (name, &piece[cut..])
        })
        .collect();
    let mut w = TarWriter::new(Vec::new());
    for (name, body) in &entries {
        w.append(name, 1_600_000_000, body).expect("names of at most 100 bytes are written");
    }
    let bytes = w.finish().expect("in memory");
    let mut r = TarReader::new(&bytes[..]);
    for (name, body) in &entries {
        let h = r.next_entry().expect("written entries read back").expect("an entry per write");
        assert_eq!((&h.name, h.size), (name, body.len() as u64));
        r.read_data(&mut buf).expect("written data reads back");
        assert_eq!(&buf[..], *body);
    }
    assert!(r.next_entry().expect("the end marker reads").is_none());
}

/// Target `dump_manifest`: a segment manifest or a master manifest (text).
///
/// Checks: parsed rows have 32 lower-case hex md5s; every non-blank line
/// after the header is a row or a problem; a row written back as a
/// standard line parses to the same row; the master manifest's entries and
/// problems are at most its lines.
pub fn dump_manifest(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_manifest(&text);
    for row in &parsed.rows {
        assert!(row.md5.len() == 32 && row.md5.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "md5 {:?}", row.md5);
        let line = format!("{}\t{}\t{}\t{}\t{}", row.id, row.timestamp, row.url, row.length, row.md5);
        assert_eq!(parse_row(&line, Columns::default()).as_ref(), Ok(row), "row written back as {line:?}");
    }
    let mut lines = text.lines().peekable();
    if lines.peek().is_some_and(|l| looks_like_header(l)) {
        lines.next();
    }
    let body_lines = lines.filter(|l| !l.trim().is_empty()).count();
    let bad_rows = parsed.problems.iter().filter(|p| p.1 == "bad-row").count();
    assert_eq!(parsed.rows.len() + bad_rows, body_lines, "rows and bad rows against lines");
    for line in text.lines() {
        let cols = parse_header(line).unwrap_or_else(|(c, _)| c);
        let _ = parse_row(line, cols);
    }
    assert_eq!(parse_header(HEADER), Ok(Columns::default()));

    let (entries, problems) = parse_master(&text);
    assert!(entries.len() + problems.len() <= text.lines().count().max(1));
}
