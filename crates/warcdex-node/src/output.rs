//! The output rules for files JavaScript writes itself (small reports,
//! extracted pages), and the cleanup a signal handler runs before exiting.

use napi::bindgen_prelude::*;
use napi_derive::napi;

/// Writes `data` to `path` whole: under a temporary name, renamed when
/// synced; an existing file only with `force`. Resolves to notes about
/// leftovers of interrupted runs that were removed.
#[napi]
pub fn write_file_whole(path: String, data: Buffer, force: bool) -> Result<Vec<String>> {
    crate::guard("writeFileWhole", || {
        warcdex_core::output::write_whole(std::path::Path::new(&path), &data, force).map_err(|e| Error::from_reason(e.to_string()))
    })
}

/// Reserves a temporary file beside `path` for a writer outside Rust
/// (DuckDB): its path. Refuses an existing `path` unless `force`.
#[napi]
pub fn reserve_output_file(path: String, force: bool) -> Result<String> {
    crate::guard("reserveOutputFile", || {
        let f = warcdex_core::output::AtomicFile::create(std::path::Path::new(&path), force).map_err(|e| Error::from_reason(e.to_string()))?;
        Ok(f.into_reserved().display().to_string())
    })
}

/// Publishes a reserved file under its final name, or removes it (`keep` false).
#[napi]
pub fn finish_output_file(temp: String, path: String, force: bool, keep: bool) -> Result<()> {
    crate::guard("finishOutputFile", || {
        let (temp, path) = (std::path::Path::new(&temp), std::path::Path::new(&path));
        if !keep {
            warcdex_core::output::abandon(temp);
            return Ok(());
        }
        warcdex_core::output::publish(temp, path, force).map_err(|e| Error::from_reason(e.to_string()))
    })
}

/// Removes this process's temporary files and staged datasets; for a
/// process about to exit on a signal. Returns how many it removed.
#[napi]
pub fn remove_in_progress() -> u32 {
    warcdex_core::output::remove_in_progress() as u32
}
