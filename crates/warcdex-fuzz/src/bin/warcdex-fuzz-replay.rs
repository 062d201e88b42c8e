//! Runs inputs through a target on stable, without libFuzzer:
//! `warcdex-fuzz-replay TARGET PATH...` (files, or folders of files; TARGET
//! `all` takes PATH/<target>/ for every target). Prints each input that
//! fails and exits 1 if any did. For reproducing a crash with a debugger,
//! and for checking an invariant on a whole seed corpus before asserting it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn files(path: &Path) -> Vec<PathBuf> {
    if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path).map(|d| d.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect()).unwrap_or_default();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: warcdex-fuzz-replay TARGET|all PATH...");
        std::process::exit(2);
    }
    let mut jobs: Vec<(&warcdex_fuzz::Target, PathBuf)> = Vec::new();
    for p in &args[1..] {
        let p = Path::new(p);
        if args[0] == "all" {
            for t in warcdex_fuzz::TARGETS {
                jobs.extend(files(&p.join(t.name)).into_iter().map(|f| (t, f)));
            }
        } else {
            let t = warcdex_fuzz::target(&args[0]).unwrap_or_else(|| {
                eprintln!("no target {}", args[0]);
                std::process::exit(2)
            });
            jobs.extend(files(p).into_iter().map(|f| (t, f)));
        }
    }
    let quiet = std::env::var_os("WARCDEX_FUZZ_VERBOSE").is_none();
    if quiet {
        std::panic::set_hook(Box::new(|_| {}));
    }
    let mut failed = 0;
    for (t, f) in &jobs {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| (t.run)(&data))) {
            let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
            let msg: String = msg.chars().take(600).collect();
            println!("FAIL {} {}: {msg}", t.name, f.display());
            failed += 1;
        }
    }
    println!("{} inputs, {failed} failed", jobs.len());
    std::process::exit(if failed > 0 { 1 } else { 0 });
}
