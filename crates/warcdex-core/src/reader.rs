//! Records of WARC and ARC files: framing, offsets, and recovery.
//!
//! [`ArchiveReader::next_head`] parses the next record's header block; the
//! block (the record's content) is then read through [`ArchiveReader::block`]
//! or skipped. Offsets and lengths follow warcio, which the reference
//! indexers use: for a compressed file, the record's member (its raw offset
//! and compressed length); for an uncompressed one, the record's start and
//! its length without the blank lines that follow it.
//!
//! A bad record is returned as an error; calling `next_head` again goes on
//! from the next record boundary that can be found (the next member, or the
//! next `WARC/` or ARC header line), and the bytes passed over are counted.

use std::io::Read;

use crate::decode::{Compression, MemberReader};
use crate::error::{Error, ErrorKind, Result};
use crate::headers::{self, parse_block, py_rstrip, Headers, StatusAndHeaders, StatusRule};
use crate::source::Fill;

/// Header blocks larger than this are refused, so that memory stays bounded.
pub const DEFAULT_MAX_HEADER_BYTES: usize = 4 << 20;

/// Like warcio, header lines that are not UTF-8 are read as ISO-8859-1.
const NOT_UTF8_NOTE: &str = "record header has bytes that are not UTF-8 (read as ISO-8859-1)";

const WARC_VERSIONS: &[&str] = &["WARC/1.1", "WARC/1.0", "WARC/0.17", "WARC/0.18"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFormat {
    Warc,
    Arc,
}

/// A record's header block and framing, before its content is read.
#[derive(Debug, Clone)]
pub struct RecordHead {
    pub format: RecordFormat,
    /// `WARC/1.0`, `WARC/1.1`... or `ARC/1`, `ARC/2`.
    pub version: String,
    /// WARC-Type; ARC records are `response`, the ARC file header `warcinfo`.
    pub rec_type: String,
    /// WARC headers, or for ARC the URL-record fields under their spec names.
    pub headers: Headers,
    /// Target URI with `<>` removed and spaces escaped as `%20`.
    pub target_uri: Option<String>,
    /// WARC-Date, or the ARC archive-date as written.
    pub date: Option<String>,
    /// WARC Content-Type, or the ARC content-type field.
    pub content_type: Option<String>,
    /// Bytes of content that follow the header block.
    pub block_length: u64,
    /// Offset of the record: its member for compressed files, else its first byte.
    pub offset: u64,
    /// Bytes of the header block (decoded).
    pub header_length: u64,
    /// Notes on what was repaired or looks wrong, for warnings.
    pub notes: Vec<String>,
}

impl RecordHead {
    pub fn is_arc_filedesc(&self) -> bool {
        self.format == RecordFormat::Arc && self.rec_type == "warcinfo"
    }
}

/// Where a finished record lies in its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordSpan {
    pub offset: u64,
    pub length: u64,
    /// False when the offset cannot be used to seek: records sharing one
    /// compressed member (whole-file gzip, single-stream xz), where offset
    /// and length count decoded bytes instead.
    pub seekable: bool,
    /// Bytes of content actually present when the block ended early.
    pub truncated_at: Option<u64>,
}

/// Counters of a whole input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    pub records: u64,
    pub errors: u64,
    pub bytes_skipped: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between records.
    Between,
    /// Inside a record's block.
    InBlock,
    /// After an error: the next call resyncs first.
    Broken,
    Done,
}

pub struct ArchiveReader<R: Read> {
    src: MemberReader<R>,
    state: State,
    max_header: usize,
    line: Vec<u8>,
    /// A line read past the end of the previous record: the next record's first line.
    pending: Option<Vec<u8>>,
    pending_pos: u64,
    format: Option<RecordFormat>,
    arc_version: u8,
    /// A compressed stream broke inside the current record's content.
    damage: Option<Error>,
    /// A problem found while finishing a record, returned by the next `next_head`.
    deferred: Option<Error>,
    /// Records begun in the current member (compressed input).
    records_in_member: u32,
    /// The input has records sharing a member: offsets are decoded offsets.
    multi_record_members: bool,
    // Current record.
    block_left: u64,
    block_read: u64,
    rec_offset: u64,
    rec_decoded_start: u64,
    rec_member_start: u64,
    rec_first_in_member: bool,
    last_span: Option<RecordSpan>,
    /// The last error broke the compressed stream itself (not just a record).
    broken_codec: bool,
    /// Raw start of the member where the last error happened.
    broken_member: u64,
    stats: ReadStats,
    scratch: StatusAndHeaders,
}

impl<R: Read> ArchiveReader<R> {
    pub fn new(src: R, name: &str) -> Result<Self> {
        Self::new_at(src, name, 0)
    }

    /// Reads from a reader positioned at `base` (a record or member start) in
    /// its file; offsets are those of the file.
    pub fn new_at(src: R, name: &str, base: u64) -> Result<Self> {
        let src = MemberReader::new_at(src, name, base)?;
        Ok(ArchiveReader {
            src,
            state: State::Between,
            max_header: DEFAULT_MAX_HEADER_BYTES,
            line: Vec::with_capacity(256),
            pending: None,
            pending_pos: 0,
            format: None,
            arc_version: 1,
            damage: None,
            deferred: None,
            records_in_member: 0,
            multi_record_members: false,
            block_left: 0,
            block_read: 0,
            rec_offset: 0,
            rec_decoded_start: 0,
            rec_member_start: 0,
            rec_first_in_member: true,
            last_span: None,
            broken_codec: false,
            broken_member: 0,
            stats: ReadStats::default(),
            scratch: StatusAndHeaders::default(),
        })
    }

    pub fn with_max_header_bytes(mut self, n: usize) -> Self {
        self.max_header = n;
        self
    }

    pub fn compression(&self) -> Compression {
        self.src.compression()
    }

    pub fn name(&self) -> &str {
        self.src.name()
    }

    pub fn stats(&self) -> ReadStats {
        self.stats
    }

    /// Raw bytes of the input consumed so far (for progress).
    pub fn raw_position(&self) -> u64 {
        self.src.raw_pos()
    }

    /// The damage to the compressed stream found inside the last record, if any.
    /// It comes as the warning that the record was kept with what could be decoded.
    pub fn take_damage(&mut self) -> Option<Error> {
        let mut e = self.damage.take()?;
        e.kind = ErrorKind::Truncated(format!(
            "record kept with the {} of {} content bytes that could be decoded: {}",
            self.block_read,
            self.block_read + self.block_left,
            e.message()
        ));
        e.offset = self.last_span.map(|s| s.offset).or(e.offset);
        Some(e)
    }

    /// True once records were found sharing one compressed member.
    pub fn has_unseekable_offsets(&self) -> bool {
        self.multi_record_members
    }

    fn error_here(&self, kind: ErrorKind, offset: u64) -> Error {
        Error::new(kind, self.src.name(), Some(offset))
    }

    /// Parses the next record's header block. Ok(None) at the end of input.
    pub fn next_head(&mut self) -> Result<Option<RecordHead>> {
        match self.state {
            State::Done if self.deferred.is_none() => return Ok(None),
            State::Done => {}
            State::InBlock => {
                if let Err(e) = self.finish_record() {
                    self.fail(&e);
                    return Err(e);
                }
            }
            State::Broken => {
                if let Err(e) = self.recover() {
                    self.fail(&e);
                    return Err(e);
                }
            }
            State::Between => {}
        }
        // Damage of a record its caller did not take (an index skips record
        // types it does not select) belongs to that record, not to the next
        // one, whose block would otherwise read as empty (found by fuzzing).
        self.damage = None;
        if let Some(e) = self.deferred.take() {
            self.stats.errors += 1;
            return Err(e);
        }
        if self.state == State::Done {
            return Ok(None);
        }
        self.rec_decoded_start = match &self.pending {
            Some(_) => self.pending_pos,
            None => self.src.decoded_pos(),
        };
        match self.read_head() {
            Ok(None) if self.stats.records == 0 && self.stats.errors == 0 => {
                // Say so once: an input without a single record is not silently "done".
                self.stats.errors += 1;
                Err(self.error_here(ErrorKind::NotAnArchive("no WARC or ARC record in this input".into()), 0))
            }
            Ok(h) => Ok(h),
            Err(e) => {
                self.fail(&e);
                Err(e)
            }
        }
    }

    fn fail(&mut self, e: &Error) {
        self.stats.errors += 1;
        // An input that cannot be read any more ends here (a failing stream
        // would fail again at every retry).
        self.state = if matches!(e.kind, ErrorKind::Io(_)) { State::Done } else { State::Broken };
        self.broken_codec = matches!(e.kind, ErrorKind::Truncated(_) | ErrorKind::Corrupt(_) | ErrorKind::Io(_));
        self.broken_member = self.src.member_start();
        self.pending = None;
    }

    /// The first line of the next record, skipping blank lines and moving
    /// across member boundaries. None at end of input.
    fn next_record_line(&mut self) -> Result<Option<(Vec<u8>, u64)>> {
        if let Some(l) = self.pending.take() {
            return Ok(Some((l, self.pending_pos)));
        }
        loop {
            let pos = self.src.decoded_pos();
            let n = read_line_capped(&mut self.src, &mut self.line, self.max_header)?;
            if n == 0 {
                if self.src.compression() != Compression::None && self.src.next_member()? {
                    self.records_in_member = 0;
                    continue;
                }
                return Ok(None);
            }
            if is_blank(&self.line) {
                continue;
            }
            return Ok(Some((std::mem::take(&mut self.line), pos)));
        }
    }

    fn read_head(&mut self) -> Result<Option<RecordHead>> {
        let (first, line_pos) = match self.next_record_line()? {
            Some(x) => x,
            None => {
                self.state = State::Done;
                return Ok(None);
            }
        };
        let compressed = self.src.compression() != Compression::None;
        self.rec_member_start = self.src.member_start();
        self.rec_decoded_start = line_pos;
        self.rec_first_in_member = self.records_in_member == 0;
        self.rec_offset = if compressed && self.rec_first_in_member && !self.multi_record_members {
            self.rec_member_start
        } else {
            line_pos
        };
        if compressed && !self.rec_first_in_member {
            self.multi_record_members = true;
        }
        self.records_in_member += 1;
        let offset = self.rec_offset;

        let head = if starts_with_warc_version(&first) && self.format != Some(RecordFormat::Arc) {
            self.read_warc_head(&first, offset)?
        } else if looks_like_arc_line(&first) || (self.format == Some(RecordFormat::Arc) && !starts_with_warc_version(&first)) {
            self.read_arc_head(&first, offset)?
        } else if starts_with_warc_version(&first) {
            self.read_warc_head(&first, offset)?
        } else {
            let shown = show_line(&first);
            return Err(self.error_here(
                ErrorKind::BadRecord(format!("not the start of a WARC or ARC record: {shown:?}")),
                offset,
            ));
        };
        self.block_left = head.block_length;
        self.block_read = 0;
        self.state = State::InBlock;
        self.stats.records += 1;
        Ok(Some(head))
    }

    fn read_warc_head(&mut self, first: &[u8], offset: u64) -> Result<RecordHead> {
        self.format.get_or_insert(RecordFormat::Warc);
        let mut block = std::mem::take(&mut self.scratch);
        let mut line = std::mem::take(&mut self.line);
        let parsed = parse_block(&mut self.src, Some(first), StatusRule::Any, self.max_header, &mut block, &mut line);
        self.line = line;
        let parsed = parsed.map_err(|e| Error { offset: Some(offset), ..e })?;
        if parsed.is_err() || block.unterminated {
            self.scratch = block;
            return Err(self.error_here(ErrorKind::BadRecord("WARC header block ends before its blank line".into()), offset));
        }
        let version = block.protocol.clone();
        let known = WARC_VERSIONS.iter().any(|v| v.eq_ignore_ascii_case(&version));
        let mut notes = Vec::new();
        if !known {
            notes.push(format!("unknown WARC version {version:?}, read as WARC/1.1"));
        }
        if block.not_utf8 {
            notes.push(NOT_UTF8_NOTE.into());
        }
        let headers = std::mem::take(&mut block.headers);
        let header_length = block.total_bytes as u64;
        self.scratch = block;

        let rec_type = headers.get("WARC-Type").unwrap_or("").to_string();
        let block_length = match headers.get("Content-Length") {
            Some(v) => declared_length(v, 0, &mut notes),
            None => return Err(self.error_here(ErrorKind::BadRecord("WARC record has no Content-Length".into()), offset)),
        };
        let target_uri = headers.get("WARC-Target-URI").map(|u| repair_target_uri(u, &mut notes));
        let date = headers.get("WARC-Date").map(str::to_string);
        let content_type = headers.get("Content-Type").map(str::to_string);
        Ok(RecordHead {
            format: RecordFormat::Warc,
            version,
            rec_type,
            headers,
            target_uri,
            date,
            content_type,
            block_length,
            offset,
            header_length,
            notes,
        })
    }

    fn read_arc_head(&mut self, first: &[u8], offset: u64) -> Result<RecordHead> {
        let mut notes = Vec::new();
        let mut text = String::new();
        if !headers::decode_line_into(first, &mut text) {
            notes.push(NOT_UTF8_NOTE.into());
        }
        let line = py_rstrip(&text).to_string();
        let mut header_length = first.len() as u64;
        let mut sub_len = 0u64;
        let is_filedesc = line.starts_with("filedesc://");
        if is_filedesc {
            // The version block: "<major> <minor> <origin>" and the field-definition line,
            // counted in the record's length.
            let mut vline = Vec::new();
            headers::read_line(&mut self.src, &mut vline, self.max_header)?;
            let mut spec = Vec::new();
            headers::read_line(&mut self.src, &mut spec, self.max_header)?;
            sub_len = (vline.len() + spec.len()) as u64;
            header_length += sub_len;
            if vline.first() == Some(&b'2') {
                self.arc_version = 2;
            }
        }
        self.format.get_or_insert(RecordFormat::Arc);
        let fields = split_arc_line(&line, self.arc_version).ok_or_else(|| {
            self.error_here(ErrorKind::BadRecord(format!("ARC header line has the wrong number of fields: {line:?}")), offset)
        })?;
        let mut headers = Headers::new();
        let names: &[&str] = if fields.len() == 10 { &ARC_V2_FIELDS } else { &ARC_V1_FIELDS };
        for (n, v) in names.iter().zip(&fields) {
            headers.push(n, v);
        }
        let declared = fields.last().expect("ARC lines have fields").clone();
        // Writers often leave the version block's last newline out of the
        // length; only a larger shortfall is worth a warning.
        if let Ok(length) = declared.trim().parse::<u64>() {
            if sub_len > length + 1 {
                notes.push(format!("ARC file header length {length} is shorter than its version block ({sub_len} bytes)"));
            }
        }
        let block_length = declared_length(&declared, sub_len, &mut notes);
        let uri = fields[0].clone();
        let target_uri = Some(repair_target_uri(&uri, &mut notes));
        Ok(RecordHead {
            format: RecordFormat::Arc,
            version: format!("ARC/{}", self.arc_version),
            rec_type: if is_filedesc { "warcinfo".into() } else { "response".into() },
            headers,
            target_uri,
            date: Some(fields[2].clone()),
            content_type: Some(fields[3].clone()),
            block_length,
            offset,
            header_length,
            notes,
        })
    }

    /// The current record's content, limited to its length.
    pub fn block(&mut self) -> Block<'_, R> {
        Block { reader: self }
    }

    /// Reads past the rest of the block and the blank lines after it, and
    /// returns where the record lies. Called by `next_head` when omitted.
    pub fn finish_record(&mut self) -> Result<RecordSpan> {
        if self.state != State::InBlock {
            return self.last_span.ok_or_else(|| {
                self.error_here(ErrorKind::Unsupported("finish_record called outside a record".into()), self.rec_offset)
            });
        }
        let left = self.block_left;
        if self.damage.is_none() {
            match self.src.skip(left) {
                Ok(skipped) => {
                    self.block_read += skipped;
                    self.block_left -= skipped;
                }
                Err(e) if is_stream_damage(&e) => self.damage = Some(e),
                Err(e) => return Err(e),
            }
        }
        let truncated_at = (self.block_left > 0).then_some(self.block_read);
        let block_end = self.src.decoded_pos();
        self.state = State::Between;
        let compressed = self.src.compression() != Compression::None;
        let own_member = compressed && self.rec_first_in_member && !self.multi_record_members;

        // Blank lines after the record belong to it in a compressed member.
        let mut next_line = None;
        // Where a line after the content began when the stream broke inside it.
        let mut broken_line = None;
        while self.damage.is_none() {
            let pos = self.src.decoded_pos();
            let n = match read_line_capped(&mut self.src, &mut self.line, self.max_header) {
                Ok(n) => n,
                Err(e) if is_stream_damage(&e) => {
                    self.damage = Some(e);
                    // Part of another record's first line: in a member that holds
                    // several records, the break is in that record, not this one.
                    let started = if own_member { is_warc_prefix(&self.line) } else { !is_blank(&self.line) };
                    broken_line = started.then_some(pos);
                    break;
                }
                Err(e) => return Err(e),
            };
            if n == 0 {
                break;
            }
            if !is_blank(&self.line) {
                next_line = Some((std::mem::take(&mut self.line), pos));
                break;
            }
        }
        if own_member && self.damage.is_none() {
            if let Some((line, pos)) = next_line.take_if(|(l, _)| !starts_record(l)) {
                // Not a record after the content inside the record's own member
                // (a Content-Length that undershoots): skipped to the member's end.
                self.skip_rest_of_member();
                let n = self.src.decoded_pos() - pos;
                let shown = show_line(&line);
                let what = format!(
                    "{n} bytes after the record's content in its {} member are not a record: {shown:?}",
                    self.src.compression().name()
                );
                self.deferred = Some(self.error_here(ErrorKind::BadRecord(what), self.rec_member_start));
                self.stats.bytes_skipped += n;
            }
        }
        if self.damage.is_some() {
            let span = self.finish_damaged(block_end, broken_line, own_member && broken_line.is_none());
            self.last_span = Some(span);
            return Ok(span);
        }
        let span = if compressed {
            match (&next_line, self.src.member_end()) {
                (None, Some(end)) if own_member => RecordSpan {
                    offset: self.rec_member_start,
                    length: end - self.rec_member_start,
                    seekable: true,
                    truncated_at,
                },
                _ => {
                    // Another record (or garbage) follows inside the same member.
                    self.multi_record_members = true;
                    RecordSpan {
                        offset: self.rec_decoded_start,
                        length: block_end - self.rec_decoded_start,
                        seekable: false,
                        truncated_at,
                    }
                }
            }
        } else {
            RecordSpan {
                offset: self.rec_offset,
                length: block_end - self.rec_offset,
                seekable: true,
                truncated_at,
            }
        };
        if let Some((l, pos)) = next_line {
            self.pending = Some(l);
            self.pending_pos = pos;
        }
        self.last_span = Some(span);
        Ok(span)
    }

    /// The compressed stream broke in the current record (its content, or
    /// what follows it). The record is kept, flagged, unless it was whole and
    /// the break came inside the next record of a shared member (`broken_line`),
    /// which is then reported as skipped. Reading resumes at the next member;
    /// in a member of its own, the record spans up to it.
    fn finish_damaged(&mut self, block_end: u64, broken_line: Option<u64>, own_member: bool) -> RecordSpan {
        let broke_at = self.src.decoded_pos();
        let end = match self.src.resync() {
            Ok(Some(_)) => {
                self.records_in_member = 0;
                self.src.member_start()
            }
            Ok(None) => {
                self.state = State::Done;
                self.src.raw_pos()
            }
            Err(e) => {
                self.state = State::Done;
                self.deferred.get_or_insert(e);
                self.src.raw_pos()
            }
        };
        if let (Some(at), 0) = (broken_line, self.block_left) {
            self.multi_record_members = true;
            let mut e = self.damage.take().expect("damage is set");
            e.offset = Some(at);
            self.deferred = Some(e);
            self.stats.bytes_skipped += broke_at - at;
            let length = block_end - self.rec_decoded_start;
            return RecordSpan { offset: self.rec_decoded_start, length, seekable: false, truncated_at: None };
        }
        let truncated_at = Some(self.block_read);
        if own_member {
            let offset = self.rec_member_start;
            RecordSpan { offset, length: end.saturating_sub(offset), seekable: true, truncated_at }
        } else {
            self.multi_record_members = true;
            let offset = self.rec_decoded_start;
            RecordSpan { offset, length: broke_at - offset, seekable: false, truncated_at }
        }
    }

    /// Passes over what is left of the current member (stopping where the
    /// stream breaks, which is then the record's damage).
    fn skip_rest_of_member(&mut self) {
        loop {
            match self.src.fill_buf() {
                Ok([]) => return,
                Ok(b) => {
                    let n = b.len();
                    self.src.consume(n);
                }
                Err(e) => {
                    self.damage = Some(e);
                    return;
                }
            }
        }
    }

    /// Goes on after an error from the next record boundary that can be found.
    fn recover(&mut self) -> Result<()> {
        self.pending = None;
        self.state = State::Between;
        if self.src.compression() == Compression::None || (self.multi_record_members && !self.broken_codec) {
            return self.resync_lines();
        }
        if !self.broken_codec && self.drain_member().is_ok() {
            match self.src.next_member() {
                Ok(more) => {
                    self.stats.bytes_skipped += self.src.raw_pos().saturating_sub(self.broken_member);
                    self.records_in_member = 0;
                    if !more {
                        self.state = State::Done;
                    }
                    return Ok(());
                }
                Err(_) => {}
            }
        }
        if self.multi_record_members && self.broken_member == self.rec_member_start {
            // The stream broke inside a record of a member that several records
            // share: what was decoded of that record is skipped (the records
            // before it were read, so the member's raw bytes are not counted).
            self.stats.bytes_skipped += self.src.decoded_pos().saturating_sub(self.rec_decoded_start);
            return self.resync_member(false);
        }
        self.resync_member(true)
    }

    fn drain_member(&mut self) -> Result<()> {
        loop {
            let n = self.src.fill_buf()?.len();
            if n == 0 {
                return Ok(());
            }
            self.src.consume(n);
        }
    }

    /// Goes on at the next member; `count` adds the raw bytes passed over.
    fn resync_member(&mut self, count: bool) -> Result<()> {
        let to = match self.src.resync()? {
            Some(_) => {
                self.records_in_member = 0;
                self.src.member_start()
            }
            None => {
                self.state = State::Done;
                self.src.raw_pos()
            }
        };
        if count {
            self.stats.bytes_skipped += to.saturating_sub(self.broken_member);
        }
        Ok(())
    }

    /// Skips lines up to one that starts a record (or, in compressed input,
    /// up to the next member), counting the bytes from the failed record on.
    fn resync_lines(&mut self) -> Result<()> {
        let start = self.rec_decoded_start;
        let arc = self.format == Some(RecordFormat::Arc);
        loop {
            let pos = self.src.decoded_pos();
            let n = read_line_capped(&mut self.src, &mut self.line, self.max_header)?;
            if n == 0 {
                self.stats.bytes_skipped += pos.saturating_sub(start);
                if self.src.compression() != Compression::None && self.src.next_member()? {
                    self.records_in_member = 0;
                    return Ok(());
                }
                self.state = State::Done;
                return Ok(());
            }
            let starts = if arc { looks_like_arc_line(&self.line) } else { starts_with_warc_version(&self.line) };
            if starts && pos > start {
                self.stats.bytes_skipped += pos - start;
                self.pending = Some(std::mem::take(&mut self.line));
                self.pending_pos = pos;
                return Ok(());
            }
        }
    }
}

/// The content of the current record, as a [`Fill`] source limited to its length.
pub struct Block<'a, R: Read> {
    reader: &'a mut ArchiveReader<R>,
}

impl<R: Read> Block<'_, R> {
    /// Content bytes not yet read.
    pub fn remaining(&self) -> u64 {
        self.reader.block_left
    }

    /// Content bytes read so far.
    pub fn read_so_far(&self) -> u64 {
        self.reader.block_read
    }
}

impl<R: Read> Fill for Block<'_, R> {
    fn fill(&mut self) -> Result<&[u8]> {
        let left = self.reader.block_left;
        if left == 0 {
            return Ok(&[]);
        }
        if self.reader.damage.is_some() {
            return Ok(&[]);
        }
        // A compressed stream that breaks inside the content ends the content
        // there: the record is kept (flagged) and reading resumes after it.
        if let Err(e) = self.reader.src.fill_buf() {
            if !is_stream_damage(&e) {
                // The input cannot be read any more: this record is its last.
                let e = Error { offset: Some(self.reader.rec_offset), ..e };
                self.reader.fail(&e);
                return Err(e);
            }
            self.reader.damage = Some(e);
            return Ok(&[]);
        }
        let buf = self.reader.src.fill_buf()?;
        let n = (buf.len() as u64).min(left) as usize;
        Ok(&buf[..n])
    }

    fn consume(&mut self, n: usize) {
        self.reader.src.consume(n);
        self.reader.block_left -= n as u64;
        self.reader.block_read += n as u64;
    }

    fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.reader.src.name(), Some(self.reader.rec_offset))
    }
}

const ARC_V1_FIELDS: [&str; 5] = ["uri", "ip-address", "archive-date", "content-type", "length"];
const ARC_V2_FIELDS: [&str; 10] = [
    "uri",
    "ip-address",
    "archive-date",
    "content-type",
    "result-code",
    "checksum",
    "location",
    "offset",
    "filename",
    "length",
];

/// Errors of the compressed stream itself (as opposed to the record's syntax).
fn is_stream_damage(e: &Error) -> bool {
    matches!(e.kind, ErrorKind::Truncated(_) | ErrorKind::Corrupt(_))
}

/// Reads one line (through `\n`) into `buf`, keeping at most `cap` bytes of
/// it so that memory stays bounded however long the line is. Returns the
/// line's full length in bytes; 0 at the end of input.
fn read_line_capped<F: Fill + ?Sized>(src: &mut F, buf: &mut Vec<u8>, cap: usize) -> Result<u64> {
    buf.clear();
    let mut total = 0u64;
    loop {
        let avail = src.fill()?;
        if avail.is_empty() {
            return Ok(total);
        }
        let (n, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        let keep = n.min(cap.saturating_sub(buf.len()));
        buf.extend_from_slice(&avail[..keep]);
        src.consume(n);
        total += n as u64;
        if done {
            return Ok(total);
        }
    }
}

/// The start of a line, for messages.
fn show_line(line: &[u8]) -> String {
    String::from_utf8_lossy(&line[..line.len().min(60)]).trim_end().to_string()
}

fn starts_record(line: &[u8]) -> bool {
    starts_with_warc_version(line) || looks_like_arc_line(line)
}

/// A (possibly cut) line that begins like a `WARC/` version line.
fn is_warc_prefix(line: &[u8]) -> bool {
    let n = line.len().min(5);
    n > 0 && line[..n].eq_ignore_ascii_case(&b"WARC/"[..n])
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| b.is_ascii_whitespace())
}

fn starts_with_warc_version(line: &[u8]) -> bool {
    line.len() >= 6 && line[..5].eq_ignore_ascii_case(b"WARC/") && line[5].is_ascii_digit()
}

/// Splits an ARC URL-record line from the right, so a URL with spaces stays
/// whole (as warcio does). Version 2 lines have 10 fields, version 1 lines 5.
fn split_arc_line(line: &str, version: u8) -> Option<Vec<String>> {
    let want = if version == 2 { 10 } else { 5 };
    let parts: Vec<&str> = line.rsplitn(want, ' ').collect();
    if parts.len() != want {
        return None;
    }
    // Spaces left in the URL are reported (and escaped) by `repair_target_uri`.
    Some(parts.into_iter().rev().map(str::to_string).collect())
}

/// An ARC URL-record line: `<url> <ip> <12-18 digit date> <mime> ... <length>`.
fn looks_like_arc_line(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let t = text.trim_end();
    if t.starts_with("filedesc://") {
        return true;
    }
    let parts: Vec<&str> = t.rsplitn(10, ' ').collect();
    let n = parts.len();
    if n < 5 {
        return false;
    }
    // Check the v1 shape from the right: length, mime, date, ip, url.
    let v1: Vec<&str> = t.rsplitn(5, ' ').collect();
    let ok_v1 = v1.len() == 5
        && v1[0].bytes().all(|b| b.is_ascii_digit())
        && !v1[0].is_empty()
        && (12..=18).contains(&v1[2].len())
        && v1[2].bytes().all(|b| b.is_ascii_digit())
        && v1[4].contains(':');
    if ok_v1 {
        return true;
    }
    if n == 10 {
        let f: Vec<&str> = parts.into_iter().rev().collect();
        return f[9].bytes().all(|b| b.is_ascii_digit())
            && (12..=18).contains(&f[2].len())
            && f[2].bytes().all(|b| b.is_ascii_digit());
    }
    false
}

/// A declared content length, less `sub` bytes already read. Like warcio, an
/// unreadable or negative length reads as 0 (the bytes that follow are then
/// passed over until the next record line).
fn declared_length(value: &str, sub: u64, notes: &mut Vec<String>) -> u64 {
    match value.trim().parse::<i64>() {
        Ok(n) if n >= 0 && n as u64 >= sub => n as u64 - sub,
        Ok(n) if n >= 0 => 0,
        _ => {
            notes.push(format!("invalid record length {value:?}, read as 0"));
            0
        }
    }
}

/// warcio removes `<>` around a target URI (a wget 1.14 bug) and escapes spaces.
fn repair_target_uri(uri: &str, notes: &mut Vec<String>) -> String {
    let mut u = uri;
    if u.len() >= 2 && u.starts_with('<') && u.ends_with('>') {
        u = &u[1..u.len() - 1];
    }
    if u.contains(' ') {
        notes.push(format!("spaces in target URI replaced by %20: {u:?}"));
        u.replace(' ', "%20")
    } else {
        u.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn warc_record(uri: &str, body: &str) -> String {
        format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
            body.len()
        )
    }

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn spans(data: &[u8]) -> Vec<(String, RecordSpan)> {
        let mut r = ArchiveReader::new(data, "t").unwrap();
        let mut out = Vec::new();
        while let Some(h) = r.next_head().unwrap() {
            let span = r.finish_record().unwrap();
            out.push((h.target_uri.unwrap_or_default(), span));
        }
        out
    }

    #[test]
    fn plain_offsets_exclude_trailing_blank_lines() {
        let a = warc_record("http://a/", "hello");
        let b = warc_record("http://b/", "world!");
        let s = spans(format!("{a}{b}").as_bytes());
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].1.offset, 0);
        assert_eq!(s[0].1.length, a.len() as u64 - 4);
        assert_eq!(s[1].1.offset, a.len() as u64);
        assert_eq!(s[1].1.length, b.len() as u64 - 4);
    }

    #[test]
    fn gzip_offsets_are_members() {
        let a = gz(warc_record("http://a/", "hello").as_bytes());
        let b = gz(warc_record("http://b/", "world").as_bytes());
        let s = spans(&[a.clone(), b.clone()].concat());
        assert_eq!(s[0].1, RecordSpan { offset: 0, length: a.len() as u64, seekable: true, truncated_at: None });
        assert_eq!(s[1].1, RecordSpan { offset: a.len() as u64, length: b.len() as u64, seekable: true, truncated_at: None });
    }

    #[test]
    fn whole_file_gzip_is_read_with_unseekable_offsets() {
        let a = warc_record("http://a/", "hello");
        let b = warc_record("http://b/", "world");
        let s = spans(&gz(format!("{a}{b}").as_bytes()));
        assert_eq!(s.len(), 2);
        assert!(!s[0].1.seekable && !s[1].1.seekable);
        assert_eq!(s[1].1.offset, a.len() as u64);
    }

    #[test]
    fn angle_brackets_and_spaces_in_target_uri() {
        let s = spans(warc_record("<http://a/b c>", "x").as_bytes());
        assert_eq!(s[0].0, "http://a/b%20c");
    }

    #[test]
    fn garbage_between_records_is_skipped_and_counted() {
        let a = warc_record("http://a/", "hello");
        let b = warc_record("http://b/", "world");
        let data = format!("{a}junk line\r\nmore junk\r\n{b}");
        let mut r = ArchiveReader::new(data.as_bytes(), "t").unwrap();
        assert!(r.next_head().unwrap().is_some());
        let e = r.next_head().unwrap_err();
        assert_eq!(e.offset, Some(a.len() as u64));
        let h = r.next_head().unwrap().unwrap();
        assert_eq!(h.target_uri.as_deref(), Some("http://b/"));
        assert_eq!(r.stats().bytes_skipped, "junk line\r\nmore junk\r\n".len() as u64);
        assert!(r.next_head().unwrap().is_none());
    }

    #[test]
    fn content_length_undershoot_in_own_gzip_member_keeps_raw_offsets() {
        let a = gz(warc_record("http://a/", "hello").as_bytes());
        let b = gz(b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nhello\r\n\r\n");
        let c = gz(warc_record("http://c/", "world").as_bytes());
        let file = [a.clone(), b.clone(), c.clone()].concat();
        let mut r = ArchiveReader::new(&file[..], "t").unwrap();
        let mut spans = Vec::new();
        let mut errors = Vec::new();
        loop {
            match r.next_head() {
                Ok(Some(_)) => spans.push(r.finish_record().unwrap()),
                Ok(None) => break,
                Err(e) => errors.push(e.offset),
            }
        }
        let (la, lb, lc) = (a.len() as u64, b.len() as u64, c.len() as u64);
        let at = |offset, length| RecordSpan { offset, length, seekable: true, truncated_at: None };
        assert_eq!(spans, vec![at(0, la), at(la, lb), at(la + lb, lc)]);
        assert_eq!(errors, vec![Some(la)]);
        assert_eq!(r.stats().bytes_skipped, "llo\r\n\r\n".len() as u64);
    }

    #[test]
    fn damaged_member_is_kept_up_to_the_next_member_and_not_counted_as_skipped() {
        let a = gz(warc_record("http://a/", "hello").as_bytes());
        let b = gz(warc_record("http://b/", "world").as_bytes());
        let cut = &b[..b.len() - 4];
        let file = [a.clone(), cut.to_vec(), a.clone()].concat();
        let mut r = ArchiveReader::new(&file[..], "t").unwrap();
        let mut spans = Vec::new();
        while r.next_head().unwrap().is_some() {
            spans.push(r.finish_record().unwrap());
            if r.take_damage().is_some() {
                assert_eq!(spans.len(), 2);
            }
        }
        assert_eq!(spans[1], RecordSpan { offset: a.len() as u64, length: cut.len() as u64, seekable: true, truncated_at: Some(5) });
        assert_eq!(spans[2].offset, (a.len() + cut.len()) as u64);
        assert_eq!(r.stats().bytes_skipped, 0);
    }

    #[test]
    fn arc_v1_lines_with_spaces_in_url() {
        let body = "HTTP/1.0 200 OK\r\n\r\nhi";
        let filedesc_body = "1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n";
        let data = format!(
            "filedesc://x.arc 0.0.0.0 20010101000000 text/plain {}\n{filedesc_body}\nhttp://a/b c 1.2.3.4 20010101000000 text/html {}\n{body}\n",
            filedesc_body.len(),
            body.len()
        );
        let mut r = ArchiveReader::new(data.as_bytes(), "t.arc").unwrap();
        let h = r.next_head().unwrap().unwrap();
        assert!(h.is_arc_filedesc());
        assert_eq!(h.block_length, 0);
        let h = r.next_head().unwrap().unwrap();
        assert_eq!(h.target_uri.as_deref(), Some("http://a/b%20c"));
        assert_eq!(h.headers.get("ip-address"), Some("1.2.3.4"));
        assert_eq!(h.block_length, body.len() as u64);
        assert!(r.next_head().unwrap().is_none());
    }
}
