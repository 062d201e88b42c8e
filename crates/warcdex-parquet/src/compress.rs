//! Page compression. One compressor serves every page of a file: zstd keeps
//! its context from page to page (a fresh context per page, as parquet-rs
//! makes, spent 7% of a conversion clearing its tables).

use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Zstd,
    Gzip,
    Snappy,
    None,
}

/// zstd's level and minimum match. On pages of a 1M-row CC-style index,
/// level 2 gave files 1.3% smaller than level 3 (the usual default), in 4%
/// less time: zstd sizes its tables by the page, and level 2's suit these
/// pages better. Level 1 with matches from 5 bytes (set: zstd's own choice
/// for these pages gave files 2.7% larger) then took 4% less of the
/// writer's time for files about 1% larger (benches/README.md: 2.55 ->
/// 2.44 s, 51.5 -> 52.1 MB on a million rows).
const ZSTD_LEVEL: i32 = 1;
const ZSTD_MIN_MATCH: u32 = 5;

impl Codec {
    pub fn parse(s: &str) -> Option<Codec> {
        Some(match s {
            "zstd" => Codec::Zstd,
            "gzip" => Codec::Gzip,
            "snappy" => Codec::Snappy,
            "none" | "uncompressed" => Codec::None,
            _ => return None,
        })
    }

    /// The file-name suffix Spark and Hive give such files.
    pub fn suffix(self) -> &'static str {
        match self {
            Codec::Zstd => ".zstd",
            Codec::Gzip => ".gz",
            Codec::Snappy => ".snappy",
            Codec::None => "",
        }
    }

    /// Parquet's `CompressionCodec` number.
    pub fn thrift_id(self) -> i32 {
        match self {
            Codec::None => 0,
            Codec::Snappy => 1,
            Codec::Gzip => 2,
            Codec::Zstd => 6,
        }
    }
}

pub struct Compressor {
    codec: Codec,
    zstd: Option<zstd::bulk::Compressor<'static>>,
    snappy: snap::raw::Encoder,
    out: Vec<u8>,
    page: Vec<u8>,
}

impl Compressor {
    pub fn new(codec: Codec) -> io::Result<Compressor> {
        let zstd = match codec {
            Codec::Zstd => {
                let mut c = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
                c.set_parameter(zstd::zstd_safe::CParameter::MinMatch(ZSTD_MIN_MATCH))?;
                Some(c)
            }
            _ => None,
        };
        Ok(Compressor { codec, zstd, snappy: snap::raw::Encoder::new(), out: Vec::new(), page: Vec::new() })
    }

    pub fn codec(&self) -> Codec {
        self.codec
    }

    /// A buffer for the next page's body, empty: one serves every page of
    /// the file (a megabyte allocated and freed per page before).
    pub fn take_page_buffer(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.page)
    }

    pub fn give_back_page_buffer(&mut self, mut page: Vec<u8>) {
        page.clear();
        self.page = page;
    }

    /// `page` compressed with the file's codec (borrowed until the next call).
    pub fn compress<'a>(&'a mut self, page: &'a [u8]) -> io::Result<&'a [u8]> {
        self.out.clear();
        match self.codec {
            Codec::None => return Ok(page),
            Codec::Zstd => {
                let z = self.zstd.as_mut().expect("zstd compressor");
                self.out.reserve(zstd::zstd_safe::compress_bound(page.len()));
                z.compress_to_buffer(page, &mut self.out)?;
            }
            Codec::Gzip => {
                let mut e = flate2::write::GzEncoder::new(&mut self.out, flate2::Compression::default());
                e.write_all(page)?;
                e.finish()?;
            }
            Codec::Snappy => {
                self.out.resize(snap::raw::max_compress_len(page.len()), 0);
                let n = self.snappy.compress(page, &mut self.out).map_err(io::Error::other)?;
                self.out.truncate(n);
            }
        }
        Ok(&self.out)
    }
}
