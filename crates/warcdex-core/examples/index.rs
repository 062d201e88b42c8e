//! Development aid: `cargo run --example index -- [--format F] [--all] [-p] FILE...`
use warcdex_core::cdx::Format;
use warcdex_core::index::Selection;
use warcdex_core::pipeline::{run_index, IndexJob, Observer};

struct Stderr;
impl Observer for Stderr {
    fn problem(&mut self, skipped: bool, e: &warcdex_core::error::Error) {
        eprintln!("{}: {e}", if skipped { "skipped" } else { "warning" });
    }
}

fn main() {
    let mut job = IndexJob::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--format" => job.format = Format::parse(&args.next().unwrap()).unwrap(),
            "--all" => job.options.selection = Selection::All,
            "-p" => job.options.post_append = true,
            "--sort" => job.sort = true,
            "--verify" => job.options.verify = true,
            "--jobs" => job.jobs = args.next().unwrap().parse().unwrap(),
            _ => files.push(std::path::PathBuf::from(a)),
        }
    }
    let files = warcdex_core::inputs::expand(&files).unwrap();
    let s = run_index(&files, &job, &mut std::io::stdout().lock(), &mut Stderr).unwrap();
    eprintln!("{s:?}");
}
