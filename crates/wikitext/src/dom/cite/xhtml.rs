//! HTML stored inside `data-mw` (a list's `body.html`, a conflicting ref's
//! body) is written as Parsoid's XHTML serializer writes it: attributes in
//! single quotes when that needs less escaping, `<` and `&` escaped (not `>`),
//! empty void elements as `<br/>`; without `about` ids.

use super::super::Node;
use crate::transform::links::Derived;

fn escape(s: &str, table: &[(char, &str)], out: &mut String) {
    for c in s.chars() {
        match table.iter().find(|(k, _)| *k == c) {
            Some((_, e)) => out.push_str(e),
            None => out.push(c),
        }
    }
}

const SINGLE: &[(char, &str)] = &[('<', "&lt;"), ('&', "&amp;"), ('\'', "&apos;")];
const DOUBLE: &[(char, &str)] = &[('<', "&lt;"), ('&', "&amp;"), ('"', "&quot;")];
const TEXT: &[(char, &str)] = &[('<', "&lt;"), ('&', "&amp;"), ('\u{338}', "&#x338;")];

fn attr(name: &str, value: &str, out: &mut String) {
    let doubles = value.matches('"').count();
    let singles = value.matches('\'').count();
    out.push(' ');
    out.push_str(name);
    if doubles > 0 && (singles == 0 || doubles > singles) {
        out.push_str("='");
        escape(value, SINGLE, out);
        out.push('\'');
    } else {
        out.push_str("=\"");
        escape(value, DOUBLE, out);
        out.push('"');
    }
}

/// The XHTML of `nodes` (iterative: bodies may be deep).
pub(super) fn serialize(nodes: &[Node]) -> String {
    enum Step<'a> {
        Open(&'a Node),
        Close(&'a str),
    }
    let mut out = String::new();
    let mut stack: Vec<Step<'_>> = nodes.iter().rev().map(Step::Open).collect();
    while let Some(step) = stack.pop() {
        match step {
            Step::Close(name) => {
                out.push_str("</");
                out.push_str(name);
                out.push('>');
            }
            Step::Open(Node::Text(t)) => escape(t, TEXT, &mut out),
            Step::Open(Node::Comment(c)) => {
                out.push_str("<!--");
                out.push_str(c);
                out.push_str("-->");
            }
            Step::Open(Node::Element(e)) => {
                out.push('<');
                out.push_str(&e.name);
                // `about` ids are the page's; Parsoid's differ, so none is kept.
                for (k, v) in e.attrs.iter().filter(|(k, _)| k != "about") {
                    match Derived::of(k, v, &e.attrs) {
                        Some(derived) => attr(k, &derived.value(), &mut out),
                        None => attr(k, v, &mut out),
                    }
                }
                let void = tagloom_html::serializer::serializes_as_void(
                    tagloom_html::dom_patch::Namespace::Html,
                    &e.name,
                );
                if e.children.is_empty() && void {
                    out.push_str("/>");
                    continue;
                }
                out.push('>');
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
    out
}

#[cfg(test)]
mod tests {
    use super::super::super::Element;
    use super::*;

    #[test]
    fn quotes_and_escapes_like_parsoid() {
        let mut sup = Element::new("sup");
        sup.attrs
            .push(("data-mw".into(), "{\"a\":\"<b>&\"}".into()));
        sup.attrs.push(("class".into(), "x".into()));
        sup.children.push(Node::Text("1 < 2 > 0".into()));
        let mut br = Element::new("br");
        br.attrs.clear();
        let html = serialize(&[Node::Element(sup), Node::Element(br)]);
        assert_eq!(
            html,
            "<sup data-mw='{\"a\":\"&lt;b>&amp;\"}' class=\"x\">1 &lt; 2 > 0</sup><br/>"
        );
    }
}
