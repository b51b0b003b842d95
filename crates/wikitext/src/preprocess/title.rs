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
        // Most titles (every new template name of a page) are plain: the
        // one-pass path of link targets, which leaves the others to the
        // general one.
        match Title::plain_in(raw, default_ns, site) {
            Some(title) => Ok(title),
            None => Title::parse_general(raw, default_ns, site),
        }
    }

    /// [`Title::parse`] of any text, character by character.
    fn parse_general(raw: &str, default_ns: i32, site: &Site) -> Result<Title, TitleError> {
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

    /// `Title::parse(raw, NS_MAIN, site)` of the common link target: printable
    /// text without the characters titles reject and without those link
    /// targets treat specially (`% & # ~`, a `.` beside a `/`, blanks and
    /// controls other than the ASCII space), no leading `:`, and no `:` or one
    /// after a known namespace. `None` when the general path must decide (the
    /// text may still be valid).
    pub(crate) fn parse_plain(raw: &str, site: &Site) -> Option<Title> {
        Title::plain_in(raw, NS_MAIN, site)
    }

    /// [`Title::parse_plain`] with `default_ns` for text without a namespace
    /// prefix.
    fn plain_in(raw: &str, default_ns: i32, site: &Site) -> Option<Title> {
        let raw = trim_spaces(raw);
        // One pass over the bytes: the union of their classes, and of the
        // classes two neighbours share (two spaces meet); the text is then
        // copied whole. Eight bytes a step (no loop test per byte).
        let (mut class, mut prev, mut pairs) = (0u8, 0u8, 0u8);
        let (words, tail) = raw.as_bytes().as_chunks::<8>();
        let class_of = |c: u8| PLAIN_CLASS[usize::from(c)];
        for &[b0, b1, b2, b3, b4, b5, b6, b7] in words {
            let (k0, k1, k2, k3) = (class_of(b0), class_of(b1), class_of(b2), class_of(b3));
            let (k4, k5, k6, k7) = (class_of(b4), class_of(b5), class_of(b6), class_of(b7));
            class |= k0 | k1 | k2 | k3 | k4 | k5 | k6 | k7;
            pairs |=
                prev & k0 | k0 & k1 | k1 & k2 | k2 & k3 | k3 & k4 | k4 & k5 | k5 & k6 | k6 & k7;
            prev = k7;
        }
        for &c in tail {
            let k = class_of(c);
            class |= k;
            pairs |= k & prev;
            prev = k;
        }
        if class & PLAIN_REJECT != 0 {
            return None;
        }
        // Other letters (`Zürich`, `1917–23`) are text too, but for the
        // blanks and controls the general path folds, trims or rejects.
        if class & PLAIN_HIGH != 0
            && raw
                .chars()
                .any(|c| !c.is_ascii() && (c.is_whitespace() || c.is_control()))
        {
            return None;
        }
        if class & PLAIN_UNDERSCORE != 0 || pairs & PLAIN_SPACE != 0 {
            return Title::plain_folded(&normalize_spaces(raw), class, default_ns, site);
        }
        Title::plain_folded(raw, class, default_ns, site)
    }

    /// [`Title::plain_in`] of `text` whose blanks are single spaces (none at
    /// the ends), `class` the union of its bytes' [`PLAIN_CLASS`].
    fn plain_folded(text: &str, class: u8, default_ns: i32, site: &Site) -> Option<Title> {
        if class & PLAIN_DOT != 0 && (class & PLAIN_SLASH != 0 || text == "." || text == "..") {
            return None;
        }
        let (ns, ns_title, body) = if class & PLAIN_COLON == 0 {
            // The main namespace's name without [`ns_name`]'s lookup (most
            // link targets).
            let ns_title = if default_ns == NS_MAIN {
                Cow::Borrowed("")
            } else {
                ns_name(default_ns, site).unwrap_or_default()
            };
            (default_ns, ns_title, text)
        } else {
            let at = memchr::memchr(b':', text.as_bytes())?;
            let id = namespace_id_normalized(text.get(..at)?.trim_end(), site)?;
            let rest = text.get(at + 1..)?;
            (
                id,
                ns_name(id, site).unwrap_or_default(),
                rest.strip_prefix(' ').unwrap_or(rest),
            )
        };
        if body.is_empty() || body.len() > 255 {
            return None;
        }
        // Room for the namespace's prefix too: a link's title becomes its
        // full text in place ([`Title::into_prefixed`]), not in a new string.
        let prefix = if ns_title.is_empty() {
            0
        } else {
            ns_title.len() + 1
        };
        let text = if body.as_bytes().first().is_some_and(u8::is_ascii) {
            let mut text = String::with_capacity(prefix + body.len());
            text.push_str(body);
            if let Some(first) = text.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            text
        } else {
            ucfirst(body)
        };
        Some(Title {
            ns,
            ns_name: ns_title,
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

    /// [`prefixed`](Self::prefixed) made of the text: moved, the prefix
    /// put before it in place (a link target's title has the room for it).
    pub(crate) fn into_prefixed(self) -> String {
        let mut text = self.text;
        if !self.ns_name.is_empty() {
            text.insert(0, ':');
            text.insert_str(0, &self.ns_name);
        }
        text
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

/// `raw` without the spaces at its ends (`str::trim_matches(' ')`): their
/// bytes looked at, no pattern searcher set up (most titles have none).
fn trim_spaces(raw: &str) -> &str {
    let b = raw.as_bytes();
    if b.first() != Some(&b' ') && b.last() != Some(&b' ') {
        return raw;
    }
    let start = b.iter().position(|&c| c != b' ').unwrap_or(b.len());
    let end = b.iter().rposition(|&c| c != b' ').map_or(start, |e| e + 1);
    // Both are character boundaries: next to a space or the string's ends.
    raw.get(start..end).unwrap_or("")
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

/// [`Title::parse_plain`]'s byte classes: bytes it leaves to the general path,
/// `_` (folded into a space), and the bytes that need a closer look (`:` a
/// namespace, `.` and `/` a path segment, the space: two in a row are folded,
/// a non-ASCII byte: its character may be a blank or a control); other
/// printable ASCII is 0.
const PLAIN_CLASS: [u8; 256] = {
    let mut t = [PLAIN_REJECT; 256];
    let mut h = 0x80;
    while h < 0x100 {
        t[h] = PLAIN_HIGH;
        h += 1;
    }
    let mut c = 0x20;
    while c < 0x7f {
        t[c] = match c as u8 {
            b'%' | b'&' | b'#' | b'~' | b'[' | b']' | b'{' | b'}' | b'|' | b'<' | b'>' => {
                PLAIN_REJECT
            }
            b'_' => PLAIN_UNDERSCORE,
            b':' => PLAIN_COLON,
            b'.' => PLAIN_DOT,
            b'/' => PLAIN_SLASH,
            b' ' => PLAIN_SPACE,
            _ => 0,
        };
        c += 1;
    }
    t
};
const PLAIN_REJECT: u8 = 1;
const PLAIN_UNDERSCORE: u8 = 2;
const PLAIN_COLON: u8 = 4;
const PLAIN_DOT: u8 = 8;
const PLAIN_SLASH: u8 = 16;
const PLAIN_SPACE: u8 = 32;
const PLAIN_HIGH: u8 = 64;

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
        if name.len() == project.len() + 5
            && let Some((ns, talk)) = name.split_at_checked(project.len())
            && talk.eq_ignore_ascii_case(" talk")
            && ns.eq_ignore_ascii_case(project)
        {
            return Some(5);
        }
        // The other names, lower-cased in one 16-byte key (none is longer)
        // and compared whole with those of the same first letter; most
        // prefixes are no namespace (`18:30`, `Paris: …`) and have none.
        let key = lower_key(name.as_bytes())?;
        if key == IMAGE_KEYS[0] {
            return Some(6);
        }
        if key == IMAGE_KEYS[1] {
            return Some(7);
        }
        let first = name.as_bytes().first()?.to_ascii_lowercase();
        let mut candidates = NS_BY_FIRST_LETTER[usize::from(first)];
        while candidates != 0 {
            let at = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if NS_KEYS.get(at) == Some(&key) {
                return NAMESPACES.get(at).map(|(id, _)| *id);
            }
        }
        return None;
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

/// The name bytes of a [`lower_key`] (the last of its sixteen holds the
/// length): longer names are no namespace's.
const KEY_LEN: usize = 15;

/// `name` (ASCII) lower-cased into one number, its bytes from the lowest
/// up, zeros after them and its length in the top byte (a name with a NUL
/// byte at the end differs from the name without); `None` when longer than
/// [`KEY_LEN`]. `const`: the namespace names' keys are made by it too
/// ([`const_key`]).
const fn lower_key(name: &[u8]) -> Option<u128> {
    if name.len() > KEY_LEN {
        return None;
    }
    let mut key = [0u8; 16];
    let mut i = 0;
    while i < name.len() {
        key[i] = name[i].to_ascii_lowercase();
        i += 1;
    }
    // At most KEY_LEN: fits a byte.
    key[KEY_LEN] = name.len() as u8;
    Some(u128::from_le_bytes(key))
}

/// [`lower_key`] of a constant name.
const fn const_key(name: &str) -> u128 {
    match lower_key(name.as_bytes()) {
        Some(key) => key,
        None => panic!("namespace names fit a key"),
    }
}

/// The [`lower_key`]s of [`NAMESPACES`]' names, in its order.
const NS_KEYS: [u128; NAMESPACES.len()] = {
    let mut t = [0u128; NAMESPACES.len()];
    let mut i = 0;
    while i < NAMESPACES.len() {
        t[i] = const_key(NAMESPACES[i].1);
        i += 1;
    }
    t
};

/// The keys of the aliases `Image` and `Image talk`.
const IMAGE_KEYS: [u128; 2] = [const_key("image"), const_key("image talk")];

/// For each lower-cased first letter, the [`NAMESPACES`] (by index, as bits)
/// whose names start with it (the main namespace's empty name aside).
const NS_BY_FIRST_LETTER: [u32; 256] = {
    assert!(NAMESPACES.len() <= 32, "one bit a namespace");
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < NAMESPACES.len() {
        if let [first, ..] = NAMESPACES[i].1.as_bytes() {
            t[first.to_ascii_lowercase() as usize] |= 1 << i;
        }
        i += 1;
    }
    t
};

/// The display name of a namespace id.
pub fn namespace_name(id: i32, site: &Site) -> Option<String> {
    ns_name(id, site).map(Cow::into_owned)
}

fn ns_name(id: i32, site: &Site) -> Option<Cow<'static, str>> {
    match id {
        4 => Some(Cow::Owned(site.project_ns.clone())),
        5 => Some(Cow::Owned(format!("{} talk", site.project_ns))),
        _ => {
            // [`NAMESPACES`] lists -2 to 15 in order: those are read at their
            // index (every link's title asks), the others searched.
            let at = id.checked_add(2).and_then(|at| usize::try_from(at).ok());
            at.and_then(|at| NAMESPACES.get(at))
                .filter(|(i, _)| *i == id)
                .or_else(|| NAMESPACES.iter().find(|(i, _)| *i == id))
                .map(|(_, n)| Cow::Borrowed(*n))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A title's full text, made in place of its text, is its prefixed
    /// text, whichever path parsed it.
    #[test]
    fn titles_become_their_prefixed_text() {
        let site = Site {
            project_ns: "Wikipedia".into(),
            ..Site::default()
        };
        for raw in [
            "foo bar",
            "template:Foo_bar",
            "wikipedia:About",
            "Été",
            "Category:Été x",
        ] {
            for title in [
                Title::parse_plain(raw, &site),
                Title::parse(raw, NS_MAIN, &site).ok(),
                Title::parse(raw, NS_TEMPLATE, &site).ok(),
            ]
            .into_iter()
            .flatten()
            {
                assert_eq!(title.prefixed(), title.clone().into_prefixed(), "{raw}");
            }
        }
    }

    /// Non-ASCII titles take the one-pass path unless a character of
    /// theirs is a blank or a control (folded, trimmed or rejected by the
    /// general path), and it gives the general path's titles.
    #[test]
    fn non_ascii_titles_take_the_plain_path_as_the_general_one_would() {
        let site = Site::default();
        for raw in [
            "Zürich",
            "école normale",
            "émile_zola",
            "São  Paulo ",
            "1917–23 season",
            "Ærø",
            "ßtraße",
            "ǆemal",
            "Template:Über",
            "Category:Été",
            "日本",
        ] {
            for ns in [NS_MAIN, NS_TEMPLATE] {
                let plain = Title::plain_in(raw, ns, &site);
                assert!(plain.is_some(), "{raw}");
                assert_eq!(
                    plain.ok_or(()),
                    Title::parse_general(raw, ns, &site).map_err(|_| ()),
                    "{raw}"
                );
            }
        }
        for raw in [
            "a\u{a0}b",
            "\u{a0}Zürich",
            "Zürich\u{2003}",
            "a\u{3000}b",
            "a\u{85}b",
            "a\u{9f}b",
            "a\u{2028}b",
            "é\u{1680}",
        ] {
            assert_eq!(Title::plain_in(raw, NS_MAIN, &site), None, "{raw:?}");
        }
    }

    #[test]
    fn namespace_ids() {
        let site = Site {
            project_ns: "Wikipedia".into(),
            ..Site::default()
        };
        for (name, id) in [
            ("wikipedia", Some(4)),
            ("WIKIPEDIA talk", Some(5)),
            ("project", Some(4)),
            ("iMaGe", Some(6)),
            ("image talk", Some(7)),
            ("category", Some(14)),
            ("module talk", Some(829)),
            ("special", Some(-1)),
            ("18", None),
            ("zoo", None),
            ("cat", None),
            ("", None),
            ("émile", None),
            ("Template", Some(10)),
            ("tEMPLATE TALK", Some(11)),
            ("mediawiki talk", Some(9)),
            ("image\0", None),
            ("template\0", None),
            ("\0", None),
            ("templatetemplate", None),
            ("category talk talk", None),
            ("wikipedia talk", Some(5)),
            ("user", Some(2)),
            ("users", None),
        ] {
            assert_eq!(namespace_id_normalized(name, &site), id, "{name}");
            assert_eq!(namespace_id(name, &site), id, "{name}");
        }
        let odd = Site {
            project_ns: "Zed".into(),
            ..Site::default()
        };
        assert_eq!(namespace_id_normalized("zed", &odd), Some(4));
        assert_eq!(namespace_id_normalized("zed talk", &odd), Some(5));
    }

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
            "cAtEgOrY _: foo__bar",
            "TEMPLATE  TALK : x",
            "template_talk:_x_",
            "Image talk:X",
            "project:x",
            "18:30",
            "Zoo:x",
            "Foo: bar",
            "7%25 x",
            "x#",
            "a  b",
            "_Foo_",
            "St._Louis",
            "..",
            "a/b.c",
            "Zürich",
            "Talk:Éa",
            "cite web",
            " Cite_web ",
            "Infobox  settlement",
            "Template:Foo",
            "template talk:foo",
            "Foo:bar",
            "Wikipedia:X",
            "x",
            "",
            "  ",
            "a\tb",
            "Foo&amp;bar",
            "~x",
            "Category:",
        ] {
            if let Some(t) = Title::parse_plain(raw, &site) {
                assert_eq!(Ok(t), Title::parse_general(raw, 0, &site), "{raw}");
            }
            // In other default namespaces too, and `parse` is the general
            // path's result whichever path it takes.
            for ns in [NS_MAIN, NS_TEMPLATE, NS_CATEGORY, NS_PROJECT] {
                if let Some(t) = Title::plain_in(raw, ns, &site) {
                    assert_eq!(Ok(t), Title::parse_general(raw, ns, &site), "{raw} {ns}");
                }
                assert_eq!(
                    Title::parse(raw, ns, &site),
                    Title::parse_general(raw, ns, &site),
                    "{raw} {ns}"
                );
            }
        }
        // Two spaces meet across the eight-byte steps of the class scan.
        for raw in [
            "Abcdefg  x",
            "Abcdefgh  x",
            "Abcdefghijklmno  x",
            "Abcdefghijklmnop  x",
            "  Abcdefghijklmnopq ",
            "Abcdefg_ x",
        ] {
            let t = Title::parse_plain(raw, &site);
            assert_eq!(t, Title::parse(raw, 0, &site).ok(), "{raw}");
            assert!(t.is_some_and(|t| !t.text().contains("  ")), "{raw}");
        }
        assert!(Title::parse_plain("category : x_y", &site).is_some());
        assert!(Title::parse_plain("a:b", &site).is_none());
        let odd = Title::parse_plain("cAtEgOrY _: foo__bar", &site);
        assert_eq!(
            odd.map(|t| t.prefixed()).as_deref(),
            Some("Category:Foo bar")
        );
        let talk = Title::parse_plain("TEMPLATE  TALK : x", &site);
        assert_eq!(talk.map(|t| t.ns()), Some(11));
        for left in ["7%25 x", "x#y", "Zürich\u{a0}x", "18:30", "a/b.c"] {
            assert!(Title::parse_plain(left, &site).is_none(), "{left}");
        }
        // An unknown prefix is part of the text.
        assert_eq!(
            Title::parse("foo:bar", 10, &site).unwrap().prefixed(),
            "Template:Foo:bar"
        );
    }
}
