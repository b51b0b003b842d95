//! Language tags: the one type every language value of this crate goes through.
//!
//! A [`LanguageTag`] is a *well-formed* BCP 47 tag (the syntax of RFC 5646 §2.1:
//! `language[-extlang][-script][-region]*(-variant)*(-extension)[-privateuse]`, a
//! private-use tag, or one of the irregular grandfathered tags), checked once where it
//! enters: the CLI's `--source`/`--target`, XLIFF `srcLang`/`trgLang`, the PO
//! `Language:` and `X-Source-Language:` headers. Whether the subtags are *registered*
//! (RFC 5646 "valid") is not checked: `qaa-Zzzz-AA` is fine, `fr"><script>` is not.
//! A well-formed tag holds only ASCII letters, digits and `-`, so it can never break
//! out of the attribute value it is written into (the writer escapes it anyway).
//!
//! ```
//! use tagloom_l10n::lang::LanguageTag;
//! let tag: LanguageTag = "zh-Hant-TW".parse()?;
//! assert_eq!(tag.as_str(), "zh-Hant-TW");
//! assert!("fr\" onmouseover=\"alert(1)".parse::<LanguageTag>().is_err());
//! // gettext's `ll_CC@modifier` (the PO `Language:` header) maps to BCP 47:
//! assert_eq!(LanguageTag::from_gettext("sr_RS@latin")?.as_str(), "sr-Latn-RS");
//! # Ok::<(), tagloom_l10n::lang::LanguageTagError>(())
//! ```

use std::fmt;
use std::str::FromStr;

/// The longest tag accepted, in bytes. RFC 5646 §4.4.1 asks implementations to
/// hold at least 35 characters; real tags are far shorter than this cap.
pub const MAX_TAG_LEN: usize = 255;

/// A well-formed BCP 47 language tag (see the [module docs](self)), kept as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LanguageTag(String);

/// Why a value is not a well-formed language tag.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{value:?} is not a well-formed BCP 47 language tag ({reason})")]
pub struct LanguageTagError {
    /// The value as given (shown with `{:?}`, so control characters stay visible).
    pub value: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// RFC 5646 §2.2.8 irregular grandfathered tags (they do not follow the syntax).
const IRREGULAR: [&str; 17] = [
    "en-GB-oed",
    "i-ami",
    "i-bnn",
    "i-default",
    "i-enochian",
    "i-hak",
    "i-klingon",
    "i-lux",
    "i-mingo",
    "i-navajo",
    "i-pwn",
    "i-tao",
    "i-tay",
    "i-tsu",
    "sgn-BE-FR",
    "sgn-BE-NL",
    "sgn-CH-DE",
];

fn alpha(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphabetic())
}

fn alnum(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_variant(s: &str) -> bool {
    alnum(s, 5, 8) || (alnum(s, 4, 4) && s.as_bytes().first().is_some_and(u8::is_ascii_digit))
}

/// Checks the RFC 5646 `Language-Tag` production; `Err` names the first problem.
fn check(tag: &str) -> Result<(), &'static str> {
    if tag.is_empty() {
        return Err("empty");
    }
    if tag.len() > MAX_TAG_LEN {
        return Err("longer than 255 bytes");
    }
    if !tag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err("only ASCII letters, digits and '-' may appear");
    }
    if IRREGULAR.iter().any(|g| g.eq_ignore_ascii_case(tag)) {
        return Ok(());
    }
    let subtags: Vec<&str> = tag.split('-').collect();
    if subtags.iter().any(|s| s.is_empty()) {
        return Err("empty subtag");
    }
    if subtags.iter().any(|s| s.len() > 8) {
        return Err("a subtag is longer than 8 characters");
    }
    let mut rest = subtags.as_slice();
    let take = |rest: &mut &[&str], ok: &dyn Fn(&str) -> bool| -> bool {
        match rest.first() {
            Some(s) if ok(s) => {
                *rest = &rest[1..];
                true
            }
            _ => false,
        }
    };
    // privateuse = "x" 1*("-" (1*8alphanum))
    let private = |rest: &[&str]| -> Result<(), &'static str> {
        if rest.len() < 2 {
            return Err("'x' must be followed by a private-use subtag");
        }
        Ok(()) // lengths 1..=8 and characters were checked above
    };
    if rest[0].eq_ignore_ascii_case("x") {
        return private(rest);
    }
    // language = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA; extlang = 3ALPHA *2("-" 3ALPHA)
    let language = rest[0];
    if !alpha(language, 2, 8) {
        return Err("the language subtag must be 2 to 8 letters");
    }
    rest = &rest[1..];
    if language.len() <= 3 {
        for _ in 0..3 {
            if !take(&mut rest, &|s| alpha(s, 3, 3)) {
                break;
            }
        }
    }
    take(&mut rest, &|s| alpha(s, 4, 4)); // script
    take(&mut rest, &|s| alpha(s, 2, 2) || digits(s, 3)); // region
    while take(&mut rest, &is_variant) {}
    // extension = singleton 1*("-" (2*8alphanum)); singleton = alphanum except x
    while let Some(first) = rest.first() {
        if first.len() != 1 || first.eq_ignore_ascii_case("x") {
            break;
        }
        rest = &rest[1..];
        if !take(&mut rest, &|s| alnum(s, 2, 8)) {
            return Err("an extension singleton must be followed by a 2 to 8 character subtag");
        }
        while take(&mut rest, &|s| alnum(s, 2, 8)) {}
    }
    match rest.first() {
        None => Ok(()),
        Some(x) if x.eq_ignore_ascii_case("x") => private(rest),
        Some(_) => Err("subtags out of order or of the wrong length"),
    }
}

impl LanguageTag {
    /// Parses a well-formed BCP 47 tag, kept as written (`en-gb` stays `en-gb`).
    pub fn parse(value: &str) -> Result<Self, LanguageTagError> {
        check(value).map_err(|reason| LanguageTagError {
            value: value.to_string(),
            reason,
        })?;
        Ok(LanguageTag(value.to_string()))
    }

    /// Parses gettext's locale form, as PO `Language:` headers use it
    /// (`ll[_CC][.codeset][@modifier]`): `pt_BR` → `pt-BR`, `sr_RS@latin` →
    /// `sr-Latn-RS`, `ca@valencia` → `ca-valencia`. A BCP 47 tag passes unchanged.
    pub fn from_gettext(value: &str) -> Result<Self, LanguageTagError> {
        let fail = |reason| LanguageTagError {
            value: value.to_string(),
            reason,
        };
        let (main, modifier) = match value.split_once('@') {
            Some((m, modifier)) => (m, Some(modifier)),
            None => (value, None),
        };
        let main = main.split_once('.').map_or(main, |(m, _codeset)| m);
        let mut parts = main.split('_');
        let mut tag = parts.next().unwrap_or_default().to_string();
        match modifier {
            Some(m) if m.eq_ignore_ascii_case("latin") => tag.push_str("-Latn"),
            Some(m) if m.eq_ignore_ascii_case("cyrillic") => tag.push_str("-Cyrl"),
            _ => {}
        }
        for part in parts {
            tag.push('-');
            tag.push_str(part);
        }
        if let Some(m) = modifier
            .filter(|m| !m.eq_ignore_ascii_case("latin") && !m.eq_ignore_ascii_case("cyrillic"))
        {
            if !is_variant(m) {
                return Err(fail("an unknown gettext @modifier"));
            }
            tag.push('-');
            tag.push_str(m);
        }
        check(&tag).map_err(fail)?;
        Ok(LanguageTag(tag))
    }

    /// `en`, the default source language.
    pub(crate) fn english() -> Self {
        LanguageTag("en".into())
    }

    /// The tag as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the language value `value` (from a page: not necessarily a tag) names
    /// this language: same tag, or, when this tag is a bare language, any regional or
    /// script variant of it (`en` names `en-GB` and `en_US`; `en-US` does not name `en-GB`).
    pub fn names(&self, value: &str) -> bool {
        names_language(value, &self.0)
    }
}

/// The writing direction of a language (what `dir` on `<html>` says).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Left to right.
    Ltr,
    /// Right to left.
    Rtl,
}

impl Direction {
    /// The `dir` attribute value.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Ltr => "ltr",
            Direction::Rtl => "rtl",
        }
    }
}

/// ISO 15924 codes of the right-to-left scripts (current and historic).
const RTL_SCRIPTS: &[&str] = &[
    "adlm", "arab", "aran", "armi", "avst", "chrs", "cprt", "elym", "hatr", "hebr", "hung", "khar",
    "lydi", "mand", "mani", "mend", "merc", "mero", "narb", "nbat", "nkoo", "orkh", "ougr", "palm",
    "phli", "phlp", "phnx", "prti", "rohg", "samr", "sarb", "sogd", "sogo", "syrc", "thaa", "yezi",
];

/// Languages written right to left when the tag names no script (their
/// Suppress-Script or usual script in the IANA registry is an RTL one).
const RTL_LANGUAGES: &[&str] = &[
    "acm", "aeb", "ajp", "apc", "apd", "ar", "arc", "arq", "ars", "ary", "arz", "auz", "avl",
    "ayh", "ayl", "ayn", "ayp", "azb", "bal", "bqi", "ckb", "dv", "fa", "glk", "hbo", "he", "iw",
    "ji", "jpr", "jrb", "khw", "ks", "lrc", "mzn", "nqo", "pbt", "pbu", "pes", "pnb", "prs", "ps",
    "sam", "sd", "sdh", "shu", "skr", "ssh", "syr", "ug", "ur", "yi",
];

impl LanguageTag {
    /// The direction of the language: its script subtag's when it has one
    /// (`az-Arab` is RTL, `ur-Latn` LTR), else its language's (`ar`, `he`, `fa`,
    /// `ur`, `ps`, `yi`, `ckb`… are RTL); everything else is LTR.
    ///
    /// ```
    /// use tagloom_l10n::lang::{Direction, LanguageTag};
    /// let dir = |t: &str| t.parse::<LanguageTag>().unwrap().direction();
    /// assert_eq!(dir("ar-EG"), Direction::Rtl);
    /// assert_eq!(dir("pa-Arab"), Direction::Rtl);
    /// assert_eq!(dir("pa"), Direction::Ltr);
    /// ```
    pub fn direction(&self) -> Direction {
        let mut subtags = self.0.split('-');
        let language = subtags.next().unwrap_or_default();
        let is = |list: &[&str], s: &str| list.iter().any(|x| x.eq_ignore_ascii_case(s));
        if language.len() > 1 && !IRREGULAR.iter().any(|g| g.eq_ignore_ascii_case(&self.0)) {
            // The script is the first 4-letter subtag before any singleton.
            for s in subtags.take_while(|s| s.len() > 1) {
                if s.len() == 4 && s.bytes().all(|b| b.is_ascii_alphabetic()) {
                    return if is(RTL_SCRIPTS, s) {
                        Direction::Rtl
                    } else {
                        Direction::Ltr
                    };
                }
            }
            if is(RTL_LANGUAGES, language) {
                return Direction::Rtl;
            }
        }
        Direction::Ltr
    }
}

/// Whether two language values are the same tag: ASCII case-insensitive, `_` and
/// `-` alike, surrounding whitespace ignored (`en-GB` is not `en`).
pub fn same_tag(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim().as_bytes(), b.trim().as_bytes());
    let norm = |c: u8| {
        if c == b'_' {
            b'-'
        } else {
            c.to_ascii_lowercase()
        }
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| norm(*x) == norm(*y))
}

/// Which language values of a page become the target when it is translated.
///
/// The page's language is its `<html>` element's `lang` (else `xml:lang`). A value
/// is retargeted when it is the source language exactly ([`same_tag`]), or when it
/// is the page's language exactly and that names the source ([`LanguageTag::names`]:
/// `<html lang="en-US">` in an `en` extraction). So in an `en` page an `en-GB` quote,
/// a `de` passage or an `fr-CA` link keep their values. (The reader never hands
/// over the values of elements with `hreflang`: language switchers.)
#[derive(Clone, Debug)]
pub struct Retarget<'a> {
    /// The source language.
    pub source: &'a LanguageTag,
    /// What retargeted values become.
    pub target: &'a LanguageTag,
    /// The page's language, once known.
    pub page: Option<String>,
}

impl Retarget<'_> {
    /// Whether `value` is retargeted.
    pub fn applies(&self, value: &str) -> bool {
        same_tag(value, self.source)
            || self
                .page
                .as_deref()
                .is_some_and(|p| same_tag(value, p) && self.source.names(p))
    }

    /// The `dir` value for a page whose `<html>` had `current` (`None`: no `dir`),
    /// or `None` to keep it: `rtl` for a right-to-left target; `ltr` for a
    /// left-to-right target when the source is right-to-left and the page said `rtl`.
    pub fn dir(&self, current: Option<&str>) -> Option<Direction> {
        match (self.target.direction(), current) {
            (Direction::Rtl, Some(v)) if v.trim().eq_ignore_ascii_case("rtl") => None,
            (Direction::Rtl, _) => Some(Direction::Rtl),
            (Direction::Ltr, Some(v))
                if self.source.direction() == Direction::Rtl
                    && v.trim().eq_ignore_ascii_case("rtl") =>
            {
                Some(Direction::Ltr)
            }
            (Direction::Ltr, _) => None,
        }
    }
}

/// Whether the language value `value` names `source` (see [`LanguageTag::names`]).
pub fn names_language(value: &str, source: &str) -> bool {
    let value = value.trim();
    if value.eq_ignore_ascii_case(source) {
        return true;
    }
    if source.contains(['-', '_']) {
        return false;
    }
    let primary = value.split(['-', '_']).next().unwrap_or("");
    !primary.is_empty() && primary.eq_ignore_ascii_case(source)
}

impl FromStr for LanguageTag {
    type Err = LanguageTagError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        LanguageTag::parse(s)
    }
}

impl fmt::Display for LanguageTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for LanguageTag {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for LanguageTag {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_tags() {
        for ok in [
            "en",
            "fr",
            "EN-gb",
            "zh-Hant-TW",
            "sr-Latn-RS",
            "es-419",
            "de-CH-1901",
            "sl-rozaj-biske",
            "hy-Latn-IT-arevela",
            "zh-yue-HK",
            "zh-min-nan",
            "ar-aao-abc-abd",
            "en-US-u-islamcal",
            "en-a-myext-b-another",
            "de-DE-u-co-phonebk",
            "x-whatever",
            "qaa-Qaaa-QM-x-southern",
            "i-klingon",
            "en-GB-oed",
            "art-lojban",
            "abcde",
            "en-x-a",
        ] {
            assert!(LanguageTag::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn rejected_tags() {
        for bad in [
            "",
            "fr\" onmouseover=\"alert(1)",
            "fr\"><script>alert(1)</script>",
            "fr'",
            "fr fr",
            "fr\n",
            "en_US",
            "e",
            "abcdefghi",
            "en--US",
            "en-",
            "-en",
            "en-US-a",
            "en-a-b",
            "x",
            "en-x",
            "en-GB-123",
            "en-Latn-Latn",
            "en-aaa-aaa-aaa-aaa",
            "1234",
            "é",
            &"a".repeat(300),
        ] {
            let e = LanguageTag::parse(bad).unwrap_err();
            assert!(e.to_string().contains("BCP 47"), "{bad}: {e}");
        }
    }

    #[test]
    fn gettext_forms() {
        let g = |s| LanguageTag::from_gettext(s).map(|t| t.to_string());
        assert_eq!(g("pt_BR").unwrap(), "pt-BR");
        assert_eq!(g("fr").unwrap(), "fr");
        assert_eq!(g("sr_RS@latin").unwrap(), "sr-Latn-RS");
        assert_eq!(g("sr@cyrillic").unwrap(), "sr-Cyrl");
        assert_eq!(g("ca@valencia").unwrap(), "ca-valencia");
        assert_eq!(g("de_DE.UTF-8").unwrap(), "de-DE");
        assert_eq!(g("zh-Hant-TW").unwrap(), "zh-Hant-TW");
        assert!(g("fr\" x=\"").is_err());
        assert!(g("fr@x\"y").is_err());
        assert!(g("fr_FR\">").is_err());
    }

    #[test]
    fn directions() {
        let dir = |t: &str| LanguageTag::parse(t).unwrap().direction();
        for rtl in [
            "ar", "he", "fa", "ur", "AR-eg", "fa-IR", "yi", "ckb", "az-Arab", "ps-AF", "ku-Arab",
        ] {
            assert_eq!(dir(rtl), Direction::Rtl, "{rtl}");
        }
        for ltr in [
            "en",
            "fr",
            "ur-Latn",
            "pa",
            "x-ar",
            "ku",
            "i-klingon",
            "zh-Hant",
            "arn",
        ] {
            assert_eq!(dir(ltr), Direction::Ltr, "{ltr}");
        }
    }

    #[test]
    fn retarget_rule() {
        let (en, fr, ar) = (
            "en".parse().unwrap(),
            "fr".parse().unwrap(),
            "ar".parse().unwrap(),
        );
        let mut r = Retarget {
            source: &en,
            target: &fr,
            page: None,
        };
        assert!(r.applies("EN") && r.applies(" en "));
        assert!(!r.applies("en-GB") && !r.applies("de"));
        r.page = Some("en-US".into());
        assert!(r.applies("en-us") && r.applies("en") && !r.applies("en-GB"));
        r.page = Some("de".into());
        assert!(!r.applies("de") && r.applies("en"));
        assert_eq!(r.dir(None), None);
        assert_eq!(r.dir(Some("rtl")), None);
        let r = Retarget {
            source: &en,
            target: &ar,
            page: None,
        };
        assert_eq!(r.dir(None), Some(Direction::Rtl));
        assert_eq!(r.dir(Some("ltr")), Some(Direction::Rtl));
        assert_eq!(r.dir(Some("RTL")), None);
        let r = Retarget {
            source: &ar,
            target: &fr,
            page: None,
        };
        assert_eq!(r.dir(Some("rtl")), Some(Direction::Ltr));
        assert_eq!(r.dir(None), None);
        assert!(same_tag("en_us", "EN-US") && !same_tag("en", "en-US"));
    }

    #[test]
    fn language_matching() {
        let en = LanguageTag::parse("en").unwrap();
        assert!(en.names("en"));
        assert!(en.names("EN-gb"));
        assert!(en.names(" en_US "));
        assert!(!en.names("fr"));
        assert!(!names_language("en-GB", "en-US"));
        assert!(names_language("en-us", "en-US"));
    }
}
