//! Helpers shared by the integration tests: scratch directories, a minimal
//! WARC record splitter and decoders for every output codec.

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use warcdex_synth::{Format, Options, WARC_ZSTD_DICT_MAGIC};

/// A fresh directory under Cargo's per-target scratch space.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("warcdex-synth")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Small collection options that still exercise every record type.
pub fn small(format: Format, seed: u64) -> Options {
    Options {
        seed,
        format,
        target_bytes: 1 << 20,
        hosts: 8,
        files: 2,
        chunked_share: 0.2,
        ..Options::default()
    }
}

pub struct Record {
    pub headers: Vec<(String, String)>,
    pub block: Vec<u8>,
}

impl Record {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Splits an uncompressed WARC into records, checking the framing
/// (version line, Content-Length, the `\r\n\r\n` after each block).
pub fn parse_warc(mut data: &[u8]) -> Vec<Record> {
    let mut out = Vec::new();
    while !data.is_empty() {
        assert!(
            data.starts_with(b"WARC/1.0\r\n") || data.starts_with(b"WARC/1.1\r\n"),
            "record must start with a version line"
        );
        let end = find(data, b"\r\n\r\n").expect("header end");
        let head = std::str::from_utf8(&data[10..end]).expect("ASCII headers");
        let headers: Vec<(String, String)> = head
            .split("\r\n")
            .map(|l| {
                let (k, v) = l.split_once(": ").expect("field line");
                (k.to_string(), v.to_string())
            })
            .collect();
        let rec = Record {
            headers,
            block: Vec::new(),
        };
        let len: usize = rec
            .get("Content-Length")
            .expect("Content-Length")
            .parse()
            .unwrap();
        let start = end + 4;
        let block = data[start..start + len].to_vec();
        assert_eq!(
            &data[start + len..start + len + 4],
            b"\r\n\r\n",
            "record trailer"
        );
        out.push(Record { block, ..rec });
        data = &data[start + len + 4..];
    }
    out
}

/// Decompresses a generated file of any WARC format to plain WARC bytes.
pub fn decode(path: &Path, format: Format) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    match format {
        Format::Warc | Format::Arc => out = raw,
        Format::WarcGz | Format::WarcGzWhole | Format::ArcGz => {
            flate2::read::MultiGzDecoder::new(&raw[..])
                .read_to_end(&mut out)
                .unwrap();
        }
        Format::WarcXz => {
            liblzma::read::XzDecoder::new_multi_decoder(&raw[..])
                .read_to_end(&mut out)
                .unwrap();
        }
        Format::WarcZst => {
            zstd::stream::read::Decoder::new(&raw[..])
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
        }
        Format::WarcZstDict {
            compressed_dictionary,
        } => {
            let magic = u32::from_le_bytes(raw[0..4].try_into().unwrap());
            assert_eq!(magic, WARC_ZSTD_DICT_MAGIC);
            let len = u32::from_le_bytes(raw[4..8].try_into().unwrap()) as usize;
            let stored = &raw[8..8 + len];
            let is_frame = stored.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]);
            assert_eq!(is_frame, compressed_dictionary);
            let dict = if is_frame {
                zstd::decode_all(stored).unwrap()
            } else {
                stored.to_vec()
            };
            assert!(
                dict.starts_with(&[0x37, 0xA4, 0x30, 0xEC]),
                "zstd dictionary magic"
            );
            zstd::stream::read::Decoder::with_dictionary(&raw[8 + len..], &dict)
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
        }
    }
    out
}

pub fn sha1_label(data: &[u8]) -> String {
    use sha1::{Digest, Sha1};
    format!("sha1:{}", data_encoding::BASE32.encode(&Sha1::digest(data)))
}
