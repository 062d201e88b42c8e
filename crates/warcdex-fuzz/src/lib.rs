//! Fuzz targets over every parser of untrusted bytes in warcdex, each a
//! plain function that panics when an invariant breaks. `fuzz/` drives
//! them with libFuzzer (`npm run fuzz`); `tests/regressions.rs` replays
//! the inputs kept under `fuzz/regressions/` with a stable `cargo test`.
//!
//! The invariants are listed with each target (and in fuzz/README.md).

mod archive;
mod dump;
mod http;
mod lines;
mod parquet;
mod post;
pub mod seeds;
mod surt;

pub use archive::{archive, archive_gzip, archive_xz, archive_zstd};
pub use dump::{dump_manifest, dump_tar};
pub use http::{http_body, http_head};
pub use lines::{capture_line, cdx_line, cdxj_line};
pub use parquet::summary_parquet;
pub use post::post_body;
pub use surt::surt_target as surt;

/// A fuzz target: its name (also its libFuzzer binary, corpus and
/// regressions folder), its function, and its dictionary in `fuzz/dict/`.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
    pub dict: &'static str,
}

pub const TARGETS: &[Target] = &[
    Target { name: "archive", run: archive, dict: "warc" },
    Target { name: "archive_gzip", run: archive_gzip, dict: "warc" },
    Target { name: "archive_xz", run: archive_xz, dict: "warc" },
    Target { name: "archive_zstd", run: archive_zstd, dict: "warc" },
    Target { name: "http_head", run: http_head, dict: "http" },
    Target { name: "http_body", run: http_body, dict: "http" },
    Target { name: "post_body", run: post_body, dict: "post" },
    Target { name: "surt", run: surt, dict: "url" },
    Target { name: "cdx_line", run: cdx_line, dict: "cdx" },
    Target { name: "cdxj_line", run: cdxj_line, dict: "cdx" },
    Target { name: "capture_line", run: capture_line, dict: "cdx" },
    Target { name: "summary_parquet", run: summary_parquet, dict: "parquet" },
    Target { name: "dump_tar", run: dump_tar, dict: "tar" },
    Target { name: "dump_manifest", run: dump_manifest, dict: "tar" },
];

pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}
