//! The output, and its check without re-reading it: [`First`] serializes the
//! clean tree and, as it writes, the tokens a tokenizer would read back from
//! what it wrote (the stream S of the module docs); [`Second`] feeds S to a
//! second tree builder and compares that tree, node by node, with the clean
//! tree ([`Expect`]), and its own clean serialization with the output.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::Arc;

use tagloom_html::atom::{self, Atom};
use tagloom_html::dom_patch::{AttrNamespace, Namespace, PatchAttr};
use tagloom_html::serializer::{EscapeMode, write_escaped};
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::{Name, OwnedAttribute, OwnedToken};
use tagloom_html::tree_builder::{TokenizerSwitch, TreeBuilder};

use super::super::filter::keeps_tag_unchanged;
use super::super::rules::Rules;
use super::super::tree::AttrChange;
use super::super::tree_config;
use super::Abandon;
use super::clean::{CleanSink, Cleaner, Known};
use super::proof::Proof;
use super::walk::{RawSink, Walker};

/// One node event of the clean tree.
enum Event {
    Open {
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        /// The tree pass kept the parsed attributes unchanged.
        fixed: bool,
    },
    /// A whole text node: `Expect::texts[start..end]`.
    Text {
        start: usize,
        end: usize,
    },
    Close,
}

/// The clean tree's events not yet matched by the re-parse.
#[derive(Default)]
pub(crate) struct Expect {
    events: VecDeque<Event>,
    /// The queued texts, one after the other, then the text being written
    /// (cleared whenever every queued text is matched).
    texts: String,
    /// Where the re-parse's matching stands in `texts`.
    matched: usize,
    /// Where the text being written starts in `texts`.
    pending: usize,
}

impl Expect {
    pub(crate) fn is_done(&self) -> bool {
        self.events.is_empty()
    }
}

/// A name the tokenizer reads back as itself, ASCII-lowercased: letters,
/// digits, `-`, `_`, `.`, `:`; a tag name starts with a letter.
fn plain_name(name: &str, tag: bool) -> bool {
    let bytes = name.as_bytes();
    bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || (!tag && b.is_ascii_alphanumeric()))
        && bytes
            .iter()
            .all(|&b| NAME_BYTES.get(usize::from(b)).copied().unwrap_or(false))
}

#[cfg(test)]
#[test]
fn static_atoms_are_plain_names() {
    for name in tagloom_html::atom::STATIC_NAMES {
        assert!(plain_name(name, true), "{name}");
    }
}

/// The bytes of a plain name: ASCII letters and digits, `-`, `_`, `.`, `:`.
static NAME_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b':');
        b += 1;
    }
    t
};

/// Text up to this many bytes is scanned byte by byte against [`BYTES`]; longer
/// text is searched with `memchr` (vectorized, but with a fixed cost per call
/// that short text, such as the whitespace between tags, does not repay).
pub(super) const SHORT: usize = 24;

/// Bytes the text writer escapes: `&`, `<`, `>`, and `0xC2` (the lead byte
/// of U+00A0).
pub(super) const ESCAPE_TEXT: u8 = 1;
/// The byte a double-quoted value escapes besides those: `"`.
pub(super) const ESCAPE_QUOTE: u8 = 2;
/// Bytes the tokenizer's input preprocessing changes: CR, NUL.
const RAW: u8 = 4;
/// ESC, which the tree pass strips from text (`tree::strip_escape`).
pub(super) const ESC: u8 = 8;

/// Per byte: which of the classes above it belongs to.
static BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'&' as usize] = ESCAPE_TEXT;
    t[b'<' as usize] = ESCAPE_TEXT;
    t[b'>' as usize] = ESCAPE_TEXT;
    t[0xc2] = ESCAPE_TEXT;
    t[b'"' as usize] = ESCAPE_QUOTE;
    t[b'\r' as usize] = RAW;
    t[0] = RAW;
    t[0x1b] = ESC;
    t
};

/// The classes of the bytes of a short text, together.
pub(super) fn classes(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |acc, &b| {
        acc | BYTES.get(usize::from(b)).copied().unwrap_or(0)
    })
}

/// Text the tokenizer's input preprocessing leaves alone (no CR, no NUL).
pub(super) fn plain_text(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() <= SHORT {
        return classes(bytes) & RAW == 0;
    }
    memchr::memchr2(b'\r', 0, bytes).is_none()
}

fn attr_prefix(ns: AttrNamespace) -> Result<&'static str, Abandon> {
    match ns {
        AttrNamespace::None => Ok(""),
        AttrNamespace::XLink => Ok("xlink:"),
        AttrNamespace::Xml => Ok("xml:"),
        AttrNamespace::Xmlns => Err(Abandon::Name),
    }
}

/// Writes a start tag as the fragment serialization algorithm does.
fn write_start(html: &mut String, name: &str, attrs: &[PatchAttr]) -> Result<(), Abandon> {
    // Room for the tag as written (escaped values may need more).
    html.reserve(
        name.len()
            + 2
            + attrs
                .iter()
                .map(|a| a.name.len() + a.value.len() + 10)
                .sum::<usize>(),
    );
    html.push('<');
    html.push_str(name);
    for a in attrs {
        html.push(' ');
        if a.ns != AttrNamespace::None {
            html.push_str(attr_prefix(a.ns)?);
        }
        html.push_str(&a.name);
        html.push_str("=\"");
        let _ = write_escaped(html, &a.value, EscapeMode::DoubleQuoted);
        html.push('"');
    }
    html.push('>');
    Ok(())
}

/// [`write_start`] for the proof's check, which also needs every attribute
/// read back as written: a plain name, no CR or NUL in the value, no
/// repeated attribute (the tokenizer drops one); else [`Abandon::Name`].
/// One scan of a short value answers both whether it is plain and what to
/// escape.
fn write_start_checked(html: &mut String, name: &str, attrs: &[PatchAttr]) -> Result<(), Abandon> {
    html.reserve(
        name.len()
            + 2
            + attrs
                .iter()
                .map(|a| a.name.len() + a.value.len() + 10)
                .sum::<usize>(),
    );
    html.push('<');
    html.push_str(name);
    for (i, a) in attrs.iter().enumerate() {
        if !plain_name(&a.name, false)
            || attrs
                .iter()
                .take(i)
                .any(|b| b.name == a.name && b.ns == a.ns)
        {
            return Err(Abandon::Name);
        }
        html.push(' ');
        if a.ns != AttrNamespace::None {
            html.push_str(attr_prefix(a.ns)?);
        }
        html.push_str(&a.name);
        html.push_str("=\"");
        let bytes = a.value.as_bytes();
        if bytes.len() <= SHORT {
            let found = classes(bytes);
            if found & RAW != 0 {
                return Err(Abandon::Name);
            }
            if found & (ESCAPE_TEXT | ESCAPE_QUOTE) == 0 {
                html.push_str(&a.value);
            } else {
                let _ = write_escaped(html, &a.value, EscapeMode::DoubleQuoted);
            }
        } else {
            if !plain_text(&a.value) {
                return Err(Abandon::Name);
            }
            let _ = write_escaped(html, &a.value, EscapeMode::DoubleQuoted);
        }
        html.push('"');
    }
    html.push('>');
    Ok(())
}

fn write_end(html: &mut String, name: &str) {
    html.push_str("</");
    html.push_str(name);
    html.push('>');
}

/// How [`First`] checks its output.
pub(crate) enum Verify {
    /// The structural proof ([`Proof`]): no S, no second tree builder.
    Prove(Proof),
    /// The re-parse: S fed to a second tree builder ([`Second`]).
    Reparse(Box<Second>),
}

/// Which check [`First`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Check {
    Prove,
    Reparse,
}

/// The first tree's serializer, checked as it writes by the proof or by the
/// re-parse of S (then also its producer).
pub(crate) struct First {
    pub(crate) html: String,
    pub(crate) expect: Expect,
    /// S's character, start tag and end tag tokens, reused.
    chars: OwnedToken,
    start: OwnedToken,
    end: OwnedToken,
    pub(crate) verify: Verify,
    /// Attribute lists written out, for the fast path's sink to reuse.
    pub(crate) spent: Vec<Vec<PatchAttr>>,
}

impl First {
    pub(crate) fn new(policy: &Arc<Rules>, capacity: usize, check: Check) -> Self {
        First {
            html: String::with_capacity(capacity + capacity / 4),
            expect: Expect::default(),
            chars: OwnedToken::text(String::new()),
            start: OwnedToken::start(atom::SPAN),
            end: OwnedToken::end(atom::SPAN),
            verify: match check {
                Check::Prove => Verify::Prove(Proof::new(policy)),
                Check::Reparse => Verify::Reparse(Box::new(Second::new(policy))),
            },
            spent: Vec::new(),
        }
    }

    /// The re-parse of S, when that is the check.
    pub(crate) fn second(&self) -> Option<&Second> {
        match &self.verify {
            Verify::Reparse(second) => Some(second),
            Verify::Prove(_) => None,
        }
    }

    /// The text written since the last tag, as one token of S (the re-parse
    /// check only: the proof reads text as it comes).
    #[inline]
    fn flush_text(&mut self) -> Result<(), Abandon> {
        match self.verify {
            Verify::Prove(_) => Ok(()),
            Verify::Reparse(_) => self.flush_text_to_s(),
        }
    }

    #[inline(never)]
    fn flush_text_to_s(&mut self) -> Result<(), Abandon> {
        let Verify::Reparse(second) = &mut self.verify else {
            return Ok(());
        };
        let expect = &mut self.expect;
        let (start, end) = (expect.pending, expect.texts.len());
        if start == end {
            return Ok(());
        }
        expect.pending = end;
        expect.events.push_back(Event::Text { start, end });
        if let OwnedToken::Characters(t) = &mut self.chars {
            let buffer = t.text_mut();
            buffer.clear();
            buffer.push_str(expect.texts.get(start..end).unwrap_or_default());
        }
        second.feed(&self.chars, &mut self.expect, &self.html)
    }

    /// Feeds one token of S directly (tests of the guards).
    #[cfg(test)]
    pub(crate) fn feed_for_test(&mut self, token: &OwnedToken) -> Result<(), Abandon> {
        match &mut self.verify {
            Verify::Reparse(second) => second.feed(token, &mut self.expect, &self.html),
            Verify::Prove(_) => Err(Abandon::Engine),
        }
    }

    /// Text written: the proof's check of it, or queued for the re-parse's.
    fn verify_text(&mut self, text: &str) -> Result<(), Abandon> {
        match &mut self.verify {
            Verify::Prove(proof) => proof.text(text),
            Verify::Reparse(_) => {
                self.expect.texts.push_str(text);
                Ok(())
            }
        }
    }

    /// End of the clean tree: the end of S.
    pub(crate) fn finish(&mut self) -> Result<(), Abandon> {
        self.flush_text()?;
        match &mut self.verify {
            Verify::Reparse(second) => second.feed(&OwnedToken::Eof, &mut self.expect, &self.html),
            Verify::Prove(_) => Ok(()),
        }
    }
}

impl CleanSink for First {
    fn open(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        atom: Option<Atom>,
        attrs: Vec<PatchAttr>,
        void: bool,
        change: AttrChange,
    ) -> Result<(), Abandon> {
        self.flush_text()?;
        // Every static atom's name is plain (`static_atoms_are_plain_names`).
        if atom.is_none() && !plain_name(&name, true) {
            return Err(Abandon::Name);
        }
        let second = match &mut self.verify {
            Verify::Prove(proof) => {
                write_start_checked(&mut self.html, &name, &attrs)?;
                let proven = proof.open(ns, &name, atom, &attrs, void, change);
                if attrs.capacity() > 0 {
                    self.spent.push(attrs);
                }
                return proven;
            }
            Verify::Reparse(second) => second,
        };
        write_start(&mut self.html, &name, &attrs)?;
        let OwnedToken::StartTag(tag) = &mut self.start else {
            return Err(Abandon::Engine);
        };
        tag.set_name(Name::html(&name));
        let list = tag.attrs_mut();
        let mut n = 0;
        for a in &attrs {
            if !plain_name(&a.name, false) || !plain_text(&a.value) {
                return Err(Abandon::Name);
            }
            let full = match a.ns {
                AttrNamespace::None => Name::html(&a.name),
                ns => Name::html(&format!("{}{}", attr_prefix(ns)?, a.name)),
            };
            // The tokenizer drops a repeated attribute: S would not be its reading.
            if list.iter().take(n).any(|b| b.name == full) {
                return Err(Abandon::Name);
            }
            if let Some(slot) = list.get_mut(n) {
                slot.name = full;
                slot.value.clear();
                slot.value.push_str(&a.value);
            } else {
                list.push(OwnedAttribute::new(full, a.value.clone()));
            }
            n += 1;
        }
        list.truncate(n);
        // Queued before S's start tag: the re-parse reports it while processing it.
        self.expect.events.push_back(Event::Open {
            ns,
            name,
            attrs,
            fixed: change == AttrChange::None,
        });
        second.feed(&self.start, &mut self.expect, &self.html)
    }

    fn plain_text(&mut self, text: &str) -> Result<(), Abandon> {
        let _ = write_escaped(&mut self.html, text, EscapeMode::Text);
        self.verify_text(text)
    }

    fn short_text(&mut self, text: &str, found: u8) -> Result<(), Abandon> {
        if found & RAW != 0 {
            return Err(Abandon::Text);
        }
        if found & ESCAPE_TEXT == 0 {
            self.html.push_str(text);
        } else {
            let _ = write_escaped(&mut self.html, text, EscapeMode::Text);
        }
        self.verify_text(text)
    }

    fn text(&mut self, text: &str) -> Result<(), Abandon> {
        let bytes = text.as_bytes();
        if bytes.len() <= SHORT {
            // One scan for both questions.
            return self.short_text(text, classes(bytes));
        }
        if !plain_text(text) {
            return Err(Abandon::Text);
        }
        let _ = write_escaped(&mut self.html, text, EscapeMode::Text);
        self.verify_text(text)
    }

    fn close(&mut self, _ns: Namespace, name: &str, void: bool) -> Result<(), Abandon> {
        self.flush_text()?;
        if void {
            if matches!(self.verify, Verify::Reparse(_)) {
                self.expect.events.push_back(Event::Close);
            }
            return Ok(());
        }
        write_end(&mut self.html, name);
        let second = match &mut self.verify {
            Verify::Prove(proof) => return proof.close(),
            Verify::Reparse(second) => second,
        };
        self.expect.events.push_back(Event::Close);
        let OwnedToken::EndTag(tag) = &mut self.end else {
            return Err(Abandon::Engine);
        };
        tag.set_name(Name::html(name));
        second.feed(&self.end, &mut self.expect, &self.html)
    }
}

/// The second sanitize's serializer: the output of the tree pass over the
/// re-parse, compared with the first output piece by piece (`html` holds only
/// what the last token added).
pub(crate) struct Out {
    html: String,
    /// How much of the first output the second has matched.
    pub(crate) matched: usize,
    /// The second output left the first.
    pub(crate) differs: bool,
}

impl Out {
    /// Compares what was written since the last call with the first output.
    fn settle(&mut self, first: &str) {
        let end = self.matched + self.html.len();
        if first.get(self.matched..end) == Some(self.html.as_str()) {
            self.matched = end;
        } else {
            self.differs = true;
        }
        self.html.clear();
    }
}

impl CleanSink for Out {
    fn open(
        &mut self,
        _ns: Namespace,
        name: Cow<'static, str>,
        _atom: Option<Atom>,
        attrs: Vec<PatchAttr>,
        _void: bool,
        _change: AttrChange,
    ) -> Result<(), Abandon> {
        write_start(&mut self.html, &name, &attrs)
    }

    fn text(&mut self, text: &str) -> Result<(), Abandon> {
        let _ = write_escaped(&mut self.html, text, EscapeMode::Text);
        Ok(())
    }

    fn close(&mut self, _ns: Namespace, name: &str, void: bool) -> Result<(), Abandon> {
        if !void {
            write_end(&mut self.html, name);
        }
        Ok(())
    }
}

/// The re-parse of S, checked against the clean tree, and the second sanitize
/// of it.
pub(crate) struct Second {
    policy: Arc<Rules>,
    tb: TreeBuilder,
    sim: TextTypeSimulator,
    walker: Walker,
    pub(crate) cleaner: Cleaner<Out>,
    /// S so far is what the first pass's front end would feed its tree builder
    /// reading the output (see `Recheck::faithful` in the parent module).
    pub(crate) faithful: bool,
    /// Inside an RCDATA element (the tree builder asked for RCDATA): only its
    /// text and its end tag may follow in S.
    rcdata: Option<Name>,
    /// S as fed (tests compare it with a real tokenization of the output).
    #[cfg(test)]
    pub(crate) seen: Vec<OwnedToken>,
}

impl Second {
    fn new(policy: &Arc<Rules>) -> Self {
        let tb = TreeBuilder::new(tree_config("body", usize::MAX / 2));
        let document = tb.document_key();
        let root = tb.fragment_root_key().unwrap_or(document);
        Second {
            policy: policy.clone(),
            tb,
            sim: TextTypeSimulator::new(SimulatorConfig {
                max_depth: policy.max_depth,
                ..SimulatorConfig::default()
            }),
            walker: Walker::new(document, root),
            cleaner: Cleaner::new(
                policy,
                Out {
                    html: String::new(),
                    matched: 0,
                    differs: false,
                },
            ),
            faithful: true,
            rcdata: None,
            #[cfg(test)]
            seen: Vec::new(),
        }
    }

    /// Reads the next token of S (`first`: the first output so far).
    fn feed(
        &mut self,
        token: &OwnedToken,
        expect: &mut Expect,
        first: &str,
    ) -> Result<(), Abandon> {
        #[cfg(test)]
        self.seen.push(token.clone());
        if let Some(name) = &self.rcdata {
            match token {
                OwnedToken::Characters(_) | OwnedToken::Eof => {}
                OwnedToken::EndTag(t) if t.name() == name => self.rcdata = None,
                _ => return Err(Abandon::State),
            }
        }
        let mut switch = None;
        if self.faithful {
            self.faithful = match token {
                OwnedToken::StartTag(t) => keeps_tag_unchanged(
                    &self.policy,
                    t.name().as_str(),
                    t.attrs()
                        .iter()
                        .map(|a| (a.name.as_str(), a.value.as_str())),
                ),
                OwnedToken::EndTag(t) => self.policy.may_keep_tag(t.name().as_str()),
                _ => true,
            };
            switch = match token {
                OwnedToken::StartTag(t) => self.sim.start_tag_owned(t).switch,
                OwnedToken::EndTag(t) => self.sim.end_tag_owned(t).switch,
                OwnedToken::Characters(t) => {
                    self.sim.characters(t.text());
                    None
                }
                _ => None,
            };
        }
        self.tb.process_owned(token).map_err(|_| Abandon::Engine)?;
        let state = self.tb.take_tokenizer_state();
        match (state, token) {
            (None, _) => {}
            (Some(TokenizerSwitch::Rcdata), OwnedToken::StartTag(t)) => {
                self.rcdata = Some(t.name().clone());
            }
            // RAWTEXT, script data, PLAINTEXT: the output would not read as S.
            _ => return Err(Abandon::State),
        }
        self.faithful = self.faithful
            && switch == state
            && self.sim.cdata_allowed() == self.tb.cdata_allowed()
            && self.tb.open_elements() < self.policy.max_depth;
        let mut compare = Compare {
            expect,
            next: &mut self.cleaner,
        };
        for patch in self.tb.drain_patches() {
            self.walker.apply(patch, &mut compare)?;
        }
        if matches!(token, OwnedToken::Eof) {
            self.walker.finish(&mut compare)?;
        }
        self.cleaner.out.settle(first);
        Ok(())
    }
}

/// Checks each node of the re-parse against the clean tree, then passes it on
/// to the second tree pass.
struct Compare<'a> {
    expect: &'a mut Expect,
    next: &'a mut Cleaner<Out>,
}

impl RawSink for Compare<'_> {
    fn open(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        _judged: bool,
    ) -> Result<(), Abandon> {
        match self.expect.events.pop_front() {
            Some(Event::Open {
                ns: ns1,
                name: name1,
                attrs: attrs1,
                fixed,
            }) if ns1 == ns && name1 == name && attrs1 == attrs => {
                // Same element as the clean tree's: when the first tree pass
                // kept its attributes as parsed, the second would too.
                self.next.open_element(
                    ns,
                    name,
                    attrs,
                    if fixed { Known::Fixed } else { Known::Nothing },
                )
            }
            _ => Err(Abandon::Reparse),
        }
    }

    fn text(&mut self, text: &str) -> Result<(), Abandon> {
        let expect = &mut *self.expect;
        let Some(&Event::Text { start, end }) = expect.events.front() else {
            return Err(Abandon::Reparse);
        };
        let from = expect.matched.max(start);
        let to = from + text.len();
        if to > end || expect.texts.get(from..to) != Some(text) {
            return Err(Abandon::Reparse);
        }
        expect.matched = to;
        if to == end {
            expect.events.pop_front();
            if end == expect.texts.len() {
                // Every queued text is matched (and none is being written).
                expect.texts.clear();
                expect.matched = 0;
                expect.pending = 0;
            }
        }
        self.next.text(text)
    }

    fn close(&mut self) -> Result<(), Abandon> {
        match self.expect.events.pop_front() {
            Some(Event::Close) => self.next.close(),
            _ => Err(Abandon::Reparse),
        }
    }
}
