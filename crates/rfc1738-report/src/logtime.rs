//! The time of a log line: Apache's `%t` and nginx's `$time_local`,
//! `10/Oct/2000:13:55:36 -0700` (strftime's `%d/%b/%Y:%H:%M:%S %z`),
//! read into an instant with its offset; written as ISO 8601
//! (`2000-10-10T13:55:36-07:00`); compared as seconds since the epoch.
//! Also the times a user gives `--since` and `--until`: ISO 8601 with an
//! offset or `Z`, a date alone (midnight UTC), or the log's own form.

use std::fmt;

/// A time with the offset it was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogTime {
    year: i32,
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    second: u8,
    /// Minutes east of UTC.
    offset: i16,
}

/// The month names of `%b`, in the C locale servers log in.
const MONTHS: [&[u8; 3]; 12] =
    [b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec"];

/// Digits as a number: `None` unless every byte is one.
fn digits(b: &[u8]) -> Option<u32> {
    if b.is_empty() || b.len() > 9 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0, |n, &c| n * 10 + u32::from(c - b'0')))
}

/// Days in a month of the proleptic Gregorian calendar.
fn month_days(year: i32, month: u8) -> u8 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl LogTime {
    /// The parts, checked: a real date, a time of day (a leap second's
    /// `:60` taken), an offset below 24 hours.
    fn new(date: (u32, u32, u32), time: (u32, u32, u32), offset: i32) -> Option<LogTime> {
        let (year, month, day) = date;
        let (hour, minute, second) = time;
        let year = i32::try_from(year).ok().filter(|y| *y <= 9999)?;
        let month = u8::try_from(month).ok().filter(|m| (1..=12).contains(m))?;
        let day = u8::try_from(day).ok().filter(|&d| d >= 1 && d <= month_days(year, month))?;
        if hour > 23 || minute > 59 || second > 60 || offset.abs() >= 24 * 60 {
            return None;
        }
        Some(LogTime {
            year,
            month,
            day,
            hour: hour as u8,
            minute: minute as u8,
            second: second as u8,
            offset: offset as i16,
        })
    }

    /// `dd/Mon/yyyy:HH:MM:SS +hhmm`, as Apache and nginx write it; `None`
    /// for anything else.
    ///
    /// # Examples
    /// ```
    /// use rfc1738_report::logtime::LogTime;
    /// let t = LogTime::clf(b"10/Oct/2000:13:55:36 -0700").unwrap();
    /// assert_eq!(t.to_string(), "2000-10-10T13:55:36-07:00");
    /// assert_eq!(t.unix(), 971_211_336);
    /// assert!(LogTime::clf(b"31/Feb/2000:13:55:36 -0700").is_none());
    /// ```
    #[must_use]
    pub fn clf(b: &[u8]) -> Option<LogTime> {
        let [d0, d1, b'/', m0, m1, m2, b'/', y0, y1, y2, y3, b':', h0, h1, b':', n0, n1, b':', s0, s1, b' ', sign, o0, o1, o2, o3] =
            *b
        else {
            return None;
        };
        let month = MONTHS.iter().position(|m| **m == [m0, m1, m2])? as u32 + 1;
        let offset = zone(sign, &[o0, o1], &[o2, o3])?;
        LogTime::new(
            (digits(&[y0, y1, y2, y3])?, month, digits(&[d0, d1])?),
            (digits(&[h0, h1])?, digits(&[n0, n1])?, digits(&[s0, s1])?),
            offset,
        )
    }

    /// ISO 8601 (`2000-10-10T13:55:36-07:00`, `...Z`, `+0200` too), a date
    /// alone (`2000-10-10`, midnight UTC), or the log's own form.
    ///
    /// # Errors
    /// What was expected, for a text that is none of these.
    pub fn parse(text: &str) -> Result<LogTime, String> {
        let b = text.as_bytes();
        let bad = || {
            format!("{text:?} is not a time: write 2000-10-10T13:55:36-07:00, 2000-10-10T20:55:36Z, 2000-10-10 or 10/Oct/2000:13:55:36 -0700")
        };
        if let Some(t) = LogTime::clf(b) {
            return Ok(t);
        }
        let date = |d: &[u8]| -> Option<(u32, u32, u32)> {
            match *d {
                [y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] => {
                    Some((digits(&[y0, y1, y2, y3])?, digits(&[m0, m1])?, digits(&[d0, d1])?))
                }
                _ => None,
            }
        };
        if b.len() == 10 {
            return date(b).and_then(|d| LogTime::new(d, (0, 0, 0), 0)).ok_or_else(bad);
        }
        if b.len() < 20 || !matches!(b[10], b'T' | b't' | b' ') {
            return Err(bad());
        }
        let (d, rest) = (date(&b[..10]).ok_or_else(bad)?, &b[11..]);
        let [h0, h1, b':', n0, n1, b':', s0, s1, ref zone_text @ ..] = *rest else { return Err(bad()) };
        let offset = match *zone_text {
            [b'Z' | b'z'] => Some(0),
            [sign, a, c, b':', e, f] | [sign, a, c, e, f] => zone(sign, &[a, c], &[e, f]),
            _ => None,
        }
        .ok_or_else(bad)?;
        let time = (
            digits(&[h0, h1]).ok_or_else(bad)?,
            digits(&[n0, n1]).ok_or_else(bad)?,
            digits(&[s0, s1]).ok_or_else(bad)?,
        );
        LogTime::new(d, time, offset).ok_or_else(bad)
    }

    /// Seconds since 1970-01-01T00:00:00Z (days from civil, H. Hinnant).
    #[must_use]
    pub fn unix(&self) -> i64 {
        let (m, d) = (i64::from(self.month), i64::from(self.day));
        let y = i64::from(self.year) - i64::from(m <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        days * 86_400 + i64::from(self.hour) * 3600 + i64::from(self.minute) * 60 + i64::from(self.second)
            - i64::from(self.offset) * 60
    }
}

impl LogTime {
    /// The ISO 8601 text of [`Display`](fmt::Display), written into
    /// `out` digit by digit (no formatter: `check --json` writes one a
    /// line).
    pub fn write_iso(&self, out: &mut Vec<u8>) {
        let two = |out: &mut Vec<u8>, n: u8| out.extend_from_slice(&[b'0' + n / 10, b'0' + n % 10]);
        // `year` is 0 to 9999.
        let y = self.year.unsigned_abs();
        out.extend_from_slice(&[
            b'0' + (y / 1000 % 10) as u8,
            b'0' + (y / 100 % 10) as u8,
            b'0' + (y / 10 % 10) as u8,
            b'0' + (y % 10) as u8,
            b'-',
        ]);
        two(out, self.month);
        out.push(b'-');
        two(out, self.day);
        out.push(b'T');
        two(out, self.hour);
        out.push(b':');
        two(out, self.minute);
        out.push(b':');
        two(out, self.second);
        out.push(if self.offset < 0 { b'-' } else { b'+' });
        let o = self.offset.unsigned_abs();
        two(out, (o / 60) as u8);
        out.push(b':');
        two(out, (o % 60) as u8);
    }
}

/// `+hhmm` or `-hhmm`: minutes east of UTC.
fn zone(sign: u8, hours: &[u8], minutes: &[u8]) -> Option<i32> {
    let minutes = i32::try_from(digits(hours)? * 60 + digits(minutes)?).ok()?;
    match sign {
        b'+' => Some(minutes),
        b'-' => Some(-minutes),
        _ => None,
    }
}

/// ISO 8601 with the offset it was written with.
impl fmt::Display for LogTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )?;
        let sign = if self.offset < 0 { '-' } else { '+' };
        let o = self.offset.unsigned_abs();
        write!(f, "{sign}{:02}:{:02}", o / 60, o % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::LogTime;

    #[test]
    fn clf_times_read_and_written() {
        let t = LogTime::clf(b"29/Feb/2024:00:00:00 +0530").unwrap();
        assert_eq!(t.to_string(), "2024-02-29T00:00:00+05:30");
        assert_eq!(t.unix(), 1_709_145_000);
        assert_eq!(LogTime::clf(b"01/Jan/1970:00:00:00 +0000").unwrap().unix(), 0);
        assert_eq!(LogTime::clf(b"31/Dec/1969:23:59:59 +0000").unwrap().unix(), -1);
        for bad in [
            &b"29/Feb/2023:00:00:00 +0000"[..],
            b"10/oct/2000:13:55:36 -0700",
            b"10/Oct/2000:24:00:00 -0700",
            b"10/Oct/2000:13:55:36 -2400",
            b"10/Oct/2000:13:55:36 *0700",
            b"10/Oct/2000:13:55:36",
            b"10/Oct/2000:13:55:36 -07000",
            b"1x/Oct/2000:13:55:36 -0700",
            b"",
        ] {
            assert_eq!(LogTime::clf(bad), None, "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn the_written_iso_text_is_the_display_text() {
        for t in
            [&b"01/Jan/0001:00:00:00 -2359"[..], b"31/Dec/9999:23:59:60 +2359", b"10/Oct/2000:13:55:36 -0700"]
        {
            let t = LogTime::clf(t).unwrap();
            let mut out = Vec::new();
            t.write_iso(&mut out);
            assert_eq!(String::from_utf8(out).unwrap(), t.to_string());
        }
    }

    #[test]
    fn a_user_time_in_every_form_is_the_same_instant() {
        let want = LogTime::clf(b"10/Oct/2000:13:55:36 -0700").unwrap().unix();
        for text in [
            "2000-10-10T13:55:36-07:00",
            "2000-10-10T13:55:36-0700",
            "2000-10-10T20:55:36Z",
            "2000-10-10 20:55:36+00:00",
            "10/Oct/2000:13:55:36 -0700",
            "11/Oct/2000:05:55:36 +0900",
        ] {
            assert_eq!(LogTime::parse(text).map(|t| t.unix()), Ok(want), "{text}");
        }
        assert_eq!(LogTime::parse("2000-10-10").unwrap().unix(), want - 20 * 3600 - 55 * 60 - 36);
        for bad in [
            "",
            "yesterday",
            "2000-13-01",
            "2000-10-10T25:00:00Z",
            "2000-10-10T13:55:36",
            "2000-10-10T13:55Z",
        ] {
            let e = LogTime::parse(bad).unwrap_err();
            assert!(e.contains("is not a time"), "{bad}: {e}");
        }
    }
}
