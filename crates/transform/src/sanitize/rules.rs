//! The policy compiled for lookups: [`Rules`].

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use tagloom_html::atom::AtomTable;
use tagloom_html::dom_patch::Namespace;
use tagloom_html::tokenizer::{AttributeMode, TagSet};

use super::policy::{Disposition, NEVER_ALLOWED, Policy, is_never_allowed_attribute};

/// FNV-1a: names are short, so a simple byte hash beats SipHash (and a
/// `BTreeSet<String>` walk) by a wide margin. Not exposed to untrusted keys in
/// a way that matters: the sets are the policy's, fixed before any input.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type Set = HashSet<Box<str>, BuildHasherDefault<Fnv>>;
type Map<V> = HashMap<Box<str>, V, BuildHasherDefault<Fnv>>;

fn set<'a>(items: impl IntoIterator<Item = &'a String>, keep: impl Fn(&str) -> bool) -> Set {
    items
        .into_iter()
        .filter(|s| keep(s))
        .map(|s| s.as_str().into())
        .collect()
}

fn lower<'a>(items: impl IntoIterator<Item = &'a String>) -> Set {
    items
        .into_iter()
        .map(|s| s.to_ascii_lowercase().into())
        .collect()
}

fn never(name: &str) -> bool {
    NEVER_ALLOWED.contains(&name)
}

/// `name` ASCII-lowercased, borrowed when it already is.
fn lowercase(name: &str) -> std::borrow::Cow<'_, str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        name.to_ascii_lowercase().into()
    } else {
        name.into()
    }
}

/// What the policy decides for one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Keep,
    Not(Disposition),
}

/// A [`Policy`] with its lists in hash sets (and `NEVER_ALLOWED` applied), for
/// the per-token and per-node questions of the filter and the tree pass. Built
/// once per [`Sanitizer`](super::Sanitizer) or filter; reads as the policy
/// (`Deref`).
#[derive(Debug)]
pub(crate) struct Rules {
    policy: Arc<Policy>,
    html_tags: Set,
    svg_tags: Set,
    svg_tags_lower: Set,
    mathml_tags: Set,
    dispositions: Map<Disposition>,
    tag_attributes: Map<Set>,
    generic_attributes: Set,
    svg_attributes: Set,
    svg_attributes_lower: Set,
    mathml_attributes: Set,
    url_attributes: Set,
}

impl std::fmt::Debug for Fnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fnv")
    }
}

impl Deref for Rules {
    type Target = Policy;

    fn deref(&self) -> &Policy {
        &self.policy
    }
}

impl Rules {
    pub(crate) fn new(policy: Arc<Policy>) -> Rules {
        let p = &*policy;
        let all = |_: &str| true;
        let off = |on: bool, s: Set| if on { s } else { Set::default() };
        Rules {
            html_tags: set(&p.tags, |t| !never(t)),
            svg_tags: off(
                p.allow_svg,
                set(&p.svg_tags, |t| !never(&t.to_ascii_lowercase())),
            ),
            svg_tags_lower: off(p.allow_svg, lower(&p.svg_tags)),
            mathml_tags: off(p.allow_mathml, set(&p.mathml_tags, |t| !never(t))),
            dispositions: p
                .dispositions
                .iter()
                .map(|(k, v)| (k.as_str().into(), *v))
                .collect(),
            tag_attributes: p
                .tag_attributes
                .iter()
                .map(|(k, v)| (k.as_str().into(), set(v, all)))
                .collect(),
            generic_attributes: set(&p.generic_attributes, all),
            svg_attributes: set(&p.svg_attributes, all),
            svg_attributes_lower: off(p.allow_svg, lower(&p.svg_attributes)),
            mathml_attributes: set(&p.mathml_attributes, all),
            url_attributes: set(&p.url_attributes, all),
            policy,
        }
    }

    /// The policy.
    pub(crate) fn policy(&self) -> &Arc<Policy> {
        &self.policy
    }

    /// The tokenizer's attribute mode for the filter: the attributes of the
    /// tags it may keep or escape, and of `font` and `annotation-xml` (which the
    /// text-type simulator reads); the others are skimmed (`atoms`: the
    /// tokenizer's table).
    pub(crate) fn attribute_mode(&self, atoms: &mut AtomTable) -> AttributeMode {
        if self.policy.default_disposition == Disposition::Escape {
            return AttributeMode::All;
        }
        let escaped = self
            .dispositions
            .iter()
            .filter(|(_, d)| **d == Disposition::Escape)
            .map(|(name, _)| name);
        let mut set = TagSet::new();
        for name in self
            .html_tags
            .iter()
            .chain(&self.svg_tags_lower)
            .chain(&self.mathml_tags)
            .chain(escaped)
            .map(|n| &**n)
            .chain(["font", "annotation-xml"])
        {
            set.insert(atoms.intern(&name.to_ascii_lowercase()));
        }
        AttributeMode::Only(set)
    }

    /// The verdict for an element in the output tree.
    pub(crate) fn verdict(&self, ns: Namespace, name: &str) -> Verdict {
        let kept = match ns {
            Namespace::Html => self.html_tags.contains(name),
            Namespace::Svg => self.svg_tags.contains(name),
            Namespace::MathMl => self.mathml_tags.contains(name),
        };
        if kept {
            Verdict::Keep
        } else {
            Verdict::Not(self.disposition(name))
        }
    }

    /// What happens to a disallowed element named `name` (any namespace).
    pub(crate) fn disposition(&self, name: &str) -> Disposition {
        self.dispositions
            .get(&*lowercase(name))
            .or_else(|| self.dispositions.get(name))
            .copied()
            .unwrap_or(self.policy.default_disposition)
    }

    /// Whether a tag named `name` (as the tokenizer writes it: lowercase) may be
    /// kept in some namespace: the token filter, which does not know the
    /// namespace, keeps such tags for the tree pass to decide.
    pub(crate) fn may_keep_tag(&self, name: &str) -> bool {
        if never(name) {
            return false;
        }
        self.html_tags.contains(name)
            || (!self.svg_tags_lower.is_empty() && self.svg_tags_lower.contains(&*lowercase(name)))
            || self.mathml_tags.contains(name)
    }

    /// Whether the attribute `name` (as the tree builder names it: `xlink:href`
    /// for XLink's `href`) may stay on an element `element` of namespace `ns`,
    /// before its value is checked.
    pub(crate) fn attribute_allowed(&self, ns: Namespace, element: &str, name: &str) -> bool {
        if is_never_allowed_attribute(name) {
            return false;
        }
        if self.generic_attributes.contains(name)
            || self
                .policy
                .generic_attribute_prefixes
                .iter()
                .any(|p| name.starts_with(p.as_str()))
        {
            return true;
        }
        match ns {
            Namespace::Html => self
                .tag_attributes
                .get(element)
                .is_some_and(|attrs| attrs.contains(name)),
            Namespace::Svg => self.svg_attributes.contains(name),
            Namespace::MathMl => self.mathml_attributes.contains(name),
        }
    }

    /// Whether the attribute `name` (lowercase, as the tokenizer writes it) may
    /// stay on a tag named `element` in some namespace (the token filter's test).
    pub(crate) fn attribute_may_stay(&self, element: &str, name: &str) -> bool {
        if is_never_allowed_attribute(name) {
            return false;
        }
        self.attribute_allowed(Namespace::Html, element, name)
            || (!self.svg_attributes_lower.is_empty()
                && self.svg_attributes_lower.contains(&*lowercase(name)))
            || (self.policy.allow_mathml && self.mathml_attributes.contains(name))
    }

    /// Whether the value of attribute `name` is a URL (or a list of them).
    pub(crate) fn is_url_attribute(&self, name: &str) -> bool {
        self.url_attributes.contains(name)
            || (name.bytes().any(|b| b.is_ascii_uppercase())
                && self.url_attributes.contains(&*name.to_ascii_lowercase()))
    }
}
