//! Rows, already in (partition, url_surtkey) order, into Hive-partitioned
//! Parquet files of bounded row count.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub use crate::compress::Codec;
use crate::file::{FileLayout, FileWriter};
use crate::row::Row;
use crate::schema::arrow_schema;

#[derive(Debug, Clone)]
pub struct Layout {
    pub codec: Codec,
    pub max_file_rows: u64,
    /// Rows per row group: the unit min/max statistics skip (see README).
    pub row_group_rows: usize,
    /// Rows per data page: the unit of the page index (column index).
    pub page_rows: usize,
    pub bloom_filters: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { codec: Codec::Zstd, max_file_rows: 10_000_000, row_group_rows: 100_000, page_rows: 10_000, bloom_filters: false }
    }
}

/// One written Parquet file.
#[derive(Debug, Clone)]
pub struct WrittenFile {
    pub path: PathBuf,
    pub rows: u64,
    pub bytes: u64,
}

pub struct DatasetWriter {
    root: PathBuf,
    layout: Layout,
    file_layout: FileLayout,
    run_id: String,
    seq: u32,
    current: Option<Open>,
    pub files: Vec<WrittenFile>,
}

struct Open {
    partition: String,
    path: PathBuf,
    writer: FileWriter,
    rows: u64,
}

impl DatasetWriter {
    pub fn new(root: &Path, layout: Layout) -> io::Result<DatasetWriter> {
        fs::create_dir_all(root)?;
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        // Distinct names per run, so a second run adds files beside the first.
        let run_id = format!("{:08x}{:04x}", (nanos as u64) ^ ((nanos >> 64) as u64), std::process::id() & 0xffff);
        Ok(DatasetWriter {
            root: root.to_path_buf(),
            file_layout: FileLayout {
                codec: layout.codec,
                row_group_rows: layout.row_group_rows.max(1),
                page_rows: layout.page_rows.max(1),
                bloom_filters: layout.bloom_filters,
                // "<app> version <v>": the form parquet-mr parses before it
                // trusts string statistics.
                created_by: format!("warcdex version {}", env!("CARGO_PKG_VERSION")),
                arrow_schema: parquet::arrow::encode_arrow_schema(&arrow_schema()),
            },
            layout,
            run_id,
            seq: 0,
            current: None,
            files: Vec::new(),
        })
    }

    pub fn push<S: AsRef<str>>(&mut self, row: &Row<S>) -> io::Result<()> {
        let partition = row.partition.as_ref();
        let rotate = match &self.current {
            Some(o) => o.partition != partition || o.rows >= self.layout.max_file_rows,
            None => true,
        };
        if rotate {
            self.close_file()?;
            let dir = if partition.is_empty() { self.root.clone() } else { self.root.join(partition) };
            fs::create_dir_all(&dir)?;
            let path = dir.join(format!("part-{:05}-{}.c000{}.parquet", self.seq, self.run_id, self.layout.codec.suffix()));
            self.seq += 1;
            let writer = FileWriter::create(&path, self.file_layout.clone())?;
            self.current = Some(Open { partition: partition.to_string(), path, writer, rows: 0 });
        }
        let o = self.current.as_mut().expect("open file");
        o.writer.push(row)?;
        o.rows += 1;
        Ok(())
    }

    fn close_file(&mut self) -> io::Result<()> {
        if let Some(o) = self.current.take() {
            o.writer.close()?;
            let bytes = fs::metadata(&o.path)?.len();
            self.files.push(WrittenFile { path: o.path, rows: o.rows, bytes });
        }
        Ok(())
    }

    pub fn finish(mut self) -> io::Result<Vec<WrittenFile>> {
        self.close_file()?;
        Ok(self.files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_partitioned_files_with_the_schema() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = DatasetWriter::new(dir.path(), Layout { max_file_rows: 2, ..Layout::default() }).unwrap();
        for i in 0..5 {
            let row = Row { partition: "crawl=C/subset=warc".into(), surtkey: format!("k{i}"), status: 200, ..Default::default() };
            w.push(&row).unwrap();
        }
        let files = w.finish().unwrap();
        assert_eq!(files.iter().map(|f| f.rows).collect::<Vec<_>>(), vec![2, 2, 1]);
        assert!(files[0].path.parent().unwrap().ends_with("crawl=C/subset=warc"));
        let reader = parquet::file::reader::SerializedFileReader::new(fs::File::open(&files[0].path).unwrap()).unwrap();
        use parquet::file::reader::FileReader;
        let schema = reader.metadata().file_metadata().schema_descr();
        assert_eq!(schema.num_columns(), 30);
        assert_eq!(schema.column(18).name(), "fetch_status");
    }
}
