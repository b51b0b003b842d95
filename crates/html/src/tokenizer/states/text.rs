//! 13.2.5.1-13.2.5.5: Data, RCDATA, RAWTEXT, script data and PLAINTEXT states.
//!
//! These states spend their time on plain characters, so each starts with one scan
//! (see [`crate::tokenizer::run`]) to the next byte that needs a decision (`<`, `&`
//! where references are decoded, NUL, CR) and appends the run in one go (a verbatim
//! range: no copy). Pending text is emitted as its own token before any `<` that may
//! open a tag, which keeps tags and text in separate tokens with exact spans.

use super::St;
use crate::span::Span;
use crate::token::TextRef;
use crate::tokenizer::run::{StopSet, Stops, find_byte, stop_set};
use crate::tokenizer::{End, Flow, Nul, RawToken, TEXT, TextMode, Tokenizer};

stop_set!(
    /// Where runs end in the data and RCDATA states.
    DataStops = Stops::new(b"<&\0")
);
stop_set!(
    /// Where runs end in the RAWTEXT and script data states.
    RawtextStops = Stops::new(b"<\0")
);
stop_set!(
    /// Where runs end in the PLAINTEXT state.
    PlaintextStops = Stops::new(b"\0")
);

/// What a text state does with `&`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Refs {
    Decoded,
    Literal,
}

impl Tokenizer {
    /// Appends the characters up to the next byte in `stops` to the pending text,
    /// then records a safe point.
    #[inline]
    pub(crate) fn text_run<S: StopSet>(&mut self) {
        self.take_run::<S>(TEXT);
        self.mark_safe();
    }

    /// The shared body of the five text states.
    ///
    /// The safe point (where pending text may be cut if the input runs out) is
    /// recorded only where the input can run out with text pending: at the end of
    /// the buffer and before a character reference. At `<` the text is emitted
    /// first, so whatever follows starts with none pending.
    #[inline]
    fn text_state<S: StopSet>(&mut self, refs: Refs, less_than: Option<St>, nul: Nul) -> Flow {
        loop {
            self.take_run::<S>(TEXT);
            let ch = match self.peek() {
                Ok(ch) => ch,
                Err(End::NeedMore) => {
                    self.mark_safe();
                    return Flow::NeedMore;
                }
                Err(End::Eof) => return self.emit_eof(),
            };
            match ch.c {
                b'<' if less_than.is_some() => {
                    if !self.b[TEXT].is_empty() {
                        return Flow::Emit(self.text_token());
                    }
                    self.pos += 1;
                    self.state = less_than.unwrap_or(St::Data);
                    if self.state == St::TagOpen {
                        // The usual next step, taken without a trip through `step`.
                        return self.tag_open_state();
                    }
                    return Flow::Continue;
                }
                b'&' if refs == Refs::Decoded => {
                    self.mark_safe();
                    self.return_state = self.state;
                    if self.consume_char_ref(TEXT, false).is_err() {
                        return Flow::NeedMore;
                    }
                }
                0 => self.take_nuls(TEXT, nul),
                _ => self.take_into(TEXT, ch),
            }
        }
    }

    /// 13.2.5.1 Data state.
    pub(crate) fn data_state(&mut self) -> Flow {
        if self.text_mode == TextMode::Raw {
            return self.raw_data_state();
        }
        // A tag right here (the usual start of a token after text): no run to
        // take, straight to the tag open state as `text_state` would go.
        if self.byte_at(self.pos) == Some(b'<') && self.b[TEXT].is_empty() {
            self.pos += 1;
            // `</name>`, the most common end tag, without a call.
            if self.byte_at(self.pos) == Some(b'/')
                && self.fast_tags
                && self.reads_all
                && let Some(flow) = self.fast_end_tag()
            {
                return flow;
            }
            self.state = St::TagOpen;
            return self.tag_open_state();
        }
        self.text_state::<DataStops>(Refs::Decoded, Some(St::TagOpen), Nul::Keep)
    }

    /// The data state's text, from the first step of a token that is not a
    /// tag (the read position is not at `<`, no text pending). The common text
    /// token, a run of plain characters up to a `<`, is emitted here as the
    /// source range it is, without the text state's loop, builder and safe
    /// point (it has no parse error and nothing to decode); any other stop
    /// hands the run taken to the text state, which goes on from there as if
    /// it had taken it itself.
    #[inline(always)]
    pub(crate) fn data_text(&mut self) -> Flow {
        let start = self.pos;
        let run = self.run_len::<DataStops>();
        let end = start + run;
        if run > 0 && self.byte_at(end) == Some(b'<') {
            self.pos = end;
            let base = self.input.base;
            return Flow::Emit(RawToken::Characters {
                text: TextRef::Source {
                    start: base + start,
                    end: base + end,
                },
                span: Span::new(base + self.committed_pos, base + end),
            });
        }
        if run > 0 {
            self.push_range(TEXT, start, end);
            self.pos = end;
        }
        self.text_state::<DataStops>(Refs::Decoded, Some(St::TagOpen), Nul::Keep)
    }

    /// The data state in [`TextMode::Raw`]: only `<` decides anything (a
    /// character reference never consumes one, NUL and CR are kept as they are),
    /// so the text is the source up to the next `<`, found with one `memchr`.
    fn raw_data_state(&mut self) -> Flow {
        let rest = self
            .input
            .buf
            .as_bytes()
            .get(self.pos..)
            .unwrap_or_default();
        match find_byte(b'<', rest) {
            Some(run) => {
                self.push_range(TEXT, self.pos, self.pos + run);
                self.pos += run;
                if !self.b[TEXT].is_empty() {
                    return Flow::Emit(self.text_token());
                }
                self.pos += 1;
                self.state = St::TagOpen;
                Flow::Continue
            }
            None => {
                let run = rest.len();
                self.push_range(TEXT, self.pos, self.pos + run);
                self.pos += run;
                if self.input_done {
                    return self.emit_eof();
                }
                self.mark_safe();
                Flow::NeedMore
            }
        }
    }

    /// 13.2.5.2 RCDATA state.
    pub(crate) fn rcdata_state(&mut self) -> Flow {
        self.text_state::<DataStops>(Refs::Decoded, Some(St::RcdataLessThanSign), Nul::Replace)
    }

    /// 13.2.5.3 RAWTEXT state.
    pub(crate) fn rawtext_state(&mut self) -> Flow {
        self.text_state::<RawtextStops>(Refs::Literal, Some(St::RawtextLessThanSign), Nul::Replace)
    }

    /// 13.2.5.4 Script data state.
    pub(crate) fn script_data_state(&mut self) -> Flow {
        self.text_state::<RawtextStops>(
            Refs::Literal,
            Some(St::ScriptDataLessThanSign),
            Nul::Replace,
        )
    }

    /// 13.2.5.5 PLAINTEXT state.
    pub(crate) fn plaintext_state(&mut self) -> Flow {
        self.text_state::<PlaintextStops>(Refs::Literal, None, Nul::Replace)
    }
}
