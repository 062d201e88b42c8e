//! The flat cc-index-table schema (`cc-index-schema-flat.json`): names,
//! order, types and nullability, with warc_record_offset/length as INT64
//! (files over 2 GiB exist, as in the EOT variant). `crawl` and `subset`
//! are Hive partition columns, so they are not stored in the files.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, TimeUnit};

/// (name, type, nullable) in on-disk order.
pub const COLUMNS: [(&str, Kind, bool); 30] = [
    ("url_surtkey", Kind::Str, false),
    ("url", Kind::Str, false),
    ("url_host_name", Kind::Str, false),
    ("url_host_tld", Kind::Str, true),
    ("url_host_2nd_last_part", Kind::Str, true),
    ("url_host_3rd_last_part", Kind::Str, true),
    ("url_host_4th_last_part", Kind::Str, true),
    ("url_host_5th_last_part", Kind::Str, true),
    ("url_host_registry_suffix", Kind::Str, true),
    ("url_host_registered_domain", Kind::Str, true),
    ("url_host_private_suffix", Kind::Str, true),
    ("url_host_private_domain", Kind::Str, true),
    ("url_host_name_reversed", Kind::Str, true),
    ("url_protocol", Kind::Str, false),
    ("url_port", Kind::I32, true),
    ("url_path", Kind::Str, false),
    ("url_query", Kind::Str, true),
    ("fetch_time", Kind::TimestampMillis, false),
    ("fetch_status", Kind::I16, false),
    ("fetch_redirect", Kind::Str, true),
    ("content_digest", Kind::Str, true),
    ("content_mime_type", Kind::Str, true),
    ("content_mime_detected", Kind::Str, true),
    ("content_charset", Kind::Str, true),
    ("content_languages", Kind::Str, true),
    ("content_truncated", Kind::Str, true),
    ("warc_filename", Kind::Str, false),
    ("warc_record_offset", Kind::I64, false),
    ("warc_record_length", Kind::I64, false),
    ("warc_segment", Kind::Str, false),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Str,
    I16,
    I32,
    I64,
    TimestampMillis,
}

/// The partition columns Common Crawl uses, in path order.
pub const DEFAULT_PARTITION_BY: [&str; 2] = ["crawl", "subset"];

pub fn arrow_schema() -> Arc<Schema> {
    let fields: Vec<Field> = COLUMNS
        .iter()
        .map(|(name, kind, nullable)| {
            let dt = match kind {
                Kind::Str => DataType::Utf8,
                Kind::I16 => DataType::Int16,
                Kind::I32 => DataType::Int32,
                Kind::I64 => DataType::Int64,
                // isAdjustedToUTC = true, as Spark writes TIMESTAMP_MILLIS.
                Kind::TimestampMillis => DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
            };
            Field::new(*name, dt, *nullable)
        })
        .collect();
    Arc::new(Schema::new(fields))
}
