//! The buffered-byte interface the parsers read through.

use std::io::Read;

use crate::decode::MemberReader;
use crate::error::{Error, ErrorKind, Result};

/// A buffered source of bytes, like `BufRead`, that can also say where it is
/// when it reports an error.
pub trait Fill {
    /// Buffered bytes; empty at the end.
    fn fill(&mut self) -> Result<&[u8]>;
    fn consume(&mut self, n: usize);
    /// An error located at the current position.
    fn error(&self, kind: ErrorKind) -> Error;

    /// Skips up to `n` bytes, returning how many were skipped.
    fn skip(&mut self, mut n: u64) -> Result<u64> {
        let mut done = 0;
        while n > 0 {
            let avail = self.fill()?.len();
            if avail == 0 {
                break;
            }
            let k = (avail as u64).min(n) as usize;
            self.consume(k);
            n -= k as u64;
            done += k as u64;
        }
        Ok(done)
    }
}

impl<R: Read> Fill for MemberReader<R> {
    fn fill(&mut self) -> Result<&[u8]> {
        self.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        MemberReader::consume(self, n)
    }
    fn error(&self, kind: ErrorKind) -> Error {
        let at = match self.compression() {
            crate::decode::Compression::None => self.decoded_pos(),
            _ => self.member_start(),
        };
        self.err(kind, Some(at))
    }
}

/// A byte slice as a [`Fill`] source (tests, and HTTP headers kept in memory).
pub struct SliceFill<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> SliceFill<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        SliceFill { data, pos: 0 }
    }
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl Fill for SliceFill<'_> {
    fn fill(&mut self) -> Result<&[u8]> {
        Ok(&self.data[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
    fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, "<memory>", Some(self.pos as u64))
    }
}

/// Reads until `buf` is full or the input ends (what `read_exact` does,
/// without failing on a short input): the number of bytes read.
pub fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}
