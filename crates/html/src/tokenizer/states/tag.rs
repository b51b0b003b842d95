//! 13.2.5.6-13.2.5.8 Tag open, end tag open and tag name states; 13.2.5.40
//! self-closing start tag state; emitting tag tokens.

use super::skim::Skim;
use super::{St, is_space};
use crate::error::ErrorCode;
use crate::tokenizer::run::{Stops, stop_set};
use crate::tokenizer::{End, Flow, Nul, RawToken, TAG_NAME, TEXT, Tokenizer};

stop_set!(
    /// Where runs of tag-name characters end: whitespace, `/`, `>`, NUL, CR, and
    /// uppercase ASCII (which must be lowercased).
    TagNameStops = Stops::new(b"\t\n\x0C />\0").with_uppercase()
);

impl Tokenizer {
    /// Starts a new tag token.
    pub(crate) fn create_tag(&mut self, end_tag: bool) {
        self.is_end_tag = end_tag;
        self.self_closing = false;
        self.b[TAG_NAME] = Default::default();
        self.attrs.clear();
        if !self.attr_names.is_empty() {
            self.attr_names.clear();
        }
        self.has_attr = false;
        self.tag_atom = None;
        self.skimmed = false;
    }

    /// Whether the tag whose name was just read is skimmed
    /// ([`AttributeMode::Only`](crate::tokenizer::AttributeMode::Only)); with that mode its name is interned here.
    #[inline]
    pub(super) fn skims_tag(&mut self) -> bool {
        if self.reads_all {
            return false;
        }
        let name = self.intern(TAG_NAME);
        self.tag_atom = Some(name);
        let wanted = !self.is_end_tag && self.read_tags.contains(name);
        self.skimmed = !wanted;
        self.skimmed
    }

    /// "Emit the current tag token" (with the end-tag checks of §13.2.5).
    pub(crate) fn emit_tag(&mut self) -> Flow {
        self.finish_attribute();
        let name = match self.tag_atom.take() {
            Some(name) => name,
            None => self.intern(TAG_NAME),
        };
        let span = self.token_span();
        if self.is_end_tag {
            if !self.attrs.is_empty() {
                self.error_at(ErrorCode::EndTagWithAttributes, span.end.saturating_sub(1));
            }
            if self.self_closing {
                self.error_at(
                    ErrorCode::EndTagWithTrailingSolidus,
                    span.end.saturating_sub(1),
                );
            }
            Flow::Emit(RawToken::EndTag {
                name,
                self_closing: self.self_closing,
                span,
            })
        } else {
            self.last_start_tag = Some(name);
            Flow::Emit(RawToken::StartTag {
                name,
                self_closing: self.self_closing,
                span,
            })
        }
    }

    /// The tag open state at a lowercase letter when every tag is read in full
    /// (`first_step` has looked at the byte): the fused reader, else the tag
    /// name state, as [`Self::tag_open_state`] would go.
    #[inline(never)]
    pub(crate) fn fast_start_tag(&mut self) -> Flow {
        self.create_tag(false);
        if let Some(flow) = self.fast_tag::<false>() {
            return flow;
        }
        self.state = St::TagName;
        self.tag_name_state()
    }

    /// 13.2.5.6 Tag open state.
    pub(crate) fn tag_open_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) => match ch.c {
                b'!' => {
                    self.pos += 1;
                    self.state = St::MarkupDeclarationOpen;
                }
                b'/' => {
                    if self.fast_tags
                        && self.reads_all
                        && let Some(flow) = self.fast_end_tag()
                    {
                        return flow;
                    }
                    self.pos += 1;
                    self.state = St::EndTagOpen;
                    return self.end_tag_open_state();
                }
                c if c.is_ascii_alphabetic() => {
                    self.create_tag(false);
                    if self.fast_tags {
                        if !self.reads_all {
                            return self.fast_tag_skimming();
                        }
                        if let Some(flow) = self.fast_tag::<false>() {
                            return flow;
                        }
                    }
                    self.state = St::TagName;
                    return self.tag_name_state();
                }
                b'?' if self.pi_enabled() => {
                    self.pos += 1;
                    self.state = St::ProcessingInstructionOpen;
                }
                b'?' => {
                    self.error(ErrorCode::UnexpectedQuestionMarkInsteadOfTagName);
                    self.b[TEXT] = Default::default();
                    self.state = St::BogusComment;
                }
                _ => {
                    self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                    self.push_range(TEXT, self.pos - 1, self.pos);
                    self.state = St::Data;
                }
            },
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => {
                self.error(ErrorCode::EofBeforeTagName);
                self.push_range(TEXT, self.pos - 1, self.pos);
                return self.emit_eof();
            }
        }
        Flow::Continue
    }

    /// 13.2.5.7 End tag open state.
    pub(crate) fn end_tag_open_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) => match ch.c {
                c if c.is_ascii_alphabetic() => {
                    self.create_tag(true);
                    if self.fast_tags {
                        if !self.reads_all {
                            return self.fast_tag_skimming();
                        }
                        if let Some(flow) = self.fast_tag::<false>() {
                            return flow;
                        }
                    }
                    self.state = St::TagName;
                    return self.tag_name_state();
                }
                b'>' => {
                    self.error(ErrorCode::MissingEndTagName);
                    self.pos += 1;
                    self.state = St::Data;
                }
                _ => {
                    self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                    self.b[TEXT] = Default::default();
                    self.state = St::BogusComment;
                }
            },
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => {
                self.error(ErrorCode::EofBeforeTagName);
                self.push_range(TEXT, self.pos - 2, self.pos);
                return self.emit_eof();
            }
        }
        Flow::Continue
    }

    /// 13.2.5.8 Tag name state.
    pub(crate) fn tag_name_state(&mut self) -> Flow {
        loop {
            self.take_run::<TagNameStops>(TAG_NAME);
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.error(ErrorCode::EofInTag);
                    return self.emit_eof();
                }
            };
            match ch.c {
                c if is_space(c) => {
                    self.pos += ch.len;
                    if self.skims_tag() {
                        return self.skim_tag(Skim::BeforeName);
                    }
                    self.state = St::BeforeAttributeName;
                    return self.before_attribute_name_state();
                }
                b'/' => {
                    self.pos += 1;
                    if self.skims_tag() {
                        return self.skim_tag(Skim::Solidus);
                    }
                    self.state = St::SelfClosingStartTag;
                    return Flow::Continue;
                }
                b'>' => {
                    self.pos += 1;
                    self.state = St::Data;
                    return self.emit_tag();
                }
                c if c.is_ascii_uppercase() => {
                    self.push_char(TAG_NAME, c.to_ascii_lowercase() as char);
                    self.pos += 1;
                }
                0 => self.take_nuls(TAG_NAME, Nul::Replace),
                _ => self.take_into(TAG_NAME, ch),
            }
        }
    }

    /// 13.2.5.40 Self-closing start tag state.
    pub(crate) fn self_closing_start_tag_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'>' => {
                self.self_closing = true;
                self.pos += 1;
                self.state = St::Data;
                self.emit_tag()
            }
            Ok(_) => {
                self.error(ErrorCode::UnexpectedSolidusInTag);
                self.state = St::BeforeAttributeName;
                Flow::Continue
            }
            Err(End::NeedMore) => Flow::NeedMore,
            Err(End::Eof) => {
                self.error(ErrorCode::EofInTag);
                self.emit_eof()
            }
        }
    }
}
