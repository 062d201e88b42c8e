//! Output files that are either complete or absent.
//!
//! Every file warcdex writes is written under a temporary name that no
//! reader picks up and renamed into place once it is complete and on disk;
//! a dataset (a directory of files) is staged whole and swapped in at once.
//! So a run killed at any point leaves the previous state or the new one,
//! never a torn file under a final name. What a killed run leaves behind
//! (temporary files, staged datasets) carries the run's process id, and the
//! next run that writes the same output removes it once that process is gone.
//!
//! - [`file`]: one file ([`AtomicFile`]), refused when it exists unless forced.
//! - [`dataset`]: a directory of files ([`Dataset`]): new, appended to or
//!   replaced, with Hadoop's `_SUCCESS` marker.
//! - [`stage`]: the temporary names and the leftovers of interrupted runs.

pub mod dataset;
pub mod file;
pub mod stage;

pub use dataset::{Dataset, Mode};
pub use file::{abandon, publish, write_whole, AtomicFile};
pub use stage::remove_in_progress;

use std::io;
use std::path::Path;

/// The prefix of errors that refuse to replace an existing output, so a
/// caller (the CLI) can tell them from failures and ask for a flag instead.
pub const EXISTS_PREFIX: &str = "EEXIST: ";

pub(crate) fn exists_error(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::AlreadyExists, format!("{EXISTS_PREFIX}{msg}"))
}

/// The error with the path it happened at, so "No space left on device"
/// says which disk.
pub fn at_path(path: &Path, e: io::Error) -> io::Error {
    let text = e.to_string();
    let shown = path.display().to_string();
    if text.contains(&shown) {
        return e;
    }
    io::Error::new(e.kind(), format!("{shown}: {text}"))
}
