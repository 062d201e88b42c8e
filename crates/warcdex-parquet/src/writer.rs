//! Rows, already in url_surtkey order within each partition, into
//! Hive-partitioned Parquet files of bounded row count. Sorted rows come
//! partition after partition and keep one file open; an index read as it
//! is sorted interleaves its partitions (Common Crawl's subsets), and then
//! each has a file open.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub use crate::compress::Codec;
use crate::file::{FileLayout, FileWriter};
use crate::row::Row;
use crate::schema::arrow_schema;
use warcdex_core::output::at_path;

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
        Layout { codec: Codec::Zstd, max_file_rows: 10_000_000, row_group_rows: 100_000, page_rows: 5_000, bloom_filters: false }
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
    /// Appended to each file name while the dataset is staged (see
    /// `warcdex_core::output::Dataset::staged_suffix`).
    suffix: String,
    seq: u32,
    /// Files being written, one per partition; the last one used first.
    open: Vec<Open>,
    last: usize,
    max_open: usize,
    pub files: Vec<WrittenFile>,
}

struct Open {
    partition: String,
    path: PathBuf,
    writer: FileWriter,
    rows: u64,
}

impl DatasetWriter {
    /// Files go below `root`, named with `run_id` (distinct per run, so an
    /// append adds files beside the earlier ones) and `suffix`.
    pub fn new(root: &Path, layout: Layout, run_id: &str, suffix: &str) -> io::Result<DatasetWriter> {
        fs::create_dir_all(root).map_err(|e| warcdex_core::output::at_path(root, e))?;
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
            run_id: run_id.to_string(),
            suffix: suffix.to_string(),
            seq: 0,
            open: Vec::new(),
            last: 0,
            max_open: 1,
            files: Vec::new(),
        })
    }

    /// How many partitions may have a file open at once (at least one):
    /// opening another closes the one opened first. Each open file holds a
    /// row group in memory.
    pub fn set_max_open(&mut self, n: usize) -> io::Result<()> {
        self.max_open = n.max(1);
        while self.open.len() > self.max_open {
            self.close_file(0)?;
        }
        Ok(())
    }

    /// How many files are open.
    pub fn open_files(&self) -> usize {
        self.open.len()
    }

    pub fn push<S: AsRef<str>>(&mut self, row: &Row<S>) -> io::Result<()> {
        let partition = row.partition.as_ref();
        let found = match self.open.get(self.last) {
            Some(o) if o.partition == partition => Some(self.last),
            _ => self.open.iter().position(|o| o.partition == partition),
        };
        let i = match found {
            Some(i) if self.open[i].rows < self.layout.max_file_rows => i,
            Some(i) => {
                self.close_file(i)?;
                self.open_file(partition)?
            }
            None => {
                if self.open.len() >= self.max_open {
                    self.close_file(0)?;
                }
                self.open_file(partition)?
            }
        };
        self.last = i;
        let o = &mut self.open[i];
        o.writer.push(row).map_err(|e| at_path(&o.path, e))?;
        o.rows += 1;
        Ok(())
    }

    /// Opens the next file of `partition`; its index in `open`.
    fn open_file(&mut self, partition: &str) -> io::Result<usize> {
        let dir = if partition.is_empty() { self.root.clone() } else { self.root.join(partition) };
        fs::create_dir_all(&dir).map_err(|e| at_path(&dir, e))?;
        let path = dir.join(format!("part-{:05}-{}.c000{}.parquet{}", self.seq, self.run_id, self.layout.codec.suffix(), self.suffix));
        self.seq += 1;
        let writer = FileWriter::create(&path, self.file_layout.clone()).map_err(|e| at_path(&path, e))?;
        self.open.push(Open { partition: partition.to_string(), path, writer, rows: 0 });
        Ok(self.open.len() - 1)
    }

    fn close_file(&mut self, i: usize) -> io::Result<()> {
        let o = self.open.remove(i);
        o.writer.close().map_err(|e| at_path(&o.path, e))?;
        let bytes = fs::metadata(&o.path)?.len();
        self.files.push(WrittenFile { path: o.path, rows: o.rows, bytes });
        Ok(())
    }

    /// Closes every open file: rows pushed later start new ones.
    pub fn close_all(&mut self) -> io::Result<()> {
        while !self.open.is_empty() {
            self.close_file(0)?;
        }
        Ok(())
    }

    pub fn finish(mut self) -> io::Result<Vec<WrittenFile>> {
        self.close_all()?;
        Ok(self.files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_partitioned_files_with_the_schema() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = DatasetWriter::new(dir.path(), Layout { max_file_rows: 2, ..Layout::default() }, "r", "").unwrap();
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

    #[test]
    fn interleaved_partitions_keep_a_file_each() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = DatasetWriter::new(dir.path(), Layout { max_file_rows: 3, ..Layout::default() }, "r", "").unwrap();
        w.set_max_open(2).unwrap();
        let row = |p: &str, i: usize| Row { partition: format!("crawl=C/subset={p}"), surtkey: format!("k{i:02}"), ..Default::default() };
        for i in 0..7 {
            w.push(&row("warc", i)).unwrap();
            if i % 2 == 0 {
                w.push(&row("crawldiagnostics", i)).unwrap();
            }
        }
        assert_eq!(w.open_files(), 2);
        // A third partition closes the file opened first.
        w.push(&row("robotstxt", 0)).unwrap();
        assert_eq!(w.open_files(), 2);
        let files = w.finish().unwrap();
        let mut got: Vec<(String, u64)> = files.iter().map(|f| (f.path.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned(), f.rows)).collect();
        got.sort();
        let want = [("subset=crawldiagnostics", 1), ("subset=crawldiagnostics", 3), ("subset=robotstxt", 1), ("subset=warc", 1), ("subset=warc", 3), ("subset=warc", 3)];
        assert_eq!(got, want.map(|(p, n)| (p.to_string(), n)));
        // Each file's keys in order.
        use parquet::file::reader::FileReader;
        for f in &files {
            let reader = parquet::file::reader::SerializedFileReader::new(fs::File::open(&f.path).unwrap()).unwrap();
            let keys: Vec<String> = reader.get_row_iter(None).unwrap().map(|r| { use parquet::record::RowAccessor; r.unwrap().get_string(0).unwrap().clone() }).collect();
            assert!(keys.is_sorted(), "{keys:?}");
            assert_eq!(keys.len() as u64, f.rows);
        }
    }
}
