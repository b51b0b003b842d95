//! Blocks: the translatable units, as runs of text and inline codes.
//!
//! A paragraph `<p>Click <a href="/x">here</a><br>now</p>` becomes one block of
//! content whose runs are `Text("Click ")`, `Open{1, "<a href=\"/x\">"}`,
//! `Text("here")`, `Close{1, "</a>"}`, `Placeholder{2, "<br>"}`, `Text("now")`.
//! Codes carry the raw markup (as decoded text) so the writer can put it back and
//! XLIFF can show it in `<originalData>`. A block also keeps its original source
//! bytes: a block that comes back unedited is written with exactly those.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

/// One piece of a block.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Run {
    /// Translatable text (whitespace collapsed unless the block preserves it, entities
    /// decoded).
    Text(String),
    /// The start of a paired code (an inline element's start tag).
    Open {
        /// Code id, shared with its [`Run::Close`].
        id: u32,
        /// The raw start tag.
        data: String,
    },
    /// The end of a paired code.
    Close {
        /// Code id, shared with its [`Run::Open`].
        id: u32,
        /// The raw end tag.
        data: String,
    },
    /// A standalone code: a void inline element, a comment, a protected subtree.
    Placeholder {
        /// Code id.
        id: u32,
        /// The raw markup.
        data: String,
    },
}

impl Run {
    /// The code id, for codes.
    pub fn code_id(&self) -> Option<u32> {
        match self {
            Run::Text(_) => None,
            Run::Open { id, .. } | Run::Close { id, .. } | Run::Placeholder { id, .. } => Some(*id),
        }
    }
}

/// Where a block sits in the document, which decides how its text is escaped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockKind {
    /// Element content (`<p>…</p>`, `<title>…</title>`).
    Content,
    /// An attribute value; `quote` is the original quote byte (`"`/`'`) or 0 when
    /// the value was unquoted.
    Attribute {
        /// The quote character or 0.
        quote: u8,
    },
}

/// Where an attribute sub-block's value sits inside a code's data.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SubRef {
    /// Index of the run (a code) holding the attribute.
    pub run: usize,
    /// Byte range of the value inside the run's data.
    pub start: usize,
    /// End of that range.
    pub end: usize,
}

/// A translatable unit.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Block {
    /// Stable id: derived from the element's `id` when it has one, else from its
    /// structural path; attribute blocks add `:attr`.
    pub id: String,
    /// Content or attribute.
    pub kind: BlockKind,
    /// The element name.
    pub element: String,
    /// The structural path (`html/body/div[2]/p[1]`), for translators.
    pub path: String,
    /// Notes: comments right before the block.
    pub notes: Vec<String>,
    /// Whitespace is significant (`pre`, `textarea`).
    pub preserve: bool,
    /// The source runs.
    pub runs: Vec<Run>,
    /// The original source bytes the block replaces.
    pub original: Vec<u8>,
    /// Attribute blocks of inline elements inside this block, with where their value
    /// sits (`subs[i]` is at `sub_refs[i]`).
    pub subs: Vec<Block>,
    /// Positions of the sub-blocks' values inside code data.
    pub sub_refs: Vec<SubRef>,
    /// Positions of `lang`/`xml:lang` values inside code data (retargeted when the
    /// block is written translated).
    pub lang_refs: Vec<SubRef>,
}

/// The quote (`"`, `'`, or 0) that `before` — the bytes up to an attribute value,
/// in `encoding` — ends with: the context a new value is escaped for (the
/// [`BlockKind::Attribute`] quote). The reader asks it of decoded text (UTF-8).
pub(crate) fn quote_ending(before: &[u8], encoding: &'static Encoding) -> u8 {
    let unit = if encoding == UTF_16LE {
        match before {
            [.., q, 0] => *q,
            _ => 0,
        }
    } else if encoding == UTF_16BE {
        match before {
            [.., 0, q] => *q,
            _ => 0,
        }
    } else {
        before.last().copied().unwrap_or(0)
    };
    match unit {
        b'"' | b'\'' => unit,
        _ => 0,
    }
}

#[cfg(test)]
impl Block {
    /// A `p` content block of one text run, for unit tests.
    pub(crate) fn paragraph(id: &str, text: &str) -> Block {
        Block {
            id: id.into(),
            kind: BlockKind::Content,
            element: "p".into(),
            path: String::new(),
            notes: vec![],
            preserve: false,
            runs: vec![Run::Text(text.into())],
            original: vec![],
            subs: vec![],
            sub_refs: vec![],
            lang_refs: vec![],
        }
    }
}

/// The text of runs, codes dropped.
pub fn runs_text(runs: &[Run]) -> String {
    runs.iter()
        .filter_map(|r| match r {
            Run::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

/// Buffers a block is built in ([`Block::attribute_in`]): empty, or reused
/// from a block that is done with (the reader's spare buffers).
#[derive(Default)]
pub(crate) struct Buffers {
    /// The element name (filled in).
    pub(crate) element: String,
    /// An empty string for the text.
    pub(crate) text: String,
    /// An empty run list.
    pub(crate) runs: Vec<Run>,
}

impl Block {
    /// An attribute block: the value `value` (trimmed, whitespace collapsed) of
    /// attribute `attr` of `element`, written between `quote`s (0: unquoted), whose
    /// source bytes are `original`.
    #[cfg(test)]
    pub(crate) fn attribute(
        id: String,
        element: &str,
        path: String,
        quote: u8,
        value: &str,
        original: Vec<u8>,
    ) -> Block {
        let buffers = Buffers {
            element: element.to_owned(),
            ..Buffers::default()
        };
        Block::attribute_in(buffers, id, path, quote, value, original)
    }

    /// [`Block::attribute`] built in `buffers` (empty ones, reused): the element
    /// name is `buffers.element`.
    pub(crate) fn attribute_in(
        buffers: Buffers,
        id: String,
        path: String,
        quote: u8,
        value: &str,
        original: Vec<u8>,
    ) -> Block {
        let Buffers {
            element,
            mut text,
            mut runs,
        } = buffers;
        crate::reader::collapse_ws_into(value.trim(), &mut text);
        runs.push(Run::Text(text));
        Block {
            id,
            kind: BlockKind::Attribute { quote },
            element,
            path,
            notes: Vec::new(),
            preserve: false,
            runs,
            original,
            subs: Vec::new(),
            sub_refs: Vec::new(),
            lang_refs: Vec::new(),
        }
    }

    /// The text runs concatenated (codes dropped).
    pub fn plain_text(&self) -> String {
        runs_text(&self.runs)
    }
}

/// The words of a block's text, as translation vendors count them
/// ([`crate::count`] has the rule). Paired codes do not split words (`<b>W</b>orld`
/// is one), standalone ones do.
pub fn words(runs: &[Run]) -> usize {
    let mut count = crate::count::WordCounter::default();
    for run in runs {
        match run {
            Run::Text(t) => count.feed(t),
            Run::Placeholder { .. } => count.gap(),
            Run::Open { .. } | Run::Close { .. } => {}
        }
    }
    count.finish()
}

/// Checks a translation's runs against the source's codes: every source code must
/// appear exactly once, a pair's close must follow its open, and pairs must nest.
/// Returns a description of the first problem.
pub fn check_codes(source: &[Run], target: &[Run]) -> Result<(), String> {
    // The source's codes by id, sorted, one per id (a pair's open and close are
    // one; of codes sharing an id the last one's kind counts). State: a pair 0
    // unseen, 1 open, 2 closed; a placeholder 0 unseen, 1 seen. A sorted vector,
    // not maps: blocks have few codes, and this runs for every translated one.
    struct Code {
        id: u32,
        placeholder: bool,
        state: u8,
    }
    let mut codes: Vec<Code> = Vec::new();
    for run in source.iter().rev() {
        let (id, placeholder) = match run {
            Run::Open { id, .. } | Run::Close { id, .. } => (*id, false),
            Run::Placeholder { id, .. } => (*id, true),
            Run::Text(_) => continue,
        };
        codes.push(Code {
            id,
            placeholder,
            state: 0,
        });
    }
    // Stable: of equal ids the one last in the source stays first, and is kept.
    codes.sort_by_key(|c| c.id);
    codes.dedup_by_key(|c| c.id);
    fn find(codes: &mut [Code], id: u32) -> Option<&mut Code> {
        let at = codes.binary_search_by_key(&id, |c| c.id).ok()?;
        codes.get_mut(at)
    }
    let mut stack: Vec<u32> = Vec::new();
    for run in target {
        match run {
            Run::Text(_) => {}
            Run::Open { id, .. } => {
                let Some(code) = find(&mut codes, *id).filter(|c| !c.placeholder) else {
                    return Err(format!("unknown paired code {id}"));
                };
                if code.state != 0 {
                    return Err(format!("code {id} duplicated"));
                }
                code.state = 1;
                stack.push(*id);
            }
            Run::Close { id, .. } => {
                match find(&mut codes, *id) {
                    Some(code) if !code.placeholder && code.state == 1 => code.state = 2,
                    Some(code) if !code.placeholder && code.state == 2 => {
                        return Err(format!("code {id} closed twice"));
                    }
                    _ => return Err(format!("code {id} closed before it is opened")),
                }
                if stack.last() != Some(id) {
                    return Err(format!("code {id} closes across another code"));
                }
                stack.pop();
            }
            Run::Placeholder { id, .. } => {
                let Some(code) = find(&mut codes, *id).filter(|c| c.placeholder) else {
                    return Err(format!("unknown placeholder {id}"));
                };
                if code.state != 0 {
                    return Err(format!("placeholder {id} duplicated"));
                }
                code.state = 1;
            }
        }
    }
    if let Some(id) = stack.last() {
        return Err(format!("code {id} is never closed"));
    }
    if let Some(code) = codes.iter().find(|c| c.state == 0) {
        return Err(format!("code {} is missing", code.id));
    }
    Ok(())
}

/// Runs for the crate's tests: `<b>` pairs and `<br>` placeholders.
#[cfg(test)]
pub(crate) mod test_runs {
    use super::Run;

    /// `<b>` opening the pair `id`.
    pub(crate) fn open(id: u32) -> Run {
        Run::Open {
            id,
            data: "<b>".into(),
        }
    }

    /// `</b>` closing the pair `id`.
    pub(crate) fn close(id: u32) -> Run {
        Run::Close {
            id,
            data: "</b>".into(),
        }
    }

    /// `<br>` as the placeholder `id`.
    pub(crate) fn ph(id: u32) -> Run {
        Run::Placeholder {
            id,
            data: "<br>".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_runs::{close, open, ph};
    use super::*;

    #[test]
    fn words_as_vendors_count_them() {
        let t = |s: &str| vec![Run::Text(s.into())];
        assert_eq!(words(&t("Hello, big world!")), 3);
        assert_eq!(words(&t("don't e-mail 3.5 - | \u{a0} ,")), 3);
        assert_eq!(words(&t("日本語のテキスト")), 8);
        assert_eq!(words(&t("Tokyo 東京")), 3);
        assert_eq!(words(&t("")), 0);
        let runs = [
            open(1),
            Run::Text("W".into()),
            close(1),
            Run::Text("orld".into()),
            ph(2),
            Run::Text("x".into()),
        ];
        assert_eq!(words(&runs), 2);
    }

    fn sample() -> Block {
        Block {
            id: "p-1".into(),
            kind: BlockKind::Content,
            element: "p".into(),
            path: "html/body/p[1]".into(),
            notes: vec!["note".into()],
            preserve: false,
            runs: vec![
                Run::Text("a ".into()),
                Run::Open {
                    id: 1,
                    data: "<a title=\"t\">".into(),
                },
                Run::Text("b".into()),
                Run::Close {
                    id: 1,
                    data: "</a>".into(),
                },
                Run::Placeholder {
                    id: 2,
                    data: "<br>".into(),
                },
            ],
            original: b"a <a title=\"t\">b</a><br>".to_vec(),
            subs: vec![Block {
                id: "p-1/a-1:title".into(),
                kind: BlockKind::Attribute { quote: b'"' },
                element: "a".into(),
                path: String::new(),
                notes: vec![],
                preserve: false,
                runs: vec![Run::Text("t".into())],
                original: b"t".to_vec(),
                subs: vec![],
                sub_refs: vec![],
                lang_refs: vec![],
            }],
            sub_refs: vec![SubRef {
                run: 1,
                start: 10,
                end: 11,
            }],
            lang_refs: vec![SubRef {
                run: 3,
                start: 0,
                end: 1,
            }],
        }
    }

    #[test]
    fn code_checks() {
        let src = sample().runs;
        assert!(check_codes(&src, &src).is_ok());
        let open = src[1].clone();
        let close = src[3].clone();
        let ph = src[4].clone();
        assert!(check_codes(&src, &[ph.clone(), close.clone(), open.clone()]).is_err());
        assert!(check_codes(&src, &[open.clone(), close.clone()]).is_err());
        assert!(check_codes(&src, &[open.clone(), close.clone(), ph.clone(), ph.clone()]).is_err());
        assert!(check_codes(&src, &[ph, open, close]).is_ok());
    }

    #[test]
    fn code_check_messages() {
        let err = |s: &[Run], t: &[Run]| check_codes(s, t).unwrap_err();
        let src = [open(1), close(1), ph(2)];
        assert_eq!(
            err(&src, &[ph(2), close(1), open(1)]),
            "code 1 closed before it is opened"
        );
        assert_eq!(err(&src, &[open(1), close(1)]), "code 2 is missing");
        let twice = [open(1), close(1), ph(2), ph(2)];
        assert_eq!(err(&src, &twice), "placeholder 2 duplicated");
        assert_eq!(err(&src, &[open(1), open(1)]), "code 1 duplicated");
        let closed = [open(1), close(1), close(1)];
        assert_eq!(err(&src, &closed), "code 1 closed twice");
        assert_eq!(err(&src, &[open(5)]), "unknown paired code 5");
        assert_eq!(err(&src, &[ph(1)]), "unknown placeholder 1");
        assert_eq!(err(&src, &[close(2)]), "code 2 closed before it is opened");
        assert_eq!(err(&src, &[open(1), ph(2)]), "code 1 is never closed");
        let nested = [open(1), open(3), close(3), close(1)];
        let across = [open(1), open(3), close(1)];
        assert_eq!(err(&nested, &across), "code 1 closes across another code");
        // An id shared by a pair and a placeholder: the last one's kind counts.
        let shared = [open(1), close(1), ph(1)];
        assert!(check_codes(&shared, &[ph(1)]).is_ok());
        assert_eq!(err(&shared, &[open(1)]), "unknown paired code 1");
        assert_eq!(err(&[ph(7), ph(3)], &[]), "code 3 is missing");
        assert!(check_codes(&[], &[]).is_ok());
    }
}
