//! French spacing (Parsoid's DisplaySpace pass): a space before `?:;!%»›` (not
//! followed by a word character) and after `«‹` (not preceded by one) becomes a
//! non-breaking space in a `mw:DisplaySpace` span. Not inside `<pre>`.

use super::{Element, Node};

fn word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The byte offsets of the spaces to armor in `text`.
fn spaces(text: &str) -> Vec<usize> {
    // Most text has none of the marks (their ASCII bytes, or the last byte of
    // `»«›‹`): no char table then.
    if !text.bytes().any(|b| {
        matches!(
            b,
            b'?' | b':' | b';' | b'!' | b'%' | 0xBB | 0xAB | 0xBA | 0xB9
        )
    }) {
        return Vec::new();
    }
    // A window of five characters around the current one (two either side),
    // slid over the text: no table of its characters.
    let mut chars = text.char_indices();
    let mut window: [Option<(usize, char)>; 5] = [None, None, None, chars.next(), chars.next()];
    let mut out = Vec::new();
    loop {
        window.rotate_left(1);
        window[4] = chars.next();
        let Some((offset, c)) = window[2] else { break };
        if c != ' ' {
            continue;
        }
        let at = |k: usize| window[k].map(|(_, c)| c);
        let left = matches!(at(3), Some('?' | ':' | ';' | '!' | '%' | '»' | '›')) && !word(at(4));
        let right = matches!(at(1), Some('«' | '‹')) && !word(at(0));
        if left || right {
            out.push(offset);
        }
    }
    out
}

fn armor(children: Vec<Node>) -> Vec<Node> {
    let needed = children
        .iter()
        .any(|c| matches!(c, Node::Text(t) if !spaces(t).is_empty()));
    if !needed {
        return children;
    }
    let mut out = Vec::with_capacity(children.len());
    for child in children {
        let Node::Text(text) = child else {
            out.push(child);
            continue;
        };
        let positions = spaces(&text);
        if positions.is_empty() {
            out.push(Node::Text(text));
            continue;
        }
        let mut from = 0;
        for p in positions {
            if p > from {
                out.push(Node::Text(text.get(from..p).unwrap_or("").to_owned()));
            }
            let mut span = Element::new("span");
            span.attrs.push(("typeof".into(), "mw:DisplaySpace".into()));
            span.children.push(Node::Text("\u{a0}".into()));
            out.push(Node::Element(span));
            from = p + 1;
        }
        if from < text.len() {
            out.push(Node::Text(text.get(from..).unwrap_or("").to_owned()));
        }
    }
    out
}

/// Runs the pass over `nodes`.
pub(crate) fn display_space(nodes: &mut Vec<Node>) {
    *nodes = armor(std::mem::take(nodes));
    let mut stack: Vec<&mut Node> = nodes.iter_mut().collect();
    while let Some(node) = stack.pop() {
        if let Node::Element(e) = node {
            if matches!(
                &*e.name,
                "pre" | "svg" | "script" | "style" | "xmp" | "iframe" | "noembed" | "noframes"
            ) {
                continue;
            }
            e.children = armor(std::mem::take(&mut e.children));
            stack.extend(e.children.iter_mut());
        }
    }
}
