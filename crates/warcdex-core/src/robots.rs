//! Robots flags for CDX-Writer's `M` field: `<meta name="robots">` in an HTML
//! page and the X-Robots-Tag header, as the letters A (noarchive), F
//! (nofollow) and I (noindex), in that order.

/// The flags of a page (`body` is the start of its HTML) and its header.
pub fn flags(html: &[u8], x_robots_tag: Option<&str>) -> String {
    let mut directives = String::new();
    if let Some(tag) = x_robots_tag {
        directives.push_str(&tag.to_ascii_lowercase());
        directives.push(',');
    }
    for content in robots_meta_contents(html) {
        directives.push_str(&content.to_ascii_lowercase());
        directives.push(',');
    }
    let has = |d: &str| directives.split([',', ' ', ':']).any(|w| w.trim() == d);
    let none = has("none");
    let mut out = String::new();
    if has("noarchive") {
        out.push('A');
    }
    if has("nofollow") || none {
        out.push('F');
    }
    if has("noindex") || none {
        out.push('I');
    }
    out
}

/// Content attributes of `<meta name="robots" content="...">` tags before `</head>` or `<body`.
fn robots_meta_contents(html: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(html);
    let lower = text.to_ascii_lowercase();
    let end = [lower.find("</head"), lower.find("<body")].into_iter().flatten().min().unwrap_or(lower.len());
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(i) = lower[pos..end].find("<meta") {
        let start = pos + i;
        let close = lower[start..end].find('>').map(|j| start + j).unwrap_or(end);
        let tag = &lower[start..close];
        if attr(tag, "name").as_deref() == Some("robots") {
            if let Some(c) = attr(&text[start..close], "content") {
                out.push(c);
            }
        }
        pos = close.max(start + 5);
        if pos >= end {
            break;
        }
    }
    out
}

/// Value of an attribute inside a tag, quoted or not (the name matched case-insensitively).
fn attr(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let before_ok = at > 0 && lower.as_bytes()[at - 1].is_ascii_whitespace();
        let rest = lower[from..].trim_start();
        if !before_ok || !rest.starts_with('=') {
            continue;
        }
        let vstart = tag.len() - rest.len() + 1;
        let v = tag[vstart..].trim_start();
        let value = match v.chars().next() {
            Some(q @ ('"' | '\'')) => v[1..].split(q).next().unwrap_or(""),
            _ => v.split(|c: char| c.is_whitespace() || c == '/' || c == '>').next().unwrap_or(""),
        };
        return Some(value.to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_and_header_flags() {
        let html = br#"<html><head><META NAME="Robots" CONTENT="NoIndex, nofollow"></head><body>"#;
        assert_eq!(flags(html, None), "FI");
        assert_eq!(flags(b"<head><meta name=robots content=noarchive>", Some("noindex")), "AI");
        assert_eq!(flags(b"<head><meta name='robots' content='none'>", None), "FI");
        assert_eq!(flags(b"<body><meta name=robots content=noindex>", None), "");
        assert_eq!(flags(b"", None), "");
    }
}
