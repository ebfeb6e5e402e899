//! Wall times of class mode: an HTML `datetime-local` value read as UTC, and UTC printed back.

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01 (`civil_from_days`).
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Seconds since 1970 of `YYYY-MM-DDTHH:MM` (an HTML `datetime-local` value; a space instead
/// of the `T` and `:SS` are accepted), read as UTC.
pub fn parse_utc(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, time) = text.split_once(['T', ' '])?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, mo, da) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':').map(|p| p.parse::<i64>().ok());
    let (h, mi) = (t.next()??, t.next()??);
    let s = t.next().unwrap_or(Some(0))?;
    if d.next().is_some() || t.next().is_some() {
        return None;
    }
    let days_in = [
        31,
        if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let valid = (1970..=9999).contains(&y)
        && (1..=12).contains(&mo)
        && (1..=days_in[(mo - 1) as usize]).contains(&da)
        && (0..24).contains(&h)
        && (0..60).contains(&mi)
        && (0..60).contains(&s);
    valid.then(|| days_from_civil(y, mo, da) * 86_400 + h * 3600 + mi * 60 + s)
}

/// `YYYY-MM-DD HH:MM UTC`.
pub fn utc_text(t: i64) -> String {
    let (y, m, d) = civil_from_days(t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", s / 3600, (s % 3600) / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_read_as_utc_and_print_back() {
        assert_eq!(parse_utc("1970-01-01T00:00"), Some(0));
        assert_eq!(parse_utc("2026-11-27T09:30"), Some(1_795_771_800));
        assert_eq!(parse_utc("2024-02-29 23:59:59"), Some(1_709_251_199));
        assert_eq!(utc_text(1_795_771_800), "2026-11-27 09:30 UTC");
        for bad in ["", "2026-11-27", "2026-13-01T00:00", "2025-02-29T00:00", "2026-11-27T24:00", "x-y-zT1:2"]
        {
            assert_eq!(parse_utc(bad), None, "{bad}");
        }
    }
}
