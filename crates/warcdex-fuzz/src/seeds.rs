//! Seed inputs: a few made by hand for every target (always there, and
//! replayed by `cargo test`), and corpora cut from the conformance corpus
//! (`../shared/corpus`) and from generated page dumps, written at run time
//! by the `warcdex-fuzz-seeds` binary into git-ignored folders.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use warcdex_core::decode::{sniff, Compression};
use warcdex_core::headers::StatusAndHeaders;
use warcdex_core::http::parse_http_head;
use warcdex_core::reader::ArchiveReader;
use warcdex_core::source::{Fill, SliceFill};

/// Seeds are cut to this size: libFuzzer's mutations work best on small
/// inputs, and each seed is run once per campaign start.
pub const MAX_SEED: usize = 64 << 10;
/// At most this many seeds per target from the corpus.
const MAX_PER_TARGET: usize = 600;

/// Seeds by target name.
pub type Seeds = BTreeMap<&'static str, Vec<Vec<u8>>>;

fn warc_record(rec_type: &str, uri: &str, extra: &str, block: &str) -> String {
    format!(
        "WARC/1.0\r\nWARC-Type: {rec_type}\r\nWARC-Record-ID: <urn:uuid:{:08x}-0000-0000-0000-000000000000>\r\n\
         WARC-Date: 2020-01-02T03:04:05Z\r\nWARC-Target-URI: {uri}\r\n{extra}Content-Length: {}\r\n\r\n{block}\r\n\r\n",
        uri.len() * 7919 + block.len(),
        block.len()
    )
}

/// A small WARC file with the record kinds the indexer treats differently.
pub fn sample_warc() -> Vec<u8> {
    let response = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 28\r\n\r\n<html><body>hi</body></html>";
    let redirect = "HTTP/1.1 301 Moved\r\nLocation: /b\r\nContent-Type: text/html\r\n\r\n";
    let post = "POST /form HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\na=1&b=%2Fc+";
    let post_response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}";
    let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
    let mut out = String::new();
    out += &warc_record("warcinfo", "", "Content-Type: application/warc-fields\r\n", "software: fuzz\r\nformat: WARC File Format 1.0\r\n");
    out += &warc_record("response", "http://Example.com/a?b=2&a=1", "Content-Type: application/http; msgtype=response\r\n", response);
    out += &warc_record("response", "https://www.example.com:443/r", "Content-Type: application/http; msgtype=response\r\n", redirect);
    out += &warc_record("request", "http://example.com/form", "WARC-Concurrent-To: <urn:uuid:x>\r\n", post);
    out += &warc_record("response", "http://example.com/form", "WARC-Record-ID: <urn:uuid:x>\r\n", post_response);
    out += &warc_record(
        "revisit",
        "http://example.com/a?b=2&a=1",
        "WARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest\r\nWARC-Payload-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n",
        "HTTP/1.1 200 OK\r\n\r\n",
    );
    out += &warc_record("resource", "dns:example.com", "Content-Type: text/dns\r\n", "20200102030405\nexample.com. 60 IN A 10.0.0.1\n");
    out += &warc_record("metadata", "http://example.com/a", "Content-Type: application/warc-fields\r\n", "outlink: http://example.com/b\r\n");
    out += &warc_record("response", "http://example.com/chunked", "", chunked);
    out.into_bytes()
}

/// A version-1 ARC file: the file header, then two URL records.
pub fn sample_arc() -> Vec<u8> {
    let desc = "1 0 Fuzz\nURL IP-address Archive-date Content-type Archive-length\n";
    let body = "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>";
    let body2 = "HTTP/1.0 404 Not Found\r\n\r\n";
    format!(
        "filedesc://fuzz.arc 0.0.0.0 20010101000000 text/plain {}\n{desc}\n\
         http://example.com/a b 10.0.0.1 20010101000001 text/html {}\n{body}\n\
         http://example.com/404 10.0.0.2 200101010000020 text/html {}\n{body2}\n",
        desc.len(),
        body.len(),
        body2.len()
    )
    .into_bytes()
}

/// A version-2 ARC file (the spec's layout: ten fields per URL record).
pub fn sample_arc_v2() -> Vec<u8> {
    let desc = "2 0 Fuzz\nURL IP-address Archive-date Content-type Result-code Checksum Location Offset Filename Archive-length\n";
    let body = "HTTP/1.0 200 OK\r\n\r\nhello";
    format!(
        "filedesc://fuzz.arc 0.0.0.0 20010101000000 text/plain 200 - - 0 fuzz.arc {}\n{desc}\n\
         http://example.com/ 10.0.0.1 20010101000001 text/html 200 ABCDEF - 0 fuzz.arc {}\n{body}\n",
        desc.len(),
        body.len()
    )
    .into_bytes()
}

pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).expect("in memory");
    e.finish().expect("in memory")
}

pub(crate) fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 0);
    e.write_all(data).expect("in memory");
    e.finish().expect("in memory")
}

/// Plain records split where the reader finds each record's start.
pub fn record_pieces(plain: &[u8]) -> Vec<&[u8]> {
    if plain.is_empty() || sniff(plain) != Ok(Compression::None) {
        return vec![plain];
    }
    let Ok(mut r) = ArchiveReader::new(plain, "seed") else { return vec![plain] };
    let mut starts = Vec::new();
    for _ in 0..plain.len() + 4 {
        match r.next_head() {
            Ok(Some(h)) => starts.push(h.offset as usize),
            Ok(None) => break,
            Err(_) => {}
        }
    }
    let mut pieces = Vec::new();
    let mut from = 0;
    for s in starts.into_iter().skip(1) {
        if s > from && s <= plain.len() {
            pieces.push(&plain[from..s]);
            from = s;
        }
    }
    pieces.push(&plain[from..]);
    pieces
}

/// The first records of plain input that fit in `max` bytes (at least one,
/// cut if it alone is larger).
fn first_records(plain: &[u8], max: usize) -> &[u8] {
    let mut end = 0;
    for p in record_pieces(plain) {
        if end + p.len() > max {
            break;
        }
        end += p.len();
    }
    if end == 0 {
        end = plain.len().min(max);
    }
    &plain[..end]
}

fn per_record(plain: &[u8], compress: fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    record_pieces(plain).into_iter().flat_map(compress).collect()
}

fn zstd_file(plain: &[u8], dict: Option<(&[u8], bool)>) -> Vec<u8> {
    let mut file = Vec::new();
    let mut c = match dict {
        Some((d, compressed)) => {
            let stored = if compressed { zstd::bulk::compress(d, 3).expect("in memory") } else { d.to_vec() };
            file.extend_from_slice(&[0x5d, 0x2a, 0x4d, 0x18]);
            file.extend_from_slice(&(stored.len() as u32).to_le_bytes());
            file.extend_from_slice(&stored);
            zstd::bulk::Compressor::with_dictionary(3, d).expect("raw dictionaries load")
        }
        None => zstd::bulk::Compressor::new(3).expect("zstd"),
    };
    for p in record_pieces(plain) {
        file.extend_from_slice(&c.compress(p).expect("in memory"));
    }
    file
}

/// Every container form of some plain records, for the `archive` target.
fn containers(plain: &[u8]) -> Vec<Vec<u8>> {
    let dict = &plain[..plain.len().min(1024)];
    vec![
        plain.to_vec(),
        per_record(plain, gzip),
        gzip(plain),
        per_record(plain, xz),
        xz(plain),
        zstd_file(plain, None),
        zstd_file(plain, Some((dict, false))),
        zstd_file(plain, Some((dict, true))),
    ]
}

/// The input of `archive_zstd` for some plain records.
fn zstd_input(mode: u8, plain: &[u8]) -> Vec<u8> {
    let dict = &plain[..plain.len().min(1024)];
    let units = (dict.len() / 16) as u8;
    let mut v = vec![mode, units];
    v.extend_from_slice(&dict[..units as usize * 16]);
    v.extend_from_slice(plain);
    v
}

fn tar_with(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = warcdex_dump::tar::TarWriter::new(Vec::new());
    for (name, data) in entries {
        w.append(name, 1_600_000_000, data).expect("short names");
    }
    w.finish().expect("in memory")
}

/// A GNU long-name entry and a pax header before a page, written by hand
/// (the crate's writer makes plain ustar only).
fn tar_with_long_name() -> Vec<u8> {
    fn header(name: &[u8], size: usize, kind: u8) -> [u8; 512] {
        let mut h = [0u8; 512];
        h[..name.len()].copy_from_slice(name);
        h[100..108].copy_from_slice(b"0000644\0");
        h[124..136].copy_from_slice(format!("{size:011o}\0").as_bytes());
        h[136..148].copy_from_slice(b"00000000000\0");
        h[156] = kind;
        h[257..263].copy_from_slice(b"ustar\0");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| b as u32).sum();
        h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        h
    }
    let long = "a".repeat(150) + ".html";
    let page = b"<!-- 1600000000\thttp://example.com/long -->\n<html></html>";
    let pax = b"20 path=x/y/z.html\n";
    let mut out = Vec::new();
    for (h, data) in [
        (header(b"././@LongLink", long.len() + 1, b'L'), [long.as_bytes(), b"\0"].concat()),
        (header(b"ignored", page.len(), b'0'), page.to_vec()),
        (header(b"PaxHeader", pax.len(), b'x'), pax.to_vec()),
        (header(b"7.html", 0, b'0'), Vec::new()),
        (header(b"dir/", 0, b'5'), Vec::new()),
    ] {
        out.extend_from_slice(&h);
        out.extend_from_slice(&data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.extend_from_slice(&[0u8; 1024]);
    out
}

/// Parquet files in the column types other cc-index-table writers use
/// (Spark, parquet-mr): Int32 status, millisecond or microsecond times.
pub fn parquet_seed(variant: usize) -> Vec<u8> {
    use arrow_array::{ArrayRef, Int16Array, Int32Array, Int64Array, RecordBatch, StringArray};
    use arrow_array::{TimestampMicrosecondArray, TimestampMillisecondArray};
    use arrow_schema::{DataType, Field, Schema, TimeUnit};

    let urls = ["http://example.com/", "https://www.example.org/a?b=1", "dns:example.com"];
    let keys = ["com,example)/", "org,example)/a?b=1", "dns:example.com"];
    let secs = [1_577_934_245i64, 1_600_000_000, 0];
    let even = variant & 1 == 0;
    let status_type = if even { DataType::Int16 } else { DataType::Int32 };
    let time_type = if even { DataType::Timestamp(TimeUnit::Millisecond, None) } else { DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())) };
    let schema = Arc::new(Schema::new(vec![
        Field::new("url_surtkey", DataType::Utf8, true),
        Field::new("url", DataType::Utf8, true),
        Field::new("fetch_time", time_type.clone(), true),
        Field::new("fetch_status", status_type.clone(), true),
        Field::new("fetch_redirect", DataType::Utf8, true),
        Field::new("content_digest", DataType::Utf8, true),
        Field::new("content_mime_type", DataType::Utf8, true),
        Field::new("warc_filename", DataType::Utf8, true),
        Field::new("warc_record_offset", DataType::Int64, true),
        Field::new("warc_record_length", DataType::Int32, true),
    ]));
    let strings = |v: Vec<Option<&str>>| Arc::new(StringArray::from(v)) as ArrayRef;
    let times: ArrayRef = if even {
        Arc::new(TimestampMillisecondArray::from(secs.iter().map(|s| Some(s * 1000)).collect::<Vec<_>>()))
    } else {
        Arc::new(TimestampMicrosecondArray::from(vec![Some(secs[0] * 1_000_000), None, Some(-1)]).with_timezone("UTC"))
    };
    let status: ArrayRef = if even {
        Arc::new(Int16Array::from(vec![Some(200), Some(301), None]))
    } else {
        Arc::new(Int32Array::from(vec![Some(200), Some(-1), Some(404)]))
    };
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            strings(keys.iter().map(|k| Some(*k)).collect()),
            strings(urls.iter().map(|u| Some(*u)).collect()),
            times,
            status,
            strings(vec![None, Some("https://www.example.org/a"), None]),
            strings(vec![Some("sha1:AAAA"), Some("BBBB"), Some("")]),
            strings(vec![Some("text/html"), Some("unk"), Some("text/dns")]),
            strings(vec![Some("a.warc.gz"), Some("crawl/b.warc.gz"), None]),
            Arc::new(Int64Array::from(vec![Some(0), Some(1234), Some(5_000_000_000)])),
            Arc::new(Int32Array::from(vec![Some(100), Some(200), None])),
        ],
    )
    .expect("a consistent batch");
    let mut out = Vec::new();
    let mut w = parquet::arrow::ArrowWriter::try_new(&mut out, schema, None).expect("writer");
    w.write(&batch).expect("in memory");
    w.close().expect("in memory");
    out
}

/// The hand-made seeds: small, deterministic, one or more per target.
pub fn hand() -> Seeds {
    let mut s = Seeds::new();
    let warc = sample_warc();
    let arc = sample_arc();
    let mut archive = containers(&warc);
    archive.push(sample_arc());
    archive.push(gzip(&arc));
    archive.push(sample_arc_v2());
    // Junk between records, a record cut short, and a member cut short.
    archive.push([&warc[..600], b"junk\r\n\r\n", &warc[600..]].concat());
    archive.push(warc[..warc.len() - 50].to_vec());
    let members = per_record(&warc, gzip);
    archive.push(members[..members.len() - 20].to_vec());
    s.insert("archive", archive);
    s.insert("archive_gzip", vec![[&[0u8][..], &warc].concat(), [&[1u8][..], &warc].concat(), [&[0u8][..], &arc].concat()]);
    s.insert("archive_xz", vec![[&[0u8][..], &warc].concat(), [&[1u8][..], &warc].concat(), [&[0u8][..], &arc].concat()]);
    s.insert("archive_zstd", vec![zstd_input(0, &warc), zstd_input(1, &warc), zstd_input(2, &warc), zstd_input(1, &arc)]);
    s.insert(
        "http_head",
        vec![
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Folded: a\r\n  b\r\nSet-Cookie: x=1\r\nSet-Cookie: y=2\r\n\r\nbody".to_vec(),
            b"HTTP/1.0 302 \nLocation: /x\n\n".to_vec(),
            b"POST /form?q=1 HTTP/1.1\r\nHost: example.com\r\nContent-Length: 3\r\n\r\na=1".to_vec(),
            b"HTTP/1.1 200 OK\r\nX-Latin: caf\xe9\r\nnocolon\r\n\r\n".to_vec(),
            b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 0\r\n\r\n".to_vec(),
        ],
    );
    s.insert(
        "http_body",
        vec![
            [&[0u8, 0][..], b"plain body"].concat(),
            [&[1u8, 3][..], b"3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n"].concat(),
            [&[2u8, 0x85][..], b"gzip me, please".as_slice()].concat(),
            [&[5u8, 0x44][..], b"deflate, chunked".as_slice()].concat(),
            [&[6u8, 0][..], b"x-gzip".as_slice()].concat(),
        ],
    );
    s.insert(
        "post_body",
        vec![
            b"POST\napplication/x-www-form-urlencoded\n\na=1&b=%2Fc+d".to_vec(),
            b"POST\nmultipart/form-data; boundary=B\n\n--B\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\nvalue\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nfile\r\n--B--\r\n".to_vec(),
            b"PUT\napplication/json\n27\n{\"a\":[1,2,{\"b\":null}],\"c\":1.5}".to_vec(),
            b"POST\ntext/plain\n5\nhello".to_vec(),
            b"post\napplication/octet-stream\nzz\n\x00\x01\x02".to_vec(),
            b"POST\napplication/x-amf\n3\nabc".to_vec(),
        ],
    );
    s.insert(
        "surt",
        [
            "http://www.Example.com:80/a/../B/?b=2&a=1#top",
            "https://xn--bcher-kva.example/%7Efoo;jsessionid=0123456789abcdef0123456789abcdef",
            "dns:example.com",
            "filedesc://x.arc",
            "http://0x7f.1/",
            "http:///host/path",
            "http://user:pw@[::1]:8080/p?",
            "mailto:Someone@Example.com",
            "http://bücher.de/straße?q=ä",
            "   ",
            "http://a.b:99999/",
        ]
        .iter()
        .map(|u| u.as_bytes().to_vec())
        .collect(),
    );
    let cdx = " CDX N b a m s k r M S V g\n\
               com,example)/a?a=1&b=2 20200102030405 http://example.com/a?b=2&a=1 text/html 200 AAAA - - 512 0 a.warc.gz\n\
               com,example)/r 20200102030406 https://www.example.com/r text/html 301 BBBB http://example.com/b - 400 512 a.warc.gz\n\
               com,example)/a?a=1&b=2 20200102030407 http://example.com/a?b=2&a=1 warc/revisit - AAAA - - 300 912 a.warc.gz\n\
               uk,co,example)/ 20200102030408 http://example.co.uk/ text/html 200 CCCC - 1212 b.warc.gz\n";
    let cdxj = "com,example)/a?a=1&b=2 20200102030405 {\"url\": \"http://example.com/a?b=2&a=1\", \"mime\": \"text/html\", \"status\": \"200\", \"digest\": \"sha1:AAAA\", \"length\": \"512\", \"offset\": \"0\", \"filename\": \"a.warc.gz\"}\n\
                com,example)/form?__wb_method=post&a=1 20200102030406 {\"url\":\"http://example.com/form\",\"status\":200,\"length\":12,\"method\":\"POST\",\"requestBody\":\"a=1\",\"mime-detected\":\"text/html\",\"languages\":\"eng\"}\n\
                com,example)/esc 20200102030407 {\"url\": \"http://example.com/\\u00e9\\\"q\", \"truncated\": \"length\", \"status\": null}\n";
    s.insert("cdx_line", vec![cdx.as_bytes().to_vec()]);
    s.insert("cdxj_line", vec![cdxj.as_bytes().to_vec()]);
    s.insert("capture_line", vec![cdx.as_bytes().to_vec(), cdxj.as_bytes().to_vec()]);
    s.insert("summary_parquet", vec![parquet_seed(0), parquet_seed(1)]);
    let page = b"<!-- 1600000000\thttp://example.com/ -->\nHTTP/1.1 200 OK\r\n\r\n<html></html>";
    let manifest = "id\ttimestamp\turl\tlength\tmd5\n7\t1600000000\thttp://example.com/\t33\t0123456789abcdef0123456789abcdef\n";
    s.insert(
        "dump_tar",
        vec![tar_with(&[("manifest.tsv", manifest.as_bytes()), ("7.html", page), ("8.html", b"no header line")]), tar_with_long_name()],
    );
    s.insert(
        "dump_manifest",
        vec![
            manifest.as_bytes().to_vec(),
            b"url\tid\ttimestamp\tlength\tmd5\nhttp://a/\t5\t1600000000\t3\t0123456789ABCDEF0123456789abcdef\n6\tx\n".to_vec(),
            b"file_name\ttype\trange_start\trange_end\tsize\tmd5\ndata_0_100.tar.xz\td\t0\t100\t12345\t0123456789abcdef0123456789abcdef\n".to_vec(),
        ],
    );
    s
}

// --- seeds cut from the conformance corpus ----------------------------------

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn gunzip(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = flate2::read::MultiGzDecoder::new(data).read_to_end(&mut out);
    out
}

fn is_archive(name: &str, decoded: &[u8]) -> bool {
    let archive_name = [".warc", ".arc", ".warc.gz", ".arc.gz", ".warc.test", ".wet", ".wat", ".wet.gz", ".wat.gz", ".warc.gz.bad"]
        .iter()
        .any(|s| name.ends_with(s));
    archive_name || decoded.starts_with(b"WARC/") || decoded.starts_with(b"filedesc:")
}

fn is_index(name: &str) -> bool {
    let base = name.strip_suffix(".gz").unwrap_or(name);
    base.ends_with(".cdx") || base.ends_with(".cdxj") || base.contains(".cdx.") || base.ends_with(".idx")
}

/// The raw file cut after the last whole record (or member) within the size.
fn raw_cut(raw: &[u8]) -> &[u8] {
    if raw.len() <= MAX_SEED {
        return raw;
    }
    let Ok(mut r) = ArchiveReader::new(raw, "seed") else { return &raw[..MAX_SEED] };
    let mut end = 0;
    for _ in 0..10_000 {
        match r.next_head() {
            Ok(Some(_)) => match r.finish_record() {
                Ok(span) if span.seekable && span.offset + span.length <= MAX_SEED as u64 => end = (span.offset + span.length) as usize,
                _ => break,
            },
            Ok(None) => break,
            Err(_) => {}
        }
    }
    &raw[..if end == 0 { MAX_SEED } else { end }]
}

/// What the records of plain input give the HTTP and POST targets.
fn http_seeds(plain: &[u8], seeds: &mut Seeds, urls: &mut BTreeSet<String>) {
    let Ok(mut r) = ArchiveReader::new(plain, "seed") else { return };
    let mut taken = 0;
    for _ in 0..plain.len() + 4 {
        let h = match r.next_head() {
            Ok(Some(h)) => h,
            Ok(None) => break,
            Err(_) => continue,
        };
        if let Some(u) = &h.target_uri {
            urls.insert(u.clone());
        }
        if !matches!(h.rec_type.as_str(), "response" | "request" | "revisit") || taken >= 6 {
            continue;
        }
        let mut block = Vec::new();
        let mut b = r.block();
        while block.len() < 16 << 10 {
            let Ok(chunk) = b.fill() else { break };
            if chunk.is_empty() {
                break;
            }
            let n = chunk.len().min((16 << 10) - block.len());
            block.extend_from_slice(&chunk[..n]);
            b.consume(n);
        }
        let mut src = SliceFill::new(&block);
        let mut head = StatusAndHeaders::default();
        if !matches!(parse_http_head(&mut src, &mut head, &mut Vec::new()), Ok(true)) {
            continue;
        }
        taken += 1;
        let body = &block[head.total_bytes..];
        let head_end = (head.total_bytes + 64).min(block.len());
        seeds.entry("http_head").or_default().push(block[..head_end].to_vec());
        let chunked = head.headers.get("transfer-encoding") == Some("chunked");
        let encoding = match head.headers.get("content-encoding").map(str::to_ascii_lowercase).as_deref() {
            Some("gzip") => 1u8,
            Some("deflate") => 2,
            _ => 0,
        };
        if chunked || encoding != 0 || h.rec_type == "request" {
            seeds.entry("http_body").or_default().push([&[chunked as u8 | encoding << 1, 0x10][..], body].concat());
        }
        if h.rec_type == "request" && matches!(head.protocol.to_ascii_uppercase().as_str(), "POST" | "PUT") {
            let line = |v: Option<&str>| v.unwrap_or("").to_string();
            let text = format!("{}\n{}\n{}\n", head.protocol, line(head.headers.get("content-type")), line(head.headers.get("content-length")));
            seeds.entry("post_body").or_default().push([text.as_bytes(), &body[..body.len().min(8192)]].concat());
        }
    }
}

/// Fields of index lines that are URLs (CDX `a`, CDXJ `url`).
fn index_urls(text: &str, urls: &mut BTreeSet<String>) {
    for line in text.lines().take(500) {
        if let Some(i) = line.find("\"url\":") {
            let rest = line[i + 6..].trim_start().trim_start_matches('"');
            if let Some(end) = rest.find('"') {
                urls.insert(rest[..end].to_string());
            }
        } else if let Some(url) = line.split(' ').nth(2) {
            urls.insert(url.to_string());
        }
    }
}

/// The first lines of an index, up to a quarter of the seed size.
fn first_lines(text: &[u8]) -> &[u8] {
    let max = MAX_SEED / 4;
    if text.len() <= max {
        return text;
    }
    let end = text[..max].iter().rposition(|&b| b == b'\n').map_or(max, |i| i + 1);
    &text[..end]
}

/// Parquet datasets `warcdex parquet` writes for a few index files.
fn warcdex_parquet_seeds(indexes: &[Vec<u8>], scratch: &Path) -> Vec<Vec<u8>> {
    use warcdex_parquet::inputs::Input;
    use warcdex_parquet::job::{run, NoObserver, ParquetJob};
    let mut out = Vec::new();
    for (i, text) in indexes.iter().take(24).enumerate() {
        let dir = scratch.join(format!("pq{i}"));
        let _ = std::fs::remove_dir_all(&dir);
        let src = scratch.join(format!("pq{i}.cdx"));
        let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').take(60).collect();
        if std::fs::write(&src, lines.join(&b'\n')).is_err() {
            continue;
        }
        if run(&[Input::Index(src)], &dir, &ParquetJob::default(), &mut NoObserver).is_err() {
            continue;
        }
        let mut files = Vec::new();
        walk(&dir, &mut files);
        for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "parquet")) {
            if let Ok(bytes) = std::fs::read(f) {
                if bytes.len() <= MAX_SEED {
                    out.push(bytes);
                }
            }
        }
    }
    out
}

/// Page-dump segments from the crate's generator, with every bad input it
/// can plant: their tar streams and manifests.
fn dump_seeds(scratch: &Path, seeds: &mut Seeds) {
    use warcdex_dump::generate::{generate, BadInput, Options};
    let dir = scratch.join("dump");
    let _ = std::fs::remove_dir_all(&dir);
    let opts = Options { segments: 3, ids_per_segment: 12, page_bytes: 400, bad: BadInput::ALL.to_vec(), xz_level: 0, ..Options::default() };
    let Ok(report) = generate(&dir, &opts) else { return };
    let unxz = |p: &Path| {
        let mut out = Vec::new();
        if let Ok(f) = std::fs::File::open(p) {
            let _ = liblzma::read::XzDecoder::new(f).read_to_end(&mut out);
        }
        out
    };
    for seg in &report.segments {
        let tar = unxz(&seg.data);
        seeds.entry("dump_tar").or_default().push(tar[..tar.len().min(MAX_SEED)].to_vec());
        seeds.entry("dump_manifest").or_default().push(unxz(&seg.manifest));
    }
    if let Some(m) = &report.master {
        if let Ok(text) = std::fs::read(m) {
            seeds.entry("dump_manifest").or_default().push(text);
        }
    }
}

/// Seeds cut from the files under `corpus` (and generated dumps), by target.
pub fn from_corpus(corpus: &Path, scratch: &Path) -> Seeds {
    let mut seeds = Seeds::new();
    let mut files = Vec::new();
    walk(corpus, &mut files);
    let mut urls = BTreeSet::new();
    let mut indexes = Vec::new();
    let mut n_archive = 0usize;
    for path in &files {
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        let Ok(raw) = std::fs::read(path) else { continue };
        let decoded = if raw.starts_with(&[0x1f, 0x8b]) { gunzip(&raw) } else { raw.clone() };
        if is_archive(&name, &decoded) {
            let plain = first_records(&decoded, MAX_SEED);
            let k = n_archive;
            n_archive += 1;
            let all = containers(plain);
            let pick = 1 + k % (all.len() - 1);
            let add = seeds.entry("archive").or_default();
            add.push(raw_cut(&raw).to_vec());
            add.push(all[0].clone());
            add.push(all[pick].clone());
            seeds.entry("archive_gzip").or_default().push([&[k as u8 & 1][..], plain].concat());
            seeds.entry("archive_xz").or_default().push([&[k as u8 & 1][..], plain].concat());
            seeds.entry("archive_zstd").or_default().push(zstd_input((k % 3) as u8, plain));
            http_seeds(&decoded[..decoded.len().min(4 << 20)], &mut seeds, &mut urls);
        } else if is_index(&name) {
            let text = first_lines(&decoded).to_vec();
            index_urls(&String::from_utf8_lossy(&text), &mut urls);
            let cdxj = text.split(|&b| b == b'\n').find(|l| !l.is_empty() && !l.starts_with(b" CDX")).is_some_and(warcdex_summary::cdxj_line::is_cdxj);
            seeds.entry(if cdxj { "cdxj_line" } else { "cdx_line" }).or_default().push(text.clone());
            seeds.entry("capture_line").or_default().push(text.clone());
            indexes.push(text);
        }
    }
    seeds.entry("surt").or_default().extend(urls.into_iter().map(String::into_bytes));
    let _ = std::fs::create_dir_all(scratch);
    seeds.entry("summary_parquet").or_default().extend(warcdex_parquet_seeds(&indexes, scratch));
    for list in seeds.values_mut() {
        list.sort();
        list.dedup();
        if list.len() > MAX_PER_TARGET {
            // An even sample: cutting the sorted list would keep only the
            // inputs that sort first (one kind of file).
            let n = list.len();
            *list = (0..MAX_PER_TARGET).map(|i| std::mem::take(&mut list[i * n / MAX_PER_TARGET])).collect();
        }
    }
    seeds
}

/// Seeds that need no corpus: generated page-dump segments.
pub fn generated(scratch: &Path) -> Seeds {
    let mut seeds = Seeds::new();
    let _ = std::fs::create_dir_all(scratch);
    dump_seeds(scratch, &mut seeds);
    seeds
}

/// A name for a seed file: its content's FNV-1a hash, so rewriting the same
/// seeds leaves the folder unchanged.
pub fn seed_name(data: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    format!("seed-{h:016x}")
}
