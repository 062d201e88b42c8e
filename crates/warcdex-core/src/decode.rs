//! Decompression that keeps track of members.
//!
//! A `.warc.gz` is normally one gzip member per record, and an index line
//! points at the member: its raw offset and compressed length. So the reader
//! decodes one member at a time and stops at its end, like a file boundary;
//! the record layer asks for the next member when it wants to go on. The same
//! holds for xz streams and zstd frames. Uncompressed input is one "member".

use std::io::Read;

use flate2::{Decompress, FlushDecompress, Status};

use crate::error::{Error, ErrorKind, Result};

/// The container format of an input, recognised from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Xz,
    Zstd,
}

impl Compression {
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
        }
    }
}

const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
const XZ_MAGIC: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0x00];
const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
const LZ4_MAGIC: &[u8] = &[0x04, 0x22, 0x4d, 0x18];
const BZIP2_MAGIC: &[u8] = b"BZh";
/// Skippable zstd frames have magics 0x184D2A50..=0x184D2A5F (little-endian).
fn is_zstd_skippable(b: &[u8]) -> bool {
    b.len() >= 4 && b[0] & 0xf0 == 0x50 && b[1..4] == [0x2a, 0x4d, 0x18]
}
/// The `.warc.zst` convention keeps its dictionary in this skippable frame.
const ZSTD_DICT_FRAME: u8 = 0x5d;

/// Recognise a container from the first bytes of an input.
/// Largest zstd dictionary taken from a `.warc.zst` (zstd's trainer
/// defaults to 110 KB; the format allows any size).
const MAX_ZSTD_DICTIONARY: u64 = 32 << 20;

pub fn sniff(head: &[u8]) -> std::result::Result<Compression, &'static str> {
    if head.starts_with(GZIP_MAGIC) {
        Ok(Compression::Gzip)
    } else if head.starts_with(XZ_MAGIC) {
        Ok(Compression::Xz)
    } else if head.starts_with(ZSTD_MAGIC) || is_zstd_skippable(head) {
        Ok(Compression::Zstd)
    } else if head.starts_with(LZ4_MAGIC) {
        Err("LZ4-framed input is not supported (decompress it with lz4 -d first)")
    } else if head.starts_with(BZIP2_MAGIC) && head.len() > 3 && (b'1'..=b'9').contains(&head[3]) {
        Err("bzip2-compressed archives are not supported (decompress with bzip2 -d first)")
    } else {
        Ok(Compression::None)
    }
}

const RAW_BUF: usize = 4 << 20;
const OUT_BUF: usize = 1 << 20;
/// The whole-member fast path is tried with at least this much input buffered.
const FAST_PATH_INPUT: usize = 512 << 10;

/// One step of a codec: how much input it took, how much output it gave,
/// and whether the member ended.
struct Step {
    consumed: usize,
    produced: usize,
    member_end: bool,
    /// The codec failed after producing output: the output is delivered
    /// first, the error at the next read.
    error: Option<ErrorKind>,
}

impl Step {
    /// A codec error, unless output came before it.
    fn failed(consumed: usize, produced: usize, kind: ErrorKind) -> std::result::Result<Step, ErrorKind> {
        if produced > 0 {
            Ok(Step { consumed, produced, member_end: false, error: Some(kind) })
        } else {
            Err(kind)
        }
    }
}

enum Codec {
    Gzip(Box<GzipMember>),
    Xz(Option<liblzma::stream::Stream>),
    Zstd(Box<ZstdMember>),
}

/// Reads an input one member at a time; see the module comment.
pub struct MemberReader<R: Read> {
    src: R,
    name: String,
    compression: Compression,
    codec: Option<Codec>,
    raw: Vec<u8>,
    lo: usize,
    hi: usize,
    /// Absolute input offset of `raw[0]`.
    raw_base: u64,
    eof: bool,
    out: Vec<u8>,
    olo: usize,
    ohi: usize,
    /// Decoded bytes produced before `out[0]` (for uncompressed input: the raw offset).
    decoded_base: u64,
    member_start: u64,
    /// Raw offset just past the current member, once it has ended.
    member_end: Option<u64>,
    /// A codec error met after output that was still to be read.
    codec_error: Option<ErrorKind>,
}

impl<R: Read> MemberReader<R> {
    /// Opens an input and recognises its container. An empty input is an error.
    pub fn new(src: R, name: &str) -> Result<Self> {
        Self::new_at(src, name, 0)
    }

    /// Like [`MemberReader::new`] for a reader already positioned at
    /// `base` in its file, so that offsets are those of the file.
    pub fn new_at(src: R, name: &str, base: u64) -> Result<Self> {
        let mut r = MemberReader {
            src,
            name: name.to_string(),
            compression: Compression::None,
            codec: None,
            raw: vec![0; RAW_BUF],
            lo: 0,
            hi: 0,
            raw_base: base,
            eof: false,
            out: Vec::new(),
            olo: 0,
            ohi: 0,
            decoded_base: 0,
            member_start: 0,
            member_end: None,
            codec_error: None,
        };
        r.fill_raw_at_least(8)?;
        if r.hi == 0 {
            return Err(r.err(ErrorKind::NotAnArchive("empty file".into()), Some(0)));
        }
        r.compression = sniff(&r.raw[..r.hi])
            .map_err(|m| r.err(ErrorKind::NotAnArchive(m.into()), Some(0)))?;
        r.codec = match r.compression {
            Compression::None => None,
            Compression::Gzip => Some(Codec::Gzip(Box::new(GzipMember::new()))),
            Compression::Xz => Some(Codec::Xz(None)),
            Compression::Zstd => Some(Codec::Zstd(Box::new(ZstdMember::new()))),
        };
        if r.compression != Compression::None {
            r.out = vec![0; OUT_BUF];
            if r.compression == Compression::Zstd {
                r.skip_zstd_skippable_frames()?;
            }
            r.member_start = r.raw_pos();
        }
        Ok(r)
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Raw offset where the current member starts (0 for uncompressed input).
    pub fn member_start(&self) -> u64 {
        self.member_start
    }

    /// Raw offset just past the current member, once it has been read to its end.
    pub fn member_end(&self) -> Option<u64> {
        self.member_end
    }

    /// Offset of the next unread decoded byte, counted over the whole decoded input.
    pub fn decoded_pos(&self) -> u64 {
        match self.compression {
            Compression::None => self.raw_base + self.lo as u64,
            _ => self.decoded_base + self.olo as u64,
        }
    }

    /// Offset of the next unread raw input byte.
    pub fn raw_pos(&self) -> u64 {
        self.raw_base + self.lo as u64
    }

    pub(crate) fn err(&self, kind: ErrorKind, offset: Option<u64>) -> Error {
        Error::new(kind, &self.name, offset)
    }

    fn io_err(&self, e: std::io::Error) -> Error {
        self.err(ErrorKind::Io(e.to_string()), Some(self.raw_pos()))
    }

    /// Decoded bytes of the current member; empty at its end (or at end of input).
    pub fn fill_buf(&mut self) -> Result<&[u8]> {
        if self.compression == Compression::None {
            if self.lo == self.hi && !self.eof {
                self.refill_raw()?;
            }
            return Ok(&self.raw[self.lo..self.hi]);
        }
        if self.olo == self.ohi && self.member_end.is_none() {
            self.decode_more()?;
        }
        Ok(&self.out[self.olo..self.ohi])
    }

    pub fn consume(&mut self, n: usize) {
        if self.compression == Compression::None {
            debug_assert!(self.lo + n <= self.hi);
            self.lo += n;
        } else {
            debug_assert!(self.olo + n <= self.ohi);
            self.olo += n;
        }
    }

    /// True when the current member has no more decoded bytes.
    pub fn at_member_end(&mut self) -> Result<bool> {
        Ok(self.fill_buf()?.is_empty())
    }

    /// Moves to the next member. Returns false at the end of the input. The
    /// current member must have been read to its end. Bytes that do not start
    /// a member are an error; [`MemberReader::resync`] skips them.
    pub fn next_member(&mut self) -> Result<bool> {
        if self.compression == Compression::None {
            return Ok(false);
        }
        debug_assert!(self.member_end.is_some());
        self.skip_member_padding()?;
        if self.compression == Compression::Zstd {
            self.skip_zstd_skippable_frames()?;
        }
        self.fill_raw_at_least(6)?;
        if self.lo == self.hi {
            return Ok(false);
        }
        if !self.starts_member(&self.raw[self.lo..self.hi]) {
            // The bytes that are not a member are what failed (and what `resync` skips).
            self.member_start = self.raw_pos();
            let what = format!("bytes after the end of a {} member do not start another member", self.compression.name());
            return Err(self.err(ErrorKind::Corrupt(what), Some(self.raw_pos())));
        }
        self.begin_member();
        Ok(true)
    }

    /// Abandons the current member and looks for the next member start after
    /// it. Returns the number of raw bytes skipped, or None at end of input.
    pub fn resync(&mut self) -> Result<Option<u64>> {
        let from = self.member_start;
        if self.compression == Compression::None {
            return Ok(None);
        }
        // Search from one byte past the failed member's start, so a damaged
        // member is not found again.
        let mut pos = from + 1;
        loop {
            if pos < self.raw_base {
                pos = self.raw_base;
            }
            let start = (pos - self.raw_base) as usize;
            if start < self.hi {
                self.lo = start;
            } else {
                self.lo = self.hi;
            }
            self.fill_raw_at_least(6)?;
            if self.lo == self.hi {
                return Ok(None);
            }
            let hay = &self.raw[self.lo..self.hi];
            let magic = self.magic_first_byte();
            let mut found = None;
            for i in memchr::memchr_iter(magic, hay) {
                let rest = &hay[i..];
                if rest.len() < 6 && !self.eof {
                    found = Some((i, false));
                    break;
                }
                if self.starts_member(rest) && self.plausible_member(rest) {
                    found = Some((i, true));
                    break;
                }
            }
            match found {
                Some((i, true)) => {
                    self.lo += i;
                    let skipped = self.raw_pos() - from;
                    self.begin_member();
                    return Ok(Some(skipped));
                }
                Some((i, false)) => {
                    // Too close to the buffer end to decide; read more and retry there.
                    pos = self.raw_base + (self.lo + i) as u64;
                    self.compact();
                    if self.hi == self.raw.len() {
                        return Ok(None);
                    }
                    self.refill_raw()?;
                    if self.eof && self.lo == self.hi {
                        return Ok(None);
                    }
                    continue;
                }
                None => {
                    pos = self.raw_base + self.hi as u64;
                    self.lo = self.hi;
                    if self.eof {
                        return Ok(None);
                    }
                    self.refill_raw()?;
                }
            }
        }
    }

    fn magic_first_byte(&self) -> u8 {
        match self.compression {
            Compression::Gzip => GZIP_MAGIC[0],
            Compression::Xz => XZ_MAGIC[0],
            Compression::Zstd => ZSTD_MAGIC[0],
            Compression::None => 0,
        }
    }

    fn starts_member(&self, b: &[u8]) -> bool {
        match self.compression {
            Compression::Gzip => b.starts_with(GZIP_MAGIC),
            Compression::Xz => b.starts_with(XZ_MAGIC),
            Compression::Zstd => b.starts_with(ZSTD_MAGIC),
            Compression::None => true,
        }
    }

    /// Stricter check used when hunting for a member inside garbage: a gzip
    /// member also has method 8 (deflate) and no reserved flag bits.
    fn plausible_member(&self, b: &[u8]) -> bool {
        match self.compression {
            Compression::Gzip => b.len() >= 4 && b[2] == 8 && b[3] & 0xe0 == 0,
            _ => true,
        }
    }

    fn begin_member(&mut self) {
        self.member_start = self.raw_pos();
        self.member_end = None;
        self.codec_error = None;
        self.decoded_base += self.ohi as u64;
        self.olo = 0;
        self.ohi = 0;
        match self.codec.as_mut() {
            Some(Codec::Gzip(g)) => g.reset(),
            Some(Codec::Xz(x)) => *x = None,
            Some(Codec::Zstd(z)) => z.reset(),
            None => {}
        }
    }

    /// xz streams may be followed by zero padding; tools also leave zero or
    /// newline bytes after gzip members. Padding is not data and is skipped.
    fn skip_member_padding(&mut self) -> Result<()> {
        loop {
            if self.lo == self.hi {
                if self.eof {
                    return Ok(());
                }
                self.refill_raw()?;
                continue;
            }
            let pad = self.raw[self.lo..self.hi].iter().take_while(|&&b| b == 0).count();
            self.lo += pad;
            if self.lo < self.hi {
                return Ok(());
            }
        }
    }

    fn skip_zstd_skippable_frames(&mut self) -> Result<()> {
        loop {
            self.fill_raw_at_least(8)?;
            let b = &self.raw[self.lo..self.hi];
            if !is_zstd_skippable(b) {
                return Ok(());
            }
            if b.len() < 8 {
                return Err(self.err(ErrorKind::Truncated("zstd skippable frame header".into()), Some(self.raw_pos())));
            }
            let kind = b[0];
            let len = u32::from_le_bytes([b[4], b[5], b[6], b[7]]) as usize;
            let at = self.raw_pos();
            self.lo += 8;
            let mut body = Vec::with_capacity(len.min(1 << 24));
            let mut left = len;
            while left > 0 {
                if self.lo == self.hi {
                    if self.eof {
                        return Err(self.err(ErrorKind::Truncated("zstd skippable frame".into()), Some(at)));
                    }
                    self.refill_raw()?;
                    continue;
                }
                let n = left.min(self.hi - self.lo);
                if kind == ZSTD_DICT_FRAME {
                    body.extend_from_slice(&self.raw[self.lo..self.lo + n]);
                }
                self.lo += n;
                left -= n;
            }
            if kind == ZSTD_DICT_FRAME {
                let dict = if body.starts_with(ZSTD_MAGIC) {
                    // Bounded: a small frame can claim gigabytes (found by fuzzing).
                    let mut dict = Vec::new();
                    let read = zstd::stream::read::Decoder::new(&body[..])
                        .and_then(|d| std::io::Read::read_to_end(&mut std::io::Read::take(d, MAX_ZSTD_DICTIONARY + 1), &mut dict));
                    if let Err(e) = read {
                        return Err(self.err(ErrorKind::Corrupt(format!("compressed zstd dictionary: {e}")), Some(at)));
                    }
                    if dict.len() as u64 > MAX_ZSTD_DICTIONARY {
                        return Err(self.err(ErrorKind::Corrupt(format!("zstd dictionary larger than {MAX_ZSTD_DICTIONARY} bytes")), Some(at)));
                    }
                    dict
                } else {
                    body
                };
                if let Some(Codec::Zstd(z)) = self.codec.as_mut() {
                    z.set_dictionary(dict).map_err(|m| Error::new(ErrorKind::Corrupt(m), &self.name, Some(at)))?;
                }
            }
        }
    }

    fn compact(&mut self) {
        if self.lo > 0 {
            self.raw.copy_within(self.lo..self.hi, 0);
            self.raw_base += self.lo as u64;
            self.hi -= self.lo;
            self.lo = 0;
        }
    }

    /// Reads more raw input after what is buffered.
    fn refill_raw(&mut self) -> Result<()> {
        if self.lo == self.hi {
            self.raw_base += self.hi as u64;
            self.lo = 0;
            self.hi = 0;
        } else if self.hi == self.raw.len() {
            self.compact();
        }
        loop {
            match self.src.read(&mut self.raw[self.hi..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.hi += n;
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.io_err(e)),
            }
        }
    }

    fn fill_raw_at_least(&mut self, n: usize) -> Result<()> {
        while self.hi - self.lo < n && !self.eof {
            if self.raw.len() - self.lo < n {
                self.compact();
            }
            self.refill_raw()?;
        }
        Ok(())
    }

    fn decode_more(&mut self) -> Result<()> {
        self.decoded_base += self.ohi as u64;
        self.olo = 0;
        self.ohi = 0;
        if let Some(kind) = self.codec_error.take() {
            return Err(self.err(kind, Some(self.member_start)));
        }
        if self.try_whole_gzip_member()? {
            return Ok(());
        }
        loop {
            if self.lo == self.hi && !self.eof {
                self.refill_raw()?;
            }
            let input = &self.raw[self.lo..self.hi];
            let output = &mut self.out[..];
            let eof = self.eof;
            let step = match self.codec.as_mut() {
                Some(Codec::Gzip(g)) => g.step(input, output, eof),
                Some(Codec::Xz(x)) => xz_step(x, input, output),
                Some(Codec::Zstd(z)) => z.step(input, output),
                None => unreachable!("uncompressed input has no codec"),
            };
            let step = step.map_err(|kind| {
                let at = self.member_start;
                self.err(kind, Some(at))
            })?;
            self.lo += step.consumed;
            self.ohi = step.produced;
            if step.error.is_some() {
                self.codec_error = step.error;
                return Ok(());
            }
            if step.member_end {
                self.member_end = Some(self.raw_pos());
                return Ok(());
            }
            if step.produced > 0 {
                return Ok(());
            }
            if step.consumed == 0 {
                if self.eof && self.lo == self.hi {
                    let what = format!("{} member ends before its end marker", self.compression.name());
                    return Err(self.err(ErrorKind::Truncated(what), Some(self.member_start)));
                }
                if self.eof {
                    // Input left but the codec cannot use it: it wants bytes that do not exist.
                    let what = format!("{} member ends before its end marker", self.compression.name());
                    return Err(self.err(ErrorKind::Truncated(what), Some(self.member_start)));
                }
                if self.hi - self.lo == self.raw.len() {
                    return Err(self.err(ErrorKind::Corrupt("compressed header too large".into()), Some(self.member_start)));
                }
                self.compact();
                self.refill_raw()?;
            }
        }
    }

    /// Decodes a whole gzip member in one call when it fits the output
    /// buffer: libdeflate inflates about twice as fast as a streaming
    /// decoder (see benches/README.md). Members that do not fit, or that do
    /// not decode, go the streaming way, which also reports the errors.
    fn try_whole_gzip_member(&mut self) -> Result<bool> {
        let Some(Codec::Gzip(g)) = self.codec.as_mut() else { return Ok(false) };
        if !g.at_member_start() {
            return Ok(false);
        }
        if self.hi - self.lo < FAST_PATH_INPUT && !self.eof {
            // Move the unread tail to the front only when the room after it is
            // short: compacting for every member would copy most input bytes once more.
            if self.raw.len() - self.lo < FAST_PATH_INPUT {
                self.compact();
            }
            while self.hi - self.lo < FAST_PATH_INPUT && !self.eof && self.hi < self.raw.len() {
                self.refill_raw()?;
            }
        }
        let Some(Codec::Gzip(g)) = self.codec.as_mut() else { return Ok(false) };
        match g.whole.inflate(&self.raw[self.lo..self.hi], &mut self.out) {
            Some((consumed, produced)) => {
                self.lo += consumed;
                self.ohi = produced;
                self.member_end = Some(self.raw_pos());
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// A gzip member: header, raw deflate, trailer (CRC-32 and size).
struct GzipMember {
    state: GzState,
    inflate: Decompress,
    crc: crc32fast::Hasher,
    size: u32,
    whole: crate::inflate::WholeMember,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GzState {
    Header,
    Body,
    Trailer,
}

impl GzipMember {
    fn new() -> Self {
        GzipMember {
            state: GzState::Header,
            inflate: Decompress::new(false),
            crc: crc32fast::Hasher::new(),
            size: 0,
            whole: crate::inflate::WholeMember::new(),
        }
    }

    /// Nothing of the current member has been read yet.
    fn at_member_start(&self) -> bool {
        self.state == GzState::Header && self.size == 0 && self.inflate.total_in() == 0
    }

    fn reset(&mut self) {
        self.state = GzState::Header;
        self.inflate.reset(false);
        self.crc = crc32fast::Hasher::new();
        self.size = 0;
    }

    fn step(&mut self, input: &[u8], output: &mut [u8], eof: bool) -> std::result::Result<Step, ErrorKind> {
        const NEED_MORE: Step = Step { consumed: 0, produced: 0, member_end: false, error: None };
        match self.state {
            GzState::Header => match gzip_header_len(input)? {
                Some(n) => {
                    self.state = GzState::Body;
                    Ok(Step { consumed: n, produced: 0, member_end: false, error: None })
                }
                None if eof => Err(ErrorKind::Truncated("gzip member header".into())),
                None => Ok(NEED_MORE),
            },
            GzState::Body => {
                let (in0, out0) = (self.inflate.total_in(), self.inflate.total_out());
                let result = self.inflate.decompress(input, output, FlushDecompress::None);
                let consumed = (self.inflate.total_in() - in0) as usize;
                let produced = (self.inflate.total_out() - out0) as usize;
                self.crc.update(&output[..produced]);
                self.size = self.size.wrapping_add(produced as u32);
                match result {
                    Ok(Status::StreamEnd) => self.state = GzState::Trailer,
                    Ok(_) => {}
                    Err(e) => {
                        let kind = ErrorKind::Corrupt(format!("gzip member does not inflate: {e}"));
                        return Step::failed(consumed, produced, kind);
                    }
                }
                Ok(Step { consumed, produced, member_end: false, error: None })
            }
            GzState::Trailer => {
                if input.len() < 8 {
                    return if eof {
                        Err(ErrorKind::Truncated("gzip member trailer".into()))
                    } else {
                        Ok(NEED_MORE)
                    };
                }
                let crc = u32::from_le_bytes([input[0], input[1], input[2], input[3]]);
                let size = u32::from_le_bytes([input[4], input[5], input[6], input[7]]);
                let computed = std::mem::replace(&mut self.crc, crc32fast::Hasher::new()).finalize();
                if crc != computed || size != self.size {
                    return Err(ErrorKind::Corrupt("gzip member checksum (CRC-32 or size) does not match its data".into()));
                }
                self.state = GzState::Header;
                Ok(Step { consumed: 8, produced: 0, member_end: true, error: None })
            }
        }
    }
}

/// Length of a gzip member header (RFC 1952), None if more bytes are needed.
fn gzip_header_len(b: &[u8]) -> std::result::Result<Option<usize>, ErrorKind> {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    if b.len() < 10 {
        return Ok(None);
    }
    if b[0] != 0x1f || b[1] != 0x8b {
        return Err(ErrorKind::Corrupt("not a gzip member (bad magic)".into()));
    }
    if b[2] != 8 {
        return Err(ErrorKind::Corrupt(format!("gzip member with unknown compression method {}", b[2])));
    }
    let flags = b[3];
    let mut n = 10;
    if flags & FEXTRA != 0 {
        if b.len() < n + 2 {
            return Ok(None);
        }
        n += 2 + u16::from_le_bytes([b[n], b[n + 1]]) as usize;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            match b.get(n..).and_then(|rest| memchr::memchr(0, rest)) {
                Some(z) => n += z + 1,
                None => return Ok(None),
            }
        }
    }
    if flags & FHCRC != 0 {
        n += 2;
    }
    Ok(if b.len() >= n { Some(n) } else { None })
}

fn xz_step(
    state: &mut Option<liblzma::stream::Stream>,
    input: &[u8],
    output: &mut [u8],
) -> std::result::Result<Step, ErrorKind> {
    if state.is_none() {
        let s = liblzma::stream::Stream::new_stream_decoder(u64::MAX, 0)
            .map_err(|e| ErrorKind::Corrupt(format!("xz decoder: {e}")))?;
        *state = Some(s);
    }
    let s = state.as_mut().expect("xz stream just created");
    let (in0, out0) = (s.total_in(), s.total_out());
    let result = s.process(input, output, liblzma::stream::Action::Run);
    let consumed = (s.total_in() - in0) as usize;
    let produced = (s.total_out() - out0) as usize;
    let status = match result {
        Ok(status) => status,
        Err(e) => return Step::failed(consumed, produced, ErrorKind::Corrupt(format!("xz stream does not decode: {e}"))),
    };
    let member_end = status == liblzma::stream::Status::StreamEnd;
    if member_end {
        *state = None;
        // Any output of the final call is delivered with the member end
        // below; keep it by reporting it as produced.
    }
    Ok(Step { consumed, produced, member_end, error: None })
}

/// A zstd frame, decoded with the file's dictionary when it has one.
struct ZstdMember {
    dict: Option<Vec<u8>>,
    decoder: Option<zstd::stream::raw::Decoder<'static>>,
}

impl ZstdMember {
    fn new() -> Self {
        ZstdMember { dict: None, decoder: None }
    }

    fn set_dictionary(&mut self, dict: Vec<u8>) -> std::result::Result<(), String> {
        self.dict = Some(dict);
        self.decoder = None;
        Ok(())
    }

    fn reset(&mut self) {
        if let Some(d) = self.decoder.as_mut() {
            use zstd::stream::raw::Operation;
            if d.reinit().is_err() {
                self.decoder = None;
            }
        }
    }

    fn step(&mut self, input: &[u8], output: &mut [u8]) -> std::result::Result<Step, ErrorKind> {
        use zstd::stream::raw::{Decoder, InBuffer, Operation, OutBuffer};
        if self.decoder.is_none() {
            let d = match &self.dict {
                Some(dict) => Decoder::with_dictionary(dict),
                None => Decoder::new(),
            }
            .map_err(|e| ErrorKind::Corrupt(format!("zstd decoder: {e}")))?;
            self.decoder = Some(d);
        }
        let d = self.decoder.as_mut().expect("zstd decoder just created");
        let mut inb = InBuffer::around(input);
        let mut outb = OutBuffer::around(output);
        let result = d.run(&mut inb, &mut outb);
        let consumed = inb.pos();
        let produced = outb.pos();
        let hint = match result {
            Ok(hint) => hint,
            Err(e) => return Step::failed(consumed, produced, ErrorKind::Corrupt(format!("zstd frame does not decode: {e}"))),
        };
        // hint 0: the frame is complete and fully flushed.
        let member_end = hint == 0 && produced < output.len();
        Ok(Step { consumed, produced, member_end, error: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn read_member<R: Read>(r: &mut MemberReader<R>) -> Vec<u8> {
        let mut v = Vec::new();
        loop {
            let b = r.fill_buf().unwrap();
            if b.is_empty() {
                return v;
            }
            let n = b.len();
            v.extend_from_slice(b);
            r.consume(n);
        }
    }

    #[test]
    fn gzip_members_are_read_one_at_a_time_with_offsets() {
        let a = gz(b"first member");
        let b = gz(b"second");
        let file = [a.clone(), b.clone()].concat();
        let mut r = MemberReader::new(&file[..], "t.gz").unwrap();
        assert_eq!(r.compression(), Compression::Gzip);
        assert_eq!(read_member(&mut r), b"first member");
        assert_eq!(r.member_start(), 0);
        assert_eq!(r.member_end(), Some(a.len() as u64));
        assert!(r.next_member().unwrap());
        assert_eq!(r.member_start(), a.len() as u64);
        assert_eq!(read_member(&mut r), b"second");
        assert_eq!(r.member_end(), Some(file.len() as u64));
        assert!(!r.next_member().unwrap());
    }

    #[test]
    fn truncated_gzip_names_the_member_offset() {
        let a = gz(b"ok");
        let b = gz(&vec![b'x'; 5000]);
        let file = [a.clone(), b[..b.len() - 5].to_vec()].concat();
        let mut r = MemberReader::new(&file[..], "t.gz").unwrap();
        read_member(&mut r);
        assert!(r.next_member().unwrap());
        let e = loop {
            match r.fill_buf() {
                Ok(b) if b.is_empty() => panic!("should fail"),
                Ok(b) => {
                    let n = b.len();
                    r.consume(n)
                }
                Err(e) => break e,
            }
        };
        assert!(matches!(e.kind, ErrorKind::Truncated(_)), "{e}");
        assert_eq!(e.offset, Some(a.len() as u64));
    }

    #[test]
    fn resync_skips_garbage_between_members() {
        let a = gz(b"one");
        let b = gz(b"two");
        let file = [a.clone(), b"garbage\x1f!".to_vec(), b.clone()].concat();
        let mut r = MemberReader::new(&file[..], "t.gz").unwrap();
        read_member(&mut r);
        let e = r.next_member().unwrap_err();
        assert_eq!(e.offset, Some(a.len() as u64));
        let skipped = r.resync().unwrap().unwrap();
        assert_eq!(r.member_start(), (a.len() + 9) as u64);
        assert_eq!(skipped, 9);
        assert_eq!(read_member(&mut r), b"two");
    }

    #[test]
    fn xz_streams_are_members() {
        let enc = |d: &[u8]| {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
            e.write_all(d).unwrap();
            e.finish().unwrap()
        };
        let a = enc(b"alpha");
        let b = enc(b"beta");
        let file = [a.clone(), vec![0, 0, 0, 0], b.clone()].concat();
        let mut r = MemberReader::new(&file[..], "t.xz").unwrap();
        assert_eq!(r.compression(), Compression::Xz);
        assert_eq!(read_member(&mut r), b"alpha");
        assert_eq!(r.member_end(), Some(a.len() as u64));
        assert!(r.next_member().unwrap());
        assert_eq!(r.member_start(), (a.len() + 4) as u64);
        assert_eq!(read_member(&mut r), b"beta");
        assert!(!r.next_member().unwrap());
    }

    #[test]
    fn zstd_frames_with_dictionary_frame() {
        let dict = b"common words common words common words http response".repeat(20);
        let mut c = zstd::bulk::Compressor::with_dictionary(3, &dict).unwrap();
        let a = c.compress(b"common words one").unwrap();
        let b = c.compress(b"http response two").unwrap();
        let mut file = vec![0x5d, 0x2a, 0x4d, 0x18];
        file.extend_from_slice(&(dict.len() as u32).to_le_bytes());
        file.extend_from_slice(&dict);
        let a_at = file.len() as u64;
        file.extend_from_slice(&a);
        file.extend_from_slice(&b);
        let mut r = MemberReader::new(&file[..], "t.zst").unwrap();
        assert_eq!(r.compression(), Compression::Zstd);
        assert_eq!(r.member_start(), a_at);
        assert_eq!(read_member(&mut r), b"common words one");
        assert!(r.next_member().unwrap());
        assert_eq!(read_member(&mut r), b"http response two");
        assert!(!r.next_member().unwrap());
    }

    #[test]
    fn plain_input_is_one_member() {
        let mut r = MemberReader::new(&b"WARC/1.0\r\n"[..], "t.warc").unwrap();
        assert_eq!(r.compression(), Compression::None);
        assert_eq!(read_member(&mut r), b"WARC/1.0\r\n");
        assert!(!r.next_member().unwrap());
    }

    #[test]
    fn empty_and_lz4_inputs_are_refused() {
        let e = MemberReader::new(&b""[..], "e").err().unwrap();
        assert!(matches!(e.kind, ErrorKind::NotAnArchive(_)));
        let e = MemberReader::new(&[0x04u8, 0x22, 0x4d, 0x18, 0][..], "l").err().unwrap();
        assert!(e.message().contains("LZ4"));
    }
}
