//! Converts segments to a WARC without Node, for profiling:
//! `cargo run --release -p warcdex-dump --example to_warc -- LEVEL OUT.warc.gz SEGMENT...`
fn main() {
    let mut args = std::env::args().skip(1);
    let level: u32 = args.next().expect("LEVEL").parse().expect("a level");
    let out = std::path::PathBuf::from(args.next().expect("OUT"));
    let segments: Vec<std::path::PathBuf> = args.map(Into::into).collect();
    let s = warcdex_dump::to_warc::to_warc_file(&segments, &out, level, true, &mut |_| Ok(())).expect("to-warc");
    eprintln!("{s:?}");
}
