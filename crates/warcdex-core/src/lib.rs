//! warcdex core: bytes → records → index rows → writers.
//!
//! - [`decode`]: containers (gzip members, xz streams, zstd frames)
//! - [`reader`]: WARC and ARC records, framing, recovery
//! - [`headers`], [`http`]: header blocks and HTTP messages
//! - [`digest`], [`surt`], [`timestamp`], [`post`], [`robots`]: field derivations
//! - [`index`]: rows from records; [`cdx`]: line formats; [`sort`]: sorted output
//! - [`pywb`]: pywb's `cdx-indexer` rules and line layouts (`Style::Pywb`)
//! - [`pipeline`], [`inputs`]: whole jobs over files; [`lines`]: index lines read in place
//! - [`output`]: files and datasets written whole or not at all

pub mod cdx;
pub mod decode;
pub mod deflate;
pub mod digest;
pub mod error;
pub mod foreign;
pub mod headers;
pub mod http;
pub mod index;
pub mod inflate;
pub mod inputs;
pub mod json;
pub mod lines;
pub mod output;
pub mod parallel;
pub mod pipeline;
pub mod post;
pub mod pywb;
pub mod reader;
pub mod records;
pub mod robots;
pub mod sort;
pub mod source;
pub mod surt;
pub mod timestamp;
