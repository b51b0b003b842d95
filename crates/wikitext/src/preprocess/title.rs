//! Page titles: namespace prefixes, first-letter capitalization, `_` as space.
//!
//! `Title::parse("template:foo_bar", NS_MAIN, &site)` and
//! `Title::parse("foo bar", NS_TEMPLATE, &site)` are the same title,
//! `Template:Foo bar`. A leading `:` forces the main namespace (`{{:Foo}}`), a
//! `#fragment` is dropped. Titles with `[ ] { } | < >`, control characters or no
//! text are invalid, as in MediaWiki.

use std::borrow::Cow;

use super::config::Site;

/// The main (article) namespace.
pub const NS_MAIN: i32 = 0;
/// `Template:`.
pub const NS_TEMPLATE: i32 = 10;
/// `Category:`.
pub const NS_CATEGORY: i32 = 14;
/// `File:` (alias `Image:`).
pub const NS_FILE: i32 = 6;
/// `Special:`.
pub const NS_SPECIAL: i32 = -1;
/// `Media:`.
pub const NS_MEDIA: i32 = -2;
/// `Project:`, named after the site.
pub const NS_PROJECT: i32 = 4;

/// MediaWiki's canonical namespaces (id, name); `Project` is renamed by the site.
const NAMESPACES: &[(i32, &str)] = &[
    (-2, "Media"),
    (-1, "Special"),
    (0, ""),
    (1, "Talk"),
    (2, "User"),
    (3, "User talk"),
    (4, "Project"),
    (5, "Project talk"),
    (6, "File"),
    (7, "File talk"),
    (8, "MediaWiki"),
    (9, "MediaWiki talk"),
    (10, "Template"),
    (11, "Template talk"),
    (12, "Help"),
    (13, "Help talk"),
    (14, "Category"),
    (15, "Category talk"),
    (828, "Module"),
    (829, "Module talk"),
];

/// Why a title is invalid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TitleError {
    /// Nothing left after the namespace prefix and fragment.
    #[error("empty title")]
    Empty,
    /// A character titles may not contain.
    #[error("title contains {0:?}")]
    BadChar(char),
    /// Longer than 255 bytes.
    #[error("title longer than 255 bytes")]
    TooLong,
}

/// A normalized page title.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Title {
    ns: i32,
    /// Namespace display name (`Template`, the site name for `Project`).
    ns_name: Cow<'static, str>,
    /// The text after the namespace, spaces not underscores, first letter upper.
    text: String,
}

impl Title {
    /// Parses `raw` with `default_ns` for text without a namespace prefix.
    ///
    /// ```
    /// use tagloom_wikitext::preprocess::{Site, Title, NS_TEMPLATE};
    ///
    /// let site = Site::default();
    /// let t = Title::parse(" foo_bar ", NS_TEMPLATE, &site)?;
    /// assert_eq!(t.prefixed(), "Template:Foo bar");
    /// assert_eq!(Title::parse("template:Foo bar", 0, &site)?, t);
    /// assert_eq!(Title::parse(":Foo", NS_TEMPLATE, &site)?.prefixed(), "Foo");
    /// # Ok::<(), tagloom_wikitext::preprocess::TitleError>(())
    /// ```
    pub fn parse(raw: &str, default_ns: i32, site: &Site) -> Result<Title, TitleError> {
        // Line breaks and other controls are invalid inside a title (`{{ech\no}}`
        // is no template); blanks around it are trimmed first.
        if let Some(c) = raw.trim().chars().find(|c| c.is_control()) {
            return Err(TitleError::BadChar(c));
        }
        let mut s = normalize_spaces(raw);
        if let Some(hash) = memchr::memchr(b'#', s.as_bytes()) {
            s.truncate(hash);
            s = s.trim_end().to_owned();
        }
        let (mut ns, mut rest) = (default_ns, s.as_str());
        if let Some(r) = rest.strip_prefix(':') {
            ns = NS_MAIN;
            rest = r.trim_start();
        } else if let Some(colon) = memchr::memchr(b':', rest.as_bytes())
            && let Some(id) = namespace_id(rest[..colon].trim_end(), site)
        {
            ns = id;
            rest = rest[colon + 1..].trim_start();
        }
        if rest.is_empty() {
            return Err(TitleError::Empty);
        }
        if let Some(c) = rest
            .chars()
            .find(|&c| matches!(c, '[' | ']' | '{' | '}' | '|' | '<' | '>') || c.is_control())
        {
            return Err(TitleError::BadChar(c));
        }
        if rest.len() > 255 {
            return Err(TitleError::TooLong);
        }
        let text = if rest.len() == s.len() && s.as_bytes().first().is_some_and(u8::is_ascii) {
            // The whole normalized text: upper-cased in place, not copied.
            if let Some(first) = s.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            s
        } else {
            ucfirst(rest)
        };
        Ok(Title {
            ns,
            ns_name: ns_name(ns, site).unwrap_or_default(),
            text,
        })
    }

    /// `Title::parse(raw, NS_MAIN, site)` of the common link target in one pass
    /// over its bytes: printable ASCII without the characters titles reject and
    /// without those link targets treat specially (`% & # ~`, a `.` beside a
    /// `/`), no leading `:` or `_`, and no `:` or one after a known namespace.
    /// `None` when the general path must decide (the text may still be valid).
    pub(crate) fn parse_plain(raw: &str, site: &Site) -> Option<Title> {
        let mut text = String::with_capacity(raw.len());
        let mut colon = None;
        let (mut dot, mut slash) = (false, false);
        for &c in raw.trim_matches(' ').as_bytes() {
            match c {
                b' ' | b'_' => {
                    if !text.is_empty() && !text.ends_with(' ') {
                        text.push(' ');
                    }
                    continue;
                }
                b':' if colon.is_none() => colon = Some(text.len()),
                b'.' => dot = true,
                b'/' => slash = true,
                b'%' | b'&' | b'#' | b'~' | b'[' | b']' | b'{' | b'}' | b'|' | b'<' | b'>' => {
                    return None;
                }
                0x21..=0x7e => {}
                _ => return None,
            }
            text.push(c as char);
        }
        if text.ends_with(' ') {
            text.pop();
        }
        if dot && (slash || text == "." || text == "..") {
            return None;
        }
        let ns = match colon {
            None => NS_MAIN,
            Some(at) => {
                let id = namespace_id_normalized(text.get(..at)?.trim_end(), site)?;
                let start = at + 1 + usize::from(text.as_bytes().get(at + 1) == Some(&b' '));
                text.replace_range(..start, "");
                id
            }
        };
        if text.is_empty() || text.len() > 255 {
            return None;
        }
        if let Some(first) = text.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        Some(Title {
            ns,
            ns_name: ns_name(ns, site).unwrap_or_default(),
            text,
        })
    }

    /// The namespace id (0 main, 10 template, …).
    pub fn ns(&self) -> i32 {
        self.ns
    }

    /// The namespace name (empty for the main namespace).
    pub fn ns_name(&self) -> &str {
        &self.ns_name
    }

    /// The text without namespace (`Foo bar`).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The full title (`Template:Foo bar`).
    pub fn prefixed(&self) -> String {
        let mut out = String::with_capacity(self.ns_name.len() + 1 + self.text.len());
        self.push_prefixed(&mut out);
        out
    }

    /// Appends the full title (`Template:Foo bar`) to `out`.
    pub(crate) fn push_prefixed(&self, out: &mut String) {
        if !self.ns_name.is_empty() {
            out.push_str(&self.ns_name);
            out.push(':');
        }
        out.push_str(&self.text);
    }

    /// The full title with underscores (`Template:Foo_bar`), as in URLs.
    pub fn db_key(&self) -> String {
        self.prefixed().replace(' ', "_")
    }

    /// Whether this is a talk namespace.
    pub fn is_talk(&self) -> bool {
        self.ns >= 0 && self.ns % 2 == 1
    }

    /// The same text in the talk namespace (`None` for Special/Media).
    pub fn talk(&self, site: &Site) -> Option<Title> {
        (self.ns >= 0).then(|| self.in_ns(self.ns | 1, site))
    }

    /// The same text in the subject namespace.
    pub fn subject(&self, site: &Site) -> Title {
        if self.ns >= 0 {
            self.in_ns(self.ns & !1, site)
        } else {
            self.clone()
        }
    }

    fn in_ns(&self, ns: i32, site: &Site) -> Title {
        Title {
            ns,
            ns_name: ns_name(ns, site).unwrap_or_default(),
            text: self.text.clone(),
        }
    }
}

impl std::fmt::Display for Title {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.ns_name.is_empty() {
            write!(f, "{}:", self.ns_name)?;
        }
        f.write_str(&self.text)
    }
}

/// `_` to space, runs of blanks to one space, trimmed.
fn normalize_spaces(raw: &str) -> String {
    // Most titles are ASCII with single spaces between words and none at the
    // ends: copied as they are.
    let b = raw.as_bytes();
    if b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && !b.windows(2).any(|w| w == b"  ")
        && b.iter().all(|&c| {
            c.is_ascii() && c != b'_' && (c == b' ' || !c.is_ascii_whitespace()) && c != 0x0b
        })
    {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        let c = if c == '_' || c == '\u{a0}' || c.is_whitespace() && c != '\u{200b}' {
            ' '
        } else {
            c
        };
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with(' ') {
        out.pop();
    }
    out
}

/// Upper-cases the first letter (when it has a single-letter upper case).
pub(crate) fn ucfirst(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        None => String::new(),
        Some(c) => {
            let mut up = c.to_uppercase();
            let mut out = String::with_capacity(s.len());
            match (up.next(), up.next()) {
                (Some(u), None) => out.push(u),
                _ => out.push(c),
            }
            out.push_str(chars.as_str());
            out
        }
    }
}

/// The id of a namespace name or alias (case-insensitive, `_` as space).
pub fn namespace_id(name: &str, site: &Site) -> Option<i32> {
    namespace_id_normalized(&normalize_spaces(name), site)
}

/// [`namespace_id`] of a name whose blanks are normalized already.
pub(crate) fn namespace_id_normalized(name: &str, site: &Site) -> Option<i32> {
    if name.is_empty() {
        return None;
    }
    if name.is_ascii() && site.project_ns.is_ascii() {
        // The same comparisons without lower-cased copies.
        let project = site.project_ns.as_str();
        if name.eq_ignore_ascii_case(project) {
            return Some(4);
        }
        if let Some(ns) = name.len().checked_sub(5).and_then(|n| name.get(..n))
            && name
                .get(ns.len()..)
                .is_some_and(|t| t.eq_ignore_ascii_case(" talk"))
            && ns.eq_ignore_ascii_case(project)
        {
            return Some(5);
        }
        if name.eq_ignore_ascii_case("image") {
            return Some(6);
        }
        if name.eq_ignore_ascii_case("image talk") {
            return Some(7);
        }
        return NAMESPACES
            .iter()
            .find(|(id, n)| *id != 0 && n.eq_ignore_ascii_case(name))
            .map(|(id, _)| *id);
    }
    let name = name.to_lowercase();
    let project = site.project_ns.to_lowercase();
    if name == project {
        return Some(4);
    }
    if name.strip_suffix(" talk") == Some(project.as_str()) {
        return Some(5);
    }
    match name.as_str() {
        "image" => return Some(6),
        "image talk" => return Some(7),
        _ => {}
    }
    NAMESPACES
        .iter()
        // The names are ASCII and `name` is lower case: no lower-cased copies.
        .find(|(id, n)| *id != 0 && n.eq_ignore_ascii_case(&name))
        .map(|(id, _)| *id)
}

/// The display name of a namespace id.
pub fn namespace_name(id: i32, site: &Site) -> Option<String> {
    ns_name(id, site).map(Cow::into_owned)
}

fn ns_name(id: i32, site: &Site) -> Option<Cow<'static, str>> {
    match id {
        4 => Some(Cow::Owned(site.project_ns.clone())),
        5 => Some(Cow::Owned(format!("{} talk", site.project_ns))),
        _ => NAMESPACES
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, n)| Cow::Borrowed(*n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes() {
        let site = Site::default();
        let t = Title::parse("  template : a__b  #frag", 0, &site).unwrap();
        assert_eq!(t.prefixed(), "Template:A b");
        assert_eq!(t.db_key(), "Template:A_b");
        assert_eq!(Title::parse("Foo", NS_TEMPLATE, &site).unwrap().ns(), 10);
        assert_eq!(
            Title::parse("Image:X.png", 0, &site).unwrap().prefixed(),
            "File:X.png"
        );
        assert_eq!(
            Title::parse("project:X", 0, &site).unwrap().prefixed(),
            "Project:X"
        );
        assert_eq!(Title::parse("MediaWiki:X", 0, &site).unwrap().ns(), 8);
        assert!(Title::parse("a{b", 0, &site).is_err());
        assert!(Title::parse("#x", 0, &site).is_err());
        assert!(Title::parse("Template:", 0, &site).is_err());
        // The one-pass path agrees with the general one or leaves it the text.
        for raw in [
            " foo__bar ",
            "category : x_y",
            "Image:X.png",
            "a:b",
            "Foo/..",
            "x#y",
            ":Foo",
            "_:Foo",
            "Category:",
            "a{b",
            "Éa",
            "St. Louis",
            "Talk:a:b",
        ] {
            if let Some(t) = Title::parse_plain(raw, &site) {
                assert_eq!(Ok(t), Title::parse(raw, 0, &site), "{raw}");
            }
        }
        assert!(Title::parse_plain("category : x_y", &site).is_some());
        assert!(Title::parse_plain("a:b", &site).is_none());
        // An unknown prefix is part of the text.
        assert_eq!(
            Title::parse("foo:bar", 10, &site).unwrap().prefixed(),
            "Template:Foo:bar"
        );
    }
}
