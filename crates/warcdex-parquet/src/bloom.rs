//! Split-block bloom filters, sized as parquet-rs sizes them; parquet-rs's
//! `Sbbf` does the hashing and writing (its constructors are private, so a
//! filter starts as a serialized empty one).

use parquet::bloom_filter::Sbbf;

use crate::thrift::Thrift;

/// False-positive rate for the expected number of distinct values.
pub const FPP: f64 = 0.01;

/// Bytes of a filter for `ndv` distinct values at [`FPP`]: a power of two
/// from 32 bytes to 128 MiB.
fn size_for(ndv: u64) -> usize {
    let bits = -8.0 * ndv as f64 / (1.0 - FPP.powf(1.0 / 8.0)).ln();
    ((bits / 8.0) as usize).clamp(32, 128 << 20).next_power_of_two()
}

/// An empty filter for `ndv` distinct values.
pub fn empty(ndv: u64) -> Sbbf {
    let n = size_for(ndv);
    let mut t = Thrift::new();
    // BloomFilterHeader: numBytes, algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED.
    t.open().i32(1, n as i32).begin(2).empty(1).end().begin(3).empty(1).end().begin(4).empty(1).end().end();
    let mut bytes = t.buf;
    bytes.resize(bytes.len() + n, 0);
    Sbbf::from_bytes(&bytes).expect("a well-formed empty filter")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sized_and_usable() {
        assert_eq!(size_for(0), 32);
        assert_eq!(size_for(100_000), 131_072);
        let mut f = empty(1000);
        f.insert(b"example.com".as_slice());
        assert!(f.check(&"example.com"));
        let misses = (0..1000).filter(|i| f.check(&format!("other{i}.org").as_str())).count();
        assert!(misses < 50, "{misses} false positives of 1000");
        let mut out = Vec::new();
        f.write(&mut out).unwrap();
        assert!(Sbbf::from_bytes(&out).unwrap().check(&"example.com"));
    }
}
