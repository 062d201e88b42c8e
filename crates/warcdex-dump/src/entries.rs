//! The tar entries of a segment, decoded on a thread of their own: xz
//! decoding is about two thirds of the work of reading a segment and the
//! md5 (and SHA-1, gzip) of each page most of the rest, so the two run side
//! by side. Pages travel through a short queue (memory stays a few pages)
//! and their buffers come back to be filled again.

use std::io::{self, BufReader, Read};
use std::sync::mpsc::{sync_channel, Receiver, Sender, SyncSender};
use std::thread::{Scope, ScopedJoinHandle};

use md5::{Digest, Md5};

use crate::tar::{EntryHeader, TarReader};

/// Pages decoded ahead of the reader.
const AHEAD: usize = 64;

pub enum Item {
    /// An entry and its data (regular files only; others come with none).
    /// After a failed read nothing more comes.
    Entry(EntryHeader, io::Result<Vec<u8>>),
    /// The next entry could not be read (a truncated or corrupt stream).
    Failed(io::Error),
}

/// What the decoding thread saw of the raw file: every byte of it, read to
/// the end even past a damaged stream, so that size and md5 cover the file.
pub struct Raw {
    pub bytes: u64,
    pub md5: Option<String>,
}

/// Counts (and optionally hashes) the raw bytes the decoder pulls.
struct Tee<R> {
    inner: R,
    count: u64,
    md5: Option<Md5>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        if let Some(h) = &mut self.md5 {
            h.update(&buf[..n]);
        }
        Ok(n)
    }
}

pub struct Entries<'scope> {
    items: Receiver<Item>,
    spare: Sender<Vec<u8>>,
    thread: ScopedJoinHandle<'scope, Raw>,
}

/// Starts decoding `src` (an `.tar.xz`) on a thread of `scope`.
pub fn spawn<'scope, R: Read + Send + 'scope>(scope: &'scope Scope<'scope, '_>, src: R, file_md5: bool) -> io::Result<Entries<'scope>> {
    // Every page is checked against its manifest md5 (and the file against the
    // master manifest's), so xz's own CRC-64 over the same bytes is redundant:
    // skipping it saves about a tenth of the decoding time.
    let stream = liblzma::stream::Stream::new_stream_decoder(u64::MAX, liblzma::stream::CONCATENATED | liblzma::stream::IGNORE_CHECK)
        .map_err(io::Error::other)?;
    let (tx, items) = sync_channel(AHEAD);
    let (spare, spares) = std::sync::mpsc::channel();
    let thread = scope.spawn(move || {
        let tee = Tee { inner: src, count: 0, md5: file_md5.then(Md5::new) };
        let xz = liblzma::read::XzDecoder::new_stream(BufReader::with_capacity(1 << 16, tee), stream);
        let mut tar = TarReader::new(xz);
        let whole = decode(&mut tar, &tx, &spares);
        drop(tx);
        let xz = tar.get_mut();
        if whole {
            let _ = io::copy(xz, &mut io::sink());
        }
        let tee = xz.get_mut().get_mut();
        let _ = io::copy(tee, &mut io::sink());
        Raw { bytes: tee.count, md5: tee.md5.take().map(|h| crate::hex(&h.finalize())) }
    });
    Ok(Entries { items, spare, thread })
}

/// Sends every entry; false when the stream failed (or the reader left).
fn decode<R: Read>(tar: &mut TarReader<R>, tx: &SyncSender<Item>, spares: &Receiver<Vec<u8>>) -> bool {
    loop {
        let header = match tar.next_entry() {
            Ok(Some(h)) => h,
            Ok(None) => return true,
            Err(e) => {
                let _ = tx.send(Item::Failed(e));
                return false;
            }
        };
        // A used buffer keeps its length: read_data zero-fills only growth.
        let mut buf = spares.try_recv().unwrap_or_default();
        let data = if header.is_file() {
            tar.read_data(&mut buf).map(|()| buf)
        } else {
            buf.clear();
            Ok(buf)
        };
        let failed = data.is_err();
        if tx.send(Item::Entry(header, data)).is_err() || failed {
            return false;
        }
    }
}

impl Entries<'_> {
    /// The next item; `None` at the end of the tar.
    pub fn next(&self) -> Option<Item> {
        self.items.recv().ok()
    }

    /// A page buffer back for reuse.
    pub fn give_back(&self, buf: Vec<u8>) {
        let _ = self.spare.send(buf);
    }

    /// Waits for the decoding thread to read the rest of the file.
    pub fn finish(self) -> io::Result<Raw> {
        drop(self.items);
        self.thread.join().map_err(|_| io::Error::other("the segment's decoding thread panicked"))
    }
}
