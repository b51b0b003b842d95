//! 13.2.5.32-13.2.5.39: attribute name and value states.

use super::{St, is_space};
use crate::error::ErrorCode;
use crate::span::Span;
use crate::token::AttrSlot;
use crate::tokenizer::run::{Stops, stop_set};
use crate::tokenizer::{ATTR_NAME, ATTR_VALUE, End, Flow, Nul, Tokenizer};

/// Past this many attributes, duplicates are found with a hash set instead of a scan.
pub(crate) const LINEAR_DUPLICATE_CHECK: usize = 12;

stop_set!(
    /// Where runs of attribute-name characters end.
    AttrNameStops = Stops::new(b"\t\n\x0C />=\0\"'<").with_uppercase()
);

stop_set!(
    /// Where runs of double-quoted attribute-value characters end.
    DoubleQuotedStops = Stops::new(b"\"&\0")
);

stop_set!(
    /// Where runs of single-quoted attribute-value characters end.
    SingleQuotedStops = Stops::new(b"'&\0")
);

stop_set!(
    /// Where runs of unquoted attribute-value characters end.
    UnquotedStops = Stops::new(b"\t\n\x0C &>\0\"'<=`")
);

impl Tokenizer {
    /// "Start a new attribute in the current tag token".
    fn start_attribute(&mut self) {
        self.finish_attribute();
        self.has_attr = true;
        self.attr_dropped = false;
        self.attr_name_start = self.abs();
        self.b[ATTR_NAME] = Default::default();
        self.b[ATTR_VALUE] = Default::default();
    }

    /// "When the user agent leaves the attribute name state": drop a duplicate.
    fn leave_attribute_name(&mut self) {
        let name = self.intern(ATTR_NAME);
        let end = self.abs();
        self.attr_value_span = Span::new(end, end);
        let duplicate = if self.attrs.len() < LINEAR_DUPLICATE_CHECK {
            self.attrs.iter().any(|a| a.name == name)
        } else {
            if self.attr_names.len() < self.attrs.len() {
                self.attr_names.extend(self.attrs.iter().map(|a| a.name));
            }
            !self.attr_names.insert(name)
        };
        if duplicate {
            self.error(ErrorCode::DuplicateAttribute);
            self.attr_dropped = true;
        }
        // The slot is filled in when the value is complete; keep the name for it.
        self.pending_attr_name = Some((name, Span::new(self.attr_name_start, end)));
    }

    /// Adds the attribute in progress (if any, and not a duplicate) to the tag.
    #[inline(always)]
    pub(crate) fn finish_attribute(&mut self) {
        if self.has_attr {
            self.finish_pending_attribute();
        }
    }

    /// [`Self::finish_attribute`] when one is in progress.
    fn finish_pending_attribute(&mut self) {
        self.has_attr = false;
        let Some((name, name_span)) = self.pending_attr_name.take() else {
            return;
        };
        if self.attr_dropped {
            self.attr_names.remove(&name);
            if self.attrs.len() >= LINEAR_DUPLICATE_CHECK {
                // The set must still hold the first attribute of that name.
                self.attr_names.insert(name);
            }
            return;
        }
        let value_span = self.attr_value_span;
        self.attrs.push(AttrSlot {
            name,
            name_span,
            value: self.b[ATTR_VALUE].text_ref(),
            value_span,
            // A missing value's span is empty at the end of the name (`a=""`
            // has its quotes between them).
            has_value: !(value_span.is_empty() && value_span.start == name_span.end),
        });
    }

    /// 13.2.5.32 Before attribute name state.
    pub(crate) fn before_attribute_name_state(&mut self) -> Flow {
        loop {
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.state = St::AfterAttributeName;
                    return Flow::Continue;
                }
            };
            match ch.c {
                c if is_space(c) => self.pos += ch.len,
                b'/' | b'>' => {
                    self.state = St::AfterAttributeName;
                    return Flow::Continue;
                }
                b'=' => {
                    self.error(ErrorCode::UnexpectedEqualsSignBeforeAttributeName);
                    self.start_attribute();
                    self.take_into(ATTR_NAME, ch);
                    self.state = St::AttributeName;
                    return Flow::Continue;
                }
                _ => {
                    self.start_attribute();
                    self.state = St::AttributeName;
                    return self.attribute_name_state();
                }
            }
        }
    }

    /// 13.2.5.33 Attribute name state.
    pub(crate) fn attribute_name_state(&mut self) -> Flow {
        loop {
            self.take_run::<AttrNameStops>(ATTR_NAME);
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.leave_attribute_name();
                    self.state = St::AfterAttributeName;
                    return Flow::Continue;
                }
            };
            match ch.c {
                c if is_space(c) || c == b'/' || c == b'>' => {
                    self.leave_attribute_name();
                    self.state = St::AfterAttributeName;
                    return Flow::Continue;
                }
                b'=' => {
                    self.leave_attribute_name();
                    self.pos += 1;
                    self.state = St::BeforeAttributeValue;
                    return self.before_attribute_value_state();
                }
                c if c.is_ascii_uppercase() => {
                    self.push_char(ATTR_NAME, c.to_ascii_lowercase() as char);
                    self.pos += 1;
                }
                0 => self.take_nuls(ATTR_NAME, Nul::Replace),
                b'"' | b'\'' | b'<' => {
                    self.error(ErrorCode::UnexpectedCharacterInAttributeName);
                    self.take_into(ATTR_NAME, ch);
                }
                _ => self.take_into(ATTR_NAME, ch),
            }
        }
    }

    /// 13.2.5.34 After attribute name state.
    pub(crate) fn after_attribute_name_state(&mut self) -> Flow {
        loop {
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.error(ErrorCode::EofInTag);
                    return self.emit_eof();
                }
            };
            match ch.c {
                c if is_space(c) => self.pos += ch.len,
                b'/' => {
                    self.pos += 1;
                    self.state = St::SelfClosingStartTag;
                    return Flow::Continue;
                }
                b'=' => {
                    self.pos += 1;
                    self.state = St::BeforeAttributeValue;
                    return Flow::Continue;
                }
                b'>' => {
                    self.pos += 1;
                    self.state = St::Data;
                    return self.emit_tag();
                }
                _ => {
                    self.start_attribute();
                    self.state = St::AttributeName;
                    return Flow::Continue;
                }
            }
        }
    }

    /// 13.2.5.35 Before attribute value state.
    pub(crate) fn before_attribute_value_state(&mut self) -> Flow {
        loop {
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.attr_value_span = Span::new(self.abs(), self.abs());
                    self.state = St::AttributeValueUnquoted;
                    return Flow::Continue;
                }
            };
            match ch.c {
                c if is_space(c) => self.pos += ch.len,
                b'"' | b'\'' => {
                    self.pos += 1;
                    self.attr_value_span = Span::new(self.abs(), self.abs());
                    self.state = if ch.c == b'"' {
                        St::AttributeValueDoubleQuoted
                    } else {
                        St::AttributeValueSingleQuoted
                    };
                    return self.attribute_value_quoted_state(ch.c);
                }
                b'>' => {
                    self.error(ErrorCode::MissingAttributeValue);
                    self.pos += 1;
                    self.state = St::Data;
                    return self.emit_tag();
                }
                _ => {
                    self.attr_value_span = Span::new(self.abs(), self.abs());
                    self.state = St::AttributeValueUnquoted;
                    return Flow::Continue;
                }
            }
        }
    }

    /// 13.2.5.36 Attribute value (double-quoted) state and 13.2.5.37 Attribute value
    /// (single-quoted) state.
    pub(crate) fn attribute_value_quoted_state(&mut self, quote: u8) -> Flow {
        loop {
            if quote == b'"' {
                self.take_run::<DoubleQuotedStops>(ATTR_VALUE);
            } else {
                self.take_run::<SingleQuotedStops>(ATTR_VALUE);
            }
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.error(ErrorCode::EofInTag);
                    return self.emit_eof();
                }
            };
            match ch.c {
                c if c == quote => {
                    self.attr_value_span.end = self.abs();
                    self.pos += 1;
                    self.state = St::AfterAttributeValueQuoted;
                    return self.after_attribute_value_quoted_state();
                }
                b'&' => {
                    self.return_state = self.state;
                    if self.consume_char_ref(ATTR_VALUE, true).is_err() {
                        return Flow::NeedMore;
                    }
                }
                0 => self.take_nuls(ATTR_VALUE, Nul::Replace),
                _ => self.take_into(ATTR_VALUE, ch),
            }
        }
    }

    /// 13.2.5.38 Attribute value (unquoted) state.
    pub(crate) fn attribute_value_unquoted_state(&mut self) -> Flow {
        loop {
            self.take_run::<UnquotedStops>(ATTR_VALUE);
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
                    self.attr_value_span.end = self.abs();
                    self.pos += ch.len;
                    self.state = St::BeforeAttributeName;
                    return Flow::Continue;
                }
                b'&' => {
                    self.return_state = self.state;
                    if self.consume_char_ref(ATTR_VALUE, true).is_err() {
                        return Flow::NeedMore;
                    }
                }
                b'>' => {
                    self.attr_value_span.end = self.abs();
                    self.pos += 1;
                    self.state = St::Data;
                    return self.emit_tag();
                }
                0 => self.take_nuls(ATTR_VALUE, Nul::Replace),
                b'"' | b'\'' | b'<' | b'=' | b'`' => {
                    self.error(ErrorCode::UnexpectedCharacterInUnquotedAttributeValue);
                    self.take_into(ATTR_VALUE, ch);
                }
                _ => self.take_into(ATTR_VALUE, ch),
            }
        }
    }

    /// 13.2.5.39 After attribute value (quoted) state.
    pub(crate) fn after_attribute_value_quoted_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) => match ch.c {
                c if is_space(c) => {
                    self.pos += ch.len;
                    self.state = St::BeforeAttributeName;
                    Flow::Continue
                }
                b'/' => {
                    self.pos += 1;
                    self.state = St::SelfClosingStartTag;
                    Flow::Continue
                }
                b'>' => {
                    self.pos += 1;
                    self.state = St::Data;
                    self.emit_tag()
                }
                _ => {
                    self.error(ErrorCode::MissingWhitespaceBetweenAttributes);
                    self.state = St::BeforeAttributeName;
                    Flow::Continue
                }
            },
            Err(End::NeedMore) => Flow::NeedMore,
            Err(End::Eof) => {
                self.error(ErrorCode::EofInTag);
                self.emit_eof()
            }
        }
    }
}
