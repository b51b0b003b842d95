//! The processing instruction states of the July 2026 spec (Part A.2): open,
//! target, after target, data and questionable. Only reached when
//! [`TokenizerConfig::processing_instructions`](crate::tokenizer::TokenizerConfig::processing_instructions)
//! is on.
//!
//! The temporary buffer (the target) is always a range of the source: its
//! characters are ASCII alphanumerics, `-` and `_`. It starts right after the
//! `<?`, so "convert the temporary buffer to a comment" is the source range from
//! the `?` to the read position.

use super::{St, is_space};
use crate::error::ErrorCode;
use crate::tokenizer::run::{Stops, run_len_of, stop_set};
use crate::tokenizer::{End, Flow, RawToken, TAG_NAME, TEXT, Tokenizer};

stop_set!(
    /// The bytes that end a run of processing instruction data (CR is always one).
    PiDataStops = Stops::new(b"?>")
);

impl Tokenizer {
    /// Whether `<?` opens a processing instruction.
    pub(crate) fn pi_enabled(&self) -> bool {
        self.processing_instructions
    }

    /// "Convert the temporary buffer to a comment" and reconsume in the bogus
    /// comment state.
    fn pi_to_bogus_comment(&mut self) -> Flow {
        self.b[TEXT] = Default::default();
        self.push_range(TEXT, self.temp_start - 1, self.pos);
        self.state = St::BogusComment;
        Flow::Continue
    }

    /// End of file inside a processing instruction: the token is dropped.
    fn pi_eof(&mut self) -> Flow {
        self.error(ErrorCode::EofInProcessingInstruction);
        self.b[TEXT] = Default::default();
        self.emit_eof()
    }

    /// Emits the processing instruction (target in `TAG_NAME`, data in `TEXT`).
    fn emit_pi(&mut self) -> Flow {
        let target = self.b[TAG_NAME].text_ref();
        let data = self.b[TEXT].text_ref();
        self.b[TAG_NAME] = Default::default();
        self.b[TEXT] = Default::default();
        self.state = St::Data;
        self.pi = (target, data);
        Flow::Emit(RawToken::ProcessingInstruction {
            span: self.token_span(),
        })
    }

    /// Processing instruction open state.
    pub(crate) fn pi_open_state(&mut self) -> Flow {
        self.temp_start = self.pos;
        match self.peek() {
            Ok(ch) if ch.c.is_ascii_alphabetic() || ch.c == b'_' => {
                self.state = St::ProcessingInstructionTarget;
                Flow::Continue
            }
            Ok(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget);
                self.pi_to_bogus_comment()
            }
            Err(End::NeedMore) => Flow::NeedMore,
            Err(End::Eof) => self.pi_eof(),
        }
    }

    /// Processing instruction target state.
    pub(crate) fn pi_target_state(&mut self) -> Flow {
        loop {
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => return self.pi_eof(),
            };
            match ch.c {
                c if c.is_ascii_alphanumeric() || c == b'-' || c == b'_' => self.pos += 1,
                c if is_space(c) || c == b'?' || c == b'>' => {
                    let target = self
                        .input
                        .buf
                        .as_bytes()
                        .get(self.temp_start..self.pos)
                        .unwrap_or_default();
                    if target.eq_ignore_ascii_case(b"xml")
                        || target.eq_ignore_ascii_case(b"xml-stylesheet")
                    {
                        self.error(ErrorCode::DisallowedProcessingInstructionTarget);
                        return self.pi_to_bogus_comment();
                    }
                    self.b[TAG_NAME] = Default::default();
                    self.push_range(TAG_NAME, self.temp_start, self.pos);
                    self.b[TEXT] = Default::default();
                    self.state = St::AfterProcessingInstructionTarget;
                    return Flow::Continue;
                }
                _ => {
                    self.error(ErrorCode::InvalidProcessingInstructionTarget);
                    return self.pi_to_bogus_comment();
                }
            }
        }
    }

    /// After processing instruction target state.
    pub(crate) fn after_pi_target_state(&mut self) -> Flow {
        loop {
            match self.peek() {
                Ok(ch) if is_space(ch.c) => self.pos += ch.len,
                // EOF reconsumes in the data state, which reports it.
                Ok(_) | Err(End::Eof) => {
                    self.state = St::ProcessingInstructionData;
                    return Flow::Continue;
                }
                Err(End::NeedMore) => return Flow::NeedMore,
            }
        }
    }

    /// Processing instruction data state.
    pub(crate) fn pi_data_state(&mut self) -> Flow {
        loop {
            // Plain characters up to the next `?`, `>` or CR are appended as a
            // source range.
            let rest = self.input.buf.as_bytes().get(self.pos..).unwrap_or(&[]);
            let run = run_len_of::<PiDataStops>(rest);
            if run > 0 {
                self.push_range(TEXT, self.pos, self.pos + run);
                self.pos += run;
            }
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => return Flow::NeedMore,
                Err(End::Eof) => return self.pi_eof(),
            };
            match ch.c {
                b'?' => {
                    self.pos += 1;
                    self.state = St::ProcessingInstructionQuestionable;
                    return Flow::Continue;
                }
                b'>' => {
                    self.pos += 1;
                    return self.emit_pi();
                }
                // CR (read as LF).
                _ => self.take_into(TEXT, ch),
            }
        }
    }

    /// Processing instruction questionable state.
    pub(crate) fn pi_questionable_state(&mut self) -> Flow {
        match self.peek() {
            Ok(ch) if ch.c == b'>' => {
                self.pos += 1;
                self.emit_pi()
            }
            Ok(_) => {
                // The `?` just consumed belongs to the data.
                self.push_range(TEXT, self.pos - 1, self.pos);
                self.state = St::ProcessingInstructionData;
                Flow::Continue
            }
            Err(End::NeedMore) => Flow::NeedMore,
            Err(End::Eof) => self.pi_eof(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorCode;
    use crate::token::Token;
    use crate::tokenizer::{Tokenizer, TokenizerConfig};

    /// The tokens of `input` fed in `chunk`-byte pieces, rendered, and the
    /// error codes.
    fn run(input: &str, chunk: usize, pis: bool) -> (Vec<String>, Vec<ErrorCode>) {
        let mut tok = Tokenizer::new(TokenizerConfig {
            processing_instructions: pis,
            ..TokenizerConfig::default()
        });
        let mut out = Vec::new();
        let drain = |tok: &mut Tokenizer, out: &mut Vec<String>| {
            while let Some(token) = tok.next_token().unwrap() {
                let s = match token {
                    Token::ProcessingInstruction(pi) => format!(
                        "PI {:?} {:?} {}..{}",
                        pi.target, pi.data, pi.span.start, pi.span.end
                    ),
                    Token::Comment(c) => format!("Comment {:?}", c.text),
                    Token::Characters(t) => format!("Chars {:?}", t.text),
                    Token::Eof => "Eof".to_owned(),
                    other => format!("{other:?}"),
                };
                // Adjacent character runs may split at chunk boundaries.
                if let (Some(last), Some(rest)) = (out.last_mut(), s.strip_prefix("Chars ")) {
                    let last: &mut String = last;
                    if let Some(prev) = last.strip_prefix("Chars ") {
                        let joined = format!(
                            "Chars {:?}",
                            format!("{}{}", prev.trim_matches('"'), rest.trim_matches('"'))
                        );
                        *last = joined;
                        continue;
                    }
                }
                out.push(s);
            }
        };
        for piece in input.as_bytes().chunks(chunk.max(1)) {
            tok.push_bytes(piece);
            drain(&mut tok, &mut out);
        }
        tok.finish();
        drain(&mut tok, &mut out);
        let errors = tok.take_errors().into_iter().map(|e| e.code).collect();
        (out, errors)
    }

    /// Whole and byte by byte give the same tokens and errors.
    fn pi(input: &str) -> (Vec<String>, Vec<ErrorCode>) {
        let whole = run(input, usize::MAX, true);
        for chunk in [1, 2, 3, 7] {
            assert_eq!(run(input, chunk, true), whole, "chunk {chunk}: {input:?}");
        }
        whole
    }

    #[test]
    fn target_and_data() {
        assert_eq!(
            pi("a<?php echo 1?>b").0,
            [
                "Chars \"a\"",
                "PI \"php\" \"echo 1\" 1..15",
                "Chars \"b\"",
                "Eof"
            ]
        );
        // `>` alone ends it too; whitespace after the target is skipped.
        assert_eq!(
            pi("<?php \t\n echo 1>").0,
            ["PI \"php\" \"echo 1\" 0..16", "Eof"]
        );
        assert_eq!(pi("<?x?>").0, ["PI \"x\" \"\" 0..5", "Eof"]);
        assert_eq!(pi("<?_a-1>").0, ["PI \"_a-1\" \"\" 0..7", "Eof"]);
        // A `?` not before `>` is data; `??>` leaves one `?` in it.
        assert_eq!(pi("<?a b?c>").0, ["PI \"a\" \"b?c\" 0..8", "Eof"]);
        assert_eq!(pi("<?a b??>").0, ["PI \"a\" \"b?\" 0..8", "Eof"]);
        // CR LF is a newline; NUL stays (no error).
        let (tokens, errors) = pi("<?a x\r\ny\0?>");
        assert_eq!(tokens, ["PI \"a\" \"x\\ny\\0\" 0..11", "Eof"]);
        assert!(!errors.contains(&ErrorCode::UnexpectedNullCharacter));
        assert!(!errors.contains(&ErrorCode::UnexpectedQuestionMarkInsteadOfTagName));
    }

    #[test]
    fn disallowed_and_invalid_targets_are_bogus_comments() {
        let (tokens, errors) = pi("<?xml version=\"1.0\"?>");
        assert_eq!(tokens, ["Comment \"?xml version=\\\"1.0\\\"?\"", "Eof"]);
        assert_eq!(errors, [ErrorCode::DisallowedProcessingInstructionTarget]);
        let (tokens, _) = pi("<?XML-Stylesheet href=a?>");
        assert_eq!(tokens, ["Comment \"?XML-Stylesheet href=a?\"", "Eof"]);
        let (tokens, errors) = pi("<?1x>");
        assert_eq!(tokens, ["Comment \"?1x\"", "Eof"]);
        assert_eq!(
            errors,
            [ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget]
        );
        let (tokens, errors) = pi("<?a:b c>");
        assert_eq!(tokens, ["Comment \"?a:b c\"", "Eof"]);
        assert_eq!(errors, [ErrorCode::InvalidProcessingInstructionTarget]);
        assert_eq!(pi("<?>").0, ["Comment \"?\"", "Eof"]);
        // `xmlx` is a fine target.
        assert_eq!(pi("<?xmlx y>").0, ["PI \"xmlx\" \"y\" 0..9", "Eof"]);
    }

    #[test]
    fn end_of_file_drops_the_instruction() {
        for input in ["a<?", "a<?p", "a<?p ", "a<?p data", "a<?p data?"] {
            let (tokens, errors) = pi(input);
            assert_eq!(tokens, ["Chars \"a\"", "Eof"], "{input:?}");
            assert_eq!(errors, [ErrorCode::EofInProcessingInstruction], "{input:?}");
        }
    }

    #[test]
    fn off_by_default_as_html5lib_tests_expect() {
        let (tokens, errors) = run("<?php echo 1?>", usize::MAX, false);
        assert_eq!(tokens, ["Comment \"?php echo 1?\"", "Eof"]);
        assert_eq!(errors, [ErrorCode::UnexpectedQuestionMarkInsteadOfTagName]);
    }
}
