//! SHA-1 digests in the `sha1:BASE32` form web archives use.

use data_encoding::BASE32;
use sha1::{Digest, Sha1};

/// `sha1:` digest of zero bytes, the digest of every empty payload.
pub const EMPTY_SHA1: &str = "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ";

/// An incremental SHA-1 that renders as `sha1:BASE32`.
#[derive(Clone, Default)]
pub struct Sha1Base32(Sha1);

impl Sha1Base32 {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    /// Base32 of the digest, without the `sha1:` label.
    pub fn finish_base32(self) -> String {
        BASE32.encode(&self.0.finalize())
    }
    pub fn finish(self) -> String {
        format!("sha1:{}", self.finish_base32())
    }
}

/// Splits a WARC digest header into algorithm and value (`sha1:ABC` → `("sha1", "ABC")`).
pub fn split_label(digest: &str) -> Option<(&str, &str)> {
    digest.split_once(':')
}

/// The digest a WARC header states, in a form comparable to a computed one:
/// SHA-1 given as Base32 or hex (some tools write hex) becomes Base32.
pub fn normalize_sha1(value: &str) -> Option<String> {
    let (alg, v) = split_label(value)?;
    if !alg.trim().eq_ignore_ascii_case("sha1") && !alg.trim().eq_ignore_ascii_case("sha-1") {
        return None;
    }
    let v = v.trim();
    if v.len() == 40 && v.bytes().all(|b| b.is_ascii_hexdigit()) {
        let raw = data_encoding::HEXLOWER_PERMISSIVE.decode(v.as_bytes()).ok()?;
        return Some(BASE32.encode(&raw));
    }
    Some(v.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_digest() {
        assert_eq!(Sha1Base32::new().finish(), EMPTY_SHA1);
    }

    #[test]
    fn hex_digests_normalize_to_base32() {
        let b32 = normalize_sha1("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ").unwrap();
        let hex = normalize_sha1("sha1:da39a3ee5e6b4b0d3255bfef95601890afd80709").unwrap();
        assert_eq!(b32, hex);
        assert_eq!(normalize_sha1("md5:abc"), None);
    }
}
