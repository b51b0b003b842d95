//! 13.2.5.18-13.2.5.31: the script data escape and double escape states, which keep
//! `</script>` inside `<!-- <script> ... </script> -->` from ending the script.

use super::{St, is_space};
use crate::error::ErrorCode;
use crate::tokenizer::run::{Stops, stop_set};
use crate::tokenizer::{End, Flow, Nul, TEXT, Tokenizer};

stop_set!(
    /// Where runs end in the (double) escaped states.
    EscapedStops = Stops::new(b"-<\0")
);

impl Tokenizer {
    /// Emits the current character as text and consumes it.
    #[inline]
    fn emit_current(&mut self) {
        if let Ok(ch) = self.peek() {
            self.take_into(TEXT, ch);
        }
    }

    /// 13.2.5.18 Script data escape start state.
    pub(crate) fn script_data_escape_start_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'-' => {
                self.emit_current();
                self.state = St::ScriptDataEscapeStartDash;
            }
            Ok(_) | Err(End::Eof) => self.state = St::ScriptData,
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }

    /// 13.2.5.19 Script data escape start dash state.
    pub(crate) fn script_data_escape_start_dash_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'-' => {
                self.emit_current();
                self.state = St::ScriptDataEscapedDashDash;
            }
            Ok(_) | Err(End::Eof) => self.state = St::ScriptData,
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }

    /// The shared body of the escaped (13.2.5.20-22) and double-escaped
    /// (13.2.5.27-29) states. `dashes` is how many `-` were just seen (0, 1, 2).
    fn escaped_like_state(&mut self, double: bool, dashes: u8) -> Flow {
        let (plain, dash, dash_dash, less_than) = if double {
            (
                St::ScriptDataDoubleEscaped,
                St::ScriptDataDoubleEscapedDash,
                St::ScriptDataDoubleEscapedDashDash,
                St::ScriptDataDoubleEscapedLessThanSign,
            )
        } else {
            (
                St::ScriptDataEscaped,
                St::ScriptDataEscapedDash,
                St::ScriptDataEscapedDashDash,
                St::ScriptDataEscapedLessThanSign,
            )
        };
        if dashes == 0 {
            self.text_run::<EscapedStops>();
        } else {
            self.mark_safe();
        }
        let ch = match self.peek() {
            Ok(ch) => ch,
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => {
                self.error(ErrorCode::EofInScriptHtmlCommentLikeText);
                return self.emit_eof();
            }
        };
        match ch.c {
            b'-' => {
                self.take_into(TEXT, ch);
                self.state = if dashes == 0 { dash } else { dash_dash };
            }
            b'<' => {
                if !double && !self.b[TEXT].is_empty() {
                    // Escaped "</script>" may end the script: cut the text here.
                    return Flow::Emit(self.text_token());
                }
                if double {
                    self.take_into(TEXT, ch);
                } else {
                    self.pos += 1;
                }
                self.state = less_than;
            }
            b'>' if dashes == 2 => {
                self.take_into(TEXT, ch);
                self.state = St::ScriptData;
            }
            0 => {
                self.take_nuls(TEXT, Nul::Replace);
                self.state = plain;
            }
            _ => {
                self.take_into(TEXT, ch);
                self.state = plain;
            }
        }
        Flow::Continue
    }

    /// 13.2.5.20 Script data escaped state.
    pub(crate) fn script_data_escaped_state(&mut self) -> Flow {
        self.escaped_like_state(false, 0)
    }

    /// 13.2.5.21 Script data escaped dash state.
    pub(crate) fn script_data_escaped_dash_state(&mut self) -> Flow {
        self.escaped_like_state(false, 1)
    }

    /// 13.2.5.22 Script data escaped dash dash state.
    pub(crate) fn script_data_escaped_dash_dash_state(&mut self) -> Flow {
        self.escaped_like_state(false, 2)
    }

    /// 13.2.5.23 Script data escaped less-than sign state (the end tag states
    /// 13.2.5.24-25 are shared with RCDATA, see `raw_end_tag`).
    pub(crate) fn script_data_escaped_less_than_sign_state(&mut self) -> Flow {
        let lt = self.pos - 1;
        match self.peek() {
            Ok(ch) if ch.c == b'/' => {
                self.pos += 1;
                self.raw_end_tag(St::ScriptDataEscaped)
            }
            Ok(ch) if ch.c.is_ascii_alphabetic() => {
                self.push_range(TEXT, lt, lt + 1);
                self.temp_start = self.pos;
                self.state = St::ScriptDataDoubleEscapeStart;
                Flow::Continue
            }
            Ok(_) | Err(End::Eof) => {
                self.push_range(TEXT, lt, lt + 1);
                self.state = St::ScriptDataEscaped;
                Flow::Continue
            }
            Err(End::NeedMore) => Flow::NeedMore,
        }
    }

    /// 13.2.5.26 Script data double escape start state and 13.2.5.31 script data
    /// double escape end state: read letters; on a delimiter, the temporary buffer
    /// (the letters) decides whether `script` was named.
    fn double_escape_boundary(&mut self, if_script: St, otherwise: St) -> Flow {
        loop {
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.state = otherwise;
                    return Flow::Continue;
                }
            };
            match ch.c {
                c if is_space(c) || c == b'/' || c == b'>' => {
                    let letters = self
                        .input
                        .buf
                        .as_bytes()
                        .get(self.temp_start..self.pos)
                        .unwrap_or(&[]);
                    self.state = if letters.eq_ignore_ascii_case(b"script") {
                        if_script
                    } else {
                        otherwise
                    };
                    self.take_into(TEXT, ch);
                    return Flow::Continue;
                }
                c if c.is_ascii_alphabetic() => self.take_into(TEXT, ch),
                _ => {
                    self.state = otherwise;
                    return Flow::Continue;
                }
            }
        }
    }

    /// 13.2.5.26 Script data double escape start state.
    pub(crate) fn script_data_double_escape_start_state(&mut self) -> Flow {
        self.double_escape_boundary(St::ScriptDataDoubleEscaped, St::ScriptDataEscaped)
    }

    /// 13.2.5.27 Script data double escaped state.
    pub(crate) fn script_data_double_escaped_state(&mut self) -> Flow {
        self.escaped_like_state(true, 0)
    }

    /// 13.2.5.28 Script data double escaped dash state.
    pub(crate) fn script_data_double_escaped_dash_state(&mut self) -> Flow {
        self.escaped_like_state(true, 1)
    }

    /// 13.2.5.29 Script data double escaped dash dash state.
    pub(crate) fn script_data_double_escaped_dash_dash_state(&mut self) -> Flow {
        self.escaped_like_state(true, 2)
    }

    /// 13.2.5.30 Script data double escaped less-than sign state.
    pub(crate) fn script_data_double_escaped_less_than_sign_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'/' => {
                self.take_into(TEXT, ch);
                self.temp_start = self.pos;
                self.state = St::ScriptDataDoubleEscapeEnd;
            }
            Ok(_) | Err(End::Eof) => self.state = St::ScriptDataDoubleEscaped,
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }

    /// 13.2.5.31 Script data double escape end state.
    pub(crate) fn script_data_double_escape_end_state(&mut self) -> Flow {
        self.double_escape_boundary(St::ScriptDataEscaped, St::ScriptDataDoubleEscaped)
    }
}
