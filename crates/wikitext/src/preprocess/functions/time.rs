//! Date and time: the `CURRENT…`/`LOCAL…` words and `#time`, against the
//! configured [`Clock`] (civil-from-days arithmetic, proleptic Gregorian, UTC
//! plus the clock's local offset for `LOCAL…` and `#timel`).

use super::{CallArgs, Frame, PageExpander};
use crate::preprocess::config::Clock;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// A broken-down time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Civil {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    /// 0 = Sunday.
    dow: u32,
    unix: i64,
    offset_minutes: i32,
}

/// Days since 1970-01-01 to (year, month, day) (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// (year, month, day) to days since 1970-01-01.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Civil {
    fn at(unix: i64, offset_minutes: i32) -> Civil {
        let local = unix + i64::from(offset_minutes) * 60;
        let days = local.div_euclid(86_400);
        let secs = local.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: (secs / 3600) as u32,
            minute: (secs / 60 % 60) as u32,
            second: (secs % 60) as u32,
            dow: (days + 4).rem_euclid(7) as u32,
            unix,
            offset_minutes,
        }
    }

    fn day_of_year(&self) -> i64 {
        days_from_civil(self.year, self.month, self.day) - days_from_civil(self.year, 1, 1)
    }

    /// ISO 8601 (year, week).
    fn iso_week(&self) -> (i64, i64) {
        let iso_dow = if self.dow == 0 {
            7
        } else {
            i64::from(self.dow)
        };
        let thursday = days_from_civil(self.year, self.month, self.day) - iso_dow + 4;
        let (ty, _, _) = civil_from_days(thursday);
        let week = (thursday - days_from_civil(ty, 1, 1)) / 7 + 1;
        (ty, week)
    }

    fn month_name(&self) -> &'static str {
        MONTHS[(self.month as usize).saturating_sub(1) % 12]
    }

    fn day_name(&self) -> &'static str {
        DAYS[self.dow as usize % 7]
    }

    fn offset(&self, colon: bool) -> String {
        let o = self.offset_minutes;
        let sign = if o < 0 { '-' } else { '+' };
        let (h, m) = (o.abs() / 60, o.abs() % 60);
        if colon {
            format!("{sign}{h:02}:{m:02}")
        } else {
            format!("{sign}{h:02}{m:02}")
        }
    }
}

/// The date words (`CURRENTYEAR`, `LOCALTIME`, …).
pub(crate) fn variable(clock: &Clock, name: &str) -> Option<String> {
    // The revision being rendered is taken to be saved now.
    let (rest, offset) = if let Some(r) = name
        .strip_prefix("CURRENT")
        .or_else(|| name.strip_prefix("REVISION"))
    {
        (r, 0)
    } else if let Some(r) = name.strip_prefix("LOCAL") {
        (r, clock.local_offset_minutes)
    } else {
        return None;
    };
    let c = Civil::at(clock.unix, offset);
    Some(match rest {
        "YEAR" => c.year.to_string(),
        "MONTH" | "MONTH2" => format!("{:02}", c.month),
        "MONTH1" => c.month.to_string(),
        "MONTHNAME" | "MONTHNAMEGEN" => c.month_name().to_owned(),
        "MONTHABBREV" => c.month_name()[..3].to_owned(),
        "DAY" => c.day.to_string(),
        "DAY2" => format!("{:02}", c.day),
        "DOW" => c.dow.to_string(),
        "DAYNAME" => c.day_name().to_owned(),
        "TIME" => format!("{:02}:{:02}", c.hour, c.minute),
        "HOUR" => format!("{:02}", c.hour),
        "WEEK" => c.iso_week().1.to_string(),
        "TIMESTAMP" => format!(
            "{:04}{:02}{:02}{:02}{:02}{:02}",
            c.year, c.month, c.day, c.hour, c.minute, c.second
        ),
        _ => return None,
    })
}

/// `{{#time: format | date }}` in UTC.
pub(crate) fn time_fn(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    time_common(ex, f, c, false)
}

/// `{{#timel: format | date }}` in local time.
pub(crate) fn timel_fn(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    time_common(ex, f, c, true)
}

fn time_common(
    ex: &mut PageExpander<'_, '_>,
    f: &Frame<'_>,
    c: &CallArgs<'_>,
    local: bool,
) -> String {
    let clock = ex.pre.config().clock;
    let date = ex.arg(f, c, 0).unwrap_or_default();
    let Some(unix) = parse_date(&date, clock.unix) else {
        return "<strong class=\"error\">Error: Invalid time.</strong>".into();
    };
    let offset = if local { clock.local_offset_minutes } else { 0 };
    format(c.arg0, &Civil::at(unix, offset))
}

/// The dates `#time` understands: empty or `now`, `@unix`, `YYYY-MM-DD` with an
/// optional time `HH:MM[:SS]` (after a space or `T`, optional `Z`), 14-digit
/// timestamps, RFC 3339, and dates with month names (`5 May 2020`).
fn parse_date(s: &str, now: i64) -> Option<i64> {
    let s = s.trim();
    if s.is_empty() || s.eq_ignore_ascii_case("now") {
        return Some(now);
    }
    if let Some(n) = s.strip_prefix('@') {
        return n.parse().ok();
    }
    if s.len() == 14 && s.bytes().all(|b| b.is_ascii_digit()) {
        let n = |a: usize, b: usize| s[a..b].parse::<u32>().ok();
        return civil_to_unix(
            s[..4].parse().ok()?,
            n(4, 6)?,
            n(6, 8)?,
            n(8, 10)?,
            n(10, 12)?,
            n(12, 14)?,
        );
    }
    if let Some(t) = parse_rfc3339(s) {
        return Some(t);
    }
    if s.bytes().any(|b| b.is_ascii_alphabetic()) {
        return parse_named_month(s);
    }
    let (date, time) = match s.split_once([' ', 'T']) {
        Some((d, t)) => (d, Some(t.trim_end_matches('Z'))),
        None => (s, None),
    };
    let mut dp = date.split('-');
    let y: i64 = dp.next()?.parse().ok()?;
    let m: u32 = dp.next().map_or(Some(1), |x| x.parse().ok())?;
    let d: u32 = dp.next().map_or(Some(1), |x| x.parse().ok())?;
    if dp.next().is_some() {
        return None;
    }
    let (hh, mm, ss) = match time {
        Some(t) => {
            let mut tp = t.split(':');
            let hh = tp.next()?.parse().ok()?;
            let mm = tp.next()?.parse().ok()?;
            let ss = tp.next().map_or(Some(0), |x| x.parse().ok())?;
            (hh, mm, ss)
        }
        None => (0, 0, 0),
    };
    civil_to_unix(y, m, d, hh, mm, ss)
}

/// `5 May 2020`, `May 5, 2020`, `May 2020`, `2020 May 5`, with an optional
/// `HH:MM[:SS]` (the forms of PHP's `strtotime` that templates use most).
fn parse_named_month(s: &str) -> Option<i64> {
    let (mut year, mut month, mut day, mut time) = (None, None, None, (0, 0, 0));
    for word in s.split([' ', ',']).filter(|w| !w.is_empty()) {
        let lower = word.trim_end_matches('.').to_ascii_lowercase();
        if let Some(k) = MONTHS.iter().position(|m| {
            m.to_ascii_lowercase() == lower
                || (lower.len() == 3 && m[..3].eq_ignore_ascii_case(&lower))
        }) {
            month = Some(k as u32 + 1);
        } else if word.contains(':') {
            let mut tp = word.split(':').map(|x| x.parse::<u32>().ok());
            time = (tp.next()??, tp.next()??, tp.next().flatten().unwrap_or(0));
        } else if word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit()) {
            year = Some(word.parse().ok()?);
        } else if (1..=2).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit()) {
            day = Some(word.parse().ok()?);
        } else {
            return None;
        }
    }
    civil_to_unix(year?, month?, day.unwrap_or(1), time.0, time.1, time.2)
}

fn civil_to_unix(y: i64, m: u32, d: u32, hh: u32, mm: u32, ss: u32) -> Option<i64> {
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) || hh > 23 || mm > 59 || ss > 60
    {
        return None;
    }
    Some(days_from_civil(y, m, d) * 86_400 + i64::from(hh * 3600 + mm * 60 + ss))
}

/// `{{#formatdate:date|format}}`: a date in `dmy`, `mdy`, `ymd` or `iso` form,
/// wrapped as MediaWiki does (`<span class="mw-formatted-date" title="ISO">`);
/// without a known format the date keeps its form; text that is no date stays.
pub(crate) fn formatdate(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let format = ex.arg(f, c, 0).unwrap_or_default().to_ascii_lowercase();
    let Some((year, month, day)) = parse_loose_date(c.arg0) else {
        return c.arg0.to_owned();
    };
    let name = MONTHS[(month - 1) as usize % 12];
    let shown = match (format.as_str(), year) {
        ("dmy", Some(y)) => format!("{day} {name} {y}"),
        ("mdy", Some(y)) => format!("{name} {day}, {y}"),
        ("ymd", Some(y)) => format!("{y} {name} {day}"),
        ("iso", Some(y)) => format!("{y:04}-{month:02}-{day:02}"),
        ("dmy", None) => format!("{day} {name}"),
        ("mdy" | "ymd", None) => format!("{name} {day}"),
        _ => c.arg0.to_owned(),
    };
    let iso = match year {
        Some(y) => format!("{y:04}-{month:02}-{day:02}"),
        None => format!("{month:02}-{day:02}"),
    };
    format!("<span class=\"mw-formatted-date\" title=\"{iso}\">{shown}</span>")
}

/// `2009-03-24`, `24 March 2009`, `March 24, 2009`, `2009 March 24`,
/// `24 March`, `March 24` (month names or 3-letter abbreviations, an optional
/// `.`): (year, month, day), the date checked.
fn parse_loose_date(s: &str) -> Option<(Option<i64>, u32, u32)> {
    let s = s.trim();
    let month_of = |w: &str| {
        let w = w.trim_end_matches('.').to_ascii_lowercase();
        MONTHS
            .iter()
            .position(|m| {
                m.to_ascii_lowercase() == w || (w.len() == 3 && m[..3].eq_ignore_ascii_case(&w))
            })
            .map(|k| k as u32 + 1)
    };
    let num = |w: &str| {
        w.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| w.parse::<i64>().ok())
            .flatten()
    };
    let words: Vec<&str> = s.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let (year, month, day) = match words.as_slice() {
        [iso] => {
            let mut p = iso.split('-');
            let (y, m, d) = (p.next()?, p.next()?, p.next()?);
            if p.next().is_some() || y.len() != 4 {
                return None;
            }
            (
                Some(num(y)?),
                u32::try_from(num(m)?).ok()?,
                u32::try_from(num(d)?).ok()?,
            )
        }
        [a, b, c] => match (month_of(a), month_of(b)) {
            (None, Some(m)) if num(a).is_some() => (Some(num(c)?), m, u32::try_from(num(a)?).ok()?),
            (Some(m), None) => (Some(num(c)?), m, u32::try_from(num(b)?).ok()?),
            _ => {
                let m = month_of(b)?;
                (Some(num(a)?), m, u32::try_from(num(c)?).ok()?)
            }
        },
        [a, b] => match (month_of(a), month_of(b)) {
            (Some(m), None) => (None, m, u32::try_from(num(b)?).ok()?),
            (None, Some(m)) => (None, m, u32::try_from(num(a)?).ok()?),
            _ => return None,
        },
        _ => return None,
    };
    let leap_year = year.unwrap_or(2000);
    ((1..=12).contains(&month) && day >= 1 && day <= days_in_month(leap_year, month))
        .then_some((year, month, day))
}

/// RFC 3339 to Unix seconds.
pub(crate) fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20
        || b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !matches!(b.get(10), Some(b'T' | b't' | b' '))
    {
        return None;
    }
    let n = |a: usize, e: usize| s.get(a..e)?.parse::<u32>().ok();
    let y: i64 = s.get(..4)?.parse().ok()?;
    let (m, d, hh, mm, ss) = (n(5, 7)?, n(8, 10)?, n(11, 13)?, n(14, 16)?, n(17, 19)?);
    if b.get(13) != Some(&b':') || b.get(16) != Some(&b':') {
        return None;
    }
    let mut rest = s.get(19..)?;
    if let Some(frac) = rest.strip_prefix('.') {
        rest = frac.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let (h, m) = rest.get(1..)?.split_once(':')?;
            sign * (h.parse::<i64>().ok()? * 3600 + m.parse::<i64>().ok()? * 60)
        }
    };
    Some(civil_to_unix(y, m, d, hh, mm, ss)? - offset)
}

/// PHP `date()`-style formatting as MediaWiki's `sprintfDate` does it.
fn format(fmt: &str, c: &Civil) -> String {
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            'Y' => out.push_str(&c.year.to_string()),
            'y' => out.push_str(&format!("{:02}", c.year.rem_euclid(100))),
            'L' => out.push(if is_leap(c.year) { '1' } else { '0' }),
            'n' => out.push_str(&c.month.to_string()),
            'm' => out.push_str(&format!("{:02}", c.month)),
            'M' => out.push_str(&c.month_name()[..3]),
            'F' => out.push_str(c.month_name()),
            'j' => out.push_str(&c.day.to_string()),
            'd' => out.push_str(&format!("{:02}", c.day)),
            'z' => out.push_str(&c.day_of_year().to_string()),
            'D' => out.push_str(&c.day_name()[..3]),
            'l' => out.push_str(c.day_name()),
            'N' => out.push_str(&(if c.dow == 0 { 7 } else { c.dow }).to_string()),
            'w' => out.push_str(&c.dow.to_string()),
            'W' => out.push_str(&format!("{:02}", c.iso_week().1)),
            'o' => out.push_str(&c.iso_week().0.to_string()),
            't' => out.push_str(&days_in_month(c.year, c.month).to_string()),
            'a' => out.push_str(if c.hour < 12 { "am" } else { "pm" }),
            'A' => out.push_str(if c.hour < 12 { "AM" } else { "PM" }),
            'g' => out.push_str(&((c.hour + 11) % 12 + 1).to_string()),
            'h' => out.push_str(&format!("{:02}", (c.hour + 11) % 12 + 1)),
            'G' => out.push_str(&c.hour.to_string()),
            'H' => out.push_str(&format!("{:02}", c.hour)),
            'i' => out.push_str(&format!("{:02}", c.minute)),
            's' => out.push_str(&format!("{:02}", c.second)),
            'U' => out.push_str(&c.unix.to_string()),
            'c' => out.push_str(&format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}",
                c.year,
                c.month,
                c.day,
                c.hour,
                c.minute,
                c.second,
                c.offset(true)
            )),
            'r' => out.push_str(&format!(
                "{}, {:02} {} {:04} {:02}:{:02}:{:02} {}",
                &c.day_name()[..3],
                c.day,
                &c.month_name()[..3],
                c.year,
                c.hour,
                c.minute,
                c.second,
                c.offset(false)
            )),
            'e' | 'T' => out.push_str("UTC"),
            'P' => out.push_str(&c.offset(true)),
            'O' => out.push_str(&c.offset(false)),
            'Z' => out.push_str(&(c.offset_minutes * 60).to_string()),
            'I' => out.push('0'),
            'x' => {
                // `xg` (genitive month) is `F` in English; other x-codes are dropped.
                match chars.next() {
                    Some('g') => out.push_str(c.month_name()),
                    Some('x') => out.push('x'),
                    _ => {}
                }
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(next);
                } else {
                    out.push('\\');
                }
            }
            '"' => {
                let mut lit = String::new();
                let mut closed = false;
                for n in chars.by_ref() {
                    if n == '"' {
                        closed = true;
                        break;
                    }
                    lit.push(n);
                }
                if closed {
                    out.push_str(&lit);
                } else {
                    out.push('"');
                    out.push_str(&lit);
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_format() {
        let clock = Clock::at(123);
        assert_eq!(variable(&clock, "CURRENTYEAR").as_deref(), Some("1970"));
        assert_eq!(variable(&clock, "CURRENTMONTH").as_deref(), Some("01"));
        assert_eq!(variable(&clock, "CURRENTDAY").as_deref(), Some("1"));
        assert_eq!(
            variable(&clock, "CURRENTDAYNAME").as_deref(),
            Some("Thursday")
        );
        assert_eq!(variable(&clock, "CURRENTTIME").as_deref(), Some("00:02"));
        assert_eq!(
            variable(&clock, "CURRENTTIMESTAMP").as_deref(),
            Some("19700101000203")
        );
        assert_eq!(variable(&clock, "CURRENTWEEK").as_deref(), Some("1"));
        let c = Civil::at(parse_date("2024-02-29 13:05:09", 0).unwrap(), 0);
        assert_eq!(
            format("Y-m-d H:i:s D l N z W L \"Y\" \\Y g A", &c),
            "2024-02-29 13:05:09 Thu Thursday 4 59 09 1 Y Y 1 PM"
        );
        assert_eq!(parse_rfc3339("1970-01-01T00:02:03Z"), Some(123));
        assert_eq!(parse_rfc3339("1970-01-01T02:02:03+02:00"), Some(123));
        assert_eq!(civil_from_days(days_from_civil(1600, 2, 29)), (1600, 2, 29));
        assert_eq!(parse_date("2021-02-30", 0), None);
        let d = |s| parse_date(s, 0).map(|t| format("Y-m-d H:i", &Civil::at(t, 0)));
        assert_eq!(d("5 May 2020").as_deref(), Some("2020-05-05 00:00"));
        assert_eq!(d("May 5, 2020 13:45").as_deref(), Some("2020-05-05 13:45"));
        assert_eq!(d("sep 2021").as_deref(), Some("2021-09-01 00:00"));
        assert_eq!(d("5 Smarch 2020"), None);
    }
}
