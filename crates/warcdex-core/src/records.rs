//! Records with their HTTP message parsed, for API users who want more than
//! index rows. The payload is read only when asked for.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use crate::error::{Error, ErrorKind, Result};
use crate::headers::StatusAndHeaders;
use crate::http::{carries_http, parse_http_head};
use crate::reader::{ArchiveReader, RecordHead, RecordSpan};
use crate::source::Fill;

/// What to do with each record's payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayloadMode {
    /// Skip it (it can be read later from the file by offset).
    Skip,
    /// Keep up to this many bytes of it.
    Keep(usize),
}

#[derive(Debug, Clone)]
pub struct RecordInfo {
    pub head: RecordHead,
    pub http: Option<StatusAndHeaders>,
    pub span: RecordSpan,
    /// Bytes of the block taken by the HTTP status line and headers.
    pub http_header_length: u64,
    /// Bytes of the block after the HTTP headers (the whole block without them).
    pub payload_length: u64,
    pub payload: Option<Vec<u8>>,
    /// The kept payload is shorter than the record's.
    pub payload_cut: bool,
}

/// An item of [`RecordIter`]: a record, or a problem met on the way.
#[derive(Debug)]
pub enum RecordEvent {
    Record(Box<RecordInfo>),
    Skipped(Error),
    Warning(Error),
}

pub struct RecordIter<R: Read> {
    reader: ArchiveReader<R>,
    payload: PayloadMode,
    pending: Vec<RecordEvent>,
    done: bool,
}

impl<R: Read> RecordIter<R> {
    pub fn new(reader: ArchiveReader<R>, payload: PayloadMode) -> Self {
        RecordIter { reader, payload, pending: Vec::new(), done: false }
    }

    pub fn reader(&self) -> &ArchiveReader<R> {
        &self.reader
    }

    pub fn next_event(&mut self) -> Option<RecordEvent> {
        loop {
            if !self.pending.is_empty() {
                return Some(self.pending.remove(0));
            }
            if self.done {
                return None;
            }
            match self.reader.next_head() {
                Ok(None) => self.done = true,
                Err(e) => self.pending.push(RecordEvent::Skipped(e)),
                Ok(Some(head)) => match self.read(head) {
                    Ok(info) => self.pending.push(RecordEvent::Record(Box::new(info))),
                    Err(e) => self.pending.push(RecordEvent::Skipped(e)),
                },
            }
        }
    }

    fn read(&mut self, head: RecordHead) -> Result<RecordInfo> {
        let mut http = StatusAndHeaders::default();
        let mut scratch = Vec::new();
        let mut header_len = 0;
        let has_http = if carries_http(&head) {
            let mut block = self.reader.block();
            let found = parse_http_head(&mut block, &mut http, &mut scratch)?;
            header_len = block.read_so_far();
            found
        } else {
            false
        };
        let mut payload = None;
        let mut cut = false;
        let mut payload_length = 0;
        {
            let mut block = self.reader.block();
            let keep = match self.payload {
                PayloadMode::Keep(n) => Some(n),
                PayloadMode::Skip => None,
            };
            let mut buf = Vec::new();
            loop {
                let chunk = block.fill()?;
                if chunk.is_empty() {
                    break;
                }
                let n = chunk.len();
                if let Some(limit) = keep {
                    let room = limit.saturating_sub(buf.len());
                    buf.extend_from_slice(&chunk[..n.min(room)]);
                    cut |= n > room;
                }
                payload_length += n as u64;
                block.consume(n);
                if keep.is_none() {
                    // Skipping: let finish_record jump over the rest without a copy.
                    break;
                }
            }
            if keep.is_some() {
                payload = Some(buf);
            } else {
                payload_length += block.remaining();
            }
        }
        for note in &head.notes {
            self.pending.push(RecordEvent::Warning(Error::new(
                ErrorKind::BadRecord(note.clone()),
                self.reader.name(),
                Some(head.offset),
            )));
        }
        let span = self.reader.finish_record()?;
        if let Some(d) = self.reader.take_damage() {
            self.pending.push(RecordEvent::Warning(d));
        }
        if let Some(t) = span.truncated_at {
            payload_length = t.saturating_sub(header_len);
        }
        Ok(RecordInfo {
            head,
            http: has_http.then_some(http),
            span,
            http_header_length: header_len,
            payload_length,
            payload,
            payload_cut: cut,
        })
    }
}

/// Opens the record that starts at `offset` in a file (the offset of an
/// index line), positioned at the start of its payload.
pub struct PayloadReader {
    reader: ArchiveReader<File>,
    pub info_head: RecordHead,
    pub http: Option<StatusAndHeaders>,
}

impl PayloadReader {
    pub fn open(path: &Path, offset: u64) -> Result<Self> {
        let name = path.display().to_string();
        let mut file = File::open(path).map_err(|e| Error::new(ErrorKind::Io(format!("cannot open: {e}")), &name, None))?;
        file.seek(SeekFrom::Start(offset)).map_err(|e| Error::new(ErrorKind::Io(e.to_string()), &name, Some(offset)))?;
        let mut reader = ArchiveReader::new(file, &name).map_err(|e| Error { offset: Some(offset), ..e })?;
        let head = reader
            .next_head()
            .map_err(|e| Error { offset: Some(offset), ..e })?
            .ok_or_else(|| Error::new(ErrorKind::BadRecord("no record at this offset".into()), &name, Some(offset)))?;
        let mut http = StatusAndHeaders::default();
        let mut scratch = Vec::new();
        let has_http = carries_http(&head) && parse_http_head(&mut reader.block(), &mut http, &mut scratch)?;
        Ok(PayloadReader { reader, info_head: head, http: has_http.then_some(http) })
    }

    /// Reads the next part of the payload into `buf`; 0 at its end.
    pub fn read_chunk(&mut self, buf: &mut [u8]) -> Result<usize> {
        let mut block = self.reader.block();
        let avail = block.fill()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        block.consume(n);
        Ok(n)
    }
}
