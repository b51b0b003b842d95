//! The element record of the store and the read-only views over it:
//! [`Element`], its attribute list [`Attrs`] and one [`Attr`].
//!
//! A record owns nothing that needs freeing: its name is a static atom or a
//! range of the store's attribute strings, its attributes a range of the
//! store's attribute table (see `attr_arena.rs`). Dropping a store therefore
//! frees a few large chunks, not one allocation per element and per value.

use crate::dom_patch::{AttrNamespace, Namespace, PatchAttr};

use super::attr_arena::{AttrArena, AttrRange, AttrRec, Name};
use super::node::Slot;
use super::store::DomStore;

/// One element of the store's element table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ElementRec {
    pub(crate) name: Name,
    pub(crate) attrs: AttrRange,
    /// The template contents fragment (HTML `template` only), else [`NONE`](super::NONE).
    pub(crate) contents: Slot,
    pub(crate) ns: Namespace,
}

/// An element's name, namespace and attributes: a view into its
/// [`DomStore`]. Cheap to copy.
///
/// ```
/// use tagloom_html::{ParseConfig, parse_document};
///
/// let store = parse_document(b"<p id=a class=b>x", &ParseConfig::default())?;
/// let html = store.document().unwrap().first_child().unwrap();
/// let p = html.last_child().unwrap().first_child().unwrap();
/// let p = p.as_element().unwrap();
/// assert!(p.is_html("p"));
/// assert_eq!(p.attr("class"), Some("b"));
/// let names: Vec<&str> = p.attrs().iter().map(|a| a.name).collect();
/// assert_eq!(names, ["id", "class"]);
/// # Ok::<(), tagloom_html::ParseFailure>(())
/// ```
#[derive(Clone, Copy)]
pub struct Element<'a> {
    rec: &'a ElementRec,
    arena: &'a AttrArena,
}

impl<'a> Element<'a> {
    #[inline]
    pub(crate) fn new(rec: &'a ElementRec, store: &'a DomStore) -> Element<'a> {
        Element {
            rec,
            arena: &store.attrs,
        }
    }

    /// The element's namespace.
    #[inline]
    pub fn ns(&self) -> Namespace {
        self.rec.ns
    }

    /// The local name (lowercase for HTML, case-adjusted for SVG).
    #[inline]
    pub fn local_name(&self) -> &'a str {
        self.arena.name(self.rec.name)
    }

    /// The attributes in the order they were added (source order, then any
    /// `AddAttributes` additions).
    #[inline]
    pub fn attrs(&self) -> Attrs<'a> {
        Attrs {
            recs: self.arena.get(self.rec.attrs),
            arena: self.arena,
        }
    }

    /// The value of the no-namespace attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&'a str> {
        self.attrs().get(name)
    }

    /// True for an element in the HTML namespace with local name `name`.
    #[inline]
    pub fn is_html(&self, name: &str) -> bool {
        self.rec.ns == Namespace::Html && self.local_name() == name
    }

    /// The template contents fragment's slot, or [`NONE`](super::NONE).
    #[inline]
    pub(crate) fn contents(&self) -> Slot {
        self.rec.contents
    }
}

impl PartialEq for Element<'_> {
    /// Same namespace, name and attributes (in order).
    fn eq(&self, other: &Self) -> bool {
        self.ns() == other.ns()
            && self.local_name() == other.local_name()
            && self.attrs() == other.attrs()
    }
}

impl Eq for Element<'_> {}

impl std::fmt::Debug for Element<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Element")
            .field("ns", &self.ns())
            .field("name", &self.local_name())
            .field("attrs", &self.attrs())
            .finish()
    }
}

/// An element's attributes, in order: a view into the store. Cheap to copy.
#[derive(Clone, Copy)]
pub struct Attrs<'a> {
    recs: &'a [AttrRec],
    arena: &'a AttrArena,
}

impl<'a> Attrs<'a> {
    /// How many there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// The attributes in order.
    #[inline]
    pub fn iter(&self) -> AttrsIter<'a> {
        AttrsIter {
            recs: self.recs.iter(),
            arena: self.arena,
        }
    }

    /// The attribute at `index` (source order), if there is one.
    #[inline]
    pub fn at(&self, index: usize) -> Option<Attr<'a>> {
        self.recs.get(index).map(|r| attr(self.arena, r))
    }

    /// The first attribute.
    pub fn first(&self) -> Option<Attr<'a>> {
        self.at(0)
    }

    /// The value of the no-namespace attribute `name`, if present.
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.get_ns(AttrNamespace::None, name)
    }

    /// The value of attribute `name` in namespace `ns`, if present.
    pub fn get_ns(&self, ns: AttrNamespace, name: &str) -> Option<&'a str> {
        self.iter()
            .find(|a| a.ns == ns && a.name == name)
            .map(|a| a.value)
    }

    /// Owned copies, as a patch carries them.
    pub fn to_vec(&self) -> Vec<PatchAttr> {
        self.arena.to_patch_attrs(self.recs)
    }
}

impl PartialEq for Attrs<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Attrs<'_> {}

impl std::fmt::Debug for Attrs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for Attrs<'a> {
    type Item = Attr<'a>;
    type IntoIter = AttrsIter<'a>;

    fn into_iter(self) -> AttrsIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &Attrs<'a> {
    type Item = Attr<'a>;
    type IntoIter = AttrsIter<'a>;

    fn into_iter(self) -> AttrsIter<'a> {
        self.iter()
    }
}

/// One attribute of an [`Element`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attr<'a> {
    /// Namespace.
    pub ns: AttrNamespace,
    /// Local name.
    pub name: &'a str,
    /// Value.
    pub value: &'a str,
}

impl Attr<'_> {
    /// An owned copy, as a patch carries it.
    pub fn to_patch_attr(self) -> PatchAttr {
        PatchAttr {
            ns: self.ns,
            name: self.name.to_owned().into(),
            value: self.value.to_owned(),
        }
    }
}

#[inline]
fn attr<'a>(arena: &'a AttrArena, r: &AttrRec) -> Attr<'a> {
    Attr {
        ns: r.ns,
        name: arena.name(r.name),
        value: arena.text(r.value),
    }
}

/// The iterator of [`Attrs::iter`].
#[derive(Clone, Debug)]
pub struct AttrsIter<'a> {
    recs: std::slice::Iter<'a, AttrRec>,
    arena: &'a AttrArena,
}

impl<'a> Iterator for AttrsIter<'a> {
    type Item = Attr<'a>;

    #[inline]
    fn next(&mut self) -> Option<Attr<'a>> {
        self.recs.next().map(|r| attr(self.arena, r))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.recs.size_hint()
    }
}

impl DoubleEndedIterator for AttrsIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.recs.next_back().map(|r| attr(self.arena, r))
    }
}

impl ExactSizeIterator for AttrsIter<'_> {}

#[cfg(test)]
mod tests {
    #[test]
    fn element_and_attribute_records_need_no_drop() {
        // Dropping a store frees the arenas' chunks, never record by record.
        assert!(!std::mem::needs_drop::<super::ElementRec>());
        assert!(!std::mem::needs_drop::<super::AttrRec>());
        assert!(std::mem::size_of::<super::ElementRec>() <= 48);
    }
}
