//! Writes the seed corpora: `warcdex-fuzz-seeds CORPUS_DIR OUT_DIR [SCRATCH_DIR]`;
//! `warcdex-fuzz-seeds --list` prints each target and its dictionary
//! (tab-separated), for scripts/fuzz.mjs.
//! OUT_DIR/<target>/ gets the hand-made seeds, seeds generated without any
//! corpus (page dumps), and, when CORPUS_DIR exists, seeds cut from its
//! files. Existing files are kept (libFuzzer's own finds live there too).

use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--list") {
        for t in warcdex_fuzz::TARGETS {
            println!("{}\t{}", t.name, t.dict);
        }
        return;
    }
    if args.len() < 2 {
        eprintln!("usage: warcdex-fuzz-seeds CORPUS_DIR OUT_DIR [SCRATCH_DIR]");
        std::process::exit(2);
    }
    let corpus = PathBuf::from(&args[0]);
    let out = PathBuf::from(&args[1]);
    let scratch = args.get(2).map(PathBuf::from).unwrap_or_else(|| out.join(".scratch"));
    let mut all = warcdex_fuzz::seeds::hand();
    let mut merge = |more: warcdex_fuzz::seeds::Seeds| {
        for (target, list) in more {
            all.entry(target).or_default().extend(list);
        }
    };
    merge(warcdex_fuzz::seeds::generated(&scratch));
    if corpus.is_dir() {
        merge(warcdex_fuzz::seeds::from_corpus(&corpus, &scratch));
    } else {
        println!("SKIPPED corpus seeds: {} is absent (hand-made and generated seeds only)", corpus.display());
    }
    let _ = std::fs::remove_dir_all(&scratch);
    for t in warcdex_fuzz::TARGETS {
        let dir = out.join(t.name);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let list = all.get(t.name).map(Vec::as_slice).unwrap_or_default();
        for seed in list {
            let path = dir.join(warcdex_fuzz::seeds::seed_name(seed));
            if !path.exists() {
                std::fs::write(&path, seed).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            }
        }
        println!("{:<16} {:>4} seeds", t.name, list.len());
    }
}
