//! Skimming a tag whose attributes nobody reads ([`AttributeMode::Only`]): the
//! attribute states 13.2.5.32-13.2.5.40 reduced to what decides where the tag
//! ends and whether it is self-closing.
//!
//! Only ASCII bytes take part in those decisions (whitespace, `/`, `=`, `>` and the
//! quotes), so the skim runs on raw bytes: CR is whitespace whatever follows it,
//! NUL and non-ASCII characters are ordinary, and a character reference never
//! consumes a quote or `>`, so `&` is ordinary too. Nothing is stored and no error
//! is recorded but eof-in-tag, where the full states record it.
//!
//! With [`AttributeMode::Selective`], the skim also keeps the attributes listed
//! for the tag: a value that is a plain range of the source (quoted or unquoted,
//! no `&`, NUL or CR) is stored as such; any other shape of a listed attribute
//! (no value, a value to decode) sends the tag to the full states, like a trigger.
//!
//! [`AttributeMode::Only`]: crate::tokenizer::AttributeMode::Only
//! [`AttributeMode::Selective`]: crate::tokenizer::AttributeMode::Selective

use super::St;
use crate::atom::Atom;
use crate::error::ErrorCode;
use crate::span::Span;
use crate::token::{AttrSlot, TextRef};
use crate::tokenizer::run::{Stops, find_byte, run_len_of, stop_set};
use crate::tokenizer::{Flow, Tokenizer};

stop_set!(
    /// Where a skimmed attribute name ends (the attribute name state's exits).
    NameStops = Stops::new(b"\t\n\x0C />=")
);
stop_set!(
    /// Where a skimmed unquoted value ends.
    UnquotedStops = Stops::new(b"\t\n\x0C >")
);

/// The attribute states, merged where they act alike on the bytes that matter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Skim {
    /// 13.2.5.32 before attribute name.
    BeforeName,
    /// 13.2.5.33 attribute name.
    Name,
    /// 13.2.5.34 after attribute name.
    AfterName,
    /// 13.2.5.35 before attribute value.
    BeforeValue,
    /// 13.2.5.36/37 quoted value, until this quote.
    Quoted(u8),
    /// 13.2.5.38 unquoted value.
    Unquoted,
    /// 13.2.5.39 after attribute value (quoted).
    AfterQuoted,
    /// 13.2.5.40 self-closing start tag.
    Solidus,
}

/// Whitespace as the attribute states see it (CR is a newline).
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

impl Tokenizer {
    /// Reads the rest of the current tag from `at` (the read position is just past
    /// the byte that left the tag name state) and emits it without attributes.
    pub(crate) fn skim_tag(&mut self, at: Skim) -> Flow {
        if self.read_triggers && !self.is_end_tag {
            self.skim_tag_with::<true>(at)
        } else {
            self.skim_tag_with::<false>(at)
        }
    }

    /// Sends the current tag back to the full states, from its first attribute
    /// (`entry_pos`, `entry_at`: where the skim started).
    fn read_in_full(&mut self, entry_pos: usize, entry_at: Skim) -> Flow {
        self.pos = entry_pos;
        self.skimmed = false;
        self.attrs.clear();
        self.state = match entry_at {
            Skim::Solidus => St::SelfClosingStartTag,
            _ => St::BeforeAttributeName,
        };
        Flow::Continue
    }

    /// The listed attribute ([`AttributeMode::Selective`](crate::tokenizer::AttributeMode::Selective))
    /// the raw name `raw` names, unless the tag already has it (the first wins).
    #[inline]
    fn kept_attribute(&self, tag: Option<Atom>, raw: &[u8]) -> Option<Atom> {
        let list = self.attribute_mode.some_of(tag?);
        let atom = *list
            .iter()
            .find(|&&a| self.atoms.name(a).as_bytes().eq_ignore_ascii_case(raw))?;
        (!self.attrs.iter().any(|s| s.name == atom)).then_some(atom)
    }

    /// [`skim_tag`](Self::skim_tag); with `TRIGGERS`, an attribute name that
    /// `AttributeMode::triggered_by` accepts sends the tag back to the full states,
    /// and the attributes `AttributeMode::some_of` lists for the tag are kept.
    #[inline(always)]
    fn skim_tag_with<const TRIGGERS: bool>(&mut self, mut at: Skim) -> Flow {
        let bytes = self.input.buf.as_bytes();
        let base = self.input.base;
        let (entry_pos, entry_at) = (self.pos, at);
        // The tag keeps some attributes (checked once per tag).
        let keeps = TRIGGERS
            && self
                .tag_atom
                .is_some_and(|t| !self.attribute_mode.some_of(t).is_empty());
        let mut name_start = self.pos;
        // A kept attribute whose value comes next: its atom and name's range,
        // and where its unquoted value starts.
        let mut kept: Option<(Atom, usize, usize)> = None;
        let mut value_start = 0;
        let mut i = self.pos;
        let mut self_closing = false;
        loop {
            let Some(&b) = bytes.get(i) else {
                self.pos = i;
                if self.input_done {
                    self.error(ErrorCode::EofInTag);
                    return self.emit_eof();
                }
                return Flow::NeedMore;
            };
            match at {
                Skim::BeforeName => match b {
                    b'/' => at = Skim::Solidus,
                    b'>' => break,
                    b if is_space(b) => {}
                    // Any other byte (`=` included) starts a name.
                    _ => {
                        at = Skim::Name;
                        if TRIGGERS {
                            name_start = i;
                        }
                    }
                },
                Skim::Name | Skim::Unquoted => {
                    let rest = bytes.get(i..).unwrap_or_default();
                    let run = if at == Skim::Name {
                        run_len_of::<NameStops>(rest)
                    } else {
                        run_len_of::<UnquotedStops>(rest)
                    };
                    i += run;
                    let Some(&b) = bytes.get(i) else { continue };
                    if TRIGGERS && at == Skim::Name {
                        let raw = bytes.get(name_start..i).unwrap_or_default();
                        if self.attribute_mode.triggered_by(raw) {
                            // Read again, in full, from the first attribute.
                            return self.read_in_full(entry_pos, entry_at);
                        }
                        if keeps && let Some(atom) = self.kept_attribute(self.tag_atom, raw) {
                            if b != b'=' && !is_space(b) {
                                // No value: the states' business.
                                return self.read_in_full(entry_pos, entry_at);
                            }
                            kept = Some((atom, name_start, i));
                        }
                    }
                    if TRIGGERS
                        && at == Skim::Unquoted
                        && let Some((atom, ns, ne)) = kept.take()
                    {
                        let value = bytes.get(value_start..i).unwrap_or_default();
                        if value.iter().any(|&c| c == b'&' || c == 0) {
                            return self.read_in_full(entry_pos, entry_at);
                        }
                        self.attrs
                            .push(kept_slot(atom, base, (ns, ne), (value_start, i)));
                    }
                    match b {
                        b'>' => break,
                        b'/' => at = Skim::Solidus,
                        b'=' => at = Skim::BeforeValue,
                        _ if at == Skim::Name => at = Skim::AfterName,
                        _ => at = Skim::BeforeName,
                    }
                }
                Skim::AfterName => match b {
                    b'/' => at = Skim::Solidus,
                    b'=' => at = Skim::BeforeValue,
                    b'>' => break,
                    b if is_space(b) => {}
                    _ => {
                        at = Skim::Name;
                        if TRIGGERS {
                            name_start = i;
                        }
                    }
                },
                Skim::BeforeValue => match b {
                    b'"' | b'\'' => at = Skim::Quoted(b),
                    b'>' => break,
                    b if is_space(b) => {}
                    _ => {
                        at = Skim::Unquoted;
                        value_start = i;
                    }
                },
                Skim::Quoted(quote) => {
                    let rest = bytes.get(i..).unwrap_or_default();
                    match find_byte(quote, rest) {
                        Some(run) => {
                            if TRIGGERS && let Some((atom, ns, ne)) = kept.take() {
                                let value = rest.get(..run).unwrap_or_default();
                                if value.iter().any(|&c| c == b'&' || c == 0 || c == b'\r') {
                                    return self.read_in_full(entry_pos, entry_at);
                                }
                                self.attrs
                                    .push(kept_slot(atom, base, (ns, ne), (i, i + run)));
                            }
                            i += run;
                            at = Skim::AfterQuoted;
                        }
                        None => {
                            i += rest.len();
                            continue;
                        }
                    }
                }
                Skim::AfterQuoted => match b {
                    b'/' => at = Skim::Solidus,
                    b'>' => break,
                    b if is_space(b) => at = Skim::BeforeName,
                    // Missing whitespace: reconsumed in before attribute name,
                    // where it starts a name.
                    _ => {
                        at = Skim::Name;
                        if TRIGGERS {
                            name_start = i;
                        }
                    }
                },
                Skim::Solidus => {
                    if b == b'>' {
                        self_closing = true;
                        break;
                    }
                    // Reconsumed in the before attribute name state.
                    at = Skim::BeforeName;
                    continue;
                }
            }
            if TRIGGERS
                && kept.is_some()
                && !matches!(
                    at,
                    Skim::AfterName | Skim::BeforeValue | Skim::Quoted(_) | Skim::Unquoted
                )
            {
                // A kept name without a value (`<div class/>`, `class x`).
                return self.read_in_full(entry_pos, entry_at);
            }
            i += 1;
        }
        if TRIGGERS && kept.is_some() {
            // `<div class>`, `<div class=>`.
            return self.read_in_full(entry_pos, entry_at);
        }
        // At the `>`.
        self.pos = i + 1;
        self.self_closing = self_closing;
        self.state = St::Data;
        self.emit_tag()
    }
}

/// A kept attribute whose value is the source's `value` range (buffer offsets,
/// like `name`), as full tokenization stores it.
#[inline]
fn kept_slot(
    name: Atom,
    base: usize,
    (ns, ne): (usize, usize),
    (vs, ve): (usize, usize),
) -> AttrSlot {
    AttrSlot {
        name,
        name_span: Span::new(base + ns, base + ne),
        value: if ve > vs {
            TextRef::Source {
                start: base + vs,
                end: base + ve,
            }
        } else {
            TextRef::EMPTY
        },
        value_span: Span::new(base + vs, base + ve),
        has_value: true,
    }
}

#[cfg(test)]
mod tests {
    use crate::atom;
    use crate::token::Token;
    use crate::tokenizer::{AttributeMode, TagSet, Tokenizer, TokenizerConfig};

    /// Each tag as `name span self-closing skimmed [attr=value name-span
    /// value-span has-value]…`.
    fn render(input: &str, fast: bool, chunk: usize, mode: &AttributeMode) -> Vec<String> {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        tok.set_attribute_mode(mode.clone());
        tok.fast_tags = fast;
        let mut out = Vec::new();
        let drain = |tok: &mut Tokenizer, out: &mut Vec<String>| {
            while let Some(token) = tok.next_token().unwrap() {
                if let Token::StartTag(t) | Token::EndTag(t) = token {
                    let mut s = format!(
                        "{} {:?} {} {}",
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
                            a.has_value
                        ));
                    }
                    out.push(s);
                }
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
        out
    }

    /// Tags of `div`, `h1`, `a` and `p` with every shape of attribute the skim
    /// keeps or hands to the states.
    fn inputs() -> Vec<String> {
        const NAMES: [&str; 5] = ["div", "DIV", "h1", "a", "p"];
        const GAPS: [&str; 5] = [" ", "\n", "\r", "\t\x0C", ""];
        const ATTRS: [&str; 24] = [
            "class=\"x y\"",
            "CLASS='z'",
            "class=u",
            "class=u/",
            "class=\"a&amp;b\"",
            "class='\r\n'",
            "class=a&b",
            "class",
            "class=",
            "class = \"s\"",
            "class=\"\"",
            "id=i",
            "id='j k'",
            "ID",
            "href=\"h\"",
            "title=\"class=no\"",
            "f=1",
            "x\0=1",
            "=class",
            "class\r=\"cr\"",
            "klass=1",
            "data-x='>'",
            "i=a'b",
            "o=\"1\"class=\"2\"",
        ];
        const CLOSE: [&str; 5] = [">", "/>", " />", "/ >", "\t>"];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut out = Vec::new();
        for _ in 0..2000 {
            let mut s = String::new();
            for _ in 0..1 + next(3) {
                s.push('<');
                s.push_str(NAMES[next(NAMES.len())]);
                for _ in 0..next(5) {
                    s.push_str(GAPS[next(GAPS.len() - 1)]);
                    s.push_str(ATTRS[next(ATTRS.len())]);
                }
                s.push_str(GAPS[next(GAPS.len())]);
                s.push_str(CLOSE[next(CLOSE.len())]);
                s.push('t');
            }
            out.push(s);
        }
        out
    }

    /// What a selective read should give, from the full read: every tag as
    /// read in full, except that a skimmed one keeps only its listed attributes.
    fn expected(
        full: &[String],
        selective: &[String],
        listed: &dyn Fn(&str) -> Vec<&'static str>,
    ) -> Vec<String> {
        full.iter()
            .zip(selective)
            .map(|(f, s)| {
                let skimmed = s.split(" [").next().is_some_and(|h| h.ends_with(" true"));
                let mut parts = f.split(" [");
                let head = parts.next().unwrap_or_default();
                let name = head.split(' ').next().unwrap_or_default();
                if !skimmed {
                    return f.clone();
                }
                let keep = listed(name);
                let mut out = head
                    .rsplit_once(' ')
                    .map(|h| h.0)
                    .unwrap_or(head)
                    .to_owned();
                out.push_str(" true");
                for p in parts {
                    let attr = p.split('=').next().unwrap_or_default();
                    if keep.contains(&attr) {
                        out.push_str(" [");
                        out.push_str(p);
                    }
                }
                out
            })
            .collect()
    }

    #[test]
    fn selective_skims_keep_the_listed_attributes_as_full_reads_do() {
        let mode = AttributeMode::Selective {
            tags: TagSet::from_atoms([atom::A]),
            attributes: vec!["f".into()],
            some: vec![
                (atom::DIV, vec![atom::CLASS, atom::ID]),
                (atom::H1, vec![atom::CLASS]),
            ],
        };
        let listed = |name: &str| match name {
            "div" => vec!["class", "id"],
            "h1" => vec!["class"],
            _ => vec![],
        };
        let mut kept = 0;
        for (i, input) in inputs().iter().enumerate() {
            let full = render(input, true, usize::MAX, &AttributeMode::All);
            for fast in [true, false] {
                for chunk in [usize::MAX, 7, 1] {
                    if chunk == 1 && i % 8 != 0 {
                        continue;
                    }
                    let got = render(input, fast, chunk, &mode);
                    assert_eq!(got.len(), full.len(), "{input:?}");
                    assert_eq!(
                        got,
                        expected(&full, &got, &listed),
                        "{input:?} fast={fast} chunk={chunk}"
                    );
                    kept += got
                        .iter()
                        .filter(|t| t.contains(" true [class=") || t.contains(" true [id="))
                        .count();
                }
            }
        }
        // The skim kept attributes itself (not only through full reads).
        assert!(kept > 1000, "{kept}");
    }
}
