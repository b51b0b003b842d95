//! The compiled selectors and the matcher over the stack of open elements.
//!
//! Every compound of every registered selector gets a bit. Each open element keeps
//! two bit sets: `matched` (the compound, and everything to its left, matches this
//! element) and `anc` (it matches this element or one of its ancestors). When an
//! element is pushed, only the compounds whose type is the element's name (plus
//! the universal ones; a universal one that requires an attribute, `[data-id]`
//! or `.x`, only on an element that has it) are evaluated, and a compound's left
//! part is one bit of the
//! parent's sets: `matched` across a child combinator, `anc` across a descendant
//! one. So a start tag costs one copy of the parent's `anc` words plus the
//! compounds that can match its name — nothing else, whatever the depth — and a
//! page with one `a[href]` handler pays one dispatch lookup on other tags.

use tagloom_html::atom::{Atom, AtomTable};
use tagloom_html::token::Attributes;

use super::ast::{AttrOp, Combinator, Compound, Cond, Selector};

/// The largest atom index the dispatch table covers (past it: binary search).
const DISPATCH_LIMIT: usize = 1 << 16;

/// What the matcher needs to know about an element.
#[derive(Clone, Copy)]
pub(crate) struct ElementInfo<'a> {
    pub(crate) name: Atom,
    /// `None` for an element the tree builder implies (no tag, no attributes).
    pub(crate) attrs: Option<&'a Attributes<'a>>,
}

/// The attributes HTML lists as having case-insensitive values for selectors (HTML
/// §4.16.2 "Case-sensitivity of selectors").
const CASE_INSENSITIVE_ATTRS: &[&str] = &[
    "accept",
    "accept-charset",
    "align",
    "alink",
    "axis",
    "bgcolor",
    "charset",
    "checked",
    "clear",
    "codetype",
    "color",
    "compact",
    "declare",
    "defer",
    "dir",
    "direction",
    "disabled",
    "enctype",
    "face",
    "frame",
    "hreflang",
    "http-equiv",
    "lang",
    "language",
    "link",
    "media",
    "method",
    "multiple",
    "nohref",
    "noresize",
    "noshade",
    "nowrap",
    "readonly",
    "rel",
    "rev",
    "rules",
    "scope",
    "scrolling",
    "selected",
    "shape",
    "target",
    "text",
    "type",
    "valign",
    "valuetype",
    "vlink",
];

#[derive(Debug)]
enum Test {
    Id(Box<str>),
    /// A class word; `None` when no class list can contain it (empty, or with
    /// whitespace in it), decided once here instead of at every element.
    Class(Option<Box<str>>),
    Attr {
        name: Atom,
        test: Option<(AttrOp, Box<str>)>,
        ci: bool,
    },
    Not(Vec<Simple>),
    Nth {
        a: i64,
        b: i64,
        of_type: bool,
    },
}

/// A compound without its left part (also the arguments of `:not`).
#[derive(Debug)]
struct Simple {
    name: Option<Atom>,
    tests: Vec<Test>,
}

#[derive(Debug)]
struct Step {
    simple: Simple,
    /// The compound to the left and how it is joined.
    prev: Option<(u32, Combinator)>,
    /// `prev` as the parent's bit to test: the word's offset in an entry's
    /// `2 * words` (the `matched` half for a child combinator, `anc` for a
    /// descendant one) and the mask (set by [`Program::finish`]).
    left: Option<(usize, u64)>,
}

/// All registered selectors, compiled.
#[derive(Debug, Default)]
pub(crate) struct Program {
    steps: Vec<Step>,
    /// Compounds by the type name they require, sorted by atom.
    /// (name, first, end) over `named_ids` (built by [`Self::finish`]).
    by_name: Vec<(Atom, u32, u32)>,
    /// The compounds with a type, grouped by it (built by [`Self::finish`]).
    named_ids: Vec<u32>,
    /// (type, compound) as added.
    named: Vec<(Atom, u32)>,
    /// Atom index → 1 + index into `by_name` (0: no compound needs that name);
    /// rebuilt by `add`, so a start tag finds its compounds with one load.
    dispatch: Vec<u16>,
    /// Universal compounds that require no attribute (run on every element)…
    universal: Vec<u32>,
    /// …and those that do, by that attribute (`[data-id]`, `.x` → `class`):
    /// run only on an element that has it, found with one lookup per name.
    universal_by_attr: Vec<(Atom, Vec<u32>)>,
    /// Words per bit set.
    words: usize,
    uses_of_type: bool,
}

impl Program {
    /// Adds a selector list; returns the bit of each of its rightmost compounds.
    /// Names are interned into `atoms`, the tokenizer's table.
    /// Call [`Self::finish`] after the last one.
    pub(crate) fn add(&mut self, selector: Selector, atoms: &mut AtomTable) -> Vec<u32> {
        let mut rightmost = Vec::with_capacity(selector.list.len());
        for complex in selector.list {
            let mut prev: Option<u32> = None;
            for (i, compound) in complex.compounds.into_iter().enumerate() {
                let id = self.steps.len() as u32;
                let comb = i
                    .checked_sub(1)
                    .and_then(|j| complex.combinators.get(j))
                    .copied();
                let simple = self.simple(compound, atoms);
                match simple.name {
                    Some(name) => self.named.push((name, id)),
                    None => match simple.required_attribute() {
                        None => self.universal.push(id),
                        Some(attr) => match self.universal_by_attr.iter_mut().find(|e| e.0 == attr)
                        {
                            Some(e) => e.1.push(id),
                            None => self.universal_by_attr.push((attr, vec![id])),
                        },
                    },
                }
                self.steps.push(Step {
                    simple,
                    prev: prev.zip(comb),
                    left: None,
                });
                prev = Some(id);
            }
            if let Some(id) = prev {
                rightmost.push(id);
            }
        }
        rightmost
    }

    /// Ends the adding: sizes the bit sets, and builds the dispatch table and
    /// each step's left test from them (once, not at every [`Self::add`]).
    pub(crate) fn finish(&mut self) {
        let w = self.steps.len().div_ceil(64);
        self.words = w;
        for step in &mut self.steps {
            step.left = step.prev.map(|(prev, comb)| {
                let half = match comb {
                    Combinator::Child => 0,
                    Combinator::Descendant => w,
                };
                (half + (prev / 64) as usize, 1u64 << (prev % 64))
            });
        }
        self.named.sort_unstable();
        self.by_name.clear();
        self.named_ids.clear();
        for &(name, id) in &self.named {
            let at = self.named_ids.len() as u32;
            self.named_ids.push(id);
            match self.by_name.last_mut() {
                Some(last) if last.0 == name => last.2 = at + 1,
                _ => self.by_name.push((name, at, at + 1)),
            }
        }
        self.build_dispatch();
    }

    fn build_dispatch(&mut self) {
        self.dispatch.clear();
        let max = self.by_name.iter().map(|e| e.0.index() as usize).max();
        match max {
            Some(max) if max < DISPATCH_LIMIT && self.by_name.len() < usize::from(u16::MAX) => {
                self.dispatch.resize(max + 1, 0);
                for (i, (atom, ..)) in self.by_name.iter().enumerate() {
                    if let Some(slot) = self.dispatch.get_mut(atom.index() as usize) {
                        *slot = (i + 1) as u16;
                    }
                }
            }
            _ => {}
        }
    }

    /// Compiles a compound, moving its strings (no copies).
    fn simple(&mut self, compound: Compound, atoms: &mut AtomTable) -> Simple {
        let tests = compound
            .conds
            .into_iter()
            .map(|cond| match cond {
                Cond::Id(id) => Test::Id(id.into_boxed_str()),
                Cond::Class(class) => Test::Class(
                    (!class.is_empty() && !class.bytes().any(|b| is_ascii_ws(char::from(b))))
                        .then(|| class.into_boxed_str()),
                ),
                Cond::Attr {
                    name,
                    test,
                    case_insensitive,
                } => {
                    // Case matters only to a value test (`[href]` looks up nothing).
                    let ci = test.is_some()
                        && case_insensitive.unwrap_or_else(|| {
                            CASE_INSENSITIVE_ATTRS.binary_search(&name.as_str()).is_ok()
                        });
                    Test::Attr {
                        name: atoms.intern(&name),
                        test: test.map(|(op, mut v)| {
                            if ci {
                                v.make_ascii_lowercase();
                            }
                            (op, v.into_boxed_str())
                        }),
                        ci,
                    }
                }
                Cond::Not(list) => {
                    Test::Not(list.into_iter().map(|c| self.simple(c, atoms)).collect())
                }
                Cond::Nth { a, b, of_type } => {
                    self.uses_of_type |= of_type;
                    Test::Nth { a, b, of_type }
                }
            })
            .collect();
        Simple {
            name: compound.name.as_deref().map(|n| atoms.intern(n)),
            tests,
        }
    }

    /// Words per bit set.
    pub(crate) fn words(&self) -> usize {
        self.words
    }

    /// The compounds that can match an element named `name`.
    #[inline]
    fn candidates(&self, name: Atom) -> (&[u32], &[u32]) {
        let at = if self.dispatch.is_empty() {
            self.by_name.binary_search_by_key(&name, |e| e.0).ok()
        } else {
            match self.dispatch.get(name.index() as usize) {
                Some(&slot) if slot > 0 => Some(usize::from(slot) - 1),
                _ => None,
            }
        };
        let named = at
            .and_then(|at| self.by_name.get(at))
            .and_then(|&(_, from, to)| self.named_ids.get(from as usize..to as usize))
            .unwrap_or_default();
        (named, &self.universal)
    }
}

/// Where an element stands among its siblings (1-based).
#[derive(Clone, Copy)]
struct Position {
    index: u32,
    type_index: u32,
}

impl Simple {
    /// An attribute every matching element has (outside `:not`).
    fn required_attribute(&self) -> Option<Atom> {
        self.tests.iter().find_map(|t| match t {
            Test::Id(_) => Some(tagloom_html::atom::ID),
            Test::Class(_) => Some(tagloom_html::atom::CLASS),
            Test::Attr { name, .. } => Some(*name),
            Test::Not(_) | Test::Nth { .. } => None,
        })
    }

    fn matches(&self, el: &ElementInfo<'_>, pos: Position) -> bool {
        if self.name.is_some_and(|n| n != el.name) {
            return false;
        }
        self.tests_match(el, pos)
    }

    /// [`Self::matches`] without the name (a candidate's name is known to fit).
    #[inline]
    fn tests_match(&self, el: &ElementInfo<'_>, pos: Position) -> bool {
        match self.tests.as_slice() {
            [] => true,
            [t] => t.matches(el, pos),
            tests => tests.iter().all(|t| t.matches(el, pos)),
        }
    }
}

/// `:not(list)`, out of line (it recurses into [`Simple::matches`], so
/// [`Test::matches`] can be inlined into the matcher's loop).
#[inline(never)]
fn not_matches(list: &[Simple], el: &ElementInfo<'_>, pos: Position) -> bool {
    !list.iter().any(|s| s.matches(el, pos))
}

impl Test {
    #[inline(always)]
    fn matches(&self, el: &ElementInfo<'_>, pos: Position) -> bool {
        match self {
            Test::Id(id) => attr(el, tagloom_html::atom::ID).is_some_and(|v| v == &**id),
            Test::Class(class) => class.as_ref().is_some_and(|class| {
                attr(el, tagloom_html::atom::CLASS)
                    .is_some_and(|v| has_word(v.as_bytes(), class.as_bytes()))
            }),
            Test::Attr {
                name, test: None, ..
            } => el.attrs.is_some_and(|a| a.has(*name)),
            Test::Attr {
                name,
                test: Some((op, x)),
                ci,
            } => attr(el, *name).is_some_and(|v| attr_test(*op, v, x, *ci)),
            Test::Not(list) => not_matches(list, el, pos),
            Test::Nth { a, b, of_type } => {
                let i = if *of_type { pos.type_index } else { pos.index };
                nth(*a, *b, i64::from(i))
            }
        }
    }
}

fn attr<'a>(el: &ElementInfo<'a>, name: Atom) -> Option<&'a str> {
    el.attrs.and_then(|a| a.value_of(name))
}

/// Whether `word` (not empty, no whitespace: [`Test::Class`] checked it) is one
/// of the whitespace-separated words of `list` (bytes: ASCII whitespace never
/// occurs inside a UTF-8 sequence).
#[inline]
fn has_word(list: &[u8], word: &[u8]) -> bool {
    let is_ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c');
    if list.len() <= word.len() {
        return list == word;
    }
    let Some(&first) = word.first() else {
        return false;
    };
    // Each place the word's first byte occurs: the word there, with whitespace
    // (or an end) on both sides.
    memchr::memchr_iter(first, list).any(|at| {
        list.get(at..at + word.len()) == Some(word)
            && at
                .checked_sub(1)
                .and_then(|i| list.get(i))
                .is_none_or(is_ws)
            && list.get(at + word.len()).is_none_or(is_ws)
    })
}

fn is_ascii_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c')
}

/// Whether some `n >= 0` gives `a*n + b == i`.
fn nth(a: i64, b: i64, i: i64) -> bool {
    if a == 0 {
        return i == b;
    }
    let d = i - b;
    d % a == 0 && d / a >= 0
}

fn attr_test(op: AttrOp, v: &str, x: &str, ci: bool) -> bool {
    let eq = |a: &str, b: &str| {
        if ci {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    let (vb, xb) = (v.as_bytes(), x.as_bytes());
    match op {
        AttrOp::Equals => eq(v, x),
        AttrOp::Includes => {
            !x.is_empty() && !x.contains(is_ascii_ws) && v.split(is_ascii_ws).any(|w| eq(w, x))
        }
        AttrOp::DashMatch => {
            eq(v, x)
                || (vb.len() > xb.len()
                    && vb.get(xb.len()) == Some(&b'-')
                    && v.get(..x.len()).is_some_and(|p| eq(p, x)))
        }
        AttrOp::Prefix => !x.is_empty() && v.get(..x.len()).is_some_and(|p| eq(p, x)),
        AttrOp::Suffix => {
            !x.is_empty()
                && vb.len() >= xb.len()
                && v.get(vb.len() - xb.len()..).is_some_and(|p| eq(p, x))
        }
        AttrOp::Substring => {
            !x.is_empty()
                && if ci {
                    vb.windows(xb.len()).any(|w| w.eq_ignore_ascii_case(xb))
                } else {
                    v.contains(x)
                }
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    name: Atom,
    /// Element children seen so far.
    children: u32,
}

/// The stack of open elements with the bit sets of the [module docs](self).
#[derive(Debug, Default)]
pub(crate) struct OpenStack {
    entries: Vec<Entry>,
    /// The document's children (the parent of the outermost element).
    root_children: u32,
    /// Only with `:nth-of-type`: per parent (0 the document, `d + 1` the entry at
    /// depth `d`), per name, element children seen so far. Inner lists are reused.
    of_type: Vec<Vec<(Atom, u32)>>,
    /// `2 * words` per entry: `matched`, then `anc`.
    bits: Vec<u64>,
    words: usize,
}

impl OpenStack {
    /// An empty stack for the selectors of `prog` (add no selectors after this).
    pub(crate) fn new(prog: &Program) -> Self {
        OpenStack {
            words: prog.words,
            ..OpenStack::default()
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn name_at(&self, index: usize) -> Option<Atom> {
        self.entries.get(index).map(|e| e.name)
    }

    pub(crate) fn top_name(&self) -> Option<Atom> {
        self.entries.last().map(|e| e.name)
    }

    /// Counts a child named `name` of the parent at `depth` (0: the document).
    fn count_of_type(&mut self, depth: usize, name: Atom) -> u32 {
        if self.of_type.len() < depth + 2 {
            self.of_type.resize_with(depth + 2, Vec::new);
        }
        // The new element's own list starts empty.
        if let Some(own) = self.of_type.get_mut(depth + 1) {
            own.clear();
        }
        let Some(list) = self.of_type.get_mut(depth) else {
            return 1;
        };
        match list.iter_mut().find(|e| e.0 == name) {
            Some(e) => {
                e.1 = e.1.saturating_add(1);
                e.1
            }
            None => {
                list.push((name, 1));
                1
            }
        }
    }

    /// Opens `el` as a child of the current top.
    #[inline]
    pub(crate) fn push(&mut self, prog: &Program, el: &ElementInfo<'_>) {
        let depth = self.entries.len();
        let parent = match self.entries.last_mut() {
            Some(e) => &mut e.children,
            None => &mut self.root_children,
        };
        *parent = parent.saturating_add(1);
        let index = *parent;
        let type_index = if prog.uses_of_type {
            self.count_of_type(depth, el.name)
        } else {
            0
        };
        self.entries.push(Entry {
            name: el.name,
            children: 0,
        });
        let w = self.words;
        if w == 0 {
            return;
        }
        let base = depth * 2 * w;
        if self.bits.len() < base + 2 * w {
            self.bits.resize(base + 2 * w, 0);
        }
        // `bits` keeps its high-water length: clear `matched`, inherit `anc`.
        if w == 1 {
            let anc = match depth {
                0 => 0,
                _ => self.bits.get(base - 1).copied().unwrap_or(0),
            };
            if let Some([m, a]) = self.bits.get_mut(base..base + 2) {
                *m = 0;
                *a = anc;
            }
        } else {
            if let Some(m) = self.bits.get_mut(base..base + w) {
                m.fill(0);
            }
            if depth > 0 {
                self.bits.copy_within(base - w..base, base + w);
            } else if let Some(a) = self.bits.get_mut(base + w..base + 2 * w) {
                a.fill(0);
            }
        }
        let pos = Position { index, type_index };
        let (named, universal) = prog.candidates(el.name);
        if !named.is_empty() || !universal.is_empty() {
            self.match_compounds(prog, el, named, universal, depth, pos);
        }
        if let Some(attrs) = el.attrs
            && !prog.universal_by_attr.is_empty()
            && !attrs.is_empty()
        {
            // The universal compounds whose required attribute the element has.
            for (name, ids) in &prog.universal_by_attr {
                if attrs.has(*name) {
                    self.match_compounds(prog, el, ids, &[], depth, pos);
                }
            }
        }
    }

    /// Sets the bits of the compounds among `named` and `universal` that match
    /// the element just pushed at `depth`.
    fn match_compounds(
        &mut self,
        prog: &Program,
        el: &ElementInfo<'_>,
        named: &[u32],
        universal: &[u32],
        depth: usize,
        pos: Position,
    ) {
        let base = depth * 2 * self.words;
        for &id in named {
            self.match_step(prog, el, id, base, pos);
        }
        for &id in universal {
            self.match_step(prog, el, id, base, pos);
        }
    }

    /// Sets compound `id`'s bits in the entry at `base` if it matches.
    #[inline(always)]
    fn match_step(
        &mut self,
        prog: &Program,
        el: &ElementInfo<'_>,
        id: u32,
        base: usize,
        pos: Position,
    ) {
        let Some(step) = prog.steps.get(id as usize) else {
            return;
        };
        let w = self.words;
        if let Some((word, mask)) = step.left {
            // The parent's entry starts `2 * w` before this one's.
            let parent = base
                .checked_sub(2 * w)
                .and_then(|p| self.bits.get(p + word));
            if parent.is_none_or(|b| b & mask == 0) {
                return;
            }
        }
        // Candidates come from the name's dispatch (the name fits) or are
        // universal (no name).
        if step.simple.tests_match(el, pos) {
            let (word, mask) = ((id / 64) as usize, 1u64 << (id % 64));
            if let Some([m, .., a]) = self.bits.get_mut(base + word..=base + w + word) {
                *m |= mask;
                *a |= mask;
            }
        }
    }

    /// Closes the top element.
    pub(crate) fn pop(&mut self) {
        self.entries.pop();
    }

    fn bit(&self, depth: usize, id: u32, anc: bool) -> bool {
        let w = self.words;
        let at = depth * 2 * w + if anc { w } else { 0 } + (id / 64) as usize;
        self.bits
            .get(at)
            .is_some_and(|b| b & (1u64 << (id % 64)) != 0)
    }

    /// The top element's `matched` bits (empty when the stack is).
    #[inline]
    pub(crate) fn top_matched(&self) -> &[u64] {
        let Some(depth) = self.entries.len().checked_sub(1) else {
            return &[];
        };
        let base = depth * 2 * self.words;
        self.bits.get(base..base + self.words).unwrap_or_default()
    }

    /// Whether the top element matches any compound of `mask`.
    #[inline]
    pub(crate) fn top_hits(&self, mask: &[u64]) -> bool {
        let Some(depth) = self.entries.len().checked_sub(1) else {
            return false;
        };
        let base = depth * 2 * self.words;
        self.bits
            .get(base..base + self.words)
            .is_some_and(|m| m.iter().zip(mask).any(|(a, b)| a & b != 0))
    }

    /// Whether the top element or one of its ancestors matches the compound `id`.
    pub(crate) fn inside(&self, id: u32) -> bool {
        self.entries
            .len()
            .checked_sub(1)
            .is_some_and(|d| self.bit(d, id, true))
    }
}

#[cfg(test)]
mod tests {
    use super::{CASE_INSENSITIVE_ATTRS, has_word};

    #[test]
    fn case_insensitive_attributes_are_sorted_for_the_binary_search() {
        assert!(CASE_INSENSITIVE_ATTRS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn class_words_are_whole_words() {
        let yes = [
            ("content", "content"),
            ("a content b", "content"),
            ("\tcontent\n", "content"),
            ("x  content", "content"),
            ("é content", "content"),
        ];
        for (list, word) in yes {
            assert!(
                has_word(list.as_bytes(), word.as_bytes()),
                "{list:?} {word:?}"
            );
        }
        let no = [
            ("contents", "content"),
            ("xcontent", "content"),
            ("con tent", "content"),
            ("", "content"),
            ("conten", "content"),
            ("tent", "content"),
        ];
        for (list, word) in no {
            assert!(
                !has_word(list.as_bytes(), word.as_bytes()),
                "{list:?} {word:?}"
            );
        }
    }
}
