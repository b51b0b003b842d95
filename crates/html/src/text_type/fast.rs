//! The simulator's fast path: the common tag — an HTML start or end tag in body,
//! cell or caption content whose name changes neither the text type, the
//! foreign depth nor anything but the top of the stack — answered by one lookup
//! in a per-atom flag table, before any of the insertion-mode rules run. A few
//! tags with rules of their own take a short test of their own when the rule
//! only pushes or pops: headings, list items, tables and their rows and cells,
//! `script` and `style` (their text types).
//!
//! Every answer here is the one the rules in `modes.rs` give for the same state;
//! anything else returns `None` and takes the general path.

use super::{Mode, Node, Ns, TagEffect, TextTypeSimulator};
use crate::atom::{self, Atom, STATIC_NAMES};
use crate::tree_builder::TokenizerSwitch;
use crate::tree_builder::tag_sets::{SCOPE_BOUNDARIES_HTML, is_heading, is_special_html};

use atom::*;

/// A start tag that "in body" only pushes (the rules' `_ => push`).
const PUSH: u8 = 1;
/// A start tag that "in body" neither pushes nor pops (void elements and the
/// head elements that are ignored or inserted and popped there).
const VOID: u8 = 2;
/// An end tag that "in body", when it matches the current node, only pops it.
const POP: u8 = 4;
/// A start tag that "in body" closes a `p` in button scope, then pushes (the
/// block starts, `pre`, `listing`).
const BLOCK: u8 = 8;

/// A start tag "in body" with a rule of its own that [`TextTypeSimulator::own_start`]
/// answers when it only pushes.
const OWN: u8 = 16;

/// An HTML element that bounds "has an element in button scope".
const SCOPE: u8 = 32;

/// An HTML element that ends the list item loop of `<li>`: special, but not
/// `address`, `div` or `p`.
const LI_STOP: u8 = 64;

/// The [`OWN`] start tags.
pub(super) const OWN_STARTS: &[Atom] = &[H1, H2, H3, H4, H5, H6, LI, TABLE, SCRIPT, STYLE];

/// The [`BLOCK`] start tags.
pub(super) const BLOCKS: &[Atom] = &[
    ADDRESS, ARTICLE, ASIDE, BLOCKQUOTE, CENTER, DETAILS, DIALOG, DIR, DIV, DL, FIELDSET,
    FIGCAPTION, FIGURE, FOOTER, HEADER, HGROUP, MAIN, MENU, NAV, OL, P, SEARCH, SECTION, SUMMARY,
    UL, PRE, LISTING,
];

/// Start tags with rules of their own in "in body" (or before it): neither
/// [`PUSH`] nor [`VOID`].
pub(super) const START_RULES: &[Atom] = &[
    HTML, HEAD, NOFRAMES, SCRIPT, STYLE, TEMPLATE, TITLE, BODY, FRAMESET, ADDRESS, ARTICLE, ASIDE,
    BLOCKQUOTE, CENTER, DETAILS, DIALOG, DIR, DIV, DL, FIELDSET, FIGCAPTION, FIGURE, FOOTER,
    HEADER, HGROUP, MAIN, MENU, NAV, OL, P, SEARCH, SECTION, SUMMARY, UL, H1, H2, H3, H4, H5, H6,
    PRE, LISTING, FORM, LI, DD, DT, PLAINTEXT, BUTTON, A, NOBR, TABLE, INPUT, HR, TEXTAREA, XMP,
    IFRAME, NOEMBED, NOSCRIPT, SELECT, OPTION, OPTGROUP, RB, RTC, RP, RT, MATH, SVG, CAPTION, COL,
    COLGROUP, FRAME, TBODY, TD, TFOOT, TH, THEAD, TR,
];

/// Start tags that "in body" (with the body seen) change nothing.
pub(super) const VOIDS: &[Atom] = &[
    AREA, BR, EMBED, IMG, KEYGEN, WBR, PARAM, SOURCE, TRACK, IMAGE, BASE, BASEFONT, BGSOUND, LINK,
    META,
];

/// End tags with rules beyond "pop the matching current node" in body, cell or
/// caption content.
pub(super) const END_RULES: &[Atom] = &[
    FORM, TEMPLATE, BODY, HTML, BR, CAPTION, COL, COLGROUP, TABLE, TBODY, TFOOT, THEAD, TR, TD, TH,
];

const fn build() -> [u8; STATIC_NAMES.len()] {
    let mut table = [PUSH | POP; STATIC_NAMES.len()];
    let mut i = 0;
    while i < START_RULES.len() {
        table[START_RULES[i].0 as usize] &= !PUSH;
        i += 1;
    }
    let mut i = 0;
    while i < VOIDS.len() {
        table[VOIDS[i].0 as usize] = (table[VOIDS[i].0 as usize] & !PUSH) | VOID;
        i += 1;
    }
    let mut i = 0;
    while i < BLOCKS.len() {
        table[BLOCKS[i].0 as usize] |= BLOCK;
        i += 1;
    }
    let mut i = 0;
    while i < OWN_STARTS.len() {
        table[OWN_STARTS[i].0 as usize] |= OWN;
        i += 1;
    }
    let mut i = 0;
    while i < END_RULES.len() {
        table[END_RULES[i].0 as usize] &= !POP;
        i += 1;
    }
    let mut i = 0;
    while i < SCOPE_BOUNDARIES_HTML.len() {
        table[SCOPE_BOUNDARIES_HTML[i].0 as usize] |= SCOPE;
        i += 1;
    }
    table[BUTTON.0 as usize] |= SCOPE;
    let mut i = 0;
    while i < STATIC_NAMES.len() {
        let name = Atom(i as u32);
        if is_special_html(name) && !matches!(name, ADDRESS | DIV | P) {
            table[i] |= LI_STOP;
        }
        i += 1;
    }
    table
}

static FLAGS: [u8; STATIC_NAMES.len()] = build();

/// The flags of `name`; a dynamic atom (a name no rule mentions) pushes and pops.
#[inline(always)]
fn flags(name: Atom) -> u8 {
    FLAGS.get(name.0 as usize).copied().unwrap_or(PUSH | POP)
}

impl TextTypeSimulator {
    /// The effect of start tag `name` when it is the common case, applied.
    #[inline(always)]
    pub(super) fn fast_start(&mut self, name: Atom) -> Option<TagEffect> {
        let top = *self.stack.last()?;
        let len = self.stack.len();
        if self.frameset || !self.seen_body || top.ns != Ns::Html {
            return None;
        }
        let f = flags(name);
        let mut node = Node {
            name,
            ns: Ns::Html,
            mode: top.mode,
            html_ip: false,
            text: false,
        };
        let mut switch = None;
        let push = if f & OWN == 0 && matches!(top.mode, Mode::Body | Mode::Cell | Mode::Caption) {
            let push = f & PUSH != 0
                || (f & BLOCK != 0 && !self.p_in_button_scope())
                || (name == A && !self.a_is_open());
            if !push && f & VOID == 0 {
                return None;
            }
            push
        } else {
            self.own_start(top, &mut node, &mut switch)?;
            true
        };
        let opened_at = if push {
            if len >= self.config.max_depth.max(2) {
                return None;
            }
            self.stack.push(node);
            Some(len)
        } else {
            None
        };
        self.transient.clear();
        Some(TagEffect {
            kept: len,
            opened_at,
            switch,
            ns: Ns::Html,
        })
    }

    /// The [`OWN`] start tags in body, cell or caption content, rows in a table
    /// body and cells in a row, when their rule only pushes `node` (an HTML
    /// element, here given its mode and text type); `None` otherwise. `top` is
    /// the current node, an HTML element.
    #[inline]
    fn own_start(
        &self,
        top: Node,
        node: &mut Node,
        switch: &mut Option<TokenizerSwitch>,
    ) -> Option<()> {
        let name = node.name;
        match top.mode {
            Mode::Body | Mode::Cell | Mode::Caption => match name {
                H1 | H2 | H3 | H4 | H5 | H6 => {
                    // A heading closes a `p` in button scope and a heading
                    // that is the current node.
                    (!is_heading(top.name) && !self.p_in_button_scope()).then_some(())
                }
                LI => (!self.list_item_open() && !self.p_in_button_scope()).then_some(()),
                TABLE => {
                    if !self.config.quirks && self.p_in_button_scope() {
                        return None;
                    }
                    node.mode = Mode::Table;
                    Some(())
                }
                SCRIPT | STYLE => {
                    node.text = true;
                    *switch = Some(if name == SCRIPT {
                        TokenizerSwitch::ScriptData
                    } else {
                        TokenizerSwitch::Rawtext
                    });
                    Some(())
                }
                _ => None,
            },
            Mode::TableBody if name == TR && matches!(top.name, TBODY | TFOOT | THEAD) => {
                node.mode = Mode::Row;
                Some(())
            }
            Mode::Row if matches!(name, TD | TH) && top.name == TR => {
                node.mode = Mode::Cell;
                Some(())
            }
            _ => None,
        }
    }

    /// Whether a `<li>` would close an open `li` (the list item loop of "in
    /// body": an `li` before any special element but `address`, `div`, `p`).
    fn list_item_open(&self) -> bool {
        for n in self.stack.iter().rev() {
            if n.ns == Ns::Html {
                if n.name == LI {
                    return true;
                }
                if flags(n.name) & LI_STOP != 0 {
                    return false;
                }
            } else if Self::is_special(n) {
                return false;
            }
        }
        false
    }

    /// "Has a `p` element in button scope" by the flag table; the general
    /// test from the first foreign element on.
    fn p_in_button_scope(&self) -> bool {
        for n in self.stack.iter().rev() {
            if n.ns != Ns::Html {
                return self.in_button_scope(P);
            }
            if n.name == P {
                return true;
            }
            if flags(n.name) & SCOPE != 0 {
                return false;
            }
        }
        false
    }

    /// Whether an `a` is open after the last marker (what makes `<a>` close one).
    fn a_is_open(&self) -> bool {
        for n in self.stack.iter().rev() {
            if n.ns == Ns::Html {
                if n.name == A {
                    return true;
                }
                if matches!(
                    n.name,
                    APPLET | OBJECT | MARQUEE | TEMPLATE | TD | TH | CAPTION
                ) {
                    return false;
                }
            }
        }
        false
    }

    /// The effect of text when it changes nothing: the body is open and the
    /// current node is not one that text ends (`head`, its `noscript`, `colgroup`).
    #[inline(always)]
    pub(super) fn fast_characters(&mut self) -> Option<TagEffect> {
        let top = self.stack.last();
        let ends = top
            .is_some_and(|t| matches!(t.mode, Mode::Head | Mode::HeadNoscript | Mode::ColumnGroup));
        if !self.seen_body || ends {
            return None;
        }
        self.transient.clear();
        Some(TagEffect {
            kept: self.stack.len(),
            opened_at: None,
            switch: None,
            ns: top.map_or(Ns::Html, |t| t.ns),
        })
    }

    /// The effect of end tag `name` when it is the common case, applied: the end
    /// of a raw text element, or the current node's own end tag (a cell's, a
    /// row's, a table's too, and a table's right after its body's).
    #[inline(always)]
    pub(super) fn fast_end(&mut self, name: Atom) -> Option<TagEffect> {
        let top = *self.stack.last()?;
        let common = top.text
            || (!self.frameset
                && top.ns == Ns::Html
                && top.name == name
                && matches!(top.mode, Mode::Body | Mode::Cell | Mode::Caption)
                && flags(name) & POP != 0);
        let ns = top.ns;
        if common {
            self.stack.pop();
        } else {
            let keep = self.own_end(name, top)?;
            self.stack.truncate(keep);
        }
        self.transient.clear();
        Some(TagEffect {
            kept: self.stack.len(),
            opened_at: None,
            switch: None,
            ns,
        })
    }

    /// The stack's length after the table end tags whose rule only pops: a
    /// cell's or a row's own end tag, a table's when it or its body is the
    /// current node; `None` otherwise. `top` is the current node.
    #[inline]
    fn own_end(&self, name: Atom, top: Node) -> Option<usize> {
        if self.frameset || top.ns != Ns::Html {
            return None;
        }
        let len = self.stack.len();
        let own = |mode| top.name == name && top.mode == mode;
        match name {
            TD | TH if own(Mode::Cell) => Some(len - 1),
            TR if own(Mode::Row) => Some(len - 1),
            TABLE if own(Mode::Table) => Some(len - 1),
            TABLE
                if top.mode == Mode::TableBody
                    && matches!(top.name, TBODY | TFOOT | THEAD)
                    && len >= 2
                    && self.stack.get(len - 2).is_some_and(|t| {
                        t.ns == Ns::Html && t.name == TABLE && t.mode == Mode::Table
                    }) =>
            {
                Some(len - 2)
            }
            _ => None,
        }
    }
}
