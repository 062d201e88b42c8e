//! 14-digit timestamps from WARC and ARC dates, as warcio computes them.
//!
//! WARC-Date: every run of digits is a field (year, month, day, hour, minute,
//! second, fraction); the fraction is dropped. ARC dates shorter than 14
//! digits are padded *upward* (`201412260950` → `20141226095059`) and each
//! field clamped to its range, as warcio's `timestamp_to_datetime` does.

/// Timestamp of an ISO 8601 WARC-Date, or None when it is not a valid date.
pub fn iso_date_to_timestamp(date: &str) -> Option<String> {
    let mut nums: Vec<&str> = date.split(|c: char| !c.is_ascii_digit()).collect();
    if nums.last() == Some(&"") {
        nums.pop();
    }
    if nums.len() < 3 || nums.len() > 7 {
        return None;
    }
    let mut v = [0u32; 6];
    for (i, n) in nums.iter().take(6).enumerate() {
        if n.is_empty() || n.len() > 9 {
            return None;
        }
        v[i] = n.parse().ok()?;
    }
    let (y, mo, d, h, mi, s) = (v[0], v[1], v[2], v[3], v[4], v[5]);
    if !(1..=9999).contains(&y) || !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || s > 59
    {
        return None;
    }
    Some(format!("{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}"))
}

/// Timestamp of an ARC archive-date (or any 14-digit-style timestamp).
pub fn pad_arc_timestamp(ts: &str) -> String {
    const PAD_6_UP: &str = "299912";
    let mut s = ts.to_string();
    if s.len() < PAD_6_UP.len() {
        s.push_str(&PAD_6_UP[s.len()..]);
    }
    let year = field(&s, 0, 4, 1900, 2999);
    let month = field(&s, 4, 6, 1, 12);
    let day = field(&s, 6, 8, 1, days_in_month(year, month));
    let hour = field(&s, 8, 10, 0, 23);
    let minute = field(&s, 10, 12, 0, 59);
    let second = field(&s, 12, 14, 0, 59);
    format!("{year:04}{month:02}{day:02}{hour:02}{minute:02}{second:02}")
}

/// ISO 8601 form of an ARC date, as warcio writes it when converting ARC headers.
pub fn arc_date_to_iso(ts: &str) -> String {
    let t = pad_arc_timestamp(ts);
    format!("{}-{}-{}T{}:{}:{}Z", &t[0..4], &t[4..6], &t[6..8], &t[8..10], &t[10..12], &t[12..14])
}

/// A field of a timestamp clamped to its range; the maximum when absent or not a number.
fn field(s: &str, start: usize, end: usize, min: u32, max: u32) -> u32 {
    match s.get(start..end) {
        Some(f) if s.len() >= end => match py_int(f) {
            Some(v) => v.clamp(min as i64, max as i64) as u32,
            None => max,
        },
        _ => max,
    }
}

/// Python's int() on a short string: surrounding whitespace and a sign allowed.
fn py_int(s: &str) -> Option<i64> {
    let t = s.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

pub fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

/// Unix seconds as UTC (year, month, day, hour, minute, second).
pub fn unix_to_civil(t: i64) -> [i64; 6] {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    [y, m, d, secs / 3600, secs / 60 % 60, secs % 60]
}

/// Unix seconds as a 14-digit timestamp and as a WARC date.
pub fn unix_to_timestamp(t: i64) -> (String, String) {
    let [y, m, d, hh, mm, ss] = unix_to_civil(t);
    (format!("{y:04}{m:02}{d:02}{hh:02}{mm:02}{ss:02}"), format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates() {
        assert_eq!(iso_date_to_timestamp("2013-12-26T10:11:12Z").as_deref(), Some("20131226101112"));
        assert_eq!(iso_date_to_timestamp("2013-12-26T10:11:12.456789Z").as_deref(), Some("20131226101112"));
        assert_eq!(iso_date_to_timestamp("2013-12-26T10:11:12").as_deref(), Some("20131226101112"));
        assert_eq!(iso_date_to_timestamp("2013-13-26T10:11:12Z"), None);
    }

    #[test]
    fn arc_dates_pad_upward_and_clamp() {
        assert_eq!(pad_arc_timestamp("2014122609501011"), "20141226095010");
        assert_eq!(pad_arc_timestamp("201412260950"), "20141226095059");
        assert_eq!(pad_arc_timestamp("2014122"), "20141231235959");
        assert_eq!(pad_arc_timestamp("201410"), "20141031235959");
        assert_eq!(pad_arc_timestamp("20"), "20991231235959");
        assert_eq!(pad_arc_timestamp("20131709005601"), "20131209005601");
        assert_eq!(pad_arc_timestamp("40001965252477"), "29991231232459");
        assert_eq!(pad_arc_timestamp("2010abc"), "20101231235959");
        assert_eq!(pad_arc_timestamp(""), "29991231235959");
    }
}
