//! warcdex core: bytes → records → index rows → writers.
pub mod decode;
pub mod error;
pub mod headers;
pub mod reader;
pub mod source;
pub mod surt;
