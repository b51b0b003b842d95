//! Link resolution (Parsoid's WikiLinkHandler, its phase 2 "out of order";
//! here done by the tokenizer as it reads each link, the page store answering
//! at once: [`crate::tokenize::LinkPage`]): a wikilink's target becomes
//! `<a rel="mw:WikiLink" href="./Title" title="Title">`,
//! a red link (`class="new"`, `?action=edit&redlink=1`, Parsoid's localized
//! title attribute) for a page the store does not have, a self link for the page
//! itself.

use tagloom_html::atom;
use tagloom_html::serializer::{EscapeMode, Utf8Bytes};
use tagloom_html::token::{OwnedAttribute, OwnedTag};

use crate::dom::Attr;
use crate::preprocess::{NS_SPECIAL, PageStore, Title};
use crate::title::{LinkTarget, encode_fragment, encode_title, push_encoded_title};

/// Whether `title` exists: special pages when the software has them, others
/// when `pages` has them (all do without a store).
fn exists(title: &Title, pages: Option<&dyn PageStore>) -> bool {
    if title.ns() == NS_SPECIAL {
        // `Special:BookSources/123`: the page is the part before the `/`.
        let page = title.text().split('/').next().unwrap_or("");
        return matches!(
            page,
            "Version"
                | "BookSources"
                | "Search"
                | "RecentChanges"
                | "SpecialPages"
                | "Upload"
                | "Random"
                | "Preferences"
                | "Watchlist"
                | "AllPages"
                | "Categories"
        );
    }
    pages.is_none_or(|store| store.exists(title))
}

/// The `<a>` for `target` on the page whose normalized title
/// ([`normalize_title`]) is `page`. The tokenizer parsed the target with the
/// render's site (its namespaces key the page store), so its title is used as
/// it is.
/// The target is taken by value: its title's text becomes the `title`
/// attribute, moved, not copied.
pub(crate) fn link_tag(target: LinkTarget, page: &str, pages: Option<&dyn PageStore>) -> OwnedTag {
    if let Some((iw, there)) = target.interwiki.as_deref() {
        let title = format!("{}:{}", iw.prefix, there.replace('_', " "));
        return OwnedTag::new("a")
            .with_attr("rel", "mw:WikiLink/Interwiki")
            .with_attr("href", iw.url_for(there))
            .with_attr("title", title)
            .with_attr("class", "extiw");
    }
    let fragment = target.fragment.as_deref().map(encode_fragment);
    let has_fragment = target.fragment.is_some();
    // A fragment-only link to another page than this one cannot happen (it
    // would be a self link); the page's own title is taken as existing. Asked
    // before the title is moved (the store has no side effects).
    let exists = target.title.as_ref().is_none_or(|t| exists(t, pages));
    let has_title = target.title.is_some();
    let full = match target.title {
        None => page.to_owned(),
        Some(t) => t.into_prefixed(),
    };
    let href = |full: &str| {
        let mut href = String::with_capacity(full.len() + 32);
        href.push_str("./");
        push_encoded_title(&mut href, full);
        href
    };
    // Every attribute is new: the list is made whole, at its size, names from
    // their atoms (no name lookup per attribute, no capacity check per push).
    let attrs = if full == page {
        let mut href = href(&full);
        let class = match &fragment {
            Some(f) if has_title || has_fragment => {
                href.push('#');
                href.push_str(f);
                "mw-selflink-fragment"
            }
            _ => "mw-selflink selflink",
        };
        vec![
            OwnedAttribute::new(atom::REL, "mw:WikiLink"),
            OwnedAttribute::new(atom::HREF, href),
            OwnedAttribute::new(atom::CLASS, class),
        ]
    } else {
        let href = if exists || fragment.is_some() {
            let mut href = href(&full);
            if !exists {
                href.push_str(REDLINK);
            }
            if let Some(f) = &fragment {
                href.push('#');
                href.push_str(f);
            }
            href
        } else {
            // Empty: the serializers write it from the `title` ([`Derived`]).
            String::new()
        };
        if exists {
            vec![
                OwnedAttribute::new(atom::REL, "mw:WikiLink"),
                OwnedAttribute::new(atom::HREF, href),
                OwnedAttribute::new(atom::TITLE, full),
            ]
        } else {
            // `data-mw-i18n` empty: the serializers write the localized
            // title's JSON from the `title` ([`Derived`]), none built, kept
            // and escaped per link.
            vec![
                OwnedAttribute::new(atom::REL, "mw:WikiLink"),
                OwnedAttribute::new(atom::HREF, href),
                OwnedAttribute::new(atom::TITLE, full),
                OwnedAttribute::new(atom::CLASS, "new"),
                OwnedAttribute::new(atom::TYPEOF, "mw:LocalizedAttrs"),
                OwnedAttribute::new(atom::DATA_MW_I18N, String::new()),
            ]
        }
    };
    let mut tag = OwnedTag::new(atom::A);
    *tag.attrs_mut() = attrs;
    tag
}

/// Whether `tag` is one [`link_tag`] made: an `<a>` whose first attribute is
/// its `rel` (`mw:WikiLink`, `mw:WikiLink/Interwiki`) and whose second is its
/// `href`. An ISBN magic link's `rel` is `mw:WikiLink` too, its `class` second.
pub(crate) fn is_link_tag(tag: &OwnedTag) -> bool {
    let [rel, href, ..] = tag.attrs() else {
        return false;
    };
    tag.name().is(atom::A)
        && rel.name.is(atom::REL)
        && href.name.is(atom::HREF)
        && matches!(rel.value.as_str(), "mw:WikiLink" | "mw:WikiLink/Interwiki")
}

/// What a red link's href adds to the title.
const REDLINK: &str = "?action=edit&redlink=1";

/// [`REDLINK`] escaped for a double-quoted attribute.
const REDLINK_HTML: &str = "?action=edit&amp;redlink=1";

/// A red link's `data-mw-i18n` before its title: Parsoid's localized title
/// attribute, `{"title":{…,"params":["Title"]}}`.
const I18N_HEAD: &str = r#"{"title":{"lang":"x-page","key":"red-link-title","params":["#;

/// [`I18N_HEAD`] escaped for a double-quoted attribute.
const I18N_HEAD_HTML: &str = "{&quot;title&quot;:{&quot;lang&quot;:&quot;x-page&quot;,\
    &quot;key&quot;:&quot;red-link-title&quot;,&quot;params&quot;:[";

/// What follows the title's JSON string.
const I18N_TAIL: &str = "]}}";

/// A red link's attribute the tree holds empty, written by the serializers
/// from the link's `title` ([`Derived::write`], [`Derived::value`]): its
/// `data-mw-i18n` (Parsoid's localized title attribute) and, without a
/// fragment, its `href`. An empty `data-mw-i18n` marks the red link (Cite's
/// error messages hold their JSON; the sanitizer renames a `data-mw-i18n`
/// written in wikitext); no pass reads either value. No JSON or href is
/// built, kept and escaped per link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Derived<'a> {
    /// `data-mw-i18n` of a red link to the title.
    I18n(&'a str),
    /// `href` of a red link to the title.
    Href(&'a str),
}

impl<'a> Derived<'a> {
    /// What attribute `name` with `value`, on an element with `attrs`, stands
    /// for; `None` when it is written as it is.
    pub(crate) fn of(name: &str, value: &str, attrs: &'a [Attr]) -> Option<Derived<'a>> {
        if !value.is_empty() || !Self::derivable(name) {
            return None;
        }
        Self::named(name, red_link_title(attrs)?)
    }

    /// Whether an empty attribute `name` may stand for a derived value (on a
    /// red link: [`red_link_title`]).
    #[inline]
    pub(crate) fn derivable(name: &str) -> bool {
        Self::named(name, "").is_some()
    }

    /// What the empty attribute `name` of a red link to `title` stands for.
    #[inline]
    pub(crate) fn named(name: &str, title: &'a str) -> Option<Derived<'a>> {
        match name {
            "data-mw-i18n" => Some(Derived::I18n(title)),
            "href" => Some(Derived::Href(title)),
            _ => None,
        }
    }

    /// The value it stands for.
    pub(crate) fn value(self) -> String {
        match self {
            Derived::I18n(title) => {
                let mut json = String::with_capacity(I18N_HEAD.len() + title.len() + 8);
                json.push_str(I18N_HEAD);
                crate::transclusion::json_into(title, &mut json);
                json.push_str(I18N_TAIL);
                json
            }
            Derived::Href(title) => {
                let mut href = String::from("./");
                href.push_str(&encode_title(title));
                href.push_str(REDLINK);
                href
            }
        }
    }

    /// Appends [`value`](Self::value) escaped for a double-quoted attribute:
    /// the constant parts as they are escaped, the title escaped once (most
    /// titles need no JSON or href encoding, nor escaping).
    pub(crate) fn write(self, out: &mut Utf8Bytes) {
        match self {
            Derived::I18n(title) => {
                out.push_str(I18N_HEAD_HTML);
                if plain_in_i18n(title) {
                    // Most titles: the JSON string is the title quoted, and
                    // nothing in it is escaped in the attribute.
                    out.push_str("&quot;");
                    out.push_str(title);
                    out.push_str("&quot;");
                } else if crate::transclusion::any_json_escape(title.as_bytes()) {
                    let mut json = String::with_capacity(title.len() + 8);
                    crate::transclusion::json_into(title, &mut json);
                    out.push_escaped(&json, EscapeMode::DoubleQuoted);
                } else {
                    out.push_str("&quot;");
                    out.push_escaped(title, EscapeMode::DoubleQuoted);
                    out.push_str("&quot;");
                }
                out.push_str(I18N_TAIL);
            }
            Derived::Href(title) => {
                out.push_str("./");
                if plain_in_href(title) {
                    crate::title::push_plain_title(out, title);
                } else {
                    out.push_escaped(&encode_title(title), EscapeMode::DoubleQuoted);
                }
                out.push_str(REDLINK_HTML);
            }
        }
    }
}

/// The title of the red link `attrs` are of (its first `title`, when it has
/// an empty `data-mw-i18n`: [`Derived`]), `None` for any other element. One
/// pass, which a serializer makes once an element for both of its derived
/// attributes ([`Derived::named`]).
pub(crate) fn red_link_title(attrs: &[Attr]) -> Option<&str> {
    let mut title = None;
    let mut red = false;
    for (k, v) in attrs {
        match k.as_ref() {
            "title" if title.is_none() => title = Some(v.as_str()),
            "data-mw-i18n" => red |= v.is_empty(),
            _ => {}
        }
    }
    if red { title } else { None }
}

/// Whether `title` in an href attribute is itself with `_` for ` `: nothing
/// [`encode_title`] encodes, nothing escaped in a double-quoted attribute
/// (`&`, `"`, and the no-break space, whose lead byte `0xC2` is encoded).
/// One table look-up a byte (the title's other bytes in
/// [`crate::title::is_plain_title`]'s set, plus `&` and `"`), one pass with no
/// early exit (it vectorizes), not two.
fn plain_in_href(title: &str) -> bool {
    !title
        .bytes()
        .fold(false, |any, c| any | HREF_SPECIAL[usize::from(c)])
}

/// Whether `title` in a red link's `data-mw-i18n` is itself between
/// `&quot;`s: nothing escaped in a JSON string (`"`, `\`, the C0 controls)
/// nor in a double-quoted attribute (`&`, `<`, `>`, `"`, and the no-break
/// space, whose lead byte `0xC2` is tested): one table pass, no early exit.
fn plain_in_i18n(title: &str) -> bool {
    !title
        .bytes()
        .fold(false, |any, c| any | I18N_SPECIAL[usize::from(c)])
}

/// The bytes [`plain_in_i18n`] looks for.
const I18N_SPECIAL: [bool; 256] = {
    let mut t = crate::tokenize::byte_set(b"\"&<>\\\xc2");
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t
};

/// The bytes that keep a title from being written in an href as it is (but
/// for `_` for ` `): [`crate::title::TITLE_SPECIAL`]'s and the two a
/// double-quoted attribute escapes.
const HREF_SPECIAL: [bool; 256] = {
    let mut t = crate::title::TITLE_SPECIAL;
    t[b'&' as usize] = true;
    t[b'"' as usize] = true;
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::patch_tree::AttrHandoff;
    use crate::preprocess::{MemoryStore, NS_MAIN, Site};
    use crate::title::normalize_title;
    use tagloom_html::serializer::escape_into;

    /// The href a link's tag is written with.
    fn href(target: &str, store: &MemoryStore, site: &Site) -> Option<String> {
        let target = LinkTarget::parse_in(target, site)?;
        let mut tag = link_tag(target, &normalize_title("Here"), Some(store));
        let attrs = AttrHandoff::into_tree_attrs(std::mem::take(tag.attrs_mut()));
        let (_, value) = attrs.iter().find(|(k, _)| k == "href")?;
        Some(
            Derived::of("href", value, &attrs)
                .map_or_else(|| value.as_str().to_owned(), Derived::value),
        )
    }

    #[test]
    fn red_link_attributes_are_written_as_their_values_escaped() {
        let mut head = Vec::new();
        escape_into(&mut head, I18N_HEAD, EscapeMode::DoubleQuoted);
        assert_eq!(head, I18N_HEAD_HTML.as_bytes());
        let mut tail = Vec::new();
        escape_into(&mut tail, REDLINK, EscapeMode::DoubleQuoted);
        assert_eq!(tail, REDLINK_HTML.as_bytes());
        for title in [
            "Template:Foo bar",
            "A \"quoted\" & <odd> \\ title",
            "Été\u{a0}x 50% ?",
            "Déjà vu",
            "a\tb\u{1}c",
            "x",
        ] {
            for d in [Derived::I18n(title), Derived::Href(title)] {
                let mut expected = Vec::new();
                escape_into(&mut expected, &d.value(), EscapeMode::DoubleQuoted);
                let mut out = Utf8Bytes::from(String::from("<"));
                d.write(&mut out);
                assert_eq!(out.as_bytes().get(1..), Some(&expected[..]), "{d:?}");
            }
        }
        let attrs: Vec<Attr> = vec![
            ("href".into(), "".into()),
            ("title".into(), "Foo".into()),
            ("data-mw-i18n".into(), "".into()),
        ];
        let i18n = Derived::of("data-mw-i18n", "", &attrs);
        assert_eq!(i18n, Some(Derived::I18n("Foo")));
        assert_eq!(Derived::of("href", "", &attrs), Some(Derived::Href("Foo")));
        assert_eq!(Derived::of("data-mw-i18n", "{}", &attrs), None);
        assert_eq!(Derived::of("title", "", &attrs), None);
        assert_eq!(Derived::of("data-mw-i18n", "", &[]), None);
        // Not a red link: an empty href is written as it is.
        let link: Vec<Attr> = vec![("href".into(), "".into()), ("title".into(), "x".into())];
        assert_eq!(Derived::of("href", "", &link), None);
        // One pass for both: the first title, an empty `data-mw-i18n` anywhere.
        assert_eq!(red_link_title(&attrs), Some("Foo"));
        assert_eq!(red_link_title(&link), None);
        let twice: Vec<Attr> = vec![
            ("data-mw-i18n".into(), "{}".into()),
            ("title".into(), "A".into()),
            ("title".into(), "B".into()),
            ("data-mw-i18n".into(), "".into()),
        ];
        assert_eq!(red_link_title(&twice), Some("A"));
        assert_eq!(red_link_title(&twice[..3]), None);
        assert_eq!(Derived::named("href", "A"), Some(Derived::Href("A")));
        assert_eq!(Derived::named("title", "A"), None);
    }

    #[test]
    fn red_link_tags_leave_the_derived_values_empty() {
        let site = Site::default();
        let store = MemoryStore::default();
        let here = normalize_title("Here");
        let tag =
            |t: &str| LinkTarget::parse_in(t, &site).map(|t| link_tag(t, &here, Some(&store)));
        let red = tag("Nowhere at all");
        assert_eq!(red.as_ref().and_then(|t| t.attr("href")), Some(""));
        assert_eq!(red.as_ref().and_then(|t| t.attr("data-mw-i18n")), Some(""));
        let with_fragment = tag("Nowhere#a b");
        assert_eq!(
            with_fragment.as_ref().and_then(|t| t.attr("href")),
            Some("./Nowhere?action=edit&redlink=1#a_b")
        );
    }

    /// The tokenizer resolving links as it reads them gives the tokens of
    /// resolving every wikilink after it (the external link's misnesting
    /// tests find the resolved `<a>`s as they found the wikilinks).
    #[test]
    fn links_resolved_by_the_tokenizer_are_those_resolved_after_it() {
        use crate::token::Tok;
        use tagloom_html::token::OwnedToken;
        let site = crate::title::default_site();
        let mut store = MemoryStore::default();
        if let Ok(t) = Title::parse("Paris", NS_MAIN, site) {
            store.insert(t, "x");
        }
        let here = normalize_title("Here");
        for src in [
            "[[Paris]] and [[London|the city]]s, [[here#Top]], [[#Top]]",
            "[http://a.example x [[Paris]] y [[B]] z] after",
            "[http://a.example [[Paris|p [[C]]]] ISBN 0-306-40615-2 w]",
            "ISBN 0-306-40615-2 [[Template:Foo bar]] [[:Category:X]] [[wikt:word]]",
            "{| class=x\n| [[A]] || [http://b.example [[B]]]\n|}\n [[pre]]\n",
            "[[Category:Y|sort]] [[fr:Paris]] [[Special:Version]] [[a%20b]]",
        ] {
            let page = crate::tokenize::LinkPage {
                title: &here,
                pages: Some(&store),
            };
            let got = crate::tokenize::tokenize_page(src, &[], site, page);
            let mut want = crate::tokenize::tokenize(src);
            let mut links = 0;
            for token in &mut want {
                if matches!(token.tok, Tok::WikiLink(_))
                    && let Tok::WikiLink(target) = std::mem::replace(&mut token.tok, Tok::Eof)
                {
                    let tag = link_tag(*target, &here, Some(&store));
                    token.tok = Tok::Html(OwnedToken::StartTag(tag));
                    links += 1;
                }
            }
            assert!(links > 0, "{src}");
            assert_eq!(got, want, "{src}");
        }
    }

    #[test]
    fn link_tags_are_told_from_other_anchors() {
        let site = Site::default();
        let store = MemoryStore::default();
        let here = normalize_title("Here");
        for target in [
            "Nowhere",
            "Here",
            "Here#x",
            "#x",
            "wikt:word",
            "Special:Version",
        ] {
            let tag = LinkTarget::parse_in(target, &site).map(|t| link_tag(t, &here, Some(&store)));
            assert!(tag.as_ref().is_some_and(is_link_tag), "{target}: {tag:?}");
        }
        let isbn = OwnedTag::new(atom::A)
            .with_attr(atom::REL, "mw:WikiLink")
            .with_attr(atom::CLASS, "internal mw-magiclink mw-magiclink-isbn")
            .with_attr(atom::HREF, "./Special:BookSources/1");
        let ext = OwnedTag::new(atom::A)
            .with_attr(atom::REL, "mw:ExtLink nofollow")
            .with_attr(atom::HREF, "http://a.example");
        let span = OwnedTag::new(atom::SPAN)
            .with_attr(atom::REL, "mw:WikiLink")
            .with_attr(atom::HREF, "./A");
        for tag in [isbn, ext, span, OwnedTag::new(atom::A)] {
            assert!(!is_link_tag(&tag), "{tag:?}");
        }
    }

    #[test]
    fn red_links_ask_the_store_with_the_sites_namespaces() {
        let site = Site {
            project_ns: "Wikipedia".into(),
            ..Site::default()
        };
        let mut store = MemoryStore::default();
        let about = Title::parse("wikipedia:about", NS_MAIN, &site);
        store.insert(about.clone().unwrap_or_else(|e| panic!("{e}")), "x");
        assert_eq!(about.map(|t| t.ns()), Ok(4));
        assert_eq!(
            href("Wikipedia:About", &store, &site).as_deref(),
            Some("./Wikipedia:About")
        );
        assert_eq!(
            href("Nowhere", &store, &site).as_deref(),
            Some("./Nowhere?action=edit&redlink=1")
        );
        assert_eq!(
            href("Nowhere#a b", &store, &site).as_deref(),
            Some("./Nowhere?action=edit&redlink=1#a_b")
        );
        assert_eq!(
            href("Special:Version", &store, &site).as_deref(),
            Some("./Special:Version")
        );
        assert_eq!(
            href("here#a b", &store, &site).as_deref(),
            Some("./Here#a_b")
        );
    }
}
