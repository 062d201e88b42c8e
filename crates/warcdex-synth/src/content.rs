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

use crate::fragments::{css_fragment, html_fragment, js_fragment, json_fragment, xml_fragment};
use crate::rng::Rng;
use crate::vocab::{capitalized, Vocab, VOCAB_SIZE};
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
#[rustfmt::skip]
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
    KindSpec { kind: Kind::Mp4, mime: "video/mp4", ext: "mp4", weight: 0.002, median: 2_000_000.0, sigma: 1.0 },
    KindSpec { kind: Kind::Zip, mime: "application/zip", ext: "zip", weight: 0.002, median: 800_000.0, sigma: 1.3 },
];

impl Kind {
    pub fn spec(self) -> &'static KindSpec {
        KINDS
            .iter()
            .find(|s| s.kind == self)
            .expect("every kind has a spec")
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
        Pool {
            data: data.into_bytes(),
            bounds,
        }
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
            let end = if end_idx >= self.bounds.len() {
                self.data.len()
            } else {
                self.bounds[end_idx]
            };
            out.extend_from_slice(&self.data[start..end]);
            remaining = remaining.saturating_sub(end - start);
            frag = 0;
        }
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

impl Content {
    /// Builds all pools (about 7.5 MiB of text; tens of milliseconds).
    pub fn new(seed: u64) -> Content {
        let mut rng = Rng::from_parts(&[seed, 0xC0_47E7]);
        let vocab = Vocab::new(&mut rng, VOCAB_SIZE);
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
            let _ =
                writeln!(
                s,
                "  <path d=\"M{} {}L{} {}C{} {} {} {} {} {}Z\" fill=\"#{}\" stroke-width=\"{}\"/>",
                r.below(512), r.below(512), r.below(512), r.below(512), r.below(512),
                r.below(512), r.below(512), r.below(512), r.below(512), r.below(512),
                r.hex(6), 1 + r.below(3)
            );
        });
        Content {
            vocab,
            prose,
            html,
            css,
            js,
            json,
            xml,
            svg,
        }
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
    pub fn status_page(
        &self,
        rng: &mut Rng,
        code: u16,
        reason: &str,
        location: Option<&str>,
        out: &mut Vec<u8>,
    ) {
        let mut s = format!(
            "<!DOCTYPE html>\n<html>\n<head><title>{code} {reason}</title></head>\n<body>\n<h1>{reason}</h1>\n"
        );
        match location {
            Some(loc) => {
                let _ = writeln!(
                    s,
                    "<p>The document has moved <a href=\"{loc}\">here</a>.</p>"
                );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::binary_body;

    /// Prints gzip ratios of generated text kinds (for tuning by hand):
    /// `cargo test -p warcdex-synth --release -- --ignored --nocapture ratios`
    #[test]
    #[ignore]
    fn ratios() {
        use std::io::Write;
        let c = Content::new(42);
        let mut rng = Rng::new(5);
        for kind in [
            Kind::Html,
            Kind::Text,
            Kind::Css,
            Kind::Js,
            Kind::Json,
            Kind::Xml,
            Kind::Svg,
        ] {
            let (mut raw, mut comp) = (0, 0);
            for _ in 0..200 {
                let mut out = Vec::new();
                let size = rng.log_normal(kind.spec().median, 0.5) as usize;
                if kind == Kind::Html {
                    let links: Vec<String> = (0..20)
                        .map(|i| {
                            format!(
                                "/{}/{}-{i}.html",
                                c.vocab.rare(&mut rng),
                                c.vocab.rare(&mut rng)
                            )
                        })
                        .collect();
                    let f = HtmlFrame {
                        title: "Some Title",
                        site_name: "Example",
                        lang: "en",
                        stylesheets: &[],
                        scripts: &[],
                        links: &links,
                    };
                    c.html_page(&mut rng, size, &f, &mut out);
                } else {
                    c.text_body(kind, &mut rng, size, &mut out);
                }
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
                e.write_all(&out).unwrap();
                raw += out.len();
                comp += e.finish().unwrap().len();
            }
            println!("{kind:?}: {:.2}", raw as f64 / comp as f64);
        }
    }

    #[test]
    fn sizes_are_close_and_binary_magic() {
        let c = Content::new(1);
        let mut rng = Rng::new(9);
        for &size in &[100usize, 5_000, 200_000] {
            let mut out = Vec::new();
            c.text_body(Kind::Css, &mut rng, size, &mut out);
            assert!(
                out.len() >= size && out.len() < size + 8_000,
                "{size} -> {}",
                out.len()
            );
        }
        let mut png = Vec::new();
        binary_body(Kind::Png, &mut rng, 5000, &mut png);
        assert_eq!(png.len(), 5000);
        assert!(png.starts_with(b"\x89PNG") && png.ends_with(b"IEND\xAE\x42\x60\x82"));
    }
}
