//! A dataset: a directory of files that readers take as a whole (a Parquet
//! dataset, a ZipNum cluster). A run stages its files in a hidden directory
//! beside the target and then swaps the staged directory in with one
//! `rename`, so readers see the old dataset or the new one, never a part
//! of it; `_SUCCESS` marks a complete dataset, as Hadoop's committers do.
//!
//! When the target is a mount point (or its parent is not writable) there
//! is no "beside" on the same filesystem: the files are staged in
//! `<target>/_temporary/` under names with a `.pending` suffix (so no glob
//! for `*.parquet` finds them) and each is renamed into place at the end.
//! Each file is then whole, but an interrupted commit can leave some of a
//! run's files in place.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::{at_path, exists_error, stage};

/// The marker of a complete dataset.
pub const SUCCESS: &str = "_SUCCESS";
/// Suffix of files staged inside the dataset (see the module's note).
pub const PENDING: &str = ".pending";
const TEMPORARY: &str = "_temporary";

/// What to do with a target that already holds data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Refuse it (the default).
    New,
    /// Keep its files and add the new ones.
    Append,
    /// Replace it with the new files.
    Overwrite,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "error" | "new" => Some(Mode::New),
            "append" => Some(Mode::Append),
            "overwrite" => Some(Mode::Overwrite),
            _ => None,
        }
    }
}

pub struct Dataset {
    target: PathBuf,
    staging: PathBuf,
    inside: bool,
    mode: Mode,
    run: String,
    committed: bool,
    /// Leftovers of interrupted runs found (and removed, or left), for the user.
    pub notes: Vec<String>,
    /// Data files the target held before this run, relative to it.
    pub existing: Vec<PathBuf>,
}

/// Names readers skip: Spark, Hive and Hadoop ignore `_` and `.` names.
fn hidden(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('_')
}

/// Files under `root` (relative paths), in order; `all` includes hidden
/// names (except our own `_temporary` and `_SUCCESS`).
fn files_under(root: &Path, all: bool) -> io::Result<Vec<PathBuf>> {
    fn walk(root: &Path, rel: &Path, all: bool, out: &mut Vec<PathBuf>) -> io::Result<()> {
        let dir = root.join(rel);
        let mut entries: Vec<_> = fs::read_dir(&dir).map_err(|e| at_path(&dir, e))?.collect::<io::Result<_>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            if name == TEMPORARY || name == SUCCESS || (!all && hidden(&name)) {
                continue;
            }
            let r = rel.join(&name);
            if e.file_type()?.is_dir() {
                walk(root, &r, all, out)?;
            } else {
                out.push(r);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    if root.is_dir() {
        walk(root, Path::new(""), all, &mut out)?;
    }
    Ok(out)
}

#[cfg(unix)]
fn same_device(a: &Path, b: &Path) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    Ok(fs::metadata(a)?.dev() == fs::metadata(b)?.dev())
}
#[cfg(not(unix))]
fn same_device(_a: &Path, _b: &Path) -> io::Result<bool> {
    Ok(true)
}

/// Swaps two directories in one step (Linux `renameat2(RENAME_EXCHANGE)`);
/// `Unsupported` where the kernel or filesystem cannot.
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let ca = CString::new(a.as_os_str().as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        let cb = CString::new(b.as_os_str().as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        let r = unsafe { libc::syscall(libc::SYS_renameat2, libc::AT_FDCWD, ca.as_ptr(), libc::AT_FDCWD, cb.as_ptr(), libc::RENAME_EXCHANGE) };
        if r == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::EOPNOTSUPP) => Err(io::Error::new(io::ErrorKind::Unsupported, e)),
            _ => Err(e),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (a, b);
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
}

impl Dataset {
    /// Prepares a run that writes the dataset at `target`: refuses a target
    /// holding data in `Mode::New`, cleans up after interrupted runs, and
    /// makes the staging directory.
    pub fn begin(target: &Path, mode: Mode) -> io::Result<Dataset> {
        if let Ok(m) = fs::metadata(target) {
            if !m.is_dir() {
                return Err(io::Error::new(io::ErrorKind::NotADirectory, format!("{}: is a file, not a directory", target.display())));
            }
        }
        let mut notes = Vec::new();
        // A run killed between the two renames of a swap without
        // RENAME_EXCHANGE left the old dataset aside: put it back.
        if !target.exists() {
            if let Some(old) = stage::leftovers(target)?.into_iter().find(|l| l.kind == "old" && stage::run_is_over(&l.run)) {
                fs::rename(&old.path, target).map_err(|e| at_path(target, e))?;
                notes.push(format!("restored {} from {}, left aside by an interrupted run (process {})", target.display(), old.path.display(), old.pid()));
            }
        }
        notes.extend(stage::clean_leftovers(target)?);
        notes.extend(Self::clean_inside(target)?);
        let existing = files_under(target, false)?;
        if mode == Mode::New && !existing.is_empty() {
            return Err(exists_error(format!(
                "{} already holds a dataset ({} files); give --mode append to add to it or --mode overwrite to replace it",
                target.display(),
                existing.len()
            )));
        }
        let run = stage::run_id();
        let parent = stage::parent_of(target);
        fs::create_dir_all(&parent).map_err(|e| at_path(&parent, e))?;
        let beside = stage::temp_beside(target, &run, "staging");
        let can_stage_beside = !target.exists() || same_device(target, &parent)?;
        let (staging, inside) = match can_stage_beside.then(|| fs::create_dir(&beside)) {
            Some(Ok(())) => (beside, false),
            Some(Err(e)) if !matches!(e.kind(), io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem) => return Err(at_path(&beside, e)),
            _ => {
                let inside = target.join(TEMPORARY).join(format!("warcdex-{run}"));
                fs::create_dir_all(&inside).map_err(|e| at_path(&inside, e))?;
                (inside, true)
            }
        };
        stage::register(&staging);
        Ok(Dataset { target: target.into(), staging, inside, mode, run, committed: false, notes, existing })
    }

    /// Runs staged in `<target>/_temporary/` by processes that are gone.
    fn clean_inside(target: &Path) -> io::Result<Vec<String>> {
        let dir = target.join(TEMPORARY);
        let Ok(entries) = fs::read_dir(&dir) else { return Ok(Vec::new()) };
        let mut notes = Vec::new();
        for e in entries {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(run) = name.strip_prefix("warcdex-") else { continue };
            if !stage::run_is_over(run) {
                continue;
            }
            stage::remove_any(&e.path()).map_err(|err| at_path(&e.path(), err))?;
            notes.push(format!("removed {}, left by an interrupted run (process {})", e.path().display(), run.split('-').next().unwrap_or("?")));
        }
        let _ = fs::remove_dir(&dir); // only if now empty
        Ok(notes)
    }

    /// Where the run writes its files (partition directories below it).
    pub fn root(&self) -> &Path {
        &self.staging
    }

    /// What writers append to each file name while it is staged.
    pub fn staged_suffix(&self) -> &'static str {
        if self.inside {
            PENDING
        } else {
            ""
        }
    }

    /// Unique to this run: for file names that must not collide with the
    /// files of earlier runs (appends).
    pub fn run_id(&self) -> &str {
        &self.run
    }

    /// The final path of a file staged at `staged`.
    pub fn final_path(&self, staged: &Path) -> PathBuf {
        let rel = staged.strip_prefix(&self.staging).unwrap_or(staged);
        let rel = match rel.to_str().and_then(|s| s.strip_suffix(PENDING)) {
            Some(s) if self.inside => PathBuf::from(s),
            _ => rel.to_path_buf(),
        };
        self.target.join(rel)
    }

    /// Publishes the staged files: afterwards the target holds the new
    /// dataset (with the old files too when appending) and `_SUCCESS`.
    pub fn commit(mut self) -> io::Result<()> {
        self.committed = true;
        // Another run may have published a dataset here meanwhile: a new
        // dataset must not replace it silently.
        let r = if self.mode == Mode::New && !files_under(&self.target, false)?.is_empty() {
            Err(exists_error(format!("{} received a dataset from another run while this one was writing; give --mode append or --mode overwrite", self.target.display())))
        } else if self.inside {
            self.commit_inside()
        } else {
            self.commit_beside()
        };
        if r.is_err() {
            let _ = stage::remove_any(&self.staging);
        }
        stage::unregister(&self.staging);
        r
    }

    fn sync_staged(&self) -> io::Result<Vec<PathBuf>> {
        let files = files_under(&self.staging, true)?;
        for f in &files {
            let p = self.staging.join(f);
            fs::File::open(&p).and_then(|h| h.sync_all()).map_err(|e| at_path(&p, e))?;
        }
        Ok(files)
    }

    fn commit_beside(&mut self) -> io::Result<()> {
        let staged = self.sync_staged()?;
        if self.target.exists() && self.mode != Mode::Overwrite {
            // Keep what the target holds: hard links cost no copy, and the
            // swap below then publishes old and new files together.
            for rel in files_under(&self.target, true)? {
                let to = self.staging.join(&rel);
                if staged.contains(&rel) {
                    continue;
                }
                if let Some(d) = to.parent() {
                    fs::create_dir_all(d).map_err(|e| at_path(d, e))?;
                }
                if let Err(e) = fs::hard_link(self.target.join(&rel), &to) {
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        continue;
                    }
                    // No hard links here (some network filesystems): move
                    // the new files in one by one instead.
                    return self.move_in(&staged);
                }
            }
            #[cfg(unix)]
            if let Ok(m) = fs::metadata(&self.target) {
                let _ = fs::set_permissions(&self.staging, m.permissions());
            }
        }
        self.write_success(&self.staging.clone())?;
        for d in dirs_under(&self.staging)? {
            stage::sync_dir(&d).map_err(|e| at_path(&d, e))?;
        }
        let parent = stage::parent_of(&self.target);
        if !self.target.exists() {
            fs::rename(&self.staging, &self.target).map_err(|e| at_path(&self.target, e))?;
        } else {
            match exchange(&self.staging, &self.target) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::Unsupported => {
                    let aside = stage::temp_beside(&self.target, &self.run, "old");
                    fs::rename(&self.target, &aside).map_err(|e| at_path(&self.target, e))?;
                    fs::rename(&self.staging, &self.target).map_err(|e| at_path(&self.target, e))?;
                    fs::rename(&aside, &self.staging).map_err(|e| at_path(&aside, e))?;
                }
                Err(e) => return Err(at_path(&self.target, e)),
            }
            // The staging name now holds the previous dataset.
            stage::remove_any(&self.staging).map_err(|e| at_path(&self.staging, e))?;
        }
        stage::sync_dir(&parent).map_err(|e| at_path(&parent, e))
    }

    /// Renames each staged file (relative paths `staged`) into the target.
    fn move_in(&mut self, staged: &[PathBuf]) -> io::Result<()> {
        for rel in staged {
            let from = self.staging.join(rel);
            let to = self.final_path(&from);
            if let Some(d) = to.parent() {
                fs::create_dir_all(d).map_err(|e| at_path(d, e))?;
            }
            fs::rename(&from, &to).map_err(|e| at_path(&to, e))?;
        }
        if self.mode == Mode::Overwrite {
            for rel in &self.existing {
                stage::remove_any(&self.target.join(rel))?;
            }
        }
        self.write_success(&self.target.clone())?;
        for d in dirs_under(&self.target)? {
            stage::sync_dir(&d).map_err(|e| at_path(&d, e))?;
        }
        stage::remove_any(&self.staging)?;
        let _ = fs::remove_dir(self.target.join(TEMPORARY));
        Ok(())
    }

    fn commit_inside(&mut self) -> io::Result<()> {
        let staged = self.sync_staged()?;
        self.move_in(&staged)
    }

    fn write_success(&self, dir: &Path) -> io::Result<()> {
        let p = dir.join(SUCCESS);
        let _ = fs::remove_file(&p); // a hard link to the old marker must not be written through
        fs::write(&p, b"").map_err(|e| at_path(&p, e))
    }
}

/// `root` and every directory below it.
fn dirs_under(root: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out = vec![root.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        for e in fs::read_dir(&out[i])? {
            let e = e?;
            if e.file_type()?.is_dir() {
                out.push(e.path());
            }
        }
        i += 1;
    }
    Ok(out)
}

impl Drop for Dataset {
    fn drop(&mut self) {
        if !self.committed {
            let _ = stage::remove_any(&self.staging);
            stage::unregister(&self.staging);
            if self.inside {
                let _ = fs::remove_dir(self.target.join(TEMPORARY));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(root: &Path) -> Vec<String> {
        files_under(root, true).unwrap().iter().map(|p| p.display().to_string()).chain(root.join(SUCCESS).exists().then(|| SUCCESS.to_string())).collect()
    }

    fn stage_file(ds: &Dataset, rel: &str, body: &[u8]) -> PathBuf {
        let p = ds.root().join(format!("{rel}{}", ds.staged_suffix()));
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, body).unwrap();
        p
    }

    #[test]
    fn a_new_dataset_appears_whole_with_its_marker() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ds");
        let ds = Dataset::begin(&target, Mode::New).unwrap();
        let staged = stage_file(&ds, "crawl=A/part-0.parquet", b"a");
        assert!(!target.exists(), "nothing visible before the commit");
        assert_eq!(ds.final_path(&staged), target.join("crawl=A/part-0.parquet"));
        ds.commit().unwrap();
        assert_eq!(tree(&target), vec!["crawl=A/part-0.parquet", "_SUCCESS"]);
        // Only the dataset is left in the parent.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_dataset_with_data_is_refused_then_appended_to_or_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ds");
        let ds = Dataset::begin(&target, Mode::New).unwrap();
        stage_file(&ds, "crawl=A/part-0.parquet", b"first");
        ds.commit().unwrap();

        let e = Dataset::begin(&target, Mode::New).err().unwrap();
        assert!(e.to_string().contains("already holds a dataset (1 files)"), "{e}");

        let ds = Dataset::begin(&target, Mode::Append).unwrap();
        assert_eq!(ds.existing, vec![PathBuf::from("crawl=A/part-0.parquet")]);
        stage_file(&ds, "crawl=A/part-1.parquet", b"second");
        stage_file(&ds, "crawl=B/part-2.parquet", b"third");
        ds.commit().unwrap();
        assert_eq!(tree(&target), vec!["crawl=A/part-0.parquet", "crawl=A/part-1.parquet", "crawl=B/part-2.parquet", "_SUCCESS"]);
        assert_eq!(fs::read(target.join("crawl=A/part-0.parquet")).unwrap(), b"first");

        let ds = Dataset::begin(&target, Mode::Overwrite).unwrap();
        stage_file(&ds, "crawl=C/part-3.parquet", b"fourth");
        ds.commit().unwrap();
        assert_eq!(tree(&target), vec!["crawl=C/part-3.parquet", "_SUCCESS"]);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no staging or old copy left");
    }

    #[test]
    fn two_runs_for_one_new_dataset_cannot_both_publish() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ds");
        let first = Dataset::begin(&target, Mode::New).unwrap();
        let second = Dataset::begin(&target, Mode::New).unwrap();
        stage_file(&first, "part-a.parquet", b"a");
        stage_file(&second, "part-b.parquet", b"b");
        first.commit().unwrap();
        let e = second.commit().err().unwrap();
        assert!(e.to_string().contains("from another run"), "{e}");
        assert_eq!(tree(&target), vec!["part-a.parquet", "_SUCCESS"]);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "the second run's staging is gone");
    }

    #[test]
    fn an_abandoned_run_leaves_the_previous_state() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ds");
        let ds = Dataset::begin(&target, Mode::New).unwrap();
        stage_file(&ds, "part-0.parquet", b"old");
        ds.commit().unwrap();
        {
            let ds = Dataset::begin(&target, Mode::Overwrite).unwrap();
            stage_file(&ds, "part-1.parquet", b"half");
        }
        assert_eq!(tree(&target), vec!["part-0.parquet", "_SUCCESS"]);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn an_empty_directory_or_hidden_files_are_not_data() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ds");
        fs::create_dir(&target).unwrap();
        fs::write(target.join(".keep"), b"").unwrap();
        let ds = Dataset::begin(&target, Mode::New).unwrap();
        stage_file(&ds, "part-0.parquet", b"x");
        ds.commit().unwrap();
        assert_eq!(tree(&target), vec![".keep", "part-0.parquet", "_SUCCESS"]);
    }

    #[test]
    fn staged_inside_files_carry_a_suffix_no_glob_matches() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ds");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("part-old.parquet"), b"old").unwrap();
        let inside = target.join(TEMPORARY).join(format!("warcdex-{}", stage::run_id()));
        fs::create_dir_all(&inside).unwrap();
        let mut ds = Dataset { target: target.clone(), staging: inside, inside: true, mode: Mode::Overwrite, run: "r".into(), committed: false, notes: vec![], existing: vec!["part-old.parquet".into()] };
        let staged = stage_file(&ds, "crawl=A/part-0.parquet", b"new");
        assert!(staged.to_string_lossy().ends_with(".parquet.pending"));
        assert_eq!(ds.final_path(&staged), target.join("crawl=A/part-0.parquet"));
        ds.commit_inside().unwrap();
        ds.committed = true;
        assert_eq!(tree(&target), vec!["crawl=A/part-0.parquet", "_SUCCESS"]);
    }

    #[test]
    fn interrupted_runs_are_cleaned_and_a_swap_halfway_is_undone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ds");
        // A dead run's dataset set aside, and its new one not yet in place.
        let old = dir.path().join(".ds.warcdex-4294967-1.old");
        fs::create_dir_all(&old).unwrap();
        fs::write(old.join("part-0.parquet"), b"kept").unwrap();
        let staging = dir.path().join(".ds.warcdex-4294967-1.staging");
        fs::create_dir_all(&staging).unwrap();
        let ds = Dataset::begin(&target, Mode::Append).unwrap();
        assert!(ds.notes.iter().any(|n| n.starts_with("restored")), "{:?}", ds.notes);
        assert!(ds.notes.iter().any(|n| n.starts_with("removed") && n.contains("staging")), "{:?}", ds.notes);
        assert_eq!(ds.existing, vec![PathBuf::from("part-0.parquet")]);
        drop(ds);
        assert_eq!(fs::read(target.join("part-0.parquet")).unwrap(), b"kept");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
