//! Owned tokens: what any crate builds, keeps, queues and transforms.

use super::{AttrValue, Attributes, Doctype, Name, ProcessingInstruction, Tag, Text, Token};
use crate::atom::{Atom, AtomTable};
use crate::dom_patch::{AttrNamespace, Namespace};
use crate::span::Span;

/// What kind of token a token is: the key handlers register under.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum TokenKind {
    /// A DOCTYPE.
    Doctype,
    /// A start tag.
    StartTag,
    /// An end tag.
    EndTag,
    /// A comment.
    Comment,
    /// Character data.
    Characters,
    /// A processing instruction.
    ProcessingInstruction,
    /// End of input.
    Eof,
}

impl TokenKind {
    /// Every kind, in declaration order.
    pub const ALL: [TokenKind; 7] = [
        TokenKind::Doctype,
        TokenKind::StartTag,
        TokenKind::EndTag,
        TokenKind::Comment,
        TokenKind::Characters,
        TokenKind::ProcessingInstruction,
        TokenKind::Eof,
    ];
}

/// An owned token.
///
/// The tokenizer hands out borrowed [`Token`]s that live until its next call;
/// [`Token::to_owned`] turns one into an [`OwnedToken`] that lives as long as needed.
/// A program (a transform handler, the wikitext front end, a test) builds owned tokens
/// directly. Names are [`Name`]s, so an owned token needs no atom table.
///
/// Every token remembers its source [`Span`] (none for a token a program made) and
/// whether it was changed since ([`OwnedToken::is_modified`]): a consumer that has the
/// source can write an untouched token back from its original bytes, so a rewrite
/// changes only what a handler changed
/// ([`TokenWriter::write_preserving`](crate::serializer::TokenWriter::write_preserving)).
/// All mutation goes through methods, which set the flag.
///
/// ```
/// use tagloom_html::atom;
/// use tagloom_html::token::{OwnedTag, OwnedToken, Token};
/// use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
///
/// let mut tok = Tokenizer::new(TokenizerConfig::default());
/// tok.push_str("<a href=/x>");
/// tok.finish();
/// let Some(token) = tok.next_token().unwrap() else { unreachable!() };
/// let mut owned = token.to_owned();
/// assert!(!owned.is_modified());
/// if let OwnedToken::StartTag(tag) = &mut owned {
///     tag.set_attr("rel", "nofollow");
/// }
/// assert!(owned.is_modified());
///
/// let made = OwnedTag::new(atom::BR);
/// assert!(made.span().is_none());
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OwnedToken {
    /// A DOCTYPE (boxed: it is rare and the largest token, and every token
    /// would otherwise be as large as it).
    Doctype(Box<OwnedDoctype>),
    /// A start tag.
    StartTag(OwnedTag),
    /// An end tag.
    EndTag(OwnedTag),
    /// A comment.
    Comment(OwnedText),
    /// A run of characters.
    Characters(OwnedText),
    /// A processing instruction (boxed, as a DOCTYPE).
    ProcessingInstruction(Box<OwnedProcessingInstruction>),
    /// End of input. A consumer must see it exactly once, last.
    Eof,
}

impl OwnedToken {
    /// The token's kind.
    pub fn kind(&self) -> TokenKind {
        match self {
            OwnedToken::Doctype(_) => TokenKind::Doctype,
            OwnedToken::StartTag(_) => TokenKind::StartTag,
            OwnedToken::EndTag(_) => TokenKind::EndTag,
            OwnedToken::Comment(_) => TokenKind::Comment,
            OwnedToken::Characters(_) => TokenKind::Characters,
            OwnedToken::ProcessingInstruction(_) => TokenKind::ProcessingInstruction,
            OwnedToken::Eof => TokenKind::Eof,
        }
    }

    /// The source range the token was read from; `None` for a token a program made.
    pub fn span(&self) -> Option<Span> {
        match self {
            OwnedToken::Doctype(d) => d.span,
            OwnedToken::StartTag(t) | OwnedToken::EndTag(t) => t.span(),
            OwnedToken::Comment(t) | OwnedToken::Characters(t) => t.span,
            OwnedToken::ProcessingInstruction(p) => p.span,
            OwnedToken::Eof => None,
        }
    }

    /// Whether the token differs from its source: changed through a method since
    /// [`Token::to_owned`], or made by a program (no span). An unmodified token with a
    /// span can be written back as the source bytes of its span.
    pub fn is_modified(&self) -> bool {
        match self {
            OwnedToken::Doctype(d) => d.modified,
            OwnedToken::StartTag(t) | OwnedToken::EndTag(t) => t.modified,
            OwnedToken::Comment(t) | OwnedToken::Characters(t) => t.modified,
            OwnedToken::ProcessingInstruction(p) => p.modified,
            OwnedToken::Eof => false,
        }
    }

    /// Marks the token modified, so a byte-preserving writer serializes it instead of
    /// copying its span (for a token moved into a stream whose source its span does
    /// not address, e.g. an included file's tokens).
    pub fn mark_modified(&mut self) {
        match self {
            OwnedToken::Doctype(d) => d.modified = true,
            OwnedToken::StartTag(t) | OwnedToken::EndTag(t) => t.modified = true,
            OwnedToken::Comment(t) | OwnedToken::Characters(t) => t.modified = true,
            OwnedToken::ProcessingInstruction(p) => p.modified = true,
            OwnedToken::Eof => {}
        }
    }

    /// The tag of a start or end tag.
    pub fn as_tag(&self) -> Option<&OwnedTag> {
        match self {
            OwnedToken::StartTag(t) | OwnedToken::EndTag(t) => Some(t),
            _ => None,
        }
    }

    /// The tag of a start or end tag, for changing it.
    pub fn as_tag_mut(&mut self) -> Option<&mut OwnedTag> {
        match self {
            OwnedToken::StartTag(t) | OwnedToken::EndTag(t) => Some(t),
            _ => None,
        }
    }

    /// Character data made by a program.
    pub fn text(text: impl Into<String>) -> OwnedToken {
        OwnedToken::Characters(OwnedText::new(text))
    }

    /// A comment made by a program.
    pub fn comment(data: impl Into<String>) -> OwnedToken {
        OwnedToken::Comment(OwnedText::new(data))
    }

    /// A start tag made by a program.
    pub fn start(name: impl Into<Name>) -> OwnedToken {
        OwnedToken::StartTag(OwnedTag::new(name))
    }

    /// An end tag made by a program.
    pub fn end(name: impl Into<Name>) -> OwnedToken {
        OwnedToken::EndTag(OwnedTag::new(name))
    }
}

impl OwnedToken {
    /// The tag's and attributes' names as atoms of `atoms` (tag name first), for
    /// [`view`](Self::view).
    pub fn intern_names(&self, atoms: &mut AtomTable, names: &mut Vec<Atom>) {
        if let OwnedToken::StartTag(tag) | OwnedToken::EndTag(tag) = self {
            names.push(tag.name.intern(atoms));
            names.extend(tag.attrs.iter().map(|a| a.name.intern(atoms)));
        }
    }

    /// A borrowed view of the token, for consumers written over [`Token`] (the tree
    /// builder); `names` comes from [`intern_names`](Self::intern_names) with the same
    /// `atoms` (or holds the same atoms found another way: a tag made from a
    /// tokenizer's tag can reuse that tag's atoms, with the tokenizer's table).
    /// Feeding views over a tokenizer's table to a tree builder that also reads
    /// that tokenizer's own tokens (the sanitizer's filtered stream) keeps the
    /// names of both in one table.
    pub fn view<'a>(&'a self, atoms: &'a AtomTable, names: &'a [Atom]) -> Token<'a> {
        let text = |t: &'a OwnedText| Text {
            text: &t.text,
            span: t.span.unwrap_or_default(),
            borrowed: false,
        };
        let tag = |t: &'a OwnedTag| Tag {
            name: names.first().copied().unwrap_or(crate::atom::SPAN),
            self_closing: t.self_closing,
            attrs: Attributes::from_owned(&t.attrs, names.get(1..).unwrap_or_default()),
            span: t.span,
            atoms,
            skimmed: false,
        };
        match self {
            OwnedToken::Doctype(d) => Token::Doctype(Doctype {
                name: d.name.as_deref(),
                public_id: d.public_id.as_deref(),
                system_id: d.system_id.as_deref(),
                force_quirks: d.force_quirks,
                span: d.span.unwrap_or_default(),
            }),
            OwnedToken::StartTag(t) => Token::StartTag(tag(t)),
            OwnedToken::EndTag(t) => Token::EndTag(tag(t)),
            OwnedToken::Comment(t) => Token::Comment(text(t)),
            OwnedToken::Characters(t) => Token::Characters(text(t)),
            OwnedToken::ProcessingInstruction(p) => {
                Token::ProcessingInstruction(ProcessingInstruction {
                    target: &p.target,
                    data: &p.data,
                    span: p.span.unwrap_or_default(),
                })
            }
            OwnedToken::Eof => Token::Eof,
        }
    }
}

impl<'a> Token<'a> {
    /// The token's kind.
    pub fn kind(&self) -> TokenKind {
        match self {
            Token::Doctype(_) => TokenKind::Doctype,
            Token::StartTag(_) => TokenKind::StartTag,
            Token::EndTag(_) => TokenKind::EndTag,
            Token::Comment(_) => TokenKind::Comment,
            Token::Characters(_) => TokenKind::Characters,
            Token::ProcessingInstruction(_) => TokenKind::ProcessingInstruction,
            Token::Eof => TokenKind::Eof,
        }
    }

    /// An owned copy of this token, unmodified, with its span. (Takes the token by
    /// value: a `Token` is `Copy`. On a `&Token`, write `(*token).to_owned()`;
    /// `ToOwned` would only copy the view.)
    pub fn to_owned(self) -> OwnedToken {
        match self {
            Token::Doctype(d) => OwnedToken::Doctype(Box::new(OwnedDoctype {
                name: d.name.map(str::to_owned),
                public_id: d.public_id.map(str::to_owned),
                system_id: d.system_id.map(str::to_owned),
                force_quirks: d.force_quirks,
                span: Some(d.span),
                modified: false,
            })),
            Token::StartTag(tag) => OwnedToken::StartTag(OwnedTag::from_view(&tag)),
            Token::EndTag(tag) => OwnedToken::EndTag(OwnedTag::from_view(&tag)),
            Token::Comment(t) => OwnedToken::Comment(OwnedText::from_view(&t)),
            Token::Characters(t) => OwnedToken::Characters(OwnedText::from_view(&t)),
            Token::ProcessingInstruction(pi) => {
                OwnedToken::ProcessingInstruction(Box::new(OwnedProcessingInstruction {
                    target: pi.target.to_owned(),
                    data: pi.data.to_owned(),
                    span: Some(pi.span),
                    modified: false,
                }))
            }
            Token::Eof => OwnedToken::Eof,
        }
    }
}

/// An owned start or end tag.
#[derive(Clone, PartialEq, Eq)]
pub struct OwnedTag {
    name: Name,
    ns: Namespace,
    self_closing: bool,
    attrs: Vec<OwnedAttribute>,
    /// The source range if `has_span` (else the default span). Two fields, not
    /// an `Option<Span>`: the flag packs with the other flags, which keeps the
    /// tag, and so every [`OwnedToken`], 8 bytes smaller.
    span: Span,
    has_span: bool,
    modified: bool,
}

impl std::fmt::Debug for OwnedTag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnedTag")
            .field("name", &self.name)
            .field("ns", &self.ns)
            .field("self_closing", &self.self_closing)
            .field("attrs", &self.attrs)
            .field("span", &self.span())
            .field("modified", &self.modified)
            .finish()
    }
}

impl OwnedTag {
    /// A tag made by a program: no attributes, HTML namespace, no span.
    pub fn new(name: impl Into<Name>) -> OwnedTag {
        OwnedTag {
            name: name.into(),
            ns: Namespace::Html,
            self_closing: false,
            attrs: Vec::new(),
            span: Span::default(),
            has_span: false,
            modified: true,
        }
    }

    fn from_view(tag: &Tag<'_>) -> OwnedTag {
        let atoms = tag.atoms();
        OwnedTag {
            name: Name::from_atom(tag.name, atoms),
            ns: Namespace::Html,
            self_closing: tag.self_closing,
            attrs: tag
                .attrs
                .iter()
                .map(|a| OwnedAttribute {
                    name: Name::from_atom(a.name, atoms),
                    ns: AttrNamespace::None,
                    value: a.value.to_owned().into(),
                    has_value: a.has_value,
                    name_span: Some(a.name_span),
                    value_span: Some(a.value_span),
                })
                .collect(),
            span: tag.span,
            has_span: true,
            modified: false,
        }
    }

    /// Makes this tag an unmodified copy of the tokenizer's `tag` — what
    /// [`Token::to_owned`] makes of it — reusing this tag's attribute list and value
    /// buffers. A consumer that keeps tags past the tokenizer's next call and hands
    /// spent ones back here copies a tag without allocating once the buffers have
    /// grown (a name that is no static atom still allocates).
    ///
    /// ```
    /// use tagloom_html::atom;
    /// use tagloom_html::token::{OwnedTag, OwnedToken, Token};
    /// use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
    ///
    /// let mut tok = Tokenizer::new(TokenizerConfig::default());
    /// tok.push_str("<a href=/x title=t><img src=y>");
    /// tok.finish();
    /// let mut spare = OwnedTag::new(atom::SPAN);
    /// while let Some(Token::StartTag(tag)) = tok.next_token().unwrap() {
    ///     spare.copy_from(&tag);
    ///     assert_eq!(OwnedToken::StartTag(spare.clone()), Token::StartTag(tag).to_owned());
    /// }
    /// ```
    pub fn copy_from(&mut self, tag: &Tag<'_>) {
        self.copy_from_keeping(tag, |_| true);
    }

    /// [`copy_from`](Self::copy_from), copying only the attribute values `keep_value`
    /// asks for: the other attributes keep their names, spans and `has_value`, with an
    /// empty value, and the tag is then [modified](Self::is_modified) (it no longer says
    /// what its source says). For a consumer that reads a few attributes' values (a
    /// localization reader: `lang`, `title`, `alt`…) and not the long ones (`href`,
    /// `src`, `style`): their bytes are not copied.
    pub fn copy_from_keeping(&mut self, tag: &Tag<'_>, keep_value: impl FnMut(&Name) -> bool) {
        self.copy_from_reusing(tag, keep_value, &mut Vec::new());
    }

    /// [`copy_from_keeping`](Self::copy_from_keeping) with a store of attribute
    /// slots: a tag with fewer attributes than this one had moves the slots it no
    /// longer needs there, one with more takes its new slots from there, so a
    /// consumer reusing tags of all sizes keeps their value buffers (no
    /// allocation per attribute once they have grown). `spare` grows by at most
    /// the attributes this tag had; the caller bounds it.
    pub fn copy_from_reusing(
        &mut self,
        tag: &Tag<'_>,
        mut keep_value: impl FnMut(&Name) -> bool,
        spare: &mut Vec<OwnedAttribute>,
    ) {
        let atoms = tag.atoms();
        self.name = Name::from_atom(tag.name, atoms);
        self.ns = Namespace::Html;
        self.self_closing = tag.self_closing;
        self.span = tag.span;
        self.has_span = true;
        self.modified = false;
        let mut n = 0;
        // A tokenizer's tag: its slots read directly (an iterator copies the
        // attributes' view and matches its kind per attribute), a value
        // resolved only to copy it or to see that it is empty.
        if let Some((slots, source)) = tag.attrs.slots() {
            for slot in slots {
                let name = Name::from_atom(slot.name, atoms);
                let value = source.resolve(slot.value);
                let value = if keep_value(&name) {
                    value
                } else {
                    self.modified |= !value.is_empty();
                    ""
                };
                let spans = (slot.name_span, slot.value_span);
                self.copy_attr(n, name, value, slot.has_value, spans, spare);
                n += 1;
            }
        } else {
            for a in tag.attrs.iter() {
                let name = Name::from_atom(a.name, atoms);
                let value = if keep_value(&name) {
                    a.value
                } else {
                    self.modified |= !a.value.is_empty();
                    ""
                };
                self.copy_attr(
                    n,
                    name,
                    value,
                    a.has_value,
                    (a.name_span, a.value_span),
                    spare,
                );
                n += 1;
            }
        }
        if self.attrs.len() > n {
            spare.extend(self.attrs.drain(n..));
        }
    }

    /// Makes attribute `n` of [`copy_from_reusing`](Self::copy_from_reusing)'s
    /// copy (the ones before it are made): this tag's slot, else one from
    /// `spare`, else a new one.
    #[inline]
    fn copy_attr(
        &mut self,
        n: usize,
        name: Name,
        value: &str,
        has_value: bool,
        (name_span, value_span): (Span, Span),
        spare: &mut Vec<OwnedAttribute>,
    ) {
        if self.attrs.len() == n
            && let Some(slot) = spare.pop()
        {
            self.attrs.push(slot);
        }
        match self.attrs.get_mut(n) {
            Some(slot) => {
                slot.name = name;
                slot.ns = AttrNamespace::None;
                slot.value.clear();
                slot.value.push_str(value);
                slot.has_value = has_value;
                slot.name_span = Some(name_span);
                slot.value_span = Some(value_span);
            }
            None => self.attrs.push(OwnedAttribute {
                name,
                ns: AttrNamespace::None,
                value: value.to_owned().into(),
                has_value,
                name_span: Some(name_span),
                value_span: Some(value_span),
            }),
        }
    }

    /// The tag name.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// Renames the tag.
    pub fn set_name(&mut self, name: impl Into<Name>) {
        self.name = name.into();
        self.modified = true;
    }

    /// The namespace the element is in, when the token's producer knows it (a tree
    /// walker, a handler that tracks foreign content); HTML otherwise. Serializers use
    /// it; the tree builder ignores it and decides namespaces itself.
    pub fn ns(&self) -> Namespace {
        self.ns
    }

    /// Sets [`ns`](Self::ns) (an annotation: does not mark the tag modified).
    pub fn set_ns(&mut self, ns: Namespace) {
        self.ns = ns;
    }

    /// The self-closing flag (`<br/>`).
    pub fn self_closing(&self) -> bool {
        self.self_closing
    }

    /// Sets the self-closing flag.
    pub fn set_self_closing(&mut self, self_closing: bool) {
        if self.self_closing != self_closing {
            self.self_closing = self_closing;
            self.modified = true;
        }
    }

    /// The attributes, in order.
    pub fn attrs(&self) -> &[OwnedAttribute] {
        &self.attrs
    }

    /// The attributes, for changing them (marks the tag modified).
    pub fn attrs_mut(&mut self) -> &mut Vec<OwnedAttribute> {
        self.modified = true;
        &mut self.attrs
    }

    /// The value of the attribute named `name` (without a namespace).
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| a.ns == AttrNamespace::None && a.name == *name)
            .map(|a| a.value.as_str())
    }

    /// Whether there is an attribute named `name` (without a namespace).
    pub fn has_attr(&self, name: &str) -> bool {
        self.attr(name).is_some()
    }

    /// Sets the attribute `name` to `value`: in place if it exists, else appended.
    /// A literal value is kept as static text ([`AttrValue`]), not copied.
    pub fn set_attr(&mut self, name: impl Into<Name>, value: impl Into<AttrValue>) {
        let name = name.into();
        let value = value.into();
        self.modified = true;
        match self
            .attrs
            .iter_mut()
            .find(|a| a.ns == AttrNamespace::None && a.name == name)
        {
            Some(attr) => {
                attr.value = value;
                attr.has_value = true;
            }
            None => self.attrs.push(OwnedAttribute::new(name, value)),
        }
    }

    /// Removes the attribute `name`, returning it.
    pub fn remove_attr(&mut self, name: &str) -> Option<OwnedAttribute> {
        let index = self
            .attrs
            .iter()
            .position(|a| a.ns == AttrNamespace::None && a.name == *name)?;
        self.modified = true;
        Some(self.attrs.remove(index))
    }

    /// Keeps only the attributes `keep` accepts (marks the tag modified only if one
    /// was removed).
    pub fn retain_attrs(&mut self, mut keep: impl FnMut(&OwnedAttribute) -> bool) {
        let before = self.attrs.len();
        self.attrs.retain(|a| keep(a));
        if self.attrs.len() != before {
            self.modified = true;
        }
    }

    /// Builder form of [`set_attr`](Self::set_attr).
    pub fn with_attr(mut self, name: impl Into<Name>, value: impl Into<AttrValue>) -> OwnedTag {
        self.set_attr(name, value);
        self
    }

    /// The source range; `None` for a tag a program made.
    pub fn span(&self) -> Option<Span> {
        self.has_span.then_some(self.span)
    }

    /// Whether the tag differs from its source (see [`OwnedToken::is_modified`]).
    pub fn is_modified(&self) -> bool {
        self.modified
    }
}

/// One attribute of an [`OwnedTag`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OwnedAttribute {
    /// The local name.
    pub name: Name,
    /// The namespace, when the producer knows it (see [`OwnedTag::ns`]); serializers
    /// write it as an `xlink:`/`xml:`/`xmlns:` prefix, the tree builder ignores it.
    pub ns: AttrNamespace,
    /// The value after character-reference decoding: an owned string when
    /// read from a source, static text or an owned string when made by a
    /// program ([`AttrValue`]).
    pub value: AttrValue,
    /// Whether the source had a value (`<input disabled>` has none; `value` is then
    /// empty). A serializer may write a valueless attribute without `=""`.
    pub has_value: bool,
    /// Source range of the name, when read from a source.
    pub name_span: Option<Span>,
    /// Source range of the value (without quotes), when read from a source.
    pub value_span: Option<Span>,
}

impl OwnedAttribute {
    /// An attribute made by a program: no namespace, a value (a literal is
    /// kept as static text), no spans.
    pub fn new(name: impl Into<Name>, value: impl Into<AttrValue>) -> OwnedAttribute {
        OwnedAttribute {
            name: name.into(),
            ns: AttrNamespace::None,
            value: value.into(),
            has_value: true,
            name_span: None,
            value_span: None,
        }
    }
}

/// Owned character data or comment data.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OwnedText {
    text: String,
    span: Option<Span>,
    modified: bool,
}

impl OwnedText {
    /// Text made by a program.
    pub fn new(text: impl Into<String>) -> OwnedText {
        OwnedText {
            text: text.into(),
            span: None,
            modified: true,
        }
    }

    fn from_view(text: &Text<'_>) -> OwnedText {
        OwnedText {
            text: text.text.to_owned(),
            span: Some(text.span),
            modified: false,
        }
    }

    /// The characters (for a comment, its data).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Replaces the characters.
    pub fn set_text(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.modified = true;
    }

    /// The characters, for changing them (marks the text modified).
    pub fn text_mut(&mut self) -> &mut String {
        self.modified = true;
        &mut self.text
    }

    /// Takes the characters out, leaving the token empty and modified.
    pub fn take_text(&mut self) -> String {
        self.modified = true;
        std::mem::take(&mut self.text)
    }

    /// The source range; `None` for text a program made.
    pub fn span(&self) -> Option<Span> {
        self.span
    }

    /// Whether the text differs from its source.
    pub fn is_modified(&self) -> bool {
        self.modified
    }
}

/// An owned DOCTYPE. The fields are plain data; a program that changes one should
/// build a new token (which is modified by construction).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OwnedDoctype {
    name: Option<String>,
    public_id: Option<String>,
    system_id: Option<String>,
    force_quirks: bool,
    span: Option<Span>,
    modified: bool,
}

impl OwnedDoctype {
    /// A DOCTYPE made by a program (`OwnedDoctype::new(Some("html"), None, None)`
    /// is `<!DOCTYPE html>`).
    pub fn new(name: Option<&str>, public_id: Option<&str>, system_id: Option<&str>) -> Self {
        OwnedDoctype {
            name: name.map(str::to_owned),
            public_id: public_id.map(str::to_owned),
            system_id: system_id.map(str::to_owned),
            force_quirks: false,
            span: None,
            modified: true,
        }
    }

    /// The name (`None`: missing).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The public identifier (`None`: missing).
    pub fn public_id(&self) -> Option<&str> {
        self.public_id.as_deref()
    }

    /// The system identifier (`None`: missing).
    pub fn system_id(&self) -> Option<&str> {
        self.system_id.as_deref()
    }

    /// The force-quirks flag.
    pub fn force_quirks(&self) -> bool {
        self.force_quirks
    }

    /// Sets the force-quirks flag.
    pub fn set_force_quirks(&mut self, force_quirks: bool) {
        self.force_quirks = force_quirks;
        self.modified = true;
    }

    /// The source range; `None` for a DOCTYPE a program made.
    pub fn span(&self) -> Option<Span> {
        self.span
    }
}

/// An owned processing instruction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OwnedProcessingInstruction {
    target: String,
    data: String,
    span: Option<Span>,
    modified: bool,
}

impl OwnedProcessingInstruction {
    /// A processing instruction made by a program.
    pub fn new(target: impl Into<String>, data: impl Into<String>) -> Self {
        OwnedProcessingInstruction {
            target: target.into(),
            data: data.into(),
            span: None,
            modified: true,
        }
    }

    /// The target.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The data.
    pub fn data(&self) -> &str {
        &self.data
    }

    /// Replaces the data.
    pub fn set_data(&mut self, data: impl Into<String>) {
        self.data = data.into();
        self.modified = true;
    }

    /// The source range; `None` for one a program made.
    pub fn span(&self) -> Option<Span> {
        self.span
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::{Tokenizer, TokenizerConfig};

    /// A reused tag, whatever it held before, copies as `to_owned` does: more,
    /// fewer and no attributes, valueless ones, names that are no static atom.
    #[test]
    fn copy_from_reuses_and_equals_to_owned() {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        tok.push_str(concat!(
            "<a href=/x title='t' data-q=\"1\" lang=fr><b>",
            "<x-widget my-attr=v disabled/><p id=a><img src=y alt=&amp;></a></b>"
        ));
        tok.finish();
        let mut spare = OwnedTag::new(crate::atom::SPAN);
        spare.set_attr("stale", "value");
        let mut tags = 0;
        while let Some(token) = tok.next_token().unwrap() {
            let (Token::StartTag(tag) | Token::EndTag(tag)) = token else {
                continue;
            };
            spare.copy_from(&tag);
            let expected = OwnedTag::from_view(&tag);
            assert_eq!(spare, expected);
            assert!(!spare.is_modified());
            tags += 1;
        }
        assert_eq!(tags, 7);
    }

    /// Tags of all sizes copied through two reused tags and one slot store: each
    /// equals `to_owned`; the slots a smaller tag gave up serve the next larger one.
    #[test]
    fn copy_from_reusing_moves_slots_and_equals_to_owned() {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        tok.push_str("<a href=/x title=t lang=fr><b><i x=1 y=2 z=3 w=4><br><p id=a class=b>");
        tok.finish();
        let mut tags = [
            OwnedTag::new(crate::atom::SPAN),
            OwnedTag::new(crate::atom::SPAN),
        ];
        let mut slots = Vec::new();
        let mut seen = 0;
        while let Some(Token::StartTag(tag)) = tok.next_token().unwrap() {
            let Some(reused) = tags.get_mut(seen % 2) else {
                break;
            };
            let before = reused.attrs().len() + slots.len();
            reused.copy_from_reusing(&tag, |_| true, &mut slots);
            assert_eq!(*reused, OwnedTag::from_view(&tag));
            // Slots move between the tag and the store; new ones only when both
            // together had too few.
            let after = reused.attrs().len() + slots.len();
            assert_eq!(after, before.max(tag.attrs.len()));
            seen += 1;
        }
        assert_eq!(seen, 5);
        assert!(!slots.is_empty());
    }

    /// Values left out are empty, everything else as `to_owned` has it; a tag that
    /// lost a value is modified, one that lost none is not.
    #[test]
    fn copy_from_keeping_drops_only_the_values_asked() {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        tok.push_str("<a href=/long/url title=t lang=fr disabled><b href=''>");
        tok.finish();
        let mut spare = OwnedTag::new(crate::atom::SPAN);
        let mut seen = 0;
        while let Some(Token::StartTag(tag)) = tok.next_token().unwrap() {
            spare.copy_from_keeping(&tag, |name| name.as_str() != "href");
            let full = OwnedTag::from_view(&tag);
            assert_eq!(spare.attrs().len(), full.attrs().len());
            for (kept, all) in spare.attrs().iter().zip(full.attrs()) {
                let expected = if all.name == "href" {
                    ""
                } else {
                    all.value.as_str()
                };
                assert_eq!(kept.value, expected);
                assert_eq!(
                    (&kept.name, kept.has_value, kept.name_span, kept.value_span),
                    (&all.name, all.has_value, all.name_span, all.value_span)
                );
            }
            // `<a>` lost its `href`; `<b>`'s was empty already.
            assert_eq!(spare.is_modified(), seen == 0);
            seen += 1;
        }
        assert_eq!(seen, 2);
    }
}
