//! 13.2.5.69-13.2.5.71: CDATA section states (foreign content only). The section's
//! characters are emitted as character tokens.

use super::St;
use crate::error::ErrorCode;
use crate::tokenizer::run::{Stops, stop_set};
use crate::tokenizer::{End, Flow, TEXT, Tokenizer};

stop_set!(
    /// Where runs end in the CDATA section state (NUL is not special here: it is
    /// emitted as is).
    CdataStops = Stops::new(b"]")
);

impl Tokenizer {
    /// 13.2.5.69 CDATA section state.
    pub(crate) fn cdata_section_state(&mut self) -> Flow {
        loop {
            self.text_run::<CdataStops>();
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.error(ErrorCode::EofInCdata);
                    return self.emit_eof();
                }
            };
            if ch.c == b']' {
                self.pos += 1;
                self.state = St::CdataSectionBracket;
                return Flow::Continue;
            }
            self.take_into(TEXT, ch);
        }
    }

    /// 13.2.5.70 CDATA section bracket state.
    pub(crate) fn cdata_section_bracket_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b']' => {
                self.pos += 1;
                self.state = St::CdataSectionEnd;
            }
            Ok(_) | Err(End::Eof) => {
                self.push_range(TEXT, self.pos - 1, self.pos);
                self.state = St::CdataSection;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }

    /// 13.2.5.71 CDATA section end state.
    pub(crate) fn cdata_section_end_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b']' => {
                // The first of three brackets is data.
                self.push_range(TEXT, self.pos - 2, self.pos - 1);
                self.pos += 1;
            }
            Ok(ch) if ch.c == b'>' => {
                self.pos += 1;
                self.state = St::Data;
            }
            Ok(_) | Err(End::Eof) => {
                self.push_range(TEXT, self.pos - 2, self.pos);
                self.state = St::CdataSection;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }
}
