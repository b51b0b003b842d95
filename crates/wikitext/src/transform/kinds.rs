//! The token classes a phase-3 stage acts on ([`Kinds`]), so that the
//! [`Chain`](super::Chain) hands a stage only the tokens it would do
//! something with: most tokens of a page are text and links inside a
//! paragraph, which only the quote and paragraph stages touch, and a call per
//! stage per token (a virtual call each) was most of the chain's cost.
//!
//! The classes are coarse on purpose (one `match` per token, a static atom
//! compared for tags): a stage that wants a class still sees every token of
//! it and decides for itself, as its `pass` always did.

use std::ops::BitOr;

use tagloom_html::atom;
use tagloom_html::token::OwnedToken;
use tagloom_html::tree_builder::is_formatting_atom;

use crate::token::{Tok, WikiToken};

/// A set of token classes, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kinds(u32);

impl Kinds {
    /// [`Tok::Newline`].
    pub(crate) const NEWLINE: Kinds = Kinds(1);
    /// End of input ([`Tok::Eof`] or the HTML one).
    pub(crate) const END: Kinds = Kinds(1 << 1);
    /// [`Tok::Quote`].
    pub(crate) const QUOTE: Kinds = Kinds(1 << 2);
    /// [`Tok::ListItem`].
    pub(crate) const LIST_ITEM: Kinds = Kinds(1 << 3);
    /// [`Tok::IndentPre`].
    pub(crate) const INDENT_PRE: Kinds = Kinds(1 << 4);
    /// [`Tok::Ref`].
    pub(crate) const REF: Kinds = Kinds(1 << 5);
    /// [`Tok::References`].
    pub(crate) const REFERENCES: Kinds = Kinds(1 << 6);
    /// Characters.
    pub(crate) const TEXT: Kinds = Kinds(1 << 7);
    /// An `<a>` start tag.
    pub(crate) const START_A: Kinds = Kinds(1 << 8);
    /// A `<meta>` start tag (call markers, behaviour switches).
    pub(crate) const START_META: Kinds = Kinds(1 << 9);
    /// A `<td>` or `<th>` start tag (`||`/`!!` cells among them).
    pub(crate) const START_CELL: Kinds = Kinds(1 << 10);
    /// An `<h1>`…`<h6>` start tag.
    pub(crate) const START_HEADING: Kinds = Kinds(1 << 11);
    /// A start tag of a formatting element other than `<a>`.
    pub(crate) const START_FORMATTING: Kinds = Kinds(1 << 12);
    /// An `</a>` end tag.
    pub(crate) const END_A: Kinds = Kinds(1 << 13);
    /// A `</table>` end tag.
    pub(crate) const END_TABLE: Kinds = Kinds(1 << 14);
    /// An end tag of a formatting element other than `<a>`.
    pub(crate) const END_FORMATTING: Kinds = Kinds(1 << 15);
    /// Every other token (other tags, comments, other pseudo-tokens).
    pub(crate) const OTHER: Kinds = Kinds(1 << 16);
    /// Every class: what a stage wants while any token may change its state.
    pub(crate) const ALL: Kinds = Kinds(u32::MAX);

    /// Whether the sets share a class (a token's single class is in `self`).
    #[inline]
    pub(crate) fn has(self, other: Kinds) -> bool {
        self.0 & other.0 != 0
    }

    /// The class of `token`.
    pub(crate) fn of(token: &WikiToken) -> Kinds {
        match &token.tok {
            Tok::Html(OwnedToken::Characters(_)) => Kinds::TEXT,
            Tok::Html(OwnedToken::StartTag(t)) => match t.name().atom() {
                Some(atom::A) => Kinds::START_A,
                Some(atom::META) => Kinds::START_META,
                Some(atom::TD | atom::TH) => Kinds::START_CELL,
                Some(atom::H1 | atom::H2 | atom::H3 | atom::H4 | atom::H5 | atom::H6) => {
                    Kinds::START_HEADING
                }
                Some(name) if is_formatting_atom(name) => Kinds::START_FORMATTING,
                _ => Kinds::OTHER,
            },
            Tok::Html(OwnedToken::EndTag(t)) => match t.name().atom() {
                Some(atom::A) => Kinds::END_A,
                Some(atom::TABLE) => Kinds::END_TABLE,
                Some(name) if is_formatting_atom(name) => Kinds::END_FORMATTING,
                _ => Kinds::OTHER,
            },
            Tok::Newline => Kinds::NEWLINE,
            Tok::Html(OwnedToken::Eof) | Tok::Eof => Kinds::END,
            Tok::Quote(_) => Kinds::QUOTE,
            Tok::ListItem(_) => Kinds::LIST_ITEM,
            Tok::IndentPre(_) => Kinds::INDENT_PRE,
            Tok::Ref(_) => Kinds::REF,
            Tok::References(_) => Kinds::REFERENCES,
            _ => Kinds::OTHER,
        }
    }
}

impl BitOr for Kinds {
    type Output = Kinds;

    fn bitor(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let cases = [
            (WikiToken::text("x"), Kinds::TEXT),
            (WikiToken::start("a"), Kinds::START_A),
            (WikiToken::end("a"), Kinds::END_A),
            (WikiToken::start("b"), Kinds::START_FORMATTING),
            (WikiToken::end("i"), Kinds::END_FORMATTING),
            (WikiToken::start("meta"), Kinds::START_META),
            (WikiToken::start("th"), Kinds::START_CELL),
            (WikiToken::start("h3"), Kinds::START_HEADING),
            (WikiToken::end("h3"), Kinds::OTHER),
            (WikiToken::end("table"), Kinds::END_TABLE),
            (WikiToken::start("table"), Kinds::OTHER),
            (WikiToken::start("x-custom"), Kinds::OTHER),
            (WikiToken::made(Tok::Newline), Kinds::NEWLINE),
            (WikiToken::made(Tok::Eof), Kinds::END),
            (WikiToken::made(Tok::Html(OwnedToken::Eof)), Kinds::END),
            (WikiToken::made(Tok::Quote(2)), Kinds::QUOTE),
            (WikiToken::made(Tok::ListItem("*".into())), Kinds::LIST_ITEM),
            (
                WikiToken::made(Tok::IndentPre(Vec::new())),
                Kinds::INDENT_PRE,
            ),
            (WikiToken::made(Tok::IndentPreWs), Kinds::OTHER),
            (WikiToken::made(Tok::Template("{{x}}".into())), Kinds::OTHER),
        ];
        for (token, kind) in cases {
            assert_eq!(Kinds::of(&token), kind, "{token:?}");
            assert!(Kinds::ALL.has(kind));
            assert!((kind | Kinds::NEWLINE).has(kind));
        }
        assert!(!Kinds::TEXT.has(Kinds::START_A));
    }
}
