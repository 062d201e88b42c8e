//! warcdex-parquet: web-archive indexes as Common Crawl cc-index-table
//! Parquet datasets (`crawl=<name>/subset=<subset>/part-*.parquet`).
//!
//! - [`capture`]: index lines (CDXJ, CDX 11/9) and WARC index entries
//! - [`url`], [`host`]: the URL and host columns, as CC's Java code derives them
//! - [`row`]: one row with every column and its partition
//! - [`record`]: a capture as the sorter keeps it
//! - [`sort`]: bounded-memory sort (spilled runs, merge)
//! - [`schema`], [`writer`]: the Parquet schema and the partitioned writer
//! - [`file`]: one Parquet file, written by hand ([`column`] pages, [`rle`]
//!   levels and indices, [`delta`] byte arrays, [`compress`], [`bloom`]
//!   filters, [`thrift`] metadata, [`varint`]s for all of them)
//! - [`job`]: a whole conversion

pub mod bloom;
pub mod capture;
pub mod column;
pub mod compress;
pub mod delta;
pub mod file;
pub mod host;
pub mod inputs;
pub mod job;
pub mod rle;
pub mod row;
pub mod record;
pub mod schema;
pub mod sort;
pub mod thrift;
pub mod url;
pub mod varint;
pub mod writer;
