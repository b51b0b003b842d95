//! HTML serialization of the owned tree (the HTML fragment serialization
//! algorithm's escaping; a newline kept after `<pre>` when the text starts with
//! one, since a parser drops the first).

use tagloom_html::dom_patch::Namespace;
use tagloom_html::serializer::{EscapeMode, escape_into, serializes_as_void};

use super::Node;

/// Appends the HTML of `nodes` to `out`. The HTML is built as bytes (the
/// escaping's fastest form) and checked as UTF-8 once at the end.
pub(crate) fn serialize(nodes: &[Node], out: &mut String) {
    let mut bytes = std::mem::take(out).into_bytes();
    write_nodes(nodes, &mut bytes);
    *out = match String::from_utf8(bytes) {
        Ok(html) => html,
        // Not reached: only whole strings and characters are written.
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
}

/// Appends the HTML of `nodes` to `out` (iterative: the tree may be deep).
fn write_nodes(nodes: &[Node], out: &mut Vec<u8>) {
    enum Step<'a> {
        Open(&'a Node),
        Close(&'a str),
    }
    let mut stack: Vec<Step<'_>> = nodes.iter().rev().map(Step::Open).collect();
    while let Some(step) = stack.pop() {
        let node = match step {
            Step::Close(name) => {
                out.extend_from_slice(b"</");
                out.extend_from_slice(name.as_bytes());
                out.push(b'>');
                continue;
            }
            Step::Open(node) => node,
        };
        match node {
            Node::Text(t) => escape_into(out, t, EscapeMode::Text),
            Node::Comment(c) => {
                out.extend_from_slice(b"<!--");
                out.extend_from_slice(c.as_bytes());
                out.extend_from_slice(b"-->");
            }
            Node::Element(e) => {
                out.push(b'<');
                out.extend_from_slice(e.name.as_bytes());
                for (k, v) in &e.attrs {
                    out.push(b' ');
                    out.extend_from_slice(k.as_bytes());
                    out.extend_from_slice(b"=\"");
                    escape_into(out, v, EscapeMode::DoubleQuoted);
                    out.push(b'"');
                }
                out.push(b'>');
                if serializes_as_void(Namespace::Html, &e.name) {
                    continue;
                }
                if matches!(&*e.name, "pre" | "textarea" | "listing")
                    && matches!(e.children.first(), Some(Node::Text(t)) if t.starts_with('\n'))
                {
                    out.push(b'\n');
                }
                stack.push(Step::Close(&e.name));
                stack.extend(e.children.iter().rev().map(Step::Open));
            }
        }
    }
}
