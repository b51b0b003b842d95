//! Link targets: a wikilink's title (normalized by the preprocessor's
//! [`Title`], the one home of namespaces and title normalization), its fragment,
//! and Parsoid's href forms (`./Title`).

use std::sync::OnceLock;

use crate::preprocess::{NS_MAIN, Site, Title};

/// A parsed link target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkTarget {
    /// The page linked to; `None` for a fragment-only link (`[[#top]]`).
    pub title: Option<Title>,
    /// The title's namespace name (empty for the main namespace and for
    /// fragment-only links); the same as `title`'s [`Title::ns_name`].
    pub namespace: String,
    /// The fragment after `#`, if any (as written, trimmed).
    pub fragment: Option<String>,
    /// Written with a leading `:` (`[[:Category:X]]` is a link, not a category).
    pub colon: bool,
}

/// The site link targets are parsed against when none is given.
fn default_site() -> &'static Site {
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

    /// Parses `target` with the namespaces of `site`.
    pub fn parse_in(target: &str, site: &Site) -> Option<LinkTarget> {
        let mut t = target.trim();
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
        let page = page.replace('\t', " ");
        let title = if page.trim_matches([' ', '_', '\u{a0}']).is_empty() {
            // Only a fragment, or nothing.
            fragment.as_ref()?;
            None
        } else {
            Some(Title::parse(&page, NS_MAIN, site).ok()?)
        };
        Some(LinkTarget {
            namespace: title
                .as_ref()
                .map(|t| t.ns_name().to_owned())
                .unwrap_or_default(),
            title,
            fragment,
            colon,
        })
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

/// A title as an href path segment: spaces as `_`, characters that would end or
/// change a path percent-encoded.
pub fn encode_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for c in title.chars() {
        match c {
            ' ' => out.push('_'),
            '%' | '?' | '\\' | '^' | '`' => percent(&mut out, c),
            c if c.is_control() => percent(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

fn percent(out: &mut String, c: char) {
    let mut buf = [0u8; 4];
    for b in c.encode_utf8(&mut buf).bytes() {
        out.push_str(&format!("%{b:02X}"));
    }
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
        assert_eq!((t.namespace.as_str(), t.text()), ("Category", "Foo bar"));
        assert_eq!(t.fragment.as_deref(), Some("x y"));
        assert_eq!(LinkTarget::parse("18:30").unwrap().full(), "18:30");
        assert_eq!(
            LinkTarget::parse("Image:X.png").unwrap().full(),
            "File:X.png"
        );
        assert!(LinkTarget::parse("a{b").is_none());
        assert!(LinkTarget::parse("Category:").is_none());
        let top = LinkTarget::parse("#top").unwrap();
        assert_eq!((top.title, top.fragment.as_deref()), (None, Some("top")));
        assert_eq!(encode_title("7% Solution"), "7%25_Solution");
        assert_eq!(encode_title("Foo\\bar"), "Foo%5Cbar");
    }

    #[test]
    fn site_namespaces() {
        let site = Site {
            project_ns: "Wikipedia".into(),
            ..Site::default()
        };
        let t = LinkTarget::parse_in("wikipedia:about", &site).unwrap();
        assert_eq!(t.full(), "Wikipedia:About");
        assert_eq!(LinkTarget::parse("wikipedia:about").unwrap().namespace, "");
    }

    #[test]
    fn normalizes() {
        assert_eq!(normalize_title(" talk:foo__bar "), "Talk:Foo bar");
        assert_eq!(normalize_title("a{b  c"), "a{b c");
    }
}
