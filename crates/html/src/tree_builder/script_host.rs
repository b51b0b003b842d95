//! DOM changes made by scripts that the tree builder must see.
//!
//! The tree builder works on its own mirror of the tree, not on the embedder's
//! DOM, so a script that changes the DOM while the parser is suspended tells it
//! through [`Html5ParseSession::dom_changed`](crate::session::Html5ParseSession::dom_changed).
//! What the mirror does with an attribute change follows what the spec reads:
//!
//! - The list of active formatting elements compares and clones elements by the
//!   attributes "as they were when the elements were created by the parser"
//!   (§13.2.4.3, Noah's Ark; the adoption agency and "reconstruct the active
//!   formatting elements" create elements "for the token for which the element
//!   was created"). A formatting element's kept attributes are those of its
//!   token, so a change to one is checked and otherwise ignored
//!   (html5lib's `scripted/ark.dat` and `scripted/adoption01.dat` depend on it).
//! - Other elements keep no attributes, except once a `selectedcontent` exists:
//!   then an `option` is cloned with its *current* attributes and children, and
//!   the mirror keeps every element's attributes up to date.

use crate::dom_patch::{AttrNamespace, Namespace, PatchKey};

use super::TreeBuilder;
use super::mirror::Lookup;
use super::tag_sets::is_formatting;

/// A change a script made to the DOM, as the tree builder must hear of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomChange<'a> {
    /// An attribute of `element` was set to `value`, or removed (`None`);
    /// `element.id = …` is the attribute `id`.
    Attribute {
        /// The element's key.
        element: PatchKey,
        /// The attribute's namespace.
        ns: AttrNamespace,
        /// The attribute's local name.
        name: &'a str,
        /// The new value; `None` when the attribute was removed.
        value: Option<&'a str>,
    },
}

impl TreeBuilder {
    /// Applies `change` to the mirror. Returns false when the element is not one
    /// this tree builder created (or it released the mirror after end of file);
    /// a change to an element a compaction forgot is accepted and ignored.
    pub(crate) fn dom_changed(&mut self, change: DomChange<'_>) -> bool {
        match change {
            DomChange::Attribute {
                element,
                ns,
                name,
                value,
            } => {
                let id = match self.mirror.lookup(element) {
                    Lookup::Held(id) => id,
                    // A closed element the mirror forgot: nothing reads its
                    // attributes again (only formatting elements and, with a
                    // `selectedcontent`, an open option's subtree are read, and
                    // compaction keeps those).
                    Lookup::Forgotten => return true,
                    Lookup::Unknown => return false,
                };
                let Some(e) = self.mirror.elem(id) else {
                    return false;
                };
                let formatting = e.ns == Namespace::Html && is_formatting(e.name);
                if !formatting && self.select_tracker.full_mirror {
                    self.mirror.set_kept_attr(id, ns, name, value);
                }
                true
            }
        }
    }

    /// The key of the `script` element of the last `Suspend(Script)`.
    pub(crate) fn last_script_key(&self) -> Option<PatchKey> {
        self.last_script.map(|id| self.mirror.key(id))
    }
}
