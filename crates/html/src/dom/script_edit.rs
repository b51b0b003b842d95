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
    /// Memory: a new value is written at the end of the store's attribute
    /// strings and a new attribute extends the element's run in place or moves
    /// it to the end (with room for as much again); a removal shifts the run in
    /// place. What is left unused is counted, and once it exceeds both 1 MiB
    /// and the data still in use the attribute arena is rewritten (O(live
    /// data), paid once per as much garbage), so a script setting attributes in
    /// a loop keeps at most about twice the live attribute data plus 1 MiB.
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

#[cfg(test)]
mod tests {
    use crate::dom::DomStore;
    use crate::dom_patch::{AttrNamespace, PatchKey};
    use crate::driver::{ParseConfig, parse_document};

    /// The `p`s of `<p id=a class=x>one<p id=b>two`, by key.
    fn two_paragraphs() -> (DomStore, PatchKey, PatchKey) {
        let store =
            parse_document(b"<p id=a class=x>one<p id=b>two", &ParseConfig::default()).unwrap();
        let body = store
            .document()
            .unwrap()
            .first_child()
            .unwrap()
            .last_child();
        let mut ps = body.unwrap().children().map(|p| p.key());
        let (a, b) = (ps.next().unwrap(), ps.next().unwrap());
        (store, a, b)
    }

    fn attrs(store: &DomStore, key: PatchKey) -> Vec<(String, String)> {
        let e = store.get(key).unwrap().as_element().unwrap();
        e.attrs()
            .iter()
            .map(|a| (a.name.to_owned(), a.value.to_owned()))
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn set_remove_and_add_change_only_their_element() {
        let (mut store, a, b) = two_paragraphs();
        let none = AttrNamespace::None;
        store.set_attribute(a, none, "id", Some("changed")).unwrap();
        store.set_attribute(a, none, "title", Some("new")).unwrap();
        store.set_attribute(a, none, "class", None).unwrap();
        store.set_attribute(a, none, "absent", None).unwrap();
        assert_eq!(
            attrs(&store, a),
            pairs(&[("id", "changed"), ("title", "new")])
        );
        assert_eq!(attrs(&store, b), pairs(&[("id", "b")]));
        // The removed slot is reused by nothing else: adding after a removal
        // still reads back in order.
        store
            .set_attribute(a, none, "class", Some("again"))
            .unwrap();
        assert_eq!(
            attrs(&store, a),
            pairs(&[("id", "changed"), ("title", "new"), ("class", "again")])
        );
        assert_eq!(attrs(&store, b), pairs(&[("id", "b")]));
    }

    #[test]
    fn a_script_setting_attributes_in_a_loop_keeps_memory_bounded() {
        let (mut store, a, b) = two_paragraphs();
        let none = AttrNamespace::None;
        let value = "v".repeat(100);
        let mut peak = 0;
        for i in 0..100_000 {
            store.set_attribute(a, none, "id", Some(&value)).unwrap();
            // A growing list too: new names, then removed again.
            let name = format!("data-{}", i % 50);
            store.set_attribute(a, none, &name, Some("x")).unwrap();
            if i % 50 == 49 {
                for j in 0..50 {
                    store
                        .set_attribute(a, none, &format!("data-{j}"), None)
                        .unwrap();
                }
            }
            peak = peak.max(store.attrs.used());
        }
        // 10 MB of values were written; compaction keeps the arena near
        // `COMPACT_MIN` plus twice the live data.
        assert!(
            peak < 2 * super::super::attr_arena::COMPACT_MIN + 64 * 1024,
            "{peak}"
        );
        assert_eq!(
            attrs(&store, a),
            pairs(&[("id", value.as_str()), ("class", "x")])
        );
        assert_eq!(attrs(&store, b), pairs(&[("id", "b")]));
        let e = store.get(a).unwrap().as_element().unwrap();
        assert!(e.is_html("p"));
    }
}
