//! Copy-on-write accumulation of token text.
//!
//! Token text starts as a range of the input buffer and stays one while the
//! characters appended are the next source bytes. The first normalization (a CR
//! turned into LF, a NUL into U+FFFD, a decoded character reference, a lowercased
//! name) copies what was gathered so far into the scratch buffer and continues
//! there. So most tokens cost no copy at all, and no token costs an allocation once
//! the scratch buffer has grown to the largest normalized token.

use crate::token::TextRef;

/// Text under construction.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) enum TextBuilder {
    /// Nothing yet.
    #[default]
    Empty,
    /// A verbatim range of the input (absolute offsets).
    Source { start: usize, end: usize },
    /// A range of the scratch buffer.
    Scratch { start: usize, end: usize },
}

impl TextBuilder {
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        match *self {
            TextBuilder::Empty => true,
            TextBuilder::Source { start, end } | TextBuilder::Scratch { start, end } => {
                start == end
            }
        }
    }

    /// The finished text.
    #[inline]
    pub(crate) fn text_ref(&self) -> TextRef {
        match *self {
            TextBuilder::Empty => TextRef::EMPTY,
            TextBuilder::Source { start, end } => TextRef::Source { start, end },
            TextBuilder::Scratch { start, end } => TextRef::Scratch { start, end },
        }
    }

    /// Appends the source bytes `start..end` (absolute offsets).
    #[inline]
    pub(crate) fn push_source(
        &mut self,
        scratch: &mut String,
        buf: &str,
        base: usize,
        start: usize,
        end: usize,
    ) {
        match *self {
            TextBuilder::Empty => *self = TextBuilder::Source { start, end },
            TextBuilder::Source { start: s, end: e } if e == start => {
                *self = TextBuilder::Source { start: s, end }
            }
            _ => {
                let text = buf.get(start - base..end - base).unwrap_or("");
                self.push_str(scratch, buf, base, text);
            }
        }
    }

    /// Appends text that is not a verbatim continuation of the source.
    #[inline]
    pub(crate) fn push_str(&mut self, scratch: &mut String, buf: &str, base: usize, text: &str) {
        let start = self.make_owned(scratch, buf, base);
        scratch.push_str(text);
        *self = TextBuilder::Scratch {
            start,
            end: scratch.len(),
        };
    }

    /// Appends `c` `n` times.
    pub(crate) fn push_repeated(
        &mut self,
        scratch: &mut String,
        buf: &str,
        base: usize,
        c: char,
        n: usize,
    ) {
        let start = self.make_owned(scratch, buf, base);
        scratch.extend(std::iter::repeat_n(c, n));
        *self = TextBuilder::Scratch {
            start,
            end: scratch.len(),
        };
    }

    /// Appends one character.
    #[inline]
    pub(crate) fn push_char(&mut self, scratch: &mut String, buf: &str, base: usize, c: char) {
        let start = self.make_owned(scratch, buf, base);
        scratch.push(c);
        *self = TextBuilder::Scratch {
            start,
            end: scratch.len(),
        };
    }

    /// Moves the text to the end of the scratch buffer (if it is not already there)
    /// and returns where it starts.
    fn make_owned(&mut self, scratch: &mut String, buf: &str, base: usize) -> usize {
        match *self {
            TextBuilder::Empty => scratch.len(),
            TextBuilder::Scratch { start, end } if end == scratch.len() => start,
            TextBuilder::Scratch { start, end } => {
                // Another builder appended after this one: copy to the end. Rare
                // (only when builders interleave), and still correct.
                let start_new = scratch.len();
                let copy: String = scratch.get(start..end).unwrap_or("").to_owned();
                scratch.push_str(&copy);
                start_new
            }
            TextBuilder::Source { start, end } => {
                let start_new = scratch.len();
                scratch.push_str(buf.get(start - base..end - base).unwrap_or(""));
                start_new
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_borrowed_while_contiguous() {
        let buf = "hello world";
        let mut scratch = String::new();
        let mut t = TextBuilder::Empty;
        t.push_source(&mut scratch, buf, 100, 100, 105);
        t.push_source(&mut scratch, buf, 100, 105, 111);
        assert_eq!(
            t,
            TextBuilder::Source {
                start: 100,
                end: 111
            }
        );
        assert!(scratch.is_empty());
    }

    #[test]
    fn copies_on_first_normalization() {
        let buf = "ab\r\ncd";
        let mut scratch = String::from("xx");
        let mut t = TextBuilder::Empty;
        t.push_source(&mut scratch, buf, 0, 0, 2);
        t.push_char(&mut scratch, buf, 0, '\n');
        t.push_source(&mut scratch, buf, 0, 4, 6);
        assert_eq!(t, TextBuilder::Scratch { start: 2, end: 7 });
        assert_eq!(&scratch[2..7], "ab\ncd");
    }

    #[test]
    fn interleaved_builders_stay_correct() {
        let buf = "";
        let mut scratch = String::new();
        let mut a = TextBuilder::Empty;
        let mut b = TextBuilder::Empty;
        a.push_str(&mut scratch, buf, 0, "A");
        b.push_str(&mut scratch, buf, 0, "B");
        a.push_str(&mut scratch, buf, 0, "a");
        let TextBuilder::Scratch { start, end } = a else {
            panic!()
        };
        assert_eq!(&scratch[start..end], "Aa");
        let TextBuilder::Scratch { start, end } = b else {
            panic!()
        };
        assert_eq!(&scratch[start..end], "B");
    }
}
