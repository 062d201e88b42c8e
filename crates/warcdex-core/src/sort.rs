//! Sorted output with bounded memory: lines are sorted in runs that fit a
//! memory budget, runs spill to temporary files, and a k-way merge writes
//! them out. Duplicate lines are written once, as cdxj-indexer does.
//! Lines compare as bytes, which for UTF-8 is Python's code-point order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};

pub const DEFAULT_BUDGET: usize = 64 << 20;

pub struct ExternalSorter {
    lines: Vec<Box<[u8]>>,
    bytes: usize,
    budget: usize,
    runs: Vec<File>,
    tmp_dir: Option<std::path::PathBuf>,
    /// Write repeated lines as often as they come (pywb's sort keeps them).
    keep_duplicates: bool,
}

impl ExternalSorter {
    pub fn new(budget: usize, tmp_dir: Option<std::path::PathBuf>) -> Self {
        ExternalSorter { lines: Vec::new(), bytes: 0, budget: budget.max(1 << 16), runs: Vec::new(), tmp_dir, keep_duplicates: false }
    }

    /// Keeps repeated lines instead of writing each distinct line once.
    pub fn keep_duplicates(mut self, keep: bool) -> Self {
        self.keep_duplicates = keep;
        self
    }

    /// Adds a line; it must end with `\n`.
    pub fn push(&mut self, line: &[u8]) -> io::Result<()> {
        self.bytes += line.len() + 32;
        self.lines.push(line.into());
        if self.bytes >= self.budget {
            self.spill()?;
        }
        Ok(())
    }

    pub fn spilled_runs(&self) -> usize {
        self.runs.len()
    }

    fn spill(&mut self) -> io::Result<()> {
        self.lines.sort_unstable();
        let dir = self.tmp_dir.clone().unwrap_or_else(std::env::temp_dir);
        let write = || -> io::Result<File> {
            // Unlinked at once: the run's space is freed however the process ends.
            let mut w = BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(&dir)?);
            let mut last: Option<&[u8]> = None;
            for l in &self.lines {
                if self.keep_duplicates || last != Some(&l[..]) {
                    w.write_all(l)?;
                }
                last = Some(l);
            }
            let mut file = w.into_inner().map_err(|e| e.into_error())?;
            io::Seek::seek(&mut file, io::SeekFrom::Start(0))?;
            Ok(file)
        };
        let file = write().map_err(|e| crate::output::at_path(&dir, io::Error::new(e.kind(), format!("spilling sorted lines: {e}"))))?;
        self.runs.push(file);
        self.lines.clear();
        self.bytes = 0;
        Ok(())
    }

    /// Writes every line in order, each distinct line once.
    pub fn finish<W: Write>(mut self, out: &mut W) -> io::Result<()> {
        if self.runs.is_empty() {
            self.lines.sort_unstable();
            let mut last: Option<&[u8]> = None;
            for l in &self.lines {
                if self.keep_duplicates || last != Some(&l[..]) {
                    out.write_all(l)?;
                }
                last = Some(l);
            }
            return Ok(());
        }
        if !self.lines.is_empty() {
            self.spill()?;
        }
        let mut readers: Vec<BufReader<File>> =
            self.runs.drain(..).map(|f| BufReader::with_capacity(1 << 20, f)).collect();
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            let mut l = Vec::new();
            if r.read_until(b'\n', &mut l)? > 0 {
                heap.push(Reverse((l, i)));
            }
        }
        let mut last: Vec<u8> = Vec::new();
        let mut have_last = false;
        while let Some(Reverse((line, i))) = heap.pop() {
            if self.keep_duplicates || !have_last || line != last {
                out.write_all(&line)?;
            }
            let mut next = Vec::new();
            if readers[i].read_until(b'\n', &mut next)? > 0 {
                heap.push(Reverse((next, i)));
            }
            last = line;
            have_last = true;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_dedupes_and_spills() {
        let mut s = ExternalSorter::new(1, None);
        s.budget = 100;
        let mut want = Vec::new();
        for i in (0..500u32).rev() {
            let l = format!("k{:04} line\n", i % 250);
            s.push(l.as_bytes()).unwrap();
            want.push(l);
        }
        assert!(s.spilled_runs() > 3);
        want.sort();
        want.dedup();
        let mut out = Vec::new();
        s.finish(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), want.concat());
    }

    #[test]
    fn keeps_duplicates_when_asked() {
        for budget in [100, 1 << 20] {
            let mut s = ExternalSorter::new(1, None).keep_duplicates(true);
            s.budget = budget;
            let mut want = Vec::new();
            for i in (0..500u32).rev() {
                let l = format!("k{:04} line\n", i % 250);
                s.push(l.as_bytes()).unwrap();
                want.push(l);
            }
            want.sort();
            let mut out = Vec::new();
            s.finish(&mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), want.concat());
        }
    }
}
