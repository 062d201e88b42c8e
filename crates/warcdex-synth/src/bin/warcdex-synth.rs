//! `warcdex-synth --format warc.gz --size 1GiB --files 1 --seed 42 OUTDIR`
//!
//! Writes a synthetic collection and prints per-file statistics and the
//! generation speed (uncompressed MB per second of wall time).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use warcdex_synth::{write_collection, Options, WarcVersion};

const USAGE: &str = "usage: warcdex-synth [options] OUTDIR

options:
  --format F            warc | warc.gz | warc.gz-whole | warc.zst | warc.zst-dict |
                        warc.zst-zdict | warc.xz | arc | arc.gz   (default warc.gz)
  --size N              approximate uncompressed size per file, e.g. 200MiB, 1GiB (default 64MiB)
  --files N             number of files (default 1)
  --seed N              seed (default 42)
  --hosts N             number of hosts (default 300)
  --warc-version V      1.0 | 1.1 | mixed (default mixed: odd files 1.1)
  --omit-payload-digest leave out WARC-Payload-Digest
  --chunked-share X     share of chunked responses, 0..1 (default 0.08)
  --max-payload N       largest payload (default 16MiB)
  --gzip-level N        (default 6)
  --zstd-level N        (default 3)
  --xz-level N          (default 6)
  --prefix P            file name prefix (default sample)
  --stats               also print status and MIME histograms";

/// `1GiB`, `200MB`, `512k`, `1000`: binary units for KiB/MiB/GiB and bare
/// K/M/G, decimal for kB/MB/GB.
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num.parse().map_err(|_| format!("bad size {s:?}"))?;
    let mult: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        _ => return Err(format!("bad size unit in {s:?}")),
    };
    Ok((n * mult as f64) as u64)
}

fn parse_args() -> Result<(Options, PathBuf, bool), String> {
    let mut opts = Options::default();
    let mut out = None;
    let mut stats = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or_else(|| format!("{a} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|_| format!("bad number {v:?}"));
        match a.as_str() {
            "-h" | "--help" => return Err(USAGE.into()),
            "--format" => opts.format = val()?.parse()?,
            "--size" => opts.target_bytes = parse_size(&val()?)?,
            "--files" => opts.files = num(val()?)? as usize,
            "--seed" => opts.seed = num(val()?)?,
            "--hosts" => opts.hosts = num(val()?)? as usize,
            "--warc-version" => {
                opts.warc_version = match val()?.as_str() {
                    "1.0" => WarcVersion::V1_0,
                    "1.1" => WarcVersion::V1_1,
                    "mixed" => WarcVersion::Mixed,
                    v => return Err(format!("bad WARC version {v:?}")),
                }
            }
            "--omit-payload-digest" => opts.omit_payload_digest = true,
            "--chunked-share" => {
                opts.chunked_share = val()?
                    .parse()
                    .map_err(|_| "bad --chunked-share".to_string())?
            }
            "--max-payload" => opts.max_payload_bytes = parse_size(&val()?)?,
            "--gzip-level" => opts.gzip_level = num(val()?)? as u32,
            "--zstd-level" => opts.zstd_level = num(val()?)? as i32,
            "--xz-level" => opts.xz_level = num(val()?)? as u32,
            "--prefix" => opts.prefix = val()?,
            "--stats" => stats = true,
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n\n{USAGE}")),
            s => out = Some(PathBuf::from(s)),
        }
    }
    let out = out.ok_or_else(|| USAGE.to_string())?;
    Ok((opts, out, stats))
}

fn main() -> ExitCode {
    let (opts, dir, show_stats) = match parse_args() {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let files = match write_collection(&dir, &opts) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("warcdex-synth: {e}");
            return ExitCode::FAILURE;
        }
    };
    let secs = started.elapsed().as_secs_f64();
    let (mut raw, mut stored) = (0u64, 0u64);
    for f in &files {
        raw += f.uncompressed_bytes;
        stored += f.file_bytes;
        let r = &f.records;
        println!(
            "{}  {} bytes ({} uncompressed)  captures {}  records {} [warcinfo {} request {} response {} revisit {} metadata {} resource {}]",
            f.path.display(), f.file_bytes, f.uncompressed_bytes, f.captures, r.total(),
            r.warcinfo, r.request, r.response, r.revisit, r.metadata, r.resource
        );
        if show_stats {
            println!("  statuses: {:?}", f.statuses);
            println!("  mime types: {:?}", f.mime_types);
        }
    }
    println!(
        "{} file(s), {:.1} MB uncompressed, {:.1} MB on disk, {:.2} s, {:.1} MB/s uncompressed, {:.1} MB/s written",
        files.len(), raw as f64 / 1e6, stored as f64 / 1e6, secs, raw as f64 / 1e6 / secs, stored as f64 / 1e6 / secs
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1GiB").unwrap(), 1 << 30);
        assert_eq!(parse_size("200MB").unwrap(), 200_000_000);
        assert_eq!(parse_size("64k").unwrap(), 65536);
        assert_eq!(parse_size("1000").unwrap(), 1000);
        assert!(parse_size("5XB").is_err());
    }
}
