//! Verifies segments without Node, for profiling:
//! `cargo run --release -p warcdex-dump --example verify -- SEGMENT...`
fn main() {
    let inputs: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    let mut problems = 0u64;
    let s = warcdex_dump::verify::verify(&inputs, &mut |_| {
        problems += 1;
        Ok(())
    })
    .expect("verify");
    eprintln!("{s:?}; {problems} problems");
}
