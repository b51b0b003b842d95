//! Link targets: a wikilink's title (normalized by the preprocessor's
//! [`Title`], the one home of namespaces and title normalization), its fragment,
//! and Parsoid's href forms (`./Title`).

use std::sync::OnceLock;

use crate::preprocess::{Interwiki, NS_MAIN, NS_PROJECT, Site, Title, namespace_id};
use crate::tokenize::skip::has_byte;

/// `Project talk:`.
const NS_PROJECT_TALK: i32 = NS_PROJECT + 1;

/// A parsed link target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkTarget {
    /// The page linked to; `None` for a fragment-only link (`[[#top]]`).
    pub title: Option<Title>,
    /// The fragment after `#`, if any (as written, trimmed).
    pub fragment: Option<String>,
    /// Written with a leading `:` (`[[:Category:X]]` is a link, not a category).
    pub colon: bool,
    /// A link to another wiki (`[[wikipedia:Foo]]`): the prefix and the title
    /// there (as written); `title` is `None` then.
    pub interwiki: Option<Box<(Interwiki, String)>>,
}

/// The site link targets are parsed against when none is given.
pub(crate) fn default_site() -> &'static Site {
    static SITE: OnceLock<Site> = OnceLock::new();
    SITE.get_or_init(Site::default)
}

impl LinkTarget {
    /// Parses `target` (entities already decoded) with the default [`Site`];
    /// `None` if it cannot be a title.
    ///
    /// ```
    /// use tagloom_wikitext::title::LinkTarget;
    ///
    /// let t = LinkTarget::parse("category: foo_bar#x y").unwrap();
    /// assert_eq!(t.full(), "Category:Foo bar");
    /// assert_eq!(t.fragment.as_deref(), Some("x y"));
    /// ```
    pub fn parse(target: &str) -> Option<LinkTarget> {
        LinkTarget::parse_in(target, default_site())
    }

    /// Parses `target` with the namespaces and interwiki prefixes of `site`.
    /// Percent-encoded UTF-8 is decoded first (`7%25` is `7%`), as Parsoid does;
    /// targets MediaWiki rejects (a `%XX` or `&name;` left, `./` path segments,
    /// a URL) are `None`.
    pub fn parse_in(target: &str, site: &Site) -> Option<LinkTarget> {
        // Most targets are plain titles (red links to templates have a leading
        // `:`): one pass decides and normalizes them. A URL protocol needs a
        // `:` after letters or a leading `//`: a plain title has neither but
        // after a namespace prefix, and only the project's name may be a
        // protocol's.
        let spaced = target.trim_start_matches(' ');
        let (colon, plain) = match spaced.strip_prefix(':') {
            Some(rest) => (true, rest),
            None => (false, spaced),
        };
        if let Some(title) = Title::parse_plain(plain, site)
            && (colon
                || !(plain.starts_with("//") || matches!(title.ns(), NS_PROJECT | NS_PROJECT_TALK)))
        {
            return Some(LinkTarget {
                title: Some(title),
                fragment: None,
                colon,
                interwiki: None,
            });
        }
        if has_url_protocol(target.trim_start()) {
            return None;
        }
        let decoded = percent_decode(target);
        let mut t = decoded.trim();
        let colon = t.starts_with(':');
        if colon {
            t = t.get(1..)?.trim_start();
        }
        let (page, fragment) = match t.split_once('#') {
            Some((p, f)) => (p, Some(f.trim().to_owned())),
            None => (t, None),
        };
        // Tabs are blanks in a link target (MediaWiki's title rejects them;
        // Parsoid's link syntax does not).
        let page: std::borrow::Cow<'_, str> = if has_byte(page.as_bytes(), b'\t') {
            page.replace('\t', " ").into()
        } else {
            page.into()
        };
        if !is_valid_link_text(&page) {
            return None;
        }
        if let Some((prefix, rest)) = page.split_once(':')
            && namespace_id(prefix, site).is_none()
            && let Some(iw) = crate::preprocess::interwiki::lookup(&site.interwiki, prefix)
        {
            if iw.local {
                let rest = rest.trim_start();
                let again = if rest.contains(':') {
                    format!(":{rest}")
                } else {
                    rest.to_owned()
                };
                let again = match &fragment {
                    Some(f) => format!("{again}#{f}"),
                    None => again,
                };
                if !rest.is_empty() {
                    return LinkTarget::parse_in(&again, site);
                }
            } else {
                let rest = rest.trim_start();
                let rest = rest.strip_prefix(':').unwrap_or(rest);
                let there = match &fragment {
                    Some(f) => format!("{rest}#{f}"),
                    None => rest.to_owned(),
                };
                return Some(LinkTarget {
                    title: None,
                    fragment: None,
                    colon,
                    interwiki: Some(Box::new((iw.clone(), there))),
                });
            }
        }
        let title = if page.trim_matches([' ', '_', '\u{a0}']).is_empty() {
            // Only a fragment, or nothing.
            fragment.as_ref()?;
            None
        } else {
            Some(Title::parse(&page, NS_MAIN, site).ok()?)
        };
        Some(LinkTarget {
            title,
            fragment,
            colon,
            interwiki: None,
        })
    }

    /// A language link (`[[fr:Foo]]` without a leading `:`): the other
    /// edition's URL.
    pub fn language_link(&self) -> Option<String> {
        let (iw, there) = self.interwiki.as_deref()?;
        (iw.language && !self.colon).then(|| iw.url_for(there))
    }

    /// The title's namespace name (`Category`; empty for the main namespace,
    /// fragment-only and interwiki links): its [`Title::ns_name`], not kept
    /// as a copy of its own (most red links are to templates: one allocation
    /// a link saved).
    pub fn namespace(&self) -> &str {
        self.title.as_ref().map_or("", Title::ns_name)
    }

    /// The title within its namespace (`Foo bar`; empty for `[[#top]]`).
    pub fn text(&self) -> &str {
        self.title.as_ref().map_or("", Title::text)
    }

    /// The full title (`Category:Foo bar`; empty for `[[#top]]`).
    pub fn full(&self) -> String {
        self.title.as_ref().map(Title::prefixed).unwrap_or_default()
    }
}

/// MediaWiki's title normalization for comparisons (`talk:foo_bar` →
/// `Talk:Foo bar`) by [`Title`] with the default [`Site`]; text that is no valid
/// title only has its blanks normalized.
pub fn normalize_title(title: &str) -> String {
    match Title::parse(title, NS_MAIN, default_site()) {
        Ok(t) => t.prefixed(),
        Err(_) => title
            .replace('_', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Whether `s` starts with a URL protocol (`http://`, `//`, `mailto:`…): such
/// a link target is no title.
fn has_url_protocol(s: &str) -> bool {
    crate::tokenize::extlinks::protocol(s, true).is_some()
}

/// `%XX` sequences decoded when they form UTF-8 (otherwise `s` as it is).
pub(crate) fn percent_decode(s: &str) -> std::borrow::Cow<'_, str> {
    if !has_byte(s.as_bytes(), b'%') {
        return std::borrow::Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = |j: usize| b.get(j).and_then(|&h| (h as char).to_digit(16));
        match (c, hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    match String::from_utf8(out) {
        Ok(decoded) => std::borrow::Cow::Owned(decoded),
        Err(_) => std::borrow::Cow::Borrowed(s),
    }
}

/// MediaWiki's rules for link text beyond the title's characters: no `%XX`
/// left after decoding, nothing that looks like a character reference, no
/// `.`/`..` path segments, no `~~~`.
fn is_valid_link_text(page: &str) -> bool {
    let b = page.as_bytes();
    let percent = b.windows(3).any(|w| {
        w.first() == Some(&b'%')
            && w.get(1).is_some_and(u8::is_ascii_hexdigit)
            && w.get(2).is_some_and(u8::is_ascii_hexdigit)
    });
    let reference = page.match_indices('&').any(|(at, _)| {
        let rest = page.get(at + 1..).unwrap_or("");
        let name = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || !c.is_ascii())
            .map(char::len_utf8)
            .sum::<usize>();
        name > 0 && rest.get(name..).is_some_and(|r| r.starts_with(';'))
    });
    // The substring searches below build a searcher per call: most link
    // targets have no `.` or no `~` at all, so one byte scan skips them.
    let trimmed = page.trim();
    let dots = has_byte(b, b'.')
        && (matches!(trimmed, "." | "..")
            || trimmed.starts_with("./")
            || trimmed.starts_with("../")
            || trimmed.contains("/./")
            || trimmed.contains("/../")
            || trimmed.ends_with("/.")
            || trimmed.ends_with("/.."));
    let tildes = has_byte(b, b'~') && page.contains("~~~");
    !percent && !reference && !dots && !tildes
}

/// The bytes [`encode_title`] writes other than as they are (the space
/// aside): `%`, `?`, `\`, `^`, `` ` ``, the C0 controls, DEL, and `0xC2` (the
/// lead byte of the C1 controls), one table look-up each.
pub(crate) const TITLE_SPECIAL: [bool; 256] = {
    let mut t = crate::tokenize::byte_set(b"%?\\^`\x7f\xc2");
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t
};

/// Whether [`encode_title`] leaves `title` as it is but for `_` for ` `.
pub(crate) fn is_plain_title(title: &str) -> bool {
    !title
        .bytes()
        .fold(false, |any, c| any | TITLE_SPECIAL[usize::from(c)])
}

/// Appends the bytes [`encode_title`] makes of a title [`is_plain_title`]
/// accepts: its own, with `_` for ` `. Copied whole, then its spaces
/// replaced in one pass with no early exit (it vectorizes): a search for each
/// space (`split(' ')`) or a push a byte costs more on short titles.
pub(crate) fn push_plain_title(out: &mut tagloom_html::serializer::Utf8Bytes, title: &str) {
    out.push_str_replacing(title, b' ', b'_');
}

/// A title as an href path segment: spaces as `_`, characters that would end or
/// change a path percent-encoded (`%`, `?`, `\`, `^`, `` ` `` and control
/// characters, C0, DEL and C1).
pub fn encode_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    push_encoded_title(&mut out, title);
    out
}

/// Appends [`encode_title`]'s encoding of `title` to `out` (an href built
/// around it needs no copy of its own).
pub(crate) fn push_encoded_title(out: &mut String, title: &str) {
    // Most titles have nothing to encode but spaces: one pass over all bytes
    // (no early exit, so it vectorizes) tells, and the words are copied whole.
    if is_plain_title(title) {
        // [`push_plain_title`]'s bytes, the words copied whole (a `String`
        // takes no bytes one by one).
        let mut words = title.split(' ');
        if let Some(first) = words.next() {
            out.push_str(first);
        }
        for word in words {
            out.push('_');
            out.push_str(word);
        }
        return;
    }
    // Runs of bytes that stay as they are are copied whole; a byte that ends
    // one is at a character boundary (ASCII, or the lead byte `0xC2` of a C1
    // control character).
    let b = title.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let width = match c {
            b' ' | b'%' | b'?' | b'\\' | b'^' | b'`' | 0..0x20 | 0x7f => 1,
            0xc2 if b.get(i + 1).is_some_and(|n| (0x80..0xa0).contains(n)) => 2,
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(title.get(run..i).unwrap_or(""));
        match title.get(i..i + width) {
            Some(" ") => out.push('_'),
            Some(special) => special.bytes().for_each(|b| percent_byte(out, b)),
            None => {}
        }
        i += width;
        run = i;
    }
    out.push_str(title.get(run..).unwrap_or(""));
}

/// `b` as `%XX`.
fn percent_byte(out: &mut String, b: u8) {
    use std::fmt::Write;
    // Writing to a `String` does not fail.
    let _ = write!(out, "%{b:02X}");
}

/// A fragment for an href: spaces as `_`.
pub fn encode_fragment(fragment: &str) -> String {
    fragment.split_whitespace().collect::<Vec<_>>().join("_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        let t = LinkTarget::parse("category: foo_bar#x y").unwrap();
        assert_eq!((t.namespace(), t.text()), ("Category", "Foo bar"));
        assert_eq!(t.fragment.as_deref(), Some("x y"));
        assert_eq!(LinkTarget::parse("18:30").unwrap().full(), "18:30");
        assert_eq!(
            LinkTarget::parse("Image:X.png").unwrap().full(),
            "File:X.png"
        );
        assert!(LinkTarget::parse("a{b").is_none());
        assert!(LinkTarget::parse("Category:").is_none());
        assert_eq!(LinkTarget::parse("7%25 x").unwrap().full(), "7% x");
        assert!(LinkTarget::parse("7%2525 x").is_none());
        assert!(LinkTarget::parse("a &amp; b").is_none());
        assert!(LinkTarget::parse("./a").is_none());
        assert!(LinkTarget::parse("//example.com").is_none());
        let iw = LinkTarget::parse("Wikipedia:Foo bar").unwrap();
        let (prefix, there) = *iw.interwiki.unwrap();
        assert_eq!(
            (prefix.prefix.as_str(), there.as_str()),
            ("wikipedia", "Foo bar")
        );
        assert!(
            LinkTarget::parse("fr:Foo")
                .unwrap()
                .language_link()
                .is_some()
        );
        assert!(
            LinkTarget::parse(":fr:Foo")
                .unwrap()
                .language_link()
                .is_none()
        );
        assert_eq!(LinkTarget::parse("local:Foo").unwrap().full(), "Foo");
        let red = LinkTarget::parse(" : template : cite_web ").unwrap();
        assert_eq!((red.full(), red.colon), ("Template:Cite web".into(), true));
        assert!(LinkTarget::parse("::Foo").unwrap().colon);
        let top = LinkTarget::parse("#top").unwrap();
        assert_eq!((top.title, top.fragment.as_deref()), (None, Some("top")));
        assert_eq!(encode_title("7% Solution"), "7%25_Solution");
        assert_eq!(encode_title("Foo\\bar"), "Foo%5Cbar");
        assert_eq!(
            encode_title("a b?c^d`e\u{7}f\u{7f}g\u{85}h\u{a0}é"),
            "a_b%3Fc%5Ed%60e%07f%7Fg%C2%85h\u{a0}é"
        );
        assert_eq!(encode_title("Été à la plage"), "Été_à_la_plage");
        assert_eq!(encode_title(" a  b "), "_a__b_");
        let mut href = String::from("./");
        push_encoded_title(&mut href, "7% Solution");
        assert_eq!(href, "./7%25_Solution");
        let news = Site {
            project_ns: "News".into(),
            ..Site::default()
        };
        assert!(LinkTarget::parse_in("news:foo", &news).is_none());
        assert!(LinkTarget::parse_in("  //foo", &news).is_none());
        assert_eq!(
            LinkTarget::parse_in(":news:foo", &news).unwrap().full(),
            "News:Foo"
        );
        assert_eq!(
            LinkTarget::parse_in("news talk:foo", &news).unwrap().full(),
            "News talk:Foo"
        );
    }

    #[test]
    fn plain_targets() {
        let full =
            |t: &str| LinkTarget::parse(t).map(|t| (t.namespace().to_owned(), t.full(), t.colon));
        let some = |ns: &str, full: &str, colon| Some((ns.to_owned(), full.to_owned(), colon));
        assert_eq!(full("foo"), some("", "Foo", false));
        assert_eq!(
            full(" cAtEgOrY _: foo__bar "),
            some("Category", "Category:Foo bar", false)
        );
        assert_eq!(
            full(":TEMPLATE  TALK : x_y"),
            some("Template talk", "Template talk:X y", true)
        );
        assert_eq!(full("zürich"), some("", "Zürich", false));
        assert_eq!(full("éa b"), some("", "Éa b", false));
        assert_eq!(full("18:30"), some("", "18:30", false));
        assert_eq!(full("Foo: bar"), some("", "Foo: bar", false));
        assert_eq!(full("50%25 off"), some("", "50% off", false));
        assert_eq!(full("%C3%A9t%C3%A9"), some("", "Été", false));
        let frag = LinkTarget::parse("foo_bar#Some  place").unwrap();
        assert_eq!(
            (frag.full(), frag.fragment.as_deref()),
            ("Foo bar".into(), Some("Some  place"))
        );
        assert_eq!(encode_fragment("Some  place"), "Some_place");
    }

    #[test]
    fn site_namespaces() {
        let site = Site {
            project_ns: "Wikipedia".into(),
            ..Site::default()
        };
        let t = LinkTarget::parse_in("wikipedia:about", &site).unwrap();
        assert_eq!(t.full(), "Wikipedia:About");
        assert_eq!(
            LinkTarget::parse("wikipedia:about").unwrap().namespace(),
            ""
        );
    }

    #[test]
    fn normalizes() {
        assert_eq!(normalize_title(" talk:foo__bar "), "Talk:Foo bar");
        assert_eq!(normalize_title("a{b  c"), "a{b c");
    }
}
