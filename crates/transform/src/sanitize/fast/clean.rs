//! The tree pass on a stream: the rules of `tree.rs` applied as the walker
//! reports nodes, with the parent and namespace known at insertion. What the
//! streaming form cannot decide alone makes it give up ([`Abandon`]): a kept
//! text-only element (`style`, `xmp`…: its text must be judged whole), an
//! escaped element, anything added under a kept void element.

use std::borrow::Cow;
use std::sync::Arc;

use tagloom_html::atom::Atom;
use tagloom_html::dom_patch::{Namespace, PatchAttr};
use tagloom_html::serializer::serializes_as_void;

use super::super::attrs::is_animation;
use super::super::policy::Disposition;
use super::super::rules::{Rules, Verdict};
use super::super::tree::{
    AttrChange, KeptElement, Place, integration_points, is_text_only, keep_element_in,
    placement_ok, strip_escape,
};
use super::Abandon;
use super::check::{ESC, SHORT, classes};
use super::walk::RawSink;

/// What a cleaner reports: the clean tree, in document order.
pub(crate) trait CleanSink {
    /// A kept element starts; `void` ones serialize without content or end tag;
    /// `change`: how the tree pass changed its attributes; `atom`: the static
    /// atom of an HTML element's name (`None` for other elements and names).
    fn open(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        atom: Option<Atom>,
        attrs: Vec<PatchAttr>,
        void: bool,
        change: AttrChange,
    ) -> Result<(), Abandon>;
    /// Text in the current kept element (never empty).
    fn text(&mut self, text: &str) -> Result<(), Abandon>;
    /// [`text`](Self::text) for text known to hold no CR and no NUL.
    fn plain_text(&mut self, text: &str) -> Result<(), Abandon> {
        self.text(text)
    }
    /// [`text`](Self::text) for text of at most `check::SHORT` bytes whose
    /// byte classes (`check::classes`) are `found`.
    fn short_text(&mut self, text: &str, _found: u8) -> Result<(), Abandon> {
        self.text(text)
    }
    /// The current kept element ends.
    fn close(&mut self, ns: Namespace, name: &str, void: bool) -> Result<(), Abandon>;
}

/// Text longer than this is searched for ESC, CR and NUL at once.
const LONG: usize = 32;

/// An output parent (as `tree.rs`'s `Dst`).
struct Dst {
    ns: Namespace,
    name: Cow<'static, str>,
    html_ip: bool,
    text_ip: bool,
    void: bool,
    /// Kept elements from the root to here.
    depth: usize,
}

/// What is known of a source element's attributes before the tree pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// Nothing: the tree pass judges them.
    Nothing,
    /// They are a fixed point of `keep_element` for this namespace and name
    /// (the first tree pass kept them as they were): the call is skipped.
    Fixed,
    /// The token filter judged them for an HTML element of this name
    /// (`keep_element`'s `judged`).
    Judged,
}

/// What became of an element of the source.
#[derive(Clone, Copy)]
enum Fate {
    Kept,
    Unwrapped,
    Dropped,
}

/// What the tree pass asks of an element's name alone, remembered by static
/// atom for HTML elements (a pure function of the policy and the name): the
/// policy's verdict, whether it is text-only, whether it is void.
#[derive(Clone, Copy)]
struct NameFacts {
    verdict: Verdict,
    text_only: bool,
    void: bool,
    /// `attrs::is_animation`.
    animation: bool,
}

impl NameFacts {
    fn of(policy: &Rules, ns: Namespace, name: &str) -> NameFacts {
        NameFacts {
            verdict: policy.verdict(ns, name),
            text_only: is_text_only(ns, name),
            void: serializes_as_void(ns, name),
            animation: is_animation(name),
        }
    }
}

/// The streaming tree pass over `out`.
pub(crate) struct Cleaner<O> {
    policy: Arc<Rules>,
    /// [`NameFacts`] of HTML elements by static atom index.
    facts: Vec<Option<NameFacts>>,
    /// The static atoms of the last HTML element names that came as
    /// `&'static str` (the tree builder's static atom names), by the address
    /// and length of the text: a `'static` text never changes, so equal
    /// addresses and lengths mean equal names, and the lookup by hash is
    /// skipped.
    by_address: [(usize, usize, Option<Atom>); 64],
    fates: Vec<Fate>,
    dsts: Vec<Dst>,
    /// Source elements open inside a dropped one (its own entry included).
    dropping: usize,
    /// Attributes to reuse (the fast path's sink leaves those of its lists
    /// here; links take their `rel` from them).
    pub(crate) slots: Vec<PatchAttr>,
    pub(crate) out: O,
}

impl<O: CleanSink> Cleaner<O> {
    pub(crate) fn new(policy: &Arc<Rules>, out: O) -> Self {
        Cleaner {
            policy: policy.clone(),
            facts: Vec::new(),
            by_address: [(0, 0, None); 64],
            fates: Vec::new(),
            dsts: vec![Dst {
                ns: Namespace::Html,
                name: Cow::Borrowed("body"),
                html_ip: false,
                text_ip: false,
                void: false,
                depth: 0,
            }],
            dropping: 0,
            slots: Vec::new(),
            out,
        }
    }
}

impl<O: CleanSink> Cleaner<O> {
    /// The [`NameFacts`] of an element, and the static atom of an HTML
    /// element's name (`fixed`: the name, when it is `'static` text).
    fn facts(
        &mut self,
        ns: Namespace,
        name: &str,
        fixed: Option<&'static str>,
    ) -> (NameFacts, Option<Atom>) {
        if ns != Namespace::Html {
            return (NameFacts::of(&self.policy, ns, name), None);
        }
        let atom = match fixed {
            Some(text) => {
                let (address, len) = (text.as_ptr() as usize, text.len());
                let slot =
                    (address.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) % self.by_address.len();
                match self.by_address.get(slot) {
                    Some(&(a, l, atom)) if a == address && l == len => atom,
                    _ => {
                        let atom = Atom::lookup_static(text.as_bytes());
                        if let Some(entry) = self.by_address.get_mut(slot) {
                            *entry = (address, len, atom);
                        }
                        atom
                    }
                }
            }
            None => Atom::lookup_static(name.as_bytes()),
        };
        debug_assert_eq!(atom, Atom::lookup_static(name.as_bytes()));
        let Some(atom) = atom else {
            return (NameFacts::of(&self.policy, ns, name), None);
        };
        let i = atom.index() as usize;
        if let Some(Some(known)) = self.facts.get(i) {
            return (*known, Some(atom));
        }
        let facts = NameFacts::of(&self.policy, ns, name);
        if self.facts.len() <= i {
            self.facts.resize(i + 1, None);
        }
        if let Some(slot) = self.facts.get_mut(i) {
            *slot = Some(facts);
        }
        (facts, Some(atom))
    }

    /// A source element starts; `known`: what is known of its attributes
    /// before the tree pass judges them.
    pub(crate) fn open_element(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        known: Known,
    ) -> Result<(), Abandon> {
        if self.dropping > 0 {
            self.dropping += 1;
            self.fates.push(Fate::Dropped);
            return Ok(());
        }
        let parent = self.dsts.last().ok_or(Abandon::Engine)?;
        if parent.void {
            return Err(Abandon::Void);
        }
        let fixed = match name {
            Cow::Borrowed(text) => Some(text),
            Cow::Owned(_) => None,
        };
        let (facts, atom) = self.facts(ns, &name, fixed);
        let parent = self.dsts.last().ok_or(Abandon::Engine)?;
        let mut verdict = facts.verdict;
        if verdict == Verdict::Keep {
            let place = Place {
                ns: parent.ns,
                name: &parent.name,
                html_ip: parent.html_ip,
                text_ip: parent.text_ip,
            };
            if !placement_ok(&place, ns, &name) || parent.depth >= self.policy.max_depth {
                verdict = Verdict::Not(Disposition::Unwrap);
            }
        }
        match verdict {
            Verdict::Not(Disposition::Drop) => {
                self.dropping = 1;
                self.fates.push(Fate::Dropped);
                Ok(())
            }
            Verdict::Not(Disposition::Unwrap) => {
                self.fates.push(Fate::Unwrapped);
                Ok(())
            }
            Verdict::Not(Disposition::Escape) => Err(Abandon::Escape),
            Verdict::Keep => {
                if facts.text_only {
                    return Err(Abandon::RawText);
                }
                let depth = parent.depth + 1;
                let kept = if known == Known::Fixed {
                    let (html_ip, text_ip) = integration_points(ns, &name, &attrs);
                    Some(KeptElement {
                        attrs,
                        html_ip,
                        text_ip,
                        change: AttrChange::None,
                    })
                } else {
                    // Without attributes, an element that is no animation is
                    // judged alike either way (nothing to check or drop).
                    let judged = known == Known::Judged || (attrs.is_empty() && !facts.animation);
                    keep_element_in(&self.policy, ns, &name, attrs, judged, &mut self.slots)
                };
                let Some(kept) = kept else {
                    self.dropping = 1;
                    self.fates.push(Fate::Dropped);
                    return Ok(());
                };
                let void = facts.void;
                self.out
                    .open(ns, name.clone(), atom, kept.attrs, void, kept.change)?;
                self.fates.push(Fate::Kept);
                self.dsts.push(Dst {
                    ns,
                    name,
                    html_ip: kept.html_ip,
                    text_ip: kept.text_ip,
                    void,
                    depth,
                });
                Ok(())
            }
        }
    }
}

impl<O: CleanSink> RawSink for Cleaner<O> {
    fn open(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        judged: bool,
    ) -> Result<(), Abandon> {
        let known = if judged {
            Known::Judged
        } else {
            Known::Nothing
        };
        self.open_element(ns, name, attrs, known)
    }

    fn text(&mut self, text: &str) -> Result<(), Abandon> {
        if self.dropping > 0 {
            return Ok(());
        }
        let bytes = text.as_bytes();
        if bytes.len() <= SHORT {
            // One scan for what `strip_escape` looks for and what the
            // writer asks of short text.
            let found = classes(bytes);
            if found & ESC == 0 {
                if text.is_empty() {
                    return Ok(());
                }
                if self.dsts.last().is_none_or(|d| d.void) {
                    return Err(Abandon::Void);
                }
                return self.out.short_text(text, found);
            }
        }
        if bytes.len() > LONG && memchr::memchr3(0x1b, b'\r', 0, bytes).is_none() {
            // One search for what `strip_escape` and the writer's check of
            // the text look for: neither an ESC to strip nor a CR or NUL.
            if self.dsts.last().is_none_or(|d| d.void) {
                return Err(Abandon::Void);
            }
            return self.out.plain_text(text);
        }
        let text = strip_escape(text);
        if text.is_empty() {
            return Ok(());
        }
        if self.dsts.last().is_none_or(|d| d.void) {
            return Err(Abandon::Void);
        }
        self.out.text(&text)
    }

    fn close(&mut self) -> Result<(), Abandon> {
        match self.fates.pop().ok_or(Abandon::Engine)? {
            Fate::Dropped => {
                self.dropping = self.dropping.saturating_sub(1);
                Ok(())
            }
            Fate::Unwrapped => Ok(()),
            Fate::Kept => {
                let dst = self.dsts.pop().ok_or(Abandon::Engine)?;
                self.out.close(dst.ns, &dst.name, dst.void)
            }
        }
    }
}
