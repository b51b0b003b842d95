//! The token filter's answers to questions about names alone, remembered per
//! input: [`NameMemo`].
//!
//! The filter asks, for every tag, whether the policy may keep its name, and
//! for every attribute of a kept tag, where the policy lets it stay and
//! whether its value needs checking at all (URL, `style`, `id`/`name` under an
//! id prefix). The answers are pure functions of the policy and the names, and
//! the tokenizer hands names over as atoms: a direct-mapped table keyed by the
//! atoms' indices answers the repeats (most tags and attributes of a page) for
//! a few instructions instead of hashing the names into the policy's sets.
//! Atom indices mean something only within one atom table: a memo serves one
//! tokenizer (the front end keeps one per input, in `filter::Spare`).

use tagloom_html::atom::Atom;

use super::attrs::{name_reach, value_check};
use super::rules::{Reach, Rules};

/// Entries of the attribute table (a power of two).
const ATTR_SLOTS: usize = 512;
/// Tag atoms with an index below this are remembered.
const TAG_LIMIT: usize = 4096;

/// What the filter needs to know of an attribute by its name alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AttrName {
    /// Where it may stay.
    pub(crate) reach: Reach,
    /// How its value is checked.
    pub(crate) check: ValueCheck,
}

/// How `attrs::clean_value` treats the values of an attribute, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueCheck {
    /// Any value stays as it is.
    None,
    /// A URL (or a list of them) and nothing else: the value stays exactly
    /// when `url::attribute_value_allowed` allows it.
    Url,
    /// Anything else (a style, an id under a prefix…): `clean_value` decides.
    Full,
}

/// See the [module docs](self).
#[derive(Default)]
pub(crate) struct NameMemo {
    /// Per tag atom index: 0 unknown, 1 may keep, 2 may not.
    tags: Vec<u8>,
    /// `(element index << 32 | attribute index) + 1` (0: empty) and the answer.
    attrs: Vec<(u64, AttrName)>,
}

impl NameMemo {
    /// [`Rules::may_keep_tag`] for the tag `atom` named `name`.
    #[inline]
    pub(crate) fn may_keep_tag(&mut self, policy: &Rules, atom: Atom, name: &str) -> bool {
        match self.tags.get(atom.index() as usize) {
            Some(1) => true,
            Some(2) => false,
            _ => self.learn_tag(policy, atom, name),
        }
    }

    /// [`may_keep_tag`](Self::may_keep_tag) the first time (or past the
    /// table).
    #[inline(never)]
    fn learn_tag(&mut self, policy: &Rules, atom: Atom, name: &str) -> bool {
        let i = atom.index() as usize;
        if i >= TAG_LIMIT {
            return policy.may_keep_tag(name);
        }
        let keep = policy.may_keep_tag(name);
        if self.tags.len() <= i {
            self.tags.resize(i + 1, 0);
        }
        if let Some(slot) = self.tags.get_mut(i) {
            *slot = if keep { 1 } else { 2 };
        }
        keep
    }

    /// What the filter needs of attribute `attr` (atom `attr_atom`) on a tag
    /// `element` (atom `element_atom`).
    pub(crate) fn attr(
        &mut self,
        policy: &Rules,
        element_atom: Atom,
        element: &str,
        attr_atom: Atom,
        attr: &str,
    ) -> AttrName {
        let key = (u64::from(element_atom.index()) << 32 | u64::from(attr_atom.index())) + 1;
        if self.attrs.is_empty() {
            self.attrs.resize(
                ATTR_SLOTS,
                (
                    0,
                    AttrName {
                        reach: Reach::None,
                        check: ValueCheck::Full,
                    },
                ),
            );
        }
        let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 55) as usize % ATTR_SLOTS;
        if let Some((k, known)) = self.attrs.get(slot)
            && *k == key
        {
            return *known;
        }
        let answer = AttrName {
            reach: name_reach(policy, element, attr),
            check: value_check(policy, attr),
        };
        if let Some(entry) = self.attrs.get_mut(slot) {
            *entry = (key, answer);
        }
        answer
    }
}
