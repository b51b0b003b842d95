//! French spacing (Parsoid's DisplaySpace pass): a space before `?:;!%»›` (not
//! followed by a word character) and after `«‹` (not preceded by one) becomes a
//! non-breaking space in a `mw:DisplaySpace` span. Not inside `<pre>`.

use super::{Element, Node};

fn word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// A mark's ASCII byte, or the last byte of `»«›‹` (or a continuation byte
/// like it).
fn is_mark(x: u8) -> bool {
    matches!(
        x,
        b'?' | b':' | b';' | b'!' | b'%' | 0xBB | 0xAB | 0xBA | 0xB9
    )
}

/// The bytes looked at together: most text has no mark, and a block without
/// one is passed over by one test.
const BLOCK: usize = 16;

/// Whether `block` holds a mark's byte (or `<`, `=`, `>`, which share a
/// range with `:;?`): a few comparisons per byte, no branch, so the compiler
/// compares many bytes per instruction.
fn block_has_mark(block: &[u8; BLOCK]) -> bool {
    let mut any = 0u8;
    for &x in block {
        any |= u8::from(x == b'!')
            | u8::from(x == b'%')
            | u8::from(x.wrapping_sub(b':') <= b'?' - b':')
            | u8::from(x == 0xAB)
            | u8::from(x.wrapping_sub(0xB9) <= 0xBB - 0xB9);
    }
    any != 0
}

/// Whether [`spaces`] can find anything in `text`: a space and a mark at
/// least; short text (most between elements: a newline, a space) is told by
/// its bytes, without a call.
#[inline(always)]
pub(crate) fn may_armor(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= BLOCK / 2 || (b.len() >= 2 && b.iter().any(|&x| is_mark(x)))
}

/// The byte offsets of the spaces to armor in `text`, in order: found from
/// the marks, most text having none. The last bytes are tested as a block
/// too, padded with zeros.
pub(crate) fn spaces(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    // Short text (often a newline or a space between elements): its bytes
    // one by one.
    if b.len() < BLOCK / 2 {
        for (i, &x) in b.iter().enumerate() {
            if is_mark(x) {
                armored_at(text, i, &mut out);
            }
        }
        if out.len() > 1 {
            out.sort_unstable();
            out.dedup();
        }
        return out;
    }
    let mut from = 0;
    while from < b.len() {
        let rest = b.get(from..).unwrap_or_default();
        let block = match rest.first_chunk::<BLOCK>() {
            Some(block) => *block,
            None => {
                let mut padded = [0u8; BLOCK];
                if let Some(to) = padded.get_mut(..rest.len()) {
                    to.copy_from_slice(rest);
                }
                padded
            }
        };
        if block_has_mark(&block) {
            for (j, &x) in rest.iter().take(BLOCK).enumerate() {
                if is_mark(x) {
                    armored_at(text, from + j, &mut out);
                }
            }
        }
        from += BLOCK;
    }
    // A space between `«` and `:` is found twice, and out of order.
    if out.len() > 1 {
        out.sort_unstable();
        out.dedup();
    }
    out
}

/// The space a mark whose last byte is at `i` armors, if any, into `out`.
fn armored_at(text: &str, i: usize, out: &mut Vec<usize>) {
    let b = text.as_bytes();
    let end = i + 1;
    let Some(c) = text.get(..end).and_then(|h| h.chars().next_back()) else {
        return;
    };
    let start = end - c.len_utf8();
    match c {
        // A space before the mark, no word character after it.
        '?' | ':' | ';' | '!' | '%' | '»' | '›'
            if start > 0
                && b.get(start - 1) == Some(&b' ')
                && !word(text.get(end..).and_then(|t| t.chars().next())) =>
        {
            out.push(start - 1);
        }
        // A space after the mark, no word character before it.
        '«' | '‹'
            if b.get(end) == Some(&b' ')
                && !word(text.get(..start).and_then(|h| h.chars().next_back())) =>
        {
            out.push(end);
        }
        _ => {}
    }
}

/// The pass on one child list.
pub(crate) fn armor(list: &mut Vec<Node>) {
    // The first text with spaces to armor (most lists have none: left as
    // they are); each text is searched once.
    let Some((first, mut positions)) = list.iter().enumerate().find_map(|(i, c)| match c {
        Node::Text(t) => Some((i, spaces(t))).filter(|(_, p)| !p.is_empty()),
        _ => None,
    }) else {
        return;
    };
    let children = std::mem::take(list);
    let mut out = Vec::with_capacity(children.len());
    for (i, child) in children.into_iter().enumerate() {
        let Node::Text(text) = child else {
            out.push(child);
            continue;
        };
        if i < first {
            out.push(Node::Text(text));
            continue;
        }
        if i > first {
            positions = spaces(&text);
        }
        if positions.is_empty() {
            out.push(Node::Text(text));
            continue;
        }
        let mut from = 0;
        for &p in &positions {
            if p > from {
                out.push(Node::Text(text.get(from..p).unwrap_or("").to_owned()));
            }
            out.push(Node::Element(armored_space()));
            from = p + 1;
        }
        if from < text.len() {
            out.push(Node::Text(text.get(from..).unwrap_or("").to_owned()));
        }
    }
    *list = out;
}

/// What an armored space becomes.
fn armored_space() -> Element {
    let mut span = Element::new("span");
    span.attrs.push(("typeof".into(), "mw:DisplaySpace".into()));
    span.children.push(Node::Text("\u{a0}".into()));
    span
}

/// [`armored_space`] as HTML (for the page's serializer, which armors
/// while writing: `serialize::serialize_page`).
pub(crate) const ARMORED_HTML: &str = "<span typeof=\"mw:DisplaySpace\">&nbsp;</span>";

/// Elements whose content keeps its spaces (not descended into).
pub(crate) fn keeps_spaces(name: &str) -> bool {
    matches!(
        name,
        "pre" | "svg" | "script" | "style" | "xmp" | "iframe" | "noembed" | "noframes"
    )
}

#[cfg(test)]
mod tests {
    use super::{ARMORED_HTML, Node, armored_space, spaces};

    #[test]
    fn the_armored_html_is_the_span_serialized() {
        let mut html = String::new();
        super::super::serialize::serialize(&[Node::Element(armored_space())], &mut html);
        assert_eq!(html, ARMORED_HTML);
    }

    #[test]
    fn spaces_before_and_after_the_marks() {
        assert_eq!(spaces("plain text, no marks"), Vec::<usize>::new());
        assert_eq!(spaces("a : b ; c"), vec![1, 5]);
        assert_eq!(spaces("a :b"), Vec::<usize>::new());
        assert_eq!(spaces("50 %"), vec![2]);
        assert_eq!(spaces("« a »"), vec![2, 4]);
        assert_eq!(spaces("x« a"), Vec::<usize>::new());
        // Both sides of one space: found once.
        assert_eq!(spaces("« :"), vec![2]);
        // A continuation byte like a mark's last byte (`û` ends in 0xBB).
        assert_eq!(spaces("û û"), Vec::<usize>::new());
        assert_eq!(spaces(" ?"), vec![0]);
        // Marks in and across the blocks looked at together, and after them.
        let long = format!("{} ? {} ! ccc", "a".repeat(14), "b".repeat(40));
        assert_eq!(spaces(&long), vec![14, 57]);
        let edge = format!("{} ; b", "a".repeat(14));
        assert_eq!(spaces(&edge), vec![14]);
        let edge = format!("{} :x", "a".repeat(15));
        assert_eq!(spaces(&edge), Vec::<usize>::new());
        let edge = format!("{} : z", "a".repeat(15));
        assert_eq!(spaces(&edge), vec![15]);
    }
}
