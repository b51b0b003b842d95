//! The policy compiled for lookups: [`Rules`].

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use tagloom_html::dom_patch::Namespace;

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

/// Where an attribute may stay, by name alone ([`Rules::attribute_reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Nowhere.
    None,
    /// On an HTML element (and maybe elsewhere).
    Html,
    /// Only on a foreign (SVG or MathML) element.
    Foreign,
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
    /// The `rel` of a link that had none: [`link_rel`](super::attrs::link_rel)
    /// of the policy's [`link_rel`](Policy::link_rel) alone.
    pub(crate) fresh_link_rel: Option<String>,
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
            fresh_link_rel: p
                .link_rel
                .as_deref()
                .map(|add| super::attrs::link_rel(None, add)),
            policy,
        }
    }

    /// The policy.
    pub(crate) fn policy(&self) -> &Arc<Policy> {
        &self.policy
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
        // The lists first: most attributes are in none of them, and then the
        // never-allowed test (a few comparisons) is not needed.
        self.listed(ns, element, name) && !is_never_allowed_attribute(name)
    }

    /// Whether a list of the policy names attribute `name` for `element` of
    /// `ns` (generic names and prefixes, or the namespace's own list).
    fn listed(&self, ns: Namespace, element: &str, name: &str) -> bool {
        self.generic_attributes.contains(name)
            || self
                .policy
                .generic_attribute_prefixes
                .iter()
                .any(|p| name.starts_with(p.as_str()))
            || match ns {
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
    #[cfg(test)]
    pub(crate) fn attribute_may_stay(&self, element: &str, name: &str) -> bool {
        self.attribute_reach(element, name) != Reach::None
    }

    /// Where the attribute `name` (lowercase, as the tokenizer writes it) may
    /// stay on a tag named `element`: [`Reach::Html`] exactly when
    /// [`attribute_allowed`](Self::attribute_allowed) holds for an HTML
    /// element, [`Reach::Foreign`] when only the SVG or MathML lists name it.
    pub(crate) fn attribute_reach(&self, element: &str, name: &str) -> Reach {
        let reach = if self.listed(Namespace::Html, element, name) {
            Reach::Html
        } else if (!self.svg_attributes_lower.is_empty()
            && self.svg_attributes_lower.contains(&*lowercase(name)))
            || (self.policy.allow_mathml && self.mathml_attributes.contains(name))
        {
            Reach::Foreign
        } else {
            return Reach::None;
        };
        if is_never_allowed_attribute(name) {
            Reach::None
        } else {
            reach
        }
    }

    /// Whether the value of attribute `name` is a URL (or a list of them).
    pub(crate) fn is_url_attribute(&self, name: &str) -> bool {
        self.url_attributes.contains(name)
            || (name.bytes().any(|b| b.is_ascii_uppercase())
                && self.url_attributes.contains(&*name.to_ascii_lowercase()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The questions as the policy's `BTreeSet`s answered them before they
    /// were compiled (an independent reading of the lists, the test's oracle).
    struct Plain<'a>(&'a Policy);

    impl Plain<'_> {
        fn kept(&self, ns: Namespace, name: &str) -> bool {
            let p = self.0;
            match ns {
                Namespace::Html => p.tags.contains(name) && !NEVER_ALLOWED.contains(&name),
                Namespace::Svg => {
                    p.allow_svg
                        && p.svg_tags.contains(name)
                        && !NEVER_ALLOWED.contains(&name.to_ascii_lowercase().as_str())
                }
                Namespace::MathMl => {
                    p.allow_mathml && p.mathml_tags.contains(name) && !NEVER_ALLOWED.contains(&name)
                }
            }
        }

        fn disposition(&self, name: &str) -> Disposition {
            let p = self.0;
            p.dispositions
                .get(&name.to_ascii_lowercase())
                .or_else(|| p.dispositions.get(name))
                .copied()
                .unwrap_or(p.default_disposition)
        }

        fn may_keep_tag(&self, name: &str) -> bool {
            let p = self.0;
            !NEVER_ALLOWED.contains(&name)
                && (p.tags.contains(name)
                    || (p.allow_svg && p.svg_tags.iter().any(|t| t.eq_ignore_ascii_case(name)))
                    || (p.allow_mathml && p.mathml_tags.contains(name)))
        }

        fn attribute_allowed(&self, ns: Namespace, element: &str, name: &str) -> bool {
            let p = self.0;
            if is_never_allowed_attribute(name) {
                return false;
            }
            if p.generic_attributes.contains(name)
                || p.generic_attribute_prefixes
                    .iter()
                    .any(|x| name.starts_with(x.as_str()))
            {
                return true;
            }
            match ns {
                Namespace::Html => p
                    .tag_attributes
                    .get(element)
                    .is_some_and(|a| a.contains(name)),
                Namespace::Svg => p.svg_attributes.contains(name),
                Namespace::MathMl => p.mathml_attributes.contains(name),
            }
        }

        fn attribute_may_stay(&self, element: &str, name: &str) -> bool {
            let p = self.0;
            !is_never_allowed_attribute(name)
                && (self.attribute_allowed(Namespace::Html, element, name)
                    || (p.allow_svg
                        && p.svg_attributes
                            .iter()
                            .any(|a| a.eq_ignore_ascii_case(name)))
                    || (p.allow_mathml && p.mathml_attributes.contains(name)))
        }

        fn is_url_attribute(&self, name: &str) -> bool {
            let p = self.0;
            p.url_attributes.contains(name) || p.url_attributes.contains(&name.to_ascii_lowercase())
        }
    }

    #[test]
    fn rules_answer_as_the_lists() {
        let mut custom = Policy::widened();
        custom.tags.insert("Mixed".to_owned());
        custom.svg_tags.insert("script".to_owned());
        custom.mathml_tags.insert("meta".to_owned());
        custom.generic_attribute_prefixes.insert("data-".to_owned());
        custom.generic_attributes.insert("onclick".to_owned());
        custom.url_attributes.insert("Poster2".to_owned());
        custom
            .dispositions
            .insert("Weird".to_owned(), Disposition::Escape);
        let mut off = Policy::widened();
        off.allow_svg = false;
        off.allow_mathml = false;
        for policy in [Policy::default(), Policy::widened(), custom, off] {
            let rules = Rules::new(Arc::new(policy.clone()));
            let plain = Plain(&policy);
            let mut names: Vec<String> = policy
                .tags
                .iter()
                .chain(&policy.svg_tags)
                .chain(&policy.mathml_tags)
                .chain(policy.dispositions.keys())
                .cloned()
                .collect();
            names.extend(NEVER_ALLOWED.iter().map(|s| (*s).to_owned()));
            names.extend(["x-y", "weird", "WEIRD", "", "foreignobject"].map(str::to_owned));
            let upper: Vec<String> = names.iter().map(|n| n.to_ascii_uppercase()).collect();
            names.extend(upper);
            let mut attrs: Vec<String> = policy
                .generic_attributes
                .iter()
                .chain(&policy.svg_attributes)
                .chain(&policy.mathml_attributes)
                .chain(&policy.url_attributes)
                .chain(policy.tag_attributes.values().flatten())
                .cloned()
                .collect();
            attrs.extend(
                [
                    "onload", "srcdoc", "xmlns", "xmlns:x", "is", "data-a", "xml:base", "zz",
                ]
                .map(str::to_owned),
            );
            let upper: Vec<String> = attrs.iter().map(|n| n.to_ascii_uppercase()).collect();
            attrs.extend(upper);
            for name in &names {
                assert_eq!(rules.may_keep_tag(name), plain.may_keep_tag(name), "{name}");
                assert_eq!(rules.disposition(name), plain.disposition(name), "{name}");
                for ns in [Namespace::Html, Namespace::Svg, Namespace::MathMl] {
                    let want = if plain.kept(ns, name) {
                        Verdict::Keep
                    } else {
                        Verdict::Not(plain.disposition(name))
                    };
                    assert_eq!(rules.verdict(ns, name), want, "{ns:?} {name}");
                }
            }
            for attr in &attrs {
                assert_eq!(
                    rules.is_url_attribute(attr),
                    plain.is_url_attribute(attr),
                    "{attr}"
                );
                for element in ["a", "img", "td", "svg", "math", "nope"] {
                    assert_eq!(
                        rules.attribute_may_stay(element, attr),
                        plain.attribute_may_stay(element, attr),
                        "{element} {attr}"
                    );
                    assert_eq!(
                        rules.attribute_reach(element, attr) == Reach::Html,
                        plain.attribute_allowed(Namespace::Html, element, attr),
                        "{element} {attr}"
                    );
                    for ns in [Namespace::Html, Namespace::Svg, Namespace::MathMl] {
                        assert_eq!(
                            rules.attribute_allowed(ns, element, attr),
                            plain.attribute_allowed(ns, element, attr),
                            "{ns:?} {element} {attr}"
                        );
                    }
                }
            }
        }
    }
}
