//! Rows sorted by (partition, url_surtkey, fetch_time) in bounded memory:
//! sorted runs are spilled to temporary files and merged at the end.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::PathBuf;

use crate::row::Row;

/// Memory for rows held before a run is spilled (row sizes are estimates).
pub const DEFAULT_BUDGET: usize = 256 << 20;

fn order(a: &Row, b: &Row) -> Ordering {
    a.partition.cmp(&b.partition).then_with(|| a.surtkey.cmp(&b.surtkey)).then_with(|| a.fetch_time.cmp(&b.fetch_time))
}

pub struct RowSorter {
    budget: usize,
    tmp_dir: Option<PathBuf>,
    rows: Vec<Row>,
    bytes: usize,
    runs: Vec<File>,
}

impl RowSorter {
    pub fn new(budget: usize, tmp_dir: Option<PathBuf>) -> RowSorter {
        RowSorter { budget, tmp_dir, rows: Vec::new(), bytes: 0, runs: Vec::new() }
    }

    pub fn push(&mut self, row: Row) -> io::Result<()> {
        self.bytes += row.heap_size();
        self.rows.push(row);
        if self.bytes >= self.budget {
            self.spill()?;
        }
        Ok(())
    }

    /// The rows' indices in order. Rows are several hundred bytes, so
    /// sorting indices moves far less memory than sorting the rows.
    fn sorted_order(&self) -> Vec<u32> {
        let mut idx: Vec<u32> = (0..self.rows.len() as u32).collect();
        idx.sort_unstable_by(|&a, &b| order(&self.rows[a as usize], &self.rows[b as usize]));
        idx
    }

    pub fn spilled_runs(&self) -> usize {
        self.runs.len()
    }

    fn spill(&mut self) -> io::Result<()> {
        let order = self.sorted_order();
        let mut f = match &self.tmp_dir {
            Some(d) => tempfile::tempfile_in(d)?,
            None => tempfile::tempfile()?,
        };
        {
            let mut w = BufWriter::with_capacity(1 << 20, &mut f);
            let mut buf = Vec::with_capacity(4096);
            for &i in &order {
                buf.clear();
                self.rows[i as usize].encode(&mut buf);
                w.write_all(&buf)?;
            }
            w.flush()?;
        }
        f.seek(SeekFrom::Start(0))?;
        self.runs.push(f);
        self.bytes = 0;
        self.rows.clear();
        Ok(())
    }

    /// Hands every row to `sink` in order.
    pub fn finish(mut self, sink: &mut dyn FnMut(&Row) -> io::Result<()>) -> io::Result<()> {
        if self.runs.is_empty() {
            for i in self.sorted_order() {
                sink(&self.rows[i as usize])?;
            }
            return Ok(());
        }
        if !self.rows.is_empty() {
            self.spill()?;
        }
        struct Head(Row, usize);
        impl PartialEq for Head {
            fn eq(&self, o: &Self) -> bool {
                self.cmp(o) == Ordering::Equal
            }
        }
        impl Eq for Head {}
        impl PartialOrd for Head {
            fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
                Some(self.cmp(o))
            }
        }
        impl Ord for Head {
            // Reversed for a min-heap; the run index keeps equal keys stable.
            fn cmp(&self, o: &Self) -> Ordering {
                order(&o.0, &self.0).then_with(|| o.1.cmp(&self.1))
            }
        }
        let mut readers: Vec<BufReader<File>> = self.runs.drain(..).map(|f| BufReader::with_capacity(256 << 10, f)).collect();
        let mut scratch = Vec::new();
        let mut heap = BinaryHeap::with_capacity(readers.len());
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(row) = Row::decode(r, &mut scratch)? {
                heap.push(Head(row, i));
            }
        }
        while let Some(Head(row, i)) = heap.pop() {
            sink(&row)?;
            if let Some(next) = Row::decode(&mut readers[i], &mut scratch)? {
                heap.push(Head(next, i));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilled_runs_merge_in_order() {
        let mut s = RowSorter::new(10_000, None);
        let mut want = Vec::new();
        for i in 0..1000u32 {
            let k = (i * 7919) % 1000;
            let row = Row { partition: format!("p={}", k % 3), surtkey: format!("com,x)/{k:04}"), ..Default::default() };
            want.push((row.partition.clone(), row.surtkey.clone()));
            s.push(row).unwrap();
        }
        assert!(s.spilled_runs() > 5, "the budget forces spills");
        want.sort();
        let mut got = Vec::new();
        s.finish(&mut |r| {
            got.push((r.partition.clone(), r.surtkey.clone()));
            Ok(())
        })
        .unwrap();
        assert_eq!(got, want);
    }
}
