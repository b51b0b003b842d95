//! 13.2.5.41 Bogus comment state, 13.2.5.42 Markup declaration open state and the
//! comment states 13.2.5.43-13.2.5.52.

use super::St;
use crate::error::ErrorCode;
use crate::tokenizer::run::{Stops, stop_set};
use crate::tokenizer::{End, Flow, Nul, RawToken, TEXT, Tokenizer};

stop_set!(
    /// Where runs end in the bogus comment state.
    BogusCommentStops = Stops::new(b">\0")
);
stop_set!(
    /// Where runs end in the comment state.
    CommentStops = Stops::new(b"<-\0")
);

/// How a fixed string at the read position compares.
pub(crate) enum Lookahead {
    Match,
    NoMatch,
    NeedMore,
}

impl Tokenizer {
    /// Whether the input at the read position starts with `word` (ASCII
    /// case-insensitively when `fold`).
    pub(crate) fn lookahead(&self, word: &[u8], fold: bool) -> Lookahead {
        let rest = self.input.buf.as_bytes().get(self.pos..).unwrap_or(&[]);
        let n = rest.len().min(word.len());
        let same = if fold {
            rest[..n].eq_ignore_ascii_case(&word[..n])
        } else {
            rest[..n] == word[..n]
        };
        match (same, n == word.len()) {
            (false, _) => Lookahead::NoMatch,
            (true, true) => Lookahead::Match,
            (true, false) if self.input_done => Lookahead::NoMatch,
            (true, false) => Lookahead::NeedMore,
        }
    }

    /// "Emit the current comment token".
    pub(crate) fn emit_comment(&mut self) -> Flow {
        let text = self.b[TEXT].text_ref();
        self.b[TEXT] = Default::default();
        Flow::Emit(RawToken::Comment {
            text,
            span: self.token_span(),
        })
    }

    /// Emits the comment, then (on the next call) end of file.
    fn emit_comment_at_eof(&mut self) -> Flow {
        self.error(ErrorCode::EofInComment);
        self.state = St::Data;
        self.emit_comment()
    }

    /// Appends `literal` to the comment: as a source range when the source at
    /// `at` (relative) is exactly `literal`, else as a copy.
    fn push_literal(&mut self, literal: &str, at: usize) {
        let src = self.input.buf.as_bytes().get(at..at + literal.len());
        if src == Some(literal.as_bytes()) {
            self.push_range(TEXT, at, at + literal.len());
        } else {
            self.push_text(TEXT, literal);
        }
    }

    /// 13.2.5.41 Bogus comment state.
    pub(crate) fn bogus_comment_state(&mut self) -> Flow {
        loop {
            self.take_run::<BogusCommentStops>(TEXT);
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.state = St::Data;
                    return self.emit_comment();
                }
            };
            match ch.c {
                b'>' => {
                    self.pos += 1;
                    self.state = St::Data;
                    return self.emit_comment();
                }
                0 => self.take_nuls(TEXT, Nul::Replace),
                _ => self.take_into(TEXT, ch),
            }
        }
    }

    /// 13.2.5.42 Markup declaration open state.
    pub(crate) fn markup_declaration_open_state(&mut self) -> Flow {
        let mut need_more = false;
        for (word, fold) in [(&b"--"[..], false), (b"DOCTYPE", true), (b"[CDATA[", false)] {
            match self.lookahead(word, fold) {
                Lookahead::Match => {
                    self.pos += word.len();
                    self.b[TEXT] = Default::default();
                    match word[0] {
                        b'-' => self.state = St::CommentStart,
                        b'D' => self.state = St::Doctype,
                        _ if self.cdata_allowed => self.state = St::CdataSection,
                        _ => {
                            // The error is at the last character of `[CDATA[`.
                            self.error_at(ErrorCode::CdataInHtmlContent, self.abs() - 1);
                            self.push_range(TEXT, self.pos - word.len(), self.pos);
                            self.state = St::BogusComment;
                        }
                    }
                    return Flow::Continue;
                }
                Lookahead::NeedMore => need_more = true,
                Lookahead::NoMatch => {}
            }
        }
        if need_more {
            return Flow::NeedMore;
        }
        self.error(ErrorCode::IncorrectlyOpenedComment);
        self.b[TEXT] = Default::default();
        self.state = St::BogusComment;
        Flow::Continue
    }

    /// 13.2.5.43 Comment start state.
    pub(crate) fn comment_start_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'-' => {
                self.pos += 1;
                self.state = St::CommentStartDash;
            }
            Ok(ch) if ch.c == b'>' => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment);
                self.pos += 1;
                self.state = St::Data;
                return self.emit_comment();
            }
            Ok(_) | Err(End::Eof) => self.state = St::Comment,
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }

    /// 13.2.5.44 Comment start dash state.
    pub(crate) fn comment_start_dash_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'-' => {
                self.pos += 1;
                self.state = St::CommentEnd;
            }
            Ok(ch) if ch.c == b'>' => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment);
                self.pos += 1;
                self.state = St::Data;
                return self.emit_comment();
            }
            Ok(_) => {
                self.push_literal("-", self.pos - 1);
                self.state = St::Comment;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.emit_comment_at_eof(),
        }
        Flow::Continue
    }

    /// 13.2.5.45 Comment state.
    pub(crate) fn comment_state(&mut self) -> Flow {
        loop {
            self.take_run::<CommentStops>(TEXT);
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => return self.emit_comment_at_eof(),
            };
            match ch.c {
                b'<' => {
                    self.take_into(TEXT, ch);
                    self.state = St::CommentLessThanSign;
                    return Flow::Continue;
                }
                b'-' => {
                    self.pos += 1;
                    self.state = St::CommentEndDash;
                    return Flow::Continue;
                }
                0 => self.take_nuls(TEXT, Nul::Replace),
                _ => self.take_into(TEXT, ch),
            }
        }
    }

    /// 13.2.5.46 Comment less-than sign state.
    pub(crate) fn comment_less_than_sign_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'!' => {
                self.take_into(TEXT, ch);
                self.state = St::CommentLessThanSignBang;
            }
            Ok(ch) if ch.c == b'<' => self.take_into(TEXT, ch),
            Ok(_) | Err(End::Eof) => self.state = St::Comment,
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }

    /// 13.2.5.47 Comment less-than sign bang state.
    pub(crate) fn comment_less_than_sign_bang_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'-' => {
                self.pos += 1;
                self.state = St::CommentLessThanSignBangDash;
            }
            Ok(_) | Err(End::Eof) => self.state = St::Comment,
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }

    /// 13.2.5.48 Comment less-than sign bang dash state.
    pub(crate) fn comment_less_than_sign_bang_dash_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'-' => {
                self.pos += 1;
                self.state = St::CommentLessThanSignBangDashDash;
            }
            Ok(_) | Err(End::Eof) => self.state = St::CommentEndDash,
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        Flow::Continue
    }

    /// 13.2.5.49 Comment less-than sign bang dash dash state.
    pub(crate) fn comment_less_than_sign_bang_dash_dash_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'>' => {}
            Ok(_) => self.error(ErrorCode::NestedComment),
            Err(End::Eof) => {}
            Err(End::NeedMore) => return Flow::NeedMore,
        }
        self.state = St::CommentEnd;
        Flow::Continue
    }

    /// 13.2.5.50 Comment end dash state.
    pub(crate) fn comment_end_dash_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'-' => {
                self.pos += 1;
                self.state = St::CommentEnd;
            }
            Ok(_) => {
                self.push_literal("-", self.pos - 1);
                self.state = St::Comment;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.emit_comment_at_eof(),
        }
        Flow::Continue
    }

    /// 13.2.5.51 Comment end state.
    pub(crate) fn comment_end_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) => match ch.c {
                b'>' => {
                    self.pos += 1;
                    self.state = St::Data;
                    return self.emit_comment();
                }
                b'!' => {
                    self.pos += 1;
                    self.state = St::CommentEndBang;
                }
                b'-' => {
                    // The oldest of the three dashes joins the data.
                    self.push_literal("-", self.pos - 2);
                    self.pos += 1;
                }
                _ => {
                    self.push_literal("--", self.pos - 2);
                    self.state = St::Comment;
                }
            },
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.emit_comment_at_eof(),
        }
        Flow::Continue
    }

    /// 13.2.5.52 Comment end bang state.
    pub(crate) fn comment_end_bang_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) => match ch.c {
                b'-' => {
                    self.push_literal("--!", self.pos - 3);
                    self.pos += 1;
                    self.state = St::CommentEndDash;
                }
                b'>' => {
                    self.error(ErrorCode::IncorrectlyClosedComment);
                    self.pos += 1;
                    self.state = St::Data;
                    return self.emit_comment();
                }
                _ => {
                    self.push_literal("--!", self.pos - 3);
                    self.state = St::Comment;
                }
            },
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.emit_comment_at_eof(),
        }
        Flow::Continue
    }
}
