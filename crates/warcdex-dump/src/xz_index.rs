//! The block index at the end of an .xz file (stream footer → index →
//! block sizes), so a reader can start decoding at any block instead of at
//! the start of the file. Decoding from block k works by feeding the
//! decoder the stream header followed by the bytes from block k on: blocks
//! are self-contained, and the reader stops before reaching the index.

use std::io::{self, Read, Seek, SeekFrom};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Offset of the stream's 12-byte header in the file.
    pub stream_offset: u64,
    /// Offset of the block (its header) in the file.
    pub offset: u64,
    /// Compressed size including padding.
    pub size: u64,
    /// Offset of the block's first byte in the decoded data.
    pub uncompressed_offset: u64,
    pub uncompressed_size: u64,
}

fn bad(msg: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("xz index: {msg}"))
}

fn varint(buf: &[u8], pos: &mut usize) -> io::Result<u64> {
    let mut v = 0u64;
    for i in 0..9 {
        let b = *buf.get(*pos).ok_or_else(|| bad("cut short"))?;
        *pos += 1;
        v |= ((b & 0x7f) as u64) << (7 * i);
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(bad("varint too long"))
}

/// Every block of every stream in the file, in order.
pub fn read_blocks<R: Read + Seek>(f: &mut R) -> io::Result<Vec<Block>> {
    let mut end = f.seek(SeekFrom::End(0))?;
    let mut streams: Vec<Vec<Block>> = Vec::new();
    while end > 0 {
        // Stream padding: zero bytes in multiples of four.
        let mut word = [0u8; 4];
        loop {
            if end < 4 {
                return Err(bad("no stream footer"));
            }
            f.seek(SeekFrom::Start(end - 4))?;
            f.read_exact(&mut word)?;
            if word != [0; 4] {
                break;
            }
            end -= 4;
        }
        if end < 24 {
            return Err(bad("file too small"));
        }
        let mut footer = [0u8; 12];
        f.seek(SeekFrom::Start(end - 12))?;
        f.read_exact(&mut footer)?;
        if &footer[10..12] != b"YZ" {
            return Err(bad("no stream footer magic (file cut short?)"));
        }
        if crc32fast::hash(&footer[4..10]) != u32::from_le_bytes(footer[0..4].try_into().unwrap()) {
            return Err(bad("stream footer CRC does not match"));
        }
        let backward = (u32::from_le_bytes(footer[4..8].try_into().unwrap()) as u64 + 1) * 4;
        let index_start = end.checked_sub(12 + backward).ok_or_else(|| bad("index larger than file"))?;
        let mut index = vec![0u8; backward as usize];
        f.seek(SeekFrom::Start(index_start))?;
        f.read_exact(&mut index)?;
        if index[0] != 0 {
            return Err(bad("no index indicator"));
        }
        let crc_at = index.len() - 4;
        if crc32fast::hash(&index[..crc_at]) != u32::from_le_bytes(index[crc_at..].try_into().unwrap()) {
            return Err(bad("index CRC does not match"));
        }
        let mut pos = 1;
        let count = varint(&index, &mut pos)?;
        let mut sizes = Vec::with_capacity(count as usize);
        let mut total = 0u64;
        for _ in 0..count {
            let unpadded = varint(&index, &mut pos)?;
            let uncompressed = varint(&index, &mut pos)?;
            let padded = unpadded.div_ceil(4) * 4;
            total += padded;
            sizes.push((padded, uncompressed));
        }
        let stream_offset = index_start.checked_sub(total + 12).ok_or_else(|| bad("blocks larger than file"))?;
        let mut blocks = Vec::with_capacity(sizes.len());
        let mut off = stream_offset + 12;
        for (size, uncompressed_size) in sizes {
            blocks.push(Block { stream_offset, offset: off, size, uncompressed_offset: 0, uncompressed_size });
            off += size;
        }
        streams.push(blocks);
        end = stream_offset;
    }
    let mut all: Vec<Block> = streams.into_iter().rev().flatten().collect();
    let mut u = 0;
    for b in &mut all {
        b.uncompressed_offset = u;
        u += b.uncompressed_size;
    }
    Ok(all)
}

/// A reader of the decoded data from the start of `block` on (to the end
/// of its stream's blocks).
pub fn decode_from<R: Read + Seek + 'static>(mut f: R, block: &Block, stream_end: u64) -> io::Result<Box<dyn Read>> {
    let mut header = [0u8; 12];
    f.seek(SeekFrom::Start(block.stream_offset))?;
    f.read_exact(&mut header)?;
    f.seek(SeekFrom::Start(block.offset))?;
    let body = f.take(stream_end - block.offset);
    let input = io::Cursor::new(header.to_vec()).chain(body);
    Ok(Box::new(liblzma::read::XzDecoder::new(io::BufReader::with_capacity(1 << 16, input))))
}
