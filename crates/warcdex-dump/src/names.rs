//! `data_0000000000_0000100000.tar.xz`, `manifest_..._....tsv.xz`: the id
//! range [start, end) is in the name.

use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Data,
    Manifest,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentName {
    pub kind: Kind,
    pub start: u64,
    pub end: u64,
}

impl SegmentName {
    /// Parses a base name; None when it is not a segment or manifest name.
    pub fn parse(name: &str) -> Option<SegmentName> {
        let (kind, rest) = if let Some(r) = name.strip_prefix("data_") {
            (Kind::Data, r.strip_suffix(".tar.xz")?)
        } else if let Some(r) = name.strip_prefix("manifest_") {
            (Kind::Manifest, r.strip_suffix(".tsv.xz").or_else(|| r.strip_suffix(".tsv"))?)
        } else {
            return None;
        };
        let (a, b) = rest.split_once('_')?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        if !digits(a) || !digits(b) {
            return None;
        }
        Some(SegmentName { kind, start: a.parse().ok()?, end: b.parse().ok()? })
    }

    pub fn of_path(path: &Path) -> Option<SegmentName> {
        SegmentName::parse(&path.file_name()?.to_string_lossy())
    }

    pub fn contains(&self, id: u64) -> bool {
        self.start <= id && id < self.end
    }

    pub fn data_name(&self) -> String {
        format!("data_{:010}_{:010}.tar.xz", self.start, self.end)
    }

    pub fn manifest_name(&self) -> String {
        format!("manifest_{:010}_{:010}.tsv.xz", self.start, self.end)
    }
}

/// The base name of a path, for problem lines and index file names.
pub fn base_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_reject_others() {
        let n = SegmentName::parse("data_0000100000_0000200000.tar.xz").unwrap();
        assert_eq!((n.kind, n.start, n.end), (Kind::Data, 100000, 200000));
        assert_eq!(n.manifest_name(), "manifest_0000100000_0000200000.tsv.xz");
        assert!(n.contains(100000) && n.contains(199999) && !n.contains(200000));
        assert!(SegmentName::parse("data_1_2.tar.gz").is_none());
        assert!(SegmentName::parse("data_x_2.tar.xz").is_none());
        assert_eq!(SegmentName::parse("manifest_0000000000_0000000010.tsv").unwrap().kind, Kind::Manifest);
    }
}
