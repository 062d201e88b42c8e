//! Segments that follow the dump's format to the letter, for tests and
//! benchmarks: the manifest first in the tar (the same bytes as the
//! `manifest_*.tsv.xz` beside it), `${id}.html` entries opening with the
//! tab-separated header line, `\n` and `\r\n` pages, ids with gaps, URLs
//! fetched again with timestamps that go backwards, pages whose md5 or length
//! disagree with their row, and a `master_manifest.tsv`. Each bad input of the
//! issue can be injected on demand; the [`Report`] says where, so tests can
//! check that every one is found.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use warcdex_synth::{Content, HtmlFrame, Rng};

use crate::manifest::{HEADER, MASTER_HEADER};
use crate::names::SegmentName;
use crate::page::header_line;
use crate::tar::TarWriter;
use warcdex_core::output::AtomicFile;

/// A bad input the generator can plant (one of each per request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BadInput {
    /// A page without its header line.
    MissingHeader,
    /// A header line with a space where the tab belongs.
    MalformedHeader,
    /// A page whose row was left out of the manifest.
    PageNotInManifest,
    /// A manifest row whose page was left out of the tar.
    RowWithNoPage,
    /// A page (and row) whose id is past the segment's range.
    IdOutOfRange,
    /// The .tar.xz is cut short (the last 40% of its bytes).
    TruncatedXz,
    /// A page with bytes that are not UTF-8 (row consistent with them).
    NonUtf8,
    /// A `notes.txt` entry among the pages.
    NonHtmlEntry,
    /// The manifest header names other columns.
    ManifestHeaderDiffers,
}

impl BadInput {
    pub const ALL: [BadInput; 9] = [
        BadInput::MissingHeader,
        BadInput::MalformedHeader,
        BadInput::PageNotInManifest,
        BadInput::RowWithNoPage,
        BadInput::IdOutOfRange,
        BadInput::TruncatedXz,
        BadInput::NonUtf8,
        BadInput::NonHtmlEntry,
        BadInput::ManifestHeaderDiffers,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BadInput::MissingHeader => "missing-header",
            BadInput::MalformedHeader => "malformed-header",
            BadInput::PageNotInManifest => "page-not-in-manifest",
            BadInput::RowWithNoPage => "row-with-no-page",
            BadInput::IdOutOfRange => "id-out-of-range",
            BadInput::TruncatedXz => "truncated-xz",
            BadInput::NonUtf8 => "non-utf8",
            BadInput::NonHtmlEntry => "non-html-entry",
            BadInput::ManifestHeaderDiffers => "manifest-header-differs",
        }
    }

    pub fn parse(s: &str) -> Option<BadInput> {
        BadInput::ALL.into_iter().find(|b| b.name() == s)
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    pub seed: u64,
    pub segments: usize,
    /// Ids per segment ([start, start + ids)); the dump has 100,000.
    pub ids_per_segment: u64,
    pub first_id: u64,
    /// Median page size in bytes (log-normal around it).
    pub page_bytes: usize,
    /// Share of ids with no request (gaps).
    pub gap_rate: f64,
    /// Share of requests that fetch an earlier URL again.
    pub repeat_rate: f64,
    /// Share of pages with `\r\n` line ends.
    pub crlf_rate: f64,
    /// Share of pages whose content no longer matches the row's md5 (same length).
    pub bad_md5_rate: f64,
    /// Share of pages cut shorter than the row's length.
    pub bad_length_rate: f64,
    /// Bad inputs to plant, each in segment `i % segments`.
    pub bad: Vec<BadInput>,
    /// xz preset (0-9).
    pub xz_level: u32,
    /// Uncompressed bytes per xz block (several blocks); None: one block.
    pub block_size: Option<u64>,
    pub threads: u32,
    pub master: bool,
    pub hosts: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 42,
            segments: 2,
            ids_per_segment: 100,
            first_id: 0,
            page_bytes: 6000,
            gap_rate: 0.05,
            repeat_rate: 0.2,
            crlf_rate: 0.3,
            bad_md5_rate: 0.0,
            bad_length_rate: 0.0,
            bad: Vec::new(),
            xz_level: 6,
            block_size: None,
            threads: 1,
            master: true,
            hosts: 20,
        }
    }
}

/// What was written and where the quirks are.
#[derive(Debug, Clone, Default)]
pub struct SegmentReport {
    pub data: PathBuf,
    pub manifest: PathBuf,
    pub start: u64,
    pub end: u64,
    pub pages: u64,
    pub rows: u64,
    pub crlf_ids: Vec<u64>,
    pub bad_md5_ids: Vec<u64>,
    pub bad_length_ids: Vec<u64>,
    /// (bad input, id it is at; None for whole-file ones).
    pub planted: Vec<(BadInput, Option<u64>)>,
    pub data_bytes: u64,
    pub uncompressed_bytes: u64,
}

#[derive(Debug, Clone, Default)]
pub struct Report {
    pub segments: Vec<SegmentReport>,
    pub master: Option<PathBuf>,
    /// Every URL requested more than once, with its versions (id, timestamp).
    pub repeated: Vec<(String, Vec<(u64, i64)>)>,
}

const BASE_TIME: i64 = 1_577_836_800; // 2020-01-01

struct Request {
    id: u64,
    timestamp: i64,
    url: String,
}

/// The ids, timestamps and URLs of all requests (without pages), for the
/// lookup benchmark's 83M rows as well as for segments.
pub struct Requests {
    rng: Rng,
    hosts: Vec<String>,
    content: Option<Content>,
    next_id: u64,
    urls: Vec<(String, i64)>,
    gap_rate: f64,
    repeat_rate: f64,
}

impl Requests {
    pub fn new(seed: u64, hosts: usize, first_id: u64, gap_rate: f64, repeat_rate: f64) -> Requests {
        let mut rng = Rng::from_parts(&[seed, 0xD0_3B]);
        let tlds = ["com", "org", "net", "de", "co.uk", "io", "fr", "jp"];
        let words = ["news", "forum", "shop", "blog", "wiki", "times", "daily", "board", "market", "chan", "post", "herald"];
        let hosts = (0..hosts.max(1))
            .map(|i| {
                let w = words[rng.below(words.len() as u64) as usize];
                let pre = ["www.", "", "m.", "boards."][rng.below(4) as usize];
                format!("{pre}{w}{i}.{}", tlds[rng.below(tlds.len() as u64) as usize])
            })
            .collect();
        Requests { rng, hosts, content: None, next_id: first_id, urls: Vec::new(), gap_rate, repeat_rate }
    }

    fn fresh_url(&mut self) -> String {
        let host = self.hosts[self.rng.below(self.hosts.len() as u64) as usize].clone();
        let scheme = if self.rng.chance(0.7) { "https" } else { "http" };
        let n = self.rng.below(1 << 30);
        match self.rng.below(4) {
            0 => format!("{scheme}://{host}/thread/{n}"),
            1 => format!("{scheme}://{host}/{}/res/{n}.html", ["b", "g", "pol", "v"][self.rng.below(4) as usize]),
            2 => format!("{scheme}://{host}/index.php?topic={n}&page={}", self.rng.below(20)),
            _ => format!("{scheme}://{host}/article/{}/{n}", 2015 + self.rng.below(10)),
        }
    }

    /// The next request; ids skip ahead by gaps.
    fn next(&mut self) -> Request {
        while self.rng.chance(self.gap_rate) {
            self.next_id += 1 + self.rng.below(3);
        }
        let id = self.next_id;
        self.next_id += 1;
        // Roughly one request per 2 seconds, with clock skew among nodes.
        let mut timestamp = BASE_TIME + (id as i64) * 2 + self.rng.below(600) as i64 - 300;
        let url = if !self.urls.is_empty() && self.rng.chance(self.repeat_rate) {
            let k = self.rng.below(self.urls.len().min(5000) as u64) as usize;
            let i = self.urls.len() - 1 - k;
            let (u, prev) = self.urls[i].clone();
            // A back-filled request: older than the version already seen.
            if self.rng.chance(0.35) {
                timestamp = prev - 1 - self.rng.below(86_400) as i64;
            } else if self.rng.chance(0.1) {
                timestamp = prev; // a tie: the greater id is the latest
            }
            u
        } else {
            self.fresh_url()
        };
        if self.urls.len() < 1 << 20 {
            self.urls.push((url.clone(), timestamp));
        } else {
            let k = self.rng.below(self.urls.len() as u64) as usize;
            self.urls[k] = (url.clone(), timestamp);
        }
        Request { id, timestamp, url }
    }

    /// Manifest rows only (length and md5 made up), for lookup tables.
    /// Returns the text of the rows with ids in [start, end).
    pub fn manifest_rows(&mut self, start: u64, end: u64, out: &mut String) {
        use std::fmt::Write as _;
        self.next_id = self.next_id.max(start);
        while self.next_id < end {
            let r = self.next();
            if r.id >= end {
                break;
            }
            let len = 2000 + self.rng.below(60000);
            let _ = writeln!(out, "{}\t{}\t{}\t{}\t{:016x}{:016x}", r.id, r.timestamp, r.url, len, self.rng.next_u64(), self.rng.next_u64());
        }
    }
}

fn page_html(content: &Content, rng: &mut Rng, url: &str, size: usize, out: &mut Vec<u8>) {
    let title = {
        let mut t = String::new();
        content.vocab.sentence(rng, &mut t);
        t.truncate(t.char_indices().nth(60).map(|(i, _)| i).unwrap_or(t.len()));
        t
    };
    let host = url.split('/').nth(2).unwrap_or("example.com").to_string();
    let links: Vec<String> = (0..4 + rng.below(12)).map(|_| format!("/{}/{}", content.vocab.rare(rng), rng.below(100000))).collect();
    let frame = HtmlFrame {
        title: &title,
        site_name: &host,
        lang: "en",
        stylesheets: &[format!("/static/{}.css", rng.below(50))],
        scripts: &[format!("/static/app.{}.js", rng.hex(8))],
        links: &links,
    };
    content.html_page(rng, size / 2, &frame, out);
    // Posts: free text is what makes real pages compress only ~6-10x.
    let mut text = String::with_capacity(size);
    while out.len() + text.len() < size {
        text.push_str("<div class=\"post\" id=\"p");
        text.push_str(&rng.below(1 << 40).to_string());
        text.push_str("\"><blockquote>");
        content.vocab.sentence(rng, &mut text);
        text.push(' ');
        content.vocab.sentence(rng, &mut text);
        text.push_str("</blockquote></div>\n");
    }
    // Before the closing tags, like a real thread page.
    let tail = out.split_off(out.len().saturating_sub(40));
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&tail);
}

fn to_crlf(page: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(page.len() + page.len() / 40);
    for &b in page {
        if b == b'\n' {
            v.push(b'\r');
        }
        v.push(b);
    }
    v
}

/// Generated files are reproducible, so an existing one is replaced; never
/// seen half-written.
fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path, true)?;
    f.write_all(bytes)?;
    f.commit()
}

fn xz_writer<W: Write>(w: W, opts: &Options) -> io::Result<liblzma::write::XzEncoder<W>> {
    // One block unless asked (as single-threaded `xz` writes); the threaded
    // encoder is the one that cuts a stream into blocks.
    let stream = if opts.block_size.is_none() && opts.threads <= 1 {
        liblzma::stream::Stream::new_easy_encoder(opts.xz_level, liblzma::stream::Check::Crc64).map_err(io::Error::other)?
    } else {
        let mut b = liblzma::stream::MtStreamBuilder::new();
        b.preset(opts.xz_level).threads(opts.threads.max(1)).check(liblzma::stream::Check::Crc64);
        b.block_size(opts.block_size.unwrap_or(0));
        b.encoder().map_err(io::Error::other)?
    };
    Ok(liblzma::write::XzEncoder::new_stream(w, stream))
}

fn file_md5(path: &Path) -> io::Result<(u64, String)> {
    use md5::{Digest, Md5};
    let mut h = Md5::new();
    let mut f = File::open(path)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut n = 0u64;
    loop {
        let k = io::Read::read(&mut f, &mut buf)?;
        if k == 0 {
            break;
        }
        n += k as u64;
        h.update(&buf[..k]);
    }
    Ok((n, crate::hex(&h.finalize())))
}

struct Planned {
    req: Request,
    page: Option<Vec<u8>>, // None: row with no page
    row: bool,
}

/// Writes `opts.segments` segments (data + manifest) and the master manifest into `dir`.
pub fn generate(dir: &Path, opts: &Options) -> io::Result<Report> {
    std::fs::create_dir_all(dir)?;
    let content = Content::new(opts.seed);
    let mut requests = Requests::new(opts.seed, opts.hosts, opts.first_id, opts.gap_rate, opts.repeat_rate);
    requests.content = None;
    let mut report = Report::default();
    let mut versions: std::collections::BTreeMap<String, Vec<(u64, i64)>> = Default::default();
    for s in 0..opts.segments {
        let start = opts.first_id + s as u64 * opts.ids_per_segment;
        let end = start + opts.ids_per_segment;
        let name = SegmentName { kind: crate::names::Kind::Data, start, end };
        let mut seg = SegmentReport { data: dir.join(name.data_name()), manifest: dir.join(name.manifest_name()), start, end, ..Default::default() };
        let mut rng = Rng::from_parts(&[opts.seed, s as u64, 0x5E6]);
        let bad: Vec<BadInput> = opts.bad.iter().enumerate().filter(|(i, _)| i % opts.segments.max(1) == s).map(|(_, b)| *b).collect();

        // Requests of this segment, then the pages.
        requests.next_id = requests.next_id.max(start);
        let mut planned: Vec<Planned> = Vec::new();
        while requests.next_id < end {
            let req = requests.next();
            if req.id >= end {
                break;
            }
            planned.push(Planned { req, page: None, row: true });
        }
        // Where each bad input goes: distinct pages away from the ends.
        let n = planned.len();
        let mut used = std::collections::HashSet::new();
        let mut pick = |rng: &mut Rng| -> usize {
            loop {
                let i = 1 + rng.below((n.max(3) - 2) as u64) as usize;
                if used.insert(i) {
                    return i;
                }
            }
        };
        let mut plant: std::collections::HashMap<usize, BadInput> = Default::default();
        for b in &bad {
            if !matches!(b, BadInput::TruncatedXz | BadInput::NonHtmlEntry | BadInput::ManifestHeaderDiffers | BadInput::IdOutOfRange) {
                plant.insert(pick(&mut rng), *b);
            }
        }
        if bad.contains(&BadInput::IdOutOfRange) {
            let id = end + 5;
            planned.push(Planned { req: Request { id, timestamp: BASE_TIME + id as i64 * 2, url: "http://out-of-range.example/page".into() }, page: None, row: true });
            seg.planted.push((BadInput::IdOutOfRange, Some(id)));
        }
        let non_html_after = bad.contains(&BadInput::NonHtmlEntry).then(|| pick(&mut rng));

        let mut manifest = String::from(if bad.contains(&BadInput::ManifestHeaderDiffers) { "id\ttime\turl\tsize\tmd5" } else { HEADER });
        manifest.push('\n');
        if bad.contains(&BadInput::ManifestHeaderDiffers) {
            seg.planted.push((BadInput::ManifestHeaderDiffers, None));
        }
        let mut body = Vec::new();
        for (i, p) in planned.iter_mut().enumerate() {
            let id = p.req.id;
            let size = (rng.log_normal(opts.page_bytes as f64, 0.6) as usize).clamp(300, opts.page_bytes * 20);
            body.clear();
            page_html(&content, &mut rng, &p.req.url, size, &mut body);
            if rng.chance(opts.crlf_rate) {
                body = to_crlf(&body);
                seg.crlf_ids.push(id);
            }
            let what = plant.get(&i).copied();
            if what == Some(BadInput::NonUtf8) {
                body.extend_from_slice(b"<p>caf\xe9 \xff\xfe</p>\n");
            }
            let md5 = crate::md5_hex(&body);
            let length = body.len();
            use std::fmt::Write as _;
            let _ = writeln!(manifest, "{}\t{}\t{}\t{}\t{}", id, p.req.timestamp, p.req.url, length, md5);
            // Damage after the row is written: the row keeps the true values.
            if what.is_none() && rng.chance(opts.bad_md5_rate) {
                let k = body.len() / 2;
                body[k] = if body[k] == b'x' { b'y' } else { b'x' };
                seg.bad_md5_ids.push(id);
            } else if what.is_none() && rng.chance(opts.bad_length_rate) {
                body.truncate(body.len() - body.len() / 10 - 1);
                seg.bad_length_ids.push(id);
            }
            let mut page = match what {
                Some(BadInput::MissingHeader) => Vec::new(),
                Some(BadInput::MalformedHeader) => format!("<!-- {} {} -->\n", p.req.timestamp, p.req.url).into_bytes(),
                _ => header_line(p.req.timestamp, &p.req.url).into_bytes(),
            };
            page.extend_from_slice(&body);
            match what {
                Some(BadInput::PageNotInManifest) => {
                    // Take the row back out.
                    let cut = manifest[..manifest.len() - 1].rfind('\n').unwrap() + 1;
                    manifest.truncate(cut);
                    p.row = false;
                    p.page = Some(page);
                }
                Some(BadInput::RowWithNoPage) => p.page = None,
                _ => p.page = Some(page),
            }
            if let Some(b) = what {
                seg.planted.push((b, Some(id)));
            }
            if p.row && p.page.is_some() && what.is_none() && id < end {
                versions.entry(p.req.url.clone()).or_default().push((id, p.req.timestamp));
            }
        }
        // Manifest file (xz) and the same bytes as the first tar entry.
        let mut mxz = xz_writer(Vec::new(), &Options { block_size: None, ..opts.clone() })?;
        mxz.write_all(manifest.as_bytes())?;
        let mxz = mxz.finish()?;
        write_whole(&seg.manifest, &mxz)?;
        seg.rows = manifest.lines().count() as u64 - 1;

        let mut data = AtomicFile::create(&seg.data, true)?;
        let file = BufWriter::with_capacity(1 << 20, data.file_mut().try_clone()?);
        let mut tar = TarWriter::new(xz_writer(file, opts)?);
        let mtime = (BASE_TIME + start as i64 * 2) as u64;
        tar.append(&name.manifest_name(), mtime, &mxz)?;
        let mut uncompressed = 512 + mxz.len() as u64;
        for (i, p) in planned.iter().enumerate() {
            if let Some(page) = &p.page {
                tar.append(&format!("{}.html", p.req.id), mtime, page)?;
                seg.pages += 1;
                uncompressed += 512 + page.len() as u64;
            }
            if non_html_after == Some(i) {
                tar.append("notes.txt", mtime, b"crawler notes, not a page\n")?;
                seg.planted.push((BadInput::NonHtmlEntry, Some(p.req.id)));
            }
        }
        let xz = tar.finish()?;
        xz.finish()?.into_inner().map_err(|e| e.into_error())?;
        seg.uncompressed_bytes = uncompressed;
        if bad.contains(&BadInput::TruncatedXz) {
            let f = data.file_mut();
            let len = f.metadata()?.len();
            f.set_len(len * 6 / 10)?;
            seg.planted.push((BadInput::TruncatedXz, None));
        }
        data.commit()?;
        seg.data_bytes = std::fs::metadata(&seg.data)?.len();
        report.segments.push(seg);
    }
    report.repeated = versions.into_iter().filter(|(_, v)| v.len() > 1).collect();
    if opts.master {
        let path = dir.join("master_manifest.tsv");
        let mut text = String::from(MASTER_HEADER);
        text.push('\n');
        for seg in &report.segments {
            for (path, kind) in [(&seg.data, 'd'), (&seg.manifest, 'm')] {
                let (size, md5) = file_md5(path)?;
                let name = crate::names::base_name(path);
                text.push_str(&format!("{name}\t{kind}\t{}\t{}\t{size}\t{md5}\n", seg.start, seg.end));
            }
        }
        write_whole(&path, text.as_bytes())?;
        report.master = Some(path);
    }
    Ok(report)
}

/// Only manifest files (`manifest_*.tsv.xz`, no pages), for lookup-table
/// benchmarks at the dump's full size (830 x 100,000 rows). Returns the rows written.
pub fn generate_manifests(dir: &Path, opts: &Options) -> io::Result<u64> {
    std::fs::create_dir_all(dir)?;
    let mut requests = Requests::new(opts.seed, opts.hosts, opts.first_id, opts.gap_rate, opts.repeat_rate);
    let mut rows = 0u64;
    let mut text = String::new();
    for s in 0..opts.segments {
        let start = opts.first_id + s as u64 * opts.ids_per_segment;
        let end = start + opts.ids_per_segment;
        let name = SegmentName { kind: crate::names::Kind::Manifest, start, end };
        text.clear();
        text.push_str(HEADER);
        text.push('\n');
        requests.manifest_rows(start, end, &mut text);
        rows += text.lines().count() as u64 - 1;
        let mut w = xz_writer(BufWriter::new(AtomicFile::create(&dir.join(name.manifest_name()), true)?), &Options { block_size: None, ..opts.clone() })?;
        w.write_all(text.as_bytes())?;
        w.finish()?.into_inner().map_err(|e| e.into_error())?.commit()?;
    }
    Ok(rows)
}
