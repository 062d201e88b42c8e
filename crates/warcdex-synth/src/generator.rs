//! The crawl simulation of one file: which URL is captured when, with what
//! status and body, and which records describe it.

use crate::binary::{binary_body, pdf_body};
use crate::content::{Content, HtmlFrame, Kind};
use crate::crawl::{random_page_id, Site, HOME, ROBOTS};
use crate::http::{self, Framing, RequestHead, ResponseHead};
use crate::rng::Rng;
use crate::time::Timestamp;
use crate::warc_writer::{sha1_label, ArchiveWriter, Exchange, Extra, FileHeader, RefersTo};
use crate::Options;
use std::collections::BTreeMap;
use std::io;

/// Share of captures that re-fetch a URL captured earlier in the file.
const RECRAWL_SHARE: f64 = 0.12;
/// Share of re-fetches whose payload is unchanged (→ revisit record).
const UNCHANGED_SHARE: f64 = 0.6;
/// How many earlier captures are remembered as re-crawl candidates.
const RECENT_CAP: usize = 4096;

/// Status mix of ordinary captures (re-crawls and redirect targets are 200).
#[rustfmt::skip]
const STATUSES: &[(u16, f64)] = &[
    (200, 0.815), (301, 0.030), (302, 0.035), (304, 0.020), (404, 0.050), (403, 0.015),
    (500, 0.010), (503, 0.006), (204, 0.004), (401, 0.004), (410, 0.003), (307, 0.004),
    (400, 0.004),
];

/// Shared, read-only parts of a collection: the simulated web and the text
/// pools. Built once per collection.
pub(crate) struct World {
    pub site: Site,
    pub content: Content,
}

impl World {
    pub fn new(opts: &Options) -> World {
        World {
            site: Site::new(opts.seed, opts.hosts),
            content: Content::new(opts.seed),
        }
    }
}

/// An earlier 200 capture, kept so it can be re-crawled.
struct Past {
    host: usize,
    page: u64,
    url: String,
    date: Timestamp,
    response_id: String,
    payload_digest: String,
    content_type: Option<String>,
    content_seed: u64,
    size: usize,
    body_len: usize,
    chunked: bool,
}

#[derive(Default)]
pub(crate) struct GenStats {
    pub captures: u64,
    pub statuses: BTreeMap<u16, u64>,
    pub mime_types: BTreeMap<String, u64>,
}

pub(crate) struct Generator<'a> {
    opts: &'a Options,
    world: &'a World,
    warc: bool,
    rng: Rng,
    t0: i64,
    t1: i64,
    last: Timestamp,
    target: u64,
    header_bytes: u64,
    payload_cap: usize,
    hosts_seen: Vec<bool>,
    recent: Vec<Past>,
    /// Redirect target to capture next: (host, page, referring URL).
    pending: Option<(usize, u64, String)>,
    body: Vec<u8>,
    wire: Vec<u8>,
    pub stats: GenStats,
}

/// What to fetch in one capture.
struct Fetch {
    host: usize,
    page: u64,
    status: Option<u16>,
    referer: Option<String>,
    /// Re-fetch of an unchanged document: same content seed and size.
    same_as: Option<usize>,
}

impl<'a> Generator<'a> {
    /// `stream` selects an independent random stream: the file index for
    /// real files, something else for dictionary-training samples.
    pub fn new(opts: &'a Options, world: &'a World, stream: u64, warc: bool) -> Generator<'a> {
        let files = opts.files.max(1) as i64;
        let span = opts.span_secs.max(1) as i64;
        let i = (stream % files as u64) as i64;
        let t0 = opts.start_unix_secs + span * i / files;
        let t1 = opts.start_unix_secs + span * (i + 1) / files;
        let target = opts.target_bytes.max(1);
        // A single huge payload should not swamp a small sample file.
        let payload_cap = opts.max_payload_bytes.min((target / 4).max(256 << 10)) as usize;
        Generator {
            opts,
            world,
            warc,
            rng: Rng::from_parts(&[opts.seed, stream, 0xF11E]),
            t0,
            t1,
            last: Timestamp { secs: t0, nanos: 0 },
            target,
            header_bytes: 0,
            payload_cap,
            hosts_seen: vec![false; world.site.hosts.len()],
            recent: Vec::new(),
            pending: None,
            body: Vec::new(),
            wire: Vec::new(),
            stats: GenStats::default(),
        }
    }

    pub fn run(
        &mut self,
        w: &mut impl ArchiveWriter,
        filename: &str,
        file_index: usize,
        v11: bool,
    ) -> io::Result<()> {
        let id = self.rng.uuid();
        let date = self.last;
        let version = match (self.warc, v11) {
            (false, _) => "ARC File Format 1.0",
            (true, false) => "WARC File Format 1.0",
            (true, true) => "WARC File Format 1.1",
        };
        let fields = [
            (
                "software",
                format!("warcdex-synth/{}", env!("CARGO_PKG_VERSION")),
            ),
            ("format", version.to_string()),
            ("isPartOf", self.opts.prefix.clone()),
            (
                "description",
                format!(
                    "Synthetic crawl (seed {}, file {} of {}, {} hosts)",
                    self.opts.seed, file_index, self.opts.files, self.opts.hosts
                ),
            ),
            ("robots", "obey".into()),
            ("http-header-user-agent", http::USER_AGENT.into()),
            ("operator", self.opts.organization.clone()),
        ];
        w.header(&FileHeader {
            filename,
            date,
            id: &id,
            fields: &fields,
        })?;
        // Progress is counted after the header, whose size depends on the
        // file name: so .warc and .warc.gz of one seed carry the same records.
        self.header_bytes = w.uncompressed();
        while self.stats.captures == 0 || self.written(w) < self.target {
            self.step(w)?;
        }
        Ok(())
    }

    /// Capture time: proportional to the file's progress through its share
    /// of the collection's time span, never going backwards.
    fn tick(&mut self, progress: f64) -> Timestamp {
        let planned = self.t0 + ((self.t1 - self.t0) as f64 * progress.min(1.0)) as i64;
        let secs = planned.max(self.last.secs) + self.rng.below(3) as i64;
        self.last = Timestamp {
            secs,
            nanos: self.rng.below(1_000_000_000) as u32,
        };
        self.last
    }

    fn written(&self, w: &impl ArchiveWriter) -> u64 {
        w.uncompressed() - self.header_bytes
    }

    fn step(&mut self, w: &mut impl ArchiveWriter) -> io::Result<()> {
        let date = self.tick(self.written(w) as f64 / self.target as f64);
        if let Some((host, page, referer)) = self.pending.take() {
            let f = Fetch {
                host,
                page,
                status: Some(200),
                referer: Some(referer),
                same_as: None,
            };
            return self.capture(w, f, date);
        }
        if !self.recent.is_empty() && self.rng.chance(RECRAWL_SHARE) {
            let i = self.rng.below(self.recent.len() as u64) as usize;
            let (host, page) = (self.recent[i].host, self.recent[i].page);
            let same_as = if self.rng.chance(UNCHANGED_SHARE) {
                Some(i)
            } else {
                None
            };
            if let (Some(i), true) = (same_as, self.warc) {
                return self.revisit(w, i, date);
            }
            return self.capture(
                w,
                Fetch {
                    host,
                    page,
                    status: Some(200),
                    referer: None,
                    same_as,
                },
                date,
            );
        }
        let host = self.world.site.pick_host(&mut self.rng);
        let mut date = date;
        if !self.hosts_seen[host] {
            // A crawler's first contact with a host: DNS lookup, robots.txt.
            self.hosts_seen[host] = true;
            self.dns(w, host, date)?;
            let robots = if self.rng.chance(0.7) { 200 } else { 404 };
            date.secs += 1;
            self.capture(
                w,
                Fetch {
                    host,
                    page: ROBOTS,
                    status: Some(robots),
                    referer: None,
                    same_as: None,
                },
                date,
            )?;
            date.secs += 1;
        }
        let home = self.world.site.url(&self.world.site.page(host, HOME), None);
        let (page, referer) = if self.rng.chance(0.08) {
            (HOME, None)
        } else {
            (
                random_page_id(&mut self.rng),
                if self.rng.chance(0.6) {
                    Some(home)
                } else {
                    None
                },
            )
        };
        self.capture(
            w,
            Fetch {
                host,
                page,
                status: None,
                referer,
                same_as: None,
            },
            date,
        )
    }

    fn dns(&mut self, w: &mut impl ArchiveWriter, h: usize, date: Timestamp) -> io::Result<()> {
        let host = self.world.site.host(h);
        let body = format!(
            "{}\n{}.\t{}\tIN\tA\t{}\n",
            date.digits14(),
            host.name,
            self.rng.pick(&[60, 300, 3600, 86400]),
            host.ip_string()
        );
        let id = self.rng.uuid();
        w.resource(&Extra {
            uri: &format!("dns:{}", host.name),
            date,
            id: &id,
            content_type: "text/dns",
            body: body.as_bytes(),
            concurrent_to: None,
        })
    }

    /// Payload bytes of a document; depends only on `seed`, so an unchanged
    /// document can be regenerated byte for byte. Returns the outlinks.
    fn make_body(
        &mut self,
        host: usize,
        kind: Kind,
        seed: u64,
        size: usize,
    ) -> Vec<(String, String)> {
        let world = self.world;
        let mut r = Rng::new(seed);
        self.body.clear();
        match kind {
            Kind::Html => {
                let links = world.site.outlinks(host, &mut r);
                let hrefs: Vec<String> = links.iter().map(|l| l.0.clone()).collect();
                let mut assets = Rng::from_parts(&[self.opts.seed, host as u64, 0xA55E7]);
                let css = vec![format!(
                    "/static/css/{}.{}.css",
                    world.content.vocab.rare(&mut assets),
                    assets.hex(8)
                )];
                let js = vec![
                    format!(
                        "/static/js/{}.{}.js",
                        world.content.vocab.rare(&mut assets),
                        assets.hex(8)
                    ),
                    "/static/js/vendor.min.js".to_string(),
                ];
                let words = 2 + r.below(5) as usize;
                let title = world.content.vocab.title(&mut r, words);
                let h = world.site.host(host);
                let frame = HtmlFrame {
                    title: &title,
                    site_name: &h.site_name,
                    lang: h.lang,
                    stylesheets: &css,
                    scripts: &js,
                    links: &hrefs,
                };
                world
                    .content
                    .html_page(&mut r, size, &frame, &mut self.body);
                let origin = h.origin();
                let mut out = links;
                out.extend(
                    css.iter()
                        .chain(&js)
                        .map(|p| (p.clone(), format!("{origin}{p}"))),
                );
                out
            }
            Kind::Pdf => {
                pdf_body(&world.content.vocab, &mut r, size, &mut self.body);
                Vec::new()
            }
            Kind::Text if size < 2000 => {
                // robots.txt and similar small text files.
                let v = &world.content.vocab;
                let mut s = String::from("User-agent: *\n");
                for _ in 0..1 + r.below(8) {
                    s.push_str(&format!("Disallow: /{}/\n", v.rare(&mut r)));
                }
                s.push_str(&format!(
                    "\nSitemap: {}/sitemap.xml\n",
                    world.site.host(host).origin()
                ));
                self.body.extend_from_slice(s.as_bytes());
                Vec::new()
            }
            k if k.is_text() => {
                world.content.text_body(k, &mut r, size, &mut self.body);
                Vec::new()
            }
            k => {
                binary_body(k, &mut r, size, &mut self.body);
                Vec::new()
            }
        }
    }

    fn content_type(&mut self, kind: Kind) -> String {
        let mime = kind.mime();
        if !kind.is_text() {
            return mime.to_string();
        }
        let p = if kind == Kind::Html { 0.85 } else { 0.4 };
        if !self.rng.chance(p) {
            return mime.to_string();
        }
        match self.rng.below(10) {
            0..=5 => format!("{mime}; charset=utf-8"),
            6..=7 => format!("{mime}; charset=UTF-8"),
            8 => format!("{mime};charset=ISO-8859-1"),
            _ => format!("{mime}; charset=\"utf-8\""),
        }
    }

    fn pick_status(&mut self) -> u16 {
        let weights: Vec<f64> = STATUSES.iter().map(|s| s.1).collect();
        STATUSES[self.rng.weighted(&weights)].0
    }

    fn capture(&mut self, w: &mut impl ArchiveWriter, f: Fetch, date: Timestamp) -> io::Result<()> {
        let world = self.world;
        let site = &world.site;
        let page = site.page(f.host, f.page);
        let host = site.host(f.host);
        let url = site.url(&page, Some(&mut self.rng));
        let status = f.status.unwrap_or_else(|| self.pick_status());

        let (content_seed, size) = match f.same_as {
            Some(i) => (self.recent[i].content_seed, self.recent[i].size),
            None => {
                let jitter = 0.9 + 0.2 * self.rng.f64();
                (
                    self.rng.next_u64(),
                    ((page.base_size * jitter) as usize).clamp(16, self.payload_cap),
                )
            }
        };

        let mut location = None;
        let mut outlinks = Vec::new();
        let content_type: Option<String> = match status {
            200 => {
                outlinks = self.make_body(f.host, page.kind, content_seed, size);
                Some(self.content_type(page.kind))
            }
            204 | 304 => {
                self.body.clear();
                None
            }
            301 | 302 | 307 => {
                let target = random_page_id(&mut self.rng);
                let abs = site.url(&site.page(f.host, target), None);
                // Relative Location values are legal (RFC 9110) and common.
                let loc = if self.rng.chance(0.2) {
                    site.page(f.host, target).path
                } else {
                    abs
                };
                self.body.clear();
                let mut r = Rng::new(content_seed);
                world.content.status_page(
                    &mut r,
                    status,
                    http::reason(status),
                    Some(&loc),
                    &mut self.body,
                );
                location = Some(loc);
                self.pending = Some((f.host, target, url.clone()));
                Some("text/html; charset=iso-8859-1".to_string())
            }
            _ => {
                self.body.clear();
                let mut r = Rng::new(content_seed);
                world.content.status_page(
                    &mut r,
                    status,
                    http::reason(status),
                    None,
                    &mut self.body,
                );
                Some(
                    if self.rng.chance(0.5) {
                        "text/html; charset=utf-8"
                    } else {
                        "text/html"
                    }
                    .to_string(),
                )
            }
        };

        let chunked = !self.body.is_empty() && self.rng.chance(self.opts.chunked_share);
        self.wire.clear();
        if chunked {
            http::chunk(&mut self.rng, &self.body, &mut self.wire);
        } else {
            self.wire.extend_from_slice(&self.body);
        }
        let framing = match (chunked, http::bodiless(status)) {
            (true, _) => Framing::Chunked,
            (false, true) => Framing::None,
            (false, false) => Framing::Length(self.wire.len()),
        };
        let response_head = http::response_head(
            &mut self.rng,
            host,
            &ResponseHead {
                status,
                date,
                content_type: content_type.as_deref(),
                framing,
                location: location.as_deref(),
                cacheable: page.kind != Kind::Html,
            },
        );
        // The payload digest covers the entity body exactly as stored,
        // i.e. still chunked when the transfer was chunked.
        let payload_digest = sha1_label(&[&self.wire]);

        let ip = host.ip_string();
        let mut request = Vec::new();
        let (request_id, response_id) = if self.warc {
            (self.rng.uuid(), self.rng.uuid())
        } else {
            Default::default()
        };
        if self.warc {
            request = self.request(
                f.host,
                &page,
                &url,
                f.referer.as_deref(),
                (status == 304).then_some(date),
            );
        }
        w.exchange(&Exchange {
            url: &url,
            ip: &ip,
            date,
            request: &request,
            request_id: &request_id,
            response_id: &response_id,
            response_head: &response_head,
            body: &self.wire,
            payload_digest: &payload_digest,
            content_type: content_type.as_deref(),
            refers_to: None,
        })?;
        self.count(status, content_type.as_deref());

        if self.warc && status == 200 && page.kind == Kind::Html {
            if self.rng.chance(0.6) {
                self.metadata(w, &url, &response_id, f.referer.as_deref(), &outlinks, date)?;
            }
            if self.rng.chance(0.03) {
                self.screenshot(w, &url, &response_id, date)?;
            }
        }

        if status == 200 && !page.post {
            let past = Past {
                host: f.host,
                page: f.page,
                url,
                date,
                response_id,
                payload_digest,
                content_type,
                content_seed,
                size,
                body_len: self.body.len(),
                chunked,
            };
            match f.same_as {
                Some(i) => self.recent[i] = past,
                None if self.recent.len() < RECENT_CAP => self.recent.push(past),
                None => {
                    let i = self.rng.below(RECENT_CAP as u64) as usize;
                    self.recent[i] = past;
                }
            }
        }
        Ok(())
    }

    /// Re-fetch with an identical payload: request + revisit record with the
    /// new response's headers only.
    fn revisit(&mut self, w: &mut impl ArchiveWriter, i: usize, date: Timestamp) -> io::Result<()> {
        let site = &self.world.site;
        let page = site.page(self.recent[i].host, self.recent[i].page);
        let host = site.host(page.host);
        let url = site.url(&page, Some(&mut self.rng));
        let past = &self.recent[i];
        let framing = if past.chunked {
            Framing::Chunked
        } else {
            Framing::Length(past.body_len)
        };
        let ct = past.content_type.clone();
        let head = http::response_head(
            &mut self.rng,
            host,
            &ResponseHead {
                status: 200,
                date,
                content_type: ct.as_deref(),
                framing,
                location: None,
                cacheable: page.kind != Kind::Html,
            },
        );
        let request = self.request(page.host, &page, &url, None, None);
        let (request_id, response_id) = (self.rng.uuid(), self.rng.uuid());
        let past = &self.recent[i];
        w.exchange(&Exchange {
            url: &url,
            ip: &host.ip_string(),
            date,
            request: &request,
            request_id: &request_id,
            response_id: &response_id,
            response_head: &head,
            body: &[],
            payload_digest: &past.payload_digest,
            content_type: ct.as_deref(),
            refers_to: Some(RefersTo {
                uri: &past.url,
                date: past.date,
                record_id: &past.response_id,
            }),
        })?;
        self.stats.captures += 1;
        Ok(())
    }

    fn request(
        &mut self,
        h: usize,
        page: &crate::crawl::Page,
        url: &str,
        referer: Option<&str>,
        ims: Option<Timestamp>,
    ) -> Vec<u8> {
        let host = self.world.site.host(h);
        // Origin-form target: everything after scheme://authority.
        let target = &url[host.origin().len()..];
        let v = &self.world.content.vocab;
        let r = &mut self.rng;
        let body: Option<(&str, String)> = if page.post {
            Some(match page.path.as_str() {
                "/search" => (
                    "application/x-www-form-urlencoded",
                    format!("q={}+{}&lang=en", v.rare(r), v.rare(r)),
                ),
                "/login" => (
                    "application/x-www-form-urlencoded",
                    format!(
                        "username={}&password=correct%20horse&remember=on&csrf_token={}",
                        v.rare(r),
                        r.token(32)
                    ),
                ),
                "/api/contact" => {
                    let mut msg = String::new();
                    v.sentence(r, &mut msg);
                    ("application/json", format!("{{\"name\":\"{}\",\"email\":\"{}@example.org\",\"message\":\"{msg}\"}}", v.title(r, 2), v.rare(r)))
                }
                _ => (
                    "application/x-www-form-urlencoded",
                    format!(
                        "item={}&qty={}&csrf_token={}",
                        r.below(100_000),
                        r.range(1, 5),
                        r.token(32)
                    ),
                ),
            })
        } else {
            None
        };
        let if_modified_since = ims.map(|t| Timestamp {
            secs: t.secs - 86_400 * (1 + r.below(90)) as i64,
            nanos: 0,
        });
        let mut out = http::request_head(
            r,
            &RequestHead {
                method: if page.post { "POST" } else { "GET" },
                target,
                host,
                referer,
                if_modified_since,
                body: body.as_ref().map(|(ct, b)| (*ct, b.len())),
            },
        );
        if let Some((_, b)) = body {
            out.extend_from_slice(b.as_bytes());
        }
        out
    }

    /// Heritrix-style crawl metadata: how the URL was found, what it links to.
    fn metadata(
        &mut self,
        w: &mut impl ArchiveWriter,
        url: &str,
        response_id: &str,
        via: Option<&str>,
        outlinks: &[(String, String)],
        date: Timestamp,
    ) -> io::Result<()> {
        let mut s = String::new();
        if let Some(v) = via {
            s.push_str(&format!("via: {v}\r\n"));
        }
        s.push_str(&format!(
            "hopsFromSeed: {}\r\n",
            "L".repeat(1 + self.rng.below(3) as usize)
        ));
        s.push_str(&format!("fetchTimeMs: {}\r\n", 20 + self.rng.below(2000)));
        s.push_str("charsetForLinkExtraction: UTF-8\r\n");
        for (href, abs) in outlinks {
            let how = if href.ends_with(".css") {
                "E link/@href"
            } else if href.ends_with(".js") {
                "E script/@src"
            } else {
                "L a/@href"
            };
            s.push_str(&format!("outlink: {abs} {how}\r\n"));
        }
        let id = self.rng.uuid();
        w.metadata(&Extra {
            uri: url,
            date,
            id: &id,
            content_type: "application/warc-fields",
            body: s.as_bytes(),
            concurrent_to: Some(response_id),
        })
    }

    /// Browser-crawler style page screenshot (`urn:view:` like Browsertrix).
    fn screenshot(
        &mut self,
        w: &mut impl ArchiveWriter,
        url: &str,
        response_id: &str,
        date: Timestamp,
    ) -> io::Result<()> {
        let size = (self.rng.log_normal(150_000.0, 0.4) as usize).min(self.payload_cap);
        let mut img = Vec::with_capacity(size);
        binary_body(Kind::Png, &mut self.rng, size, &mut img);
        let id = self.rng.uuid();
        w.resource(&Extra {
            uri: &format!("urn:view:{url}"),
            date,
            id: &id,
            content_type: "image/png",
            body: &img,
            concurrent_to: Some(response_id),
        })
    }

    fn count(&mut self, status: u16, content_type: Option<&str>) {
        self.stats.captures += 1;
        *self.stats.statuses.entry(status).or_default() += 1;
        let mime = content_type
            .map(|c| c.split(';').next().unwrap_or("").trim().to_string())
            .unwrap_or_else(|| "-".into());
        *self.stats.mime_types.entry(mime).or_default() += 1;
    }
}
