//! The tree pass on a stream: the rules of `tree.rs` applied as the walker
//! reports nodes, with the parent and namespace known at insertion. What the
//! streaming form cannot decide alone makes it give up ([`Abandon`]): a kept
//! text-only element (`style`, `xmp`…: its text must be judged whole), an
//! escaped element, anything added under a kept void element.

use std::borrow::Cow;

use tagloom_html::dom_patch::{Namespace, PatchAttr};
use tagloom_html::serializer::serializes_as_void;

use super::super::policy::Disposition;
use super::super::rules::{Rules, Verdict};
use super::super::tree::{
    AttrChange, KeptElement, Place, integration_points, is_text_only, keep_element, placement_ok,
    strip_escape,
};
use super::Abandon;
use super::walk::RawSink;

/// What a cleaner reports: the clean tree, in document order.
pub(crate) trait CleanSink {
    /// A kept element starts; `void` ones serialize without content or end tag;
    /// `change`: how the tree pass changed its attributes.
    fn open(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        void: bool,
        change: AttrChange,
    ) -> Result<(), Abandon>;
    /// Text in the current kept element (never empty).
    fn text(&mut self, text: &str) -> Result<(), Abandon>;
    /// The current kept element ends.
    fn close(&mut self, ns: Namespace, name: &str, void: bool) -> Result<(), Abandon>;
}

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

/// What became of an element of the source.
#[derive(Clone, Copy)]
enum Fate {
    Kept,
    Unwrapped,
    Dropped,
}

/// The streaming tree pass over `out`.
pub(crate) struct Cleaner<'p, O> {
    policy: &'p Rules,
    fates: Vec<Fate>,
    dsts: Vec<Dst>,
    /// Source elements open inside a dropped one (its own entry included).
    dropping: usize,
    pub(crate) out: O,
}

impl<'p, O: CleanSink> Cleaner<'p, O> {
    pub(crate) fn new(policy: &'p Rules, out: O) -> Self {
        Cleaner {
            policy,
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
            out,
        }
    }
}

impl<O: CleanSink> Cleaner<'_, O> {
    /// A source element starts; `fixed`: its attributes are known to be a
    /// fixed point of `keep_element` for this namespace and name (the first
    /// tree pass kept them as they were), so the call is skipped.
    pub(crate) fn open_element(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        fixed: bool,
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
        let mut verdict = self.policy.verdict(ns, &name);
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
                if is_text_only(ns, &name) {
                    return Err(Abandon::RawText);
                }
                let depth = parent.depth + 1;
                let kept = if fixed {
                    let (html_ip, text_ip) = integration_points(ns, &name, &attrs);
                    Some(KeptElement {
                        attrs,
                        html_ip,
                        text_ip,
                        change: AttrChange::None,
                    })
                } else {
                    keep_element(self.policy, ns, &name, attrs)
                };
                let Some(kept) = kept else {
                    self.dropping = 1;
                    self.fates.push(Fate::Dropped);
                    return Ok(());
                };
                let void = serializes_as_void(ns, &name);
                self.out
                    .open(ns, name.clone(), kept.attrs, void, kept.change)?;
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

impl<O: CleanSink> RawSink for Cleaner<'_, O> {
    fn open(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
    ) -> Result<(), Abandon> {
        self.open_element(ns, name, attrs, false)
    }

    fn text(&mut self, text: &str) -> Result<(), Abandon> {
        if self.dropping > 0 {
            return Ok(());
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
