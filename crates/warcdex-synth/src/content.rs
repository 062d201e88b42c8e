//! Payload bodies: MIME kinds, their size model, and cheap generators.
//!
//! Text is never produced word by word per payload. Instead, when a
//! generator is built, a few MiB of fragments (HTML blocks, CSS rules, JS
//! functions, JSON objects, prose paragraphs) are made from a Zipf-weighted
//! vocabulary; a payload is then a small per-capture frame around a
//! contiguous slice of that pool, i.e. mostly `memcpy`. The pool is far
//! larger than deflate's 32 KiB window, so compressibility comes from the
//! text's own statistics, not from repeats, which keeps HTML near the 4:1
//! gzip ratio seen in real crawls. Binary kinds are a valid-looking magic
//! header followed by random bytes (incompressible, like real JPEG/PNG data).

use crate::rng::{Cumulative, Rng};
use std::fmt::Write as _;

/// MIME kinds of captured documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Html,
    Css,
    Js,
    Json,
    Text,
    Xml,
    Svg,
    Jpeg,
    Png,
    Gif,
    Webp,
    Ico,
    Woff2,
    Pdf,
    Mp4,
    Zip,
}

/// Static facts about a kind: how often pages of this kind occur (share of
/// URLs), and the log-normal size model (median bytes, shape).
pub struct KindSpec {
    pub kind: Kind,
    pub mime: &'static str,
    pub ext: &'static str,
    pub weight: f64,
    pub median: f64,
    pub sigma: f64,
}

/// Roughly the mix of a broad crawl that also fetches page requisites.
pub const KINDS: &[KindSpec] = &[
    KindSpec { kind: Kind::Html, mime: "text/html", ext: "html", weight: 0.40, median: 28_000.0, sigma: 0.9 },
    KindSpec { kind: Kind::Css, mime: "text/css", ext: "css", weight: 0.06, median: 9_000.0, sigma: 1.1 },
    KindSpec { kind: Kind::Js, mime: "application/javascript", ext: "js", weight: 0.10, median: 18_000.0, sigma: 1.3 },
    KindSpec { kind: Kind::Json, mime: "application/json", ext: "json", weight: 0.06, median: 2_500.0, sigma: 1.4 },
    KindSpec { kind: Kind::Text, mime: "text/plain", ext: "txt", weight: 0.02, median: 3_000.0, sigma: 1.3 },
    KindSpec { kind: Kind::Xml, mime: "application/rss+xml", ext: "xml", weight: 0.01, median: 12_000.0, sigma: 1.0 },
    KindSpec { kind: Kind::Svg, mime: "image/svg+xml", ext: "svg", weight: 0.02, median: 4_000.0, sigma: 1.0 },
    KindSpec { kind: Kind::Jpeg, mime: "image/jpeg", ext: "jpg", weight: 0.13, median: 40_000.0, sigma: 1.2 },
    KindSpec { kind: Kind::Png, mime: "image/png", ext: "png", weight: 0.09, median: 9_000.0, sigma: 1.4 },
    KindSpec { kind: Kind::Gif, mime: "image/gif", ext: "gif", weight: 0.03, median: 3_000.0, sigma: 1.5 },
    KindSpec { kind: Kind::Webp, mime: "image/webp", ext: "webp", weight: 0.015, median: 25_000.0, sigma: 1.0 },
    KindSpec { kind: Kind::Ico, mime: "image/x-icon", ext: "ico", weight: 0.01, median: 4_000.0, sigma: 0.8 },
    KindSpec { kind: Kind::Woff2, mime: "font/woff2", ext: "woff2", weight: 0.015, median: 30_000.0, sigma: 0.6 },
    KindSpec { kind: Kind::Pdf, mime: "application/pdf", ext: "pdf", weight: 0.02, median: 250_000.0, sigma: 1.3 },
    KindSpec { kind: Kind::Mp4, mime: "video/mp4", ext: "mp4", weight: 0.003, median: 3_000_000.0, sigma: 1.0 },
    KindSpec { kind: Kind::Zip, mime: "application/zip", ext: "zip", weight: 0.002, median: 800_000.0, sigma: 1.3 },
];

impl Kind {
    pub fn spec(self) -> &'static KindSpec {
        KINDS.iter().find(|s| s.kind == self).expect("every kind has a spec")
    }

    pub fn mime(self) -> &'static str {
        self.spec().mime
    }

    /// Text kinds get `; charset=` parameters and compress well.
    pub fn is_text(self) -> bool {
        matches!(
            self,
            Kind::Html | Kind::Css | Kind::Js | Kind::Json | Kind::Text | Kind::Xml | Kind::Svg
        )
    }
}

/// The most frequent English words, so generated prose has a realistic head
/// of the Zipf curve; the tail is made of pseudo-words (see `Vocab::new`).
const COMMON: &[&str] = &[
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
    "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
    "an", "they", "you", "were", "her", "she", "there", "would", "their", "we", "him", "been",
    "has", "when", "who", "will", "more", "no", "if", "out", "so", "said", "what", "up", "its",
    "about", "into", "than", "them", "can", "only", "other", "new", "some", "could", "time",
    "these", "two", "may", "then", "do", "first", "any", "my", "now", "such", "like", "our",
    "over", "man", "me", "even", "most", "made", "after", "also", "did", "many", "before",
    "must", "through", "back", "years", "where", "much", "your", "way", "well", "down",
    "should", "because", "each", "just", "those", "people", "how", "too", "little", "state",
    "good", "very", "make", "world", "still", "own", "see", "men", "work", "long", "get",
    "here", "between", "both", "life", "being", "under", "never", "day", "same", "another",
    "know", "while", "last", "might", "us", "great", "old", "year", "off", "come", "since",
    "against", "go", "came", "right", "used", "take", "three", "news", "page", "home", "search",
    "contact", "about", "service", "product", "information", "data", "report", "city",
    "school", "program", "research", "public", "market", "health", "water", "music", "video",
];

const ONSETS: &[&str] = &[
    "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "st",
    "tr", "pl", "gr", "br", "ch", "sh", "th", "cl", "fr", "sp",
];
const NUCLEI: &[&str] = &["a", "e", "i", "o", "u", "ea", "ai", "ou", "io", "y"];
const CODAS: &[&str] = &["", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ck", "ng", "x"];

/// Word list with Zipf-distributed frequencies.
pub struct Vocab {
    words: Vec<String>,
    zipf: Cumulative,
}

impl Vocab {
    pub fn new(rng: &mut Rng, size: usize) -> Vocab {
        let mut words: Vec<String> = COMMON.iter().map(|w| w.to_string()).collect();
        let mut seen: std::collections::HashSet<String> = words.iter().cloned().collect();
        while words.len() < size {
            let syllables = 1 + rng.below(3) as usize + rng.below(2) as usize;
            let mut w = String::new();
            for _ in 0..syllables {
                w.push_str(rng.pick(ONSETS));
                w.push_str(rng.pick(NUCLEI));
                w.push_str(rng.pick(CODAS));
            }
            if seen.insert(w.clone()) {
                words.push(w);
            }
        }
        // s slightly above 1 keeps the head heavy, as in natural language.
        let zipf = Cumulative::zipf(words.len(), 1.05);
        Vocab { words, zipf }
    }

    pub fn word(&self, rng: &mut Rng) -> &str {
        &self.words[self.zipf.sample(rng)]
    }

    /// A word from the long tail only: path segments and class names look
    /// better without "the"/"of".
    pub fn rare(&self, rng: &mut Rng) -> &str {
        let start = COMMON.len().min(self.words.len() - 1);
        &self.words[start + rng.below((self.words.len() - start) as u64) as usize]
    }

    pub fn sentence(&self, rng: &mut Rng, out: &mut String) {
        let n = 6 + rng.below(18);
        for i in 0..n {
            let w = self.word(rng);
            if i == 0 {
                let mut c = w.chars();
                if let Some(f) = c.next() {
                    out.extend(f.to_uppercase());
                    out.push_str(c.as_str());
                }
            } else {
                out.push(' ');
                out.push_str(w);
                if i + 1 < n && rng.chance(0.06) {
                    out.push(',');
                }
            }
        }
        out.push('.');
    }

    pub fn title(&self, rng: &mut Rng, words: usize) -> String {
        let mut s = String::new();
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            let w = self.rare(rng);
            let mut c = w.chars();
            if let Some(f) = c.next() {
                s.extend(f.to_uppercase());
                s.push_str(c.as_str());
            }
        }
        s
    }
}

/// A large buffer of self-contained text fragments; payloads copy runs of
/// whole fragments out of it.
pub struct Pool {
    data: Vec<u8>,
    /// Start offset of each fragment, plus `data.len()` at the end.
    bounds: Vec<usize>,
}

impl Pool {
    fn build(target: usize, mut fragment: impl FnMut(&mut String)) -> Pool {
        let mut data = String::with_capacity(target + 4096);
        let mut bounds = vec![0];
        while data.len() < target {
            fragment(&mut data);
            bounds.push(data.len());
        }
        Pool { data: data.into_bytes(), bounds }
    }

    /// Appends roughly `want` bytes of whole fragments, starting at a random
    /// fragment and wrapping around the pool if needed.
    pub fn append(&self, rng: &mut Rng, want: usize, out: &mut Vec<u8>) {
        let nfrag = self.bounds.len() - 1;
        let mut frag = rng.below(nfrag as u64) as usize;
        let mut remaining = want;
        while remaining > 0 {
            let start = self.bounds[frag];
            // First fragment boundary at or past start + remaining.
            let end_idx = self.bounds.partition_point(|&b| b < start + remaining);
            let end = if end_idx >= self.bounds.len() { self.data.len() } else { self.bounds[end_idx] };
            out.extend_from_slice(&self.data[start..end]);
            remaining = remaining.saturating_sub(end - start);
            frag = 0;
        }
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }
}

/// Everything the page generators need besides per-capture randomness.
pub struct Content {
    pub vocab: Vocab,
    prose: Pool,
    html: Pool,
    css: Pool,
    js: Pool,
    json: Pool,
    xml: Pool,
    svg: Pool,
}

/// Per-capture HTML frame: what differs between pages of a site.
pub struct HtmlFrame<'a> {
    pub title: &'a str,
    pub site_name: &'a str,
    pub lang: &'a str,
    pub stylesheets: &'a [String],
    pub scripts: &'a [String],
    pub links: &'a [String],
}

fn capitalized(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

impl Content {
    /// Builds all pools (about 7.5 MiB of text; tens of milliseconds).
    pub fn new(seed: u64) -> Content {
        let mut rng = Rng::from_parts(&[seed, 0xC0_47E7]);
        let vocab = Vocab::new(&mut rng, 6000);
        let v = &vocab;
        let mut r = rng.clone();

        let prose = Pool::build(1 << 20, |s| {
            for _ in 0..2 + r.below(6) {
                v.sentence(&mut r, s);
                s.push(' ');
            }
            s.pop();
            s.push_str("\n\n");
        });
        let html = Pool::build(4 << 20, |s| html_fragment(v, &mut r, s));
        let css = Pool::build(512 << 10, |s| css_fragment(v, &mut r, s));
        let js = Pool::build(1 << 20, |s| js_fragment(v, &mut r, s));
        let json = Pool::build(512 << 10, |s| json_fragment(v, &mut r, s));
        let xml = Pool::build(256 << 10, |s| xml_fragment(v, &mut r, s));
        let svg = Pool::build(256 << 10, |s| {
            let _ = writeln!(
                s,
                "  <path d=\"M{} {}L{} {}C{} {} {} {} {} {}Z\" fill=\"#{}\" stroke-width=\"{}\"/>",
                r.below(512), r.below(512), r.below(512), r.below(512), r.below(512),
                r.below(512), r.below(512), r.below(512), r.below(512), r.below(512),
                r.hex(6), 1 + r.below(3)
            );
        });
        Content { vocab, prose, html, css, js, json, xml, svg }
    }

    pub fn pool_bytes(&self) -> usize {
        [&self.prose, &self.html, &self.css, &self.js, &self.json, &self.xml, &self.svg]
            .iter()
            .map(|p| p.len())
            .sum()
    }

    /// Body of an HTML page of about `size` bytes.
    pub fn html_page(&self, rng: &mut Rng, size: usize, f: &HtmlFrame, out: &mut Vec<u8>) {
        let mut head = String::with_capacity(4096);
        let _ = write!(
            head,
            "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{} | {}</title>\n<meta name=\"description\" content=\"",
            f.lang, f.title, f.site_name
        );
        self.vocab.sentence(rng, &mut head);
        head.push_str("\">\n");
        for css in f.stylesheets {
            let _ = writeln!(head, "<link rel=\"stylesheet\" href=\"{css}\">");
        }
        for js in f.scripts {
            let _ = writeln!(head, "<script src=\"{js}\" defer></script>");
        }
        let _ = write!(
            head,
            "</head>\n<body class=\"page\">\n<header class=\"site-header\">\n\
             <a class=\"brand\" href=\"/\">{}</a>\n<nav>\n<ul class=\"nav\">\n",
            f.site_name
        );
        // Outlinks go in the navigation and a "related" list so that the
        // metadata record's outlink lines match what the page really links.
        let split = f.links.len() / 2;
        for (i, link) in f.links.iter().enumerate() {
            if i == split {
                head.push_str("</ul>\n</nav>\n</header>\n<main>\n");
                let _ = writeln!(head, "<h1>{}</h1>", f.title);
                head.push_str("<ul class=\"related\">\n");
            }
            let _ = writeln!(
                head,
                "  <li><a href=\"{}\">{}</a></li>",
                link,
                capitalized(self.vocab.rare(rng))
            );
        }
        if split == f.links.len() {
            head.push_str("</ul>\n</nav>\n</header>\n<main>\n");
            let _ = writeln!(head, "<h1>{}</h1>", f.title);
        } else {
            head.push_str("</ul>\n");
        }
        let tail = format!(
            "</main>\n<footer class=\"site-footer\">\n<p>&copy; {} {}. All rights reserved.</p>\n\
             </footer>\n</body>\n</html>\n",
            2000 + rng.below(25),
            f.site_name
        );
        out.extend_from_slice(head.as_bytes());
        let body = size.saturating_sub(head.len() + tail.len());
        if body > 0 {
            self.html.append(rng, body, out);
        }
        out.extend_from_slice(tail.as_bytes());
    }

    /// Body of a textual non-HTML kind, about `size` bytes.
    pub fn text_body(&self, kind: Kind, rng: &mut Rng, size: usize, out: &mut Vec<u8>) {
        let (head, pool, tail): (String, &Pool, &str) = match kind {
            Kind::Css => (
                format!("@charset \"UTF-8\";\n/* {} theme */\n", self.vocab.title(rng, 2)),
                &self.css,
                "",
            ),
            Kind::Js => ("\"use strict\";\n(function (window, document) {\n".into(), &self.js, "})(window, document);\n"),
            Kind::Json => (
                format!("{{\"status\":\"ok\",\"page\":{},\"items\":[\n", 1 + rng.below(40)),
                &self.json,
                "{\"id\":0,\"end\":true}\n]}\n",
            ),
            Kind::Xml => (
                format!(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\">\n<channel>\n\
                     <title>{}</title>\n<link>/</link>\n",
                    self.vocab.title(rng, 3)
                ),
                &self.xml,
                "</channel>\n</rss>\n",
            ),
            Kind::Svg => (
                format!(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
                     viewBox=\"0 0 512 512\" width=\"{0}\" height=\"{0}\">\n",
                    16 << rng.below(5)
                ),
                &self.svg,
                "</svg>\n",
            ),
            _ => (String::new(), &self.prose, ""),
        };
        out.extend_from_slice(head.as_bytes());
        let body = size.saturating_sub(head.len() + tail.len());
        if body > 0 {
            pool.append(rng, body, out);
        }
        out.extend_from_slice(tail.as_bytes());
    }

    /// Small HTML document for redirects and error statuses.
    pub fn status_page(&self, rng: &mut Rng, code: u16, reason: &str, location: Option<&str>, out: &mut Vec<u8>) {
        let mut s = format!(
            "<!DOCTYPE html>\n<html>\n<head><title>{code} {reason}</title></head>\n<body>\n<h1>{reason}</h1>\n"
        );
        match location {
            Some(loc) => {
                let _ = writeln!(s, "<p>The document has moved <a href=\"{loc}\">here</a>.</p>");
            }
            None => {
                s.push_str("<p>");
                self.vocab.sentence(rng, &mut s);
                s.push_str("</p>\n");
            }
        }
        s.push_str("<hr>\n<address>Server at port 80</address>\n</body>\n</html>\n");
        out.extend_from_slice(s.as_bytes());
    }
}

/// Binary payload of about `size` bytes: magic numbers and a little
/// structure up front, random bytes for the bulk.
pub fn binary_body(kind: Kind, rng: &mut Rng, size: usize, out: &mut Vec<u8>) {
    let size = size.max(64);
    let start = out.len();
    let (head, tail): (Vec<u8>, &[u8]) = match kind {
        Kind::Jpeg => {
            let mut h = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
            h.extend_from_slice(b"JFIF\0\x01\x01\x00\x00\x48\x00\x48\x00\x00");
            h.extend_from_slice(&[0xFF, 0xDB, 0x00, 0x43, 0x00]);
            (h, &[0xFF, 0xD9])
        }
        Kind::Png => {
            let mut h = b"\x89PNG\r\n\x1a\n".to_vec();
            let mut ihdr = Vec::new();
            ihdr.extend_from_slice(&(16 + rng.below(2000) as u32).to_be_bytes());
            ihdr.extend_from_slice(&(16 + rng.below(2000) as u32).to_be_bytes());
            ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
            png_chunk(&mut h, b"IHDR", &ihdr);
            // IDAT length covers the random bytes that follow.
            let idat_len = size.saturating_sub(h.len() + 12 + 12) as u32;
            h.extend_from_slice(&idat_len.to_be_bytes());
            h.extend_from_slice(b"IDAT");
            (h, &[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82])
        }
        Kind::Gif => {
            let mut h = b"GIF89a".to_vec();
            h.extend_from_slice(&(1 + rng.below(800) as u16).to_le_bytes());
            h.extend_from_slice(&(1 + rng.below(600) as u16).to_le_bytes());
            h.extend_from_slice(&[0xF7, 0x00, 0x00]);
            (h, &[0x3B])
        }
        Kind::Webp => {
            let mut h = b"RIFF".to_vec();
            h.extend_from_slice(&(size as u32 - 8).to_le_bytes());
            h.extend_from_slice(b"WEBPVP8 ");
            (h, b"")
        }
        Kind::Ico => (vec![0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0], b""),
        Kind::Woff2 => (b"wOF2\x00\x01\x00\x00".to_vec(), b""),
        Kind::Mp4 => {
            let mut h = vec![0, 0, 0, 0x20];
            h.extend_from_slice(b"ftypisom\x00\x00\x02\x00isomiso2avc1mp41");
            h.extend_from_slice(&(size as u32 - 32).to_be_bytes());
            h.extend_from_slice(b"mdat");
            (h, b"")
        }
        Kind::Zip => (b"PK\x03\x04\x14\x00\x00\x00\x08\x00".to_vec(), b"PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00"),
        _ => (Vec::new(), b""),
    };
    out.extend_from_slice(&head);
    let bulk = size.saturating_sub(head.len() + tail.len());
    let at = out.len();
    out.resize(at + bulk, 0);
    rng.fill(&mut out[at..]);
    out.extend_from_slice(tail);
    debug_assert!(out.len() - start >= size.min(head.len() + tail.len()));
}

/// A PDF: text objects around streams of random (i.e. "Flate-compressed")
/// bytes, with an xref table and trailer so it looks like the real thing.
pub fn pdf_body(vocab: &Vocab, rng: &mut Rng, size: usize, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(b"%PDF-1.5\n%\xE2\xE3\xCF\xD3\n");
    let title = vocab.title(rng, 4);
    out.extend_from_slice(
        format!(
            "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n\
             3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n\
             5 0 obj\n<< /Title ({title}) /Producer (warcdex-synth) >>\nendobj\n"
        )
        .as_bytes(),
    );
    let mut obj = 6;
    let trailer_reserve = 200;
    while out.len() - start + trailer_reserve < size {
        let room = size - (out.len() - start) - trailer_reserve;
        let n = room.min(64 * 1024 + rng.below(64 * 1024) as usize);
        out.extend_from_slice(format!("{obj} 0 obj\n<< /Length {n} /Filter /FlateDecode >>\nstream\n").as_bytes());
        let at = out.len();
        out.resize(at + n, 0);
        rng.fill(&mut out[at..]);
        out.extend_from_slice(b"\nendstream\nendobj\n");
        obj += 1;
    }
    let xref = out.len() - start;
    out.extend_from_slice(
        format!("xref\n0 {obj}\n0000000000 65535 f \ntrailer\n<< /Size {obj} /Root 1 0 R /Info 5 0 R >>\nstartxref\n{xref}\n%%EOF\n")
            .as_bytes(),
    );
}

fn png_chunk(out: &mut Vec<u8>, ty: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(ty);
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(ty);
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
}

// ---- pool fragment makers (run once per generator) ------------------------

const CLASSES: &[&str] = &[
    "container", "row", "col-md-6", "col-lg-4", "card", "card-body", "btn", "btn-primary",
    "text-muted", "lead", "article", "teaser", "meta", "byline", "tag", "widget",
];

fn html_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    match r.below(20) {
        0..=9 => {
            s.push_str("<p>");
            for i in 0..1 + r.below(5) {
                if i > 0 {
                    s.push(' ');
                }
                if r.chance(0.35) {
                    let _ = write!(s, "<a href=\"/{}/{}-{}.html\">", v.rare(r), v.rare(r), v.rare(r));
                    v.sentence(r, s);
                    s.push_str("</a>");
                } else if r.chance(0.15) {
                    s.push_str("<strong>");
                    v.sentence(r, s);
                    s.push_str("</strong>");
                } else {
                    v.sentence(r, s);
                }
            }
            s.push_str("</p>\n");
        }
        10..=11 => {
            let _ = writeln!(s, "<h2 class=\"section-title\">{}</h2>", v.title(r, 2 + r.below(4) as usize));
        }
        12..=14 => {
            let _ = writeln!(s, "<ul class=\"{}\">", r.pick(CLASSES));
            for _ in 0..2 + r.below(8) {
                let w = v.rare(r);
                let _ = writeln!(s, "  <li><a href=\"/{}/{}/\">{}</a></li>", v.rare(r), w, capitalized(w));
            }
            s.push_str("</ul>\n");
        }
        15..=17 => {
            let _ = write!(
                s,
                "<div class=\"card {}\">\n  <img src=\"/images/{}-{}.jpg\" alt=\"{} {}\" width=\"{}\" height=\"{}\" loading=\"lazy\">\n  \
                 <div class=\"card-body\">\n    <h3 class=\"card-title\">{}</h3>\n    <p class=\"card-text\">",
                r.pick(CLASSES), v.rare(r), r.below(10_000), v.word(r), v.rare(r),
                100 * (1 + r.below(8)), 75 * (1 + r.below(8)), v.title(r, 3)
            );
            v.sentence(r, s);
            s.push_str("</p>\n  </div>\n</div>\n");
        }
        18 => {
            s.push_str("<table class=\"table\">\n<tr><th>Name</th><th>Value</th><th>Date</th></tr>\n");
            for _ in 0..2 + r.below(6) {
                let _ = writeln!(
                    s,
                    "<tr><td>{}</td><td>{}.{:02}</td><td>20{:02}-{:02}-{:02}</td></tr>",
                    capitalized(v.rare(r)), r.below(10_000), r.below(100),
                    r.range(10, 24), r.range(1, 12), r.range(1, 28)
                );
            }
            s.push_str("</table>\n");
        }
        _ => {
            s.push_str("<blockquote>");
            v.sentence(r, s);
            s.push_str("</blockquote>\n");
        }
    }
}

const CSS_PROPS: &[&str] = &[
    "margin", "padding", "width", "height", "font-size", "line-height", "border-radius", "top",
    "left", "max-width", "gap",
];
const CSS_KEYWORDS: &[(&str, &str)] = &[
    ("display", "flex"), ("display", "block"), ("display", "none"), ("position", "relative"),
    ("position", "absolute"), ("text-align", "center"), ("font-weight", "700"),
    ("overflow", "hidden"), ("cursor", "pointer"), ("box-sizing", "border-box"),
];

fn css_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    match r.below(3) {
        0 => { let _ = write!(s, ".{}-{}", v.rare(r), v.rare(r)); }
        1 => { let _ = write!(s, "#{} .{}", v.rare(r), r.pick(CLASSES)); }
        _ => { let _ = write!(s, "{} .{} a:hover", r.pick(&["div", "ul", "nav", "section", "p"]), v.rare(r)); }
    }
    s.push_str(" {\n");
    for _ in 0..2 + r.below(6) {
        match r.below(3) {
            0 => {
                let (k, val) = r.pick(CSS_KEYWORDS);
                let _ = writeln!(s, "  {k}: {val};");
            }
            1 => { let _ = writeln!(s, "  color: #{};", r.hex(6)); }
            _ => {
                let _ = writeln!(s, "  {}: {}px;", r.pick(CSS_PROPS), r.below(64) * 2);
            }
        }
    }
    s.push_str("}\n\n");
}

fn camel(v: &Vocab, r: &mut Rng) -> String {
    format!("{}{}", v.rare(r), capitalized(v.rare(r)))
}

fn js_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    let name = camel(v, r);
    let (a, b) = (v.rare(r).to_string(), v.rare(r).to_string());
    if r.chance(0.3) {
        // Minified style: one dense line.
        let _ = writeln!(
            s,
            "var {name}=function(e,t){{var n=e.{}||{},r=t.{};if(n>{}){{return r.{}(n,\"{}\")}}for(var i=0;i<e.length;i++){{r.push(e[i].{})}}return r}};",
            v.rare(r), r.below(100), v.rare(r), r.below(1000), camel(v, r), v.rare(r), v.rare(r)
        );
        return;
    }
    let _ = writeln!(s, "  function {name}({a}, {b}) {{");
    for _ in 0..1 + r.below(4) {
        match r.below(3) {
            0 => { let _ = writeln!(s, "    var {} = {a}.{} || {};", v.rare(r), v.rare(r), r.below(100)); }
            1 => {
                let _ = writeln!(s, "    if ({a}.length > {}) {{\n      {b}.{}(\"{} {}\");\n    }}", r.below(50), camel(v, r), v.word(r), v.word(r));
            }
            _ => {
                let _ = writeln!(s, "    for (var i = 0; i < {a}.length; i++) {{\n      {b}.push({a}[i].{});\n    }}", v.rare(r));
            }
        }
    }
    let _ = writeln!(s, "    return {b};\n  }}\n  window.{name} = {name};\n");
}

fn json_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    let _ = write!(
        s,
        "{{\"id\":{},\"slug\":\"{}-{}\",\"title\":\"{}\",\"published\":\"20{:02}-{:02}-{:02}T{:02}:{:02}:00Z\",\
         \"score\":{}.{:03},\"tags\":[\"{}\",\"{}\"],\"url\":\"/{}/{}\",\"summary\":\"",
        r.below(1_000_000), v.rare(r), v.rare(r), v.title(r, 3), r.range(12, 24), r.range(1, 12),
        r.range(1, 28), r.below(24), r.below(60), r.below(100), r.below(1000), v.rare(r), v.rare(r),
        v.rare(r), v.rare(r)
    );
    v.sentence(r, s);
    s.push_str("\"},\n");
}

fn xml_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    let _ = write!(
        s,
        "<item>\n  <title>{}</title>\n  <link>/{}/{}.html</link>\n  <guid isPermaLink=\"false\">{}</guid>\n  <description>",
        v.title(r, 4), v.rare(r), v.rare(r), r.hex(16)
    );
    v.sentence(r, s);
    s.push_str("</description>\n</item>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_close_and_binary_magic() {
        let c = Content::new(1);
        let mut rng = Rng::new(9);
        for &size in &[100usize, 5_000, 200_000] {
            let mut out = Vec::new();
            c.text_body(Kind::Css, &mut rng, size, &mut out);
            assert!(out.len() >= size && out.len() < size + 8_000, "{size} -> {}", out.len());
        }
        let mut png = Vec::new();
        binary_body(Kind::Png, &mut rng, 5000, &mut png);
        assert_eq!(png.len(), 5000);
        assert!(png.starts_with(b"\x89PNG") && png.ends_with(b"IEND\xAE\x42\x60\x82"));
    }
}
