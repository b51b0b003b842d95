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

/// The pairs of bytes looked at together: most text has no mark beside a
/// space, and a block without one is passed over by one test.
const BLOCK: usize = 16;

/// Whether the pair of bytes `x`, `y` (one after the other) can hold an
/// armored space: a space then the first byte of `?:;!%»›`, or the last byte
/// of `«‹` then a space. No branch, so the compiler tests many pairs per
/// instruction in [`block_has_pair`].
#[inline(always)]
fn pair(x: u8, y: u8) -> u8 {
    let before = u8::from(y == b'?')
        | u8::from(y == b':')
        | u8::from(y == b';')
        | u8::from(y == b'!')
        | u8::from(y == b'%')
        | u8::from(y == 0xC2)
        | u8::from(y == 0xE2);
    let after = u8::from(x == 0xAB) | u8::from(x == 0xB9);
    (u8::from(x == b' ') & before) | (after & u8::from(y == b' '))
}

/// Whether one of the [`BLOCK`] pairs starting in `window` (its bytes `j`
/// and `j + 1`) is a [`pair`].
fn block_has_pair(window: &[u8; BLOCK + 1]) -> bool {
    let (Some(xs), Some(ys)) = (window.first_chunk::<BLOCK>(), window.last_chunk::<BLOCK>()) else {
        return false;
    };
    let mut any = 0u8;
    for (&x, &y) in xs.iter().zip(ys) {
        any |= pair(x, y);
    }
    any != 0
}

/// Whether [`spaces`] can find anything in `text`: short text (most between
/// elements: a newline, a space) is told by its mark bytes, longer text by
/// the pair test, both inline in the caller (no call for the many texts
/// without a space to armor).
#[inline(always)]
pub(crate) fn may_armor(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() < 8 {
        return b.len() >= 2 && b.iter().any(|&x| is_mark(x));
    }
    let mut found = false;
    blocks_with_pairs(b, |_, _| {
        found = true;
        true
    });
    found
}

/// The byte offsets of the spaces to armor in `text`, in order: found from
/// the pairs of a space and a mark's byte, most text having none.
pub(crate) fn spaces(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    blocks_with_pairs(text.as_bytes(), |from, to| {
        pairs_in(text, from, to, &mut out);
        false
    });
    // A space after `«` is found from both its sides, one between `«` and
    // `:` from three pairs: one after the other.
    if out.len() > 1 {
        out.dedup();
    }
    out
}

/// Calls `hit(from, to)` for each block of pairs starting in `from..to`
/// that the block test says may hold a [`pair`], in order, until it returns
/// true. Text of more than a block is looked at a block at a time, its last
/// block overlapping the one before (`from` then starts after the pairs
/// already looked at); shorter text is copied into a zeroed block.
#[inline(always)]
fn blocks_with_pairs(b: &[u8], mut hit: impl FnMut(usize, usize) -> bool) {
    if b.len() < 2 {
        return;
    }
    if b.len() <= BLOCK {
        let mut window = [0u8; BLOCK + 1];
        // From 8 bytes (most text here: shorter text the serializer tells
        // by [`may_armor`]): its first and last 8, overlapping, by two
        // word copies rather than a call.
        if let (Some(head), Some(tail)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
            if let Some(to) = window.first_chunk_mut::<8>() {
                *to = *head;
            }
            if let Some(to) = window
                .get_mut(b.len() - 8..)
                .and_then(|w| w.first_chunk_mut::<8>())
            {
                *to = *tail;
            }
        } else if let Some(to) = window.get_mut(..b.len()) {
            to.copy_from_slice(b);
        }
        if block_has_pair(&window) {
            hit(0, b.len() - 1);
        }
        return;
    }
    // Pairs from `from` on are still to look at.
    let mut from = 0;
    while let Some(window) = b.get(from..).and_then(|r| r.first_chunk::<{ BLOCK + 1 }>()) {
        if block_has_pair(window) && hit(from, from + BLOCK) {
            return;
        }
        from += BLOCK;
    }
    // The last pairs: the block ending at the text's end.
    let last = b.len() - BLOCK - 1;
    if from < b.len() - 1
        && let Some(window) = b.get(last..).and_then(|r| r.first_chunk::<{ BLOCK + 1 }>())
        && block_has_pair(window)
    {
        hit(from, b.len() - 1);
    }
}

/// The spaces the pairs starting in `from..to` armor, into `out` (in order).
fn pairs_in(text: &str, from: usize, to: usize, out: &mut Vec<usize>) {
    let b = text.as_bytes();
    for p in from..to {
        let (Some(&x), Some(&y)) = (b.get(p), b.get(p + 1)) else {
            return;
        };
        if pair(x, y) == 0 {
            continue;
        }
        // The mark's last byte: after the space, or at `p`.
        let last = match (x, y) {
            (b' ', 0xC2) => p + 2,
            (b' ', 0xE2) => p + 3,
            (b' ', _) => p + 1,
            _ => p,
        };
        armored_at(text, last, out);
    }
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
                out.push(Node::Text(
                    text.get(from..p).unwrap_or("").to_owned().into(),
                ));
            }
            out.push(Node::Element(armored_space()));
            from = p + 1;
        }
        if from < text.len() {
            out.push(Node::Text(text.get(from..).unwrap_or("").to_owned().into()));
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
    use super::{ARMORED_HTML, Node, armored_at, armored_space, spaces};

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

    /// The spaces of `t` from every byte, one by one.
    fn slow(t: &str) -> Vec<usize> {
        let mut out = Vec::new();
        for i in 0..t.len() {
            armored_at(t, i, &mut out);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn marks_across_blocks_and_in_the_last_overlapping_block() {
        for n in 0..40 {
            let a = "a".repeat(n);
            for text in [
                format!("{a} » x {a} › y"),
                format!("{a} « b ‹ {a}"),
                format!("{a} !"),
                format!("{a}« :"),
                format!("{a} « : {a}"),
            ] {
                let found = spaces(&text);
                assert!(!found.is_empty(), "{text:?}");
                assert_eq!(found, slow(&text), "{text:?}");
            }
        }
        let text = "x : « y » ; ‹ z › ? w ! 5 % «: a b û û";
        for from in 0..text.len() {
            let Some(t) = text.get(from..) else { continue };
            assert_eq!(spaces(t), slow(t), "{t:?}");
        }
    }
}
