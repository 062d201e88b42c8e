//! Times host-column derivation alone over the hosts of a CDXJ file:
//! `cargo run --release -p warcdex-parquet --example hosts -- FILE.cdxj`
use std::io::BufRead;
use std::time::Instant;

use warcdex_parquet::host::{host_columns_in, HostScratch};

fn main() {
    let path = std::env::args().nth(1).expect("FILE.cdxj");
    let f = std::io::BufReader::new(std::fs::File::open(path).expect("open"));
    let hosts: Vec<String> = f
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| {
            let u = l.split("\"url\":").nth(1)?.trim_start().strip_prefix('"')?.split('"').next()?.to_string();
            let rest = u.split("://").nth(1)?;
            Some(rest.split(['/', '?', ':']).next()?.to_string())
        })
        .collect();
    let mut scratch = HostScratch::default();
    let mut sum = 0usize;
    let t = Instant::now();
    for h in &hosts {
        let c = host_columns_in(h, &mut scratch);
        sum += c.registered_domain.map_or(0, str::len) + c.name_reversed.map_or(0, str::len) + c.parts[1].map_or(0, str::len);
    }
    let s = t.elapsed().as_secs_f64();
    eprintln!("{} hosts in {s:.3} s: {:.0} ns/host (checksum {sum})", hosts.len(), s * 1e9 / hosts.len() as f64);
}
