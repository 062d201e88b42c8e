//! Output codecs. Every codec takes whole records, so "one member / frame /
//! stream per record" (what makes random access by offset possible) is the
//! natural case; whole-file gzip is the deliberate exception.

use flate2::{Compress, Compression, Crc, FlushCompress, Status};
use std::fs::File;
use std::io::{self, BufWriter, Write};

/// Where serialized records go: a file (through a codec), or an in-memory
/// sample collector when training a zstd dictionary.
pub(crate) trait RecordSink {
    fn put(&mut self, record: &[u8]) -> io::Result<()>;
    /// Uncompressed bytes accepted so far (drives file size and clock).
    fn uncompressed(&self) -> u64;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Codec {
    Plain,
    GzipPerRecord,
    GzipWhole,
    Zstd,
    Xz,
}

/// Magic of the skippable frame that carries a WARC zstd dictionary
/// (IIPC "Zstandard Compression for WARC Files").
pub const WARC_ZSTD_DICT_MAGIC: u32 = 0x184D_2A5D;

enum State {
    Plain,
    Gzip(GzipStream),
    Zstd {
        cctx: zstd::bulk::Compressor<'static>,
        buf: Vec<u8>,
    },
    Xz {
        level: u32,
        buf: Vec<u8>,
    },
}

pub(crate) struct FileSink {
    out: BufWriter<File>,
    state: State,
    per_record: bool,
    uncompressed: u64,
}

pub(crate) struct Levels {
    pub gzip: u32,
    pub zstd: i32,
    pub xz: u32,
}

impl FileSink {
    /// `dictionary`: for zstd, a trained dictionary and whether to store it
    /// zstd-compressed inside the skippable frame.
    pub fn create(
        file: File,
        codec: Codec,
        levels: &Levels,
        dictionary: Option<(&[u8], bool)>,
    ) -> io::Result<FileSink> {
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let state = match codec {
            Codec::Plain => State::Plain,
            Codec::GzipPerRecord | Codec::GzipWhole => State::Gzip(GzipStream::new(levels.gzip)),
            Codec::Zstd => {
                let mut cctx = match dictionary {
                    Some((dict, compressed)) => {
                        let stored = if compressed {
                            zstd::bulk::compress(dict, 19)?
                        } else {
                            dict.to_vec()
                        };
                        out.write_all(&WARC_ZSTD_DICT_MAGIC.to_le_bytes())?;
                        out.write_all(&(stored.len() as u32).to_le_bytes())?;
                        out.write_all(&stored)?;
                        zstd::bulk::Compressor::with_dictionary(levels.zstd, dict)?
                    }
                    None => zstd::bulk::Compressor::new(levels.zstd)?,
                };
                // Content size in every frame header lets readers size
                // buffers; the checksum matches what `zstd` (CLI) writes.
                cctx.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
                cctx.set_parameter(zstd::zstd_safe::CParameter::ContentSizeFlag(true))?;
                State::Zstd {
                    cctx,
                    buf: Vec::new(),
                }
            }
            Codec::Xz => State::Xz {
                level: levels.xz,
                buf: Vec::new(),
            },
        };
        let mut sink = FileSink {
            out,
            state,
            per_record: codec != Codec::GzipWhole,
            uncompressed: 0,
        };
        if let (State::Gzip(g), false) = (&mut sink.state, sink.per_record) {
            g.begin(&mut sink.out)?;
        }
        Ok(sink)
    }

    /// Flushes the codec and the file; returns nothing, the caller stats
    /// the file for its size.
    pub fn finish(mut self) -> io::Result<()> {
        if let (State::Gzip(g), false) = (&mut self.state, self.per_record) {
            g.end(&mut self.out)?;
        }
        self.out.flush()?;
        self.out
            .into_inner()
            .map_err(|e| e.into_error())?
            .sync_all()
            .or(Ok(()))
    }
}

impl RecordSink for FileSink {
    fn put(&mut self, record: &[u8]) -> io::Result<()> {
        self.uncompressed += record.len() as u64;
        match &mut self.state {
            State::Plain => self.out.write_all(record),
            State::Gzip(g) => {
                if self.per_record {
                    g.begin(&mut self.out)?;
                    g.feed(record, &mut self.out)?;
                    g.end(&mut self.out)
                } else {
                    g.feed(record, &mut self.out)
                }
            }
            State::Zstd { cctx, buf } => {
                buf.clear();
                buf.reserve(zstd::zstd_safe::compress_bound(record.len()));
                cctx.compress_to_buffer(record, buf)?;
                self.out.write_all(buf)
            }
            State::Xz { level, buf } => {
                xz_stream(*level, record, buf)?;
                self.out.write_all(buf)
            }
        }
    }

    fn uncompressed(&self) -> u64 {
        self.uncompressed
    }
}

/// A gzip member writer over a reusable raw-deflate state: allocating a new
/// encoder per record (hundreds of KiB of tables each) would dominate the
/// run time for small records.
struct GzipStream {
    deflate: Compress,
    crc: Crc,
    buf: Vec<u8>,
}

impl GzipStream {
    fn new(level: u32) -> GzipStream {
        GzipStream {
            deflate: Compress::new(Compression::new(level), false),
            crc: Crc::new(),
            buf: Vec::with_capacity(256 << 10),
        }
    }

    fn begin(&mut self, out: &mut impl Write) -> io::Result<()> {
        self.deflate.reset();
        self.crc.reset();
        // ID1 ID2 CM=deflate FLG=0 MTIME=0 (reproducible) XFL=0 OS=255.
        out.write_all(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
    }

    fn feed(&mut self, data: &[u8], out: &mut impl Write) -> io::Result<()> {
        self.crc.update(data);
        self.run(data, FlushCompress::None, out)
    }

    fn end(&mut self, out: &mut impl Write) -> io::Result<()> {
        self.run(&[], FlushCompress::Finish, out)?;
        out.write_all(&self.crc.sum().to_le_bytes())?;
        out.write_all(&self.crc.amount().to_le_bytes())
    }

    fn run(
        &mut self,
        mut input: &[u8],
        flush: FlushCompress,
        out: &mut impl Write,
    ) -> io::Result<()> {
        loop {
            self.buf.clear();
            let before = self.deflate.total_in();
            let status = self
                .deflate
                .compress_vec(input, &mut self.buf, flush)
                .map_err(io::Error::other)?;
            input = &input[(self.deflate.total_in() - before) as usize..];
            out.write_all(&self.buf)?;
            let output_full = self.buf.len() == self.buf.capacity();
            match flush {
                FlushCompress::Finish if status == Status::StreamEnd => return Ok(()),
                FlushCompress::Finish => {}
                _ if input.is_empty() && !output_full => return Ok(()),
                _ => {}
            }
        }
    }
}

/// One complete .xz stream for `record`. The LZMA2 dictionary is shrunk to
/// the record size (as `xz` itself does for small inputs); a full preset-6
/// 8 MiB dictionary per record would make every small record pay for
/// initializing large match-finder tables.
fn xz_stream(level: u32, record: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
    use liblzma::stream::{Action, Check, Filters, LzmaOptions, Status, Stream};
    let err = |e: liblzma::stream::Error| io::Error::other(e);
    let mut opts = LzmaOptions::new_preset(level).map_err(err)?;
    let preset_dict = [
        256u32 << 10,
        1 << 20,
        2 << 20,
        4 << 20,
        4 << 20,
        8 << 20,
        8 << 20,
        16 << 20,
        32 << 20,
        64 << 20,
    ][level.min(9) as usize];
    let dict = (record.len().max(4096).next_power_of_two() as u64).min(preset_dict as u64) as u32;
    opts.dict_size(dict);
    let mut filters = Filters::new();
    filters.lzma2(&opts);
    let mut stream = Stream::new_stream_encoder(&filters, Check::Crc64).map_err(err)?;
    out.clear();
    out.reserve(record.len() / 2 + 4096);
    let mut input = record;
    loop {
        if out.capacity() - out.len() < 4096 {
            out.reserve(out.capacity().max(64 << 10));
        }
        let before = stream.total_in();
        let status = stream
            .process_vec(input, out, Action::Finish)
            .map_err(err)?;
        input = &input[(stream.total_in() - before) as usize..];
        if status == Status::StreamEnd {
            return Ok(());
        }
    }
}

/// Collects the beginnings of records for dictionary training.
pub(crate) struct SampleSink {
    pub samples: Vec<Vec<u8>>,
    pub max_sample: usize,
    uncompressed: u64,
}

impl SampleSink {
    pub fn new(max_sample: usize) -> SampleSink {
        SampleSink {
            samples: Vec::new(),
            max_sample,
            uncompressed: 0,
        }
    }
}

impl RecordSink for SampleSink {
    fn put(&mut self, record: &[u8]) -> io::Result<()> {
        self.uncompressed += record.len() as u64;
        self.samples
            .push(record[..record.len().min(self.max_sample)].to_vec());
        Ok(())
    }

    fn uncompressed(&self) -> u64 {
        self.uncompressed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn gzip_members_decode() {
        let mut g = GzipStream::new(6);
        let mut out = Vec::new();
        let rec1 = vec![b'a'; 300_000];
        for rec in [&b"hello "[..], &rec1[..], b"world"] {
            g.begin(&mut out).unwrap();
            g.feed(rec, &mut out).unwrap();
            g.end(&mut out).unwrap();
        }
        let mut s = Vec::new();
        flate2::read::MultiGzDecoder::new(&out[..])
            .read_to_end(&mut s)
            .unwrap();
        assert_eq!(s.len(), 6 + 300_000 + 5);
    }

    #[test]
    fn xz_stream_decodes() {
        let mut buf = Vec::new();
        xz_stream(6, b"some record text", &mut buf).unwrap();
        let mut s = Vec::new();
        liblzma::read::XzDecoder::new(&buf[..])
            .read_to_end(&mut s)
            .unwrap();
        assert_eq!(s, b"some record text");
    }
}
