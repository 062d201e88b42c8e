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

    /// `page` as the codec stores bytes it does not compress: for zstd a
    /// frame of raw blocks, which any zstd reader takes; for the others
    /// the codec's own output.
    pub fn store<'a>(&'a mut self, page: &'a [u8]) -> io::Result<&'a [u8]> {
        if self.codec != Codec::Zstd {
            return self.compress(page);
        }
        self.out.clear();
        raw_zstd_frame(page, &mut self.out);
        Ok(&self.out)
    }
}

/// A zstd frame holding `data` in raw blocks (RFC 8878, 3.1.1): a single
/// segment whose content size is given in four bytes, no checksum.
pub fn raw_zstd_frame(data: &[u8], out: &mut Vec<u8>) {
    const MAX_BLOCK: usize = 128 << 10;
    assert!(data.len() <= u32::MAX as usize, "a page over 4 GiB");
    out.reserve(data.len() + 9 + 3 * (data.len() / MAX_BLOCK + 1));
    out.extend_from_slice(&0xFD2FB528u32.to_le_bytes());
    // Frame_Content_Size_flag 2 (four bytes), Single_Segment_flag.
    out.push(0b1010_0000);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    let mut blocks = data.chunks(MAX_BLOCK).peekable();
    if blocks.peek().is_none() {
        // An empty frame still ends with a (raw, empty) last block.
        out.extend_from_slice(&[1, 0, 0]);
    }
    while let Some(b) = blocks.next() {
        let last = blocks.peek().is_none() as u32;
        // Block_Size << 3 | Block_Type (0: raw) << 1 | Last_Block.
        let header = (b.len() as u32) << 3 | last;
        out.extend_from_slice(&header.to_le_bytes()[..3]);
        out.extend_from_slice(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raw frames of every size class read back with zstd itself: empty,
    /// one byte, exactly one block, a block and a byte, several blocks.
    #[test]
    fn raw_frames_decode_to_their_bytes() {
        for n in [0usize, 1, 1000, 128 << 10, (128 << 10) + 1, 300_000] {
            let data: Vec<u8> = (0..n).map(|i| (i * 7 + i / 251) as u8).collect();
            let mut frame = Vec::new();
            raw_zstd_frame(&data, &mut frame);
            assert_eq!(frame.len(), data.len() + 9 + 3 * n.div_ceil(128 << 10).max(1), "{n} bytes: frame size");
            let back = zstd::stream::decode_all(&frame[..]).unwrap_or_else(|e| panic!("{n} bytes: {e}"));
            assert!(back == data, "{n} bytes: decoded bytes differ");
            let mut c = Compressor::new(Codec::Zstd).unwrap();
            assert_eq!(c.store(&data).unwrap(), &frame[..]);
        }
    }
}
