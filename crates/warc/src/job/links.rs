//! The links of a parsed page: the `href` of every `a` and `area` element, resolved
//! (WHATWG URL parsing) against the document's base URL: the first `base` element
//! with an `href`, itself resolved against the record's target URI.

use tagloom_html::DomStore;
use tagloom_html::dom::NodeRef;
use url::Url;

/// Each element below the document in tree order (iterative).
fn elements(store: &DomStore, mut f: impl FnMut(NodeRef<'_>)) {
    let Some(root) = store.document() else {
        return;
    };
    let mut cur = root.first_child();
    while let Some(node) = cur {
        if node.as_element().is_some() {
            f(node);
        }
        cur = node.first_child().or_else(|| {
            let mut done = node;
            loop {
                if let Some(next) = done.next_sibling() {
                    return Some(next);
                }
                match done.parent() {
                    Some(parent) if parent.key() != root.key() => done = parent,
                    _ => return None,
                }
            }
        });
    }
}

/// The resolved links of `store`'s document; an `href` that does not resolve (or
/// any `href` when there is no valid target URI) is kept as written.
pub(crate) fn page_links(store: &DomStore, target_uri: Option<&str>) -> Vec<String> {
    let document_url = target_uri.and_then(|u| Url::parse(u).ok());
    let mut base: Option<Option<Url>> = None;
    let mut hrefs: Vec<String> = Vec::new();
    elements(store, |node| {
        let Some(el) = node.as_element() else {
            return;
        };
        if el.is_html("base") && base.is_none() {
            if let Some(href) = el.attr("href") {
                base = Some(match &document_url {
                    Some(doc) => doc.join(href).ok(),
                    None => Url::parse(href).ok(),
                });
            }
        } else if (el.is_html("a") || el.is_html("area"))
            && let Some(href) = el.attr("href")
        {
            hrefs.push(href.to_string());
        }
    });
    let base = base.flatten().or(document_url);
    hrefs
        .into_iter()
        .map(|href| match &base {
            Some(b) => b.join(&href).map_or(href, String::from),
            None => Url::parse(&href).map_or(href, String::from),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tagloom_html::driver::{ParseConfig, parse_document};

    fn links(html: &str, uri: Option<&str>) -> Vec<String> {
        page_links(
            &parse_document(html.as_bytes(), &ParseConfig::default()).unwrap(),
            uri,
        )
    }

    #[test]
    fn hrefs_resolve_against_the_base() {
        let page = "<a href='b/c?x#y'>1</a><map><area href='/root'></map><a>no href</a>";
        assert_eq!(
            links(page, Some("http://example.com/a/index.html")),
            ["http://example.com/a/b/c?x#y", "http://example.com/root"]
        );
        let based = format!("<base href='/other/'>{page}");
        assert_eq!(
            links(&based, Some("http://example.com/a/")),
            [
                "http://example.com/other/b/c?x#y",
                "http://example.com/root"
            ]
        );
        assert_eq!(links(page, None), ["b/c?x#y", "/root"]);
        assert_eq!(
            links("<a href=' http://x.example/ '>", Some("nonsense")),
            ["http://x.example/"]
        );
    }
}
