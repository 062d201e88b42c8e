//! One output file, written under a temporary name beside its final one and
//! renamed into place when complete and synced. Dropped without `commit`
//! (an error, a cancelled run), the temporary file is removed.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::stage;

pub struct AtomicFile {
    target: PathBuf,
    /// `None` when writing straight to `target`: a device, pipe or socket
    /// (`-o /dev/null`), where there is nothing to tear or rename.
    temp: Option<PathBuf>,
    file: File,
    force: bool,
    committed: bool,
    /// What was found of interrupted runs (removed or left), for the user.
    pub notes: Vec<String>,
}

impl AtomicFile {
    /// Starts writing `target`. An existing regular file is refused unless
    /// `force` (then replaced only at `commit`); leftovers of interrupted
    /// runs beside it are removed.
    pub fn create(target: &Path, force: bool) -> io::Result<AtomicFile> {
        match fs::metadata(target) {
            Ok(m) if m.is_dir() => {
                return Err(io::Error::new(io::ErrorKind::IsADirectory, format!("{}: is a directory, not a file", target.display())))
            }
            Ok(m) if !m.is_file() => {
                let file = fs::OpenOptions::new().write(true).open(target).map_err(|e| super::at_path(target, e))?;
                return Ok(AtomicFile { target: target.into(), temp: None, file, force, committed: false, notes: Vec::new() });
            }
            Ok(_) if !force => {
                return Err(super::exists_error(format!("{} already exists; give --force to replace it", target.display())))
            }
            _ => {}
        }
        let notes = stage::clean_leftovers(target)?;
        let temp = stage::temp_beside(target, &stage::run_id(), "tmp");
        let file = fs::OpenOptions::new().write(true).create_new(true).open(&temp).map_err(|e| super::at_path(&temp, e))?;
        stage::register(&temp);
        Ok(AtomicFile { target: target.into(), temp: Some(temp), file, force, committed: false, notes })
    }

    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Where the bytes go until `commit`.
    pub fn writing_path(&self) -> &Path {
        self.temp.as_deref().unwrap_or(&self.target)
    }

    /// The open file, for callers that reopen or truncate what they wrote.
    pub fn file_mut(&mut self) -> &mut File {
        &mut self.file
    }

    /// Syncs the file and renames it to its final name.
    pub fn commit(mut self) -> io::Result<()> {
        self.committed = true;
        let Some(temp) = self.temp.take() else { return Ok(()) };
        publish(&temp, &self.target, self.force)
    }

    /// Hands the temporary file to another writer (DuckDB's `COPY ... TO`):
    /// its path, to be published with [`publish`] or removed with [`abandon`].
    pub fn into_reserved(mut self) -> PathBuf {
        self.committed = true;
        self.temp.take().unwrap_or_else(|| self.target.clone())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf).map_err(|e| super::at_path(self.temp.as_deref().unwrap_or(&self.target), e))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let (false, Some(t)) = (self.committed, &self.temp) {
            let _ = fs::remove_file(t);
            stage::unregister(t);
        }
    }
}

/// Syncs the temporary file `temp` and renames it to `target` (refused if
/// `target` appeared meanwhile, unless `force`); on failure `temp` is removed.
pub fn publish(temp: &Path, target: &Path, force: bool) -> io::Result<()> {
    if temp == target {
        return Ok(());
    }
    let result = (|| {
        File::open(temp).and_then(|f| f.sync_all()).map_err(|e| super::at_path(temp, e))?;
        if !force && fs::symlink_metadata(target).is_ok() {
            return Err(super::exists_error(format!("{} appeared while it was being written; give --force to replace it", target.display())));
        }
        fs::rename(temp, target).map_err(|e| super::at_path(target, e))?;
        stage::sync_dir(&stage::parent_of(target)).map_err(|e| super::at_path(target, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(temp);
    }
    stage::unregister(temp);
    result
}

/// Removes a reserved temporary file that will not be published.
pub fn abandon(temp: &Path) {
    // A device written in place (`-o /dev/null`) is its own "temporary" path.
    if !temp.file_name().is_some_and(|n| n.to_string_lossy().contains(".warcdex-")) {
        return;
    }
    let _ = fs::remove_file(temp);
    stage::unregister(temp);
}

/// Writes `bytes` to `target` whole (see [`AtomicFile`]).
pub fn write_whole(target: &Path, bytes: &[u8], force: bool) -> io::Result<Vec<String>> {
    let mut f = AtomicFile::create(target, force)?;
    f.write_all(bytes)?;
    let notes = std::mem::take(&mut f.notes);
    f.commit()?;
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn nothing_under_the_final_name_until_commit() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.cdxj");
        let mut f = AtomicFile::create(&target, false).unwrap();
        f.write_all(b"line\n").unwrap();
        assert!(!target.exists());
        assert_eq!(names(dir.path()).len(), 1);
        f.commit().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"line\n");
        assert_eq!(names(dir.path()), vec!["out.cdxj"]);
    }

    #[test]
    fn dropped_without_commit_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.cdxj");
        fs::write(&target, b"old\n").unwrap();
        {
            let mut f = AtomicFile::create(&target, true).unwrap();
            f.write_all(b"new, half").unwrap();
        }
        assert_eq!(fs::read(&target).unwrap(), b"old\n");
        assert_eq!(names(dir.path()), vec!["out.cdxj"]);
    }

    #[test]
    fn an_existing_file_is_refused_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.cdxj");
        fs::write(&target, b"old\n").unwrap();
        let e = AtomicFile::create(&target, false).err().unwrap();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert!(e.to_string().starts_with(super::super::EXISTS_PREFIX), "{e}");
        let mut f = AtomicFile::create(&target, true).unwrap();
        f.write_all(b"new\n").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new\n");
    }

    #[test]
    fn a_signal_handler_can_remove_what_is_in_progress() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = AtomicFile::create(&dir.path().join("out.cdxj"), false).unwrap();
        f.write_all(b"half").unwrap();
        let temp = f.writing_path().to_path_buf();
        assert!(temp.exists());
        assert!(stage::remove_in_progress() >= 1);
        assert!(!temp.exists());
        std::mem::forget(f);
    }

    #[test]
    fn devices_are_written_in_place() {
        let mut f = AtomicFile::create(Path::new("/dev/null"), false).unwrap();
        assert_eq!(f.writing_path(), Path::new("/dev/null"));
        f.write_all(b"x").unwrap();
        f.commit().unwrap();
        assert!(Path::new("/dev/null").exists());
    }
}
