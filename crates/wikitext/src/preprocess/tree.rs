//! The preprocessor tree: what [`parse`](super::parse) finds in wikitext.
//!
//! Every node carries its source range (byte offsets into the parsed text), and all
//! literal text is a range too: a tree never owns strings, so it is cheap to build and
//! to keep beside its source. Template and argument nodes keep their parts (`|`
//! separated) with the position of the first top-level `=` of each part, as
//! MediaWiki's preprocessor does: a part with `=` is a named argument.

use std::ops::Range;

/// Byte range into the parsed source.
pub type Span = Range<usize>;

/// A parsed text: its top-level nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// The nodes, in source order; together they cover the whole source.
    pub nodes: Vec<Node>,
}

/// One node of the preprocessor tree.
///
/// The large variants are boxed: a node is three words, so the lists of
/// nodes (mostly text) stay small and cheap to grow, and a template's parts
/// hold their nodes in small allocations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// Literal text (including braces that matched nothing, `|` and `=` outside
    /// templates, and the syntax of broken or unclosed constructs).
    Text(Span),
    /// `<!-- … -->`, possibly with the blank line it stood on (MediaWiki eats a
    /// line holding only comments and spaces); unclosed comments run to the end.
    Comment(Span),
    /// Source that this mode drops: `<noinclude>…</noinclude>` or the bare
    /// `<includeonly>` tags in transclusion, `<includeonly>…</includeonly>` or the
    /// bare `<noinclude>`/`<onlyinclude>` tags in page view, and everything outside
    /// `<onlyinclude>` in transclusion when the text has one.
    Ignore(Span),
    /// An extension tag (`<nowiki>`, `<pre>`, `<ref>`, …): its content is not
    /// preprocessed.
    Ext(Box<ExtTag>),
    /// `{{…}}`: a template, parser function or magic word.
    Template(Box<Braced>),
    /// `{{{…}}}`: a template argument, its default in the first part.
    Argument(Box<Braced>),
}

impl Node {
    /// The node's source range.
    pub fn span(&self) -> Span {
        match self {
            Node::Text(s) | Node::Comment(s) | Node::Ignore(s) => s.clone(),
            Node::Ext(e) => e.span.clone(),
            Node::Template(b) | Node::Argument(b) => b.span.clone(),
        }
    }
}

/// An extension tag and where its pieces are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtTag {
    /// The whole element, from `<` to the end of the close tag (or of the source).
    pub span: Span,
    /// The tag name as written.
    pub name: Span,
    /// The attribute text between the name and `>` (or `/>`).
    pub attrs: Span,
    /// The content; `None` for a self-closed tag (`<ref name="a"/>`).
    pub inner: Option<Span>,
    /// The close tag; `None` when self-closed or unclosed (running to the end).
    pub close: Option<Span>,
}

/// A `{{…}}` or `{{{…}}}` construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Braced {
    /// From the first brace to the last.
    pub span: Span,
    /// The target: the template title, or the parser function name with its first
    /// argument after `:`, or the argument name.
    pub title: Part,
    /// The `|`-separated parts after the title.
    pub parts: Vec<Part>,
    /// The construct starts a line (MediaWiki then puts a newline before a
    /// template's output that starts with `{|`, `:`, `;`, `#` or `*`).
    pub line_start: bool,
}

/// One `|`-separated part of a [`Braced`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The part's source, without the `|` before it.
    pub span: Span,
    /// Its nodes.
    pub nodes: Vec<Node>,
    /// For a named part (`name=value`): the index in `nodes` of the `=` text node;
    /// the name is `nodes[..eq]`, the value `nodes[eq + 1..]`. Always `None` for the
    /// title.
    pub eq: Option<usize>,
}

impl Part {
    /// The name nodes of a named part (`None` for a positional one).
    pub fn name(&self) -> Option<&[Node]> {
        self.eq.and_then(|eq| self.nodes.get(..eq))
    }

    /// The value nodes: everything after the `=` of a named part, the whole part
    /// otherwise.
    pub fn value(&self) -> &[Node] {
        match self.eq {
            Some(eq) => self.nodes.get(eq + 1..).unwrap_or(&[]),
            None => &self.nodes,
        }
    }
}
