//! The link handler (Parsoid's WikiLinkHandler, phase 2 "out of order", an
//! asynchronous handler so a page store that answers later fits): a
//! [`Tok::WikiLink`] becomes `<a rel="mw:WikiLink" href="./Title" title="Title">`,
//! a red link (`class="new"`, `?action=edit&redlink=1`, Parsoid's localized
//! title attribute) for a page the store does not have, a self link for the page
//! itself.

use std::sync::Arc;

use tagloom_html::token::{OwnedTag, OwnedToken};
use tagloom_transform::pipeline::{AsyncHandler, Ctx, HandlerFuture, Outcome};

use crate::preprocess::{PageStore, Site, Title};
use crate::site::normalize_title;
use crate::title::{LinkTarget, encode_fragment, encode_title};
use crate::token::{Tok, WikiToken};

/// Resolves links against the page store.
pub(crate) struct LinkHandler {
    pub(crate) page_title: String,
    pub(crate) pages: Option<Arc<dyn PageStore>>,
    pub(crate) site: Site,
}

/// Whether the page titled `full` exists in `pages` (all do without a store).
fn exists(full: &str, pages: Option<&dyn PageStore>, site: &Site) -> bool {
    match pages {
        None => true,
        Some(store) => Title::parse(full, 0, site).is_ok_and(|t| store.exists(&t)),
    }
}

/// The `<a>` for `target` on page `page_title`.
pub(crate) fn link_tag(
    target: &LinkTarget,
    page_title: &str,
    pages: Option<&dyn PageStore>,
    site: &Site,
) -> OwnedTag {
    let fragment = target.fragment.as_deref().map(encode_fragment);
    let page = normalize_title(page_title);
    let full = if target.text.is_empty() {
        page.clone()
    } else {
        target.full()
    };
    let encoded = encode_title(&full);
    let mut tag = OwnedTag::new("a").with_attr("rel", "mw:WikiLink");
    if full == page {
        match &fragment {
            Some(f) if !target.text.is_empty() || target.fragment.is_some() => {
                tag.set_attr("href", format!("./{encoded}#{f}"));
                tag.set_attr("class", "mw-selflink-fragment");
            }
            _ => {
                tag.set_attr("href", format!("./{encoded}"));
                tag.set_attr("class", "mw-selflink selflink");
            }
        }
        return tag;
    }
    let exists = match target.namespace {
        // Special pages exist when the software has them.
        "Special" => matches!(
            target.text.as_str(),
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
        ),
        _ => exists(&full, pages, site),
    };
    let frag = fragment.map(|f| format!("#{f}")).unwrap_or_default();
    if exists {
        tag.set_attr("href", format!("./{encoded}{frag}"));
        tag.set_attr("title", full);
    } else {
        tag.set_attr("href", format!("./{encoded}?action=edit&redlink=1{frag}"));
        tag.set_attr("title", full.as_str());
        tag.set_attr("class", "new");
        tag.set_attr("typeof", "mw:LocalizedAttrs");
        let param = serde_json::Value::String(full).to_string();
        tag.set_attr(
            "data-mw-i18n",
            format!("{{\"title\":{{\"lang\":\"x-page\",\"key\":\"red-link-title\",\"params\":[{param}]}}}}"),
        );
    }
    tag
}

impl AsyncHandler<WikiToken> for LinkHandler {
    fn handle(&self, token: WikiToken, _: &Ctx) -> HandlerFuture<WikiToken> {
        let out = match token.tok {
            Tok::WikiLink(target) => {
                let tag = link_tag(&target, &self.page_title, self.pages.as_deref(), &self.site);
                WikiToken {
                    tok: Tok::Html(OwnedToken::StartTag(tag)),
                    span: token.span,
                }
            }
            other => WikiToken {
                tok: other,
                span: token.span,
            },
        };
        Box::pin(std::future::ready(Ok(Outcome::Keep(out))))
    }
}
