//! The common tag shape in one pass: `<name a="v" b='w' c=x d>`, `<name/>` and
//! `</name>`, read straight off the buffer without going through the tag and
//! attribute states one transition at a time.
//!
//! The fused reader takes only what the states would take without a decision of
//! their own: names with no uppercase, NUL or CR (nothing to normalize), values
//! with no NUL or CR (a quoted value with `&` has its references decoded by the
//! states' own function, in the same pass; every other name and value is a range
//! of the source), whitespace between attributes, no parse error at all (no
//! duplicate, no `=` after whitespace, no missing value or whitespace, no
//! attribute on an end tag, no reference with an error), and the whole tag in
//! the buffer. Anything else, and any tag once the
//! attribute list reaches the length where duplicates are looked up in a set, is
//! left to the states: the reader then returns `None` having changed nothing the
//! states read (the tag's builders and attribute list are reset), and the states
//! read the tag from its first name byte as if the reader had not run. So the
//! tokens, spans and errors are the states' whatever the reader accepts; the
//! tests compare both paths on the same inputs, in every attribute mode.
//!
//! When not every tag's attributes are read ([`AttributeMode::Only`]), the
//! reader also makes the tag name state's skim decision where the name ends
//! (`fast_tag_skimming`, out of line so the full tokenizer's path is unchanged):
//! a tag nobody reads goes to the skim (`skim.rs`) from there, the others are
//! read in the same pass.
//!
//! [`AttributeMode::Only`]: crate::tokenizer::AttributeMode::Only

use super::is_space;
use super::skim::Skim;
use crate::span::Span;
use crate::token::{AttrSlot, TextRef};
use crate::tokenizer::run::{StopSet, gap_len, run_len_of};
use crate::tokenizer::states::attribute::{
    AttrNameStops, DoubleQuotedStops, LINEAR_DUPLICATE_CHECK, SingleQuotedStops, UnquotedStops,
};
use crate::tokenizer::states::tag::TagNameStops;
use crate::tokenizer::text::TextBuilder;
use crate::tokenizer::{ATTR_NAME, ATTR_VALUE, Flow, RawToken, TAG_NAME, Tokenizer};

/// Whitespace between attributes (CR included: the states read it as LF).
#[inline(always)]
fn is_gap(b: u8) -> bool {
    is_space(b) || b == b'\r'
}

/// The length of the run of `S` in `bytes` from `at`.
#[inline(always)]
fn run_at<S: StopSet>(bytes: &[u8], at: usize) -> usize {
    run_len_of::<S>(bytes.get(at..).unwrap_or_default())
}

/// A value that is the source's `start..start + len` (buffer offsets), with
/// its span.
#[inline(always)]
fn source_value(base: usize, start: usize, len: usize) -> (TextRef, Span) {
    let value = if len == 0 {
        TextRef::EMPTY
    } else {
        TextRef::Source {
            start: base + start,
            end: base + start + len,
        }
    };
    (value, Span::new(base + start, base + start + len))
}

impl Tokenizer {
    /// Reads the current tag (created by `create_tag`, the read position at its
    /// first name byte) if it has the common shape, and emits it; `None`, with
    /// the tag as `create_tag` left it, if the states must read it.
    #[inline(always)]
    pub(crate) fn fast_tag<const SKIM: bool>(&mut self) -> Option<Flow> {
        let flow = self.fast_tag_inner::<SKIM>();
        if flow.is_none() {
            self.attrs.clear();
            self.b[TAG_NAME] = TextBuilder::Empty;
            self.b[ATTR_NAME] = TextBuilder::Empty;
            self.tag_atom = None;
            self.skimmed = false;
        }
        flow
    }

    /// The current tag (as for [`fast_tag`](Self::fast_tag)) when not every
    /// tag's attributes are read: by the fused reader, which skims it if the
    /// attribute mode says so, else by the states. Out of line, so the full
    /// tokenizer's path stays as it is.
    #[inline(never)]
    pub(crate) fn fast_tag_skimming(&mut self) -> Flow {
        if let Some(flow) = self.fast_tag::<true>() {
            return flow;
        }
        self.state = super::St::TagName;
        self.tag_name_state()
    }

    /// `</name>` with the read position at the `/`: a name of ASCII lowercase
    /// letters, digits and `-` closed by `>` right away, the most common end tag
    /// by far, read and emitted without the tag states or the general reader
    /// (no builder but the name's, no attribute list, no run scan set-up for a
    /// name of a few bytes). `None`, with nothing changed, for any other shape
    /// or when the buffer ends first: the states then read it from the `/`.
    #[inline(always)]
    pub(crate) fn fast_end_tag(&mut self) -> Option<Flow> {
        let bytes = self.input.buf.as_bytes();
        let start = self.pos + 1;
        if !bytes.get(start)?.is_ascii_lowercase() {
            return None;
        }
        let mut end = start + 1;
        loop {
            match *bytes.get(end)? {
                b'a'..=b'z' | b'0'..=b'9' | b'-' => end += 1,
                b'>' => break,
                _ => return None,
            }
        }
        // What `create_tag(true)` and the reader would leave for this shape
        // (the name's builder is set only if the name is not in the cache).
        self.is_end_tag = true;
        self.self_closing = false;
        self.attrs.clear();
        self.has_attr = false;
        self.tag_atom = None;
        self.skimmed = false;
        self.pos = end + 1;
        self.state = super::St::Data;
        let name = self.intern_source(TAG_NAME, start, end);
        Some(Flow::Emit(RawToken::EndTag {
            name,
            self_closing: false,
            span: self.token_span(),
        }))
    }

    /// Adds the attribute named by the buffer's `name_start..name_end` to the
    /// tag; `None` if it is a duplicate (an error the states report).
    #[inline(always)]
    fn push_fast_attribute(
        &mut self,
        name_start: usize,
        name_end: usize,
        value: TextRef,
        value_span: Span,
        has_value: bool,
    ) -> Option<()> {
        let base = self.input.base;
        let name = self.intern_source(ATTR_NAME, name_start, name_end);
        if self.attrs.iter().any(|a| a.name == name) {
            return None;
        }
        self.attrs.push(AttrSlot {
            name,
            name_span: Span::new(base + name_start, base + name_end),
            value,
            value_span,
            has_value,
        });
        Some(())
    }

    /// A quoted value from buffer offset `start` whose run stopped at `amp`, if
    /// that is a `&`: builds it in the value builder as the quoted-value state does
    /// (references decoded by [`consume_char_ref`](Self::consume_char_ref), with
    /// reporting no error) and returns the offset of the closing quote; `None`
    /// at NUL, CR, the end of the buffer or a reference with a parse error (when
    /// errors are reported). Returns the offset of the closing quote and the
    /// value; the read position is left as it was.
    #[inline(never)]
    fn fast_value_with_refs(
        &mut self,
        quote: u8,
        start: usize,
        amp: usize,
    ) -> Option<(usize, TextRef)> {
        if self.input.buf.as_bytes().get(amp) != Some(&b'&') {
            return None;
        }
        let entry = self.pos;
        let end = self.fast_value_refs(quote, start, amp);
        self.pos = entry;
        let value = self.b[ATTR_VALUE].text_ref();
        self.b[ATTR_VALUE] = TextBuilder::Empty;
        Some((end?, value))
    }

    fn fast_value_refs(&mut self, quote: u8, start: usize, mut at: usize) -> Option<usize> {
        self.b[ATTR_VALUE] = TextBuilder::Empty;
        self.push_range(ATTR_VALUE, start, at);
        loop {
            // At a `&`.
            self.pos = at;
            let errors = (self.token_errors.len(), self.token_errors_dropped);
            self.consume_char_ref(ATTR_VALUE, true).ok()?;
            if (self.token_errors.len(), self.token_errors_dropped) != errors {
                // A reference with an error: the states read the tag (and record
                // it), so the reader records none.
                self.token_errors.truncate(errors.0);
                self.token_errors_dropped = errors.1;
                return None;
            }
            at = self.pos;
            let bytes = self.input.buf.as_bytes();
            let len = if quote == b'"' {
                run_at::<DoubleQuotedStops>(bytes, at)
            } else {
                run_at::<SingleQuotedStops>(bytes, at)
            };
            let stop = *bytes.get(at + len)?;
            self.push_range(ATTR_VALUE, at, at + len);
            at += len;
            match stop {
                b'&' => {}
                b if b == quote => return Some(at),
                _ => return None,
            }
        }
    }

    /// The tag name state's skim decision, at the same byte (`p`, just past the
    /// name): a tag nobody reads is skimmed from here, exactly as the states do
    /// it; `None` if the tag is read (or the states must decide).
    #[inline(always)]
    fn fast_skim(&mut self, p: usize) -> Option<Flow> {
        let b = *self.input.buf.as_bytes().get(p)?;
        if (is_gap(b) || b == b'/') && self.skims_tag() {
            self.pos = p + 1;
            return Some(self.skim_tag(if b == b'/' {
                Skim::Solidus
            } else {
                Skim::BeforeName
            }));
        }
        None
    }

    /// With `SKIM` (not every tag's attributes are read), the tag is skimmed
    /// when the attribute mode says so.
    #[inline(always)]
    fn fast_tag_inner<const SKIM: bool>(&mut self) -> Option<Flow> {
        let base = self.input.base;
        let end_tag = self.is_end_tag;
        let name_start = self.pos;
        let mut p = name_start;
        p += run_at::<TagNameStops>(self.input.buf.as_bytes(), p);
        let name_end = p;
        if SKIM {
            // The skim decision interns the name from its builder.
            self.b[TAG_NAME] = TextBuilder::Source {
                start: base + name_start,
                end: base + name_end,
            };
            if let Some(flow) = self.fast_skim(p) {
                return Some(flow);
            }
        }
        // A tag with no attribute (`<p>`, `</li>`) goes straight to its end.
        let self_closing = if self.input.buf.as_bytes().get(p) == Some(&b'>') {
            p += 1;
            false
        } else {
            loop {
                let bytes = self.input.buf.as_bytes();
                // After the name or an attribute: whitespace, `>` or `/>`.
                let mut b = *bytes.get(p)?;
                if is_gap(b) {
                    p += 1;
                    if is_gap(*bytes.get(p)?) {
                        p += gap_len(bytes.get(p..).unwrap_or_default());
                    }
                    b = *bytes.get(p)?;
                } else if b != b'>' && b != b'/' {
                    return None;
                }
                match b {
                    b'>' => {
                        p += 1;
                        break false;
                    }
                    b'/' if !end_tag && bytes.get(p + 1) == Some(&b'>') => {
                        p += 2;
                        break true;
                    }
                    b'/' => return None,
                    _ if end_tag || self.attrs.len() + 1 >= LINEAR_DUPLICATE_CHECK => return None,
                    _ => {}
                }
                // An attribute name, then `=` and a value, or no value.
                let name_start = p;
                p += run_at::<AttrNameStops>(bytes, p);
                if p == name_start {
                    return None;
                }
                let name_end = p;
                let (value, value_span, has_value) = match *bytes.get(p)? {
                    b'=' => {
                        p += 1;
                        let quote = *bytes.get(p)?;
                        if quote == b'"' || quote == b'\'' {
                            p += 1;
                            let len = if quote == b'"' {
                                run_at::<DoubleQuotedStops>(bytes, p)
                            } else {
                                run_at::<SingleQuotedStops>(bytes, p)
                            };
                            let start = p;
                            if *bytes.get(p + len)? == quote {
                                p += len + 1;
                                let (value, span) = source_value(base, start, len);
                                (value, span, true)
                            } else {
                                // Character references (or the states' business).
                                let (end, value) =
                                    self.fast_value_with_refs(quote, start, p + len)?;
                                p = end + 1;
                                (value, Span::new(base + start, base + end), true)
                            }
                        } else {
                            let len = run_at::<UnquotedStops>(bytes, p);
                            let after = *bytes.get(p + len)?;
                            if len == 0 || !(is_gap(after) || after == b'>') {
                                return None;
                            }
                            let start = p;
                            p += len;
                            let (value, span) = source_value(base, start, len);
                            (value, span, true)
                        }
                    }
                    b if is_gap(b) || b == b'/' || b == b'>' => (
                        TextRef::EMPTY,
                        Span::new(base + name_end, base + name_end),
                        false,
                    ),
                    _ => return None,
                };
                self.push_fast_attribute(name_start, name_end, value, value_span, has_value)?;
            }
        };
        self.pos = p;
        self.self_closing = self_closing;
        self.state = super::St::Data;
        // `emit_tag` with what this shape implies: no attribute pending, the name
        // not interned yet, and an end tag has neither attributes nor a solidus.
        let name = match if SKIM { self.tag_atom.take() } else { None } {
            Some(name) => name,
            None => self.intern_source(TAG_NAME, name_start, name_end),
        };
        let span = self.token_span();
        Some(Flow::Emit(if end_tag {
            RawToken::EndTag {
                name,
                self_closing: false,
                span,
            }
        } else {
            self.last_start_tag = Some(name);
            RawToken::StartTag {
                name,
                self_closing,
                span,
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use crate::atom;
    use crate::token::Token;
    use crate::tokenizer::{AttributeMode, TagSet, Tokenizer, TokenizerConfig};

    /// Every token with every span, borrow flag and attribute, then every error.
    fn render(input: &str, fast: bool, chunk: usize, mode: &AttributeMode) -> Vec<String> {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        tok.set_attribute_mode(mode.clone());
        tok.fast_tags = fast;
        let mut out = Vec::new();
        let drain = |tok: &mut Tokenizer, out: &mut Vec<String>| {
            while let Some(token) = tok.next_token().unwrap() {
                out.push(match token {
                    Token::StartTag(t) | Token::EndTag(t) => {
                        let mut s = format!(
                            "tag {} {:?} sc={} skim={}",
                            t.name_str(),
                            t.span,
                            t.self_closing,
                            t.skimmed
                        );
                        for a in t.attrs.iter() {
                            s.push_str(&format!(
                                " [{}={:?} {:?} {:?} {}]",
                                t.atoms().name(a.name),
                                a.value,
                                a.name_span,
                                a.value_span,
                                a.value_borrowed
                            ));
                        }
                        s
                    }
                    other => format!("{other:?}"),
                });
            }
        };
        let mut at = 0;
        while at < input.len() {
            let mut end = (at + chunk).min(input.len());
            while !input.is_char_boundary(end) {
                end += 1;
            }
            tok.push_str(&input[at..end]);
            drain(&mut tok, &mut out);
            at = end;
        }
        tok.finish();
        drain(&mut tok, &mut out);
        out.extend(tok.errors().iter().map(|e| format!("{e:?}")));
        out
    }

    /// Tag-shaped inputs from pieces that exercise every exit of the fused reader.
    fn inputs() -> Vec<String> {
        const OPEN: [&str; 5] = ["<", "</", "<", "<", "x<"];
        const NAMES: [&str; 8] = ["a", "div", "DiV", "h1", "é", "a\0b", "x\r", "svg:g"];
        const GAPS: [&str; 8] = [
            " ",
            "  ",
            "\n",
            "\r\n",
            "\t\x0C",
            "",
            "\r",
            // Longer than a block (`gap_len`).
            "\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\r\n ",
        ];
        const ATTRS: [&str; 27] = [
            "t=\"&#x26;&notit;&amp\"",
            "u='&'",
            "v=\"&#0;x&zz;\"",
            "w='&not=1&noti'",
            "y=\"&amp;\0\"",
            "href=\"x\"",
            "class='y z'",
            "id=v",
            "checked",
            "a=\"\"",
            "b=''",
            "c=\"a&amp;b\"",
            "d='\0'",
            "e=\"\r\n\"",
            "F=\"1\"",
            "g = \"2\"",
            "h=",
            "i=a'b",
            "j=x&lt;",
            "\"k\"",
            "=l",
            "href=\"dup\"",
            "m<n=1",
            "o=\"1\"p=\"2\"",
            "data-é=\"ü\"",
            "q=`r`",
            "s/",
        ];
        const CLOSE: [&str; 6] = [">", "/>", " />", "/ >", "", "\t>"];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut out = Vec::new();
        for _ in 0..3000 {
            let mut s = String::new();
            for _ in 0..1 + next(3) {
                s.push_str(OPEN[next(OPEN.len())]);
                s.push_str(NAMES[next(NAMES.len())]);
                for _ in 0..next(15) {
                    s.push_str(GAPS[next(GAPS.len())]);
                    s.push_str(ATTRS[next(ATTRS.len())]);
                }
                if next(2) == 0 {
                    s.push_str(GAPS[next(GAPS.len())]);
                }
                s.push_str(CLOSE[next(CLOSE.len())]);
                if next(3) == 0 {
                    s.push_str("text");
                }
            }
            out.push(s);
        }
        out
    }

    /// Full tokenization, skimming all but `a` and `div`, and skimming with
    /// attribute triggers (`href`, `f`: `F="1"` must trigger too).
    fn modes() -> [AttributeMode; 3] {
        let tags = TagSet::from_atoms([atom::A, atom::DIV]);
        [
            AttributeMode::All,
            AttributeMode::Only(tags.clone()),
            AttributeMode::OnlyWith {
                tags,
                attributes: vec!["f".into(), "href".into()],
            },
        ]
    }

    #[test]
    fn fused_reader_matches_the_states() {
        for mode in &modes() {
            for (i, input) in inputs().iter().enumerate() {
                for chunk in [usize::MAX, 7, 1] {
                    if chunk == 1 && i % 8 != 0 {
                        continue;
                    }
                    assert_eq!(
                        render(input, true, chunk, mode),
                        render(input, false, chunk, mode),
                        "{input:?} in chunks of {chunk}, {mode:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn fused_reader_takes_the_common_shapes() {
        // The reader must accept these (or it is dead code): counted by the
        // states never being entered, seen through the tag's span being the
        // whole input and no error.
        for input in [
            "<a href=\"x\" class='y' id=z checked>",
            "<br/>",
            "<img src=\"a.png\" alt=\"\" />",
            "</div>",
            "</p  >",
        ] {
            let mut tok = Tokenizer::new(TokenizerConfig::default());
            tok.push_str(input);
            let flow = {
                tok.state = crate::tokenizer::states::St::TagOpen;
                tok.pos = if input.starts_with("</") { 2 } else { 1 };
                tok.create_tag(input.starts_with("</"));
                tok.fast_tag::<false>()
            };
            assert!(flow.is_some(), "{input:?}");
            assert_eq!(tok.pos, input.len(), "{input:?}");
        }
        // The end-tag reader: these and only these.
        for (input, taken) in [
            ("</div>", true),
            ("</h1>", true),
            ("</my-el>", true),
            ("</a >", false),
            ("</Div>", false),
            ("</svg:g>", false),
            ("</div", false),
            ("</>", false),
        ] {
            let mut tok = Tokenizer::new(TokenizerConfig::default());
            tok.push_str(input);
            tok.pos = 1;
            let flow = tok.fast_end_tag();
            assert_eq!(flow.is_some(), taken, "{input:?}");
            assert_eq!(tok.pos, if taken { input.len() } else { 1 }, "{input:?}");
        }
    }
}
