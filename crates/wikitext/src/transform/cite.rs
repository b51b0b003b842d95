//! Cite's token stage (Parsoid's `RefTagHandler::sourceToDom` and
//! `ReferenceListTagHandler::sourceToDom`): each `<ref>` and `<references>`
//! becomes a placeholder element whose one private attribute names its tag
//! (its attributes, its body source and its body rendered in inline context),
//! which waits in the page's `Bodies` ([`crate::dom::cite`]'s placeholders).
//! The numbering, reuse, groups, errors
//! and the lists are the DOM pass [`crate::dom::cite`], which sees the whole
//! page in document order (templates expanded, links resolved) as Parsoid's
//! `CiteDocumentPostProcessor` does.

use std::collections::HashMap;
use std::rc::Rc;

use tagloom_html::atom;
use tagloom_html::token::{OwnedAttribute, OwnedTag, OwnedToken};

use super::Transform;
use crate::dom::cite::placeholder as ph;
use crate::render::Page;
use crate::title::encode_title;
use crate::token::{RefTag, Tok, WikiToken};

/// How deep ref bodies render inside ref bodies (each level is a separate
/// inline render; deeper bodies render as nothing).
pub(crate) const MAX_REF_NESTING: usize = 6;

pub(crate) struct Cite {
    /// The page: options, title, transclusions (`data-mw`, which markers in
    /// bodies refer to) and rendered bodies (shared with inner renders and the
    /// DOM pass).
    page: Rc<Page>,
    /// Nesting of inline renders (a ref body inside a ref body…).
    pub(crate) depth: usize,
    /// Template outputs open here (their `mw:Transclusion` metas).
    open_calls: usize,
    /// Links open here (`<a>` start tags not yet ended): a `<ref>` made
    /// while one is may land inside it ([`Bodies::refs_in_links`]).
    ///
    /// [`Bodies::refs_in_links`]: crate::dom::cite::placeholder::Bodies
    links: usize,
    /// A tag that can keep a link open past its `</a>` (a table's, which
    /// bounds the `</a>`'s scope) came while one was open: from then on every
    /// ref counts as inside a link.
    links_unsure: bool,
    /// Custom footnote labels of the groups seen (`None`: the wiki has none).
    labels: HashMap<String, Option<Vec<String>>>,
}

impl Cite {
    pub(crate) fn new(page: Rc<Page>, depth: usize) -> Cite {
        Cite {
            page,
            depth,
            open_calls: 0,
            links: 0,
            links_unsure: false,
            labels: HashMap::new(),
        }
    }

    /// A body rendered in inline context (nothing past the nesting limit):
    /// its index in the page's bodies, rendered the first time it is seen,
    /// and whether its render waits for the page's end of input (a page's
    /// body that is not plain text: [`Cite::render_deferred`]).
    fn body_id(&self, body: &str) -> (usize, bool) {
        if let Some(id) = self.page.bodies.borrow_mut().find(self.depth, body) {
            return (id, false);
        }
        let made = self.page.bodies.borrow().tags_made();
        let nodes = if self.depth >= MAX_REF_NESTING || body.is_empty() {
            Vec::new()
        } else if is_plain(body) {
            let nodes = vec![crate::dom::Node::Text(body.to_owned().into())];
            // Debug builds (the tests, the corpus run of a debug build) check
            // the shortcut against the render it skips.
            debug_assert_eq!(
                nodes,
                crate::render::render_inline(body, &self.page, self.depth + 1),
                "plain body {body:?}"
            );
            nodes
        } else if self.depth == 0 {
            let id = self
                .page
                .bodies
                .borrow_mut()
                .add(self.depth, body, Vec::new(), false);
            return (id, true);
        } else {
            crate::render::render_inline(body, &self.page, self.depth + 1)
        };
        let mut bodies = self.page.bodies.borrow_mut();
        let nests = bodies.tags_made() != made;
        (bodies.add(self.depth, body, nodes, nests), false)
    }

    /// Renders the page's deferred bodies ([`Bodies::deferred`]), in page
    /// order and by phases ([`crate::render::render_inline_all`]), as
    /// [`Cite::body_id`] would have when it met them: the inner
    /// renders see the same page (its calls, options and title) and number
    /// their own placeholders after the page's (the indices only name tags;
    /// nothing reads their order). Not inlined: the page's token loop keeps
    /// only the call.
    ///
    /// [`Bodies::deferred`]: crate::dom::cite::placeholder::Bodies
    #[inline(never)]
    fn render_deferred(&mut self) {
        let deferred = std::mem::take(&mut self.page.bodies.borrow_mut().deferred);
        if deferred.is_empty() {
            return;
        }
        // The sources out of their tags while they render (the renders
        // record more tags), put back after.
        let srcs: Vec<Option<String>> = {
            let mut bodies = self.page.bodies.borrow_mut();
            deferred
                .iter()
                .map(|&(_, tag)| bodies.take_src(tag))
                .collect()
        };
        let texts: Vec<&str> = srcs.iter().map(|s| s.as_deref().unwrap_or("")).collect();
        let rendered = crate::render::render_inline_all(&texts, &self.page, self.depth + 1);
        let mut bodies = self.page.bodies.borrow_mut();
        for ((&(id, tag), (nodes, nests)), src) in deferred.iter().zip(rendered).zip(srcs) {
            bodies.fill(id, nodes, nests);
            if let Some(src) = src {
                bodies.put_src(tag, src);
            }
        }
    }

    /// A group's custom labels: the words of the wiki's
    /// `MediaWiki:Cite link label group-<group>` page (Cite's legacy
    /// `cite_link_label_group-…` message), if it has one.
    fn group_labels(&mut self, group: &str) -> Option<&Vec<String>> {
        if !self.labels.contains_key(group) {
            let site = &self.page.options.preprocess.site;
            let labels = self.page.options.store.as_ref().and_then(|store| {
                let title = crate::preprocess::Title::parse(
                    &format!("MediaWiki:Cite_link_label_group-{group}"),
                    0,
                    site,
                )
                .ok()?;
                let text = store.source(&title).ok()??;
                let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
                (!words.is_empty()).then_some(words)
            });
            self.labels.insert(group.to_owned(), labels);
        }
        self.labels.get(group).and_then(Option::as_ref)
    }

    /// The placeholder of a tag: its attributes, body source and labels wait
    /// in the page's bodies for the DOM pass (moved, not copied), which the
    /// placeholder's one attribute names.
    fn placeholder(&mut self, kind: &str, tag: RefTag, out: &mut Vec<WikiToken>) {
        let RefTag {
            mut attrs, body, ..
        } = tag;
        // Names are mostly lowercase already: changed only when not.
        for (k, _) in &mut attrs {
            if k.bytes().any(|b| b.is_ascii_uppercase()) {
                k.make_ascii_lowercase();
            }
        }
        let group = attrs
            .iter()
            .rev()
            .find(|(k, _)| k == "group")
            .map(|(_, v)| v.trim())
            .filter(|g| !g.is_empty());
        let labels = match group {
            Some(g) => {
                let g = g.to_owned();
                self.group_labels(&g).cloned()
            }
            None => None,
        };
        let (id, deferred) = match body.as_deref().map(|b| self.body_id(b)) {
            Some((id, deferred)) => (Some(id), deferred),
            None => (None, false),
        };
        let index = {
            let mut bodies = self.page.bodies.borrow_mut();
            if kind == ph::REF && (self.links > 0 || self.links_unsure) {
                bodies.refs_in_links = true;
            }
            if bodies.page.is_empty() {
                bodies.page = format!("./{}", encode_title(&self.page.title));
            }
            let pending = ph::Pending {
                attrs,
                src: body,
                body: id,
                labels,
            };
            let index = bodies.add_tag(self.depth, pending);
            if let (true, Some(id)) = (deferred, id) {
                bodies.deferred.push((id, index));
            }
            index
        };
        // The element's name is a static atom (no lookup); its one attribute
        // is the list's whole size (no growth from empty).
        let name = if kind == ph::REF {
            atom::SUP
        } else {
            atom::DIV
        };
        let mut el = OwnedTag::new(name);
        *el.attrs_mut() = vec![OwnedAttribute::new(ph::KIND, ph::kind_value(kind, index))];
        out.push(WikiToken::start_tag(el));
        out.push(WikiToken::end(name));
    }
}

/// Text no wikitext syntax, magic link, French spacing or HTML escaping
/// touches: its inline rendering is itself (the common short body skips the
/// pipeline). Letters, digits, blanks, `.,-()/"'` (no `''`: quotes), the
/// punctuation from U+2010 to U+2027 (dashes, curly quotes, ellipsis), and a
/// `:` after a letter or digit (never a list's or a French-spaced one) unless
/// the letters before it name a protocol (a free URL); no `ISBN`, `RFC` or
/// `PMID` (magic links). One walk over the bytes: ASCII (most of a body) by
/// a byte's value, no character decoded and no substring search set up.
fn is_plain(body: &str) -> bool {
    let bytes = body.as_bytes();
    // Whether the character before `i` is a letter or digit, and the byte
    // before it (`''`).
    let (mut alnum, mut last) = (false, 0u8);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            let ok = match b {
                b'a'..=b'z' | b'0'..=b'9' => true,
                b'A'..=b'Z' => {
                    let rest = bytes.get(i..).unwrap_or_default();
                    !(rest.starts_with(b"ISBN")
                        || rest.starts_with(b"RFC")
                        || rest.starts_with(b"PMID"))
                }
                b'\'' => last != b'\'',
                b' ' | b'.' | b',' | b'-' | b'(' | b')' | b'/' | b'"' => true,
                b':' => alnum && !names_protocol(body, i),
                _ => false,
            };
            if !ok {
                return false;
            }
            alnum = b.is_ascii_alphanumeric();
            last = b;
            i += 1;
            continue;
        }
        let Some(c) = body.get(i..).and_then(|rest| rest.chars().next()) else {
            return false;
        };
        // Dashes and curly quotes first, then the Latin letters (most of a
        // body's other characters): no Unicode table looked up for them.
        let is_alnum = if ('\u{2010}'..='\u{2027}').contains(&c) {
            false
        } else if is_latin_letter(c)
            || c.is_alphanumeric() && !('\u{E000}'..='\u{F8FF}').contains(&c)
        {
            true
        } else {
            return false;
        };
        alnum = is_alnum;
        last = 0;
        i += c.len_utf8();
    }
    true
}

/// Whether `c` is a letter of Latin-1's upper half or of Latin
/// Extended-A and -B (U+00C0 to U+024F but `×` and `÷`): all alphabetic,
/// as [`char::is_alphanumeric`] says (a unit test checks every one), told
/// by two comparisons instead of its table's binary search.
fn is_latin_letter(c: char) -> bool {
    ('\u{C0}'..='\u{24F}').contains(&c) && c != '\u{D7}' && c != '\u{F7}'
}

/// Whether an element named `name` bounds an `</a>`'s scope (the tree
/// builder's "has an element in scope" list, table parts, and the foreign
/// roots whose integration points bound it): after one, an `</a>` may leave
/// its link open.
fn bounds_link_scope(name: &tagloom_html::token::Name) -> bool {
    matches!(
        name.as_str(),
        "table"
            | "tbody"
            | "thead"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
            | "caption"
            | "marquee"
            | "object"
            | "applet"
            | "template"
            | "html"
            | "svg"
            | "math"
    )
}

/// Whether the ASCII letters just before the `:` at `colon` start a protocol.
fn names_protocol(body: &str, colon: usize) -> bool {
    let head = body.get(..colon).unwrap_or("");
    let start = head
        .rfind(|c: char| !c.is_ascii_alphabetic())
        .map_or(0, |i| i + 1);
    body.get(start..)
        .is_some_and(|rest| crate::tokenize::extlinks::protocol(rest, false).is_some())
}

impl Cite {
    /// Follows the tokens that concern the stage besides refs: links opened
    /// and closed ([`Cite::links`]) and, in a ref body's render, template
    /// outputs (their `mw:Transclusion` metas, [`Cite::open_calls`]; the
    /// page's own chain, depth 0, does not keep the count). One match on the
    /// token's kind, which also tells refs (`false`) from the rest (`true`):
    /// most tokens are text and leave at once.
    #[inline(always)]
    fn track(&mut self, token: &WikiToken) -> bool {
        match &token.tok {
            Tok::Ref(_) | Tok::References(_) => return false,
            Tok::Html(OwnedToken::StartTag(t)) => self.start_tag(t),
            Tok::Html(OwnedToken::EndTag(t)) if t.name().is(atom::A) => {
                self.links = self.links.saturating_sub(1);
            }
            Tok::WikiLink(_) => self.links += 1,
            Tok::Eof if self.depth == 0 => self.render_deferred(),
            _ => {}
        }
        true
    }

    /// [`Cite::track`] for a start tag.
    fn start_tag(&mut self, t: &OwnedTag) {
        let name = t.name();
        if name.is(atom::A) {
            self.links += 1;
        } else if self.links > 0 && bounds_link_scope(name) {
            self.links_unsure = true;
        } else if self.depth > 0 && name.is(atom::META) {
            match t.attr("typeof") {
                Some("mw:Transclusion") => self.open_calls += 1,
                Some("mw:Transclusion/End") => {
                    self.open_calls = self.open_calls.saturating_sub(1);
                }
                _ => {}
            }
        }
    }
}

impl Transform for Cite {
    /// The page's caches (link form, group labels) stay.
    fn reset(&mut self) {
        self.open_calls = 0;
        self.links = 0;
        self.links_unsure = false;
    }

    /// Every token but a `<ref>` or `<references>` passes.
    fn pass(&mut self, token: &WikiToken) -> bool {
        self.track(token)
    }

    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        // A ref a template made inside a ref body is dropped (Parsoid allows
        // nested refs only where the body says so, `{{#tag:ref}}`). An empty
        // span stands in for it (the template's output).
        if matches!(token.tok, Tok::Ref(_)) && self.depth > 0 && self.open_calls > 0 {
            out.push(WikiToken::start(atom::SPAN));
            out.push(WikiToken::end(atom::SPAN));
            return;
        }
        match token.tok {
            Tok::Ref(r) => self.placeholder(ph::REF, *r, out),
            Tok::References(r) => self.placeholder(ph::REFERENCES, *r, out),
            tok => {
                let token = WikiToken { tok, ..token };
                self.track(&token);
                out.push(token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RenderOptions;
    use std::sync::Arc;

    #[test]
    fn refs_made_inside_links_ask_for_the_hoist() {
        // Whether the page's bodies ask for the hoist after `tokens`.
        let flagged = |tokens: Vec<WikiToken>| -> bool {
            let page = Rc::new(Page::new(
                Arc::new(RenderOptions::default()),
                Arc::from(Vec::new()),
            ));
            let mut cite = Cite::new(Rc::clone(&page), 0);
            let mut out = Vec::new();
            for t in tokens {
                if cite.pass(&t) {
                    out.push(t);
                } else {
                    cite.push(t, &mut out);
                }
            }
            let flag = page.bodies.borrow().refs_in_links;
            page.release_renderers();
            flag
        };
        let reference = || {
            WikiToken::made(Tok::Ref(Box::new(RefTag {
                attrs: Vec::new(),
                name: None,
                group: None,
                body: None,
            })))
        };
        let (a, end_a) = (|| WikiToken::start(atom::A), || WikiToken::end(atom::A));
        assert!(!flagged(vec![a(), end_a(), reference()]));
        assert!(flagged(vec![a(), reference(), end_a()]));
        assert!(flagged(vec![a(), a(), end_a(), reference()]));
        // A table-scope tag inside a link: its `</a>` may not close it.
        assert!(flagged(vec![
            a(),
            WikiToken::start(atom::TD),
            end_a(),
            reference()
        ]));
        assert!(!flagged(vec![
            WikiToken::start(atom::TD),
            a(),
            end_a(),
            reference()
        ]));
    }

    /// [`is_plain`] as first written (a walk over the characters, then
    /// substring searches), which the byte walk must agree with.
    fn is_plain_by_chars(body: &str) -> bool {
        let mut prev = None;
        let plain_chars = body.char_indices().all(|(i, c)| {
            let ok = c.is_alphanumeric() && !('\u{E000}'..='\u{F8FF}').contains(&c)
                || matches!(c, ' ' | '.' | ',' | '-' | '(' | ')' | '/' | '"' | '\'')
                || ('\u{2010}'..='\u{2027}').contains(&c)
                || c == ':' && prev.is_some_and(char::is_alphanumeric) && !names_protocol(body, i);
            prev = Some(c);
            ok
        });
        plain_chars
            && !body.contains("''")
            && !["ISBN", "RFC", "PMID"].iter().any(|m| body.contains(m))
    }

    proptest::proptest! {
        #[test]
        fn plain_by_bytes_is_plain_by_chars(pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                "a", "Z", "7", " ", ".", ",", "-", "(", ")", "/", "\"", "'", "''", ":",
                "ISBN", "IS", "BN", "RFC", "PMID", "PM", "http", "news", "x:", "é", "Ü",
                "\u{2013}", "\u{2026}", "\u{a0}", "\u{E000}", "\u{7f}", ";", "[", "&",
                "×", "÷", "ł", "\u{24F}", "\u{250}", "\u{BF}",
                "\n", "日本", "\u{1F600}", "٣",
            ]),
            0..24,
        )) {
            let body: String = pieces.concat();
            proptest::prop_assert_eq!(is_plain(&body), is_plain_by_chars(&body), "{:?}", body);
        }
    }

    #[test]
    fn latin_letters_are_alphanumeric() {
        for c in '\u{80}'..='\u{2FF}' {
            if is_latin_letter(c) {
                assert!(c.is_alphanumeric(), "{c:?}");
            }
        }
        assert!(is_latin_letter('é') && is_latin_letter('ß') && is_latin_letter('ł'));
        assert!(!is_latin_letter('×') && !is_latin_letter('÷') && !is_latin_letter('a'));
    }

    #[test]
    fn plain_bodies_render_as_themselves() {
        for body in [
            "Smith, J. (2020) - A title/part 2",
            " leading and trailing ",
            "two  spaces",
            "Ünïcode wörds 42",
            "van Heijenoort 1967:81ff",
            "Title: a subtitle, pp. 153–154",
            "O'Brien, “Quoted” and \"straight\" — so…",
            "re: letters",
        ] {
            assert!(is_plain(body), "{body}");
            let page = Rc::new(Page::new(
                Arc::new(RenderOptions::default()),
                Arc::from(Vec::new()),
            ));
            let nodes = crate::render::render_inline(body, &page, 1);
            page.release_renderers();
            let mut html = String::new();
            crate::dom::serialize::serialize(&nodes, &mut html);
            assert_eq!(html, body);
        }
        for body in [
            "a : b",
            "ISBN 0123456789",
            "''x''",
            "a\nb",
            "x & y",
            "__TOC__",
            "''x'' and '''y'''",
            ":start",
            "see http://example.org/x",
            "mailto:someone",
            "see news:x",
            "a ; b",
            "x « y »",
            "x\u{a0}: y",
        ] {
            assert!(!is_plain(body), "{body}");
        }
    }
}
