//! Fragment makers for the text pools (run once per generator, never per
//! payload): HTML blocks, CSS rules, JS functions, JSON objects, RSS items.

use crate::rng::Rng;
use crate::vocab::{capitalized, Vocab};
use std::fmt::Write as _;

const CLASSES: &[&str] = &[
    "container",
    "row",
    "col-md-6",
    "col-lg-4",
    "card",
    "card-body",
    "btn",
    "btn-primary",
    "text-muted",
    "lead",
    "article",
    "teaser",
    "meta",
    "byline",
    "tag",
    "widget",
];

pub fn html_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    match r.below(22) {
        20 => {
            // WordPress-style menu: long, very repetitive class lists.
            s.push_str("<ul id=\"menu-main\" class=\"menu\">\n");
            for _ in 0..3 + r.below(8) {
                let (w, n) = (v.rare(r), 100 + r.below(900));
                let _ = writeln!(
                    s,
                    "<li id=\"menu-item-{n}\" class=\"menu-item menu-item-type-post_type menu-item-object-page menu-item-{n}\"><a href=\"/{w}/\">{}</a></li>",
                    capitalized(w)
                );
            }
            s.push_str("</ul>\n");
        }
        21 => {
            s.push_str(
                "<div class=\"share-buttons\">\n  <a class=\"share share-facebook\" href=\"#\" rel=\"nofollow noopener\" target=\"_blank\">Share</a>\n  \
                 <a class=\"share share-twitter\" href=\"#\" rel=\"nofollow noopener\" target=\"_blank\">Tweet</a>\n  \
                 <a class=\"share share-email\" href=\"#\" rel=\"nofollow\">Email</a>\n</div>\n",
            );
        }
        0..=9 => {
            s.push_str(if r.chance(0.5) {
                "<p>"
            } else {
                "<p class=\"text\">"
            });
            for i in 0..1 + r.below(5) {
                if i > 0 {
                    s.push(' ');
                }
                if r.chance(0.35) {
                    let _ = write!(
                        s,
                        "<a href=\"/{}/{}-{}.html\">",
                        v.rare(r),
                        v.rare(r),
                        v.rare(r)
                    );
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
            let n = 2 + r.below(4) as usize;
            let _ = writeln!(s, "<h2 class=\"section-title\">{}</h2>", v.title(r, n));
        }
        12..=14 => {
            let _ = writeln!(s, "<ul class=\"{}\">", r.pick(CLASSES));
            for _ in 0..2 + r.below(8) {
                let w = v.rare(r);
                let _ = writeln!(
                    s,
                    "  <li><a href=\"/{}/{}/\">{}</a></li>",
                    v.rare(r),
                    w,
                    capitalized(w)
                );
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
            s.push_str(
                "<table class=\"table\">\n<tr><th>Name</th><th>Value</th><th>Date</th></tr>\n",
            );
            for _ in 0..2 + r.below(6) {
                let _ = writeln!(
                    s,
                    "<tr><td>{}</td><td>{}.{:02}</td><td>20{:02}-{:02}-{:02}</td></tr>",
                    capitalized(v.rare(r)),
                    r.below(10_000),
                    r.below(100),
                    r.range(10, 24),
                    r.range(1, 12),
                    r.range(1, 28)
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
    "margin",
    "padding",
    "width",
    "height",
    "font-size",
    "line-height",
    "border-radius",
    "top",
    "left",
    "max-width",
    "gap",
];
#[rustfmt::skip]
const CSS_KEYWORDS: &[(&str, &str)] = &[
    ("display", "flex"), ("display", "block"), ("display", "none"), ("position", "relative"),
    ("position", "absolute"), ("text-align", "center"), ("font-weight", "700"),
    ("overflow", "hidden"), ("cursor", "pointer"), ("box-sizing", "border-box"),
];

const PALETTE: &[&str] = &[
    "#333",
    "#333333",
    "#fff",
    "#ffffff",
    "#000",
    "#e5e5e5",
    "#0073aa",
    "#d63638",
    "#1e1e1e",
    "#f0f0f1",
    "#2271b1",
    "#646970",
    "rgba(0, 0, 0, 0.5)",
    "#cc0000",
    "#999",
    "inherit",
];

pub fn css_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    match r.below(3) {
        0 => {
            let _ = write!(s, ".{}-{}", v.rare(r), v.rare(r));
        }
        1 => {
            let _ = write!(s, "#{} .{}", v.rare(r), r.pick(CLASSES));
        }
        _ => {
            let _ = write!(
                s,
                "{} .{} a:hover",
                r.pick(&["div", "ul", "nav", "section", "p"]),
                v.rare(r)
            );
        }
    }
    s.push_str(" {\n");
    for _ in 0..2 + r.below(6) {
        match r.below(3) {
            0 => {
                let (k, val) = r.pick(CSS_KEYWORDS);
                let _ = writeln!(s, "  {k}: {val};");
            }
            // Sites use a small palette, not random colors.
            1 => {
                let _ = writeln!(s, "  color: {};", r.pick(PALETTE));
            }
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

pub fn js_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
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
            0 => {
                let _ = writeln!(
                    s,
                    "    var {} = {a}.{} || {};",
                    v.rare(r),
                    v.rare(r),
                    r.below(100)
                );
            }
            1 => {
                let _ = writeln!(
                    s,
                    "    if ({a}.length > {}) {{\n      {b}.{}(\"{} {}\");\n    }}",
                    r.below(50),
                    camel(v, r),
                    v.word(r),
                    v.word(r)
                );
            }
            _ => {
                let _ = writeln!(s, "    for (var i = 0; i < {a}.length; i++) {{\n      {b}.push({a}[i].{});\n    }}", v.rare(r));
            }
        }
    }
    let _ = writeln!(s, "    return {b};\n  }}\n  window.{name} = {name};\n");
}

/// Objects shaped like a WordPress REST API listing: many repeated keys
/// and constant values, as real API responses have.
pub fn json_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    let (a, b) = (v.rare(r), v.rare(r));
    let _ = write!(
        s,
        "{{\"id\":{},\"date\":\"20{:02}-{:02}-{:02}T{:02}:{:02}:00\",\"slug\":\"{a}-{b}\",\"status\":\"publish\",\
         \"type\":\"post\",\"link\":\"/{a}/{b}/\",\"title\":{{\"rendered\":\"{}\"}},\"author\":{},\
         \"featured_media\":0,\"comment_status\":\"{}\",\"ping_status\":\"closed\",\"sticky\":false,\
         \"format\":\"standard\",\"categories\":[{}],\"tags\":[{},{}],\"excerpt\":{{\"rendered\":\"<p>",
        r.below(100_000), r.range(12, 24), r.range(1, 12), r.range(1, 28), r.below(24), r.below(60),
        v.title(r, 3), 1 + r.below(12), r.pick(&["open", "closed"]), 1 + r.below(20), r.below(300), r.below(300)
    );
    v.sentence(r, s);
    s.push_str("<\\/p>\\n\",\"protected\":false}},\n");
}

pub fn xml_fragment(v: &Vocab, r: &mut Rng, s: &mut String) {
    let _ = write!(
        s,
        "<item>\n  <title>{}</title>\n  <link>/{}/{}.html</link>\n  <guid isPermaLink=\"false\">{}</guid>\n  <description>",
        v.title(r, 4), v.rare(r), v.rare(r), r.hex(16)
    );
    v.sentence(r, s);
    s.push_str("</description>\n</item>\n");
}
