//! Date formatting without a date crate: the three textual forms the
//! archive formats need (WARC ISO 8601, HTTP IMF-fixdate, ARC/CDX 14 digits).

/// Seconds since the Unix epoch plus a sub-second part (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Timestamp {
    pub secs: i64,
    pub nanos: u32,
}

/// Broken-down UTC time.
struct Civil {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    min: u32,
    sec: u32,
    weekday: u32, // 0 = Sunday
}

/// Howard Hinnant's days-from-civil algorithm (proleptic Gregorian).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil(secs: i64) -> Civil {
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400) as u32;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    Civil {
        year,
        month,
        day,
        hour: sod / 3600,
        min: sod / 60 % 60,
        sec: sod % 60,
        weekday: (days + 4).rem_euclid(7) as u32,
    }
}

impl Timestamp {
    pub fn from_ymd(y: i64, m: u32, d: u32) -> Timestamp {
        Timestamp {
            secs: days_from_civil(y, m, d) * 86_400,
            nanos: 0,
        }
    }

    /// `2019-03-04T12:34:56Z`, or with `frac_digits` (1..=9) of fraction:
    /// WARC/1.1 allows sub-second precision, WARC/1.0 does not.
    pub fn iso8601(&self, frac_digits: u32) -> String {
        let c = civil(self.secs);
        let mut s = format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            c.year, c.month, c.day, c.hour, c.min, c.sec
        );
        if frac_digits > 0 {
            let frac = self.nanos / 10u32.pow(9 - frac_digits.min(9));
            s.push_str(&format!(".{:0width$}", frac, width = frac_digits as usize));
        }
        s.push('Z');
        s
    }

    /// `Mon, 04 Mar 2019 12:34:56 GMT` (RFC 9110 IMF-fixdate).
    pub fn http_date(&self) -> String {
        const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let c = civil(self.secs);
        format!(
            "{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
            DAYS[c.weekday as usize],
            c.day,
            MONTHS[c.month as usize - 1],
            c.year,
            c.hour,
            c.min,
            c.sec
        )
    }

    /// `20190304123456`: ARC archive-date, dns record timestamp.
    pub fn digits14(&self) -> String {
        let c = civil(self.secs);
        format!(
            "{:04}{:02}{:02}{:02}{:02}{:02}",
            c.year, c.month, c.day, c.hour, c.min, c.sec
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        // 2019-03-04 was a Monday.
        let t = Timestamp {
            secs: Timestamp::from_ymd(2019, 3, 4).secs + 45_296,
            nanos: 123_456_789,
        };
        assert_eq!(t.iso8601(0), "2019-03-04T12:34:56Z");
        assert_eq!(t.iso8601(3), "2019-03-04T12:34:56.123Z");
        assert_eq!(t.iso8601(6), "2019-03-04T12:34:56.123456Z");
        assert_eq!(t.http_date(), "Mon, 04 Mar 2019 12:34:56 GMT");
        assert_eq!(t.digits14(), "20190304123456");
        assert_eq!(Timestamp::from_ymd(1970, 1, 1).secs, 0);
        assert_eq!(
            Timestamp::from_ymd(2000, 3, 1).http_date(),
            "Wed, 01 Mar 2000 00:00:00 GMT"
        );
    }
}
