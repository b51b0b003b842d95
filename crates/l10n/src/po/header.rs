//! The header entry [`super::PoWriter`] writes: the fields gettext tools and PO
//! editors expect, with sensible values, each replaceable ([`PoHeader::set`]).

use std::time::{SystemTime, UNIX_EPOCH};

use crate::lang::LanguageTag;

/// The header fields of a PO file, in order.
///
/// ```
/// use tagloom_l10n::{LanguageTag, po::PoHeader};
/// let fr = LanguageTag::parse("fr").unwrap();
/// let en = LanguageTag::parse("en").unwrap();
/// let mut header = PoHeader::new(&en, Some(&fr), "index.html");
/// header.set("Last-Translator", "Jeanne <jeanne@example.org>").unwrap();
/// assert_eq!(header.get("Plural-Forms"), Some("nplurals=2; plural=(n > 1);"));
/// assert_eq!(header.get("Project-Id-Version"), Some("index.html"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoHeader {
    fields: Vec<(String, String)>,
}

impl PoHeader {
    /// The default header of a page's PO file: `Project-Id-Version` is the page's
    /// file name, both dates the time of extraction (`SOURCE_DATE_EPOCH` when set,
    /// for reproducible outputs), `Last-Translator` and `Language-Team` empty (a PO
    /// editor fills them), `Plural-Forms` when the target language is in the table
    /// of [`plural_forms`], and tagloom's own `X-Source-Language` and `X-Original`.
    pub fn new(source: &LanguageTag, target: Option<&LanguageTag>, original: &str) -> Self {
        let now = po_date(extraction_time());
        let mut fields: Vec<(String, String)> = [
            ("Project-Id-Version", original),
            ("POT-Creation-Date", &now),
            ("PO-Revision-Date", &now),
            ("Last-Translator", ""),
            ("Language-Team", ""),
            ("Language", target.map_or("", LanguageTag::as_str)),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=UTF-8"),
            ("Content-Transfer-Encoding", "8bit"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        if let Some(plural) = target.and_then(plural_forms) {
            fields.push(("Plural-Forms".into(), plural.into()));
        }
        fields.push((
            "X-Generator".into(),
            format!("tagloom {}", env!("CARGO_PKG_VERSION")),
        ));
        fields.push(("X-Source-Language".into(), source.to_string()));
        fields.push(("X-Original".into(), original.into()));
        PoHeader { fields }
    }

    /// Sets field `name` (replacing its value, or appended). `Err` when the name is
    /// empty or holds `:` or white space, or either holds a line break or a control
    /// character (the header is one field per line); `Content-Type` must keep
    /// `charset=UTF-8` (what the file is written in).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.is_empty() || name.contains(|c: char| c == ':' || c.is_whitespace()) {
            return Err(format!("{name:?} is not a PO header field name"));
        }
        if name.chars().chain(value.chars()).any(char::is_control) {
            return Err(format!("{name}: a header value is one line"));
        }
        if name.eq_ignore_ascii_case("Content-Type")
            && !value.to_ascii_lowercase().contains("charset=utf-8")
        {
            return Err("Content-Type: tagloom writes PO files in UTF-8 (charset=UTF-8)".into());
        }
        match self
            .fields
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some((_, v)) => *v = value.to_owned(),
            None => self.fields.push((name.to_owned(), value.to_owned())),
        }
        Ok(())
    }

    /// The value of field `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `msgstr` of the header entry: `Name: value\n` per field.
    pub fn msgstr(&self) -> String {
        self.fields
            .iter()
            .map(|(k, v)| format!("{k}: {v}\n"))
            .collect()
    }
}

/// Seconds since the epoch: `SOURCE_DATE_EPOCH` when set (reproducible builds'
/// convention), else now.
fn extraction_time() -> u64 {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        })
}

/// A PO header date, `YYYY-MM-DD HH:MM+0000` (UTC).
fn po_date(secs: u64) -> String {
    let days = secs / 86_400;
    let (hour, minute) = (secs % 86_400 / 3600, secs % 3600 / 60);
    // Days to a civil date (proleptic Gregorian), eras of 400 years.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}+0000")
}

/// gettext's `Plural-Forms` for common languages (by primary subtag; `pt-BR`
/// apart); `None` for a language not in the table (the field is then left out).
pub fn plural_forms(lang: &LanguageTag) -> Option<&'static str> {
    let tag = lang.as_str().to_ascii_lowercase();
    let primary = tag.split('-').next().unwrap_or_default();
    const ONE: &str = "nplurals=1; plural=0;";
    const NOT_ONE: &str = "nplurals=2; plural=(n != 1);";
    const OVER_ONE: &str = "nplurals=2; plural=(n > 1);";
    const SLAVIC: &str = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : \
        n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);";
    Some(match primary {
        "pt" if tag.starts_with("pt-br") => OVER_ONE,
        "ja" | "zh" | "ko" | "vi" | "th" | "id" | "ms" | "lo" | "my" | "km" => ONE,
        "en" | "de" | "nl" | "sv" | "da" | "no" | "nb" | "nn" | "fi" | "et" | "it" | "es"
        | "pt" | "el" | "hu" | "bg" | "ca" | "eu" | "gl" | "he" | "tr" | "hi" | "bn" | "ur"
        | "fa" | "sw" | "af" | "sq" | "az" | "ka" | "kk" | "mn" | "ta" | "te" | "ml" => NOT_ONE,
        "fr" | "oc" | "hy" => OVER_ONE,
        "ru" | "uk" | "be" | "sr" | "hr" | "bs" => SLAVIC,
        "pl" => {
            "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
        }
        "cs" | "sk" => "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
        "ar" => {
            "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : \
             n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(s: &str) -> LanguageTag {
        LanguageTag::parse(s).unwrap()
    }

    #[test]
    fn dates() {
        assert_eq!(po_date(0), "1970-01-01 00:00+0000");
        assert_eq!(po_date(951_782_400), "2000-02-29 00:00+0000");
        assert_eq!(po_date(1_700_000_000), "2023-11-14 22:13+0000");
        assert_eq!(po_date(4_107_542_400), "2100-03-01 00:00+0000");
    }

    #[test]
    fn complete_and_overridable() {
        let mut h = PoHeader::new(&tag("en"), Some(&tag("pt-BR")), "a.html");
        for field in [
            "Project-Id-Version",
            "POT-Creation-Date",
            "PO-Revision-Date",
            "Last-Translator",
            "Language-Team",
            "MIME-Version",
            "Content-Transfer-Encoding",
            "X-Generator",
        ] {
            assert!(h.get(field).is_some(), "{field}");
        }
        assert_eq!(h.get("Language"), Some("pt-BR"));
        assert_eq!(h.get("Plural-Forms"), Some("nplurals=2; plural=(n > 1);"));
        h.set("language-team", "Brazilian <pt@example.org>")
            .unwrap();
        h.set("X-Domain", "site").unwrap();
        assert!(
            h.msgstr()
                .contains("Language-Team: Brazilian <pt@example.org>\n")
        );
        assert!(h.msgstr().ends_with("X-Domain: site\n"));
        assert!(h.set("Last-Translator", "a\nb").is_err());
        assert!(h.set("Bad Name", "x").is_err());
        assert!(
            h.set("Content-Type", "text/plain; charset=ISO-8859-1")
                .is_err()
        );
        let none = PoHeader::new(&tag("en"), None, "a.html");
        assert_eq!(none.get("Plural-Forms"), None);
        assert_eq!(
            plural_forms(&tag("ru")).map(|p| &p[..11]),
            Some("nplurals=3;")
        );
        assert_eq!(plural_forms(&tag("tlh")), None);
    }
}
