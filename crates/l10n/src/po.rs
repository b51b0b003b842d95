//! PO (gettext) export and import.
//!
//! One entry per block: `msgctxt` is the block id (unique, so identical texts stay
//! separate entries), `#:` the structural path, `#.` the notes and the raw markup of
//! each inline code. Codes appear in `msgid` as numbered markers — `<1>…</1>` for a
//! paired code, `<2/>` for a standalone one — which the translator keeps in place:
//!
//! ```text
//! #. code 1: <a href="/x">
//! #: html/body/p[2]
//! msgctxt "p-2"
//! msgid "Click <1>here</1>"
//! msgstr "Cliquez <1>ici</1>"
//! ```
//!
//! Text that looks like a marker is escaped (`\<1>`), and every unescaped marker in
//! a `msgstr` is a code: one the block does not have is reported, never written as
//! text (the syntax, and how older files are read: `po/markers.rs`). The header entry is
//! complete and overridable ([`PoHeader`]).
//!
//! A translation is merged only where the page's block still has the entry's
//! source: the same `msgid` (text and markers) and the same markup for each code (the
//! last `#. code N:` comment; extracted comments are kept by `msgmerge` and PO
//! editors). Anything else is reported, as are translated entries the page does not
//! have; `#, fuzzy` entries are skipped, as by gettext, unless asked for
//! ([`PoTranslations::include_fuzzy`]). The `Language:` header
//! may use gettext's `ll_CC` form (read as the BCP 47 `ll-CC`).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use crate::block::{Block, Run};
use crate::error::{L10nError, Result};
use crate::lang::LanguageTag;
use crate::matching::{SourceIndex, runs_key, text_key};
use crate::reader::BlockSink;
use crate::segment::{Segmenter, is_sentence};
use crate::update::Carried;
use crate::writer::{Issue, IssueKind, Translations, with_units_not_in_page};

mod header;
mod markers;
mod sentences;

pub use header::{PoHeader, plural_forms};
pub(crate) use markers::legacy_text_to_runs;
use markers::{Syntax, stray_codes, syntax_of};
pub use markers::{runs_to_text, text_to_runs};

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn unquote(s: &str) -> Option<String> {
    let inner = s.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Streams blocks into a PO file.
pub struct PoWriter<W: Write> {
    out: W,
    entries: usize,
    segmenter: Option<Segmenter>,
}

impl<W: Write> PoWriter<W> {
    /// Writes the default header entry ([`PoHeader::new`]).
    pub fn new(
        out: W,
        source_lang: &LanguageTag,
        target_lang: Option<&LanguageTag>,
        original: &str,
    ) -> std::io::Result<Self> {
        let header = PoHeader::new(source_lang, target_lang, original);
        Self::with_header(out, &header, original)
    }

    /// Writes `header` as the header entry (a comment naming `original` first).
    pub fn with_header(mut out: W, header: &PoHeader, original: &str) -> std::io::Result<Self> {
        let mut head = format!(
            "# Translations of {}\n",
            original.replace(['\n', '\r'], " ")
        );
        head.push_str("msgid \"\"\nmsgstr \"\"\n");
        for line in header.msgstr().split_inclusive('\n') {
            head.push_str(&quote(line));
            head.push('\n');
        }
        out.write_all(head.as_bytes())?;
        Ok(PoWriter {
            out,
            entries: 0,
            segmenter: None,
        })
    }

    fn entry(&mut self, block: &Block) -> std::io::Result<()> {
        if let Some((_, sentences)) = self
            .segmenter
            .as_ref()
            .and_then(|s| s.sentence_blocks(block))
        {
            return sentences.iter().try_for_each(|b| self.entry_with(b, None));
        }
        self.entry_with(block, None)
    }

    /// Cuts units into sentences with `segmenter`, one entry each
    /// ([`crate::segment`]; `None`: one entry per unit).
    pub fn segmented(mut self, segmenter: Option<Segmenter>) -> Self {
        self.segmenter = segmenter;
        self
    }

    /// Writes one entry (not its sub-blocks) with what `update` carried over: an
    /// exact match's `msgstr`, or a near match's old translation flagged
    /// `#, fuzzy` with the old source as `#| msgid` (gettext's previous msgid).
    pub(crate) fn entry_with(
        &mut self,
        block: &Block,
        carried: Option<&Carried>,
    ) -> std::io::Result<()> {
        let mut s = String::from("\n");
        for note in &block.notes {
            for line in note.lines() {
                s.push_str(&format!("#. {line}\n"));
            }
        }
        for run in &block.runs {
            if let Run::Open { id, data } | Run::Placeholder { id, data } = run {
                s.push_str(&format!("#. {}\n", code_comment(*id, data)));
            }
        }
        s.push_str(&format!("#: {}\n", block.path.replace(' ', "_")));
        let fuzzy = carried.and_then(|c| c.fuzzy.as_ref());
        let msgstr = match (carried, fuzzy) {
            (_, Some(f)) => f.old_target.clone().unwrap_or_default(),
            (Some(c), None) => c.target.as_ref().map(|t| t.text()).unwrap_or_default(),
            (None, None) => String::new(),
        };
        if fuzzy.is_some() || carried.is_some_and(|c| c.unconfirmed) && !msgstr.is_empty() {
            s.push_str("#, fuzzy\n");
        }
        if let Some(f) = fuzzy {
            s.push_str(&format!("#| msgid {}\n", quote(&f.old_source)));
        }
        s.push_str(&format!("msgctxt {}\n", quote(&block.id)));
        s.push_str(&format!("msgid {}\n", quote(&runs_to_text(&block.runs))));
        s.push_str(&format!("msgstr {}\n", quote(&msgstr)));
        self.entries += 1;
        self.out.write_all(s.as_bytes())
    }

    /// Entries written.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Flushes and returns the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> BlockSink for PoWriter<W> {
    fn block(&mut self, block: &Block) -> Result<()> {
        let mut r = self.entry(block);
        for sub in &block.subs {
            if r.is_ok() {
                r = self.entry(sub);
            }
        }
        r.map_err(|e| L10nError::io("writing PO", e))
    }
}

/// One PO entry: context, msgid, msgstr, and what the comments before it say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoEntry {
    /// `msgctxt`.
    pub context: Option<String>,
    /// `msgid`.
    pub id: String,
    /// `msgstr` (or `msgstr[0]`).
    pub target: String,
    /// The extracted comments (`#.` lines, without the `#. `): notes and code markup.
    pub extracted: Vec<String>,
    /// Flagged `#, fuzzy` (gettext does not use such a translation; nor does merge).
    pub fuzzy: bool,
}

/// A streaming PO reader.
pub struct PoReader {
    lines: std::io::Lines<BufReader<File>>,
    path: PathBuf,
    line: usize,
    peeked: Option<String>,
}

impl PoReader {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path)
            .map_err(|e| L10nError::io(format!("opening {}", path.display()), e))?;
        Ok(PoReader {
            lines: BufReader::new(file).lines(),
            path: path.to_path_buf(),
            line: 0,
            peeked: None,
        })
    }

    fn err(&self, message: impl Into<String>) -> L10nError {
        L10nError::Po {
            path: self.path.clone(),
            line: self.line,
            message: message.into(),
        }
    }

    fn next_line(&mut self) -> Result<Option<String>> {
        if let Some(l) = self.peeked.take() {
            self.line += 1;
            return Ok(Some(l));
        }
        match self.lines.next() {
            None => Ok(None),
            Some(Ok(l)) => {
                self.line += 1;
                Ok(Some(l))
            }
            Some(Err(e)) => Err(self.err(e.to_string())),
        }
    }

    fn push_back(&mut self, line: String) {
        self.peeked = Some(line);
        self.line -= 1;
    }

    /// The next entry (the header entry included); `None` at the end.
    pub fn next_entry(&mut self) -> Result<Option<PoEntry>> {
        let mut entry = PoEntry::default();
        let mut field: Option<u8> = None; // 0 ctx, 1 id, 2 str, 3 ignored
        let mut seen_id = false;
        while let Some(line) = self.next_line()? {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                if seen_id && matches!(field, Some(2) | Some(3)) {
                    // The comments of the next entry.
                    self.push_back(line);
                    return Ok(Some(entry));
                }
                if let Some(c) = t.strip_prefix("#.") {
                    entry
                        .extracted
                        .push(c.strip_prefix(' ').unwrap_or(c).to_string());
                } else if let Some(flags) = t.strip_prefix("#,") {
                    entry.fuzzy |= flags.split(',').any(|f| f.trim() == "fuzzy");
                }
                continue;
            }
            let (kw, rest) = if t.starts_with('"') {
                ("", t)
            } else {
                t.split_once(char::is_whitespace).unwrap_or((t, ""))
            };
            if matches!(kw, "msgctxt" | "msgid") && seen_id && matches!(field, Some(2) | Some(3)) {
                self.push_back(line);
                return Ok(Some(entry));
            }
            let value = unquote(rest).ok_or_else(|| self.err(format!("bad string {rest:?}")))?;
            match kw {
                "" => match field {
                    Some(0) => entry
                        .context
                        .get_or_insert_with(String::new)
                        .push_str(&value),
                    Some(1) => entry.id.push_str(&value),
                    Some(2) => entry.target.push_str(&value),
                    Some(_) => {}
                    None => return Err(self.err("string outside an entry")),
                },
                "msgctxt" => {
                    entry.context = Some(value);
                    field = Some(0);
                }
                "msgid" => {
                    entry.id = value;
                    seen_id = true;
                    field = Some(1);
                }
                "msgid_plural" => field = Some(3),
                "msgstr" | "msgstr[0]" => {
                    entry.target = value;
                    field = Some(2);
                }
                k if k.starts_with("msgstr[") => field = Some(3),
                other => return Err(self.err(format!("unknown keyword {other:?}"))),
            }
        }
        if seen_id {
            Ok(Some(entry))
        } else if field.is_some() {
            Err(self.err("entry without msgid"))
        } else {
            Ok(None)
        }
    }
}

/// The code comment [`PoWriter`] writes for a code's markup (`code 1: <a href="/x">`),
/// line breaks as spaces.
fn code_comment(id: u32, data: &str) -> String {
    let data = data.replace(['\n', '\r'], " ");
    format!("code {id}: {}", data.trim_end())
}

/// How an entry's source differs from the page block (`None`: the same, in either
/// marker syntax); see [`source_syntax`].
pub(crate) fn source_difference(entry: &PoEntry, block: &Block) -> Option<String> {
    source_syntax(entry, block).err()
}

/// Whether an entry's source is the page block's, and in which marker syntax (`Err`:
/// how it differs): its `msgid` (text and code markers) and the markup of each code,
/// from the last `#. code N:` comment of that code.
fn source_syntax(entry: &PoEntry, block: &Block) -> std::result::Result<Syntax, String> {
    let syntax = syntax_of(&entry.id, &block.runs)?;
    for run in &block.runs {
        if let Run::Open { id, data } | Run::Placeholder { id, data } = run {
            let prefix = format!("code {id}:");
            let found = entry
                .extracted
                .iter()
                .rev()
                .find(|c| c.starts_with(&prefix))
                .map(|c| c.trim_end());
            if found != Some(code_comment(*id, data).as_str()) {
                return Err(format!("the markup of code {id} differs"));
            }
        }
    }
    Ok(syntax)
}

/// The target runs of a matching entry; `Err` with why its codes cannot apply: a
/// malformed marker, or codes the block does not have (stray).
fn target_runs(
    entry: &PoEntry,
    block: &Block,
    syntax: Syntax,
) -> std::result::Result<Vec<Run>, String> {
    let runs = match syntax {
        Syntax::Current => text_to_runs(&entry.target)?,
        Syntax::Legacy => legacy_text_to_runs(&entry.target, &block.runs),
    };
    let stray = stray_codes(&block.runs, &runs);
    if stray.is_empty() {
        return Ok(runs);
    }
    Err(format!(
        "stray code {}: not in the source; a literal `<` before a number is written `\\<`",
        stray.join(" ")
    ))
}

/// Translations read from a PO file, streaming, matched to blocks by `msgctxt`
/// (a context the page does not have: by `msgid` among the entries left); a
/// translation is applied only where the block still has the entry's source
/// (`msgid` and code markup), and fuzzy entries count as untranslated.
pub struct PoTranslations {
    reader: PoReader,
    pending: HashMap<String, PoEntry>,
    /// The entries left once the whole file is read, by `msgid`: for contexts the
    /// page does not have (files made before content ids).
    by_source: Option<SourceIndex>,
    done: bool,
    /// Whether any entry has a confirmed translation, and whether any a fuzzy one.
    any_target: (bool, bool),
    include_fuzzy: bool,
    skipped: usize,
    issues: Vec<Issue>,
    /// `Language:` of the header.
    pub language: Option<LanguageTag>,
    /// `X-Source-Language:` of the header.
    pub source_language: Option<LanguageTag>,
}

fn is_header(e: &PoEntry) -> bool {
    e.id.is_empty() && e.context.is_none()
}

fn has_target(e: &PoEntry) -> bool {
    !e.target.is_empty()
}

impl PoTranslations {
    /// Opens `path` (a first pass checks it and reads the header).
    pub fn open(path: &Path) -> Result<Self> {
        let mut scan = PoReader::open(path)?;
        let mut any = (false, false);
        let mut language = None;
        let mut source_language = None;
        while let Some(e) = scan.next_entry()? {
            if is_header(&e) {
                let field = |name: &str| -> Result<Option<LanguageTag>> {
                    let value = e
                        .target
                        .lines()
                        .find_map(|l| l.strip_prefix(name))
                        .map(str::trim)
                        .filter(|l| !l.is_empty());
                    value
                        .map(|v| {
                            LanguageTag::from_gettext(v).map_err(|source| L10nError::Language {
                                context: format!("{}: {name}", path.display()),
                                source,
                            })
                        })
                        .transpose()
                };
                language = field("Language:")?;
                source_language = field("X-Source-Language:")?;
            } else {
                any.0 |= has_target(&e) && !e.fuzzy;
                any.1 |= has_target(&e) && e.fuzzy;
            }
        }
        Ok(PoTranslations {
            reader: PoReader::open(path)?,
            pending: HashMap::new(),
            by_source: None,
            done: false,
            any_target: any,
            include_fuzzy: false,
            skipped: 0,
            issues: Vec::new(),
            language,
            source_language,
        })
    }

    /// Whether `#, fuzzy` translations are merged too (`--include-fuzzy`); by default
    /// they count as untranslated, as for gettext, and are counted in
    /// [`Translations::unconfirmed`].
    pub fn include_fuzzy(mut self, include: bool) -> Self {
        self.include_fuzzy = include;
        self
    }

    fn usable(&self, e: &PoEntry) -> bool {
        has_target(e) && (self.include_fuzzy || !e.fuzzy)
    }

    /// The entry of unit `id`, or the first sentence of it when it was segmented
    /// (`id#s1`).
    fn take(&mut self, id: &str) -> Result<Option<PoEntry>> {
        if let Some(t) = self.pending.remove(id) {
            return Ok(Some(t));
        }
        let first = crate::segment::sentence_id(id, 1);
        if let Some(t) = self.pending.remove(&first) {
            return Ok(Some(t));
        }
        while !self.done {
            match self.reader.next_entry()? {
                Some(e) if is_header(&e) => {}
                Some(e) => {
                    let ctx = e.context.clone().unwrap_or_default();
                    if ctx == id || is_sentence(&ctx, id, 1) {
                        return Ok(Some(e));
                    }
                    self.pending.insert(ctx, e);
                }
                None => self.done = true,
            }
        }
        Ok(None)
    }

    /// An entry left unclaimed with exactly the block's source (called once the
    /// whole file is read: a context the page does not have).
    fn take_by_source(&mut self, block: &Block) -> Option<PoEntry> {
        let pending = &mut self.pending;
        let index = self.by_source.get_or_insert_with(|| {
            SourceIndex::new(pending.iter().map(|(id, e)| (id, text_key(&e.id))))
        });
        let id = index.ids(runs_key(&block.runs)).iter().find(|id| {
            pending
                .get(*id)
                .is_some_and(|e| source_difference(e, block).is_none())
        })?;
        pending.remove(id)
    }
}

impl Translations for PoTranslations {
    fn target(&mut self, block: &Block) -> Result<Option<Vec<Run>>> {
        let found = match self.take(&block.id)? {
            Some(entry) => Some(entry),
            None => self.take_by_source(block),
        };
        let Some(entry) = found else {
            if self.any_translated() {
                self.issues
                    .push(Issue::new(&block.id, IssueKind::NotInFile, ""));
            }
            return Ok(None);
        };
        if entry
            .context
            .as_deref()
            .is_some_and(|c| is_sentence(c, &block.id, 1))
        {
            return self.sentences_target(block, entry);
        }
        if !self.usable(&entry) {
            self.skipped += usize::from(has_target(&entry));
            return Ok(None);
        }
        let syntax = match source_syntax(&entry, block) {
            Ok(syntax) => syntax,
            Err(why) => {
                self.issues
                    .push(Issue::new(&block.id, IssueKind::SourceChanged, why));
                return Ok(None);
            }
        };
        match target_runs(&entry, block, syntax) {
            Ok(runs) => Ok(Some(runs)),
            Err(why) => {
                self.issues
                    .push(Issue::new(&block.id, IssueKind::Codes, why));
                Ok(None)
            }
        }
    }

    fn finish(&mut self) -> Result<Vec<Issue>> {
        while !self.done {
            match self.reader.next_entry()? {
                Some(e) if is_header(&e) => {}
                Some(e) => {
                    self.pending
                        .insert(e.context.clone().unwrap_or_default(), e);
                }
                None => self.done = true,
            }
        }
        let include = self.include_fuzzy;
        let left = self
            .pending
            .drain()
            .filter(|(_, e)| has_target(e) && (include || !e.fuzzy))
            // The sentences of one unit left over are one unit not in the page.
            .map(|(id, _)| crate::segment::unit_of(&id).to_string())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter();
        Ok(with_units_not_in_page(
            std::mem::take(&mut self.issues),
            left,
        ))
    }

    fn any_translated(&self) -> bool {
        self.any_target.0 || (self.include_fuzzy && self.any_target.1)
    }

    fn unconfirmed(&self) -> usize {
        self.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip() {
        let src = vec![
            Run::Text("a ".into()),
            Run::Open {
                id: 1,
                data: "<b>".into(),
            },
            Run::Text("b".into()),
            Run::Close {
                id: 1,
                data: "</b>".into(),
            },
            Run::Placeholder {
                id: 2,
                data: "<br>".into(),
            },
            Run::Text(" <3> x<y".into()),
        ];
        let text = runs_to_text(&src);
        assert_eq!(text, "a <1>b</1><2/> \\<3> x<y");
        let back = text_to_runs(&text).unwrap();
        assert_eq!(runs_to_text(&back), text);
        assert_eq!(back.len(), 6);
        assert_eq!(unquote(&quote("a\"\\\n")).unwrap(), "a\"\\\n");
    }

    #[test]
    fn entries_keep_their_own_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.po");
        std::fs::write(
            &path,
            "msgid \"\"\nmsgstr \"Language: pt_BR\\n\"\n\n\
             #. a note\n#. code 1: <b>\nmsgctxt \"p-1\"\nmsgid \"<1>x</1>\"\nmsgstr \"<1>y</1>\"\n\
             #. code 1: <i>\n#, c-format, fuzzy\nmsgctxt \"p-2\"\nmsgid \"\"\n\"<1>z</1>\"\nmsgstr \"w\"\n",
        )
        .unwrap();
        let mut r = PoReader::open(&path).unwrap();
        let header = r.next_entry().unwrap().unwrap();
        assert!(header.id.is_empty() && header.extracted.is_empty());
        let one = r.next_entry().unwrap().unwrap();
        assert_eq!(one.extracted, ["a note", "code 1: <b>"]);
        assert!(!one.fuzzy);
        let two = r.next_entry().unwrap().unwrap();
        assert_eq!(two.extracted, ["code 1: <i>"]);
        assert_eq!(two.id, "<1>z</1>");
        assert!(two.fuzzy);
        assert_eq!(r.next_entry().unwrap(), None);
        let t = PoTranslations::open(&path).unwrap();
        assert_eq!(t.language.as_ref().map(LanguageTag::as_str), Some("pt-BR"));
        assert!(t.any_target == (true, true));
        // The code markup is compared with the last `code N:` comment.
        let block = Block {
            id: "p-1".into(),
            kind: crate::block::BlockKind::Content,
            element: "p".into(),
            path: String::new(),
            notes: vec![],
            preserve: false,
            runs: vec![
                Run::Open {
                    id: 1,
                    data: "<b>".into(),
                },
                Run::Text("x".into()),
                Run::Close {
                    id: 1,
                    data: "</b>".into(),
                },
            ],
            original: vec![],
            subs: vec![],
            sub_refs: vec![],
            lang_refs: vec![],
        };
        assert_eq!(source_syntax(&one, &block), Ok(Syntax::Current));
        let mut forged = one.clone();
        forged.extracted.push("code 1: <script>".into());
        assert!(source_syntax(&forged, &block).is_err());
        let mut other = one;
        other.id = "<1>x</1>!".into();
        assert_eq!(
            source_syntax(&other, &block),
            Err("the msgid differs".into())
        );
    }

    #[test]
    fn fuzzy_entries_apply_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.po");
        std::fs::write(
            &path,
            "msgid \"\"\nmsgstr \"Language: fr\\n\"\n\n\
             #, fuzzy\nmsgctxt \"p-1\"\nmsgid \"One\"\nmsgstr \"Un\"\n\n\
             msgctxt \"p-2\"\nmsgid \"Two\"\nmsgstr \"Deux\"\n\n\
             #, fuzzy\nmsgctxt \"p-3\"\nmsgid \"Three\"\nmsgstr \"\"\n",
        )
        .unwrap();
        let block = Block::paragraph;
        for include in [false, true] {
            let mut t = PoTranslations::open(&path).unwrap().include_fuzzy(include);
            let got: Vec<bool> = [("p-1", "One"), ("p-2", "Two"), ("p-3", "Three")]
                .iter()
                .map(|(id, text)| t.target(&block(id, text)).unwrap().is_some())
                .collect();
            assert_eq!(got, [include, true, false]);
            assert_eq!(
                t.unconfirmed(),
                usize::from(!include),
                "an empty fuzzy is untranslated"
            );
            assert!(t.finish().unwrap().is_empty());
        }
    }

    #[test]
    fn old_marker_syntax_is_read_where_unambiguous() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.po");
        // Written before the escape: `<3>` is text (the block has no code 3).
        std::fs::write(
            &path,
            "msgid \"\"\nmsgstr \"Language: fr\\n\"\n\n\
             #. code 1: <b>\nmsgctxt \"p-1\"\nmsgid \"a <3> <1>b</1>\"\nmsgstr \"A <3> <1>B</1>\"\n",
        )
        .unwrap();
        let runs = vec![
            Run::Text("a <3> ".into()),
            Run::Open {
                id: 1,
                data: "<b>".into(),
            },
            Run::Text("b".into()),
            Run::Close {
                id: 1,
                data: "</b>".into(),
            },
        ];
        let block = Block {
            id: "p-1".into(),
            kind: crate::block::BlockKind::Content,
            element: "p".into(),
            path: String::new(),
            notes: vec![],
            preserve: false,
            runs,
            original: vec![],
            subs: vec![],
            sub_refs: vec![],
            lang_refs: vec![],
        };
        let mut t = PoTranslations::open(&path).unwrap();
        let target = t.target(&block).unwrap().unwrap();
        assert_eq!(target[0], Run::Text("A <3> ".into()));
        assert!(t.finish().unwrap().is_empty());
    }
}
