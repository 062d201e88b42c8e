//! The hand-written Parquet files, read back by parquet-rs (an independent
//! reader): every value of every column, the schema Arrow readers see, the
//! page index against the rows it describes, statistics, bloom filters; with
//! each codec, nulls, dictionaries kept, dropped and overflowing, and bounds
//! that need truncating.

use std::fs::File;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int16Type, Int32Type, Int64Type, TimestampMillisecondType};
use arrow_array::Array;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::properties::ReaderProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::serialized_reader::ReadOptionsBuilder;
use warcdex_parquet::compress::Codec;
use warcdex_parquet::file::{FileLayout, FileWriter};
use warcdex_parquet::host::HostColumns;
use warcdex_parquet::row::Row;
use warcdex_parquet::schema::{arrow_schema, COLUMNS};

struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Rows that exercise every encoding path. Column by column:
/// - url_surtkey: sorted, some longer than the 64-byte statistics bound,
///   with multi-byte characters at the cut;
/// - url_host_name: 40 hosts for the first 9,000 rows (the dictionary
///   stays), then long unique names (the dictionary outgrows 1 MiB and the
///   chunk goes on in plain pages);
/// - url: unique from the start (the dictionary is dropped after page one);
/// - optional columns null in patterns (some pages all null);
/// - integers negative, zero and large.
fn rows(n: usize) -> Vec<Row> {
    let mut r = Rng(42);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let long = i % 7 == 0;
        let surtkey = if long { format!("com,example)/{:06}/{}", i, "ü".repeat(40)) } else { format!("com,example)/{i:06}") };
        let host = if i < 9_000 { format!("h{}.example.com", r.next(40)) } else { format!("{}-{i}.example.com", "x".repeat(230)) };
        let tld_null = (i / 1_000) % 5 == 3; // whole pages of nulls at 1,000-row pages
        let part = |s: &str| (!tld_null).then(|| s.to_string());
        out.push(Row {
            partition: String::new(),
            surtkey,
            url: format!("https://{host}/{i}?{}", r.next(1 << 30)),
            host: HostColumns {
                name: Some(host.clone()),
                parts: [part("com"), part("example"), (i % 3 == 0).then(|| format!("h{}", r.next(40))), None, (i % 1000 == 999).then(|| "deep".to_string())],
                registry_suffix: part("com"),
                registered_domain: part("example.com"),
                private_suffix: part("com"),
                private_domain: Some(format!("d{}.com", r.next(5000))),
                name_reversed: Some(host.split('.').rev().collect::<Vec<_>>().join(".")),
            },
            protocol: if i % 10 == 0 { "http".into() } else { "https".into() },
            port: (i % 11 == 0).then(|| if i % 2 == 0 { 8080 } else { -1 - i as i32 }),
            path: format!("/{i}"),
            query: (i % 4 == 0).then(|| format!("q={}", r.next(100))),
            fetch_time: 1_700_000_000_000 + r.next(1 << 40) as i64 - (1 << 39),
            status: [200i16, 404, 301, -1, 500][r.next(5) as usize],
            redirect: (i % 9 == 0).then(|| "/elsewhere".to_string()),
            digest: (i % 13 != 0).then(|| format!("SHA1:{:032}", r.next(3000))),
            mime: Some(["text/html", "application/pdf", "image/png"][r.next(3) as usize].into()),
            mime_detected: None,
            charset: (i % 2 == 0).then(|| "UTF-8".to_string()),
            languages: (i % 5 == 0).then(|| "eng,fra".to_string()),
            truncated: (i == 17).then(|| "length".to_string()),
            filename: format!("crawl-data/X/segments/1.{}/warc/f-{:05}.warc.gz", r.next(3), r.next(900)),
            offset: r.next(1 << 40) as i64,
            length: i as i64 * 3 - 1000,
            segment: format!("1.{}", r.next(3)),
        });
    }
    out
}

fn write(path: &std::path::Path, rows: &[Row], codec: Codec, bloom: bool) {
    let layout = FileLayout {
        codec,
        row_group_rows: 7_000,
        page_rows: 1_000,
        bloom_filters: bloom,
        created_by: "warcdex version test".into(),
        arrow_schema: parquet::arrow::encode_arrow_schema(&arrow_schema()),
    };
    let mut w = FileWriter::create(path, layout).unwrap();
    for r in rows {
        w.push(r).unwrap();
    }
    w.close().unwrap();
}

/// Column `c` of `row`, as the text the checks compare (`None` for null).
fn cell(row: &Row, c: usize) -> Option<String> {
    let h = &row.host;
    let s = |v: &String| Some(v.clone());
    match c {
        0 => s(&row.surtkey),
        1 => s(&row.url),
        2 => h.name.clone(),
        3..=7 => h.parts[c - 3].clone(),
        8 => h.registry_suffix.clone(),
        9 => h.registered_domain.clone(),
        10 => h.private_suffix.clone(),
        11 => h.private_domain.clone(),
        12 => h.name_reversed.clone(),
        13 => s(&row.protocol),
        14 => row.port.map(|p| p.to_string()),
        15 => s(&row.path),
        16 => row.query.clone(),
        17 => Some(row.fetch_time.to_string()),
        18 => Some(row.status.to_string()),
        19 => row.redirect.clone(),
        20 => row.digest.clone(),
        21 => row.mime.clone(),
        22 => row.mime_detected.clone(),
        23 => row.charset.clone(),
        24 => row.languages.clone(),
        25 => row.truncated.clone(),
        26 => s(&row.filename),
        27 => Some(row.offset.to_string()),
        28 => Some(row.length.to_string()),
        29 => s(&row.segment),
        _ => unreachable!(),
    }
}

fn read_all(path: &std::path::Path) -> Vec<Vec<Option<String>>> {
    let b = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let want = arrow_schema();
    let got = b.schema();
    assert_eq!(got.fields().len(), want.fields().len());
    for (g, w) in got.fields().iter().zip(want.fields()) {
        assert_eq!((g.name(), g.data_type(), g.is_nullable()), (w.name(), w.data_type(), w.is_nullable()));
    }
    let mut cols: Vec<Vec<Option<String>>> = vec![Vec::new(); COLUMNS.len()];
    for batch in b.build().unwrap() {
        let batch = batch.unwrap();
        for (c, col) in batch.columns().iter().enumerate() {
            for i in 0..col.len() {
                let v = if col.is_null(i) {
                    None
                } else {
                    Some(match col.data_type() {
                        arrow_schema::DataType::Utf8 => col.as_string::<i32>().value(i).to_string(),
                        arrow_schema::DataType::Int16 => col.as_primitive::<Int16Type>().value(i).to_string(),
                        arrow_schema::DataType::Int32 => col.as_primitive::<Int32Type>().value(i).to_string(),
                        arrow_schema::DataType::Int64 => col.as_primitive::<Int64Type>().value(i).to_string(),
                        arrow_schema::DataType::Timestamp(..) => col.as_primitive::<TimestampMillisecondType>().value(i).to_string(),
                        t => panic!("unexpected type {t}"),
                    })
                };
                cols[c].push(v);
            }
        }
    }
    cols
}

#[test]
fn every_value_comes_back_with_every_codec() {
    let rows = rows(20_000);
    let dir = tempfile::tempdir().unwrap();
    for codec in [Codec::Zstd, Codec::Gzip, Codec::Snappy, Codec::None] {
        let path = dir.path().join(format!("{codec:?}.parquet"));
        write(&path, &rows, codec, false);
        let cols = read_all(&path);
        for (c, col) in cols.iter().enumerate() {
            assert_eq!(col.len(), rows.len(), "{codec:?} column {c}");
            for (i, v) in col.iter().enumerate() {
                assert_eq!(v, &cell(&rows[i], c), "{codec:?} column {} row {i}", COLUMNS[c].0);
            }
        }
    }
}

/// Encodings per column chunk, as the footer lists them.
fn encodings(path: &std::path::Path) -> Vec<Vec<String>> {
    let r = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let rg = r.metadata().row_group(0);
    (0..COLUMNS.len()).map(|c| rg.column(c).encodings().map(|e| format!("{e:?}")).collect()).collect()
}

#[test]
fn dictionaries_kept_dropped_and_overflowing() {
    let rows = rows(20_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.parquet");
    write(&path, &rows, Codec::Zstd, false);
    let enc = encodings(&path);
    let col = |name: &str| COLUMNS.iter().position(|c| c.0 == name).unwrap();
    // Few distinct values: dictionary pages only.
    assert_eq!(enc[col("content_mime_type")], ["PLAIN", "RLE", "RLE_DICTIONARY"]);
    // Unique from the first page on: the dictionary is dropped.
    assert_eq!(enc[col("url_query")], ["PLAIN", "RLE", "RLE_DICTIONARY"], "100 values: kept");
    assert_eq!(enc[col("url")], ["RLE", "DELTA_BYTE_ARRAY"], "never tried; prefixes shared");
    assert_eq!(enc[col("url_path")], ["PLAIN", "RLE"], "never tried");
    // Mostly distinct on the first page (900 of 1,000): dropped, no dictionary page.
    assert_eq!(enc[col("url_host_private_domain")], ["RLE", "DELTA_BYTE_ARRAY"], "dictionary dropped");
    assert_eq!(enc[col("warc_record_offset")], ["RLE", "DELTA_BINARY_PACKED"], "integers bit-packed");
    assert_eq!(enc[col("fetch_time")], ["RLE", "DELTA_BINARY_PACKED"]);
    // The second row group of url_host_name: 40 names, then 5,000 rows of
    // 200-byte names overflow the dictionary's 1 MiB mid-chunk.
    let r = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
    let host = r.metadata().row_group(1).column(col("url_host_name"));
    let stats: Vec<_> = host.page_encoding_stats().unwrap().iter().map(|s| (format!("{:?}", s.page_type), format!("{:?}", s.encoding), s.count)).collect();
    assert!(stats.iter().any(|s| s.1 == "RLE_DICTIONARY") && stats.iter().any(|s| s.0 == "DATA_PAGE" && s.1 == "PLAIN"), "{stats:?}");
    // The third: unique names from its first page on, so no dictionary.
    let host = r.metadata().row_group(2).column(col("url_host_name"));
    assert_eq!(host.dictionary_page_offset(), None);
}

#[test]
fn page_index_and_statistics_bound_their_rows() {
    let rows = rows(20_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.parquet");
    write(&path, &rows, Codec::Zstd, false);
    let opts = ReadOptionsBuilder::new().with_page_index().build();
    let r = SerializedFileReader::new_with_options(File::open(&path).unwrap(), opts).unwrap();
    let md = r.metadata();
    assert_eq!(md.num_row_groups(), 3);
    assert_eq!(md.file_metadata().created_by(), Some("warcdex version test"));
    let (ci, oi) = (md.column_index().unwrap(), md.offset_index().unwrap());
    let mut base = 0usize;
    for g in 0..md.num_row_groups() {
        let rg = md.row_group(g);
        let n = rg.num_rows() as usize;
        assert_eq!(rg.sorting_columns().unwrap().iter().map(|s| s.column_idx).collect::<Vec<_>>(), [0, 17]);
        for (c, &(name, _, _)) in COLUMNS.iter().enumerate() {
            let locs = oi[g][c].page_locations();
            let starts: Vec<usize> = locs.iter().map(|l| l.first_row_index as usize).chain([n]).collect();
            let values: Vec<Option<String>> = rows[base..base + n].iter().map(|row| cell(row, c)).collect();
            for p in 0..locs.len() {
                let page = &values[starts[p]..starts[p + 1]];
                let nulls = page.iter().filter(|v| v.is_none()).count() as i64;
                let idx = &ci[g][c];
                assert_eq!(idx.null_count(p), Some(nulls), "{name} rg {g} page {p}");
                assert_eq!(idx.is_null_page(p), nulls == page.len() as i64, "{name} rg {g} page {p}");
                let present = page.iter().flatten();
                match idx {
                    ColumnIndexMetaData::BYTE_ARRAY(b) => {
                        if let (Some(lo), Some(hi)) = (b.min_value(p), b.max_value(p)) {
                            assert!(lo.len() <= 64 && hi.len() <= 66, "{name}: bounds cut");
                            for v in present {
                                assert!(lo <= v.as_bytes() && v.as_bytes() <= hi, "{name} rg {g} page {p}: {v}");
                            }
                            let (vmin, vmax) = (page.iter().flatten().min().unwrap(), page.iter().flatten().max().unwrap());
                            assert!(vmin.as_bytes().starts_with(lo), "{name}: the lower bound is the minimum's prefix");
                            if vmax.len() <= 64 {
                                assert_eq!(hi, vmax.as_bytes(), "{name}: short maxima exact");
                            }
                        }
                    }
                    ColumnIndexMetaData::INT32(ix) => {
                        if let (Some(lo), Some(hi)) = (ix.min_value(p), ix.max_value(p)) {
                            let vals: Vec<i32> = present.map(|v| v.parse().unwrap()).collect();
                            assert_eq!((*lo, *hi), (*vals.iter().min().unwrap(), *vals.iter().max().unwrap()), "{name}");
                        }
                    }
                    ColumnIndexMetaData::INT64(ix) => {
                        let vals: Vec<i64> = present.map(|v| v.parse().unwrap()).collect();
                        assert_eq!((ix.min_value(p), ix.max_value(p)), (vals.iter().min(), vals.iter().max()), "{name}");
                    }
                    other => panic!("{name}: unexpected index {other:?}"),
                }
            }
            // Chunk statistics: null count and bounds of the whole chunk.
            let st = rg.column(c).statistics().unwrap();
            assert_eq!(st.null_count_opt(), Some(values.iter().filter(|v| v.is_none()).count() as u64), "{name}");
        }
        // url_surtkey is sorted, so its pages are in ascending order.
        assert!(ci[g][0].is_sorted(), "boundary order of url_surtkey");
        base += n;
    }
}

#[test]
fn bloom_filters_find_every_value() {
    let rows = rows(8_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.parquet");
    write(&path, &rows, Codec::Zstd, true);
    let props = ReaderProperties::builder().set_read_bloom_filter(true).build();
    let opts = ReadOptionsBuilder::new().with_reader_properties(props).build();
    let r = SerializedFileReader::new_with_options(File::open(&path).unwrap(), opts).unwrap();
    let g0 = r.get_row_group(0).unwrap();
    let surt = g0.get_column_bloom_filter(0).expect("url_surtkey filter");
    let domain = g0.get_column_bloom_filter(9).expect("registered-domain filter");
    assert!(g0.get_column_bloom_filter(1).is_none(), "no filter on url");
    for row in &rows[..7_000] {
        assert!(surt.check(&row.surtkey.as_str()));
    }
    assert!(domain.check(&"example.com"));
    let misses = (0..1000).filter(|i| surt.check(&format!("org,none)/{i}").as_str())).count();
    assert!(misses < 50, "{misses} false positives of 1000");
}
