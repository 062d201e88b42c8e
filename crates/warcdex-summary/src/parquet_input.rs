//! cc-index-table Parquet files (as `warcdex parquet`, Common Crawl or
//! Spark write them) as input: each row becomes the 11-field CDX line
//! warcdex would write for the same capture, so a dataset gives the summary
//! of its equivalent CDX, rows taken in file order.

use std::fs::File;
use std::io::{self, Write as _};
use std::path::Path;

use arrow_array::{cast::AsArray, Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;

use crate::accumulate::Accumulator;

/// The columns read, in the order of the CDX-11 fields they fill.
const COLUMNS: [&str; 9] = [
    "url_surtkey",
    "fetch_time",
    "url",
    "content_mime_type",
    "fetch_status",
    "content_digest",
    "fetch_redirect",
    "warc_record_length",
    "warc_record_offset",
];
const FILENAME: &str = "warc_filename";

/// True when the file starts with Parquet's magic number.
pub fn is_parquet(head: &[u8]) -> bool {
    head.starts_with(b"PAR1")
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

/// Feeds every row of one Parquet file to `acc`; returns the rows read.
/// The parquet crate panics on some malformed footers (found by fuzzing):
/// such a panic is this file's error, not the process's.
pub fn summarize_parquet(path: &Path, acc: &mut Accumulator) -> io::Result<u64> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| summarize_parquet_unguarded(path, acc)))
        .unwrap_or_else(|_| Err(invalid(format!("{}: malformed Parquet file (the reader gave up)", path.display()))))
}

fn summarize_parquet_unguarded(path: &Path, acc: &mut Accumulator) -> io::Result<u64> {
    let name = path.display();
    let file = File::open(path)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| invalid(format!("{name}: {e}")))?;
    let fields = builder.parquet_schema().columns();
    let mut wanted = Vec::new();
    for col in COLUMNS.iter().chain([&FILENAME]) {
        match fields.iter().position(|c| c.path().string() == *col) {
            Some(i) => wanted.push(i),
            None => return Err(invalid(format!("{name}: no column {col}: not a cc-index-table file"))),
        }
    }
    let mask = ProjectionMask::leaves(builder.parquet_schema(), wanted);
    let reader = builder.with_projection(mask).with_batch_size(8192).build().map_err(|e| invalid(format!("{name}: {e}")))?;
    let mut line = Vec::with_capacity(512);
    let mut rows = 0u64;
    for batch in reader {
        let batch = batch.map_err(|e| invalid(format!("{name}: {e}")))?;
        let cols: Vec<Column> = COLUMNS.iter().chain([&FILENAME]).map(|c| Column::of(&batch, c)).collect::<Result<_, _>>().map_err(|e| invalid(format!("{name}: {e}")))?;
        for i in 0..batch.num_rows() {
            line.clear();
            for (k, col) in cols.iter().enumerate() {
                if k > 0 {
                    line.push(b' ');
                }
                if k == 6 {
                    // The robots flags field, which cc-index-table does not keep.
                    line.extend_from_slice(b"- ");
                }
                col.write(i, k, &mut line);
            }
            acc.line(&line);
        }
        rows += batch.num_rows() as u64;
    }
    Ok(rows)
}

/// One column of a batch, in the physical forms writers use for it.
enum Column {
    Str(ArrayRef),
    Int(ArrayRef),
    Time(ArrayRef, TimeUnit),
}

impl Column {
    fn of(batch: &RecordBatch, name: &str) -> Result<Column, String> {
        let a = batch.column_by_name(name).ok_or_else(|| format!("no column {name}"))?.clone();
        Ok(match a.data_type() {
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Column::Str(a),
            DataType::Int16 | DataType::Int32 | DataType::Int64 => Column::Int(a),
            DataType::Timestamp(unit, _) => {
                let unit = *unit;
                Column::Time(a, unit)
            }
            other => return Err(format!("column {name} has type {other}, not a cc-index-table type")),
        })
    }

    /// Writes row `i` as CDX field number `k` (null and -1 as `-`).
    fn write(&self, i: usize, k: usize, out: &mut Vec<u8>) {
        match self {
            Column::Str(a) => match str_at(a, i) {
                // The digest without a `sha1:` label, as warcdex writes CDX.
                Some(s) if k == 5 => out.extend_from_slice(s.rsplit(':').next().unwrap_or(s).as_bytes()),
                Some(s) if !s.is_empty() => out.extend_from_slice(s.as_bytes()),
                _ => out.push(b'-'),
            },
            Column::Int(a) => match int_at(a, i) {
                Some(v) if v >= 0 => {
                    let _ = write!(out, "{v}");
                }
                _ => out.push(b'-'),
            },
            Column::Time(a, unit) => {
                use arrow_array::types::{TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType};
                if a.is_null(i) {
                    out.push(b'-');
                    return;
                }
                let secs = match unit {
                    TimeUnit::Second => a.as_primitive::<TimestampSecondType>().value(i),
                    TimeUnit::Millisecond => a.as_primitive::<TimestampMillisecondType>().value(i).div_euclid(1_000),
                    TimeUnit::Microsecond => a.as_primitive::<TimestampMicrosecondType>().value(i).div_euclid(1_000_000),
                    TimeUnit::Nanosecond => a.as_primitive::<TimestampNanosecondType>().value(i).div_euclid(1_000_000_000),
                };
                push_timestamp(secs, out);
            }
        }
    }
}

fn str_at(a: &ArrayRef, i: usize) -> Option<&str> {
    if a.is_null(i) {
        return None;
    }
    Some(match a.data_type() {
        DataType::Utf8 => a.as_string::<i32>().value(i),
        DataType::LargeUtf8 => a.as_string::<i64>().value(i),
        _ => a.as_string_view().value(i),
    })
}

fn int_at(a: &ArrayRef, i: usize) -> Option<i64> {
    if a.is_null(i) {
        return None;
    }
    Some(match a.data_type() {
        DataType::Int16 => a.as_primitive::<arrow_array::types::Int16Type>().value(i) as i64,
        DataType::Int32 => a.as_primitive::<arrow_array::types::Int32Type>().value(i) as i64,
        _ => a.as_primitive::<arrow_array::types::Int64Type>().value(i),
    })
}

/// Seconds since the epoch as `yyyyMMddHHmmss` (UTC).
fn push_timestamp(secs: i64, out: &mut Vec<u8>) {
    let [y, m, d, hh, mm, ss] = warcdex_core::timestamp::unix_to_civil(secs);
    let _ = write!(out, "{y:04}{m:02}{d:02}{hh:02}{mm:02}{ss:02}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_from_epoch_seconds() {
        let ts = |s: i64| {
            let mut v = Vec::new();
            push_timestamp(s, &mut v);
            String::from_utf8(v).unwrap()
        };
        assert_eq!(ts(0), "19700101000000");
        assert_eq!(ts(1_715_997_490), "20240518015810");
        assert_eq!(ts(951_782_400), "20000229000000"); // a leap day
        assert_eq!(ts(-1), "19691231235959");
    }
}
