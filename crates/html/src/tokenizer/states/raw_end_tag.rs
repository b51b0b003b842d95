//! 13.2.5.9-13.2.5.17 and 13.2.5.23-13.2.5.25: the less-than sign, end tag open and
//! end tag name states of RCDATA, RAWTEXT, script data and escaped script data.
//!
//! The four families differ only in the text state they fall back to, so one
//! implementation serves all. The spec's temporary buffer always holds the ASCII
//! letters just read, so it is kept as a source range, not copied.

use super::{St, is_space};
use crate::tokenizer::{End, Flow, TAG_NAME, TEXT, Tokenizer};

impl Tokenizer {
    /// 13.2.5.9 RCDATA less-than sign state, 13.2.5.12 RAWTEXT less-than sign state
    /// and 13.2.5.15 script data less-than sign state.
    pub(crate) fn raw_less_than_sign_state(&mut self) -> Flow {
        let text_state = match self.state {
            St::RcdataLessThanSign => St::Rcdata,
            St::RawtextLessThanSign => St::Rawtext,
            _ => St::ScriptData,
        };
        let lt = self.pos - 1;
        match self.peek() {
            Ok(ch) if ch.c == b'/' => {
                self.pos += 1;
                self.raw_end_tag(text_state)
            }
            Ok(ch) if ch.c == b'!' && text_state == St::ScriptData => {
                // 13.2.5.15: "<!" starts a script data escape.
                self.pos += 1;
                self.push_range(TEXT, lt, self.pos);
                self.state = St::ScriptDataEscapeStart;
                Flow::Continue
            }
            Ok(_) | Err(End::Eof) => {
                self.push_range(TEXT, lt, lt + 1);
                self.state = text_state;
                Flow::Continue
            }
            Err(End::NeedMore) => Flow::NeedMore,
        }
    }

    /// The end tag open and end tag name states (13.2.5.10-11, 13-14, 16-17, 24-25),
    /// entered just after `</`: an appropriate end tag becomes a tag token, anything
    /// else is text in `text_state`.
    pub(crate) fn raw_end_tag(&mut self, text_state: St) -> Flow {
        let lt = self.pos - 2;
        let name_start = self.pos;
        let bytes = self.input.buf.as_bytes();
        let rest = bytes.get(name_start..).unwrap_or(&[]);
        let letters = rest.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let after = name_start + letters;
        let next = match self.peek_at(after) {
            Ok(c) => Some(c),
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => None,
        };
        let appropriate = letters > 0 && self.is_appropriate_end_tag(name_start, after);
        if appropriate && let Some(c) = next {
            let to = match c {
                c if is_space(c) => Some(St::BeforeAttributeName),
                b'/' => Some(St::SelfClosingStartTag),
                b'>' => Some(St::Data),
                _ => None,
            };
            if let Some(to) = to {
                self.create_tag(true);
                self.push_lowercase(TAG_NAME, name_start, after);
                self.pos = after;
                let ch = self.peek();
                self.pos += ch.map_or(1, |ch| ch.len);
                self.state = to;
                if to == St::Data {
                    return self.emit_tag();
                }
                return Flow::Continue;
            }
        }
        // "Emit '</' and the temporary buffer; reconsume in the text state."
        self.push_range(TEXT, lt, after);
        self.pos = after;
        self.state = text_state;
        Flow::Continue
    }

    /// The next input character at relative position `at` (CR read as LF).
    pub(crate) fn peek_at(&self, at: usize) -> Result<u8, End> {
        match self.byte_at(at) {
            Some(b'\r') => Ok(b'\n'),
            Some(b) => Ok(b),
            None if self.input_done => Err(End::Eof),
            None => Err(End::NeedMore),
        }
    }

    /// "An appropriate end tag token is an end tag token whose tag name matches the
    /// tag name of the last start tag to have been emitted from this tokenizer".
    fn is_appropriate_end_tag(&self, start: usize, end: usize) -> bool {
        let Some(last) = self.last_start_tag else {
            return false;
        };
        let name = self.atoms.name(last).as_bytes();
        let candidate = self.input.buf.as_bytes().get(start..end).unwrap_or(&[]);
        name.eq_ignore_ascii_case(candidate)
    }

    /// Appends source letters `start..end`, ASCII-lowercased, to builder `which`.
    pub(crate) fn push_lowercase(&mut self, which: usize, start: usize, end: usize) {
        let bytes = self.input.buf.as_bytes().get(start..end).unwrap_or(&[]);
        if bytes.iter().any(u8::is_ascii_uppercase) {
            let lower = String::from_utf8_lossy(bytes).to_ascii_lowercase();
            self.push_text(which, &lower);
        } else {
            self.push_range(which, start, end);
        }
    }
}
