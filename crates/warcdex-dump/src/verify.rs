//! `dump verify`: files against the master manifest (size, md5), pages
//! against their manifest rows (length, md5, header line), all streamed.

use std::io;
use std::path::{Path, PathBuf};

use crate::manifest::{parse_master, MasterEntry};
use crate::names::{base_name, Kind, SegmentName};
use crate::problem::Problem;
use crate::segment::{read_segment, Event, Options};

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    pub files: u64,
    pub pages: u64,
    pub verified: u64,
    pub problems: u64,
    pub bytes: u64,
}

/// What to verify: segment files, directories, and master manifests expand
/// to data files (and manifest files checked by size and md5 only).
#[derive(Debug, Default)]
pub struct Plan {
    pub data: Vec<PathBuf>,
    pub manifests: Vec<PathBuf>,
    /// Expected (size, md5) by base name, from master manifests.
    pub expected: std::collections::HashMap<String, MasterEntry>,
    /// Files the master manifest lists that are not there.
    pub absent: Vec<String>,
    pub master_problems: Vec<String>,
}

pub fn plan(inputs: &[PathBuf]) -> io::Result<Plan> {
    let mut p = Plan::default();
    let mut masters = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut names: Vec<PathBuf> = std::fs::read_dir(input)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
            names.sort();
            for f in names {
                let b = base_name(&f);
                if b == "master_manifest.tsv" {
                    masters.push(f);
                } else if let Some(n) = SegmentName::parse(&b) {
                    match n.kind {
                        Kind::Data => p.data.push(f),
                        Kind::Manifest => p.manifests.push(f),
                    }
                }
            }
        } else if base_name(input).ends_with(".tsv") && SegmentName::of_path(input).is_none() {
            masters.push(input.clone());
        } else if SegmentName::of_path(input).is_some_and(|n| n.kind == Kind::Manifest) {
            p.manifests.push(input.clone());
        } else {
            p.data.push(input.clone());
        }
    }
    for m in masters {
        let text = std::fs::read_to_string(&m)?;
        let (entries, problems) = parse_master(&text);
        p.master_problems.extend(problems);
        let dir = m.parent().map(Path::to_path_buf).unwrap_or_default();
        for e in entries {
            let path = dir.join(&e.file_name);
            let listed = |v: &Vec<PathBuf>| v.iter().any(|x| base_name(x) == e.file_name);
            if !path.exists() {
                p.absent.push(e.file_name.clone());
            } else if e.kind == 'd' && !listed(&p.data) {
                p.data.push(path);
            } else if e.kind == 'm' && !listed(&p.manifests) {
                p.manifests.push(path);
            }
            p.expected.insert(e.file_name.clone(), e);
        }
    }
    Ok(p)
}

fn check_file(name: &str, size: u64, md5: Option<&str>, plan: &Plan, report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<()> {
    if let Some(e) = plan.expected.get(name) {
        if e.size != size {
            report(Problem::new(name, None, "file-size", format!("file has {size} bytes, master manifest says {}", e.size)))?;
        }
        if let Some(m) = md5 {
            if m != e.md5 {
                report(Problem::new(name, None, "file-md5", format!("file md5 is {m}, master manifest says {}", e.md5)))?;
            }
        }
    }
    Ok(())
}

/// Verifies everything `inputs` name; each problem goes to `report` as it is found.
pub fn verify(inputs: &[PathBuf], report: &mut dyn FnMut(Problem) -> io::Result<()>) -> io::Result<Summary> {
    let plan = plan(inputs)?;
    let mut s = Summary::default();
    fn emit(s: &mut Summary, report: &mut dyn FnMut(Problem) -> io::Result<()>, p: Problem) -> io::Result<()> {
        s.problems += 1;
        report(p)
    }
    for m in &plan.master_problems {
        emit(&mut s, report, Problem::new("master_manifest.tsv", None, "master-manifest", m.clone()))?;
    }
    for a in &plan.absent {
        emit(&mut s, report, Problem::new(a, None, "file-missing", "listed in the master manifest, not found"))?;
    }
    for m in &plan.manifests {
        s.files += 1;
        let name = base_name(m);
        let bytes = std::fs::read(m)?;
        s.bytes += bytes.len() as u64;
        let md5 = crate::md5_hex(&bytes);
        check_file(&name, bytes.len() as u64, Some(&md5), &plan, &mut |p| emit(&mut s, report, p))?;
    }
    for d in &plan.data {
        s.files += 1;
        let name = base_name(d);
        let want_md5 = plan.expected.contains_key(&name);
        let mut pages = 0;
        let mut verified = 0;
        let outcome = read_segment(d, &Options { file_md5: want_md5, fallback_rows: None }, &mut |ev| {
            match ev {
                Event::Page(p) => {
                    pages += 1;
                    verified += p.verified as u64;
                }
                Event::Problem(p) => emit(&mut s, report, p)?,
            }
            Ok(())
        });
        match outcome {
            Ok(o) => {
                s.bytes += o.raw_bytes;
                check_file(&name, o.raw_bytes, o.raw_md5.as_deref(), &plan, &mut |p| emit(&mut s, report, p))?;
            }
            Err(e) => emit(&mut s, report, Problem::new(&name, None, "io", format!("cannot read: {e}")))?,
        }
        s.pages += pages;
        s.verified += verified;
    }
    Ok(s)
}
