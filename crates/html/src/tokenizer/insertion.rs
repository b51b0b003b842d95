//! Insertion points (§13.2.3.5 "the insertion point", §8.4.3 `document.write()`).
//!
//! While a script runs at `</script>`, text written by it goes into the input
//! *at the insertion point* — right after the `</script>` — and is tokenized
//! before the rest of the input, but only up to the insertion point: the rest of
//! the input waits until the script has finished. The tokenizer models this by
//! setting the rest aside: [`Tokenizer::open_insertion_point`] moves the input
//! after the last token into a *tail*, so the buffer ends at the insertion point
//! and running out of it is exactly "reaching the insertion point" (a partial
//! tag at the end of written text waits, as the spec's tokenizer state would);
//! [`Tokenizer::insert`] appends written text there; and
//! [`Tokenizer::close_insertion_point`] puts the tail back. Insertion points
//! nest (a script run while written text is parsed writes at its own insertion
//! point): the tails form a stack, innermost last. Input pushed meanwhile (the
//! rest of the document arriving) goes to the outermost tail, and
//! [`Tokenizer::finish`] is remembered until that tail is back.
//!
//! Offsets stay absolute over the buffer as it is, written text included, so
//! spans, errors and positions after a write count the written text.

use super::Tokenizer;

impl Tokenizer {
    /// Sets the input after the last emitted token aside: from now on the buffer
    /// ends at the insertion point. Costs a copy of the input not yet tokenized,
    /// so open one only when text is about to be written.
    pub(crate) fn open_insertion_point(&mut self) {
        self.flush_utf8_tail_for_insertion();
        if self.tails.is_empty() {
            self.outer_done = self.input_done;
        }
        let at = self.committed_pos.min(self.input.buf.len());
        let tail = self.input.split_tail(at);
        self.tails.push(tail);
        self.release_at = 0;
        self.input_done = false;
        self.pos = self.committed_pos;
        self.safe = None;
        self.retry_len = 0;
    }

    /// Inserts `text` at the innermost insertion point (after text inserted
    /// there before).
    pub(crate) fn insert(&mut self, text: &str) {
        self.input.push(text);
        self.retry_len = 0;
    }

    /// Puts the input set aside by the innermost
    /// [`open_insertion_point`](Self::open_insertion_point) back after the
    /// buffer. Returns false when no insertion point is open.
    pub(crate) fn close_insertion_point(&mut self) -> bool {
        let Some(tail) = self.tails.pop() else {
            return false;
        };
        self.input.push(&tail);
        self.retry_len = 0;
        if self.tails.is_empty() {
            self.input_done = self.outer_done;
        }
        true
    }

    fn flush_utf8_tail_for_insertion(&mut self) {
        if let Some(mut decoder) = self.utf8.take() {
            let out = super::decode_utf8(&mut decoder, b"", true);
            match self.tails.first_mut() {
                Some(outer) => outer.push_str(&out),
                None => self.input.push(&out),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::token::Token;
    use crate::tokenizer::{Tokenizer, TokenizerConfig};

    /// Tokens as short strings, text runs joined.
    fn drain(tok: &mut Tokenizer, out: &mut Vec<String>) {
        while let Some(token) = tok.next_token().unwrap() {
            let s = match token {
                Token::Characters(t) => format!("'{}'", t.text),
                Token::StartTag(t) => format!("<{}>", t.name_str()),
                Token::EndTag(t) => format!("</{}>", t.name_str()),
                Token::Eof => "EOF".to_owned(),
                _ => "?".to_owned(),
            };
            match (out.last_mut(), s.strip_prefix('\'')) {
                (Some(last), Some(rest)) if last.starts_with('\'') => {
                    last.pop();
                    last.push_str(rest);
                }
                _ => out.push(s),
            }
        }
    }

    #[test]
    fn written_text_comes_before_the_rest_and_stops_at_the_insertion_point() {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        tok.push_str("<i>a");
        let mut out = Vec::new();
        let first = tok
            .next_token()
            .unwrap()
            .map(|t| matches!(t, Token::StartTag(_)));
        assert_eq!(first, Some(true));
        tok.open_insertion_point();
        tok.insert("x<u");
        drain(&mut tok, &mut out);
        // The partial `<u` waits at the insertion point; the rest is not read.
        assert_eq!(out, ["'x'"]);
        tok.push_str(" id=1>c");
        tok.finish();
        drain(&mut tok, &mut out);
        assert_eq!(
            out,
            ["'x'"],
            "input pushed meanwhile waits behind the insertion point"
        );
        assert!(tok.close_insertion_point());
        drain(&mut tok, &mut out);
        // `<u` + `a id=1>c`: the written partial tag continues into the rest.
        assert_eq!(out, ["'x'", "<ua>", "'c'", "EOF"]);
    }

    #[test]
    fn insertion_points_nest() {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        tok.push_str("<s>");
        tok.push_str("4");
        tok.finish();
        let mut out = Vec::new();
        assert!(tok.next_token().unwrap().is_some());
        tok.open_insertion_point();
        tok.insert("<t>3");
        assert!(tok.next_token().unwrap().is_some());
        tok.open_insertion_point();
        tok.insert("2");
        drain(&mut tok, &mut out);
        assert_eq!(out, ["'2'"]);
        assert!(tok.close_insertion_point());
        drain(&mut tok, &mut out);
        assert_eq!(out, ["'23'"]);
        assert!(tok.close_insertion_point());
        assert!(!tok.close_insertion_point());
        drain(&mut tok, &mut out);
        assert_eq!(out, ["'234'", "EOF"]);
    }
}
