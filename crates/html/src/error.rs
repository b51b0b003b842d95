//! Parse errors: recorded with their spec code and position, never fatal.

macro_rules! error_codes {
    ($($variant:ident => $code:literal,)*) => {
        /// A parse error code from the HTML Standard (§13.2.2 "Parse errors"), plus the
        /// tree-construction errors tagloom reports.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(
                #[doc = concat!("`", $code, "`")]
                $variant,
            )*
        }

        impl ErrorCode {
            /// The code exactly as the spec spells it, e.g. `"eof-in-tag"`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)*
                }
            }

            /// The error for a spec code string, if it is one tagloom knows.
            pub fn from_code(code: &str) -> Option<ErrorCode> {
                match code {
                    $($code => Some(ErrorCode::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

error_codes! {
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
    // Tree construction (§13.2.6): the spec leaves these unnamed; tagloom reports
    // one generic code so a consumer can count them.
    TreeConstruction => "tree-construction",
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
