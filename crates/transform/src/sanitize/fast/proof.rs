//! The output check without a second parse: a proof, from the shape of the
//! clean tree alone, that a tree builder reading the output builds that tree
//! again, and that sanitizing the output gives it back. Checked in one pass as
//! [`First`](super::check::First) writes the output; when it cannot vouch for
//! an element or a text ([`Abandon::Unproven`]), the caller runs the fast path
//! again with the re-parse check (`check::Second`), which decides. The proof
//! may say "not proven" of a safe output; it may never say "proven" of one the
//! re-parse check refuses (a test holds it to that on every html5lib input,
//! vector and bench page).
//!
//! # The argument
//!
//! The output is the fragment serialization of the clean tree: every element
//! written as its start tag, its children, and (unless void) its end tag.
//! `First` already guarantees that a tokenizer reads it back as those tags
//! and texts (plain names, no CR or NUL, escaped text and values, no
//! duplicate attribute), and the proof admits no element that switches the
//! tokenizer's state (no raw text, RCDATA, PLAINTEXT, no foreign content).
//! By induction over the tokens, assume the re-parse's tree so far is the clean
//! tree so far, its stack of open elements is the path from the root to the
//! current element, its list of active formatting elements holds no element
//! that is off the stack, and its insertion mode is the one "reset the
//! insertion mode appropriately" gives for that path. Then:
//!
//! - an **end tag** always names the current node: the spec's end-tag steps
//!   ("in scope" checks find it first, "generate implied end tags" pops
//!   nothing above it, the adoption agency finds no furthest block) pop exactly
//!   it, and the insertion mode after a table element's end tag is again the
//!   reset one;
//! - a **start tag** is admitted only when the tree builder, in that mode and
//!   with that stack, just inserts it at the current node (and for void
//!   elements pops it at once). The table below lists what the spec's start-tag
//!   steps do beyond inserting (13.2.6.4.7 "in body", 13.2.6.4.9-15 the table
//!   modes), and the condition on the path under which they do nothing: no `p`
//!   in button scope for the elements that close one, no `li` (`dd`/`dt`) the
//!   list-item loop would reach, no `button`/`nobr` in scope, no `a` after the
//!   last marker of the list of active formatting elements, no open `form`, no
//!   heading as the parent of a heading, no parent that "generate implied end
//!   tags" pops under ruby elements; in the table modes only the section,
//!   row, cell, caption and column children the mode inserts as they are;
//!   never a table part where "in body" ignores it or "in cell"/"in caption"
//!   closes the cell;
//! - **text** is inserted at the current node, except that a table, section
//!   or row sends non-whitespace text to foster parenting (so only whitespace
//!   is admitted there), and a `pre`/`listing` drops a newline right after its
//!   start tag (so its first child may not be text starting with one).
//!
//! Each condition is a property of the path, kept per open element as a few
//! flags inherited from the parent and reset by the element kinds that the
//! spec's scope and list walks stop at (`tree_builder::html_element_categories`,
//! the tree builder's own tag sets).
//!
//! Sanitizing the output gives the output when the re-parse is the clean tree
//! and is *faithful* (see `check::Second`): the filter keeps each tag of the
//! output unchanged, the text-type simulator asks for no state switch (none
//! of the admitted elements has one), CDATA is never allowed (no foreign
//! content), and the stack stays under the depth cap (checked). The filter's
//! verdict follows from the tree pass's for elements whose attributes it kept
//! as parsed (`fixed`: every attribute was kept as it is in the HTML namespace,
//! so also with no namespace known); for the others the proof asks the filter,
//! and asks `keep_element` once more whether their attributes are its fixed
//! point — which is then what the second tree pass writes.

use std::sync::Arc;

use tagloom_html::atom::{self, Atom};
use tagloom_html::dom_patch::{AttrNamespace, Namespace, PatchAttr};
use tagloom_html::tree_builder::{ElementCategories, html_element_categories};

use super::super::filter::keeps_tag_unchanged;
use super::super::rules::Rules;
use super::super::tree::{AttrChange, keep_element};
use super::Abandon;

/// What the "in body" start-tag steps do with an element, beyond inserting it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Start {
    /// "Any other start tag": reconstruct the active formatting elements (a
    /// no-op here), insert.
    Ordinary,
    /// Close a `p` in button scope, insert.
    ClosesP,
    /// `h1`–`h6`: close a `p`, pop a heading that is the current node.
    Heading,
    /// `pre`, `listing`: close a `p`; a newline right after is dropped.
    PreListing,
    /// `form`: ignored while the form element pointer is set; closes a `p`.
    Form,
    /// `li`: the list-item loop; closes a `p`.
    Li,
    /// `dd`, `dt`: the list-item loop for either; closes a `p`.
    DdDt,
    /// `button`: closes a `button` in scope.
    Button,
    /// `a`: the adoption agency for an `a` after the last marker.
    A,
    /// The other formatting elements but `nobr`: pushed on the list.
    Formatting,
    /// `nobr`: the adoption agency for a `nobr` in scope.
    Nobr,
    /// `applet`, `marquee`, `object`: insert a marker.
    Marker,
    /// `table`: closes a `p` (no-quirks), switches to "in table".
    Table,
    /// Inserted and popped at once.
    Void,
    /// `hr`: closes a `p`, void.
    Hr,
    /// `rb`, `rtc`, `rp`, `rt`: "generate implied end tags" under a ruby.
    Ruby,
    /// `caption`: only as a child of a table.
    Caption,
    /// `colgroup`: only as a child of a table.
    ColGroup,
    /// `col`: only as a child of a column group.
    Col,
    /// `tbody`, `thead`, `tfoot`: only as children of a table.
    Section,
    /// `tr`: only as a child of a section.
    Row,
    /// `td`, `th`: only as children of a row.
    Cell,
    /// Anything the proof does not cover: raw text, RCDATA, `plaintext`,
    /// `select` and its options, `template`, `image`, head and document
    /// elements, `frame`, foreign roots, `selectedcontent`…
    Refused,
}

fn start_of(name: Option<Atom>) -> Start {
    use atom::*;
    let Some(name) = name else {
        return Start::Ordinary;
    };
    match name {
        ADDRESS | ARTICLE | ASIDE | BLOCKQUOTE | CENTER | DETAILS | DIALOG | DIR | DIV | DL
        | FIELDSET | FIGCAPTION | FIGURE | FOOTER | HEADER | HGROUP | MAIN | MENU | NAV | OL
        | P | SEARCH | SECTION | SUMMARY | UL => Start::ClosesP,
        H1 | H2 | H3 | H4 | H5 | H6 => Start::Heading,
        PRE | LISTING => Start::PreListing,
        FORM => Start::Form,
        LI => Start::Li,
        DD | DT => Start::DdDt,
        BUTTON => Start::Button,
        A => Start::A,
        B | BIG | CODE | EM | FONT | I | S | SMALL | STRIKE | STRONG | TT | U => Start::Formatting,
        NOBR => Start::Nobr,
        APPLET | MARQUEE | OBJECT => Start::Marker,
        TABLE => Start::Table,
        AREA | BR | EMBED | IMG | KEYGEN | WBR | INPUT | PARAM | SOURCE | TRACK => Start::Void,
        HR => Start::Hr,
        RB | RTC | RP | RT => Start::Ruby,
        CAPTION => Start::Caption,
        COLGROUP => Start::ColGroup,
        COL => Start::Col,
        TBODY | THEAD | TFOOT => Start::Section,
        TR => Start::Row,
        TD | TH => Start::Cell,
        HTML | HEAD | BODY | FRAMESET | FRAME | BASE | BASEFONT | BGSOUND | LINK | META
        | NOFRAMES | SCRIPT | STYLE | TEMPLATE | TITLE | PLAINTEXT | IMAGE | TEXTAREA | XMP
        | IFRAME | NOEMBED | NOSCRIPT | SELECT | OPTION | OPTGROUP | MATH | SVG
        | SELECTEDCONTENT => Start::Refused,
        _ => Start::Ordinary,
    }
}

/// The insertion mode the re-parse is in with an element as the current node
/// (as "reset the insertion mode appropriately" gives it for the path; a cell
/// or caption reads its content "in body" as far as the admitted tags go).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Body,
    Table,
    Section,
    Row,
    ColumnGroup,
}

/// Path properties, each "with this element as the current node".
mod flag {
    /// A `p` in button scope.
    pub(super) const P: u8 = 1;
    /// An `li` the `li` start tag's loop reaches.
    pub(super) const LI: u8 = 2;
    /// A `dd` or `dt` the `dd`/`dt` start tags' loop reaches.
    pub(super) const DD_DT: u8 = 4;
    /// A `button` in scope.
    pub(super) const BUTTON: u8 = 8;
    /// A `nobr` in scope.
    pub(super) const NOBR: u8 = 16;
    /// An `a` in the list of active formatting elements after its last marker.
    pub(super) const A: u8 = 32;
    /// An open `form` (the form element pointer is set).
    pub(super) const FORM: u8 = 64;
}

/// An open element of the clean tree.
struct Frame {
    cats: ElementCategories,
    mode: Mode,
    flags: u8,
    /// A `pre`/`listing` with no child yet.
    fresh_pre: bool,
}

/// What the proof reads of an HTML element's name, worked out once per
/// static atom: its start-tag steps, its categories, and how it changes the
/// path flags and the mode of its children (see [`child_frame`]).
#[derive(Clone, Copy)]
struct Kind {
    start: Start,
    cats: ElementCategories,
    /// Flags the element sets for its children.
    set: u8,
    /// Flags it clears (scope boundaries, list stops, markers).
    clear: u8,
    /// The mode it puts its children in (`None`: its parent's).
    mode: Option<Mode>,
    /// The static atom's name has an ASCII uppercase letter.
    upper: bool,
}

impl Kind {
    fn of(atom: Option<Atom>) -> Kind {
        let start = start_of(atom);
        let cats = atom.map(html_element_categories).unwrap_or_default();
        // `child_frame` over a parent with every flag, and with none: what it
        // clears and what it sets.
        let all = Frame {
            cats,
            mode: Mode::Body,
            flags: u8::MAX,
            fresh_pre: false,
        };
        let none = Frame { flags: 0, ..all };
        let set = child_frame(&none, atom, start, cats).flags;
        let clear = !child_frame(&all, atom, start, cats).flags;
        let probe = |mode| {
            child_frame(
                &Frame {
                    mode,
                    flags: 0,
                    ..all
                },
                atom,
                start,
                cats,
            )
            .mode
        };
        let mode = (probe(Mode::Body) == probe(Mode::Table)).then(|| probe(Mode::Body));
        let upper = atom
            .and_then(Atom::static_name)
            .is_some_and(|n| n.bytes().any(|b| b.is_ascii_uppercase()));
        Kind {
            upper,
            start,
            cats,
            set,
            clear,
            mode,
        }
    }

    /// [`child_frame`] of an element of this kind under `parent`.
    fn child(&self, parent: &Frame) -> Frame {
        Frame {
            cats: self.cats,
            mode: self.mode.unwrap_or(parent.mode),
            flags: (parent.flags & !self.clear) | self.set,
            fresh_pre: self.start == Start::PreListing,
        }
    }
}

/// See the [module docs](self).
pub(crate) struct Proof {
    policy: Arc<Rules>,
    /// [`Kind`]s of HTML elements by static atom index.
    kinds: Vec<Option<Kind>>,
    path: Vec<Frame>,
    /// The last answers of [`settled`] for a single attribute (nearly always
    /// the policy's `rel` on `a`): element, attribute, value, answer.
    memo: Vec<(Box<str>, PatchAttr, bool)>,
}

/// How many answers [`Proof::memo`] keeps.
const MEMO: usize = 8;

impl Proof {
    pub(crate) fn new(policy: &Arc<Rules>) -> Self {
        Proof {
            policy: policy.clone(),
            kinds: Vec::new(),
            // The fragment root: an `html` element, a scope boundary.
            path: vec![Frame {
                cats: html_element_categories(atom::HTML),
                mode: Mode::Body,
                flags: 0,
                fresh_pre: false,
            }],
            memo: Vec::new(),
        }
    }

    /// The [`Kind`] of an HTML element by its static atom (`None`: not one).
    fn kind(&mut self, atom: Option<Atom>) -> Kind {
        let Some(a) = atom else {
            return Kind::of(None);
        };
        let i = a.index() as usize;
        if let Some(Some(kind)) = self.kinds.get(i) {
            return *kind;
        }
        let kind = Kind::of(atom);
        if self.kinds.len() <= i {
            self.kinds.resize(i + 1, None);
        }
        if let Some(slot) = self.kinds.get_mut(i) {
            *slot = Some(kind);
        }
        kind
    }

    /// [`settled`], remembered for single attributes (a pure function of
    /// the policy, the element's name and the attribute).
    fn settled(&mut self, name: &str, attrs: &[PatchAttr]) -> bool {
        let [attr] = attrs else {
            return settled(&self.policy, name, attrs);
        };
        if let Some((_, _, answer)) = self.memo.iter().find(|(n, a, _)| **n == *name && a == attr) {
            return *answer;
        }
        let answer = settled(&self.policy, name, attrs);
        if self.memo.len() == MEMO {
            self.memo.remove(0);
        }
        self.memo.push((name.into(), attr.clone(), answer));
        answer
    }

    /// A kept element starts (`change`: how the tree pass changed its
    /// attributes; `void`: it serializes without content or end tag; `atom`:
    /// `Atom::lookup_static(name)` for an HTML element).
    pub(crate) fn open(
        &mut self,
        ns: Namespace,
        name: &str,
        atom: Option<Atom>,
        attrs: &[PatchAttr],
        void: bool,
        change: AttrChange,
    ) -> Result<(), Abandon> {
        let unproven = Err(Abandon::Unproven);
        if ns != Namespace::Html {
            return unproven;
        }
        debug_assert_eq!(atom, Atom::lookup_static(name.as_bytes()), "{name}");
        let kind = self.kind(atom);
        // A static atom's name is `name`: its letters are known.
        let upper = if atom.is_some() {
            kind.upper
        } else {
            name.bytes().any(|b| b.is_ascii_uppercase())
        };
        if upper {
            return unproven;
        }
        let start = kind.start;
        // The re-parse's stack (the root `html` and this path) stays under the
        // depth cap, with one to spare.
        if self.path.len() + 2 >= self.policy.max_depth {
            return unproven;
        }
        let parent = self.path.last().ok_or(Abandon::Engine)?;
        if !admitted(parent, start) || void != matches!(start, Start::Void | Start::Hr | Start::Col)
        {
            return unproven;
        }
        if attrs
            .iter()
            .any(|a| a.ns != AttrNamespace::None || a.name.bytes().any(|b| b.is_ascii_uppercase()))
        {
            return unproven;
        }
        // The filter passes the tag as written, and the tree pass over the
        // re-parse writes it again as it is: known for attributes the tree
        // pass kept as they were (see the module docs), asked of the others.
        let asked = match change {
            AttrChange::None => &[][..],
            // The link's `rel` is the last attribute; the tree pass judges
            // each attribute alone, so it is the only one to ask about.
            AttrChange::RelOnly => attrs.get(attrs.len().saturating_sub(1)..).unwrap_or(&[]),
            AttrChange::Other => attrs,
        };
        if !asked.is_empty() && !self.settled(name, asked) {
            return unproven;
        }
        debug_assert!(
            settled(&self.policy, name, attrs),
            "{name} {attrs:?} {change:?}"
        );
        let parent = self.path.last_mut().ok_or(Abandon::Engine)?;
        parent.fresh_pre = false;
        let frame = kind.child(parent);
        debug_assert!({
            let cats = atom.map(html_element_categories).unwrap_or_default();
            let slow = child_frame(parent, atom, start, cats);
            (slow.cats, slow.mode, slow.flags, slow.fresh_pre)
                == (frame.cats, frame.mode, frame.flags, frame.fresh_pre)
        });
        if !void {
            self.path.push(frame);
        }
        Ok(())
    }

    /// Text in the current element (pieces of one text node arrive one by one).
    pub(crate) fn text(&mut self, text: &str) -> Result<(), Abandon> {
        let top = self.path.last_mut().ok_or(Abandon::Engine)?;
        let ok = match top.mode {
            Mode::Body => !(top.fresh_pre && text.starts_with('\n')),
            // Anything but whitespace would be foster-parented (or close the
            // column group).
            _ => text
                .bytes()
                .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\x0c')),
        };
        top.fresh_pre = false;
        if ok { Ok(()) } else { Err(Abandon::Unproven) }
    }

    /// The current element ends (not called for void elements).
    pub(crate) fn close(&mut self) -> Result<(), Abandon> {
        if self.path.len() < 2 {
            return Err(Abandon::Engine);
        }
        self.path.pop();
        Ok(())
    }
}

/// Whether the filter keeps a start tag `name` with `attrs` unchanged and
/// the tree pass keeps an HTML element `name` with `attrs` as they are.
fn settled(policy: &Rules, name: &str, attrs: &[PatchAttr]) -> bool {
    keeps_tag_unchanged(
        policy,
        name,
        attrs.iter().map(|a| (&*a.name, a.value.as_str())),
    ) && keep_element(policy, Namespace::Html, name, attrs.to_vec(), false)
        .is_some_and(|again| again.attrs == attrs)
}

/// Whether the tree builder, with `parent` as the current node, inserts an
/// element whose start tag does `start` there and does nothing else.
fn admitted(parent: &Frame, start: Start) -> bool {
    let f = parent.flags;
    let no_p = f & flag::P == 0;
    match parent.mode {
        Mode::Table => matches!(start, Start::Caption | Start::ColGroup | Start::Section),
        Mode::Section => start == Start::Row,
        Mode::Row => start == Start::Cell,
        Mode::ColumnGroup => start == Start::Col,
        Mode::Body => match start {
            Start::Ordinary | Start::Formatting | Start::Marker | Start::Void => true,
            Start::ClosesP | Start::Table | Start::Hr => no_p,
            Start::Heading => no_p && !parent.cats.heading,
            Start::PreListing => no_p,
            Start::Form => no_p && f & flag::FORM == 0,
            Start::Li => no_p && f & flag::LI == 0,
            Start::DdDt => no_p && f & flag::DD_DT == 0,
            Start::Button => f & flag::BUTTON == 0,
            Start::A => f & flag::A == 0,
            Start::Nobr => f & flag::NOBR == 0,
            Start::Ruby => !parent.cats.implied_end_tag,
            Start::Caption
            | Start::ColGroup
            | Start::Col
            | Start::Section
            | Start::Row
            | Start::Cell
            | Start::Refused => false,
        },
    }
}

/// The frame of an element admitted under `parent`.
fn child_frame(parent: &Frame, atom: Option<Atom>, start: Start, cats: ElementCategories) -> Frame {
    use atom::*;
    let is = |name: Atom| atom == Some(name);
    let mut flags = parent.flags;
    let mut set = |flag: u8, on: bool, off: bool| {
        if on {
            flags |= flag;
        } else if off {
            flags &= !flag;
        }
    };
    // The scope walks stop at the scope boundaries (button scope: and at
    // `button`); the list-item loop at a special element other than
    // `address`, `div`, `p`; the formatting list's search at a marker.
    let list_stop = cats.special && !(is(ADDRESS) || is(DIV) || is(P));
    let marker = matches!(start, Start::Marker | Start::Cell | Start::Caption) || is(TEMPLATE);
    set(flag::P, is(P), cats.scope_boundary || is(BUTTON));
    set(flag::LI, is(LI), list_stop);
    set(flag::DD_DT, is(DD) || is(DT), list_stop);
    set(flag::BUTTON, is(BUTTON), cats.scope_boundary);
    set(flag::NOBR, is(NOBR), cats.scope_boundary);
    set(flag::A, is(A), marker);
    set(flag::FORM, is(FORM), false);
    let mode = match start {
        Start::Table => Mode::Table,
        Start::Section => Mode::Section,
        Start::Row => Mode::Row,
        Start::ColGroup => Mode::ColumnGroup,
        Start::Cell | Start::Caption => Mode::Body,
        _ => parent.mode,
    };
    Frame {
        cats,
        mode,
        flags,
        fresh_pre: start == Start::PreListing,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tagloom_html::dom_patch::Namespace;
    use tagloom_html::serializer::{FragmentOptions, children_to_string, serializes_as_void};

    use super::super::super::{Policy, parse_fragment, rules::Rules};
    use super::{Abandon, AttrChange, Proof};

    /// Whether `html` parsed as `<body>` content serializes back to itself.
    fn round_trips(html: &str) -> bool {
        let (store, root) = parse_fragment(html, "body", usize::MAX / 2).expect("parse");
        let root = store.get(root).expect("root");
        children_to_string(root, FragmentOptions::default()) == html
    }

    /// Feeds the proof the tree `html` is the serialization of, read as
    /// written (tags without attributes, text; not parsed as HTML).
    fn prove(html: &str) -> Result<(), Abandon> {
        let mut policy = Policy::widened();
        // Elements without attributes: none to add to links.
        policy.link_rel = None;
        let mut rest = html;
        while let Some(i) = rest.find('<') {
            let end = rest[i..].find('>').expect("tag end") + i;
            let name = rest[i + 1..end].trim_start_matches('/');
            policy.tags.insert(name.to_owned());
            rest = &rest[end + 1..];
        }
        let rules = Arc::new(Rules::new(Arc::new(policy)));
        let mut proof = Proof::new(&rules);
        let mut rest = html;
        while !rest.is_empty() {
            let Some(i) = rest.find('<') else {
                proof.text(rest)?;
                break;
            };
            if i > 0 {
                proof.text(&rest[..i])?;
            }
            let end = rest[i..].find('>').expect("tag end") + i;
            let tag = &rest[i + 1..end];
            if let Some(name) = tag.strip_prefix('/') {
                assert!(!serializes_as_void(Namespace::Html, name));
                proof.close()?;
            } else {
                let void = serializes_as_void(Namespace::Html, tag);
                proof.open(
                    Namespace::Html,
                    tag,
                    tagloom_html::atom::Atom::lookup_static(tag.as_bytes()),
                    &[],
                    void,
                    AttrChange::None,
                )?;
            }
            rest = &rest[end + 1..];
        }
        Ok(())
    }

    /// Serializations a parser reads back as another tree: the proof refuses
    /// each (and the parse shows why it must).
    #[test]
    fn refuses_what_a_parser_rebuilds() {
        for html in [
            "<p>a<div>b</div></p>",
            "<p><span><h2>b</h2></span></p>",
            "<p><i><table></table></i></p>",
            "<p>a<hr></p>",
            "<p><ul></ul></p>",
            "<h1>a<h2>b</h2></h1>",
            "<ul><li>a<span><li>b</li></span></li></ul>",
            "<ul><li>a<div><li>b</li></div></li></ul>",
            "<dl><dd>a<dt>b</dt></dd></dl>",
            "<a>a<span><a>b</a></span></a>",
            "<button>a<span><button>b</button></span></button>",
            "<nobr>a<nobr>b</nobr></nobr>",
            "<form>a<div><form>b</form></div></form>",
            "<pre>\nx</pre>",
            "<listing>\nx</listing>",
            "<table>x</table>",
            "<table><tbody>x<tr></tr></tbody></table>",
            "<table><tr><td>x</td></tr></table>",
            "<table><tbody><td>x</td></tbody></table>",
            "<table><col></table>",
            "<table><div>x</div></table>",
            "<table><tbody><tr><td><tr></tr></td></tr></tbody></table>",
            "<table><caption><td>x</td></caption></table>",
            "<div><td>y</td></div>",
            "<div><tr></tr></div>",
            "<ruby><rt>a<rp>b</rp></rt></ruby>",
            "<ruby><p><rb>b</rb></p></ruby>",
            "<option>a<option>b</option></option>",
            "<image></image>",
        ] {
            assert!(
                !round_trips(html),
                "{html:?} round-trips: not a test of the proof"
            );
            assert_eq!(prove(html), Err(Abandon::Unproven), "{html:?}");
        }
        // Outside the table whether or not they round-trip: state switches,
        // select parsing, templates, document and head elements.
        for html in [
            "<textarea>x</textarea>",
            "<title>x</title>",
            "<select><option>x</option></select>",
            "<template>x</template>",
            "<body>x</body>",
            "<meta>",
            "<noscript>x</noscript>",
            "<selectedcontent></selectedcontent>",
        ] {
            assert_eq!(prove(html), Err(Abandon::Unproven), "{html:?}");
        }
    }

    /// What the proof admits round-trips (the property test over every
    /// html5lib input and bench page is the real check).
    #[test]
    fn admits_shapes_that_round_trip() {
        for html in [
            "<p>a <b>b</b> <a>l</a><br>c</p><div><p>x</p></div>",
            "<ul><li>a<ul><li>b</li></ul></li></ul><ol><li>c<div>d</div></li></ol>",
            "<dl><dt>t</dt><dd>d<dl><dd>e</dd></dl></dd></dl>",
            "<table>\n<caption>c<p>x</p></caption><colgroup><col></colgroup><thead><tr><th>h</th></tr></thead>\n<tbody>\n<tr>\n<td><p>x</p><table><tbody><tr><td>in</td></tr></tbody></table></td>\n</tr></tbody></table>",
            "<p><span>a</span></p><p><a>1</a><a>2</a></p>",
            "<a><table><tbody><tr><td><a>in a cell</a></td></tr></tbody></table></a>",
            "<button><table><tbody><tr><td><button>x</button></td></tr></tbody></table></button>",
            "<p><button><div>x</div></button></p>",
            "<pre>x\ny</pre><pre><b>\n</b>x</pre><h1>a</h1><h2>b</h2>",
            "<form><div>x</div></form><form></form>",
            "<ruby>a<rt>b</rt><rp>c</rp></ruby>",
            "<b><b><b><b>deep</b></b></b></b>",
            "<nobr>a</nobr><nobr>b</nobr>",
        ] {
            assert!(round_trips(html), "{html:?} does not round-trip");
            assert_eq!(prove(html), Ok(()), "{html:?}");
        }
    }
}
