//! Manifest rows (`id timestamp url length md5`, tab separated, one header
//! line) and the master manifest (`file_name type range_start range_end size md5`).

pub const HEADER: &str = "id\ttimestamp\turl\tlength\tmd5";
pub const MASTER_HEADER: &str = "file_name\ttype\trange_start\trange_end\tsize\tmd5";
const FIELDS: [&str; 5] = ["id", "timestamp", "url", "length", "md5"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub id: u64,
    /// Unix seconds.
    pub timestamp: i64,
    pub url: String,
    pub length: u64,
    /// Lower-case hex.
    pub md5: String,
}

/// Where each field is in a row: the standard order, or the order a
/// differing header names (when it still names all five).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns([usize; 5]);

impl Default for Columns {
    fn default() -> Self {
        Columns([0, 1, 2, 3, 4])
    }
}

/// The columns of a header line; Err carries the columns used anyway and
/// what differs from the expected header.
pub fn parse_header(line: &str) -> Result<Columns, (Columns, String)> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line == HEADER {
        return Ok(Columns::default());
    }
    let names: Vec<&str> = line.split(['\t', ' ']).filter(|s| !s.is_empty()).collect();
    let mut cols = [usize::MAX; 5];
    for (i, f) in FIELDS.iter().enumerate() {
        if let Some(p) = names.iter().position(|n| n.eq_ignore_ascii_case(f)) {
            cols[i] = p;
        }
    }
    let msg = format!("manifest header is {line:?}, expected {HEADER:?}");
    if cols.contains(&usize::MAX) {
        Err((Columns::default(), msg))
    } else {
        Err((Columns(cols), msg))
    }
}

/// True when the line looks like a header rather than a row.
pub fn looks_like_header(line: &str) -> bool {
    !line.starts_with(|c: char| c.is_ascii_digit())
}

pub fn parse_row(line: &str, cols: Columns) -> Result<Row, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() < 5 {
        return Err(format!("manifest row has {} fields, expected 5: {line:?}", f.len()));
    }
    let [i_id, i_ts, i_url, i_len, i_md5] = cols.0;
    // A header naming more columns than the row has (found by fuzzing).
    let needed = cols.0.iter().max().map_or(0, |m| m + 1);
    if f.len() < needed {
        return Err(format!("manifest row has {} fields, but the header puts a column at field {needed}: {line:?}", f.len()));
    }
    let id = f[i_id].parse::<u64>().map_err(|_| format!("manifest row id {:?} is not a number", f[i_id]))?;
    let timestamp = f[i_ts].parse::<i64>().map_err(|_| format!("manifest row {id}: timestamp {:?} is not a number", f[i_ts]))?;
    let length = f[i_len].parse::<u64>().map_err(|_| format!("manifest row {id}: length {:?} is not a number", f[i_len]))?;
    let md5 = f[i_md5].to_ascii_lowercase();
    if md5.len() != 32 || !md5.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("manifest row {id}: md5 {:?} is not 32 hex digits", f[i_md5]));
    }
    Ok(Row { id, timestamp, url: f[i_url].to_string(), length, md5 })
}

/// What reading a whole manifest found: rows in file order, and problems
/// as (id if known, code, message).
#[derive(Debug, Default)]
pub struct Parsed {
    pub rows: Vec<Row>,
    pub problems: Vec<(Option<u64>, &'static str, String)>,
}

/// Parses manifest text. A missing or differing header is reported, and the
/// rows are read with the columns it names (or the standard order).
pub fn parse_manifest(text: &str) -> Parsed {
    let mut out = Parsed::default();
    let mut cols = Columns::default();
    let mut lines = text.lines().peekable();
    match lines.peek() {
        Some(first) if looks_like_header(first) => {
            if let Err((c, msg)) = parse_header(first) {
                cols = c;
                out.problems.push((None, "manifest-header", msg));
            }
            lines.next();
        }
        _ => out.problems.push((None, "manifest-header", format!("manifest has no header line, expected {HEADER:?}"))),
    }
    let mut last_id = None;
    for line in lines {
        if line.trim().is_empty() {
            continue;
        }
        match parse_row(line, cols) {
            Ok(r) => {
                if last_id.is_some_and(|l| r.id < l) {
                    out.problems.push((Some(r.id), "manifest-order", format!("id {} comes after id {}", r.id, last_id.unwrap())));
                }
                last_id = Some(r.id);
                out.rows.push(r);
            }
            Err(m) => {
                let id = line.split('\t').next().and_then(|s| s.parse().ok());
                out.problems.push((id, "bad-row", m));
            }
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MasterEntry {
    pub file_name: String,
    /// 'd' data, 'm' manifest.
    pub kind: char,
    pub start: u64,
    pub end: u64,
    pub size: u64,
    pub md5: String,
}

/// Parses `master_manifest.tsv`; bad lines are returned as messages.
pub fn parse_master(text: &str) -> (Vec<MasterEntry>, Vec<String>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if n == 0 && !line.starts_with("data_") && !line.starts_with("manifest_") {
            if line.trim_end() != MASTER_HEADER {
                problems.push(format!("master manifest header is {line:?}, expected {MASTER_HEADER:?}"));
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let parsed = (|| {
            if f.len() < 6 {
                return None;
            }
            Some(MasterEntry {
                file_name: f[0].to_string(),
                kind: f[1].chars().next()?,
                start: f[2].parse().ok()?,
                end: f[3].parse().ok()?,
                size: f[4].parse().ok()?,
                md5: f[5].to_ascii_lowercase(),
            })
        })();
        match parsed {
            Some(e) => entries.push(e),
            None => problems.push(format!("master manifest line {} is malformed: {line:?}", n + 1)),
        }
    }
    (entries, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_parse_and_bad_rows_are_named() {
        let p = parse_manifest("id\ttimestamp\turl\tlength\tmd5\n1\t1600000000\thttp://a/\t10\t0123456789abcdef0123456789ABCDEF\n2\tx\thttp://b/\t1\t00\n");
        assert!(p.problems.iter().all(|(_, c, _)| *c != "manifest-header"));
        assert_eq!(p.rows.len(), 1);
        assert_eq!(p.rows[0].md5, "0123456789abcdef0123456789abcdef");
        assert_eq!(p.problems, vec![(Some(2), "bad-row", "manifest row 2: timestamp \"x\" is not a number".to_string())]);
    }

    #[test]
    fn a_reordered_header_is_reported_and_followed() {
        let p = parse_manifest("url\tid\ttimestamp\tlength\tmd5\nhttp://a/\t5\t1600000000\t3\t0123456789abcdef0123456789abcdef\n");
        assert_eq!(p.problems.len(), 1);
        assert_eq!(p.problems[0].1, "manifest-header");
        assert_eq!((p.rows[0].id, p.rows[0].url.as_str()), (5, "http://a/"));
    }
}
