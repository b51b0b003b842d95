//! The tree of a flat token run without the tree builder: a ref body that is
//! text, links, call markers and properly nested inline elements (most of
//! the corpus's bodies: a citation template's output, a title in italics)
//! is a list of text, comments, void `meta`/`link`/`br` and nested
//! `a`/`span`/`sup`/`sub`/`i`/`b` elements. For such runs the tree builder
//! (in `<body>`, fragment or document) does nothing but append: each end tag
//! closes the current node (the adoption agency then only pops it), every
//! active formatting element is open (none is reconstructed), no `a` is
//! inside an `a`, nothing is fostered. Anything else is not flat and goes
//! the whole way.

use tagloom_html::atom;
use tagloom_html::token::{OwnedTag, OwnedToken};
use tagloom_html::tree_builder::AppendRun;

use super::patch_tree::AttrHandoff;
use std::borrow::Cow;
use std::cell::RefCell;

use super::{Attr, Element, Marked, Node, Value};
use crate::token::{Tok, WikiToken};

/// A start tag the run may hold: `Some(true)` for a void one (closed at
/// once), `Some(false)` for a container (closed by its own end tag while it
/// is the current node). The tree builder keeps a token's attributes as
/// they are (a repeated name too), as [`build`] does.
fn kind(tag: &OwnedTag) -> Option<bool> {
    let name = tag.name().atom()?;
    if name == atom::META || name == atom::LINK || name == atom::BR {
        Some(true)
    } else if [atom::A, atom::SPAN, atom::SUP, atom::SUB, atom::I, atom::B].contains(&name) {
        Some(false)
    } else {
        None
    }
}

/// Whether `tokens` (a phase-3 stage's output, or with `raw` the
/// tokenizer's, which no stage has seen: HTML tokens only) build flat. What
/// the render's `flatten` turns into text (newlines, quote runs) is text
/// here.
pub(crate) fn is_flat(tokens: &[WikiToken], raw: bool) -> bool {
    // The open containers' names.
    let mut open: Vec<&str> = Vec::new();
    tokens.iter().all(|t| match &t.tok {
        Tok::Html(OwnedToken::StartTag(tag)) => match kind(tag) {
            Some(true) => true,
            Some(false) => {
                let name = tag.name().as_str();
                let nested_a = name == "a" && open.contains(&"a");
                open.push(name);
                !nested_a
            }
            None => false,
        },
        Tok::Html(OwnedToken::EndTag(tag)) => {
            kind(tag) == Some(false) && open.pop() == Some(tag.name().as_str())
        }
        Tok::Html(OwnedToken::Characters(c)) => !c.text().is_empty() && !c.text().contains('\0'),
        Tok::Html(OwnedToken::Comment(_)) | Tok::Eof => true,
        Tok::Newline | Tok::Quote(_) => !raw,
        _ => false,
    })
}

/// An element waiting for its children: made from a start tag, it becomes
/// an [`Element`] when it closes (no children list made and dropped
/// before).
struct Open {
    name: Cow<'static, str>,
    attrs: Vec<Attr>,
    /// Where its children start in [`Appender::nodes`].
    start: usize,
    /// Whether a node below it concerns the marker passes.
    below: bool,
    /// Whether it concerns them itself ([`Marked::concerns`], found from the
    /// tag's atom instead of its name's text).
    concerns: bool,
}

impl Open {
    /// Inlined into [`Appender::push`], its one caller.
    #[inline(always)]
    fn new(mut tag: OwnedTag, start: usize) -> Open {
        let concerns = tag.name().atom().is_some_and(|a| {
            [
                atom::META,
                atom::TABLE,
                atom::TBODY,
                atom::THEAD,
                atom::TFOOT,
                atom::TR,
            ]
            .contains(&a)
        });
        let name = tag.name().clone().into_cow();
        // The attributes and whether one is private, in one walk.
        let (attrs, private) =
            AttrHandoff::into_tree_attrs_private(std::mem::take(tag.attrs_mut()));
        Open {
            name,
            attrs,
            start,
            below: false,
            concerns: concerns || private,
        }
    }

    /// The element, with `children`.
    fn close(self, children: Vec<Node>) -> Element {
        Element {
            name: self.name,
            attrs: self.attrs,
            children,
            marked: if self.below {
                Marked::MAYBE
            } else {
                Marked::NONE
            },
        }
    }
}

thread_local! {
    /// The [`Appender`] of [`build`]: a ref body's tree is built in the
    /// buffers of the last one's (not grown again from nothing each time).
    static APPENDER: RefCell<Appender> = RefCell::new(Appender::default());
}

/// The tree that `fill` builds in an [`Appender`] by appending only (the
/// thread's reused one; a new one if `fill` itself builds a tree).
pub(crate) fn build(fill: impl FnOnce(&mut Appender)) -> Vec<Node> {
    APPENDER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut tree) => {
            // Empty unless a `fill` panicked half-way.
            tree.nodes.clear();
            tree.open.clear();
            fill(&mut tree);
            tree.finish()
        }
        Err(_) => {
            let mut tree = Appender::default();
            fill(&mut tree);
            tree.finish()
        }
    })
}

/// A tree built by appending only, token by token: from a run [`is_flat`]
/// accepted (flattened, in `<body>`), or one the tree builder's
/// [`AppendRun`] did (where it stopped). Each start tag opens an element (a
/// void one closes at once), each end tag closes the last open one, text
/// joins a text just before it and empty text makes nothing, as in the tree
/// builder. Reused: its buffers stay.
///
/// The nodes of the open elements wait in one list, each element's after
/// its parent's, so an element's children are moved once, into a list made
/// at their number, when it closes (no list grown by copies).
#[derive(Default)]
pub(crate) struct Appender {
    /// The top-level nodes, then the children of each open element.
    nodes: Vec<Node>,
    /// The open elements.
    open: Vec<Open>,
}

impl Appender {
    /// Inlined into its loops: a call per token cost 1.3 M instructions on
    /// the corpus (its prologue and the token passed through the stack).
    #[inline(always)]
    pub(crate) fn push(&mut self, token: OwnedToken) {
        match token {
            OwnedToken::StartTag(tag) => {
                let void = tag.name().atom().is_some_and(AppendRun::is_void);
                let e = Open::new(tag, self.nodes.len());
                if void {
                    self.append(e, Vec::new());
                } else {
                    self.open.push(e);
                }
            }
            OwnedToken::EndTag(_) => self.close_last(),
            OwnedToken::Characters(mut t) if !t.text().is_empty() => match self.last_text() {
                Some(last) => last.push_str(t.text()),
                None => self.nodes.push(Node::Text(t.take_text().into())),
            },
            OwnedToken::Comment(mut c) => self.nodes.push(Node::Comment(c.take_text())),
            _ => {}
        }
    }

    /// Appends `text` as a text token would be ([`push`](Self::push)),
    /// copied only when it makes a node of its own.
    pub(crate) fn push_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.join_or_push(text, |t| t.to_owned().into());
    }

    /// Appends the static `text` (a newline) as [`push_text`](Self::push_text)
    /// does, with no copy when it makes a node of its own: most newlines
    /// of the runs do (the text before them ended at a tag).
    pub(crate) fn push_static(&mut self, text: &'static str) {
        if text.is_empty() {
            return;
        }
        self.join_or_push(text, Value::from);
    }

    /// `text` joined to the text just before ([`last_text`](Self::last_text)),
    /// or a text node of its own made by `node`.
    fn join_or_push<'t>(&mut self, text: &'t str, node: impl FnOnce(&'t str) -> Value) {
        match self.last_text() {
            Some(last) => last.push_str(text),
            None => self.nodes.push(Node::Text(node(text))),
        }
    }

    /// The text just before the next node in the same parent, which text
    /// joins.
    fn last_text(&mut self) -> Option<&mut Value> {
        let start = self.open.last().map_or(0, |e| e.start);
        if self.nodes.len() > start
            && let Some(Node::Text(last)) = self.nodes.last_mut()
        {
            return Some(last);
        }
        None
    }

    /// Closes the last `n` open elements (as the table model closes a
    /// cell, row or section before what follows it,
    /// `tagloom_html::tree_builder::RunStep`).
    pub(crate) fn close(&mut self, n: usize) {
        for _ in 0..n {
            self.close_last();
        }
    }

    /// Closes the last open element.
    fn close_last(&mut self) {
        if let Some(e) = self.open.pop() {
            let children = if e.start > 0 {
                self.nodes.split_off(e.start)
            } else {
                self.take_all()
            };
            self.append(e, children);
        }
    }

    /// Appends the element `e` closes as, with `children`.
    fn append(&mut self, e: Open, children: Vec<Node>) {
        let concerns = e.below || e.concerns;
        if let Some(parent) = self.open.last_mut() {
            parent.below |= concerns;
        }
        self.nodes.push(Node::Element(e.close(children)));
    }

    /// The tree's top-level nodes (elements left open end with the input);
    /// empty again for the next tree.
    pub(crate) fn finish(&mut self) -> Vec<Node> {
        while !self.open.is_empty() {
            self.close_last();
        }
        self.take_all()
    }

    /// All of `nodes`, moved by one copy into a list made at their number
    /// (`split_off(0)` would hand over the reused buffer itself).
    fn take_all(&mut self) -> Vec<Node> {
        let mut all = Vec::with_capacity(self.nodes.len());
        all.append(&mut self.nodes);
        all
    }
}

/// Whether the elements of `a` and `b` (equal trees) have the same
/// [`Marked`] (which equality ignores).
#[cfg(debug_assertions)]
pub(crate) fn same_marks(a: &[Node], b: &[Node]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|pair| match pair {
            (Node::Element(x), Node::Element(y)) => {
                x.marked_below() == y.marked_below() && same_marks(&x.children, &y.children)
            }
            _ => true,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RenderOptions;
    use crate::render::{Page, render_inline};
    use std::rc::Rc;
    use std::sync::Arc;

    /// Whether `body`'s tokens as an inline render makes them are flat before
    /// the phase-3 stages.
    fn flat(body: &str) -> bool {
        let page = Page::new(Arc::new(RenderOptions::default()), Arc::from(Vec::new()));
        let tokens = crate::tokenize::tokenize_page(
            body,
            &page.calls,
            &page.options.preprocess.site,
            page.link_page(),
        );
        is_flat(&tokens, true)
    }

    #[test]
    fn open_elements_concern_the_marker_passes_as_their_elements_do() {
        for tag in [
            OwnedTag::new("meta"),
            OwnedTag::new("tr"),
            OwnedTag::new("tfoot"),
            OwnedTag::new("b"),
            OwnedTag::new("span").with_attr("class", "x"),
            OwnedTag::new("span").with_attr("tl:call", "1"),
            OwnedTag::new("made-up").with_attr("id", "y"),
        ] {
            let name = tag.name().as_str().to_owned();
            let open = Open::new(tag, 0);
            let own = open.concerns;
            assert_eq!(own, Marked::concerns(&open.close(Vec::new())), "{name}");
        }
    }

    #[test]
    fn children_leave_the_shared_list_whole_and_in_order() {
        let mut tree = Appender::default();
        for t in [
            OwnedToken::start("span"),
            OwnedToken::text("a"),
            OwnedToken::end("span"),
            OwnedToken::text("b"),
            OwnedToken::start("i"),
            OwnedToken::text("c"),
            OwnedToken::start("b"),
            OwnedToken::text("d"),
        ] {
            tree.push(t);
        }
        let nodes = tree.finish();
        let mut i = Element::new("i");
        let mut b = Element::new("b");
        b.children = vec![Node::Text("d".into())];
        i.children = vec![Node::Text("c".into()), Node::Element(b)];
        let mut span = Element::new("span");
        span.children = vec![Node::Text("a".into())];
        let expected = vec![
            Node::Element(span),
            Node::Text("b".into()),
            Node::Element(i),
        ];
        assert_eq!(nodes, expected);
        assert!(tree.finish().is_empty());
    }

    #[test]
    fn static_text_makes_a_node_or_joins_as_text_does() {
        let mut tree = Appender::default();
        tree.push_static("\n");
        tree.push(OwnedToken::text("a"));
        tree.push(OwnedToken::start("b"));
        tree.push_static("\n");
        tree.push_static("");
        tree.push(OwnedToken::end("b"));
        tree.push_text("c");
        tree.push_static("\n");
        let nodes = tree.finish();
        let mut b = Element::new("b");
        b.children = vec![Node::Text("\n".into())];
        let expected = vec![
            Node::Text("\na".into()),
            Node::Element(b),
            Node::Text("c\n".into()),
        ];
        assert_eq!(nodes, expected);
        // A newline alone stays static text (no allocation).
        let Some(Node::Element(b)) = nodes.get(1) else {
            panic!("{nodes:?}")
        };
        assert!(matches!(b.children.first(), Some(Node::Text(t)) if t.is_static()));
        assert!(matches!(nodes.first(), Some(Node::Text(t)) if !t.is_static()));
    }

    #[test]
    fn flat_bodies_build_what_the_tree_builder_builds() {
        // Debug builds compare each flat render with the pipeline's.
        for body in [
            "[[Some page]]",
            "[[a|b]] and [[c]]s",
            "[http://example.org x] y",
            "x: [[Foo]], [[Bar]]",
            "<span>x</span> [[y]]",
            "[[Category:X]] text",
            "<i>x</i> <b>[[y]]</b>",
        ] {
            assert!(flat(body), "{body}");
            let page = Rc::new(Page::new(
                Arc::new(RenderOptions::default()),
                Arc::from(Vec::new()),
            ));
            assert!(!render_inline(body, &page, 1).is_empty(), "{body}");
            page.release_renderers();
        }
        for body in ["''x''", "a\nb", "<div>x</div>", "* item", "<i>x</b>"] {
            assert!(!flat(body), "{body}");
        }
        // Flat once the stages ran (quotes resolved, newlines as text), or
        // not flat at all: each render is checked the same way.
        for body in [
            "''A title'', p. 5",
            "'''bold''' and ''italic''\nnext line",
            "a ''b [[c]] d'' e",
            "''unclosed [[x]]",
            "'''''both''''' <!-- note --> x",
            "a<br>b<sup>2</sup>",
            "* item",
            "<b>x<i>y</b>z</i>",
            "<span title=a title=b>x</span> <span class=\"c\" class=d>y</span>",
        ] {
            let page = Rc::new(Page::new(
                Arc::new(RenderOptions::default()),
                Arc::from(Vec::new()),
            ));
            assert!(!render_inline(body, &page, 1).is_empty(), "{body}");
            page.release_renderers();
        }
    }
}
