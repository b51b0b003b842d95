//! `[[wikilinks]]`: a link becomes a [`Tok::WikiLink`] pseudo-token (resolved
//! against the page store by the link handler), its text, a link trail of
//! letters, and `</a>`; a category link becomes a `<link>` at once. Anything
//! that cannot be a link is text.

use std::borrow::Cow;

use tagloom_html::atom;
use tagloom_html::token::{OwnedTag, OwnedToken};
use tagloom_html::tokenizer::lanes::{self, Lanes};

use super::tags::parse_tag;
use super::{Tokenizer, byte_set, entity, extlinks, skip};
use crate::title::{LinkTarget, encode_title, percent_decode};
use crate::token::{Tok, WikiToken};
use crate::transclusion::{END, START};

/// The bytes [`Tokenizer::extent`] looks at: every other byte is link text.
const EXTENT_STOP: [bool; 256] = byte_set(b"[]{<|\n\xEE&");

/// The first byte of [`EXTENT_STOP`] in `b` from `from` on: sixteen bytes
/// a step (`tagloom_html`'s SSE2 blocks; a link's target and text are
/// capitals, spaces and punctuation, which a byte table took one at a time
/// and the plain-word test of `skip::next_stop` does not skip), the last
/// bytes by the table.
fn extent_stop(b: &[u8], mut from: usize) -> Option<usize> {
    while let Some(block) = lanes::block_at(b, from) {
        let v = Lanes::load(block);
        // `[` `\` `]` as one range, without the backslash.
        let hits = v
            .between(b'[', b']')
            .and_not(v.eq(b'\\'))
            .or(v.eq(b'{'))
            .or(v.eq(b'<'))
            .or(v.eq(b'|'))
            .or(v.eq(b'\n'))
            .or(v.eq(0xEE))
            .or(v.eq(b'&'))
            .bits();
        if hits != 0 {
            return Some(from + hits.trailing_zeros() as usize);
        }
        from += lanes::WIDTH;
    }
    b.get(from..)?
        .iter()
        .position(|&c| EXTENT_STOP[usize::from(c)])
        .map(|k| from + k)
}

impl Tokenizer<'_> {
    /// The end of the `[[…]]` at the current position (`]]` excluded, relative),
    /// where its first top-level `|` is, and whether the target may hold a
    /// `&` (a reference to decode: the search meets every `&` of the target
    /// anyway, and most targets then need no second pass). A nested `[[` or
    /// a newline before the pipe ends the attempt (so each attempt scans only
    /// up to the next `[[`: linear time overall).
    fn extent(&mut self) -> Option<(usize, Option<usize>, bool)> {
        let base = self.pos;
        let s = self.rest();
        let b = s.as_bytes();
        let mut i = 2;
        let mut pipe = None;
        let mut amp = false;
        while i < b.len() {
            // Bytes none of the cases below looks at are skipped at once.
            match extent_stop(b, i) {
                Some(at) => i = at,
                None => return None,
            }
            match (b.get(i), b.get(i + 1)) {
                (Some(b'['), Some(b'[')) => return None,
                (Some(b']'), Some(b']')) => {
                    // `[[A|[x]]]`: a `[` open in the text takes the first `]`.
                    let open_in_text = pipe.is_some_and(|p| {
                        // Bytes, not `str::matches`' char searches; most
                        // texts hold no `[` (a word test) and are not counted.
                        let text = b.get(p + 1..i).unwrap_or(&[]);
                        if !skip::has_byte(text, b'[') {
                            return false;
                        }
                        let opens = text.iter().filter(|&&c| c == b'[').count();
                        let closes = text.iter().filter(|&&c| c == b']').count();
                        opens > closes
                    });
                    if open_in_text && b.get(i + 2) == Some(&b']') {
                        i += 1;
                        continue;
                    }
                    return Some((i, pipe, amp));
                }
                (Some(b'{'), Some(b'{')) => match self.brace_end(base + i) {
                    // Skip a template: its pipes are not ours (nor do its
                    // bytes go unread by the decoder).
                    Some(end) if end <= self.limit => {
                        amp |= pipe.is_none();
                        i = end - base;
                    }
                    // An unclosed `{{` is the innermost opening: the `]]`
                    // after it is its text, and the link fails (the
                    // preprocessor's precedence).
                    _ => return None,
                },
                (Some(0xEE), _) if s.get(i..).is_some_and(|r| r.starts_with(START)) => {
                    // A template's output is opaque: its `]]` is not ours.
                    amp |= pipe.is_none();
                    match s.get(i..).and_then(|r| r.find(END)) {
                        Some(end) => i += end + END.len_utf8(),
                        None => i += 1,
                    }
                }
                (Some(b'<'), _) if pipe.is_some() => match s.get(i..).and_then(parse_tag) {
                    // A tag in the text is skipped whole: `]]` in its attributes
                    // does not end the link.
                    Some(tag) => i += tag.len,
                    None => i += 1,
                },
                (Some(b'|'), _) if pipe.is_none() => {
                    pipe = Some(i);
                    i += 1;
                }
                (Some(b'\n'), _) if pipe.is_none() => return None,
                (Some(b'&'), _) => {
                    amp |= pipe.is_none();
                    i += 1;
                }
                _ => i += 1,
            }
        }
        None
    }
}

impl Tokenizer<'_> {
    /// At `[[`.
    pub(crate) fn wikilink(&mut self) {
        let start = self.pos;
        let Some((close, pipe, amp)) = self.extent() else {
            self.pos += 2;
            self.push_text("[[", start);
            return;
        };
        let rest = self.rest();
        let target_src = rest.get(2..pipe.unwrap_or(close)).unwrap_or("");
        let decoded = if amp {
            entity::decode(target_src)
        } else {
            Cow::Borrowed(target_src)
        };
        let Some(target) = LinkTarget::parse_in(&decoded, self.site) else {
            // `[[//example.com]]`: a bracket, then an external link.
            let url_like = extlinks::protocol(decoded.trim_start(), true).is_some();
            let skip = if url_like { 1 } else { 2 };
            self.pos += skip;
            self.push_text(if url_like { "[" } else { "[[" }, start);
            return;
        };
        if let Some(href) = target.language_link() {
            self.pos += close + 2;
            let tag = OwnedTag::new(atom::LINK)
                .with_attr(atom::REL, "mw:PageProp/Language")
                .with_attr(atom::HREF, href);
            self.emit_html(OwnedToken::StartTag(tag), start);
            return;
        }
        if target.namespace() == "Category" && !target.colon {
            self.pos += close + 2;
            let mut href = format!("./{}", encode_title(&target.full()));
            if let Some(p) = pipe {
                let sort = rest.get(p + 1..close).unwrap_or("");
                href.push('#');
                href.push_str(&encode_title(sort));
            }
            let tag = OwnedTag::new(atom::LINK)
                .with_attr(atom::REL, "mw:PageProp/Category")
                .with_attr(atom::HREF, href);
            self.emit_html(OwnedToken::StartTag(tag), start);
            return;
        }
        if pipe.is_some_and(|p| p + 1 >= close) {
            // `[[Target|]]`: the pipe trick is a save-time feature; here it is text.
            self.pos += 2;
            self.push_text("[[", start);
            return;
        }
        self.pos += close + 2;
        let tok = match self.links {
            Some(page) => Tok::Html(OwnedToken::StartTag(crate::transform::links::link_tag(
                target, page.title, page.pages,
            ))),
            None => Tok::WikiLink(Box::new(target)),
        };
        self.emit(tok, start);
        match pipe {
            Some(p) if p + 1 < close => {
                let saved = self.limit;
                let content_end = start + close;
                self.pos = start + p + 1;
                self.limit = content_end;
                // No links inside a link's text.
                let was = std::mem::replace(&mut self.in_ext_link, true);
                let was_wiki = std::mem::replace(&mut self.in_wiki_link, true);
                // A `:` in the text does not start a `;` line's description.
                self.dd_depth += 1;
                self.scan();
                self.dd_depth = self.dd_depth.saturating_sub(1);
                self.in_ext_link = was;
                self.in_wiki_link = was_wiki;
                self.limit = saved;
                self.pos = content_end + 2;
            }
            Some(_) => {}
            None => {
                // The decoded target without its leading `:` (no reference
                // starts with one, so this is the decoded text after it).
                let shown = decoded.strip_prefix(':').unwrap_or(&decoded);
                // Most targets have no `%` (then `percent_decode` gives them
                // back): a word-at-a-time test before its generic search.
                let text = if skip::has_byte(shown.as_bytes(), b'%') {
                    percent_decode(shown).into_owned()
                } else {
                    shown.to_owned()
                };
                self.out.push(WikiToken::text(text));
            }
        }
        // The link trail.
        let trail: usize = self
            .rest()
            .bytes()
            .take_while(u8::is_ascii_lowercase)
            .count();
        if trail > 0 {
            // The trail is source text: its range, no copy.
            let t_start = self.pos;
            self.pos += trail;
            self.push_src(t_start, self.pos);
        }
        self.flush_text();
        self.out.push(WikiToken::end(atom::A));
    }
}

#[cfg(test)]
mod tests {
    use super::{EXTENT_STOP, extent_stop};
    use crate::token::Tok;

    /// A target's references are decoded whether the extent met them in its
    /// search (plain, piped, after a text holding none) or not at all.
    #[test]
    fn link_targets_decode_the_references_the_extent_meets() {
        let link = |src: &str| {
            super::super::tokenize(src)
                .into_iter()
                .find_map(|t| matches!(t.tok, Tok::WikiLink(_)).then_some(t.tok))
        };
        for (with_ref, plain) in [
            ("[[AT&amp;T]]", "[[AT&T]]"),
            ("[[AT&amp;T|x &amp; y]]", "[[AT&T|z]]"),
            ("[[Caf&eacute; de Flore]]", "[[Café de Flore]]"),
            ("[[A&#32;B]]", "[[A B]]"),
        ] {
            assert!(link(plain).is_some(), "{plain}");
            assert_eq!(link(with_ref), link(plain), "{with_ref}");
        }
        // A text's `&` does not make the target decoded differently.
        assert_eq!(link("[[Plain|a &amp; b]]"), link("[[Plain|c]]"));
    }

    /// The block search finds what the byte table finds, from every start,
    /// over every byte value (the backslash inside the `[`…`]` range, UTF-8,
    /// a marker's first byte) in blocks and in the tail.
    #[test]
    fn extent_stop_is_the_table_search() {
        let mut text: Vec<u8> = b"Peter Kropotkin (1842\\1921)|".to_vec();
        text.extend((0..=255u8).flat_map(|b| [b, b'x', b'A', b' ']));
        text.extend_from_slice("é]] tail [x] {{y}} <b> \u{E000}".as_bytes());
        for from in 0..=text.len() + 1 {
            for end in [text.len(), text.len().saturating_sub(7)] {
                let b = &text[..end];
                let expected = b
                    .get(from..)
                    .and_then(|t| t.iter().position(|&c| EXTENT_STOP[usize::from(c)]))
                    .map(|k| from + k);
                assert_eq!(extent_stop(b, from), expected, "{from}..{end}");
            }
        }
    }
}
