//! What both oracle tests read: the payload records of ../shared/enrich's WARCs.

use std::io::Read;
use std::path::Path;

// Each test binary uses what it needs of a record.
#[allow(dead_code)]
pub struct Record {
    pub url: String,
    pub payload: Vec<u8>,
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The payload records (`response`, `resource`) of a WARC whose records are gzip members:
/// decompressed as one stream and split by Content-Length.
pub fn read_warc(path: &Path) -> Vec<Record> {
    let mut data = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path).expect("open WARC"))
        .read_to_end(&mut data)
        .expect("gunzip WARC");
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let head_end = pos + find(&data[pos..], b"\r\n\r\n").expect("WARC header end");
        let head = String::from_utf8_lossy(&data[pos..head_end]).into_owned();
        let len: usize = header(&head, "Content-Length")
            .expect("Content-Length")
            .parse()
            .unwrap();
        let block = &data[head_end + 4..head_end + 4 + len];
        pos = head_end + 4 + len;
        while pos < data.len() && (data[pos] == b'\r' || data[pos] == b'\n') {
            pos += 1;
        }
        let kind = header(&head, "WARC-Type").unwrap_or("");
        let url = header(&head, "WARC-Target-URI").unwrap_or("").to_string();
        let payload = match kind {
            "response" => match find(block, b"\r\n\r\n") {
                Some(i) => block[i + 4..].to_vec(),
                None => Vec::new(),
            },
            "resource" => block.to_vec(),
            _ => continue,
        };
        if !payload.is_empty() {
            out.push(Record { url, payload });
        }
    }
    out
}
