//! Link resolution (Parsoid's WikiLinkHandler, its phase 2 "out of order";
//! here a pass over the tokenizer's output, the page store answering at once): a
//! [`Tok::WikiLink`] becomes `<a rel="mw:WikiLink" href="./Title" title="Title">`,
//! a red link (`class="new"`, `?action=edit&redlink=1`, Parsoid's localized
//! title attribute) for a page the store does not have, a self link for the page
//! itself.

use tagloom_html::atom::{self, Atom};
use tagloom_html::token::{OwnedAttribute, OwnedTag, OwnedToken};

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
        const HEAD: &str = r#"{"title":{"lang":"x-page","key":"red-link-title","params":["#;
        let mut i18n = String::with_capacity(HEAD.len() + full.len() + 8);
        i18n.push_str(HEAD);
        crate::transclusion::json_into(&full, &mut i18n);
        i18n.push_str("]}}");
        push(atom::TITLE, full);
        push(atom::CLASS, "new".to_owned());
        push(atom::TYPEOF, "mw:LocalizedAttrs".to_owned());
        push(atom::DATA_MW_I18N, i18n);
    }
    tag
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
