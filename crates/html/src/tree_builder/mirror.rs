//! The tree builder's lightweight mirror of the document it has emitted: just what
//! the algorithms read back (element names, namespaces, attributes of formatting
//! elements, parent and sibling links for foster parenting, text coalescing and the
//! adoption agency). Node ids are indexes into one arena. Patch keys are
//! monotonic and never reused: a node's key is `key_base + id` until the first
//! [compaction](compact), which keeps the nodes the builder may still read (in
//! their order, with their keys listed) and forgets the others; new nodes get
//! arithmetic keys after the listed ones.
//!
//! A formatting element's attributes are kept here unless the sink holds them
//! (the store sink: [`ElemInfo::attrs_in_sink`], read back through the
//! emitter; copied here with [`Mirror::keep_for`] before the store is handed
//! back).

use std::num::NonZeroU64;

use crate::atom::Atom;
use std::borrow::Cow;
use std::ops::Range;

use crate::dom_patch::{AttrNamespace, Namespace, PatchAttr, PatchKey};
use crate::seg_vec::SegVec;

use super::sink::ElementAttrs;

mod compact;

pub(crate) use compact::{Marks, Remap};

/// Index of a node in the mirror arena.
pub(crate) type NodeId = usize;

/// A stored link: a [`NodeId`] as `u32`, [`NO_LINK`] for none (keeps the node small).
type Link = u32;

/// The "no node" link.
const NO_LINK: Link = Link::MAX;

fn link(id: Option<NodeId>) -> Link {
    id.and_then(|id| Link::try_from(id).ok()).unwrap_or(NO_LINK)
}

fn unlink(l: Link) -> Option<NodeId> {
    (l != NO_LINK).then_some(l as NodeId)
}

/// What a mirrored node is.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Document,
    /// A template's contents (`DocumentFragment`).
    Fragment,
    Element(ElemInfo),
    Text,
    Other,
}

/// An element as the tree builder remembers it (16 bytes: what is rare, an
/// emitted name other than the atom's text or kept attributes, lives in the
/// mirror's side vector).
#[derive(Clone, Debug)]
pub(crate) struct ElemInfo {
    pub(crate) ns: Namespace,
    /// The token's (lowercased) tag name; SVG case fixes live only in the patch.
    pub(crate) name: Atom,
    /// 13.2.6.1: an HTML integration point (SVG `foreignObject`/`desc`/`title`, or
    /// MathML `annotation-xml` with an HTML `encoding`).
    pub(crate) html_integration_point: bool,
    /// A formatting element whose attributes the mirror does not keep: the
    /// sink holds them (the store sink, see [`Mirror::set_attrs_in_sink`]).
    pub(crate) attrs_in_sink: bool,
    /// For an HTML `template`: its contents fragment.
    contents: Link,
    /// An emitted name that is not the static atom's own text (SVG case fixes,
    /// dynamic names) and the kept attributes (formatting elements: clones and
    /// Noah's Ark), when there are any: an index into [`Mirror`]'s side vector
    /// (a link, not a box, keeps the record at 16 bytes, 4-aligned).
    extra: Link,
}

#[derive(Clone, Debug)]
struct ElemExtra {
    qual: Option<Cow<'static, str>>,
    /// The kept attributes: a range of [`Mirror`]'s `kept`.
    attrs: Range<usize>,
}

/// A kept attribute; its value is a range of [`Mirror`]'s `kept_text` (one buffer
/// for all kept values instead of an allocation per attribute).
#[derive(Clone, Debug)]
struct KeptAttr {
    ns: AttrNamespace,
    name: Cow<'static, str>,
    value: Range<usize>,
}

impl ElemInfo {
    /// For an HTML `template`: its contents fragment.
    pub(crate) fn contents(&self) -> Option<NodeId> {
        unlink(self.contents)
    }
}

/// One mirrored node with its links (40 bytes).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    parent: Link,
    first_child: Link,
    last_child: Link,
    prev: Link,
    next: Link,
    /// On the store path: the node's slot in the store, as the store sink
    /// reported it when the node was created ([`NO_LINK`] when unknown: made
    /// for patches, or copied by a compaction). Trusted only for the nodes
    /// created since the store was attached (see `TreeBuilder::slot`).
    slot: u32,
}

impl Node {
    pub(crate) fn parent(&self) -> Option<NodeId> {
        unlink(self.parent)
    }

    pub(crate) fn first_child(&self) -> Option<NodeId> {
        unlink(self.first_child)
    }

    pub(crate) fn last_child(&self) -> Option<NodeId> {
        unlink(self.last_child)
    }

    pub(crate) fn prev(&self) -> Option<NodeId> {
        unlink(self.prev)
    }

    pub(crate) fn next(&self) -> Option<NodeId> {
        unlink(self.next)
    }
}

/// The arena.
#[derive(Debug)]
pub(crate) struct Mirror {
    nodes: SegVec<Node>,
    /// The rare element data ([`ElemInfo`]'s `extra`).
    extras: Vec<ElemExtra>,
    /// The kept attributes of all elements, in creation order; forgetting the
    /// last element's truncates them (formatting elements mostly come and go in
    /// stack order, so this stays about as long as the open formatting elements').
    kept: Vec<KeptAttr>,
    /// The values of `kept`, one after the other.
    kept_text: String,
    /// The key of the first node (keys below it are not this arena's).
    key_base: u64,
    /// The keys of nodes `0..keys.len()`, ascending: the nodes the last
    /// compaction kept. Empty until then.
    keys: Vec<u64>,
    /// The key of node `keys.len()`; each later node's is one more.
    tail_base: u64,
    /// Nodes dropped by [`release`](Self::release) (their keys stay used).
    released: usize,
}

/// What the mirror knows of a patch key (see [`Mirror::lookup`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// The node of the key.
    Held(NodeId),
    /// This parse made the node and a compaction forgot it (closed, never read
    /// again).
    Forgotten,
    /// Not a key of this parse's nodes, or the arena was released after end of
    /// file.
    Unknown,
}

impl Mirror {
    /// An empty arena whose first node gets key `key_base` (at least 1).
    pub(crate) fn new(key_base: u64) -> Mirror {
        Mirror {
            nodes: SegVec::default(),
            extras: Vec::new(),
            kept: Vec::new(),
            kept_text: String::new(),
            key_base: key_base.max(1),
            keys: Vec::new(),
            tail_base: key_base.max(1),
            released: 0,
        }
    }

    /// The number of nodes held.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Adds a parentless node.
    pub(crate) fn add(&mut self, kind: Kind) -> NodeId {
        self.nodes.push(Node {
            kind,
            parent: NO_LINK,
            first_child: NO_LINK,
            last_child: NO_LINK,
            prev: NO_LINK,
            next: NO_LINK,
            slot: NO_LINK,
        });
        self.nodes.len() - 1
    }

    /// Adds a node as the last child of `parent`, with its store slot (one
    /// look at each node involved: [`add`](Self::add), [`append`](Self::append)
    /// and [`set_slot`](Self::set_slot) in one, for the store path's text).
    #[inline(always)]
    pub(crate) fn add_appended(&mut self, kind: Kind, parent: NodeId, slot: u32) -> NodeId {
        let id = self.nodes.len();
        let child_link = link(Some(id));
        let last = match self.nodes.get_mut(parent) {
            Some(p) => {
                let last = std::mem::replace(&mut p.last_child, child_link);
                if last == NO_LINK {
                    p.first_child = child_link;
                }
                last
            }
            None => {
                // No such parent: a parentless node, as `append` would leave it.
                let id = self.add(kind);
                self.set_slot(id, slot);
                return id;
            }
        };
        if let Some(l) = unlink(last).and_then(|l| self.nodes.get_mut(l)) {
            l.next = child_link;
        }
        self.nodes.push(Node {
            kind,
            parent: link(Some(parent)),
            first_child: NO_LINK,
            last_child: NO_LINK,
            prev: last,
            next: NO_LINK,
            slot,
        });
        id
    }

    /// Records the store slot of `id` (see [`Node`]'s `slot`).
    #[inline]
    pub(crate) fn set_slot(&mut self, id: NodeId, slot: u32) {
        if let Some(n) = self.nodes.get_mut(id) {
            n.slot = slot;
        }
    }

    /// The recorded store slot of `id` ([`u32::MAX`] when unknown).
    #[inline]
    pub(crate) fn slot(&self, id: NodeId) -> u32 {
        self.nodes.get(id).map_or(NO_LINK, |n| n.slot)
    }

    /// The key of `id` (non-zero by construction: `key_base >= 1`).
    #[inline]
    pub(crate) fn key(&self, id: NodeId) -> PatchKey {
        let n = if id >= self.keys.len() {
            // The common case (no compaction yet: `keys` is empty).
            self.tail_base.saturating_add((id - self.keys.len()) as u64)
        } else {
            self.keys.get(id).copied().unwrap_or(u64::MAX)
        };
        PatchKey(NonZeroU64::new(n).unwrap_or(NonZeroU64::MAX))
    }

    /// The key the next node will get.
    pub(crate) fn next_key(&self) -> u64 {
        let tail = (self.released + self.nodes.len()).saturating_sub(self.keys.len());
        self.tail_base.saturating_add(tail as u64)
    }

    /// Frees every node; keys still answer (`key`, `next_key`), lookups find
    /// nothing. For after end of file.
    pub(crate) fn release(&mut self) {
        self.released += self.nodes.len();
        self.nodes = SegVec::default();
        self.extras = Vec::new();
        self.kept = Vec::new();
        self.kept_text = String::new();
    }

    /// Adds a parentless element named `qual` as emitted; `attrs` are the
    /// attributes to keep (copied into the mirror's buffers).
    pub(crate) fn add_element(
        &mut self,
        ns: Namespace,
        name: Atom,
        qual: Cow<'static, str>,
        attrs: ElementAttrs<'_>,
        html_integration_point: bool,
    ) -> NodeId {
        let kind = self.element_kind(ns, name, qual, attrs, html_integration_point);
        self.add(kind)
    }

    /// [`add_element`](Self::add_element), added as the last child of
    /// `parent` with its store slot (as [`add_appended`](Self::add_appended)).
    #[inline]
    pub(crate) fn add_element_appended(
        &mut self,
        element: (Namespace, Atom, Cow<'static, str>, bool),
        attrs: ElementAttrs<'_>,
        parent: NodeId,
        slot: u32,
    ) -> NodeId {
        let (ns, name, qual, html_integration_point) = element;
        let kind = self.element_kind(ns, name, qual, attrs, html_integration_point);
        self.add_appended(kind, parent, slot)
    }

    /// An element's record; `attrs` are the attributes to keep (copied into
    /// the mirror's buffers).
    #[inline(always)]
    fn element_kind(
        &mut self,
        ns: Namespace,
        name: Atom,
        qual: Cow<'static, str>,
        attrs: ElementAttrs<'_>,
        html_integration_point: bool,
    ) -> Kind {
        // Most emitted names are the static atom's text: store only the others.
        // The common case, the atom's own static text, is found by address.
        let is_atom_text = match (&qual, name.static_name()) {
            (Cow::Borrowed(q), Some(s)) => std::ptr::eq(*q, s) || *q == s,
            (q, s) => s == Some(&**q),
        };
        let qual = (!is_atom_text).then_some(qual);
        // Most elements keep no attribute: no call then.
        let attrs = if attrs.is_empty() {
            0..0
        } else {
            self.keep_attrs(attrs)
        };
        let extra = if qual.is_some() || !attrs.is_empty() {
            self.extras.push(ElemExtra { qual, attrs });
            link(Some(self.extras.len() - 1))
        } else {
            NO_LINK
        };
        Kind::Element(ElemInfo {
            ns,
            name,
            html_integration_point,
            attrs_in_sink: false,
            contents: NO_LINK,
            extra,
        })
    }

    /// Copies `attrs` to the end of the kept buffers; their range in `kept`.
    fn keep_attrs(&mut self, attrs: ElementAttrs<'_>) -> Range<usize> {
        let first = self.kept.len();
        for attr in attrs.iter() {
            let start = self.kept_text.len();
            self.kept_text.push_str(attr.value);
            self.kept.push(KeptAttr {
                ns: attr.ns,
                name: attr.name.to_cow(),
                value: start..self.kept_text.len(),
            });
        }
        first..self.kept.len()
    }

    /// The node of `key`: held, made by this arena and forgotten since, or
    /// unknown.
    pub(crate) fn lookup(&self, key: PatchKey) -> Lookup {
        let k = key.0.get();
        if self.released > 0 || k < self.key_base || k >= self.next_key() {
            return Lookup::Unknown;
        }
        if let Some(tail) = k.checked_sub(self.tail_base) {
            return usize::try_from(tail)
                .ok()
                .map(|t| self.keys.len() + t)
                .filter(|&id| id < self.nodes.len())
                .map_or(Lookup::Unknown, Lookup::Held);
        }
        match self.keys.binary_search(&k) {
            Ok(id) => Lookup::Held(id),
            Err(_) => Lookup::Forgotten,
        }
    }

    /// Sets (`Some`) or removes (`None`) the kept attribute `name` of element
    /// `id`: a script changed it in the DOM. The element's new set is appended
    /// to `kept` (the old range is left behind until the buffers are released).
    pub(crate) fn set_kept_attr(
        &mut self,
        id: NodeId,
        ns: AttrNamespace,
        name: &str,
        value: Option<&str>,
    ) {
        let Some(Node {
            kind: Kind::Element(e),
            ..
        }) = self.nodes.get(id)
        else {
            return;
        };
        let mut attrs: Vec<PatchAttr> = self
            .attrs(e)
            .into_iter()
            .filter(|a| !(a.ns == ns && a.name == name))
            .collect();
        if let Some(value) = value {
            attrs.push(PatchAttr {
                ns,
                name: Cow::Owned(name.to_owned()),
                value: value.to_owned(),
            });
        }
        self.keep_for(id, ElementAttrs::list(&attrs));
    }

    /// Marks element `id` as one whose attributes the sink keeps (the mirror
    /// keeps none for it).
    pub(crate) fn set_attrs_in_sink(&mut self, id: NodeId) {
        if let Some(Node {
            kind: Kind::Element(e),
            ..
        }) = self.nodes.get_mut(id)
        {
            e.attrs_in_sink = true;
        }
    }

    /// Keeps `attrs` as the attributes of element `id` (replacing what was
    /// kept; the element's attributes are the mirror's from now on).
    pub(crate) fn keep_for(&mut self, id: NodeId, attrs: ElementAttrs<'_>) {
        if let Some(Node {
            kind: Kind::Element(e),
            ..
        }) = self.nodes.get_mut(id)
        {
            e.attrs_in_sink = false;
        } else {
            return;
        }
        let range = self.keep_attrs(attrs);
        let extra = match self.extra_index(id) {
            Some(i) => i,
            None => {
                self.extras.push(ElemExtra {
                    qual: None,
                    attrs: 0..0,
                });
                let i = self.extras.len() - 1;
                if let Some(Node {
                    kind: Kind::Element(e),
                    ..
                }) = self.nodes.get_mut(id)
                {
                    e.extra = link(Some(i));
                }
                i
            }
        };
        if let Some(x) = self.extras.get_mut(extra) {
            x.attrs = range;
        }
    }

    fn extra_index(&self, id: NodeId) -> Option<usize> {
        match self.nodes.get(id) {
            Some(Node {
                kind: Kind::Element(e),
                ..
            }) => unlink(e.extra),
            _ => None,
        }
    }

    /// Frees the kept attributes of `id`.
    pub(crate) fn forget_attrs(&mut self, id: NodeId) {
        if let Some(Node {
            kind: Kind::Element(e),
            ..
        }) = self.nodes.get(id)
            && let Some(x) = unlink(e.extra).and_then(|i| self.extras.get_mut(i))
        {
            let range = std::mem::replace(&mut x.attrs, 0..0);
            if !range.is_empty() && range.end == self.kept.len() {
                if let Some(first) = self.kept.get(range.start) {
                    self.kept_text.truncate(first.value.start);
                }
                self.kept.truncate(range.start);
            }
        }
    }

    fn extra(&self, e: &ElemInfo) -> Option<&ElemExtra> {
        unlink(e.extra).and_then(|i| self.extras.get(i))
    }

    /// The name of `e` as emitted (for clones made by the adoption agency).
    pub(crate) fn qual(&self, e: &ElemInfo) -> Cow<'static, str> {
        match self.extra(e).and_then(|x| x.qual.as_ref()) {
            Some(qual) => qual.clone(),
            None => Cow::Borrowed(e.name.static_name().unwrap_or("")),
        }
    }

    /// The kept attributes of `e` as (namespace, name, value) (those of formatting
    /// elements; none for others).
    fn kept_of<'a>(
        &'a self,
        e: &ElemInfo,
    ) -> impl Iterator<Item = (AttrNamespace, &'a str, &'a str)> + 'a {
        let range = self.extra(e).map_or(0..0, |x| x.attrs.clone());
        self.kept.get(range).unwrap_or(&[]).iter().map(|a| {
            let value = self.kept_text.get(a.value.clone()).unwrap_or("");
            (a.ns, &*a.name, value)
        })
    }

    /// A copy of the kept attributes of `e` (for a clone of it).
    pub(crate) fn attrs(&self, e: &ElemInfo) -> Vec<PatchAttr> {
        let range = self.extra(e).map_or(0..0, |x| x.attrs.clone());
        self.kept
            .get(range)
            .unwrap_or(&[])
            .iter()
            .map(|a| PatchAttr {
                ns: a.ns,
                name: a.name.clone(),
                value: self.kept_text.get(a.value.clone()).unwrap_or("").to_owned(),
            })
            .collect()
    }

    /// Whether the kept attributes of `a` and `b` are equal as sets (same
    /// names, namespaces and values; the Noah's Ark clause).
    pub(crate) fn same_attrs(&self, a: &ElemInfo, b: &ElemInfo) -> bool {
        let len = |e: &ElemInfo| self.extra(e).map_or(0, |x| x.attrs.len());
        len(a) == len(b) && self.kept_of(a).all(|x| self.kept_of(b).any(|y| x == y))
    }

    pub(crate) fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// The element data of `id`, if it is an element.
    pub(crate) fn elem(&self, id: NodeId) -> Option<&ElemInfo> {
        match self.nodes.get(id).map(|n| &n.kind) {
            Some(Kind::Element(e)) => Some(e),
            _ => None,
        }
    }

    pub(crate) fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes.get(id).and_then(Node::parent)
    }

    pub(crate) fn is_text(&self, id: NodeId) -> bool {
        matches!(self.nodes.get(id).map(|n| &n.kind), Some(Kind::Text))
    }

    /// Links `child` (parentless) as the last child of `parent`.
    pub(crate) fn append(&mut self, parent: NodeId, child: NodeId) {
        // Each of the three nodes is looked up once (this runs for every node).
        let child_link = link(Some(child));
        let Some(p) = self.nodes.get_mut(parent) else {
            return;
        };
        let last = std::mem::replace(&mut p.last_child, child_link);
        if last == NO_LINK {
            p.first_child = child_link;
        }
        if let Some(c) = self.nodes.get_mut(child) {
            c.parent = link(Some(parent));
            c.prev = last;
            c.next = NO_LINK;
        }
        if let Some(l) = unlink(last).and_then(|l| self.nodes.get_mut(l)) {
            l.next = child_link;
        }
    }

    /// Links `child` (parentless) into `parent` just before `before`.
    pub(crate) fn insert_before(&mut self, parent: NodeId, child: NodeId, before: NodeId) {
        let prev = self.nodes.get(before).map_or(NO_LINK, |b| b.prev);
        let child_link = link(Some(child));
        if let Some(c) = self.nodes.get_mut(child) {
            c.parent = link(Some(parent));
            c.prev = prev;
            c.next = link(Some(before));
        }
        if let Some(b) = self.nodes.get_mut(before) {
            b.prev = child_link;
        }
        match unlink(prev) {
            Some(p) => {
                if let Some(p) = self.nodes.get_mut(p) {
                    p.next = child_link;
                }
            }
            None => {
                if let Some(p) = self.nodes.get_mut(parent) {
                    p.first_child = child_link;
                }
            }
        }
    }

    /// Unlinks `id` from its parent (no-op without one).
    pub(crate) fn detach(&mut self, id: NodeId) {
        let Some(node) = self.nodes.get(id) else {
            return;
        };
        let (parent, prev, next) = (node.parent, node.prev, node.next);
        let Some(parent) = unlink(parent) else { return };
        match unlink(prev) {
            Some(p) => {
                if let Some(p) = self.nodes.get_mut(p) {
                    p.next = next;
                }
            }
            None => {
                if let Some(p) = self.nodes.get_mut(parent) {
                    p.first_child = next;
                }
            }
        }
        match unlink(next) {
            Some(n) => {
                if let Some(n) = self.nodes.get_mut(n) {
                    n.prev = prev;
                }
            }
            None => {
                if let Some(p) = self.nodes.get_mut(parent) {
                    p.last_child = prev;
                }
            }
        }
        if let Some(node) = self.nodes.get_mut(id) {
            node.parent = NO_LINK;
            node.prev = NO_LINK;
            node.next = NO_LINK;
        }
    }

    /// Sizes the first segment of an empty arena for about `nodes` nodes (the
    /// arena grows a segment at a time, so later segments are never reserved).
    pub(crate) fn reserve(&mut self, nodes: usize) {
        if self.nodes.is_empty() {
            self.nodes = SegVec::with_first_segment(nodes);
        }
    }
}

impl Mirror {
    /// Records the contents fragment of a template element.
    pub(crate) fn set_template_contents(&mut self, template: NodeId, contents: NodeId) {
        if let Some(Node {
            kind: Kind::Element(e),
            ..
        }) = self.nodes.get_mut(template)
        {
            e.contents = link(Some(contents));
        }
    }
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn a_mirror_node_stays_small() {
        // The mirror lives as long as the parse: every byte here is paid per node.
        assert!(std::mem::size_of::<super::Node>() <= 40);
    }
}

#[cfg(test)]
mod add_appended_tests {
    use super::{Kind, Mirror};

    fn links(m: &Mirror, id: usize) -> (Option<usize>, Option<usize>, Option<usize>, u32) {
        let n = m.get(id).unwrap();
        (n.parent(), n.prev(), n.next(), m.slot(id))
    }

    #[test]
    fn adding_appended_links_as_add_then_append() {
        let (mut a, mut b) = (Mirror::new(1), Mirror::new(1));
        for m in [&mut a, &mut b] {
            m.add(Kind::Document);
            m.add(Kind::Other);
        }
        // Into an empty parent, then after a sibling.
        for slot in [7, 8] {
            let x = a.add_appended(Kind::Text, 1, slot);
            let y = b.add(Kind::Text);
            b.append(1, y);
            b.set_slot(y, slot);
            assert_eq!(x, y);
        }
        for id in 0..a.len() {
            assert_eq!(links(&a, id), links(&b, id));
        }
        let parent = a.get(1).unwrap();
        assert_eq!(
            (parent.first_child(), parent.last_child()),
            (Some(2), Some(3))
        );
        // A parent that is not there: a parentless node, as `append` leaves it.
        let z = a.add_appended(Kind::Text, 99, 9);
        assert_eq!(links(&a, z), (None, None, None, 9));
    }
}

#[cfg(test)]
mod kept_tests {
    use super::{Kind, Mirror};
    use crate::atom;
    use crate::dom_patch::{Namespace, PatchAttr};
    use crate::tree_builder::sink::ElementAttrs;

    fn elem(mirror: &Mirror, id: usize) -> super::ElemInfo {
        match mirror.get(id).map(|n| &n.kind) {
            Some(Kind::Element(e)) => e.clone(),
            _ => panic!("not an element"),
        }
    }

    #[test]
    fn kept_attributes_compare_as_sets_and_forgetting_the_last_frees_them() {
        let mut mirror = Mirror::new(1);
        let ab = [PatchAttr::new("a", "1"), PatchAttr::new("b", "2")];
        let ba = [PatchAttr::new("b", "2"), PatchAttr::new("a", "1")];
        let first = mirror.add_element(
            Namespace::Html,
            atom::B,
            "b".into(),
            ElementAttrs::list(&ab),
            false,
        );
        let second = mirror.add_element(
            Namespace::Html,
            atom::B,
            "b".into(),
            ElementAttrs::list(&ba),
            false,
        );
        let other = mirror.add_element(
            Namespace::Html,
            atom::B,
            "b".into(),
            ElementAttrs::list(&ab[..1]),
            false,
        );
        let (e1, e2, e3) = (
            elem(&mirror, first),
            elem(&mirror, second),
            elem(&mirror, other),
        );
        assert!(mirror.same_attrs(&e1, &e2));
        assert!(!mirror.same_attrs(&e1, &e3));
        assert_eq!(mirror.attrs(&e2), ba.to_vec());
        assert_eq!(mirror.kept_text, "12211");
        // The last element's attributes go at once; an earlier one's stay in the
        // buffers (unreachable) until the arena is released.
        mirror.forget_attrs(other);
        assert_eq!(mirror.kept_text, "1221");
        mirror.forget_attrs(first);
        assert_eq!(mirror.kept.len(), 4);
        assert!(mirror.attrs(&elem(&mirror, first)).is_empty());
        assert_eq!(mirror.attrs(&elem(&mirror, second)), ba.to_vec());
        mirror.forget_attrs(second);
        assert_eq!(mirror.kept_text, "12");
    }
}
