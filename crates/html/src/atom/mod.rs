//! Interned names for tags and attributes.
//!
//! Every tag and attribute name the tokenizer emits is an [`Atom`]: a `u32` that
//! compares in one instruction. Names known to HTML, SVG and MathML are *static
//! atoms* (generated into [`static_atoms`], no allocation, no hashing); any other name
//! is interned once per document in an [`AtomTable`].
//!
//! Atoms are case-sensitive: the tokenizer lowercases ASCII in HTML tag and attribute
//! names before interning, and the tree builder's SVG adjustments (`foreignobject` →
//! `foreignObject`) map to a different static atom.

pub mod static_atoms;

use std::collections::HashMap;

/// A fast hash with a per-process random seed: names come from untrusted input, so
/// the seed keeps collisions from being chosen by the page.
type NameMap = HashMap<Box<str>, u32, foldhash::fast::RandomState>;

pub use static_atoms::*;

/// An interned tag or attribute name.
///
/// Static atoms (`Atom::is_static`) are the same in every document; dynamic atoms are
/// only meaningful together with the [`AtomTable`] that produced them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Atom(pub(crate) u32);

impl Atom {
    /// The static atom for `name`, if `name` is one of the known names (exact,
    /// case-sensitive match).
    ///
    /// ```
    /// use tagloom_html::atom::{Atom, DIV};
    /// assert_eq!(Atom::lookup_static(b"div"), Some(DIV));
    /// assert_eq!(Atom::lookup_static(b"no-such-element"), None);
    /// ```
    #[inline]
    pub fn lookup_static(name: &[u8]) -> Option<Atom> {
        static_atoms::lookup(name).map(Atom)
    }

    /// Whether this atom is one of the built-in names.
    #[inline]
    pub fn is_static(self) -> bool {
        (self.0 as usize) < STATIC_NAMES.len()
    }

    /// The name of a static atom (`None` for a dynamic one; use [`AtomTable::name`]).
    #[inline]
    pub fn static_name(self) -> Option<&'static str> {
        STATIC_NAMES.get(self.0 as usize).copied()
    }

    /// The raw index (stable for static atoms across documents and versions of the
    /// same build only).
    #[inline]
    pub fn index(self) -> u32 {
        self.0
    }
}

/// The per-document table of names that are not static atoms.
///
/// ```
/// use tagloom_html::atom::{AtomTable, P};
/// let mut atoms = AtomTable::new();
/// assert_eq!(atoms.intern("p"), P);
/// let custom = atoms.intern("my-widget");
/// assert_eq!(atoms.intern("my-widget"), custom);
/// assert_eq!(atoms.name(custom), "my-widget");
/// ```
#[derive(Default, Clone, Debug)]
pub struct AtomTable {
    by_name: NameMap,
    names: Vec<Box<str>>,
}

impl AtomTable {
    /// An empty table (the static atoms are always available).
    pub fn new() -> Self {
        Self::default()
    }

    /// The atom for `name`, interning it if it is neither static nor seen before.
    pub fn intern(&mut self, name: &str) -> Atom {
        match Atom::lookup_static(name.as_bytes()) {
            Some(atom) => atom,
            None => self.intern_dynamic(name),
        }
    }

    /// [`intern`](Self::intern) for a name already known not to be static.
    pub(crate) fn intern_dynamic(&mut self, name: &str) -> Atom {
        if let Some(&index) = self.by_name.get(name) {
            return Atom(index);
        }
        let index = (STATIC_NAMES.len() + self.names.len()) as u32;
        self.names.push(name.into());
        self.by_name.insert(name.into(), index);
        Atom(index)
    }

    /// The atom for `name` if it is static or already interned, without interning.
    pub fn get(&self, name: &str) -> Option<Atom> {
        Atom::lookup_static(name.as_bytes()).or_else(|| self.by_name.get(name).map(|&i| Atom(i)))
    }

    /// The text of `atom`. An atom from another table yields `""`.
    pub fn name(&self, atom: Atom) -> &str {
        if let Some(name) = atom.static_name() {
            return name;
        }
        let dynamic = atom.0 as usize - STATIC_NAMES.len();
        self.names.get(dynamic).map_or("", |name| name)
    }

    /// How many dynamic names the table holds.
    pub fn dynamic_len(&self) -> usize {
        self.names.len()
    }
}

#[cfg(test)]
mod tests;
