//! Cite's token stage (Parsoid's `RefTagHandler::sourceToDom` and
//! `ReferenceListTagHandler::sourceToDom`): each `<ref>` and `<references>`
//! becomes a placeholder element carrying its attributes, its body source and
//! its body rendered in inline context. The numbering, reuse, groups, errors
//! and the lists are the DOM pass [`crate::dom::cite`], which sees the whole
//! page in document order (templates expanded, links resolved) as Parsoid's
//! `CiteDocumentPostProcessor` does.

use std::sync::Arc;

use tagloom_html::token::{OwnedTag, OwnedToken};

use super::Transform;
use crate::RenderOptions;
use crate::dom::cite::placeholder as ph;
use crate::title::encode_title;
use crate::token::{RefTag, Tok, WikiToken};

/// How deep ref bodies render inside ref bodies (each level is a separate
/// inline render; deeper bodies render as nothing).
pub(crate) const MAX_REF_NESTING: usize = 6;

pub(crate) struct Cite {
    pub(crate) options: RenderOptions,
    /// Nesting of inline renders (a ref body inside a ref body…).
    pub(crate) depth: usize,
    /// The page's transclusions (`data-mw`), which markers in bodies refer to.
    calls: Arc<[String]>,
    /// Template outputs open here (their `mw:Transclusion` metas).
    open_calls: usize,
}

impl Cite {
    pub(crate) fn new(options: RenderOptions, depth: usize, calls: Arc<[String]>) -> Cite {
        Cite {
            options,
            depth,
            calls,
            open_calls: 0,
        }
    }

    /// The page's link form (`./Title`) the pass uses for `href`s.
    fn page(&self) -> String {
        format!(
            "./{}",
            encode_title(&crate::normalize_title(&self.options.title))
        )
    }

    /// A body's HTML in inline context (`None` past the nesting limit).
    fn body_html(&self, body: &str) -> String {
        if self.depth >= MAX_REF_NESTING {
            return String::new();
        }
        crate::render::render_inline(body, &self.options, self.depth + 1, &self.calls)
    }

    fn placeholder(&self, kind: &str, tag: &RefTag, out: &mut Vec<WikiToken>) {
        let attrs: Vec<serde_json::Value> = tag
            .attrs
            .iter()
            .map(|(k, v)| {
                serde_json::Value::Array(vec![
                    serde_json::Value::String(k.to_ascii_lowercase()),
                    serde_json::Value::String(v.clone()),
                ])
            })
            .collect();
        let mut el = OwnedTag::new(ph::element(kind))
            .with_attr(ph::KIND, kind)
            .with_attr(ph::ATTRS, serde_json::Value::Array(attrs).to_string())
            .with_attr(ph::PAGE, self.page());
        if let Some(body) = &tag.body {
            el = el
                .with_attr(ph::SRC, body.as_str())
                .with_attr(ph::BODY, self.body_html(body));
        }
        out.push(WikiToken::start_tag(el));
        out.push(WikiToken::end(ph::element(kind)));
    }
}

impl Transform for Cite {
    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        if let Tok::Html(OwnedToken::StartTag(t)) = &token.tok
            && t.name().as_str() == "meta"
        {
            match t.attr("typeof") {
                Some("mw:Transclusion") => self.open_calls += 1,
                Some("mw:Transclusion/End") => {
                    self.open_calls = self.open_calls.saturating_sub(1);
                }
                _ => {}
            }
        }
        match &token.tok {
            // A ref a template made inside a ref body is dropped (Parsoid
            // allows nested refs only where the body says so, `{{#tag:ref}}`).
            // An empty span stands in for it (the template's output).
            Tok::Ref(_) if self.depth > 0 && self.open_calls > 0 => {
                out.push(WikiToken::start("span"));
                out.push(WikiToken::end("span"));
            }
            Tok::Ref(r) => self.placeholder(ph::REF, r, out),
            Tok::References(r) => self.placeholder(ph::REFERENCES, r, out),
            _ => out.push(token),
        }
    }
}
