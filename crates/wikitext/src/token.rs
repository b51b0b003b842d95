//! The tokens of the wikitext pipeline: HTML tokens (`OwnedToken`) plus the
//! wikitext pseudo-tokens Parsoid's tokenizer makes (newlines, quotes, list
//! items, templates), each with the source range it was read from.

use tagloom_html::Span;
use tagloom_html::token::{Name, OwnedTag, OwnedToken, TokenKind};
use tagloom_transform::pipeline::PipelineToken;

/// One token and where it came from ([`span`](WikiToken::span); `None`: made
/// by a transform).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WikiToken {
    /// What it is.
    pub tok: Tok,
    /// Its source range in the page's wikitext.
    pub(crate) span: TokSpan,
}

/// A token's source range in two `u32`s (an `Option<Span>` would be three
/// words): every phase moves each token, so its size is paid per token and
/// phase. `u32::MAX` as the start: no range (made by a transform, or beyond
/// 4 GiB of wikitext, which no page's limits allow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TokSpan {
    start: u32,
    end: u32,
}

impl TokSpan {
    /// No source range.
    pub(crate) const NONE: TokSpan = TokSpan {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// `start..end`, or [`NONE`](Self::NONE) when it does not fit.
    pub(crate) fn new(start: usize, end: usize) -> TokSpan {
        // Two comparisons (every token is made through here); both casts
        // are then exact.
        const MAX: usize = u32::MAX as usize;
        if start < MAX && end <= MAX {
            TokSpan {
                start: start as u32,
                end: end as u32,
            }
        } else {
            TokSpan::NONE
        }
    }

    /// The range (`None`: no source range).
    pub(crate) fn get(self) -> Option<Span> {
        (self.start != u32::MAX).then_some(Span {
            start: self.start as usize,
            end: self.end as usize,
        })
    }

    /// Whether there is a source range.
    pub(crate) fn is_some(self) -> bool {
        self.start != u32::MAX
    }
}

/// The token kinds of the wikitext pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An HTML token: a tag (from wikitext syntax or literal HTML), text, a comment.
    Html(OwnedToken),
    /// A line break in the source (Parsoid's `NlTk`).
    Newline,
    /// A run of apostrophes: 2 (italic), 3 (bold) or 5 (both); resolved per line
    /// by the quote transform.
    Quote(u32),
    /// List bullets at the start of a line (`*#:;`), or the `:` after a `;` term.
    ListItem(Box<str>),
    /// The leading space of a line that an indent-pre consumed (kept so the pre
    /// can be undone where it is not allowed; writes nothing).
    IndentPreWs,
    /// An indented-pre block made by the pre transform (the tokens it wraps,
    /// `<pre>` and `</pre>` included), kept whole so later line transforms skip it.
    IndentPre(Vec<WikiToken>),
    /// Lines holding only comments and spaces, with their newlines (Parsoid's
    /// `EmptyLineTk`): start-of-line transparent, never a paragraph break.
    EmptyLine(Vec<WikiToken>),
    /// An internal link's start (`[[Target|…`): resolved into `<a>` by the link
    /// handler; its text and `</a>` follow.
    WikiLink(Box<crate::title::LinkTarget>),
    /// A `<ref>` (Cite): its name, group and body source (`None`: `<ref name=x/>`).
    Ref(Box<RefTag>),
    /// A `<references>` (Cite): where the footnotes go; its attributes and body
    /// (`None`: self-closed `<references/>`).
    References(Box<RefTag>),
    /// A template or parser function `{{…}}`: its raw source, braces included.
    Template(Box<str>),
    /// A template argument `{{{…}}}`: its raw source, braces included.
    TemplateArg(Box<str>),
    /// End of input.
    Eof,
}

/// A `<ref>` (or `<references>`) as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefTag {
    /// Every attribute in source order (names lowercased, values as written).
    pub attrs: Vec<(String, String)>,
    /// `name="…"`.
    pub name: Option<String>,
    /// `group="…"`.
    pub group: Option<String>,
    /// The body's wikitext (`None` for a self-closed reuse).
    pub body: Option<String>,
}

/// The dispatch key of a [`WikiToken`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WikiKind {
    /// An HTML token of this kind.
    Html(TokenKind),
    /// [`Tok::Newline`].
    Newline,
    /// [`Tok::Quote`].
    Quote,
    /// [`Tok::ListItem`].
    ListItem,
    /// [`Tok::IndentPre`].
    IndentPre,
    /// [`Tok::IndentPreWs`].
    IndentPreWs,
    /// [`Tok::EmptyLine`].
    EmptyLine,
    /// [`Tok::WikiLink`].
    WikiLink,
    /// [`Tok::Ref`].
    Ref,
    /// [`Tok::References`].
    References,
    /// [`Tok::Template`].
    Template,
    /// [`Tok::TemplateArg`].
    TemplateArg,
    /// [`Tok::Eof`].
    Eof,
}

impl WikiToken {
    /// A token made by a transform.
    pub fn made(tok: Tok) -> WikiToken {
        WikiToken {
            tok,
            span: TokSpan::NONE,
        }
    }

    /// A token read from `start..end`.
    pub fn at(tok: Tok, start: usize, end: usize) -> WikiToken {
        WikiToken {
            tok,
            span: TokSpan::new(start, end),
        }
    }

    /// Its source range in the page's wikitext (`None`: made by a transform).
    pub fn span(&self) -> Option<Span> {
        self.span.get()
    }

    /// Text made by a transform.
    pub fn text(text: impl Into<String>) -> WikiToken {
        WikiToken::made(Tok::Html(OwnedToken::text(text)))
    }

    /// A start tag made by a transform (a static atom's name, such as
    /// `atom::P`, is not looked up).
    pub fn start(name: impl Into<Name>) -> WikiToken {
        WikiToken::made(Tok::Html(OwnedToken::start(name)))
    }

    /// A start tag with attributes made by a transform.
    pub fn start_tag(tag: OwnedTag) -> WikiToken {
        WikiToken::made(Tok::Html(OwnedToken::StartTag(tag)))
    }

    /// An end tag made by a transform (a static atom's name, such as
    /// `atom::P`, is not looked up).
    pub fn end(name: impl Into<Name>) -> WikiToken {
        WikiToken::made(Tok::Html(OwnedToken::end(name)))
    }

    /// The text of a character token.
    pub fn as_text(&self) -> Option<&str> {
        match &self.tok {
            Tok::Html(OwnedToken::Characters(t)) => Some(t.text()),
            _ => None,
        }
    }

    /// The name of a start tag.
    pub fn start_name(&self) -> Option<&str> {
        match &self.tok {
            Tok::Html(OwnedToken::StartTag(t)) => Some(t.name().as_str()),
            _ => None,
        }
    }

    /// The name of an end tag.
    pub fn end_name(&self) -> Option<&str> {
        match &self.tok {
            Tok::Html(OwnedToken::EndTag(t)) => Some(t.name().as_str()),
            _ => None,
        }
    }

    /// The name of a start or end tag.
    pub fn tag_name(&self) -> Option<&str> {
        match &self.tok {
            Tok::Html(t) => t.as_tag().map(|t| t.name().as_str()),
            _ => None,
        }
    }

    /// The static atom of a start tag's name (compared in one instruction,
    /// unlike [`start_name`](Self::start_name)'s text).
    pub(crate) fn start_atom(&self) -> Option<tagloom_html::atom::Atom> {
        match &self.tok {
            Tok::Html(OwnedToken::StartTag(t)) => t.name().atom(),
            _ => None,
        }
    }

    /// The static atom of an end tag's name.
    pub(crate) fn end_atom(&self) -> Option<tagloom_html::atom::Atom> {
        match &self.tok {
            Tok::Html(OwnedToken::EndTag(t)) => t.name().atom(),
            _ => None,
        }
    }

    /// The static atom of a start or end tag's name (`None` for other
    /// tokens and for names HTML does not define).
    pub(crate) fn tag_atom(&self) -> Option<tagloom_html::atom::Atom> {
        match &self.tok {
            Tok::Html(t) => t.as_tag().and_then(|t| t.name().atom()),
            _ => None,
        }
    }

    /// Whether this is a newline.
    pub fn is_newline(&self) -> bool {
        matches!(self.tok, Tok::Newline)
    }

    /// Whether this is end of input.
    pub fn is_end(&self) -> bool {
        matches!(self.tok, Tok::Eof | Tok::Html(OwnedToken::Eof))
    }

    /// Whether the token is a comment.
    pub fn is_comment(&self) -> bool {
        matches!(self.tok, Tok::Html(OwnedToken::Comment(_)))
    }

    /// A `<meta>` or `<link>` self-standing tag (behaviour switches, categories).
    pub fn is_meta_or_link(&self) -> bool {
        use tagloom_html::atom::{LINK, META};
        matches!(&self.tok, Tok::Html(OwnedToken::StartTag(t)) if matches!(t.name().atom(), Some(META | LINK)))
    }

    /// Parsoid's "start-of-line transparent": whitespace-only text, comments,
    /// behaviour-switch metas and category links.
    pub fn is_sol_transparent(&self) -> bool {
        match &self.tok {
            Tok::Html(OwnedToken::Characters(t)) => {
                t.text().bytes().all(|b| b == b' ' || b == b'\t')
            }
            Tok::Html(OwnedToken::Comment(_)) | Tok::EmptyLine(_) => true,
            _ => self.is_meta_or_link(),
        }
    }
}

impl PipelineToken for WikiToken {
    type Kind = WikiKind;

    fn kind(&self) -> WikiKind {
        match &self.tok {
            Tok::Html(OwnedToken::Eof) | Tok::Eof => WikiKind::Eof,
            Tok::Html(t) => WikiKind::Html(t.kind()),
            Tok::Newline => WikiKind::Newline,
            Tok::Quote(_) => WikiKind::Quote,
            Tok::ListItem(_) => WikiKind::ListItem,
            Tok::IndentPre(_) => WikiKind::IndentPre,
            Tok::IndentPreWs => WikiKind::IndentPreWs,
            Tok::EmptyLine(_) => WikiKind::EmptyLine,
            Tok::WikiLink(_) => WikiKind::WikiLink,
            Tok::Ref(_) => WikiKind::Ref,
            Tok::References(_) => WikiKind::References,
            Tok::Template(_) => WikiKind::Template,
            Tok::TemplateArg(_) => WikiKind::TemplateArg,
        }
    }

    fn tag_name(&self) -> Option<&str> {
        WikiToken::tag_name(self)
    }

    fn is_eof(&self) -> bool {
        self.is_end()
    }

    fn eof() -> Self {
        WikiToken::made(Tok::Eof)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A range is kept exactly when both ends fit a `u32` and the start is
    /// not the `NONE` marker.
    #[test]
    fn tok_span_keeps_what_fits() {
        let max = u32::MAX as usize;
        for (start, end) in [
            (0, 0),
            (3, 9),
            (max - 1, max),
            (max, max),
            (0, max + 1),
            (max + 1, max + 2),
        ] {
            let fits =
                u32::try_from(start).is_ok_and(|s| s != u32::MAX) && u32::try_from(end).is_ok();
            let expected = fits.then_some(Span { start, end });
            assert_eq!(TokSpan::new(start, end).get(), expected, "{start}..{end}");
        }
    }

    /// Every phase moves each token: a rare large variant must stay boxed,
    /// and the span adds one word.
    #[test]
    fn token_size() {
        assert!(std::mem::size_of::<WikiToken>() <= 80);
    }

    #[test]
    fn span_round_trip() {
        let t = WikiToken::at(Tok::Newline, 3, 4);
        assert_eq!(t.span(), Some(Span { start: 3, end: 4 }));
        assert_eq!(WikiToken::made(Tok::Newline).span(), None);
        let far = usize::try_from(u64::from(u32::MAX) + 1).unwrap_or(usize::MAX);
        assert_eq!(WikiToken::at(Tok::Newline, far, far).span(), None);
        assert_eq!(WikiToken::at(Tok::Newline, 0, far).span(), None);
    }
}
