//! The results as JSON: `summary` with cdx-summary's summary keys, order and
//! grids (`summarizer.py`); `report` with its raw report (`-r`); `extras`
//! with what warcdex adds.

use warcdex_core::json::push_str;

use crate::accumulate::Accumulator;
use crate::domains::{host_label, registered_domain};
use crate::groups::{mime_group, segment_slot, status_group, MIME_GROUPS, MONTHS, PATH_ROWS, QUERY_COLS, STATUS_GROUPS};
use crate::tally::Tally;

fn key(out: &mut String, k: &str) {
    push_str(out, k);
    out.push_str(": ");
}

fn object<T>(out: &mut String, items: impl IntoIterator<Item = T>, mut each: impl FnMut(&mut String, T)) {
    out.push('{');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        each(out, item);
    }
    out.push('}');
}

fn counts<'a>(out: &mut String, items: impl IntoIterator<Item = (&'a str, u64)>) {
    object(out, items, |out, (k, v)| {
        key(out, k);
        out.push_str(&v.to_string());
    });
}

fn pairs<'a>(out: &mut String, items: impl IntoIterator<Item = (&'a str, u64)>) {
    out.push('[');
    for (i, (k, v)) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('[');
        push_str(out, k);
        out.push_str(&format!(", {v}]"));
    }
    out.push(']');
}

/// `{label: count}` of the top hosts, as cdx-summary's dict comprehension
/// builds it (two SURT hosts with the same label share the first one's place
/// and keep the later count).
fn top_hosts(a: &Accumulator, n: Option<usize>) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<String, usize> = Default::default();
    for (host, count) in a.tophosts.most_common(n) {
        let label = host_label(host);
        match at.get(&label) {
            Some(&i) => out[i].1 = count,
            None => {
                at.insert(label.clone(), out.len());
                out.push((label, count));
            }
        }
    }
    out
}

fn header(out: &mut String, a: &Accumulator) {
    out.push_str(&format!(
        "\"captures\": {}, \"urls\": {}, \"hosts\": {}, \"bytes\": {}, ",
        a.captures, a.urls, a.hosts, a.bytes
    ));
    key(out, "first");
    push_str(out, a.first_out());
    out.push_str(", ");
    key(out, "last");
    push_str(out, a.last_out());
    out.push_str(", ");
}

fn samples(out: &mut String, a: &Accumulator) {
    key(out, "samples");
    out.push('[');
    for (i, (ts, url)) in a.sampler.samples().iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('[');
        push_str(out, ts);
        out.push_str(", ");
        push_str(out, url);
        out.push(']');
    }
    out.push(']');
}

/// cdx-summary's summary (`-j`).
pub fn summary_json(out: &mut String, a: &Accumulator) {
    out.push('{');
    header(out, a);
    key(out, "tophosts");
    counts(out, top_hosts(a, a.opts.top).iter().map(|(k, v)| (k.as_str(), *v)));
    out.push_str(", ");

    let mut ms = [[0u64; 5]; 13];
    for (mime, codes) in a.mimestatus.iter() {
        let g = mime_group(mime);
        for (code, n) in codes {
            ms[g][status_group(code)] += n;
        }
    }
    key(out, "mimestatus");
    object(out, MIME_GROUPS.iter().zip(ms.iter()), |out, (m, row)| {
        key(out, m);
        counts(out, STATUS_GROUPS.iter().copied().zip(row.iter().copied()));
    });
    out.push_str(", ");

    let mut pq = [[0u64; 6]; 6];
    for (p, qs) in a.pathquery.iter() {
        for (q, n) in qs {
            pq[segment_slot(*p)][segment_slot(*q)] += n;
        }
    }
    key(out, "pathquery");
    object(out, PATH_ROWS.iter().zip(pq.iter()), |out, (p, row)| {
        key(out, p);
        counts(out, QUERY_COLS.iter().copied().zip(row.iter().copied()));
    });
    out.push_str(", ");

    // Years sorted; only months 01..12 (any other month is counted in
    // `captures` but in no cell, as in cdx-summary).
    let mut years: Vec<(&String, &[(String, u64)])> = a.yearmonth.iter().collect();
    years.sort_by(|x, y| x.0.cmp(y.0));
    key(out, "yearmonth");
    object(out, years, |out, (y, months)| {
        key(out, y);
        counts(
            out,
            MONTHS.iter().map(|m| (*m, months.iter().find(|(k, _)| k == m).map_or(0, |(_, n)| *n))),
        );
    });
    out.push_str(", ");
    samples(out, a);
    out.push('}');
}

/// cdx-summary's raw report (`-r`): sparse counts in first-seen order, every host.
pub fn report_json(out: &mut String, a: &Accumulator) {
    out.push('{');
    header(out, a);
    key(out, "tophosts");
    counts(out, top_hosts(a, None).iter().map(|(k, v)| (k.as_str(), *v)));
    out.push_str(", ");
    key(out, "mimestatus");
    object(out, a.mimestatus.iter(), |out, (m, codes)| {
        key(out, m);
        counts(out, codes.iter().map(|(k, v)| (k.as_str(), *v)));
    });
    out.push_str(", ");
    key(out, "pathquery");
    object(out, a.pathquery.iter(), |out, (p, qs)| {
        key(out, &format!("P{p}"));
        object(out, qs, |out, (q, n)| {
            key(out, &format!("Q{q}"));
            out.push_str(&n.to_string());
        });
    });
    out.push_str(", ");
    key(out, "yearmonth");
    object(out, a.yearmonth.iter(), |out, (y, ms)| {
        key(out, y);
        counts(out, ms.iter().map(|(k, v)| (k.as_str(), *v)));
    });
    out.push_str(", ");
    samples(out, a);
    out.push('}');
}

fn top_of(t: &Tally<String>, n: Option<usize>) -> Vec<(&str, u64)> {
    t.most_common(n).into_iter().map(|(k, c)| (k.as_str(), c)).collect()
}

/// What warcdex adds, each labelled with how it is counted.
pub fn extras_json(out: &mut String, a: &Accumulator) {
    let n = a.opts.top;
    let mut statuses: Tally<String> = Tally::default();
    let mut mimes: Tally<String> = Tally::default();
    for (mime, codes) in a.mimestatus.iter() {
        for (code, c) in codes {
            mimes.add(mime.as_str(), *c);
            statuses.add(code.as_str(), *c);
        }
    }
    let mut domains: Tally<String> = Tally::default();
    for (host, c) in &a.tophosts.entries {
        domains.add(registered_domain(host).as_str(), *c);
    }
    let distinct_digests = a.digests.count().min(a.digest_captures);
    out.push('{');
    out.push_str(&format!(
        "\"lines\": {}, \"skippedLines\": {}, \"exactLimit\": {}, ",
        a.lines, a.skipped_lines, a.opts.exact_limit
    ));
    out.push_str(&format!(
        "\"uniqueUrls\": {{\"count\": {}, \"exact\": {}}}, ",
        a.unique_urls.count(),
        a.unique_urls.is_exact()
    ));
    out.push_str(&format!("\"uniqueHosts\": {{\"count\": {}, \"exact\": true}}, ", a.tophosts.len()));
    out.push_str(&format!("\"registeredDomains\": {{\"count\": {}, \"exact\": true, \"top\": ", domains.len()));
    pairs(out, top_of(&domains, n));
    out.push_str("}, \"statusTop\": ");
    pairs(out, top_of(&statuses, n));
    out.push_str(", \"mimeTop\": ");
    pairs(out, top_of(&mimes, n));
    out.push_str(&format!(", \"revisits\": {}, ", a.revisits));
    out.push_str(&format!(
        "\"duplicatesByDigest\": {{\"count\": {}, \"of\": {}, \"distinctDigests\": {}, \"exact\": {}}}, ",
        a.digest_captures - distinct_digests,
        a.digest_captures,
        distinct_digests,
        a.digests.is_exact()
    ));
    out.push_str(&format!("\"files\": {}, \"recordsPerFile\": ", a.files.len()));
    pairs(out, a.files.entries.iter().map(|(k, c)| (k.as_str(), *c)));
    out.push('}');
}

/// Re-indents this module's compact JSON (`", "` and `": "` separators) the
/// way Python's `json.dumps(indent=2)` writes it, as cdx-summary prints it:
/// one item per line, empty objects and lists as `{}` and `[]`.
pub fn python_indent(compact: &str) -> String {
    let b = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut in_str = false;
    let mut i = 0;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    let mut start = 0;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => {
                out.push_str(&compact[start..=i]);
                let close = if c == b'{' { b'}' } else { b']' };
                if b.get(i + 1) == Some(&close) {
                    out.push(close as char);
                    i += 2;
                    start = i;
                    continue;
                }
                depth += 1;
                newline(&mut out, depth);
                start = i + 1;
            }
            b'}' | b']' => {
                out.push_str(&compact[start..i]);
                depth -= 1;
                newline(&mut out, depth);
                out.push(c as char);
                start = i + 1;
            }
            b',' => {
                out.push_str(&compact[start..=i]);
                newline(&mut out, depth);
                i += 1;
                if b.get(i) == Some(&b' ') {
                    i += 1;
                }
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&compact[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indents_like_python() {
        let s = r#"{"a": 1, "b": {}, "c": {"x": [["1", "a,b\"]"]], "y": []}}"#;
        assert_eq!(
            python_indent(s),
            "{\n  \"a\": 1,\n  \"b\": {},\n  \"c\": {\n    \"x\": [\n      [\n        \"1\",\n        \"a,b\\\"]\"\n      ]\n    ],\n    \"y\": []\n  }\n}"
        );
    }
}
