//! The text of a parsed page: what a reader sees, block by block.
//!
//! The walk skips what is not shown (`head` except its `title`, `script`, `style`,
//! `noscript`, `template`), collapses each run of white space to one space, and
//! puts a line break between blocks (`p`, `div`, headings, list items, table rows
//! and cells…) and at `br`.

use tagloom_html::DomStore;
use tagloom_html::dom::{NodeKind, NodeRef};

/// What an element means for the text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Skip,
    Title,
    Block,
    Inline,
}

fn role(node: NodeRef<'_>) -> Role {
    let Some(el) = node.as_element() else {
        return Role::Inline;
    };
    match el.local_name() {
        "title" if el.is_html("title") => Role::Title,
        "script" | "style" | "noscript" | "template" | "head" => Role::Skip,
        "p" | "div" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "li" | "ul" | "ol" | "dl"
        | "dt" | "dd" | "table" | "tr" | "td" | "th" | "caption" | "section" | "article"
        | "header" | "footer" | "nav" | "aside" | "main" | "blockquote" | "pre" | "form"
        | "fieldset" | "figure" | "figcaption" | "address" | "details" | "summary" | "hr"
        | "br" | "body" | "html" | "option" | "legend" | "center" => Role::Block,
        _ => Role::Inline,
    }
}

/// Collapsed text with line breaks between blocks.
#[derive(Default)]
struct TextOut {
    out: String,
    space: bool,
    newline: bool,
}

impl TextOut {
    fn push(&mut self, text: &str) {
        for c in text.chars() {
            if c.is_whitespace() {
                self.space = true;
                continue;
            }
            if !self.out.is_empty() {
                if self.newline {
                    self.out.push('\n');
                } else if self.space {
                    self.out.push(' ');
                }
            }
            self.space = false;
            self.newline = false;
            self.out.push(c);
        }
    }

    fn block(&mut self) {
        self.newline = true;
    }
}

/// The title (the first `title` element's text) and the text of `store`'s document.
pub(crate) fn page_text(store: &DomStore) -> (Option<String>, String) {
    let Some(root) = store.document() else {
        return (None, String::new());
    };
    let title = find_title(root).map(|t| {
        let mut out = TextOut::default();
        walk(t, &mut out);
        out.out
    });
    let mut text = TextOut::default();
    walk(root, &mut text);
    (title.filter(|t| !t.is_empty()), text.out)
}

/// The first HTML `title` element, in tree order.
fn find_title(root: NodeRef<'_>) -> Option<NodeRef<'_>> {
    let mut cur = root.first_child();
    while let Some(node) = cur {
        if role(node) == Role::Title {
            return Some(node);
        }
        cur = node
            .first_child()
            .or_else(|| next_after(node, root, &mut |_| {}));
    }
    None
}

/// The node after `node`'s subtree in tree order, below `root`; `leave` is called
/// on `node` and on each ancestor whose subtree ends with it.
fn next_after<'a>(
    node: NodeRef<'a>,
    root: NodeRef<'a>,
    leave: &mut dyn FnMut(NodeRef<'a>),
) -> Option<NodeRef<'a>> {
    let mut done = node;
    loop {
        leave(done);
        if let Some(next) = done.next_sibling() {
            return Some(next);
        }
        match done.parent() {
            Some(parent) if parent.key() != root.key() => done = parent,
            _ => return None,
        }
    }
}

/// Appends the text below `root` to `out`. Iterative: no recursion on deep trees.
fn walk(root: NodeRef<'_>, out: &mut TextOut) {
    let mut cur = root.first_child();
    while let Some(node) = cur {
        let descend = match node.kind() {
            NodeKind::Text(t) => {
                out.push(t);
                false
            }
            NodeKind::Element(_) => match role(node) {
                Role::Skip | Role::Title => false,
                Role::Block => {
                    out.block();
                    true
                }
                Role::Inline => true,
            },
            _ => false,
        };
        if descend && let Some(child) = node.first_child() {
            cur = Some(child);
            continue;
        }
        cur = next_after(node, root, &mut |n| {
            if n.as_element().is_some() && role(n) == Role::Block {
                out.block();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tagloom_html::driver::{ParseConfig, parse_document};

    fn text(html: &str) -> (Option<String>, String) {
        page_text(&parse_document(html.as_bytes(), &ParseConfig::default()).unwrap())
    }

    #[test]
    fn blocks_lines_and_hidden_content() {
        let (title, body) = text(
            "<title> A  page </title><style>p{}</style><p>One <b>two</b>\n three<div>four</div>\
             <script>x()</script><ul><li>a<li>b</ul>c<br>d",
        );
        assert_eq!(title.as_deref(), Some("A page"));
        assert_eq!(body, "One two three\nfour\na\nb\nc\nd");
    }
}
