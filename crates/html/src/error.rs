//! Parse errors: recorded with their spec code and position, never fatal.

macro_rules! error_codes {
    (
        tokenizer { $($variant:ident => $code:literal,)* }
        tree { $($(#[doc = $doc:literal])* $tvariant:ident => $tcode:literal,)* }
    ) => {
        /// A parse error code: the HTML Standard's tokenizer codes (§13.2.2 "Parse
        /// errors"), then tagloom's names for tree-construction errors (§13.2.6), which
        /// the spec leaves unnamed ([`is_tree_construction`](Self::is_tree_construction)).
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(
                #[doc = concat!("`", $code, "`")]
                $variant,
            )*
            $(
                #[doc = concat!("`", $tcode, "` (tree construction): ")]
                $(#[doc = $doc])*
                $tvariant,
            )*
        }

        impl ErrorCode {
            /// The code as a kebab-case string, e.g. `"eof-in-tag"` (the spec's
            /// spelling for tokenizer errors; stable names for tree-construction ones).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)*
                    $(ErrorCode::$tvariant => $tcode,)*
                }
            }

            /// The error for a code string, if it is one tagloom knows.
            pub fn from_code(code: &str) -> Option<ErrorCode> {
                match code {
                    $($code => Some(ErrorCode::$variant),)*
                    $($tcode => Some(ErrorCode::$tvariant),)*
                    _ => None,
                }
            }

            /// Whether the tree builder reports this error (the tokenizer reports the
            /// others).
            pub const fn is_tree_construction(self) -> bool {
                match self {
                    $(ErrorCode::$tvariant => true,)*
                    _ => false,
                }
            }
        }
    };
}

error_codes! {
tokenizer {
    AbruptClosingOfEmptyComment => "abrupt-closing-of-empty-comment",
    AbruptDoctypePublicIdentifier => "abrupt-doctype-public-identifier",
    AbruptDoctypeSystemIdentifier => "abrupt-doctype-system-identifier",
    AbsenceOfDigitsInNumericCharacterReference => "absence-of-digits-in-numeric-character-reference",
    CdataInHtmlContent => "cdata-in-html-content",
    CharacterReferenceOutsideUnicodeRange => "character-reference-outside-unicode-range",
    ControlCharacterInInputStream => "control-character-in-input-stream",
    ControlCharacterReference => "control-character-reference",
    DisallowedProcessingInstructionTarget => "disallowed-processing-instruction-target",
    DuplicateAttribute => "duplicate-attribute",
    EndTagWithAttributes => "end-tag-with-attributes",
    EndTagWithTrailingSolidus => "end-tag-with-trailing-solidus",
    EofBeforeTagName => "eof-before-tag-name",
    EofInCdata => "eof-in-cdata",
    EofInComment => "eof-in-comment",
    EofInDoctype => "eof-in-doctype",
    EofInProcessingInstruction => "eof-in-processing-instruction",
    EofInScriptHtmlCommentLikeText => "eof-in-script-html-comment-like-text",
    EofInTag => "eof-in-tag",
    IncorrectlyClosedComment => "incorrectly-closed-comment",
    IncorrectlyOpenedComment => "incorrectly-opened-comment",
    InvalidCharacterSequenceAfterDoctypeName => "invalid-character-sequence-after-doctype-name",
    InvalidFirstCharacterOfProcessingInstructionTarget => "invalid-first-character-of-processing-instruction-target",
    InvalidFirstCharacterOfTagName => "invalid-first-character-of-tag-name",
    InvalidProcessingInstructionTarget => "invalid-processing-instruction-target",
    MissingAttributeValue => "missing-attribute-value",
    MissingDoctypeName => "missing-doctype-name",
    MissingDoctypePublicIdentifier => "missing-doctype-public-identifier",
    MissingDoctypeSystemIdentifier => "missing-doctype-system-identifier",
    MissingEndTagName => "missing-end-tag-name",
    MissingQuoteBeforeDoctypePublicIdentifier => "missing-quote-before-doctype-public-identifier",
    MissingQuoteBeforeDoctypeSystemIdentifier => "missing-quote-before-doctype-system-identifier",
    MissingSemicolonAfterCharacterReference => "missing-semicolon-after-character-reference",
    MissingWhitespaceAfterDoctypePublicKeyword => "missing-whitespace-after-doctype-public-keyword",
    MissingWhitespaceAfterDoctypeSystemKeyword => "missing-whitespace-after-doctype-system-keyword",
    MissingWhitespaceBeforeDoctypeName => "missing-whitespace-before-doctype-name",
    MissingWhitespaceBetweenAttributes => "missing-whitespace-between-attributes",
    MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers => "missing-whitespace-between-doctype-public-and-system-identifiers",
    NestedComment => "nested-comment",
    NoncharacterCharacterReference => "noncharacter-character-reference",
    NoncharacterInInputStream => "noncharacter-in-input-stream",
    NonVoidHtmlElementStartTagWithTrailingSolidus => "non-void-html-element-start-tag-with-trailing-solidus",
    NullCharacterReference => "null-character-reference",
    SurrogateCharacterReference => "surrogate-character-reference",
    SurrogateInInputStream => "surrogate-in-input-stream",
    UnexpectedCharacterAfterDoctypeSystemIdentifier => "unexpected-character-after-doctype-system-identifier",
    UnexpectedCharacterInAttributeName => "unexpected-character-in-attribute-name",
    UnexpectedCharacterInUnquotedAttributeValue => "unexpected-character-in-unquoted-attribute-value",
    UnexpectedEqualsSignBeforeAttributeName => "unexpected-equals-sign-before-attribute-name",
    UnexpectedNullCharacter => "unexpected-null-character",
    UnexpectedQuestionMarkInsteadOfTagName => "unexpected-question-mark-instead-of-tag-name",
    UnexpectedSolidusInTag => "unexpected-solidus-in-tag",
    UnknownNamedCharacterReference => "unknown-named-character-reference",
}
tree {
    /// A DOCTYPE after the start of the document (ignored).
    UnexpectedDoctype => "unexpected-doctype",
    /// A DOCTYPE that is not `<!DOCTYPE html>` or one of the allowed legacy forms.
    NonConformingDoctype => "non-conforming-doctype",
    /// The document does not start with a DOCTYPE (quirks mode, outside iframe `srcdoc`).
    MissingDoctype => "missing-doctype",
    /// A start tag not allowed where it is (ignored, or processed as another mode would).
    UnexpectedStartTag => "unexpected-start-tag",
    /// An end tag not allowed where it is (ignored, or processed as another mode would).
    UnexpectedEndTag => "unexpected-end-tag",
    /// Non-whitespace text where none is allowed (ignored): one error per character.
    UnexpectedText => "unexpected-text",
    /// U+0000 in text: ignored (in HTML content), or replaced by U+FFFD (in foreign
    /// content). One error per character.
    UnexpectedNullInText => "unexpected-null-in-text",
    /// A comment or processing instruction where none is allowed.
    UnexpectedComment => "unexpected-comment",
    /// An end tag whose element is not open in the scope that matters (ignored,
    /// except `</p>` and `</br>`, which insert an element).
    EndTagWithoutOpenElement => "end-tag-without-open-element",
    /// Closing an element (by its end tag or implicitly) while elements inside it are
    /// still open: they are closed too.
    ImplicitlyClosedElements => "implicitly-closed-elements",
    /// A start tag for an element that may not nest in an open one of its kind
    /// (`a`, `nobr`, `button`, `form`, headings, `select`, `table`): the open one is
    /// closed or the tag ignored.
    UnexpectedNestedElement => "unexpected-nested-element",
    /// An end tag of a formatting element that does not nest properly (the adoption
    /// agency algorithm repairs it).
    MisnestedFormattingElement => "misnested-formatting-element",
    /// Content inside a table where only table structure may be: it is moved before
    /// the table (foster parenting).
    FosterParentedContent => "foster-parented-content",
    /// Content after `</body>` or `</html>`: put back into the body.
    ContentAfterBody => "content-after-body",
    /// `</body>` or `</html>` while elements other than those with optional end
    /// tags are open.
    BodyClosedWithOpenElements => "body-closed-with-open-elements",
    /// End of file while elements other than those with optional end tags are open
    /// (or inside `<template>`, a raw-text element or a frameset).
    EofWithOpenElements => "eof-with-open-elements",
    /// An HTML start tag (or `<font>` with `color`, `face` or `size`) inside SVG or
    /// MathML: the foreign elements are closed.
    HtmlStartTagInForeignContent => "html-start-tag-in-foreign-content",
}
}

impl ErrorCode {
    /// The generic tree-construction error for a token of `kind` that is not
    /// allowed where it is.
    pub const fn unexpected(kind: crate::token::TokenKind) -> ErrorCode {
        use crate::token::TokenKind;
        match kind {
            TokenKind::Doctype => ErrorCode::UnexpectedDoctype,
            TokenKind::StartTag => ErrorCode::UnexpectedStartTag,
            TokenKind::EndTag => ErrorCode::UnexpectedEndTag,
            TokenKind::Characters => ErrorCode::UnexpectedText,
            TokenKind::Comment | TokenKind::ProcessingInstruction => ErrorCode::UnexpectedComment,
            TokenKind::Eof => ErrorCode::EofWithOpenElements,
        }
    }
}

/// A parse error: what went wrong and where.
///
/// `offset` is the byte offset into the decoded input of the character that caused
/// it; `line` and `col` are one-based, count UTF-16 code units (as html5lib-tests and
/// browsers' developer tools do), and treat CR LF and a lone
/// CR as one newline (as the input stream preprocessing does).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// The spec's error code.
    pub code: ErrorCode,
    /// Byte offset into the decoded input.
    pub offset: usize,
    /// One-based line.
    pub line: u32,
    /// One-based column, in code points.
    pub col: u32,
}

/// A tree-construction parse error as the tree builder records it: the code and the
/// offset of the token being processed when it was found (the start of its span in
/// the decoded input; for end of file, the end of the last token). Owned tokens a
/// program made have no span, so their errors have no offset.
/// [`Html5ParseSession`](crate::session::Html5ParseSession) turns these into
/// [`ParseError`]s with a line and column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TreeError {
    /// What is wrong ([`ErrorCode::is_tree_construction`] holds).
    pub code: ErrorCode,
    /// Byte offset into the decoded input, when the token had a span.
    pub offset: Option<usize>,
}
