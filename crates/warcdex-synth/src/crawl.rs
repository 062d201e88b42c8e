//! The simulated web: hosts and their pages.
//!
//! Everything here is a pure function of (seed, host index, page id), so the
//! same URL always has the same kind, path and base size no matter when or
//! in which file it is captured. That is what makes re-captures and
//! revisit records consistent without keeping a table of all URLs.

use crate::content::{Kind, KINDS};
use crate::rng::{Cumulative, Rng};

/// Internationalized labels: (ASCII/punycode form used in URLs, Unicode form
/// kept only for documentation and the site name). Punycode verified with
/// Python's codec.
#[rustfmt::skip]
const IDN_LABELS: &[(&str, &str, &str)] = &[
    ("xn--bcher-kva", "bücher", "de"),
    ("xn--mnchen-3ya", "münchen", "de"),
    ("xn--caf-dma", "café", "fr"),
    ("xn--d1acpjx3f", "яндекс", "xn--p1ai"),
    ("xn--e1afmkfd", "пример", "xn--p1ai"),
    ("xn--r8jz45g", "例え", "jp"),
    ("xn--zrich-kva", "zürich", "ch"),
    ("xn--hxajbheg2az3al", "παράδειγμα", "gr"),
];

#[rustfmt::skip]
const TLDS: &[(&str, f64, &str)] = &[
    ("com", 0.45, "en"), ("org", 0.10, "en"), ("net", 0.07, "en"), ("de", 0.06, "de"),
    ("co.uk", 0.05, "en"), ("fr", 0.03, "fr"), ("nl", 0.03, "nl"), ("edu", 0.03, "en"),
    ("gov", 0.02, "en"), ("jp", 0.02, "ja"), ("io", 0.03, "en"), ("info", 0.02, "en"),
    ("ru", 0.02, "ru"), ("com.br", 0.02, "pt"), ("com.au", 0.02, "en"), ("it", 0.02, "it"),
];

const SUBDOMAINS: &[&str] = &[
    "blog", "news", "shop", "static", "cdn", "media", "docs", "forum", "m", "en", "api", "wiki",
];

const SERVERS: &[&str] = &[
    "nginx",
    "nginx/1.18.0 (Ubuntu)",
    "Apache/2.4.41 (Ubuntu)",
    "Apache",
    "cloudflare",
    "Microsoft-IIS/10.0",
    "LiteSpeed",
    "openresty",
    "AmazonS3",
    "gws",
    "Apache/2.2.15 (CentOS)",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionStyle {
    None,
    /// `;jsessionid=...` path parameter (Java servlet containers).
    JSessionId,
    /// `PHPSESSID=` query parameter.
    PhpSessId,
    /// `sid=` query parameter.
    Sid,
}

#[derive(Clone, Debug)]
pub struct Host {
    /// ASCII host name as it appears in URLs (punycode for IDN).
    pub name: String,
    pub scheme: &'static str,
    pub port: Option<u16>,
    pub ip: [u8; 4],
    pub server: &'static str,
    /// Some origins (often behind HTTP/2 proxies) send lowercase header
    /// names; parsers must treat names case-insensitively.
    pub lowercase_headers: bool,
    pub session: SessionStyle,
    pub powered_by: Option<&'static str>,
    pub site_name: String,
    pub lang: &'static str,
}

impl Host {
    /// `https://www.example.com` or `http://example.org:8080`.
    pub fn origin(&self) -> String {
        match self.port {
            Some(p) => format!("{}://{}:{}", self.scheme, self.name, p),
            None => format!("{}://{}", self.scheme, self.name),
        }
    }

    /// Value of the HTTP `Host` request header.
    pub fn authority(&self) -> String {
        match self.port {
            Some(p) => format!("{}:{}", self.name, p),
            None => self.name.clone(),
        }
    }

    pub fn ip_string(&self) -> String {
        let [a, b, c, d] = self.ip;
        format!("{a}.{b}.{c}.{d}")
    }
}

/// A page (URL) of a host, derived deterministically from its id.
#[derive(Clone, Debug)]
pub struct Page {
    pub host: usize,
    pub kind: Kind,
    /// Path and query, without any session id.
    pub path: String,
    /// Typical payload size of this URL (captures jitter around it).
    pub base_size: f64,
    /// Forms and API endpoints are fetched with POST.
    pub post: bool,
    /// Whether captures of this page carry a fresh session id in the URL.
    pub session: bool,
}

/// Page id 0 is the host's home page, 1 its robots.txt.
pub const HOME: u64 = 0;
pub const ROBOTS: u64 = 1;

pub struct Site {
    pub seed: u64,
    pub hosts: Vec<Host>,
    popularity: Cumulative,
    kind_weights: Vec<f64>,
    /// Extra path words, so paths look like `/news/2019/...` and not only
    /// like the prose vocabulary.
    words: Vec<String>,
}

fn pseudo_word(rng: &mut Rng) -> String {
    const SYL: &[&str] = &[
        "ka", "lo", "ver", "mi", "tan", "zu", "bel", "ro", "sen", "dor", "ax", "qui", "fen", "ti",
        "mar", "nex", "pol", "ur", "sta", "vi", "gen", "ko", "lum", "pra",
    ];
    let n = 2 + rng.below(2);
    (0..n).map(|_| rng.pick(SYL)).collect()
}

impl Site {
    pub fn new(seed: u64, hosts: usize) -> Site {
        let hosts = hosts.max(1);
        let mut rng = Rng::from_parts(&[seed, 0x5175]);
        let tld_weights: Vec<f64> = TLDS.iter().map(|t| t.1).collect();
        let mut names = std::collections::HashSet::new();
        let mut list = Vec::with_capacity(hosts);
        let mut i = 0usize;
        let mut special = Vec::new();
        while list.len() < hosts {
            // Fixed positions guarantee IDN hosts and explicit ports even in
            // a collection of only a handful of hosts.
            let slot = i % 40;
            i += 1;
            let (base, tld, lang) = if slot == 3 || slot == 27 {
                let (ascii, _unicode, tld) =
                    IDN_LABELS[(i / 40 * 2 + (slot == 27) as usize) % IDN_LABELS.len()];
                let lang = match tld {
                    "de" | "ch" => "de",
                    "fr" => "fr",
                    "jp" => "ja",
                    "gr" => "el",
                    _ => "ru",
                };
                (ascii.to_string(), tld, lang)
            } else {
                let t = &TLDS[rng.weighted(&tld_weights)];
                let base = if rng.chance(0.3) {
                    format!("{}-{}", pseudo_word(&mut rng), pseudo_word(&mut rng))
                } else {
                    pseudo_word(&mut rng)
                };
                (base, t.0, t.2)
            };
            let prefix = match rng.below(10) {
                0..=4 => "www.".to_string(),
                5..=7 => String::new(),
                _ => format!("{}.", rng.pick(SUBDOMAINS)),
            };
            let name = format!("{prefix}{base}.{tld}");
            if !names.insert(name.clone()) {
                continue;
            }
            if matches!(slot, 3 | 5 | 27 | 31) {
                special.push(list.len());
            }
            let https = rng.chance(0.7);
            let port = if slot == 5 {
                Some(if https { 8443 } else { 8080 })
            } else if slot == 31 {
                Some(8000)
            } else {
                None
            };
            // Public-looking addresses; only ever written into files.
            let first = rng.pick(&[23u8, 34, 45, 52, 64, 93, 104, 142, 151, 185, 199, 203, 213]);
            let ip = [
                first,
                rng.below(256) as u8,
                rng.below(256) as u8,
                1 + rng.below(254) as u8,
            ];
            let session = match rng.below(20) {
                0 => SessionStyle::JSessionId,
                1 => SessionStyle::PhpSessId,
                2 => SessionStyle::Sid,
                _ => SessionStyle::None,
            };
            let site_name = {
                let mut s = base.split('.').next().unwrap_or("site").replace('-', " ");
                if let Some(f) = s.get_mut(0..1) {
                    f.make_ascii_uppercase();
                }
                s
            };
            list.push(Host {
                name,
                scheme: if https { "https" } else { "http" },
                port,
                ip,
                server: rng.pick(SERVERS),
                lowercase_headers: rng.chance(0.05),
                session,
                powered_by: if rng.chance(0.15) {
                    Some(rng.pick(&["PHP/7.4.3", "PHP/5.6.40", "Express", "ASP.NET"]))
                } else {
                    None
                },
                site_name,
                lang,
            });
        }
        // Popularity is Zipf over a shuffled order; the first IDN host and
        // the first host with a port are then moved to middling ranks so
        // that even a small sample file contains captures of both, without
        // making them a large share of a big crawl.
        let mut order: Vec<usize> = (0..hosts).collect();
        for k in (1..order.len()).rev() {
            let j = rng.below(k as u64 + 1) as usize;
            order.swap(k, j);
        }
        for (k, &h) in special.iter().take(2).enumerate() {
            let want = ((k + 1) * hosts / 5).clamp(1, hosts - 1);
            let at = order.iter().position(|&x| x == h).expect("host in order");
            order.swap(at, want);
        }
        let mut weights = vec![0.0; hosts];
        for (rank, &h) in order.iter().enumerate() {
            weights[h] = 1.0 / (rank as f64 + 1.0);
        }
        let words = (0..400).map(|_| pseudo_word(&mut rng)).collect();
        Site {
            seed,
            hosts: list,
            popularity: Cumulative::new(weights),
            kind_weights: KINDS.iter().map(|k| k.weight).collect(),
            words,
        }
    }

    pub fn pick_host(&self, rng: &mut Rng) -> usize {
        self.popularity.sample(rng)
    }

    /// The page `id` of host `h`.
    pub fn page(&self, h: usize, id: u64) -> Page {
        let mut r = Rng::from_parts(&[self.seed, h as u64, id, 0x9A6E]);
        let w = |r: &mut Rng| self.words[r.below(self.words.len() as u64) as usize].as_str();
        let base_page = |kind: Kind, path: String, r: &mut Rng| {
            let spec = kind.spec();
            Page {
                host: h,
                kind,
                path,
                base_size: r.log_normal(spec.median, spec.sigma),
                post: false,
                session: false,
            }
        };
        if id == HOME {
            return base_page(Kind::Html, "/".into(), &mut r);
        }
        if id == ROBOTS {
            let mut p = base_page(Kind::Text, "/robots.txt".into(), &mut r);
            p.base_size = 200.0 + r.below(1500) as f64;
            return p;
        }
        let kind = KINDS[r.weighted(&self.kind_weights)].kind;
        let ext = kind.spec().ext;
        let mut post = false;
        let mut path = match kind {
            Kind::Html => match r.below(12) {
                0 => format!("/{}/{}-{}.html", w(&mut r), w(&mut r), w(&mut r)),
                1 => format!("/{}/{}/", w(&mut r), w(&mut r)),
                2 => format!(
                    "/{}/{:02}/{}-{}-{}/",
                    r.range(2005, 2024),
                    r.range(1, 12),
                    w(&mut r),
                    w(&mut r),
                    w(&mut r)
                ),
                3 => format!("/index.php?id={}", r.below(100_000)),
                4 => format!(
                    "/{}?page={}&sort={}",
                    w(&mut r),
                    r.range(2, 40),
                    r.pick(&["date", "name", "relevance"])
                ),
                5 => format!("/article/{}", r.below(10_000_000)),
                6 => format!("/{}/{}.aspx", w(&mut r), w(&mut r)),
                7 => format!("/{}/{}%20{}.html", w(&mut r), w(&mut r), w(&mut r)),
                8 => {
                    post = true;
                    r.pick(&[
                        "/search",
                        "/login",
                        "/comment/submit",
                        "/api/contact",
                        "/cart/add",
                    ])
                    .to_string()
                }
                9 => format!("/search?q={}+{}&lang=en", w(&mut r), w(&mut r)),
                _ => format!("/{}/{}", w(&mut r), w(&mut r)),
            },
            Kind::Css | Kind::Js => match r.below(3) {
                0 => format!("/static/{ext}/{}.{}.{ext}", w(&mut r), r.hex(8)),
                1 => format!(
                    "/wp-includes/{ext}/{}.min.{ext}?ver=5.{}.{}",
                    w(&mut r),
                    r.below(9),
                    r.below(9)
                ),
                _ => format!("/assets/{}.{ext}", w(&mut r)),
            },
            Kind::Jpeg | Kind::Png | Kind::Gif | Kind::Webp => match r.below(3) {
                0 => format!("/images/{}-{}.{ext}", w(&mut r), r.below(10_000)),
                1 => format!(
                    "/wp-content/uploads/{}/{:02}/{}-{}-{}x{}.{ext}",
                    r.range(2010, 2024),
                    r.range(1, 12),
                    w(&mut r),
                    w(&mut r),
                    100 * r.range(1, 12),
                    75 * r.range(1, 12)
                ),
                _ => format!("/media/{}/{}.{ext}", r.hex(2), r.hex(24)),
            },
            Kind::Ico => "/favicon.ico".into(),
            Kind::Json => format!(
                "/api/v1/{}?page={}&limit={}",
                w(&mut r),
                r.range(1, 50),
                r.pick(&[10, 20, 50, 100])
            ),
            Kind::Xml => {
                if r.chance(0.5) {
                    "/feed/".into()
                } else {
                    format!("/{}/rss.xml", w(&mut r))
                }
            }
            Kind::Svg => format!("/assets/icons/{}.svg", w(&mut r)),
            Kind::Woff2 => format!("/fonts/{}-regular.woff2", w(&mut r)),
            Kind::Pdf => format!(
                "/files/{}-{}-{}.pdf",
                w(&mut r),
                w(&mut r),
                r.range(2000, 2024)
            ),
            Kind::Mp4 => format!("/media/video/{}-{}.mp4", w(&mut r), r.below(1000)),
            Kind::Zip => format!(
                "/downloads/{}-{}.{}.zip",
                w(&mut r),
                r.range(1, 9),
                r.below(20)
            ),
            Kind::Text => format!("/{}/{}.txt", w(&mut r), w(&mut r)),
        };
        // A few very long URLs: tracking parameters plus an opaque state blob.
        if r.chance(0.004) {
            let sep = if path.contains('?') { '&' } else { '?' };
            let blob_len = r.range(1500, 6000) as usize;
            path = format!(
                "{path}{sep}utm_source={}&utm_medium=email&utm_campaign={}&state={}",
                w(&mut r),
                r.hex(12),
                r.token(blob_len)
            );
        }
        let session =
            kind == Kind::Html && self.hosts[h].session != SessionStyle::None && r.chance(0.5);
        let spec = kind.spec();
        Page {
            host: h,
            kind,
            path,
            base_size: r.log_normal(spec.median, spec.sigma),
            post,
            session,
        }
    }

    /// Absolute URL of a capture of `page`; pages with sessions get a fresh
    /// session id each time (so the same document shows up under many URLs).
    pub fn url(&self, page: &Page, rng: Option<&mut Rng>) -> String {
        let host = &self.hosts[page.host];
        let mut path = page.path.clone();
        if let (true, Some(rng)) = (page.session, rng) {
            let sid = rng.hex(32).to_uppercase();
            match host.session {
                SessionStyle::JSessionId => {
                    let at = path.find('?').unwrap_or(path.len());
                    path.insert_str(at, &format!(";jsessionid={sid}"));
                }
                SessionStyle::PhpSessId | SessionStyle::Sid => {
                    let name = if host.session == SessionStyle::Sid {
                        "sid"
                    } else {
                        "PHPSESSID"
                    };
                    let sep = if path.contains('?') { '&' } else { '?' };
                    path.push_str(&format!("{sep}{name}={}", sid.to_lowercase()));
                }
                SessionStyle::None => {}
            }
        }
        format!("{}{}", host.origin(), path)
    }

    /// Outlinks of an HTML capture: mostly same-host pages, some to other
    /// hosts. Returns (href as written in the page, absolute URL).
    pub fn outlinks(&self, h: usize, rng: &mut Rng) -> Vec<(String, String)> {
        let n = 3 + rng.below(30) as usize;
        (0..n)
            .map(|_| {
                if rng.chance(0.15) && self.hosts.len() > 1 {
                    let other = self.pick_host(rng);
                    let page = self.page(
                        other,
                        if rng.chance(0.5) {
                            HOME
                        } else {
                            random_page_id(rng)
                        },
                    );
                    let abs = self.url(&page, None);
                    (abs.clone(), abs)
                } else {
                    let page = self.page(h, random_page_id(rng));
                    (page.path.clone(), self.url(&page, None))
                }
            })
            .collect()
    }

    pub fn host(&self, h: usize) -> &Host {
        &self.hosts[h]
    }
}

/// Ids of ordinary pages: a space large enough that fresh picks are new URLs.
pub fn random_page_id(rng: &mut Rng) -> u64 {
    2 + rng.below(1 << 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_hosts_present_even_when_few() {
        let site = Site::new(42, 6);
        assert_eq!(site.hosts.len(), 6);
        assert!(site.hosts.iter().any(|h| h.name.contains("xn--")));
        assert!(site.hosts.iter().any(|h| h.port.is_some()));
    }

    #[test]
    fn pages_are_stable() {
        let site = Site::new(1, 50);
        let a = site.page(3, 12345);
        let b = site.page(3, 12345);
        assert_eq!(a.path, b.path);
        assert_eq!(a.kind, b.kind);
        assert_eq!(
            site.url(&site.page(0, HOME), None),
            format!("{}/", site.hosts[0].origin())
        );
    }
}
