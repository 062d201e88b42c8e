//! Replays every input kept under `fuzz/regressions/<target>/` (inputs
//! that once made a target fail) through its target function, and runs
//! every target over its hand-made seeds, so `cargo test` checks the fuzz
//! invariants on stable without libFuzzer.
//!
//! An input whose bug is known and not fixed yet is named in
//! `fuzz/regressions/OPEN` (`target/file  reason`); it is reported and
//! left out here, and replayed by `cargo test -p warcdex-fuzz -- --ignored`.

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions")
}

/// `target/file` of the inputs listed as open bugs.
fn open_bugs() -> BTreeSet<String> {
    let text = std::fs::read_to_string(regressions_dir().join("OPEN")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Every kept input as (target, `target/file`, path).
fn kept_inputs() -> Vec<(&'static warcdex_fuzz::Target, String, PathBuf)> {
    let mut out = Vec::new();
    let Ok(dirs) = std::fs::read_dir(regressions_dir()) else { return out };
    let mut dirs: Vec<PathBuf> = dirs.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().expect("a folder name").to_string_lossy().into_owned();
        let target = warcdex_fuzz::target(&name).unwrap_or_else(|| panic!("fuzz/regressions/{name}: no such target"));
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("readable").flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
        files.sort();
        for f in files {
            let file = f.file_name().expect("a file name").to_string_lossy().into_owned();
            if file.starts_with('.') {
                continue;
            }
            out.push((target, format!("{name}/{file}"), f));
        }
    }
    out
}

/// Runs each input, collecting failures instead of stopping at the first.
fn replay(inputs: &[(&'static warcdex_fuzz::Target, String, Vec<u8>)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (target, label, data) in inputs {
        if catch_unwind(AssertUnwindSafe(|| (target.run)(data))).is_err() {
            failures.push(label.clone());
        }
    }
    failures
}

#[test]
fn kept_crash_inputs_no_longer_fail() {
    let open = open_bugs();
    let mut inputs = Vec::new();
    for (target, label, path) in kept_inputs() {
        if open.contains(&label) {
            println!("OPEN (known, not fixed yet; run with --ignored): {label}");
            continue;
        }
        inputs.push((target, label, std::fs::read(&path).expect("readable")));
    }
    println!("{} kept inputs replayed", inputs.len());
    let failures = replay(&inputs);
    assert!(failures.is_empty(), "targets fail on kept inputs: {failures:?}");
}

#[test]
#[ignore = "inputs of known open bugs: they fail (some allocate gigabytes) until fixed"]
fn open_bug_inputs() {
    let open = open_bugs();
    let inputs: Vec<_> = kept_inputs()
        .into_iter()
        .filter(|(_, label, _)| open.contains(label))
        .map(|(t, label, path)| (t, label, std::fs::read(&path).expect("readable")))
        .collect();
    let failures = replay(&inputs);
    assert!(failures.is_empty(), "open bugs still fail: {failures:?}");
}

#[test]
fn open_list_names_kept_inputs() {
    let kept: BTreeSet<String> = kept_inputs().into_iter().map(|(_, label, _)| label).collect();
    for label in open_bugs() {
        assert!(kept.contains(&label), "fuzz/regressions/OPEN names {label}, which is not kept");
    }
}

#[test]
fn every_target_passes_its_hand_made_seeds() {
    let seeds = warcdex_fuzz::seeds::hand();
    let mut inputs = Vec::new();
    for t in warcdex_fuzz::TARGETS {
        let list = seeds.get(t.name).unwrap_or_else(|| panic!("no hand-made seeds for {}", t.name));
        assert!(!list.is_empty(), "no hand-made seeds for {}", t.name);
        for (i, s) in list.iter().enumerate() {
            inputs.push((t, format!("{}/hand-{i}", t.name), s.clone()));
        }
    }
    let failures = replay(&inputs);
    assert!(failures.is_empty(), "targets fail on hand-made seeds: {failures:?}");
}

#[test]
fn every_target_survives_small_edge_inputs() {
    let edges: [&[u8]; 8] = [b"", b"\0", b"\n", b"\xff\xfe", b"\x1f\x8b", b"\xfd7zXZ\0", b"\x28\xb5\x2f\xfd", b"PAR1"];
    let mut inputs = Vec::new();
    for t in warcdex_fuzz::TARGETS {
        for (i, e) in edges.iter().enumerate() {
            inputs.push((t, format!("{}/edge-{i}", t.name), e.to_vec()));
        }
    }
    let failures = replay(&inputs);
    assert!(failures.is_empty(), "targets fail on edge inputs: {failures:?}");
}

#[test]
fn every_target_has_a_libfuzzer_wrapper() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/fuzz_targets");
    for t in warcdex_fuzz::TARGETS {
        let path = dir.join(format!("{}.rs", t.name));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(text.contains(&format!("warcdex_fuzz::{}(", t.name)), "{} does not call warcdex_fuzz::{}", path.display(), t.name);
        let dict = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../fuzz/dict/{}.dict", t.dict));
        assert!(dict.is_file(), "{} is missing", dict.display());
    }
}
