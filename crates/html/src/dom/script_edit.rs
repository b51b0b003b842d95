//! Changes a script makes to the document outside the patch stream: the
//! embedder's DOM is the store, so `setAttribute` and `element.id = …` change
//! it directly (and are reported to the tree builder through
//! [`Html5ParseSession::dom_changed`](crate::session::Html5ParseSession::dom_changed)).

use crate::dom_patch::{AttrNamespace, PatchKey};
use crate::tree_builder::{AttrName, AttrRef};

use super::attr_arena::{AttrArena, AttrRange};
use super::node::ElementId;
use super::store::Lookup;
use super::text_arena::TextTooLarge;
use super::{DomStore, NodeData, PatchError};

impl DomStore {
    /// Sets attribute `name` (in `ns`) of `element` to `value`, or removes it
    /// (`None`). A new attribute goes last, as the DOM appends it.
    ///
    /// ```
    /// use tagloom_html::dom::{self, DomStore};
    /// use tagloom_html::dom_patch::AttrNamespace;
    /// use tagloom_html::driver::{ParseConfig, parse_document};
    ///
    /// let mut store = parse_document(b"<p id=a>x", &ParseConfig::default()).unwrap();
    /// let p = store.document().unwrap().first_child().unwrap().last_child().unwrap()
    ///     .first_child().unwrap().key();
    /// store.set_attribute(p, AttrNamespace::None, "id", Some("b")).unwrap();
    /// store.set_attribute(p, AttrNamespace::None, "class", Some("c")).unwrap();
    /// assert!(dom::dump_document(&store).contains("|       class=\"c\"\n|       id=\"b\"\n"));
    /// ```
    pub fn set_attribute(
        &mut self,
        element: PatchKey,
        ns: AttrNamespace,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), PatchError> {
        let slot = match self.lookup(element) {
            Lookup::Found(slot) => slot,
            Lookup::Stale => {
                return Err(PatchError::StaleKey {
                    index: 0,
                    key: element,
                });
            }
            Lookup::Unknown => {
                return Err(PatchError::UnknownKey {
                    index: 0,
                    key: element,
                });
            }
        };
        let Some(NodeData::Element(id)) = self.nodes.get(slot as usize).map(|n| &n.data) else {
            return Err(PatchError::NotElement {
                index: 0,
                node: element,
            });
        };
        let id = *id;
        if self.elements.get(id.0 as usize).is_none() {
            return Err(PatchError::NotElement {
                index: 0,
                node: element,
            });
        }
        let range = self.rec(id).attrs;
        let at = self
            .attrs
            .get(range)
            .iter()
            .position(|a| a.ns == ns && self.attrs.name(a.name) == name);
        let too_large = |_| PatchError::TextTooLarge { index: 0 };
        match (at, value) {
            (Some(i), Some(value)) => self.attrs.set_value(range, i, value).map_err(too_large)?,
            (Some(i), None) => self.rec_mut(id).attrs = self.attrs.remove(range, i),
            (None, Some(value)) => {
                let attr = AttrRef {
                    ns,
                    name: AttrName::Borrowed(name),
                    value,
                };
                self.rec_mut(id).attrs = self.attrs.append(range, attr).map_err(too_large)?;
            }
            (None, None) => {}
        }
        if self.attrs.wants_compaction() {
            self.compact_attrs().map_err(too_large)?;
        }
        Ok(())
    }

    /// `AddAttributes`: appends each of `attrs` the element does not have yet.
    /// Returns the element's attribute range before (to undo it).
    pub(crate) fn add_attributes<'a>(
        &mut self,
        id: ElementId,
        attrs: impl Iterator<Item = AttrRef<'a>>,
    ) -> Result<AttrRange, TextTooLarge> {
        let old = self.rec(id).attrs;
        let mut range = old;
        for attr in attrs {
            let name = attr.name.as_str();
            let present = self
                .attrs
                .get(range)
                .iter()
                .any(|a| a.ns == attr.ns && self.attrs.name(a.name) == name);
            if !present {
                range = self.attrs.append(range, attr)?;
            }
        }
        self.rec_mut(id).attrs = range;
        Ok(old)
    }

    /// Rewrites the attribute arena with only what the elements still use
    /// (see `attr_arena.rs`: run when the garbage exceeds the live data).
    pub(crate) fn compact_attrs(&mut self) -> Result<(), TextTooLarge> {
        let mut fresh = AttrArena::default();
        for i in 0..self.elements.len() {
            let Some(rec) = self.elements.get(i).copied() else {
                continue;
            };
            let name = self.attrs.copy_name_to(rec.name, &mut fresh)?;
            let attrs = self.attrs.copy_to(rec.attrs, &mut fresh)?;
            if let Some(r) = self.elements.get_mut(i) {
                r.name = name;
                r.attrs = attrs;
            }
        }
        self.attrs = fresh;
        Ok(())
    }
}
