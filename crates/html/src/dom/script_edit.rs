//! Changes a script makes to the document outside the patch stream: the
//! embedder's DOM is the store, so `setAttribute` and `element.id = …` change
//! it directly (and are reported to the tree builder through
//! [`Html5ParseSession::dom_changed`](crate::session::Html5ParseSession::dom_changed)).

use std::borrow::Cow;

use crate::dom_patch::{AttrNamespace, PatchAttr, PatchKey};

use super::store::Lookup;
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
        let id = id.0 as usize;
        let Some(e) = self.elements.get_mut(id) else {
            return Err(PatchError::NotElement {
                index: 0,
                node: element,
            });
        };
        let at = e.attrs.iter().position(|a| a.ns == ns && a.name == name);
        match (at, value) {
            (Some(i), Some(value)) => {
                if let Some(a) = e.attrs.get_mut(i) {
                    a.value = value.to_owned();
                }
            }
            (Some(i), None) => {
                e.attrs.remove(i);
            }
            (None, Some(value)) => e.attrs.push(PatchAttr {
                ns,
                name: Cow::Owned(name.to_owned()),
                value: value.to_owned(),
            }),
            (None, None) => {}
        }
        Ok(())
    }
}
