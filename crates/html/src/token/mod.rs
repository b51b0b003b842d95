//! The tokens the tokenizer emits (§13.2.5): borrowed views valid until the next
//! call into the tokenizer.
//!
//! Text is borrowed from the input buffer when the token's characters are exactly
//! the source characters (no CR, NUL or character reference in it), and from the
//! tokenizer's reusable scratch buffer otherwise: the common case allocates nothing.
//!
//! Spans tile the input: each token's span starts exactly where the previous one
//! ended, whatever the chunking. Bytes the tokenizer consumes without emitting a
//! token (an ignored `</>`) belong to the span of the token that follows, so a
//! consumer that rebuilds the source from spans (the localization reader does) never
//! loses a byte. Only an unfinished tag dropped at end of file lies after the last
//! span.

mod attr_value;
mod name;
mod owned;

pub use attr_value::AttrValue;
pub use name::Name;
pub use owned::{
    OwnedAttribute, OwnedDoctype, OwnedProcessingInstruction, OwnedTag, OwnedText, OwnedToken,
    TokenKind,
};

use crate::atom::{Atom, AtomTable};
use crate::span::Span;

/// One token.
#[derive(Clone, Copy, Debug)]
pub enum Token<'a> {
    /// A DOCTYPE token.
    Doctype(Doctype<'a>),
    /// A start tag.
    StartTag(Tag<'a>),
    /// An end tag.
    EndTag(Tag<'a>),
    /// A comment; `text` is its data.
    Comment(Text<'a>),
    /// A run of character tokens (adjacent characters are coalesced, but a run may be
    /// split anywhere the input arrived in chunks).
    Characters(Text<'a>),
    /// A processing instruction `<?target data?>` (A.2; only when
    /// [`TokenizerConfig::processing_instructions`](crate::tokenizer::TokenizerConfig::processing_instructions)
    /// is on, otherwise `<?` starts a bogus comment).
    ProcessingInstruction(ProcessingInstruction<'a>),
    /// End of file: emitted once, after [`finish`](crate::tokenizer::Tokenizer::finish).
    Eof,
}

impl<'a> Token<'a> {
    /// The source range the token was read from (empty for `Eof`).
    pub fn span(&self) -> Span {
        match self {
            Token::Doctype(d) => d.span,
            Token::StartTag(t) | Token::EndTag(t) => t.span,
            Token::Comment(t) | Token::Characters(t) => t.span,
            Token::ProcessingInstruction(pi) => pi.span,
            Token::Eof => Span::default(),
        }
    }
}

/// Character data: the text of a character run or the data of a comment.
#[derive(Clone, Copy, Debug)]
pub struct Text<'a> {
    /// The characters after preprocessing and character-reference decoding.
    pub text: &'a str,
    /// The source range of the whole token (for a comment: `<!--` to `-->`).
    pub span: Span,
    /// True when `text` is a verbatim slice of the input (nothing was normalized).
    pub borrowed: bool,
}

/// A processing instruction token (A.2).
#[derive(Clone, Copy, Debug)]
pub struct ProcessingInstruction<'a> {
    /// The target: `[A-Za-z_][A-Za-z0-9_-]*`, never `xml` or `xml-stylesheet`
    /// (those stay bogus comments).
    pub target: &'a str,
    /// The data: what follows the target and its whitespace, up to `?>` or `>`
    /// (NUL kept as is, newlines normalized).
    pub data: &'a str,
    /// Source range of the whole token (`<?` to `>`).
    pub span: Span,
}

/// A DOCTYPE token. Missing identifiers are `None`, as the spec's "missing" marker.
#[derive(Clone, Copy, Debug)]
pub struct Doctype<'a> {
    /// The name, ASCII-lowercased.
    pub name: Option<&'a str>,
    /// The public identifier.
    pub public_id: Option<&'a str>,
    /// The system identifier.
    pub system_id: Option<&'a str>,
    /// The force-quirks flag.
    pub force_quirks: bool,
    /// Source range of the whole token.
    pub span: Span,
}

/// A start or end tag.
#[derive(Clone, Copy, Debug)]
pub struct Tag<'a> {
    /// The tag name (ASCII-lowercased).
    pub name: Atom,
    /// The self-closing flag (`<br/>`).
    pub self_closing: bool,
    /// The attributes, duplicates already dropped (the first one wins).
    pub attrs: Attributes<'a>,
    /// Source range of the whole tag, `<` to `>` inclusive.
    pub span: Span,
    pub(crate) atoms: &'a AtomTable,
    pub(crate) skimmed: bool,
}

impl<'a> Tag<'a> {
    /// The tag name as text.
    pub fn name_str(&self) -> &'a str {
        self.atoms.name(self.name)
    }

    /// Whether the tokenizer skipped this tag's attributes
    /// ([`AttributeMode::Only`](crate::tokenizer::AttributeMode::Only)): `attrs` is
    /// then empty whatever the source holds.
    pub fn attrs_skipped(&self) -> bool {
        self.skimmed
    }

    /// The atom table that resolves this tag's dynamic atoms.
    pub fn atoms(&self) -> &'a AtomTable {
        self.atoms
    }
}

/// Where a piece of token text lives: the input buffer or the scratch buffer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TextRef {
    /// Absolute offsets into the decoded input (still inside the buffer).
    Source { start: usize, end: usize },
    /// Offsets into the tokenizer's scratch buffer.
    Scratch { start: usize, end: usize },
}

impl TextRef {
    pub(crate) const EMPTY: TextRef = TextRef::Scratch { start: 0, end: 0 };
}

/// Resolves [`TextRef`]s for one token.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TextSource<'a> {
    /// The input buffer.
    pub(crate) buffer: &'a str,
    /// Absolute offset of `buffer[0]`.
    pub(crate) base: usize,
    /// The scratch buffer.
    pub(crate) scratch: &'a str,
}

impl<'a> TextSource<'a> {
    #[inline]
    pub(crate) fn resolve(&self, text: TextRef) -> &'a str {
        match text {
            TextRef::Source { start, end } => self
                .buffer
                .get(start - self.base..end - self.base)
                .unwrap_or(""),
            TextRef::Scratch { start, end } => self.scratch.get(start..end).unwrap_or(""),
        }
    }
}

/// An attribute as the tokenizer stores it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttrSlot {
    pub(crate) name: Atom,
    pub(crate) name_span: Span,
    pub(crate) value: TextRef,
    pub(crate) value_span: Span,
    /// [`Attribute::has_value`], decided where the attribute is read.
    pub(crate) has_value: bool,
}

/// The attributes of a tag, in source order.
#[derive(Clone, Copy, Debug)]
pub struct Attributes<'a> {
    repr: AttrsRepr<'a>,
}

/// Where a tag's attributes live: the tokenizer's slots, or an owned tag's list
/// with its names interned into a table (see [`OwnedToken`]'s view for the tree
/// builder).
#[derive(Clone, Copy, Debug)]
enum AttrsRepr<'a> {
    Slots {
        slots: &'a [AttrSlot],
        source: TextSource<'a>,
    },
    Owned {
        attrs: &'a [OwnedAttribute],
        /// `attrs[i]`'s name as an atom.
        names: &'a [Atom],
    },
}

impl<'a> Attributes<'a> {
    pub(crate) fn from_slots(slots: &'a [AttrSlot], source: TextSource<'a>) -> Self {
        Attributes {
            repr: AttrsRepr::Slots { slots, source },
        }
    }

    pub(crate) fn from_owned(attrs: &'a [OwnedAttribute], names: &'a [Atom]) -> Self {
        Attributes {
            repr: AttrsRepr::Owned { attrs, names },
        }
    }

    /// Number of attributes.
    #[inline]
    pub fn len(&self) -> usize {
        match self.repr {
            AttrsRepr::Slots { slots, .. } => slots.len(),
            AttrsRepr::Owned { attrs, .. } => attrs.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tokenizer's slots and where their text is, for a tokenizer's tag
    /// (`None` for an owned tag's view).
    #[inline]
    pub(crate) fn slots(&self) -> Option<(&'a [AttrSlot], TextSource<'a>)> {
        match self.repr {
            AttrsRepr::Slots { slots, source } => Some((slots, source)),
            AttrsRepr::Owned { .. } => None,
        }
    }

    /// The attribute at `index`.
    #[inline(always)]
    pub fn get(&self, index: usize) -> Option<Attribute<'a>> {
        match self.repr {
            AttrsRepr::Slots { slots, source } => {
                slots.get(index).map(|slot| slot_view(slot, source))
            }
            AttrsRepr::Owned { attrs, names } => {
                let attr = attrs.get(index)?;
                Some(owned_view(attr, *names.get(index)?))
            }
        }
    }

    /// The value of the attribute named `name`.
    #[inline]
    pub fn value_of(&self, name: Atom) -> Option<&'a str> {
        match self.repr {
            AttrsRepr::Slots { slots, source } => slots
                .iter()
                .find(|slot| slot.name == name)
                .map(|slot| source.resolve(slot.value)),
            AttrsRepr::Owned { attrs, names } => names
                .iter()
                .position(|&n| n == name)
                .and_then(|i| attrs.get(i))
                .map(|a| a.value.as_str()),
        }
    }

    /// Whether an attribute named `name` is present (its value is not resolved).
    #[inline]
    pub fn has(&self, name: Atom) -> bool {
        match self.repr {
            AttrsRepr::Slots { slots, .. } => slots.iter().any(|slot| slot.name == name),
            AttrsRepr::Owned { names, .. } => names.contains(&name),
        }
    }

    /// The attributes in source order.
    pub fn iter(&self) -> AttributeIter<'a> {
        AttributeIter {
            attrs: *self,
            next: 0,
        }
    }
}

/// The iterator of [`Attributes::iter`].
#[derive(Clone, Debug)]
pub struct AttributeIter<'a> {
    attrs: Attributes<'a>,
    next: usize,
}

impl<'a> Iterator for AttributeIter<'a> {
    type Item = Attribute<'a>;

    #[inline]
    fn next(&mut self) -> Option<Attribute<'a>> {
        let attr = self.attrs.get(self.next)?;
        self.next += 1;
        Some(attr)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.attrs.len().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for AttributeIter<'_> {}

#[inline]
fn slot_view<'a>(slot: &AttrSlot, source: TextSource<'a>) -> Attribute<'a> {
    Attribute {
        name: slot.name,
        value: source.resolve(slot.value),
        name_span: slot.name_span,
        value_span: slot.value_span,
        value_borrowed: matches!(slot.value, TextRef::Source { .. }),
        has_value: slot.has_value,
    }
}

fn owned_view(attr: &OwnedAttribute, name: Atom) -> Attribute<'_> {
    Attribute {
        name,
        value: &attr.value,
        name_span: attr.name_span.unwrap_or_default(),
        value_span: attr.value_span.unwrap_or_default(),
        value_borrowed: false,
        has_value: attr.has_value,
    }
}

/// One attribute of a tag.
#[derive(Clone, Copy, Debug)]
pub struct Attribute<'a> {
    /// The name (ASCII-lowercased).
    pub name: Atom,
    /// The value after character-reference decoding (`""` when there is none).
    pub value: &'a str,
    /// Source range of the name.
    pub name_span: Span,
    /// Source range of the value, without its quotes; empty, at the end of the name,
    /// when the attribute has no value.
    pub value_span: Span,
    /// True when `value` is a verbatim slice of the input.
    pub value_borrowed: bool,
    /// Whether the source gave the attribute a value (`<input disabled>` has none,
    /// and its `value` is `""`).
    pub has_value: bool,
}
