//! HTML serialization of the owned tree (the HTML fragment serialization
//! algorithm's escaping; a newline kept after `<pre>` when the text starts with
//! one, since a parser drops the first).

use super::Node;

fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
            | "param"
            | "keygen"
            | "basefont"
            | "bgsound"
            | "frame"
    )
}

fn escape(s: &str, attr: bool, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            '"' if attr => out.push_str("&quot;"),
            '<' if !attr => out.push_str("&lt;"),
            '>' if !attr => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}

/// Appends the HTML of `nodes` to `out` (iterative: the tree may be deep).
pub(crate) fn serialize(nodes: &[Node], out: &mut String) {
    enum Step<'a> {
        Open(&'a Node),
        Close(&'a str),
    }
    let mut stack: Vec<Step<'_>> = nodes.iter().rev().map(Step::Open).collect();
    while let Some(step) = stack.pop() {
        let node = match step {
            Step::Close(name) => {
                out.push_str("</");
                out.push_str(name);
                out.push('>');
                continue;
            }
            Step::Open(node) => node,
        };
        match node {
            Node::Text(t) => escape(t, false, out),
            Node::Comment(c) => {
                out.push_str("<!--");
                out.push_str(c);
                out.push_str("-->");
            }
            Node::Element(e) => {
                out.push('<');
                out.push_str(&e.name);
                for (k, v) in &e.attrs {
                    out.push(' ');
                    out.push_str(k);
                    out.push_str("=\"");
                    escape(v, true, out);
                    out.push('"');
                }
                out.push('>');
                if is_void(&e.name) {
                    continue;
                }
                if matches!(e.name.as_str(), "pre" | "textarea" | "listing")
                    && matches!(e.children.first(), Some(Node::Text(t)) if t.starts_with('\n'))
                {
                    out.push('\n');
                }
                stack.push(Step::Close(&e.name));
                stack.extend(e.children.iter().rev().map(Step::Open));
            }
        }
    }
}
