//! Which files a list of command-line inputs names.

use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind};

/// File names that are archives when found inside a directory.
pub fn is_archive_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    let base = ["", ".gz", ".xz", ".zst"]
        .iter()
        .find_map(|c| n.strip_suffix(c).filter(|b| b.ends_with(".warc") || b.ends_with(".arc")));
    // Page-dump segments (data_*.tar.xz), read through the foreign hook.
    base.is_some() || (n.starts_with("data_") && n.ends_with(".tar.xz"))
}

/// Expands files and directories (recursively, archives only, in name
/// order) into the list of files to read. A missing path is an error.
pub fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for p in inputs {
        let meta = std::fs::metadata(p).map_err(|e| {
            Error::new(ErrorKind::Io(format!("cannot open: {e}")), &p.display().to_string(), None)
        })?;
        if meta.is_dir() {
            walk(p, &mut out).map_err(|e| Error::new(ErrorKind::Io(e.to_string()), &p.display().to_string(), None))?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let ft = e.file_type()?;
        if ft.is_dir() || (ft.is_symlink() && path.is_dir()) {
            walk(&path, out)?;
        } else if is_archive_name(&e.file_name().to_string_lossy()) {
            out.push(path);
        }
    }
    Ok(())
}

/// The name written in an index's filename field: the base name, or the
/// path relative to `root` with `/` separators.
pub fn index_filename(path: &Path, root: Option<&Path>) -> String {
    match root {
        None => path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        Some(root) => {
            let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
            let (p, r) = (abs(path), abs(root));
            relative(&p, &r).to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/")
        }
    }
}

/// `path` relative to `base`, with `..` where needed (like os.path.relpath).
fn relative(path: &Path, base: &Path) -> PathBuf {
    let norm = |p: &Path| -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for c in p.components() {
            match c {
                std::path::Component::ParentDir => {
                    v.pop();
                }
                std::path::Component::CurDir => {}
                other => v.push(other.as_os_str().to_string_lossy().into_owned()),
            }
        }
        v
    };
    let (p, b) = (norm(path), norm(base));
    let common = p.iter().zip(&b).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archive_names() {
        for n in ["a.warc", "a.warc.gz", "A.ARC.GZ", "a.warc.zst", "a.arc.xz"] {
            assert!(is_archive_name(n), "{n}");
        }
        for n in ["a.cdx", "a.warc.wat.gz.txt", "a.gz", "warc"] {
            assert!(!is_archive_name(n), "{n}");
        }
    }

    #[test]
    fn relative_names() {
        assert_eq!(index_filename(Path::new("/x/y/test/data/a.warc.gz"), Some(Path::new("/x/y"))), "test/data/a.warc.gz");
        assert_eq!(index_filename(Path::new("/x/a.warc"), Some(Path::new("/x/y"))), "../a.warc");
        assert_eq!(index_filename(Path::new("/x/a.warc"), None), "a.warc");
    }
}
