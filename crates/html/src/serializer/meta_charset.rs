//! `inject_meta_charset`: make the head declare the output encoding.
//!
//! Every `meta` with a `charset` attribute gets the encoding as its value; failing
//! that, a `meta http-equiv=content-type` with a `content` attribute gets
//! `text/html; charset=<encoding>`. If no such `meta` came before a `</head>`, a
//! `<meta charset=<encoding>>` is inserted right after the matching `<head>`.

use crate::dom_patch::{AttrNamespace, Namespace};
use crate::token::OwnedAttribute;

use super::stream::{Item, MetaRewrite};

/// Rewrites `items` in place (see the module docs).
pub(crate) fn inject(items: &mut Vec<Item<'_>>) {
    let mut found = false;
    let mut head_start: Option<usize> = None;
    let mut i = 0;
    while i < items.len() {
        let Some(item) = items.get_mut(i) else { break };
        match item {
            Item::Start {
                ns: Namespace::Html,
                name,
                attrs,
                rewrite,
                ..
            } => {
                if name.eq_ignore_ascii_case("meta") {
                    *rewrite = classify(attrs);
                    found |= *rewrite != MetaRewrite::None;
                } else if name.eq_ignore_ascii_case("head") {
                    head_start = Some(i);
                }
            }
            Item::End {
                ns: Namespace::Html,
                name,
            } if name.eq_ignore_ascii_case("head") => {
                if let Some(start) = head_start.take() {
                    if !found {
                        items.insert(start + 1, Item::MetaCharset);
                        i += 1;
                    }
                    found = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

fn classify(attrs: &[OwnedAttribute]) -> MetaRewrite {
    let no_ns = |name: &str| {
        attrs
            .iter()
            .find(|a| a.ns == AttrNamespace::None && a.name.as_str().eq_ignore_ascii_case(name))
    };
    if no_ns("charset").is_some() {
        MetaRewrite::Charset
    } else if no_ns("http-equiv").is_some_and(|a| a.value.eq_ignore_ascii_case("content-type"))
        && no_ns("content").is_some()
    {
        MetaRewrite::ContentType
    } else {
        MetaRewrite::None
    }
}
