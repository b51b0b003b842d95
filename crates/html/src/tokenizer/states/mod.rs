//! The tokenizer states of §13.2.5, one file per group of the spec:
//! text states (13.2.5.1-5), tags (6-8, 40), attributes (32-39), the RCDATA,
//! RAWTEXT and script end-tag states (9-17), script escapes (18-31), markup
//! declarations and comments (41-52), DOCTYPEs (53-68), CDATA (69-71) and the
//! processing instruction states of Part A.2.
//! Character references (72-80) live in [`super::char_ref`].
//!
//! A state normally sets the next one and returns [`Flow::Continue`] to
//! [`Tokenizer::step`]. Along the usual path through a tag (`<` in the data
//! state → tag open (→ end tag open) → tag name → before attribute name →
//! attribute name → before attribute value → quoted value → after the quoted
//! value) a state calls the next one directly instead, saving a dispatch per
//! transition. That chain has no cycle (after the quoted value, the next
//! attribute goes back through `step`), so the call depth stays bounded whatever
//! the input. Most tags never enter that chain: the tag open and end tag open
//! states first try the fused reader of `fast_tag.rs`, which reads a tag of the
//! common shape in one pass.

mod attribute;
mod cdata;
mod comment;
mod doctype;
mod fast_tag;
mod processing_instruction;
mod raw_end_tag;
mod script;
mod skim;
mod tag;
mod text;

use super::{Flow, Tokenizer};

/// Every tokenizer state. The names are the spec's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum St {
    Data,
    Rcdata,
    Rawtext,
    ScriptData,
    Plaintext,
    TagOpen,
    EndTagOpen,
    TagName,
    RcdataLessThanSign,
    RawtextLessThanSign,
    ScriptDataLessThanSign,
    ScriptDataEscapeStart,
    ScriptDataEscapeStartDash,
    ScriptDataEscaped,
    ScriptDataEscapedDash,
    ScriptDataEscapedDashDash,
    ScriptDataEscapedLessThanSign,
    ScriptDataDoubleEscapeStart,
    ScriptDataDoubleEscaped,
    ScriptDataDoubleEscapedDash,
    ScriptDataDoubleEscapedDashDash,
    ScriptDataDoubleEscapedLessThanSign,
    ScriptDataDoubleEscapeEnd,
    BeforeAttributeName,
    AttributeName,
    AfterAttributeName,
    BeforeAttributeValue,
    AttributeValueDoubleQuoted,
    AttributeValueSingleQuoted,
    AttributeValueUnquoted,
    AfterAttributeValueQuoted,
    SelfClosingStartTag,
    BogusComment,
    MarkupDeclarationOpen,
    CommentStart,
    CommentStartDash,
    Comment,
    CommentLessThanSign,
    CommentLessThanSignBang,
    CommentLessThanSignBangDash,
    CommentLessThanSignBangDashDash,
    CommentEndDash,
    CommentEnd,
    CommentEndBang,
    Doctype,
    BeforeDoctypeName,
    DoctypeName,
    AfterDoctypeName,
    AfterDoctypePublicKeyword,
    BeforeDoctypePublicIdentifier,
    DoctypePublicIdentifierDoubleQuoted,
    DoctypePublicIdentifierSingleQuoted,
    AfterDoctypePublicIdentifier,
    BetweenDoctypePublicAndSystemIdentifiers,
    AfterDoctypeSystemKeyword,
    BeforeDoctypeSystemIdentifier,
    DoctypeSystemIdentifierDoubleQuoted,
    DoctypeSystemIdentifierSingleQuoted,
    AfterDoctypeSystemIdentifier,
    BogusDoctype,
    CdataSection,
    CdataSectionBracket,
    CdataSectionEnd,
    ProcessingInstructionOpen,
    ProcessingInstructionTarget,
    AfterProcessingInstructionTarget,
    ProcessingInstructionData,
    ProcessingInstructionQuestionable,
}

/// Whether `c` is ASCII whitespace as the tokenizer sees it (CR is already LF).
#[inline]
pub(crate) fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0C | b' ')
}

impl Tokenizer {
    /// Runs the current state once.
    #[inline]
    pub(crate) fn step(&mut self) -> Flow {
        use St::*;
        match self.state {
            Data => self.data_state(),
            Rcdata => self.rcdata_state(),
            Rawtext => self.rawtext_state(),
            ScriptData => self.script_data_state(),
            Plaintext => self.plaintext_state(),
            TagOpen => self.tag_open_state(),
            EndTagOpen => self.end_tag_open_state(),
            TagName => self.tag_name_state(),
            RcdataLessThanSign | RawtextLessThanSign | ScriptDataLessThanSign => {
                self.raw_less_than_sign_state()
            }
            ScriptDataEscapeStart => self.script_data_escape_start_state(),
            ScriptDataEscapeStartDash => self.script_data_escape_start_dash_state(),
            ScriptDataEscaped => self.script_data_escaped_state(),
            ScriptDataEscapedDash => self.script_data_escaped_dash_state(),
            ScriptDataEscapedDashDash => self.script_data_escaped_dash_dash_state(),
            ScriptDataEscapedLessThanSign => self.script_data_escaped_less_than_sign_state(),
            ScriptDataDoubleEscapeStart => self.script_data_double_escape_start_state(),
            ScriptDataDoubleEscaped => self.script_data_double_escaped_state(),
            ScriptDataDoubleEscapedDash => self.script_data_double_escaped_dash_state(),
            ScriptDataDoubleEscapedDashDash => self.script_data_double_escaped_dash_dash_state(),
            ScriptDataDoubleEscapedLessThanSign => {
                self.script_data_double_escaped_less_than_sign_state()
            }
            ScriptDataDoubleEscapeEnd => self.script_data_double_escape_end_state(),
            BeforeAttributeName => self.before_attribute_name_state(),
            AttributeName => self.attribute_name_state(),
            AfterAttributeName => self.after_attribute_name_state(),
            BeforeAttributeValue => self.before_attribute_value_state(),
            AttributeValueDoubleQuoted => self.attribute_value_quoted_state(b'"'),
            AttributeValueSingleQuoted => self.attribute_value_quoted_state(b'\''),
            AttributeValueUnquoted => self.attribute_value_unquoted_state(),
            AfterAttributeValueQuoted => self.after_attribute_value_quoted_state(),
            SelfClosingStartTag => self.self_closing_start_tag_state(),
            BogusComment => self.bogus_comment_state(),
            MarkupDeclarationOpen => self.markup_declaration_open_state(),
            CommentStart => self.comment_start_state(),
            CommentStartDash => self.comment_start_dash_state(),
            Comment => self.comment_state(),
            CommentLessThanSign => self.comment_less_than_sign_state(),
            CommentLessThanSignBang => self.comment_less_than_sign_bang_state(),
            CommentLessThanSignBangDash => self.comment_less_than_sign_bang_dash_state(),
            CommentLessThanSignBangDashDash => self.comment_less_than_sign_bang_dash_dash_state(),
            CommentEndDash => self.comment_end_dash_state(),
            CommentEnd => self.comment_end_state(),
            CommentEndBang => self.comment_end_bang_state(),
            Doctype => self.doctype_state(),
            BeforeDoctypeName => self.before_doctype_name_state(),
            DoctypeName => self.doctype_name_state(),
            AfterDoctypeName => self.after_doctype_name_state(),
            AfterDoctypePublicKeyword => self.after_doctype_keyword_state(true),
            AfterDoctypeSystemKeyword => self.after_doctype_keyword_state(false),
            BeforeDoctypePublicIdentifier => self.before_doctype_identifier_state(true),
            BeforeDoctypeSystemIdentifier => self.before_doctype_identifier_state(false),
            DoctypePublicIdentifierDoubleQuoted => self.doctype_identifier_state(true, b'"'),
            DoctypePublicIdentifierSingleQuoted => self.doctype_identifier_state(true, b'\''),
            DoctypeSystemIdentifierDoubleQuoted => self.doctype_identifier_state(false, b'"'),
            DoctypeSystemIdentifierSingleQuoted => self.doctype_identifier_state(false, b'\''),
            AfterDoctypePublicIdentifier => self.after_doctype_public_identifier_state(),
            BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state()
            }
            AfterDoctypeSystemIdentifier => self.after_doctype_system_identifier_state(),
            BogusDoctype => self.bogus_doctype_state(),
            CdataSection => self.cdata_section_state(),
            CdataSectionBracket => self.cdata_section_bracket_state(),
            CdataSectionEnd => self.cdata_section_end_state(),
            ProcessingInstructionOpen => self.pi_open_state(),
            ProcessingInstructionTarget => self.pi_target_state(),
            AfterProcessingInstructionTarget => self.after_pi_target_state(),
            ProcessingInstructionData => self.pi_data_state(),
            ProcessingInstructionQuestionable => self.pi_questionable_state(),
        }
    }

    /// "Emit an end-of-file token": pending text first, then `Eof`.
    /// Whatever state the end was met in, only `Eof` remains, so the next call
    /// resumes in the data state.
    pub(crate) fn emit_eof(&mut self) -> Flow {
        self.state = St::Data;
        if !self.b[super::TEXT].is_empty() {
            return Flow::Emit(self.text_token());
        }
        self.eof_emitted = true;
        Flow::Emit(super::RawToken::Eof)
    }
}
