//! Record-level checks on generated WARCs: digests recomputed from the
//! bytes equal the digests written, every codec decodes to the same
//! records, revisits point at real earlier captures, ARC framing holds.

mod common;

use common::{decode, parse_warc, scratch, sha1_label, small};
use std::collections::HashMap;
use warcdex_synth::{write_collection, Format, Options};

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[test]
fn digests_match_recomputed() {
    let dir = scratch("digests");
    let stats = write_collection(&dir, &small(Format::Warc, 3)).unwrap();
    let mut seen_chunked = false;
    for st in &stats {
        let records = parse_warc(&std::fs::read(&st.path).unwrap());
        assert_eq!(records.len() as u64, st.records.total());
        assert_eq!(records[0].get("WARC-Type"), Some("warcinfo"));
        // payload digest by WARC-Record-ID, to check revisits against.
        let mut payload_by_id: HashMap<String, String> = HashMap::new();
        for r in &records {
            assert_eq!(
                r.get("WARC-Block-Digest").unwrap(),
                sha1_label(&r.block),
                "block digest"
            );
            let typ = r.get("WARC-Type").unwrap();
            let id = r.get("WARC-Record-ID").unwrap();
            assert!(id.starts_with("<urn:uuid:") && id.ends_with('>'));
            assert!(r.get("WARC-Date").unwrap().ends_with('Z'));
            match typ {
                "response" => {
                    let split = find(&r.block, b"\r\n\r\n").expect("HTTP head") + 4;
                    let head = std::str::from_utf8(&r.block[..split])
                        .unwrap()
                        .to_ascii_lowercase();
                    seen_chunked |= head.contains("transfer-encoding: chunked");
                    let payload = &r.block[split..];
                    let digest = r.get("WARC-Payload-Digest").unwrap();
                    assert_eq!(digest, sha1_label(payload), "payload digest");
                    payload_by_id.insert(id.to_string(), digest.to_string());
                }
                "revisit" => {
                    let original = r.get("WARC-Refers-To").unwrap();
                    assert_eq!(
                        payload_by_id.get(original).map(String::as_str),
                        r.get("WARC-Payload-Digest")
                    );
                    assert!(r.get("WARC-Refers-To-Target-URI").is_some());
                    assert!(r.get("WARC-Refers-To-Date").is_some());
                    assert!(r
                        .get("WARC-Profile")
                        .unwrap()
                        .ends_with("/revisit/identical-payload-digest"));
                }
                "resource" => {
                    assert_eq!(r.get("WARC-Payload-Digest").unwrap(), sha1_label(&r.block));
                }
                _ => assert!(r.get("WARC-Payload-Digest").is_none()),
            }
        }
        assert!(st.records.revisit > 0 && st.records.metadata > 0 && st.records.resource > 0);
    }
    assert!(seen_chunked, "some responses should be chunked");
    // Mixed versions: file 0 is WARC/1.0, file 1 WARC/1.1 with fractions.
    let v11 = std::fs::read(&stats[1].path).unwrap();
    assert!(v11.starts_with(b"WARC/1.1\r\n"));
    let recs = parse_warc(&v11);
    assert!(recs
        .iter()
        .any(|r| r.get("WARC-Date").unwrap().contains('.')));
}

#[test]
fn omit_payload_digest_keeps_block_digests() {
    let dir = scratch("omit");
    let opts = Options {
        omit_payload_digest: true,
        ..small(Format::Warc, 3)
    };
    let stats = write_collection(&dir, &opts).unwrap();
    for r in parse_warc(&std::fs::read(&stats[0].path).unwrap()) {
        let typ = r.get("WARC-Type").unwrap();
        assert_eq!(
            r.get("WARC-Payload-Digest").is_some(),
            typ == "revisit",
            "{typ}"
        );
        assert_eq!(r.get("WARC-Block-Digest").unwrap(), sha1_label(&r.block));
    }
}

/// Every WARC codec carries exactly the records of the plain .warc of the
/// same seed (the warcinfo differs only by file name).
#[test]
fn all_codecs_decode_to_the_same_records() {
    let reference_dir = scratch("codec-ref");
    let reference = write_collection(&reference_dir, &small(Format::Warc, 5)).unwrap();
    let want = parse_warc(&std::fs::read(&reference[0].path).unwrap());
    for format in Format::ALL
        .into_iter()
        .filter(|f| !f.is_arc() && *f != Format::Warc)
    {
        let dir = scratch(&format!("codec-{}", format.name().replace('.', "_")));
        let stats = write_collection(&dir, &small(format, 5)).unwrap();
        let got = parse_warc(&decode(&stats[0].path, format));
        assert_eq!(got.len(), want.len(), "{format}");
        for (a, b) in got.iter().zip(&want).skip(1) {
            assert_eq!(a.headers, b.headers, "{format}");
            assert_eq!(a.block, b.block, "{format}");
        }
        assert!(
            stats[0].file_bytes < stats[0].uncompressed_bytes,
            "{format} should compress"
        );
    }
}

#[test]
fn arc_framing() {
    let dir = scratch("arc");
    let stats = write_collection(&dir, &small(Format::Arc, 9)).unwrap();
    let data = std::fs::read(&stats[0].path).unwrap();
    let mut rest = &data[..];
    let mut n = 0;
    while !rest.is_empty() {
        let nl = rest.iter().position(|&b| b == b'\n').unwrap();
        let line = std::str::from_utf8(&rest[..nl]).unwrap();
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 5, "URL-record line: {line}");
        if n == 0 {
            assert!(fields[0].starts_with("filedesc://"));
        } else {
            assert_eq!(fields[2].len(), 14);
        }
        let len: usize = fields[4].parse().unwrap();
        let body = &rest[nl + 1..nl + 1 + len];
        if n == 0 {
            assert!(body.starts_with(b"1 0 "));
        } else if fields[0].starts_with("http") {
            assert!(body.starts_with(b"HTTP/1.1 "));
        }
        assert_eq!(rest[nl + 1 + len], b'\n', "record separator");
        rest = &rest[nl + 2 + len..];
        n += 1;
    }
    assert_eq!(n as u64, stats[0].records.total());
    // And the gzip variant holds the same bytes.
    let gz = write_collection(&scratch("arc-gz"), &small(Format::ArcGz, 9)).unwrap();
    let plain = decode(&gz[0].path, Format::ArcGz);
    let skip = |b: &[u8]| b[b.windows(2).position(|w| w == b"\n\n").unwrap()..].to_vec();
    assert_eq!(skip(&plain), skip(&data));
}

#[test]
fn realistic_mix() {
    let dir = scratch("mix");
    let opts = Options {
        target_bytes: 8 << 20,
        files: 1,
        hosts: 50,
        ..small(Format::Warc, 21)
    };
    let st = &write_collection(&dir, &opts).unwrap()[0];
    let responses: u64 = st.statuses.values().sum();
    let ok = st.statuses[&200] as f64 / responses as f64;
    assert!((0.7..0.92).contains(&ok), "200 share {ok}");
    let html = st.mime_types["text/html"] as f64 / responses as f64;
    assert!((0.3..0.7).contains(&html), "html share {html}");
    for m in [
        "image/jpeg",
        "image/png",
        "text/css",
        "application/javascript",
        "application/json",
    ] {
        assert!(st.mime_types.contains_key(m), "{m} missing");
    }
    let records = parse_warc(&std::fs::read(&st.path).unwrap());
    let uris: Vec<&str> = records
        .iter()
        .filter_map(|r| r.get("WARC-Target-URI"))
        .collect();
    assert!(uris.iter().any(|u| u.contains("xn--")), "IDN host");
    assert!(
        uris.iter()
            .any(|u| u.contains(":8080/") || u.contains(":8443/") || u.contains(":8000/")),
        "explicit port"
    );
    assert!(uris.iter().any(|u| u.starts_with("dns:")), "dns record");
    assert!(records
        .iter()
        .any(|r| r.get("WARC-Type") == Some("request") && r.block.starts_with(b"POST ")));
}
