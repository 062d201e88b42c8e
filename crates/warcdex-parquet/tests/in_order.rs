//! Indexes that come sorted are written without the sort: the files must
//! be those the sort gives, and an input that stops being in order must
//! still give every row, each file sorted.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use parquet::file::reader::{FileReader, SerializedFileReader};
use warcdex_parquet::inputs::Input;
use warcdex_parquet::job::{run, NoObserver, ParquetJob, Summary};
use warcdex_parquet::writer::Layout;

struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// CC-style CDXJ lines of `crawls` crawls, in random order. Statuses and
/// robots.txt paths spread them over three subsets, which interleave once
/// sorted; some keys and timestamps repeat (ties keep arrival order).
fn lines(n: usize, crawls: u64) -> Vec<String> {
    let mut r = Rng(7);
    (0..n)
        .map(|i| {
            let host = format!("h{}.example.org", r.next(200));
            let path = if r.next(10) == 0 { "robots.txt".to_string() } else { format!("p{}", r.next(50)) };
            let status = [200, 200, 301, 404][r.next(4) as usize];
            let crawl = format!("CC-MAIN-2024-{:02}", 10 + r.next(crawls));
            let subset = if path == "robots.txt" { "robotstxt" } else if status == 200 { "warc" } else { "crawldiagnostics" };
            let file = format!("crawl-data/{crawl}/segments/1715971057277.{}/{subset}/CC-MAIN-x-{:05}.warc.gz", r.next(3), r.next(20));
            format!(
                r#"org,example,{host_rev})/{path} 202405{day:02}000000 {{"url": "https://{host}/{path}", "mime": "text/html", "status": "{status}", "digest": "D{i}", "length": "{len}", "offset": "{i}", "filename": "{file}"}}"#,
                host_rev = host.trim_end_matches(".example.org"),
                day = 1 + r.next(3),
                len = 100 + r.next(900),
            )
        })
        .collect()
}

/// As `sort` sorts index files: by key, then timestamp, stable.
fn sorted(lines: &[String]) -> Vec<String> {
    let mut s = lines.to_vec();
    let key = |l: &String| {
        let mut f = l.splitn(3, ' ');
        (f.next().unwrap().to_string(), f.next().unwrap().to_string())
    };
    s.sort_by_key(key);
    s
}

fn convert(dir: &Path, name: &str, lines: &[String], probe_rows: u64, budget: usize) -> (Summary, PathBuf) {
    let input = dir.join(format!("{name}.cdxj"));
    let mut f = File::create(&input).unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
    drop(f);
    let out = dir.join(name);
    let job = ParquetJob {
        probe_rows,
        sort_budget: budget,
        layout: Layout { row_group_rows: 500, page_rows: 100, max_file_rows: 1_500, ..Layout::default() },
        ..ParquetJob::default()
    };
    let s = run(&[Input::Index(input)], &out, &job, &mut NoObserver).unwrap();
    (s, out)
}

/// Every file's rows (all columns as text), by partition, in file order.
fn rows_by_partition(s: &Summary, root: &Path) -> BTreeMap<String, Vec<Vec<String>>> {
    let mut out: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for f in &s.files {
        let part = f.path.parent().unwrap().strip_prefix(root).unwrap().display().to_string();
        let reader = SerializedFileReader::new(File::open(&f.path).unwrap()).unwrap();
        let rows: Vec<Vec<String>> =
            reader.get_row_iter(None).unwrap().map(|r| r.unwrap().get_column_iter().map(|(_, v)| v.to_string()).collect()).collect();
        assert_eq!(rows.len() as u64, f.rows);
        // Sorted by (url_surtkey, fetch_time) in every file.
        let keys: Vec<(&String, &String)> = rows.iter().map(|r| (&r[0], &r[17])).collect();
        assert!(keys.is_sorted(), "{} is not sorted", f.path.display());
        out.entry(part).or_default().extend(rows);
    }
    out
}

/// The bytes of every file, by partition, in file order.
fn bytes_by_partition(s: &Summary, root: &Path) -> BTreeMap<String, Vec<Vec<u8>>> {
    let mut out: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    let mut files = s.files.clone();
    files.sort_by_key(|f| f.path.file_name().unwrap().to_os_string());
    for f in files {
        let part = f.path.parent().unwrap().strip_prefix(root).unwrap().display().to_string();
        out.entry(part).or_default().push(std::fs::read(&f.path).unwrap());
    }
    out
}

#[test]
fn sorted_input_gives_the_files_of_the_sort() {
    let dir = tempfile::tempdir().unwrap();
    let all = lines(4_000, 2);
    let (sort, sort_root) = convert(dir.path(), "sort", &all, 0, 64 << 20);
    let (stream, stream_root) = convert(dir.path(), "stream", &sorted(&all), 300, 64 << 20);
    assert_eq!((sort.streamed_rows, stream.streamed_rows), (0, 4_000));
    assert!(rows_by_partition(&stream, &stream_root).len() >= 6, "crawls x subsets interleave");
    // Byte for byte, but for the file names' sequence numbers.
    assert_eq!(bytes_by_partition(&stream, &stream_root), bytes_by_partition(&sort, &sort_root));
}

#[test]
fn rows_out_of_order_later_are_sorted_into_files_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let all = lines(4_000, 2);
    // In order for 2,500 rows, then random.
    let mut mixed = sorted(&all[..2_500]);
    mixed.extend_from_slice(&all[2_500..]);
    let (sort, sort_root) = convert(dir.path(), "sort", &mixed, 0, 64 << 20);
    let (s, root) = convert(dir.path(), "mixed", &mixed, 300, 64 << 20);
    assert_eq!(s.streamed_rows, 2_500);
    assert_eq!(s.rows, 4_000);
    // The same rows per partition (each file sorted, checked on reading).
    let sorted_rows = |m: BTreeMap<String, Vec<Vec<String>>>| m.into_iter().map(|(p, mut r)| (p, { r.sort(); r })).collect::<BTreeMap<_, _>>();
    assert_eq!(sorted_rows(rows_by_partition(&s, &root)), sorted_rows(rows_by_partition(&sort, &sort_root)));
    assert!(s.files.len() > sort.files.len(), "the streamed rows keep their files");
}

/// `lines` watched for `probe_rows` stream none of them and give the bytes
/// of the sort.
fn assert_sorted_as_always(lines: &[String], probe_rows: u64) {
    let dir = tempfile::tempdir().unwrap();
    let (sort, sort_root) = convert(dir.path(), "sort", lines, 0, 64 << 20);
    let (s, root) = convert(dir.path(), "probe", lines, probe_rows, 64 << 20);
    assert_eq!(s.streamed_rows, 0);
    assert_eq!(bytes_by_partition(&s, &root), bytes_by_partition(&sort, &sort_root));
}

#[test]
fn inputs_out_of_order_early_are_sorted_as_before() {
    assert_sorted_as_always(&lines(2_000, 2), 300);
}

#[test]
fn too_many_partitions_mean_the_sort() {
    // Five crawls of three subsets: more partitions than files kept open.
    assert_sorted_as_always(&sorted(&lines(3_000, 5)), 2_000);
}

#[test]
fn rows_watched_past_a_spill_are_merged_first() {
    let dir = tempfile::tempdir().unwrap();
    let all = sorted(&lines(3_000, 1));
    let (sort, sort_root) = convert(dir.path(), "sort", &all, 0, 64 << 20);
    // A budget that spills before the rows watched are in.
    let (s, root) = convert(dir.path(), "spill", &all, 2_000, 64 << 10);
    assert!(s.spilled_runs > 0);
    assert_eq!(s.streamed_rows, 3_000);
    assert_eq!(bytes_by_partition(&s, &root), bytes_by_partition(&sort, &sort_root));
}

#[test]
fn unsorted_input_gives_the_files_of_the_input_in_order() {
    let dir = tempfile::tempdir().unwrap();
    // More rows than the sorter places in arrival order before it puts
    // records in chunks by key range.
    let all = lines(20_000, 2);
    let (want, want_root) = convert(dir.path(), "streamed", &sorted(&all), 300, 64 << 20);
    assert_eq!(want.streamed_rows, 20_000);
    for (name, budget) in [("held", 64 << 20), ("spilled", 2 << 20)] {
        let (s, root) = convert(dir.path(), name, &all, 0, budget);
        assert_eq!((s.streamed_rows, s.spilled_runs > 0), (0, name == "spilled"), "{name}");
        assert_eq!(bytes_by_partition(&s, &root), bytes_by_partition(&want, &want_root), "{name}");
    }
}
