//! Registered domains (eTLD+1) of SURT hosts, by the Public Suffix List that
//! the `psl` crate embeds (so nothing is downloaded at run time).

/// `com,example,www:8080` → `www.example.com`: the SURT host read backwards,
/// without the port (and without a userinfo part, which SURTs may keep).
pub fn surt_host_to_hostname(host: &str) -> String {
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = match host.rfind(':') {
        Some(i) if host[i + 1..].bytes().all(|b| b.is_ascii_digit()) => &host[..i],
        _ => host,
    };
    let mut parts: Vec<&str> = host.split(',').filter(|p| !p.is_empty()).collect();
    parts.reverse();
    parts.join(".")
}

/// cdx-summary's top-host label: `".".join(reversed(host.split(",")))`.
pub fn host_label(host: &str) -> String {
    let mut parts: Vec<&str> = host.split(',').collect();
    parts.reverse();
    parts.join(".")
}

/// The registered domain of a SURT host; a host that has none (an IP
/// address, a bare public suffix, a single label) counts as its own.
pub fn registered_domain(surt_host: &str) -> String {
    let name = surt_host_to_hostname(surt_host).to_ascii_lowercase();
    if name.parse::<std::net::Ipv4Addr>().is_ok() {
        return name;
    }
    match psl::domain_str(&name) {
        Some(d) => d.to_string(),
        None => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_domains() {
        assert_eq!(registered_domain("gov,anl,alcf,esp"), "anl.gov");
        assert_eq!(registered_domain("uk,co,bbc,news"), "bbc.co.uk");
        assert_eq!(registered_domain("com,example:8080"), "example.com");
        assert_eq!(registered_domain("254,1,168,192"), "192.168.1.254");
        assert_eq!(registered_domain("io,github,someone"), "someone.github.io");
    }

    #[test]
    fn labels() {
        assert_eq!(host_label("com,cdc"), "cdc.com");
        assert_eq!(host_label("com,example:8080"), "example:8080.com");
    }
}
