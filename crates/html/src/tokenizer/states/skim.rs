//! Skimming a tag whose attributes nobody reads ([`AttributeMode::Only`]): the
//! attribute states 13.2.5.32-13.2.5.40 reduced to what decides where the tag
//! ends and whether it is self-closing.
//!
//! Only ASCII bytes take part in those decisions (whitespace, `/`, `=`, `>` and the
//! quotes), so the skim runs on raw bytes: CR is whitespace whatever follows it,
//! NUL and non-ASCII characters are ordinary, and a character reference never
//! consumes a quote or `>`, so `&` is ordinary too. Nothing is stored and no error
//! is recorded but eof-in-tag, where the full states record it.
//!
//! [`AttributeMode::Only`]: crate::tokenizer::AttributeMode::Only

use super::St;
use crate::error::ErrorCode;
use crate::tokenizer::run::{Stops, find_byte, run_len_of, stop_set};
use crate::tokenizer::{Flow, Tokenizer};

stop_set!(
    /// Where a skimmed attribute name ends (the attribute name state's exits).
    NameStops = Stops::new(b"\t\n\x0C />=")
);
stop_set!(
    /// Where a skimmed unquoted value ends.
    UnquotedStops = Stops::new(b"\t\n\x0C >")
);

/// The attribute states, merged where they act alike on the bytes that matter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Skim {
    /// 13.2.5.32 before attribute name.
    BeforeName,
    /// 13.2.5.33 attribute name.
    Name,
    /// 13.2.5.34 after attribute name.
    AfterName,
    /// 13.2.5.35 before attribute value.
    BeforeValue,
    /// 13.2.5.36/37 quoted value, until this quote.
    Quoted(u8),
    /// 13.2.5.38 unquoted value.
    Unquoted,
    /// 13.2.5.39 after attribute value (quoted).
    AfterQuoted,
    /// 13.2.5.40 self-closing start tag.
    Solidus,
}

/// Whitespace as the attribute states see it (CR is a newline).
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

impl Tokenizer {
    /// Reads the rest of the current tag from `at` (the read position is just past
    /// the byte that left the tag name state) and emits it without attributes.
    pub(crate) fn skim_tag(&mut self, at: Skim) -> Flow {
        if self.read_triggers && !self.is_end_tag {
            self.skim_tag_with::<true>(at)
        } else {
            self.skim_tag_with::<false>(at)
        }
    }

    /// [`skim_tag`](Self::skim_tag); with `TRIGGERS`, an attribute name that
    /// `AttributeMode::triggered_by` accepts sends the tag back to the full states.
    #[inline(always)]
    fn skim_tag_with<const TRIGGERS: bool>(&mut self, mut at: Skim) -> Flow {
        let bytes = self.input.buf.as_bytes();
        let (entry_pos, entry_at) = (self.pos, at);
        let mut name_start = self.pos;
        let mut i = self.pos;
        let mut self_closing = false;
        loop {
            let Some(&b) = bytes.get(i) else {
                self.pos = i;
                if self.input_done {
                    self.error(ErrorCode::EofInTag);
                    return self.emit_eof();
                }
                return Flow::NeedMore;
            };
            match at {
                Skim::BeforeName => match b {
                    b'/' => at = Skim::Solidus,
                    b'>' => break,
                    b if is_space(b) => {}
                    // Any other byte (`=` included) starts a name.
                    _ => {
                        at = Skim::Name;
                        if TRIGGERS {
                            name_start = i;
                        }
                    }
                },
                Skim::Name | Skim::Unquoted => {
                    let rest = bytes.get(i..).unwrap_or_default();
                    let run = if at == Skim::Name {
                        run_len_of::<NameStops>(rest)
                    } else {
                        run_len_of::<UnquotedStops>(rest)
                    };
                    i += run;
                    let Some(&b) = bytes.get(i) else { continue };
                    if TRIGGERS
                        && at == Skim::Name
                        && self
                            .attribute_mode
                            .triggered_by(bytes.get(name_start..i).unwrap_or_default())
                    {
                        // Read again, in full, from the first attribute.
                        self.pos = entry_pos;
                        self.skimmed = false;
                        self.state = match entry_at {
                            Skim::Solidus => St::SelfClosingStartTag,
                            _ => St::BeforeAttributeName,
                        };
                        return Flow::Continue;
                    }
                    match b {
                        b'>' => break,
                        b'/' => at = Skim::Solidus,
                        b'=' => at = Skim::BeforeValue,
                        _ if at == Skim::Name => at = Skim::AfterName,
                        _ => at = Skim::BeforeName,
                    }
                }
                Skim::AfterName => match b {
                    b'/' => at = Skim::Solidus,
                    b'=' => at = Skim::BeforeValue,
                    b'>' => break,
                    b if is_space(b) => {}
                    _ => {
                        at = Skim::Name;
                        if TRIGGERS {
                            name_start = i;
                        }
                    }
                },
                Skim::BeforeValue => match b {
                    b'"' | b'\'' => at = Skim::Quoted(b),
                    b'>' => break,
                    b if is_space(b) => {}
                    _ => at = Skim::Unquoted,
                },
                Skim::Quoted(quote) => {
                    let rest = bytes.get(i..).unwrap_or_default();
                    match find_byte(quote, rest) {
                        Some(run) => {
                            i += run;
                            at = Skim::AfterQuoted;
                        }
                        None => {
                            i += rest.len();
                            continue;
                        }
                    }
                }
                Skim::AfterQuoted => match b {
                    b'/' => at = Skim::Solidus,
                    b'>' => break,
                    b if is_space(b) => at = Skim::BeforeName,
                    // Missing whitespace: reconsumed in before attribute name,
                    // where it starts a name.
                    _ => {
                        at = Skim::Name;
                        if TRIGGERS {
                            name_start = i;
                        }
                    }
                },
                Skim::Solidus => {
                    if b == b'>' {
                        self_closing = true;
                        break;
                    }
                    // Reconsumed in the before attribute name state.
                    at = Skim::BeforeName;
                    continue;
                }
            }
            i += 1;
        }
        // At the `>`.
        self.pos = i + 1;
        self.self_closing = self_closing;
        self.state = St::Data;
        self.emit_tag()
    }
}
