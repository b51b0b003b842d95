//! Text of a tree: the DOM's `textContent`, and the text a reader sees (what
//! `Document.text` and `extract_text_many` return).

use tagloom_html::dom::{NodeKind, NodeRef};
use tagloom_html::dom_patch::Namespace;

/// Which text to collect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextMode {
    /// Every descendant text node, in tree order (the DOM's `textContent`;
    /// template contents are not children, so they are not included).
    Content,
    /// As [`Content`](Self::Content), without the text of `script`, `style`,
    /// `noscript` and `template` elements, which a reader never sees.
    Visible,
}

/// The text below `node`, in tree order. The walk follows sibling and parent links,
/// so depth costs no stack.
pub fn text_of(node: NodeRef<'_>, mode: TextMode) -> String {
    let mut out = String::new();
    if let NodeKind::Text(text) = node.kind() {
        out.push_str(text);
        return out;
    }
    let mut cur = node.first_child();
    while let Some(n) = cur {
        let mut descend = true;
        match n.kind() {
            NodeKind::Text(text) => out.push_str(text),
            NodeKind::Element(e) if mode == TextMode::Visible => {
                descend = !(e.ns() == Namespace::Html
                    && matches!(e.local_name(), "script" | "style" | "noscript" | "template"));
            }
            _ => {}
        }
        cur = match n.first_child().filter(|_| descend) {
            Some(child) => Some(child),
            None => next_after(n, node),
        };
    }
    out
}

/// The node after `n`'s subtree in tree order, not leaving `root`.
fn next_after<'a>(mut n: NodeRef<'a>, root: NodeRef<'a>) -> Option<NodeRef<'a>> {
    loop {
        if n == root {
            return None;
        }
        if let Some(next) = n.next_sibling() {
            return Some(next);
        }
        n = n.parent()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{Options, parse};

    #[test]
    fn visible_text_skips_scripts_and_styles() {
        let parsed = parse(
            b"<title>T</title><style>s{}</style><p>a<script>x</script><b>b</b><noscript>n</noscript>c",
            &Options::default(),
        )
        .unwrap();
        let doc = parsed.store.document().unwrap();
        assert_eq!(text_of(doc, TextMode::Visible), "Tabc");
        assert_eq!(text_of(doc, TextMode::Content), "Ts{}axbnc");
    }

    #[test]
    fn the_walk_stays_below_its_root() {
        let parsed = parse(b"<p>a<i>b</i></p><p>c", &Options::default()).unwrap();
        let doc = parsed.store.document().unwrap();
        let html = doc.first_child().unwrap();
        let body = html.last_child().unwrap();
        let p = body.first_child().unwrap();
        assert_eq!(text_of(p, TextMode::Content), "ab");
        assert_eq!(text_of(p.first_child().unwrap(), TextMode::Content), "a");
    }

    #[test]
    fn deep_trees_cost_no_stack() {
        let html = "<div>".repeat(100_000) + "x";
        let parsed = parse(html.as_bytes(), &Options::default()).unwrap();
        let doc = parsed.store.document().unwrap();
        assert_eq!(text_of(doc, TextMode::Visible), "x");
    }
}
