//! Errors that name where in which input they happened.

use std::fmt;

/// What went wrong, without the location (see [`Error`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The operating system refused a read or an open.
    Io(String),
    /// The input is not an archive warcdex can read (or is empty).
    NotAnArchive(String),
    /// A compressed member, stream or frame ends before its end marker.
    Truncated(String),
    /// Compressed data that does not decode (bad header, bad checksum, garbage).
    Corrupt(String),
    /// A WARC or ARC record whose headers or framing are broken.
    BadRecord(String),
    /// Not an error of the input: a limit or an option refuses the work.
    Unsupported(String),
    /// A digest stated in a record does not match its content (`--verify`).
    DigestMismatch(String),
}

/// An error of one input, at one byte offset of the (compressed) file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    /// Name of the input as the user gave it.
    pub source_name: String,
    /// Byte offset in the input file (compressed bytes), where known.
    pub offset: Option<u64>,
}

impl Error {
    pub fn new(kind: ErrorKind, source_name: &str, offset: Option<u64>) -> Self {
        Error { kind, source_name: source_name.to_string(), offset }
    }

    pub fn message(&self) -> &str {
        match &self.kind {
            ErrorKind::Io(m)
            | ErrorKind::NotAnArchive(m)
            | ErrorKind::Truncated(m)
            | ErrorKind::Corrupt(m)
            | ErrorKind::BadRecord(m)
            | ErrorKind::Unsupported(m)
            | ErrorKind::DigestMismatch(m) => m,
        }
    }

    /// A short stable code for scripts and the JS error's `code`.
    pub fn code(&self) -> &'static str {
        match self.kind {
            ErrorKind::Io(_) => "EIO",
            ErrorKind::NotAnArchive(_) => "ENOTARCHIVE",
            ErrorKind::Truncated(_) => "ETRUNCATED",
            ErrorKind::Corrupt(_) => "ECORRUPT",
            ErrorKind::BadRecord(_) => "EBADRECORD",
            ErrorKind::Unsupported(_) => "EUNSUPPORTED",
            ErrorKind::DigestMismatch(_) => "EDIGEST",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(off) => write!(f, "{}: offset {}: {}", self.source_name, off, self.message()),
            None => write!(f, "{}: {}", self.source_name, self.message()),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
