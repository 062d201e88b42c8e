//! Names of work in progress, and what interrupted runs left behind.
//!
//! A temporary name is `.<final name>.warcdex-<pid>-<id>h<host>.<kind>`:
//! the leading dot hides it from Spark, Hive, `ls` and from globs such as
//! `dir/*.parquet`, and the process id says whether the run that made it is
//! still alive — on this machine only: the host's hash keeps a run from
//! removing the work of a live run on another machine that shares the
//! filesystem (NFS, a cluster's volume). DuckDB's `**` globs do match dot-names, so nothing
//! temporary ever ends in a reader's suffix such as `.parquet`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

const MARK: &str = ".warcdex-";

/// Temporary files and staged datasets of this process not yet published
/// or removed, so a signal handler can remove them before the process exits.
static IN_PROGRESS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

pub(crate) fn register(p: &Path) {
    IN_PROGRESS.lock().unwrap_or_else(|e| e.into_inner()).push(p.to_path_buf());
}

pub(crate) fn unregister(p: &Path) {
    IN_PROGRESS.lock().unwrap_or_else(|e| e.into_inner()).retain(|q| q != p);
}

/// Removes every temporary file and staged dataset of this process (for a
/// process about to exit on a signal); how many it removed. A writer still
/// running may recreate a staged directory: the next run cleans that up.
pub fn remove_in_progress() -> usize {
    let list = std::mem::take(&mut *IN_PROGRESS.lock().unwrap_or_else(|e| e.into_inner()));
    list.iter().filter(|p| remove_any(p).is_ok()).count()
}

/// A name unique to this process and moment: `<pid>-<hex>h<host hash>`.
pub fn run_id() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static SEQ: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let seq = SEQ.fetch_add(1, Ordering::Relaxed);
    format!("{}-{:x}{:x}h{:08x}", std::process::id(), (nanos as u64) & 0xffff_ffff_ffff, seq, host_hash())
}

/// FNV-1a of this machine's name (0 where it cannot be read).
fn host_hash() -> u32 {
    static HASH: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *HASH.get_or_init(|| {
        #[cfg(unix)]
        let name = {
            let mut buf = [0u8; 256];
            let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
            if r == 0 { buf[..buf.iter().position(|&b| b == 0).unwrap_or(buf.len())].to_vec() } else { Vec::new() }
        };
        #[cfg(not(unix))]
        let name: Vec<u8> = Vec::new();
        name.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
    })
}

/// Whether the run named `run` (`<pid>-<id>`, as [`run_id`] makes it) is
/// known to be over: its process is gone from this machine. A run of
/// another machine is never known to be over.
pub fn run_is_over(run: &str) -> bool {
    let Some((pid, id)) = run.split_once('-') else { return false };
    let Ok(pid) = pid.parse::<u32>() else { return false };
    let local = match id.rsplit_once('h') {
        Some((_, host)) => u32::from_str_radix(host, 16).is_ok_and(|h| h == host_hash()),
        None => true,
    };
    local && pid != std::process::id() && !alive(pid)
}

/// `.<name>.warcdex-<run>.<kind>` beside `target`.
pub fn temp_beside(target: &Path, run: &str, kind: &str) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "output".into());
    parent_of(target).join(format!(".{name}{MARK}{run}.{kind}"))
}

/// The directory holding `p` (`.` for a bare name).
pub fn parent_of(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether a process with this id runs on this machine.
pub fn alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        // Signal 0 checks existence only; EPERM means it exists as another user's.
        let r = unsafe { libc::kill(pid as libc::pid_t, 0) };
        r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// A leftover of another run beside `target`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    pub path: PathBuf,
    /// `<pid>-<id>`: who made it.
    pub run: String,
    pub kind: String,
}

impl Leftover {
    pub fn pid(&self) -> u32 {
        self.run.split('-').next().and_then(|p| p.parse().ok()).unwrap_or(0)
    }
}

/// Temporary entries of `target` (any run, any kind) in its directory.
pub fn leftovers(target: &Path) -> io::Result<Vec<Leftover>> {
    let Some(name) = target.file_name().map(|n| n.to_string_lossy().into_owned()) else { return Ok(Vec::new()) };
    let prefix = format!(".{name}{MARK}");
    let dir = parent_of(target);
    let entries = match fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(super::at_path(&dir, e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry?;
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file_name.strip_prefix(&prefix) else { continue };
        // <pid>-<id>.<kind>
        let Some((run, kind)) = rest.split_once('.') else { continue };
        if !run.split('-').next().is_some_and(|p| p.parse::<u32>().is_ok()) {
            continue;
        }
        out.push(Leftover { path: entry.path(), run: run.to_string(), kind: kind.to_string() });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Removes the leftovers of runs that are gone; says what it removed and
/// what it left because its run still goes on.
pub fn clean_leftovers(target: &Path) -> io::Result<Vec<String>> {
    let mut notes = Vec::new();
    for l in leftovers(target)? {
        if l.pid() == std::process::id() {
            continue;
        }
        if !run_is_over(&l.run) {
            notes.push(format!("{} belongs to a run that may still be going (process {}, here or on another machine); left as it is", l.path.display(), l.pid()));
            continue;
        }
        remove_any(&l.path).map_err(|e| super::at_path(&l.path, e))?;
        notes.push(format!("removed {}, left by an interrupted run (process {})", l.path.display(), l.pid()));
    }
    Ok(notes)
}

/// Removes a file or a whole directory; absent is fine.
pub fn remove_any(p: &Path) -> io::Result<()> {
    let r = match fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(p),
        Ok(_) => fs::remove_file(p),
        Err(e) => Err(e),
    };
    match r {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Flushes a directory's entries (renames, new names) to disk.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_hidden_and_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("index.cdxj");
        let run = run_id();
        let tmp = temp_beside(&target, &run, "tmp");
        assert!(tmp.file_name().unwrap().to_string_lossy().starts_with(".index.cdxj.warcdex-"));
        assert!(!tmp.to_string_lossy().ends_with(".cdxj"));
        fs::write(&tmp, b"x").unwrap();
        // Another output's leftovers are not this one's.
        fs::write(temp_beside(&dir.path().join("index.cdx"), &run, "tmp"), b"y").unwrap();
        let found = leftovers(&target).unwrap();
        assert_eq!(found, vec![Leftover { path: tmp, run, kind: "tmp".into() }]);
        assert_eq!(found[0].pid(), std::process::id());
    }

    #[test]
    fn leftovers_of_dead_runs_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ds");
        // A process id that cannot be running: above the kernel's pid_max.
        let dead = dir.path().join(".ds.warcdex-4294967-1f.staging");
        fs::create_dir_all(dead.join("crawl=A")).unwrap();
        fs::write(dead.join("crawl=A/part-0.parquet"), b"torn").unwrap();
        let live = dir.path().join(format!(".ds.warcdex-1-2.tmp")); // pid 1 always runs
        fs::write(&live, b"").unwrap();
        let notes = clean_leftovers(&target).unwrap();
        assert!(!dead.exists());
        assert!(live.exists());
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes.iter().any(|n| n.starts_with("removed") && n.contains("4294967")));
        assert!(notes.iter().any(|n| n.contains("may still be going (process 1,")));
    }

    #[test]
    fn a_run_of_another_machine_is_never_taken_for_over() {
        let ours = run_id();
        let (pid_and_time, host) = ours.rsplit_once('h').unwrap();
        let dead_here = format!("4294967-{}h{host}", pid_and_time.split_once('-').unwrap().1);
        assert!(run_is_over(&dead_here));
        let other_host = format!("4294967-1fh{:08x}", u32::from_str_radix(host, 16).unwrap() ^ 1);
        assert!(!run_is_over(&other_host));
        assert!(!run_is_over(&ours), "this process is running");
    }
}
