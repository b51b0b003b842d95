//! Link resolution (Parsoid's WikiLinkHandler, its phase 2 "out of order";
//! here a pass over the tokenizer's output, the page store answering at once): a
//! [`Tok::WikiLink`] becomes `<a rel="mw:WikiLink" href="./Title" title="Title">`,
//! a red link (`class="new"`, `?action=edit&redlink=1`, Parsoid's localized
//! title attribute) for a page the store does not have, a self link for the page
//! itself.

use tagloom_html::atom::{self, Atom};
use tagloom_html::serializer::{EscapeMode, escape_into};
use tagloom_html::token::{OwnedAttribute, OwnedTag, OwnedToken};

use crate::dom::Attr;
use crate::preprocess::{NS_SPECIAL, PageStore, Title};
use crate::title::{LinkTarget, encode_fragment, encode_title};
use crate::token::{Tok, WikiToken};

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
pub(crate) fn link_tag(target: &LinkTarget, page: &str, pages: Option<&dyn PageStore>) -> OwnedTag {
    if let Some((iw, there)) = target.interwiki.as_deref() {
        let title = format!("{}:{}", iw.prefix, there.replace('_', " "));
        return OwnedTag::new("a")
            .with_attr("rel", "mw:WikiLink/Interwiki")
            .with_attr("href", iw.url_for(there))
            .with_attr("title", title)
            .with_attr("class", "extiw");
    }
    let fragment = target.fragment.as_deref().map(encode_fragment);
    let title = target.title.as_ref();
    let full = match title {
        None => page.to_owned(),
        Some(t) => t.prefixed(),
    };
    let encoded = encode_title(&full);
    let mut tag = OwnedTag::new(atom::A);
    // Every attribute is new: pushed in order, room made once; names from
    // their atoms (no name lookup per attribute).
    let attrs = tag.attrs_mut();
    attrs.reserve_exact(6);
    let mut push = |name: Atom, value: String| attrs.push(OwnedAttribute::new(name, value));
    push(atom::REL, "mw:WikiLink".to_owned());
    let mut href = String::with_capacity(encoded.len() + 32);
    href.push_str("./");
    href.push_str(&encoded);
    if full == page {
        match &fragment {
            Some(f) if target.title.is_some() || target.fragment.is_some() => {
                href.push('#');
                href.push_str(f);
                push(atom::HREF, href);
                push(atom::CLASS, "mw-selflink-fragment".to_owned());
            }
            _ => {
                push(atom::HREF, href);
                push(atom::CLASS, "mw-selflink selflink".to_owned());
            }
        }
        return tag;
    }
    // A fragment-only link to another page than this one cannot happen (it
    // would be a self link); the page's own title is taken as existing.
    let exists = title.is_none_or(|t| exists(t, pages));
    if !exists {
        href.push_str("?action=edit&redlink=1");
    }
    if let Some(f) = &fragment {
        href.push('#');
        href.push_str(f);
    }
    push(atom::HREF, href);
    if exists {
        push(atom::TITLE, full);
    } else {
        push(atom::TITLE, full);
        push(atom::CLASS, "new".to_owned());
        push(atom::TYPEOF, "mw:LocalizedAttrs".to_owned());
        // Empty: the serializers write the localized title's JSON from the
        // `title` ([`red_link_title`]), none built, kept and escaped per link.
        push(atom::DATA_MW_I18N, String::new());
    }
    tag
}

/// A red link's `data-mw-i18n` before its title: Parsoid's localized title
/// attribute, `{"title":{…,"params":["Title"]}}`.
const I18N_HEAD: &str = r#"{"title":{"lang":"x-page","key":"red-link-title","params":["#;

/// [`I18N_HEAD`] escaped for a double-quoted attribute.
const I18N_HEAD_HTML: &str = "{&quot;title&quot;:{&quot;lang&quot;:&quot;x-page&quot;,\
    &quot;key&quot;:&quot;red-link-title&quot;,&quot;params&quot;:[";

/// What follows the title's JSON string.
const I18N_TAIL: &str = "]}}";

/// The title whose red link JSON stands for attribute `name`'s `value` on an
/// element with attributes `attrs`: a red link's `data-mw-i18n` is empty in
/// the tree (its `title` says all; Cite's error messages hold their JSON, and
/// the sanitizer renames a `data-mw-i18n` written in wikitext), and the
/// serializers write the JSON ([`write_red_link_i18n`], [`red_link_i18n`]).
/// `None` for any other attribute.
pub(crate) fn red_link_title<'a>(name: &str, value: &str, attrs: &'a [Attr]) -> Option<&'a str> {
    if !value.is_empty() || name != "data-mw-i18n" {
        return None;
    }
    attrs
        .iter()
        .find(|(k, _)| k == "title")
        .map(|(_, v)| v.as_str())
}

/// The `data-mw-i18n` JSON of a red link to `title`.
pub(crate) fn red_link_i18n(title: &str) -> String {
    let mut json = String::with_capacity(I18N_HEAD.len() + title.len() + 8);
    json.push_str(I18N_HEAD);
    crate::transclusion::json_into(title, &mut json);
    json.push_str(I18N_TAIL);
    json
}

/// Appends [`red_link_i18n`]`(title)` escaped for a double-quoted attribute
/// value: the constant parts as they are escaped, the title escaped once
/// (most titles need no JSON escape).
pub(crate) fn write_red_link_i18n(out: &mut Vec<u8>, title: &str) {
    out.extend_from_slice(I18N_HEAD_HTML.as_bytes());
    if crate::transclusion::any_json_escape(title.as_bytes()) {
        let mut json = String::with_capacity(title.len() + 8);
        crate::transclusion::json_into(title, &mut json);
        escape_into(out, &json, EscapeMode::DoubleQuoted);
    } else {
        out.extend_from_slice(b"&quot;");
        escape_into(out, title, EscapeMode::DoubleQuoted);
        out.extend_from_slice(b"&quot;");
    }
    out.extend_from_slice(I18N_TAIL.as_bytes());
}

/// Resolves every wikilink of `tokens` in place: its `<a>` (the span kept).
/// The page store answers at once, so this runs on the tokenizer's output
/// before the pipeline (no asynchronous phase, no token moved).
pub(crate) fn resolve_links(tokens: &mut [WikiToken], options: &crate::RenderOptions, page: &str) {
    let pages = options.store.as_deref();
    for token in tokens {
        if let Tok::WikiLink(target) = &token.tok {
            token.tok = Tok::Html(OwnedToken::StartTag(link_tag(target, page, pages)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocess::{MemoryStore, NS_MAIN, Site};
    use crate::title::normalize_title;

    fn href(target: &str, store: &MemoryStore, site: &Site) -> Option<String> {
        let target = LinkTarget::parse_in(target, site)?;
        link_tag(&target, &normalize_title("Here"), Some(store))
            .attr("href")
            .map(str::to_owned)
    }

    #[test]
    fn red_link_i18n_is_written_as_its_json_escaped() {
        let mut head = Vec::new();
        escape_into(&mut head, I18N_HEAD, EscapeMode::DoubleQuoted);
        assert_eq!(head, I18N_HEAD_HTML.as_bytes());
        for title in [
            "Template:Foo bar",
            "A \"quoted\" & <odd> \\ title",
            "Été\u{a0}x",
            "x",
        ] {
            let mut expected = Vec::new();
            escape_into(
                &mut expected,
                &red_link_i18n(title),
                EscapeMode::DoubleQuoted,
            );
            let mut out = b"<".to_vec();
            write_red_link_i18n(&mut out, title);
            assert_eq!(out.get(1..), Some(&expected[..]), "{title}");
        }
        let attrs: Vec<Attr> = vec![("title".into(), "Foo".into())];
        assert_eq!(red_link_title("data-mw-i18n", "", &attrs), Some("Foo"));
        assert_eq!(red_link_title("data-mw-i18n", "{}", &attrs), None);
        assert_eq!(red_link_title("title", "", &attrs), None);
        assert_eq!(red_link_title("data-mw-i18n", "", &[]), None);
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
            href("Special:Version", &store, &site).as_deref(),
            Some("./Special:Version")
        );
        assert_eq!(
            href("here#a b", &store, &site).as_deref(),
            Some("./Here#a_b")
        );
    }
}
