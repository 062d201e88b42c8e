//! Reproducible generator of realistic web-archive collections (WARC and
//! ARC) for warcdex's sample data, tests and benchmarks.
//!
//! Everything is a pure function of [`Options`]: the same options give the
//! same bytes, file by file (own PRNG, gzip header with zero mtime,
//! single-threaded codecs; the codec crates are pinned by Cargo.lock).
//! Files are streamed record by record through a `BufWriter`; memory stays
//! bounded by the largest payload plus about 8 MiB of text pools.
//!
//! ```no_run
//! use warcdex_synth::{write_collection, Format, Options};
//!
//! let opts = Options { format: Format::WarcGz, target_bytes: 4 << 20, hosts: 8, files: 2, ..Options::default() };
//! for file in write_collection(std::path::Path::new("sample"), &opts)? {
//!     println!("{} {} records", file.path.display(), file.records.total());
//! }
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! The `warcdex-synth` binary wraps this for benchmarks:
//! `warcdex-synth --format warc.gz --size 1GiB --files 1 --seed 42 OUTDIR`.
//!
//! # What a collection looks like
//!
//! A crawl over [`Options::hosts`] hosts: `www.` hosts, bare domains,
//! subdomains, a few IDN hosts (punycode in URLs, e.g. `xn--bcher-kva.de`)
//! and a few explicit ports (`:8080`, `:8443`, `:8000`). URLs have paths
//! and query strings, some carry session ids (`;jsessionid=`, `PHPSESSID=`,
//! `sid=`), and about 0.4% are 1.5–6 KB long (tracking parameters plus an
//! opaque state blob). The first contact with a host writes a `dns:` resource
//! record and fetches `/robots.txt`.
//!
//! Each capture is a `request` record (GET; POST with a form or JSON body
//! for form endpoints) and a `response` record, linked by
//! `WARC-Concurrent-To`. Responses are HTTP/1.1 with `Date`, `Server`,
//! `Content-Type`, and either `Content-Length` or, for
//! [`Options::chunked_share`] of bodies, `Transfer-Encoding: chunked` with a
//! really chunked body; redirects carry `Location` (absolute or relative)
//! and the target is captured next; 304s answer requests with
//! `If-Modified-Since`; 204 and 304 have neither body nor `Content-Type`;
//! 5% of hosts send lowercase header names. 60% of HTML captures get a Heritrix-style `metadata` record
//! (`application/warc-fields`, `via:`, `outlink:` lines matching the page's
//! links), 3% a `resource` screenshot (`urn:view:<url>`, `image/png`).
//! 12% of captures re-fetch an earlier URL; 60% of those are unchanged and
//! become `revisit` records (identical-payload-digest profile,
//! `WARC-Refers-To`, `-Target-URI`, `-Date`; HTTP headers only). Dates
//! advance through the file's share of [`Options::span_secs`] (default
//! 2019–2023); WARC/1.1 files use `.123Z`/`.123456Z` fractions on two
//! thirds of their dates. Digests are `sha1:` + Base32; the payload digest
//! covers the entity body as stored (still chunked if chunked).
//! [`Options::omit_payload_digest`] drops `WARC-Payload-Digest` from
//! responses and resources (revisits keep it: it identifies the original).
//!
//! ARC files (v1) hold only responses and `dns:` records: ARC has no
//! request, metadata or revisit records, so unchanged re-fetches are written
//! in full, as ARC-era crawlers did.
//!
//! # Realism, measured
//!
//! Measured once by hand on `warcdex-synth --size 200MiB --format warc.gz`
//! (seed 42, 300 hosts), reading the file with Python's warcio and
//! compressing each payload with gzip level 6:
//!
//! | what | value |
//! | --- | --- |
//! | records | 4653 captures: 4653 request, 4378 response, 275 revisit, 859 metadata, 336 resource (290 `dns:`, 46 screenshots), 1 warcinfo |
//! | file | 209.8 MB uncompressed → 143.3 MB `.warc.gz` (1.46:1: most bytes are images, PDFs, video) |
//! | status, by response record | 200 82.7%, 404 6.1%, 302 3.1%, 301 2.3%, 304 1.9%, 403 1.3%, 500 0.7%, 503 0.5%, 204 0.4%, 307 0.4%, 400 0.3%, 401 0.2%, 410 0.2% |
//! | MIME, % of responses / % of payload bytes | text/html 49.6 / 31.9, image/jpeg 9.1 / 18.8, application/javascript 7.4 / 7.6, text/plain 7.0 / 0.2 (mostly robots.txt), image/png 6.8 / 3.4, text/css 4.9 / 2.0, application/json 4.2 / 0.6, none (204/304) 2.2, image/gif 1.8 / 0.3, application/pdf 1.4 / 15.0, image/svg+xml 1.4 / 0.2, image/webp 1.2 / 0.9, font/woff2 1.1 / 0.8, image/x-icon 0.8 / 0.1, application/rss+xml 0.7 / 0.3, application/zip 0.3 / 5.4, video/mp4 0.1 / 12.7 |
//! | `; charset=` parameter | on 81% of text/html, ~40% of other text types |
//! | 200 payload sizes | p10 1.0 KB, p25 6.6 KB, p50 18 KB, p75 43 KB, p90 91 KB, p99 641 KB, max 9.5 MB, mean 53 KB |
//! | gzip -6 ratio, all bytes / median page over 1 KB | text/html 4.17 / 3.78, text/css 4.98 / 4.38, application/javascript 4.31 / 3.89, application/json 4.13 / 3.25, text/plain 3.08 / 3.18, application/rss+xml 3.97 / 3.53, image/svg+xml 2.85 / 2.75, images and PDF 1.00 |
//! | other | 8.2% of bodies chunked; 2.8% of requests POST; 1.4% of URLs with a session id; 20 URLs over 1000 characters (longest 5449; median URL 49); 290 of 300 hosts seen; dates 2019-01-01 … 2023-12-30 |
//!
//! # Speed
//!
//! Release build, one thread, on the project's 2-core machine, 200 MiB per
//! file (uncompressed MB per second of CPU; the `.warc.gz` time is almost all
//! deflate at level 6):
//!
//! | format | MB/s | | format | MB/s |
//! | --- | --- | --- | --- | --- |
//! | `.warc` | 338 | | `.warc.zst` | 220 |
//! | `.warc.gz` | 55 (1 GiB: 18.6 s CPU, 65 MB RSS) | | `.warc.zst` + dictionary | 133 (incl. ~0.5 s training) |
//! | `.warc.gz` whole-file | 52 | | `.warc.xz` (preset 6) | 4.3 |
//! | `.arc.gz` | 48 | | | |

mod arc_writer;
mod binary;
mod compress;
mod content;
mod crawl;
mod fragments;
mod generator;
mod http;
mod rng;
mod time;
mod vocab;
mod warc_writer;

use compress::{Codec, FileSink, Levels, RecordSink, SampleSink};
use generator::{Generator, World};
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

pub use compress::WARC_ZSTD_DICT_MAGIC;
pub use content::{Content, HtmlFrame};
pub use rng::Rng;
pub use time::Timestamp;

/// Container format and compression of generated files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Uncompressed `.warc`.
    Warc,
    /// `.warc.gz` with one gzip member per record (the normal form).
    WarcGz,
    /// `.warc.gz` as a single gzip member for the whole file (found in the
    /// wild, not randomly accessible; e.g. warcio refuses it).
    WarcGzWhole,
    /// `.warc.zst`, one zstd frame per record, no dictionary.
    WarcZst,
    /// `.warc.zst` with a trained dictionary in a leading skippable frame
    /// (magic 0x184D2A5D), stored raw or itself zstd-compressed.
    WarcZstDict { compressed_dictionary: bool },
    /// `.warc.xz`, one xz stream per record.
    WarcXz,
    /// Uncompressed ARC v1.
    Arc,
    /// `.arc.gz`, one gzip member per record.
    ArcGz,
}

impl Format {
    pub const ALL: [Format; 9] = [
        Format::Warc,
        Format::WarcGz,
        Format::WarcGzWhole,
        Format::WarcZst,
        Format::WarcZstDict {
            compressed_dictionary: false,
        },
        Format::WarcZstDict {
            compressed_dictionary: true,
        },
        Format::WarcXz,
        Format::Arc,
        Format::ArcGz,
    ];

    /// File name extension, without the leading dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Warc => "warc",
            Format::WarcGz | Format::WarcGzWhole => "warc.gz",
            Format::WarcZst | Format::WarcZstDict { .. } => "warc.zst",
            Format::WarcXz => "warc.xz",
            Format::Arc => "arc",
            Format::ArcGz => "arc.gz",
        }
    }

    /// Name accepted by [`FromStr`] and the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Warc => "warc",
            Format::WarcGz => "warc.gz",
            Format::WarcGzWhole => "warc.gz-whole",
            Format::WarcZst => "warc.zst",
            Format::WarcZstDict {
                compressed_dictionary: false,
            } => "warc.zst-dict",
            Format::WarcZstDict {
                compressed_dictionary: true,
            } => "warc.zst-zdict",
            Format::WarcXz => "warc.xz",
            Format::Arc => "arc",
            Format::ArcGz => "arc.gz",
        }
    }

    pub fn is_arc(self) -> bool {
        matches!(self, Format::Arc | Format::ArcGz)
    }

    fn codec(self) -> Codec {
        match self {
            Format::Warc | Format::Arc => Codec::Plain,
            Format::WarcGz | Format::ArcGz => Codec::GzipPerRecord,
            Format::WarcGzWhole => Codec::GzipWhole,
            Format::WarcZst | Format::WarcZstDict { .. } => Codec::Zstd,
            Format::WarcXz => Codec::Xz,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        let s = s.trim_start_matches('.');
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                format!("unknown format {s:?}; expected one of {}", names.join(", "))
            })
    }
}

/// WARC version of generated files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarcVersion {
    V1_0,
    V1_1,
    /// Even file indexes WARC/1.0, odd ones WARC/1.1: a collection of two
    /// or more files exercises both.
    Mixed,
}

impl WarcVersion {
    fn is_v11(self, file_index: usize) -> bool {
        match self {
            WarcVersion::V1_0 => false,
            WarcVersion::V1_1 => true,
            WarcVersion::Mixed => file_index % 2 == 1,
        }
    }
}

/// Everything that determines a collection.
#[derive(Clone, Debug)]
pub struct Options {
    pub seed: u64,
    /// Approximate uncompressed size of each file; generation stops at the
    /// first capture boundary past it.
    pub target_bytes: u64,
    /// Number of files in a collection (each covers its own slice of time).
    pub files: usize,
    /// Number of hosts crawled.
    pub hosts: usize,
    pub format: Format,
    pub warc_version: WarcVersion,
    /// Leave out `WARC-Payload-Digest` on responses and resources.
    pub omit_payload_digest: bool,
    /// Share of bodies sent with `Transfer-Encoding: chunked`.
    pub chunked_share: f64,
    /// Largest payload; also capped at max(256 KiB, target_bytes / 4) so a
    /// single multi-MB video cannot dominate a small sample file.
    pub max_payload_bytes: u64,
    pub gzip_level: u32,
    pub zstd_level: i32,
    pub xz_level: u32,
    /// Size of the trained dictionary for [`Format::WarcZstDict`].
    pub zstd_dict_bytes: usize,
    /// Start of the collection's time span (Unix seconds, UTC).
    pub start_unix_secs: i64,
    /// Length of the collection's time span.
    pub span_secs: u64,
    /// File name prefix: `{prefix}-{index:05}.{ext}`.
    pub prefix: String,
    /// Crawling organization (warcinfo `operator`, ARC origin code).
    pub organization: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 42,
            target_bytes: 64 << 20,
            files: 1,
            hosts: 300,
            format: Format::WarcGz,
            warc_version: WarcVersion::Mixed,
            omit_payload_digest: false,
            chunked_share: 0.08,
            max_payload_bytes: 16 << 20,
            gzip_level: 6,
            zstd_level: 3,
            xz_level: 6,
            zstd_dict_bytes: 110 << 10,
            start_unix_secs: Timestamp::from_ymd(2019, 1, 1).secs,
            span_secs: (Timestamp::from_ymd(2024, 1, 1).secs - Timestamp::from_ymd(2019, 1, 1).secs)
                as u64,
            prefix: "sample".into(),
            organization: "warcdex".into(),
        }
    }
}

impl Options {
    /// `{prefix}-{index:05}.{ext}`.
    pub fn file_name(&self, file_index: usize) -> String {
        format!(
            "{}-{:05}.{}",
            self.prefix,
            file_index,
            self.format.extension()
        )
    }
}

/// Records written, by WARC type. For ARC files, `warcinfo` counts the
/// `filedesc://` version block, `response` the HTTP captures and
/// `resource` the `dns:` records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordCounts {
    pub warcinfo: u64,
    pub request: u64,
    pub response: u64,
    pub revisit: u64,
    pub metadata: u64,
    pub resource: u64,
}

impl RecordCounts {
    pub fn total(&self) -> u64 {
        self.warcinfo + self.request + self.response + self.revisit + self.metadata + self.resource
    }
}

/// What one generated file contains.
#[derive(Clone, Debug)]
pub struct FileStats {
    pub path: PathBuf,
    pub format: Format,
    /// `"1.0"`/`"1.1"`, or `None` for ARC.
    pub warc_version: Option<&'static str>,
    pub records: RecordCounts,
    /// HTTP captures (responses and revisits).
    pub captures: u64,
    pub uncompressed_bytes: u64,
    pub file_bytes: u64,
    /// Response records by HTTP status (revisits not included).
    pub statuses: BTreeMap<u16, u64>,
    /// Response records by media type without parameters (`-` for none).
    pub mime_types: BTreeMap<String, u64>,
}

/// Writes file `file_index` of the collection described by `opts` to
/// `path`: byte-identical to the file [`write_collection`] writes at that
/// index when the file name is the same (the name appears in the warcinfo
/// record; all other records are identical anyway). Each index has its own
/// random stream and its own slice of the time span (indexes past
/// `opts.files` wrap around in time).
pub fn write_file(path: &Path, opts: &Options, file_index: usize) -> io::Result<FileStats> {
    let world = World::new(opts);
    let dict = train_dictionary_if_needed(&world, opts)?;
    write_file_with(path, opts, file_index, &world, dict.as_deref())
}

/// Writes `opts.files` files named by [`Options::file_name`] into `dir`
/// (created if missing).
pub fn write_collection(dir: &Path, opts: &Options) -> io::Result<Vec<FileStats>> {
    fs::create_dir_all(dir)?;
    let world = World::new(opts);
    let dict = train_dictionary_if_needed(&world, opts)?;
    (0..opts.files.max(1))
        .map(|i| {
            write_file_with(
                &dir.join(opts.file_name(i)),
                opts,
                i,
                &world,
                dict.as_deref(),
            )
        })
        .collect()
}

/// The zstd dictionary a [`Format::WarcZstDict`] collection would use
/// (trained on records of an independent sample crawl, never on the files'
/// own records; the same for every file of the collection).
pub fn zstd_dictionary(opts: &Options) -> io::Result<Vec<u8>> {
    train_dictionary(&World::new(opts), opts)
}

fn train_dictionary_if_needed(world: &World, opts: &Options) -> io::Result<Option<Vec<u8>>> {
    match opts.format {
        Format::WarcZstDict { .. } => train_dictionary(world, opts).map(Some),
        _ => Ok(None),
    }
}

fn train_dictionary(world: &World, opts: &Options) -> io::Result<Vec<u8>> {
    let mut sample_opts = opts.clone();
    // Enough records for header statistics; sample heads only, since
    // dictionaries help with the first KiBs of each frame.
    sample_opts.target_bytes = 24 << 20;
    sample_opts.max_payload_bytes = 64 << 10;
    let mut w =
        warc_writer::WarcWriter::new(SampleSink::new(8 << 10), false, opts.omit_payload_digest);
    Generator::new(&sample_opts, world, u64::MAX, true).run(
        &mut w,
        "dictionary-samples.warc",
        0,
        false,
    )?;
    zstd::dict::from_samples(&w.sink.samples, opts.zstd_dict_bytes)
}

fn write_file_with(
    path: &Path,
    opts: &Options,
    file_index: usize,
    world: &World,
    dict: Option<&[u8]>,
) -> io::Result<FileStats> {
    // Reproducible, so an existing file is replaced; never seen half-written.
    let mut out = warcdex_core::output::AtomicFile::create(path, true)?;
    let file = out.file_mut().try_clone()?;
    let levels = Levels {
        gzip: opts.gzip_level,
        zstd: opts.zstd_level,
        xz: opts.xz_level,
    };
    let dictionary = match opts.format {
        Format::WarcZstDict {
            compressed_dictionary,
        } => dict.map(|d| (d, compressed_dictionary)),
        _ => None,
    };
    let sink = FileSink::create(file, opts.format.codec(), &levels, dictionary)?;
    let filename = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let warc = !opts.format.is_arc();
    let v11 = warc && opts.warc_version.is_v11(file_index);
    let mut gen = Generator::new(opts, world, file_index as u64, warc);

    let (records, uncompressed, sink) = if warc {
        let mut w = warc_writer::WarcWriter::new(sink, v11, opts.omit_payload_digest);
        gen.run(&mut w, &filename, file_index, v11)?;
        (
            warc_writer::ArchiveWriter::counts(&w),
            w.sink.uncompressed(),
            w.sink,
        )
    } else {
        let mut w = arc_writer::ArcWriter::new(sink, &opts.organization);
        gen.run(&mut w, &filename, file_index, v11)?;
        (
            warc_writer::ArchiveWriter::counts(&w),
            w.sink.uncompressed(),
            w.sink,
        )
    };
    sink.finish()?;
    out.commit()?;
    let stats = std::mem::take(&mut gen.stats);
    Ok(FileStats {
        path: path.to_path_buf(),
        format: opts.format,
        warc_version: warc.then_some(if v11 { "1.1" } else { "1.0" }),
        records,
        captures: stats.captures,
        uncompressed_bytes: uncompressed,
        file_bytes: fs::metadata(path)?.len(),
        statuses: stats.statuses,
        mime_types: stats.mime_types,
    })
}
