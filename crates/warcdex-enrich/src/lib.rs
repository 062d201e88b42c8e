//! Enrichment: what each capture is, detected from its payload, in the two
//! conventions archives use — Common Crawl's crawler (`cc`: Tika, CLD2 with
//! hints and pruning) and the University of North Texas's
//! warc-metadata-sidecar (`unt`: libmagic, fido, chardet, unpruned CLD2).
//!
//! - [`charset`]: the character encoding of a text payload.
//! - [`language`]: the languages of a page (CLD2).

pub mod charset;
pub mod language;
