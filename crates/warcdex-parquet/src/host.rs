//! Host columns as Common Crawl's `HostName` derives them: IP detection
//! (every numeric IPv4 form `InetAddress` accepts), percent-decoding, IDNA
//! 2003, one trailing dot stripped, label parts, and the public-suffix
//! columns from the Public Suffix List compiled into the `psl` crate.

use std::fmt::Write;

use psl::{Psl, Type};

/// The host-derived columns of one row: owned (`String`), or borrowed from a
/// [`HostScratch`] (`&str`) so that deriving them allocates nothing.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct HostColumns<S = String> {
    pub name: Option<S>,
    /// tld, 2nd, 3rd, 4th, 5th last part.
    pub parts: [Option<S>; 5],
    pub registry_suffix: Option<S>,
    pub registered_domain: Option<S>,
    pub private_suffix: Option<S>,
    pub private_domain: Option<S>,
    pub name_reversed: Option<S>,
}

impl<S> HostColumns<S> {
    /// `f` applied to every column that is set.
    pub fn map<T>(&self, mut f: impl FnMut(&S) -> T) -> HostColumns<T> {
        let mut o = |v: &Option<S>| v.as_ref().map(&mut f);
        HostColumns {
            name: o(&self.name),
            parts: [o(&self.parts[0]), o(&self.parts[1]), o(&self.parts[2]), o(&self.parts[3]), o(&self.parts[4])],
            registry_suffix: o(&self.registry_suffix),
            registered_domain: o(&self.registered_domain),
            private_suffix: o(&self.private_suffix),
            private_domain: o(&self.private_domain),
            name_reversed: o(&self.name_reversed),
        }
    }
}

impl<S: AsRef<str>> HostColumns<S> {
    pub fn to_owned(&self) -> HostColumns {
        self.map(|s| s.as_ref().to_string())
    }
}

/// The columns of the last host derived, and the buffers deriving uses.
/// Rows are derived in SURT order, which brings a host's captures one after
/// another (Common Crawl's indexes hold dozens per host on average), and a
/// host's columns cost more than the rest of its row.
///
/// The last host's columns are kept as pointers into the buffers, which
/// hold them until the next host is derived: nothing is copied.
#[derive(Debug, Default)]
pub struct HostScratch {
    bufs: HostBufs,
    last_host: String,
    last: Option<HostColumns<*const str>>,
}

/// Buffers the borrowed host columns live in, reused from row to row.
#[derive(Debug, Default)]
struct HostBufs {
    lower: String,
    decoded: String,
    idna: Vec<u8>,
    ip: String,
    reversed: String,
    registered_domain: String,
    private_domain: String,
}

/// Derives every host column from the host as written in the URL.
pub fn host_columns(raw: &str) -> HostColumns {
    host_columns_in(raw, &mut HostScratch::default()).to_owned()
}

/// Whether `s` lies inside `raw`'s bytes: the cached pointers must not.
fn raw_overlaps(raw: &str, s: &str) -> bool {
    let (r, p) = (raw.as_ptr() as usize, s.as_ptr() as usize);
    p >= r && p < r + raw.len()
}

/// [`host_columns`] into reused buffers: no allocation once they have
/// grown, no work when `raw` is the host of the call before.
pub fn host_columns_in<'s>(raw: &str, scratch: &'s mut HostScratch) -> HostColumns<&'s str> {
    let HostScratch { bufs, last_host, last } = scratch;
    if let Some(cols) = last.as_ref().filter(|_| last_host == raw) {
        // SAFETY: the pointers are the columns `derive_host_columns` gave
        // for this host, slices of `bufs` (or static); `bufs` is private
        // to this function, which changes it only to derive another host
        // and then replaces the pointers. The strings are alive and
        // unchanged, and the result borrows `scratch` as they did.
        return cols.map(|&p| unsafe { &*p });
    }
    let cols = derive_host_columns(raw, bufs);
    *last = Some(cols.map(|&s| {
        debug_assert!(s.is_empty() || !raw_overlaps(raw, s), "a host column borrows the caller's string");
        s as *const str
    }));
    last_host.clear();
    last_host.push_str(raw);
    cols
}

fn derive_host_columns<'s>(raw: &str, bufs: &'s mut HostBufs) -> HostColumns<&'s str> {
    let HostBufs { lower, decoded, idna, ip, reversed, registered_domain, private_domain } = bufs;
    lower.clear();
    if raw.is_ascii() {
        // Copied, then lowered in place: pushed char by char, it cost a
        // tenth of the host's columns.
        lower.push_str(raw);
        lower.make_ascii_lowercase();
    } else {
        lower.push_str(&raw.to_lowercase());
    }
    let lower: &'s str = lower;
    // Both IPv4 forms end in a digit; most names do not, and skip the checks.
    let ipv4_like = lower.as_bytes().last().is_some_and(u8::is_ascii_digit);
    if lower.starts_with('[') || (ipv4_like && is_canonical_ipv4(lower)) {
        // IPv6 (only the name) or a plain IPv4 address.
        return HostColumns { name: Some(lower), ..Default::default() };
    }
    if ipv4_like && numeric_ipv4(lower, ip) {
        return HostColumns { name: Some(ip), ..Default::default() };
    }
    let Some(name) = normalize_hostname(lower, decoded, idna) else {
        return HostColumns::default();
    };
    let mut out = HostColumns::default();
    if !name.is_empty() {
        // One right-to-left walk over the dots gives the parts, the
        // reversed name and the label check (a string splitter per use
        // cost more than the rest of the host columns on short names).
        reversed.clear();
        let mut labels_fine = true;
        let mut end = name.len();
        let mut dots = memchr::memrchr_iter(b'.', name.as_bytes()).map(Some).chain([None]);
        for i in 0.. {
            let Some(dot) = dots.next() else { break };
            let start = dot.map_or(0, |d| d + 1);
            let label = &name[start..end];
            labels_fine &= !label.is_empty() && label.len() <= 63;
            if i < 5 {
                out.parts[i] = Some(label);
            }
            if i > 0 {
                reversed.push('.');
            }
            reversed.push_str(label);
            end = dot.unwrap_or(0);
        }
        out.name_reversed = Some(&**reversed);
        suffix_columns(name, labels_fine, &mut out, registered_domain, private_domain);
    }
    out.name = Some(name);
    out
}

/// `%`-decoding, IDNA 2003 for non-ASCII hosts, one trailing dot removed.
/// `None` when IDNA rejects the host (CC then nulls every host column).
fn normalize_hostname<'s>(lower: &'s str, decoded: &'s mut String, idna: &'s mut Vec<u8>) -> Option<&'s str> {
    let mut host: &'s str = lower;
    if host.contains('%') {
        decoded.clear();
        decoded.push_str(&percent_decode(host).to_lowercase());
        host = decoded;
    }
    if !host.is_ascii() {
        idna.clear();
        if !warcdex_core::surt::idna2003::host_to_ascii(host.as_bytes(), idna) {
            return None;
        }
        host = std::str::from_utf8(idna).ok()?;
    }
    Some(host.strip_suffix('.').unwrap_or(host))
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_octet(s: &str) -> bool {
    // Canonical: no leading zeros.
    !s.is_empty() && s.len() <= 3 && s.bytes().all(|c| c.is_ascii_digit()) && (s == "0" || !s.starts_with('0')) && s.parse::<u16>().is_ok_and(|v| v <= 255)
}

fn is_canonical_ipv4(h: &str) -> bool {
    let mut n = 0;
    for part in h.split('.') {
        n += 1;
        if n > 4 || !is_octet(part) {
            return false;
        }
    }
    n == 4
}

/// `a`, `a.b`, `a.b.c`, `a.b.c.d` in decimal, the last part filling the
/// remaining bytes, as `InetAddress.getByName` reads them; written to `out`.
fn numeric_ipv4(h: &str, out: &mut String) -> bool {
    let mut parts = [""; 4];
    let mut n = 0;
    for p in h.split('.') {
        if n == 4 || p.is_empty() || p.len() > 10 || !p.bytes().all(|c| c.is_ascii_digit()) {
            return false;
        }
        parts[n] = p;
        n += 1;
    }
    let Some((last, head)) = parts[..n].split_last() else { return false };
    let mut bytes = [0u8; 4];
    for (i, p) in head.iter().enumerate() {
        match p.parse::<u64>() {
            Ok(v) if v <= 255 => bytes[i] = v as u8,
            _ => return false,
        }
    }
    let rest_bytes = 4 - head.len();
    let Ok(v) = last.parse::<u64>() else { return false };
    if v >= 1u64 << (8 * rest_bytes) {
        return false;
    }
    for k in 0..rest_bytes {
        bytes[3 - k] = (v >> (8 * k)) as u8;
    }
    out.clear();
    let _ = write!(out, "{}.{}.{}.{}", bytes[0], bytes[1], bytes[2], bytes[3]);
    true
}

/// crawler-commons `EffectiveTldFinder` semantics: ICANN+private longest
/// match for the private columns, ICANN-only for the registry columns, no
/// default `*` rule (an unlisted TLD gives nulls), and a host that is itself
/// a suffix has no domain.
fn suffix_columns<'s>(host: &'s str, labels_fine: bool, out: &mut HostColumns<&'s str>, registered: &'s mut String, private_dom: &'s mut String) {
    let list = psl::List;
    let Some(private) = list.suffix(host.as_bytes()) else { return };
    let Some(typ) = private.typ() else { return };
    let private_suffix = std::str::from_utf8(private.as_bytes()).unwrap_or_default();
    let private_suffix = &host[host.len() - private_suffix.len()..];
    // `label.suffix`, built in `buf` (as CC builds it, not sliced from host).
    let domain_of = |suffix: &str, buf: &'s mut String| -> Option<&'s str> {
        if host.len() <= suffix.len() || !labels_fine {
            return None;
        }
        let sub = &host[..host.len() - suffix.len() - 1];
        let label = &sub[memchr::memrchr(b'.', sub.as_bytes()).map_or(0, |d| d + 1)..];
        buf.clear();
        buf.push_str(label);
        buf.push('.');
        buf.push_str(suffix);
        Some(buf)
    };
    out.private_suffix = Some(private_suffix);
    out.private_domain = domain_of(private_suffix, private_dom);
    let registry_suffix = if typ == Type::Icann {
        Some(private_suffix)
    } else {
        icann_suffix(host, private_suffix.len())
    };
    if let Some(reg) = registry_suffix {
        out.registered_domain = if reg == private_suffix { out.private_domain } else { domain_of(reg, registered) };
        out.registry_suffix = Some(reg);
    }
}

/// The longest ICANN rule shorter than the private match.
fn icann_suffix(host: &str, below: usize) -> Option<&str> {
    let list = psl::List;
    let mut start = host.len() - below;
    loop {
        let dot = host[start..].find('.')?;
        start += dot + 1;
        let cand = &host[start..];
        let info = list.find(cand.as_bytes().rsplit(|c| *c == b'.'));
        if info.len == cand.len() && info.typ == Some(Type::Icann) {
            return Some(cand);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Option<String> {
        Some(v.to_string())
    }

    /// The last host's columns are reused only for that same host, and
    /// every column is replaced when the host changes (here between hosts
    /// that set and leave out different columns).
    #[test]
    fn last_host_reused_only_for_itself() {
        let hosts = ["www.example.co.uk", "www.example.co.uk", "x.blogspot.com", "[::1]", "[::1]", "10.0.0.1", "co.uk", "", "a.b.c.d.e.f.example.org", "www.example.co.uk"];
        let mut scratch = HostScratch::default();
        for h in hosts {
            assert_eq!(host_columns_in(h, &mut scratch).to_owned(), host_columns(h), "{h:?}");
        }
    }

    #[test]
    fn numeric_ipv4_forms() {
        for h in ["123.123.123.123", "2071690107", "123.8092539", "123.123.31611"] {
            let c = host_columns(h);
            assert_eq!(c.name, s("123.123.123.123"), "{h}");
            assert_eq!(c.parts[0], None);
            assert_eq!(c.name_reversed, None);
        }
        assert_eq!(host_columns("0x7f.1").parts[0], s("1"));
        assert_eq!(host_columns("123.8092843").name, s("123.123.124.171"));
        assert_eq!(host_columns("1.2.3.256").parts[0], s("256"), "out of range: a hostname");
    }

    #[test]
    fn suffixes() {
        let c = host_columns("myblog.blogspot.com");
        assert_eq!((c.registry_suffix, c.registered_domain), (s("com"), s("blogspot.com")));
        assert_eq!((c.private_suffix, c.private_domain), (s("blogspot.com"), s("myblog.blogspot.com")));
        let c = host_columns("mypublicbucket.s3.amazonaws.com");
        assert_eq!((c.registry_suffix, c.registered_domain), (s("com"), s("amazonaws.com")));
        assert_eq!((c.private_suffix, c.private_domain), (s("s3.amazonaws.com"), s("mypublicbucket.s3.amazonaws.com")));
        let c = host_columns("co.uk");
        assert_eq!((c.registry_suffix, c.registered_domain), (s("co.uk"), None));
        let c = host_columns("example.invalid");
        assert_eq!((c.parts[0].clone(), c.registry_suffix, c.private_domain), (s("invalid"), None, None));
        let c = host_columns("lions.nakahara.kawasaki.jp");
        assert_eq!((c.registry_suffix, c.registered_domain), (s("nakahara.kawasaki.jp"), s("lions.nakahara.kawasaki.jp")));
        let c = host_columns("www.example.xn--p1ai");
        assert_eq!((c.registry_suffix, c.registered_domain), (s("xn--p1ai"), s("example.xn--p1ai")));
        let c = host_columns("München.DE.");
        assert_eq!((c.name, c.registered_domain), (s("xn--mnchen-3ya.de"), s("xn--mnchen-3ya.de")));
        assert_eq!(host_columns("www.example%2ecom").name, s("www.example.com"));
        assert_eq!(host_columns("www.example.%d0%a0%d0%a4").name, s("www.example.xn--p1ai"));
    }
}
