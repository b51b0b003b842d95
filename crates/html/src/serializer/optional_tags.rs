//! Optional tags (HTML §13.1.2.4): which start and end tags may be left out,
//! decided from the items right before and after the tag, as html5lib's serializer
//! does (a token stream has no tree to consult).
//!
//! Where html5lib-tests' serializer fixtures and the current standard differ, the
//! fixtures win (they are this project's arbiter): `</p>` is also omitted before
//! `<dir>` and `<datagrid>`, and `</tfoot>` before `<tbody>`. Rules that need the
//! tree (a `p` end tag before the end of an `a` or `video` parent, a `colgroup` or
//! `tbody` start tag after an omitted end tag of the same kind) are applied
//! conservatively: such tags are kept.

use super::stream::Item;

/// What follows (or precedes) a tag, as far as the rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Neighbour<'a> {
    /// End of the stream.
    Nothing,
    /// An HTML start tag (`empty`: an empty tag).
    Start(&'a str, bool),
    /// An HTML end tag.
    End(&'a str),
    /// A tag in another namespace (start or end).
    ForeignTag,
    /// A comment.
    Comment,
    /// Character data starting with ASCII whitespace.
    Space,
    /// Other character data, or a DOCTYPE.
    Other,
}

fn neighbour<'a>(item: Option<&Item<'a>>) -> Neighbour<'a> {
    let Some(item) = item else {
        return Neighbour::Nothing;
    };
    if let Some((name, empty)) = item.html_start() {
        return Neighbour::Start(name, empty);
    }
    match *item {
        Item::End {
            ns: crate::dom_patch::Namespace::Html,
            name,
        } => Neighbour::End(name),
        Item::Start { .. } | Item::End { .. } => Neighbour::ForeignTag,
        Item::Comment(_) => Neighbour::Comment,
        Item::Space(_) => Neighbour::Space,
        _ => Neighbour::Other,
    }
}

/// True when the start tag `name` (without attributes) may be omitted.
pub(crate) fn start_tag_is_optional(
    name: &str,
    previous: Option<&Item<'_>>,
    next: Option<&Item<'_>>,
) -> bool {
    let next = neighbour(next);
    match name {
        // "if the first thing inside the html element is not a comment" (nor, for
        // the byte-exact round trip, whitespace).
        "html" => !matches!(next, Neighbour::Comment | Neighbour::Space),
        // "if the element is empty, or if the first thing inside it is an element".
        "head" => matches!(next, Neighbour::Start(..) | Neighbour::End("head")),
        // "... not ASCII whitespace or a comment, except if the first thing inside
        // the body element is a meta, noscript, link, script, style, or template".
        "body" => match next {
            Neighbour::Comment | Neighbour::Space => false,
            Neighbour::Start(tag, _) => !matches!(
                tag,
                "meta" | "noscript" | "link" | "script" | "style" | "template"
            ),
            _ => true,
        },
        // "if the first thing inside the colgroup element is a col element".
        "colgroup" => matches!(next, Neighbour::Start("col", _)),
        // "if the first thing inside the tbody element is a tr element, and if the
        // element is not immediately preceded by a tbody, thead, or tfoot element
        // whose end tag has been omitted" (kept after any such end tag).
        "tbody" => {
            matches!(next, Neighbour::Start("tr", false))
                && !matches!(
                    neighbour(previous),
                    Neighbour::End("tbody" | "thead" | "tfoot")
                )
        }
        _ => false,
    }
}

/// True when the end tag `name` may be omitted.
pub(crate) fn end_tag_is_optional(name: &str, next: Option<&Item<'_>>) -> bool {
    let next = neighbour(next);
    // "if there is no more content in the parent element".
    let parent_ends = matches!(next, Neighbour::End(_) | Neighbour::Nothing);
    let followed_by =
        |names: &[&str]| matches!(next, Neighbour::Start(tag, false) if names.contains(&tag));
    match name {
        "html" | "head" | "body" => !matches!(next, Neighbour::Comment | Neighbour::Space),
        "li" => followed_by(&["li"]) || parent_ends,
        "tr" => followed_by(&["tr"]) || parent_ends,
        "dt" => followed_by(&["dt", "dd"]),
        "dd" => followed_by(&["dt", "dd"]) || parent_ends,
        "optgroup" => {
            followed_by(&["optgroup"]) || matches!(next, Neighbour::Start("hr", _)) || parent_ends
        }
        "option" => {
            followed_by(&["option", "optgroup"])
                || matches!(next, Neighbour::Start("hr", _))
                || parent_ends
        }
        "rt" | "rp" => followed_by(&["rt", "rp"]) || parent_ends,
        "p" => matches!(next, Neighbour::Start(tag, _) if closes_p(tag)) || parent_ends,
        // "if the colgroup element is not immediately followed by ASCII whitespace
        // or a comment" — and not by another colgroup, whose start tag could then
        // not be told apart.
        "colgroup" => !matches!(
            next,
            Neighbour::Comment | Neighbour::Space | Neighbour::Start("colgroup", false)
        ),
        "thead" => followed_by(&["tbody", "tfoot"]),
        "tbody" => followed_by(&["tbody", "tfoot"]) || parent_ends,
        "tfoot" => followed_by(&["tbody"]) || parent_ends,
        "td" | "th" => followed_by(&["td", "th"]) || parent_ends,
        _ => false,
    }
}

/// The elements whose start tag ends an open `p` (the current standard's list,
/// plus `dir`, which the parser also treats so, and `datagrid`, from the 2008 list
/// html5lib-tests still use).
fn closes_p(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "details"
            | "dialog"
            | "dir"
            | "div"
            | "dl"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "search"
            | "section"
            | "table"
            | "ul"
            | "datagrid"
    )
}
