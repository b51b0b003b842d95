//! HTML serialization of the owned tree (the HTML fragment serialization
//! algorithm's escaping; a newline kept after `<pre>` when the text starts with
//! one, since a parser drops the first).

use tagloom_html::dom_patch::Namespace;
use tagloom_html::serializer::{EscapeMode, serializes_as_void, write_escaped};

use super::Node;

/// The text and attribute escaping of the HTML fragment serialization algorithm,
/// from tagloom-html (its one home).
fn escape(s: &str, attr: bool, out: &mut String) {
    let mode = if attr {
        EscapeMode::DoubleQuoted
    } else {
        EscapeMode::Text
    };
    // Writing into a `String` cannot fail.
    let _ = write_escaped(out, s, mode);
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
                if serializes_as_void(Namespace::Html, &e.name) {
                    continue;
                }
                if matches!(&*e.name, "pre" | "textarea" | "listing")
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
