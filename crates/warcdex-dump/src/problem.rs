//! One problem found in a dump, named by segment (file base name) and page id.

use std::fmt::Write;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub segment: String,
    pub id: Option<u64>,
    /// Stable, greppable: `md5-mismatch`, `missing-page`, `truncated`, ...
    pub code: &'static str,
    pub message: String,
}

impl Problem {
    pub fn new(segment: &str, id: Option<u64>, code: &'static str, message: impl Into<String>) -> Problem {
        Problem { segment: segment.to_string(), id, code, message: message.into() }
    }

    /// `SEGMENT ID CODE: message` (`-` for a problem of the whole file).
    pub fn line(&self) -> String {
        let id = self.id.map(|i| i.to_string()).unwrap_or_else(|| "-".into());
        format!("{} {} {}: {}", self.segment, id, self.code, self.message)
    }

    pub fn json(&self) -> String {
        let mut s = String::from("{\"segment\":");
        warcdex_core::json::push_str(&mut s, &self.segment);
        match self.id {
            Some(i) => {
                let _ = write!(s, ",\"id\":{i}");
            }
            None => s.push_str(",\"id\":null"),
        }
        s.push_str(",\"code\":");
        warcdex_core::json::push_str(&mut s, self.code);
        s.push_str(",\"message\":");
        warcdex_core::json::push_str(&mut s, &self.message);
        s.push('}');
        s
    }
}
