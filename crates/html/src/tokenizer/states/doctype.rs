//! 13.2.5.53-13.2.5.68: DOCTYPE states.

use super::comment::Lookahead;
use super::{St, is_space};
use crate::error::ErrorCode;
use crate::tokenizer::run::{Stops, stop_set};
use crate::tokenizer::{
    DT_NAME, DT_PUBLIC, DT_SYSTEM, DoctypeRefs, End, Flow, Nul, RawToken, Tokenizer,
};

stop_set!(
    /// Where runs of DOCTYPE name characters end.
    NameStops = Stops::new(b"\t\n\x0C >\0").with_uppercase()
);
stop_set!(
    /// Where runs end in the double-quoted identifier states.
    DoubleQuotedStops = Stops::new(b"\">\0")
);
stop_set!(
    /// Where runs end in the single-quoted identifier states.
    SingleQuotedStops = Stops::new(b"'>\0")
);
stop_set!(
    /// Where runs end in the bogus DOCTYPE state.
    BogusStops = Stops::new(b">\0")
);

impl Tokenizer {
    fn create_doctype(&mut self) {
        self.force_quirks = false;
        self.dt_has_name = false;
        self.dt_has_public = false;
        self.dt_has_system = false;
        self.b[DT_NAME] = Default::default();
        self.b[DT_PUBLIC] = Default::default();
        self.b[DT_SYSTEM] = Default::default();
    }

    /// "Emit the current DOCTYPE token".
    fn emit_doctype(&mut self) -> Flow {
        let pick = |has: bool, which: usize, t: &Tokenizer| has.then(|| t.b[which].text_ref());
        self.doctype = DoctypeRefs {
            name: pick(self.dt_has_name, DT_NAME, self),
            public_id: pick(self.dt_has_public, DT_PUBLIC, self),
            system_id: pick(self.dt_has_system, DT_SYSTEM, self),
            force_quirks: self.force_quirks,
        };
        Flow::Emit(RawToken::Doctype {
            span: self.token_span(),
        })
    }

    /// EOF in a DOCTYPE: error, force-quirks, emit it, then end of file.
    fn doctype_eof(&mut self) -> Flow {
        self.error(ErrorCode::EofInDoctype);
        self.force_quirks = true;
        self.state = St::Data;
        self.emit_doctype()
    }

    /// `>` closes the DOCTYPE.
    fn doctype_close(&mut self) -> Flow {
        self.pos += 1;
        self.state = St::Data;
        self.emit_doctype()
    }

    /// Skips whitespace; the next other character, or the end.
    fn skip_doctype_space(&mut self) -> Result<u8, End> {
        loop {
            let ch = self.peek()?;
            if !is_space(ch.c) {
                return Ok(ch.c);
            }
            self.pos += ch.len;
        }
    }

    /// 13.2.5.53 DOCTYPE state.
    pub(crate) fn doctype_state(&mut self) -> Flow {
        self.create_doctype();
        match self.peek() {
            Ok(ch) if is_space(ch.c) => {
                self.pos += ch.len;
                self.state = St::BeforeDoctypeName;
            }
            Ok(ch) if ch.c == b'>' => self.state = St::BeforeDoctypeName,
            Ok(_) => {
                self.error(ErrorCode::MissingWhitespaceBeforeDoctypeName);
                self.state = St::BeforeDoctypeName;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.doctype_eof(),
        }
        Flow::Continue
    }

    /// 13.2.5.54 Before DOCTYPE name state.
    pub(crate) fn before_doctype_name_state(&mut self) -> Flow {
        match self.skip_doctype_space() {
            Ok(b'>') => {
                self.error(ErrorCode::MissingDoctypeName);
                self.force_quirks = true;
                return self.doctype_close();
            }
            Ok(_) => {
                self.dt_has_name = true;
                self.state = St::DoctypeName;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.doctype_eof(),
        }
        Flow::Continue
    }

    /// 13.2.5.55 DOCTYPE name state (also does the first character, for 13.2.5.54).
    pub(crate) fn doctype_name_state(&mut self) -> Flow {
        loop {
            self.take_run::<NameStops>(DT_NAME);
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => return self.doctype_eof(),
            };
            match ch.c {
                c if is_space(c) => {
                    self.pos += ch.len;
                    self.state = St::AfterDoctypeName;
                    return Flow::Continue;
                }
                b'>' => return self.doctype_close(),
                c if c.is_ascii_uppercase() => {
                    self.push_char(DT_NAME, c.to_ascii_lowercase() as char);
                    self.pos += 1;
                }
                0 => self.take_nuls(DT_NAME, Nul::Replace),
                _ => self.take_into(DT_NAME, ch),
            }
        }
    }

    /// 13.2.5.56 After DOCTYPE name state.
    pub(crate) fn after_doctype_name_state(&mut self) -> Flow {
        match self.skip_doctype_space() {
            Ok(b'>') => return self.doctype_close(),
            Ok(_) => {}
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.doctype_eof(),
        }
        let public = self.lookahead(b"PUBLIC", true);
        let system = self.lookahead(b"SYSTEM", true);
        match (public, system) {
            (Lookahead::Match, _) => {
                self.pos += 6;
                self.state = St::AfterDoctypePublicKeyword;
            }
            (_, Lookahead::Match) => {
                self.pos += 6;
                self.state = St::AfterDoctypeSystemKeyword;
            }
            (Lookahead::NeedMore, _) | (_, Lookahead::NeedMore) => return Flow::NeedMore,
            _ => {
                self.error(ErrorCode::InvalidCharacterSequenceAfterDoctypeName);
                self.force_quirks = true;
                self.state = St::BogusDoctype;
            }
        }
        Flow::Continue
    }

    /// Opens a quoted identifier.
    fn open_identifier(&mut self, public: bool, quote: u8) {
        self.pos += 1;
        if public {
            self.dt_has_public = true;
            self.b[DT_PUBLIC] = Default::default();
        } else {
            self.dt_has_system = true;
            self.b[DT_SYSTEM] = Default::default();
        }
        self.state = match (public, quote) {
            (true, b'"') => St::DoctypePublicIdentifierDoubleQuoted,
            (true, _) => St::DoctypePublicIdentifierSingleQuoted,
            (false, b'"') => St::DoctypeSystemIdentifierDoubleQuoted,
            (false, _) => St::DoctypeSystemIdentifierSingleQuoted,
        };
    }

    /// 13.2.5.57 After DOCTYPE public keyword state and 13.2.5.63 after DOCTYPE
    /// system keyword state.
    pub(crate) fn after_doctype_keyword_state(&mut self, public: bool) -> Flow {
        let ch = match self.peek() {
            Ok(ch) => ch,
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.doctype_eof(),
        };
        match ch.c {
            c if is_space(c) => {
                self.pos += ch.len;
                self.state = if public {
                    St::BeforeDoctypePublicIdentifier
                } else {
                    St::BeforeDoctypeSystemIdentifier
                };
            }
            b'"' | b'\'' => {
                self.error(if public {
                    ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword
                } else {
                    ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword
                });
                self.open_identifier(public, ch.c);
            }
            b'>' => {
                self.error(if public {
                    ErrorCode::MissingDoctypePublicIdentifier
                } else {
                    ErrorCode::MissingDoctypeSystemIdentifier
                });
                self.force_quirks = true;
                return self.doctype_close();
            }
            _ => {
                self.error(if public {
                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                } else {
                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                });
                self.force_quirks = true;
                self.state = St::BogusDoctype;
            }
        }
        Flow::Continue
    }

    /// 13.2.5.58 Before DOCTYPE public identifier state and 13.2.5.64 before DOCTYPE
    /// system identifier state.
    pub(crate) fn before_doctype_identifier_state(&mut self, public: bool) -> Flow {
        match self.skip_doctype_space() {
            Ok(c @ (b'"' | b'\'')) => self.open_identifier(public, c),
            Ok(b'>') => {
                self.error(if public {
                    ErrorCode::MissingDoctypePublicIdentifier
                } else {
                    ErrorCode::MissingDoctypeSystemIdentifier
                });
                self.force_quirks = true;
                return self.doctype_close();
            }
            Ok(_) => {
                self.error(if public {
                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                } else {
                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                });
                self.force_quirks = true;
                self.state = St::BogusDoctype;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.doctype_eof(),
        }
        Flow::Continue
    }

    /// 13.2.5.59/60 DOCTYPE public identifier (double/single-quoted) states and
    /// 13.2.5.65/66 DOCTYPE system identifier (double/single-quoted) states.
    pub(crate) fn doctype_identifier_state(&mut self, public: bool, quote: u8) -> Flow {
        let which = if public { DT_PUBLIC } else { DT_SYSTEM };
        loop {
            if quote == b'"' {
                self.take_run::<DoubleQuotedStops>(which);
            } else {
                self.take_run::<SingleQuotedStops>(which);
            }
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => return self.doctype_eof(),
            };
            match ch.c {
                c if c == quote => {
                    self.pos += 1;
                    self.state = if public {
                        St::AfterDoctypePublicIdentifier
                    } else {
                        St::AfterDoctypeSystemIdentifier
                    };
                    return Flow::Continue;
                }
                0 => self.take_nuls(which, Nul::Replace),
                b'>' => {
                    self.error(if public {
                        ErrorCode::AbruptDoctypePublicIdentifier
                    } else {
                        ErrorCode::AbruptDoctypeSystemIdentifier
                    });
                    self.force_quirks = true;
                    return self.doctype_close();
                }
                _ => self.take_into(which, ch),
            }
        }
    }

    /// 13.2.5.61 After DOCTYPE public identifier state.
    pub(crate) fn after_doctype_public_identifier_state(&mut self) -> Flow {
        let ch = match self.peek() {
            Ok(ch) => ch,
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.doctype_eof(),
        };
        match ch.c {
            c if is_space(c) => {
                self.pos += ch.len;
                self.state = St::BetweenDoctypePublicAndSystemIdentifiers;
            }
            b'>' => return self.doctype_close(),
            b'"' | b'\'' => {
                self.error(ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers);
                self.open_identifier(false, ch.c);
            }
            _ => {
                self.error(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                self.force_quirks = true;
                self.state = St::BogusDoctype;
            }
        }
        Flow::Continue
    }

    /// 13.2.5.62 Between DOCTYPE public and system identifiers state.
    pub(crate) fn between_doctype_public_and_system_identifiers_state(&mut self) -> Flow {
        match self.skip_doctype_space() {
            Ok(b'>') => return self.doctype_close(),
            Ok(c @ (b'"' | b'\'')) => self.open_identifier(false, c),
            Ok(_) => {
                self.error(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                self.force_quirks = true;
                self.state = St::BogusDoctype;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.doctype_eof(),
        }
        Flow::Continue
    }

    /// 13.2.5.67 After DOCTYPE system identifier state.
    pub(crate) fn after_doctype_system_identifier_state(&mut self) -> Flow {
        match self.skip_doctype_space() {
            Ok(b'>') => return self.doctype_close(),
            Ok(_) => {
                // No force-quirks here, unlike the other bogus cases.
                self.error(ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier);
                self.state = St::BogusDoctype;
            }
            Err(End::NeedMore) => return Flow::NeedMore,
            Err(End::Eof) => return self.doctype_eof(),
        }
        Flow::Continue
    }

    /// 13.2.5.68 Bogus DOCTYPE state.
    pub(crate) fn bogus_doctype_state(&mut self) -> Flow {
        loop {
            // The characters are ignored: skip the run.
            self.pos += self.run_len::<BogusStops>();
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => {
                    self.state = St::Data;
                    return self.emit_doctype();
                }
            };
            match ch.c {
                b'>' => return self.doctype_close(),
                0 => self.take_nuls(DT_NAME, Nul::Skip),
                _ => self.pos += ch.len,
            }
        }
    }
}
