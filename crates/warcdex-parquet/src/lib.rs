//! warcdex-parquet: web-archive indexes as Common Crawl cc-index-table
//! Parquet datasets (`crawl=<name>/subset=<subset>/part-*.parquet`).
//!
//! - [`capture`]: index lines (CDXJ, CDX 11/9) and WARC index entries
//! - [`url`], [`host`]: the URL and host columns, as CC's Java code derives them
//! - [`row`]: one row with every column, its partition, its spill form
//! - [`sort`]: bounded-memory sort (spilled runs, merge)
//! - [`schema`], [`writer`]: the Parquet schema and the partitioned writer
//! - [`job`]: a whole conversion

pub mod capture;
pub mod host;
pub mod inputs;
pub mod job;
pub mod row;
pub mod schema;
pub mod sort;
pub mod url;
pub mod writer;
