//! The DOM passes after tree building (Parsoid's DOM post-processors) work on a
//! small owned tree: [`Node`], built from the tree builder's patches
//! (`patch_tree.rs`),
//! changed by the passes (`pwrap.rs`), serialized as HTML (`serialize.rs`).

pub(crate) mod cite;
pub(crate) mod cleanup;
pub(crate) mod compound;
pub(crate) mod display_space;
pub(crate) mod encapsulate;
pub(crate) mod flat;
pub(crate) mod migrate_nls;
pub(crate) mod patch_tree;
pub(crate) mod pwrap;
pub(crate) mod serialize;
pub(crate) mod table_fixups;
pub(crate) mod trim;
pub(crate) mod value;

use std::borrow::Cow;

#[cfg(test)]
use tagloom_html::dom::{NodeKind, NodeRef};

/// The last two passes in one walk of the tree: Parsoid's empty-element
/// flag ([`cleanup::flag_element`]) on each element, then French spacing
/// ([`display_space::armor`]) on its children (not inside `pre` and the
/// like), before the children are visited. Each works on one element and
/// its subtree as the tree builder left it, so the two orders agree.
#[cfg(any(test, debug_assertions))]
pub(crate) fn flag_empty_and_display_space(nodes: &mut Vec<Node>) {
    last_passes(nodes, false);
}

/// A ref body's last three passes in one walk of its tree:
/// [`migrate_nls::migrate_at`] on each element first, then the two of
/// [`flag_empty_and_display_space`]. What `migrate_at` changes on an
/// element (its rightmost inline chain's trailing newlines, moved to its
/// end) is below the element, where the other two have not been yet, and
/// changes no emptiness (the chain's formatting elements are never empty
/// for [`cleanup::is_empty`], the moved text is whitespace), so each
/// element is flagged and armored as after a whole `migrate_nls` pass.
pub(crate) fn migrate_flag_and_display_space(nodes: &mut Vec<Node>) {
    last_passes(nodes, true);
}

fn last_passes(nodes: &mut Vec<Node>, migrate: bool) {
    display_space::armor(nodes);
    // (node, inside template output, spaces armored)
    let mut stack: Vec<(&mut Node, bool, bool)> =
        nodes.iter_mut().map(|n| (n, false, true)).collect();
    while let Some((node, in_tpl, spacing)) = stack.pop() {
        let Node::Element(e) = node else { continue };
        if migrate {
            migrate_nls::migrate_at(e);
        }
        let tpl = cleanup::flag_element(e, in_tpl);
        let spacing = spacing && !display_space::keeps_spaces(&e.name);
        if spacing {
            display_space::armor(&mut e.children);
        }
        // Only elements have work (texts were armored with their list).
        stack.extend(
            e.children
                .iter_mut()
                .filter(|c| matches!(c, Node::Element(_)))
                .map(|c| (c, tpl, spacing)),
        );
    }
}

/// A node of the owned tree. A text is a [`Value`]: static text for the
/// texts made from constants (the newline of a `Tok::Newline`, ≈ 33 K of
/// the corpus's ≈ 174 K text nodes) costs no allocation where made, none
/// where a following text joins it (one string made at their length, as
/// the joined text would have needed anyway) and no free where dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    Element(Element),
    Text(Value),
    Comment(String),
}

pub(crate) use value::Value;

/// An attribute: its name (static text for the names the tree builder knows)
/// and value (static text for the constant values the passes write).
pub(crate) type Attr = (Cow<'static, str>, Value);

/// An element: name, attributes in order, children. The name is static text
/// for every element the tree builder knows (no allocation per element).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Element {
    pub(crate) name: Cow<'static, str>,
    pub(crate) attrs: Vec<Attr>,
    pub(crate) children: Vec<Node>,
    /// Whether the marker passes need to look below it ([`Marked`]).
    pub(crate) marked: Marked,
}

/// Whether an element's descendants may hold what the transclusion passes
/// (`table_fixups`, `compound`, `encapsulate`) look for or change: a `meta`
/// (the markers), an element with a private `tl:` attribute, or a table, a
/// section of one or a row ([`Marked::concerns`]). Exact where the tree is
/// built ([`patch_tree`]); an element made or rebuilt later says
/// [`Marked::MAYBE`], and the passes move markers only among their
/// ancestors' children, so a `NONE` stays true. A hint: trees that differ
/// only in it are equal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Marked(bool);

impl Marked {
    /// Nothing below concerns the passes: they need not descend.
    pub(crate) const NONE: Marked = Marked(false);
    /// Something below may concern them.
    pub(crate) const MAYBE: Marked = Marked(true);

    pub(crate) fn maybe(self) -> bool {
        self.0
    }

    /// Whether `e` itself concerns the marker passes.
    pub(crate) fn concerns(e: &Element) -> bool {
        matches!(
            &*e.name,
            "meta" | "table" | "tbody" | "thead" | "tfoot" | "tr"
        ) || e.attrs.iter().any(|(k, _)| is_private(k))
    }
}

/// Whether `name` is one of the tokenizer's private attributes (`tl:…`),
/// which the DOM passes read and remove.
pub(crate) fn is_private(name: &str) -> bool {
    name.starts_with("tl:")
}

/// [`is_private`] of a static atom's name: the private names are one block
/// of tagloom-html's static atoms (`tl:call` to `tl:drop`), told by the
/// atom's index alone (a test checks the block against every static name).
#[inline]
pub(crate) fn is_private_atom(atom: tagloom_html::atom::Atom) -> bool {
    use tagloom_html::atom::{TL_CALL, TL_DROP};
    (TL_CALL.index()..=TL_DROP.index()).contains(&atom.index())
}

impl PartialEq for Marked {
    fn eq(&self, _: &Marked) -> bool {
        true
    }
}

impl Eq for Marked {}

impl Element {
    pub(crate) fn new(name: impl Into<Cow<'static, str>>) -> Element {
        Element {
            name: name.into(),
            attrs: Vec::new(),
            children: Vec::new(),
            marked: Marked::MAYBE,
        }
    }

    /// Whether the marker passes need to look at `e`'s descendants.
    pub(crate) fn marked_below(&self) -> bool {
        self.marked.maybe()
    }

    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn has_type(&self, ty: &str) -> bool {
        self.attr("typeof")
            .is_some_and(|t| t.split_whitespace().any(|w| w == ty))
    }
}

/// The children of `node` as owned nodes (iterative: the tree may be deep).
/// The render builds its tree with [`patch_tree`]; this reads a `DomStore`
/// (the patch tree's tests compare the two).
#[cfg(test)]
pub(crate) fn children_of(node: NodeRef<'_>) -> Vec<Node> {
    // (store node, index of the element in its parent's child list)
    let mut roots: Vec<Node> = Vec::new();
    // Stack of (element under construction, iterator position) built depth-first.
    let mut stack: Vec<(Element, Option<NodeRef<'_>>)> = Vec::new();
    let mut next = node.first_child();
    loop {
        match next {
            Some(child) => {
                let sibling = child.next_sibling();
                let made = match child.kind() {
                    NodeKind::Element(e) => {
                        let element = Element {
                            name: e.local_name().to_owned().into(),
                            attrs: e
                                .attrs()
                                .iter()
                                .map(|a| (a.name.to_string().into(), a.value.to_owned().into()))
                                .collect(),
                            children: Vec::new(),
                            marked: Marked::MAYBE,
                        };
                        stack.push((element, sibling));
                        next = child.first_child();
                        continue;
                    }
                    NodeKind::Text(t) => Some(Node::Text(t.to_owned().into())),
                    NodeKind::Comment(c) => Some(Node::Comment(c.to_owned())),
                    _ => None,
                };
                if let Some(n) = made {
                    match stack.last_mut() {
                        Some((parent, _)) => parent.children.push(n),
                        None => roots.push(n),
                    }
                }
                next = sibling;
            }
            None => {
                let Some((element, sibling)) = stack.pop() else {
                    break;
                };
                let n = Node::Element(element);
                match stack.last_mut() {
                    Some((parent, _)) => parent.children.push(n),
                    None => roots.push(n),
                }
                next = sibling;
            }
        }
    }
    roots
}

/// Small trees for the passes' unit tests.
#[cfg(test)]
pub(crate) mod test_nodes {
    use super::{Element, Node};

    /// An element without attributes holding `children`.
    pub(crate) fn el(name: &'static str, children: Vec<Node>) -> Node {
        let mut e = Element::new(name);
        e.children = children;
        Node::Element(e)
    }

    /// A text node.
    pub(crate) fn text(s: &str) -> Node {
        Node::Text(s.to_owned().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body's one walk does what `migrate_nls` and then the last two
    /// passes do.
    #[test]
    fn migrate_in_the_last_walk_is_the_passes_in_order() {
        use test_nodes::{el, text};
        let nodes = vec![
            el("li", vec![text("a "), el("b", vec![text("x :\n")])]),
            el("p", vec![el("i", vec![el("b", vec![text("\n")])])]),
            el("ul", vec![el("li", vec![el("b", vec![text(" \n")])])]),
            text("« y »"),
        ];
        let mut apart = nodes.clone();
        migrate_nls::migrate_trailing_nls(&mut apart);
        flag_empty_and_display_space(&mut apart);
        let mut one = nodes;
        migrate_flag_and_display_space(&mut one);
        assert_eq!(one, apart);
    }

    /// The attribute conversion tells a static name's privacy by its atom's
    /// index: exactly the private names are in the block.
    #[test]
    fn private_static_names_are_the_atom_block() {
        use tagloom_html::atom::Atom;
        let mut private = 0;
        for name in tagloom_html::atom::STATIC_NAMES {
            let Some(atom) = Atom::lookup_static(name.as_bytes()) else {
                panic!("{name} is no atom");
            };
            assert_eq!(is_private_atom(atom), is_private(name), "{name}");
            private += usize::from(is_private(name));
        }
        assert!(private > 0);
        assert!(is_private("tl:call"));
    }
}
