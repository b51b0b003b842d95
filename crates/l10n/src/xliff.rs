//! XLIFF 2.1 (core) export and import.
//!
//! Export ([`XliffWriter`]) streams one `<unit>` per block: its id, its structural
//! path as `name`, comments before it as `<note>`s, the raw markup of its inline
//! codes in `<originalData>`, and a `<source>` where paired codes are `<pc>` and
//! standalone codes `<ph>`:
//!
//! ```xml
//! <unit id="p-2" name="html/body/p[2]">
//!   <originalData><data id="d1">&lt;b&gt;</data><data id="d2">&lt;/b&gt;</data></originalData>
//!   <segment><source>Hello <pc id="1" dataRefStart="d1" dataRefEnd="d2">world</pc></source></segment>
//! </unit>
//! ```
//!
//! Import ([`XliffTranslations`]) streams the units back in order (out-of-order units
//! are buffered until asked for) and turns each `<source>` and `<target>` into runs:
//! `<pc>`, `<sc>`/`<ec>` and `<ph>` become codes by id, `<cp hex>` a character, other
//! inline markup (`<mrk>`, `<sm>`, `<em>`) is dropped keeping its text. The source's
//! codes get their markup back from `<originalData>`.
//!
//! A target is applied only where the page's block still has the unit's source —
//! the same text and the same codes with the same original markup
//! ([`source_difference`]): an id can name another block (an old file with
//! structural ids, `…body-1.p-3`; an element id moved to other text). A unit
//! whose id the page does not have is looked up by its source among the units
//! left once the file is read ([`crate::matching`]). Every
//! translation not applied is returned as an [`Issue`] by `finish`: source changed,
//! a translated unit the page does not have, a page block the file has no unit for.
//! The codes written are always the page's: a file's `<originalData>` is only
//! compared, never written.
//!
//! With sentence segmentation a unit holds a `<segment id="sN">` per sentence and
//! `<ignorable>`s between them (`xliff/segments.rs`, [`crate::segment`]).

use std::io::Write;
use std::path::Path;

use crate::block::{Block, Run};
use crate::error::{L10nError, Result};
use crate::ids::push_decimal;
use crate::import::{AnyTarget, Entry, Importer};
use crate::lang::LanguageTag;
use crate::matching::runs_key;
use crate::reader::BlockSink;
use crate::segment::Segmenter;
use crate::update::{Carried, Fuzzy};
use crate::writer::{Issue, IssueKind, Translations};

mod fast;
#[cfg(test)]
mod fast_tests;
mod fast_xml;
mod notes;
mod pool;
mod read;
mod read_ahead;
mod segments;
pub use notes::Suggestion;
use read::push_text;
pub use read::{Unit, XliffHeader, XliffReader};
use read_ahead::{Ahead, Units};
pub use segments::UnitSegment;

/// XLIFF 2.x core namespace (2.1 keeps the 2.0 namespace).
pub const XLIFF_NS: &str = "urn:oasis:names:tc:xliff:document:2.0";

/// What escaped text goes into: element content that may hold inline markup
/// (`<source>`, `<target>`, `<data>`), an attribute value, or a `<note>`
/// (text only).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Escape {
    Text,
    Attr,
    Note,
}

/// Escapes for XML text and attribute values; characters XML 1.0 cannot hold become
/// `<cp hex>` in text (`in_attr` replaces them with U+FFFD: attributes cannot carry `<cp>`).
fn xml_escape(s: &str, in_attr: bool, out: &mut String) {
    escape(s, if in_attr { Escape::Attr } else { Escape::Text }, out);
}

/// [`SPECIAL`] bit: the byte may need escaping in text and notes.
const SPECIAL_IN_TEXT: u8 = 1;
/// [`SPECIAL`] bit: the byte may need escaping in an attribute value.
const SPECIAL_IN_ATTR: u8 = 2;

/// Per byte, where [`escape`] must look at it: `&<>`, controls (tab and line
/// feed only in attributes), `"` in attributes, and 0xEF, the lead byte of
/// U+FFFE/U+FFFF. Everything else is copied as is.
const SPECIAL: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = if b == 0x09 || b == 0x0A {
            SPECIAL_IN_ATTR
        } else {
            SPECIAL_IN_TEXT | SPECIAL_IN_ATTR
        };
        b += 1;
    }
    table[b'&' as usize] = SPECIAL_IN_TEXT | SPECIAL_IN_ATTR;
    table[b'<' as usize] = SPECIAL_IN_TEXT | SPECIAL_IN_ATTR;
    table[b'>' as usize] = SPECIAL_IN_TEXT | SPECIAL_IN_ATTR;
    table[0xEF] = SPECIAL_IN_TEXT | SPECIAL_IN_ATTR;
    table[b'"' as usize] = SPECIAL_IN_ATTR;
    table
};

/// Escapes `s` for `mode`: characters XML 1.0 cannot hold become `<cp hex>` in
/// [`Escape::Text`], U+FFFD elsewhere (attributes and notes cannot carry `<cp>`).
fn escape(s: &str, mode: Escape, out: &mut String) {
    // Fast path: copy runs of bytes that never need escaping (printable ASCII and
    // UTF-8 sequences that cannot be U+FFFE/U+FFFF, which start with 0xEF).
    let mask = if mode == Escape::Attr {
        SPECIAL_IN_ATTR
    } else {
        SPECIAL_IN_TEXT
    };
    let bytes = s.as_bytes();
    out.reserve(bytes.len());
    let mut start = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if SPECIAL[usize::from(b)] & mask == 0 {
            i += 1;
            continue;
        }
        out.push_str(&s[start..i]);
        let c = s[i..].chars().next().unwrap_or('\u{FFFD}');
        escape_char(c, mode, out);
        i += c.len_utf8();
        start = i;
    }
    out.push_str(&s[start..]);
}

fn escape_char(c: char, mode: Escape, out: &mut String) {
    let in_attr = mode == Escape::Attr;
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' if in_attr => out.push_str("&quot;"),
        '\t' | '\n' | '\r' if in_attr => out.push_str(&format!("&#{};", c as u32)),
        '\r' => out.push_str("&#13;"),
        c if !is_xml_char(c) => {
            if mode == Escape::Text {
                out.push_str(&format!("<cp hex=\"{:04X}\"/>", c as u32));
            } else {
                out.push('\u{FFFD}');
            }
        }
        c => out.push(c),
    }
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The units [`XliffWriter`] collects before writing them out.
const PENDING_BYTES: usize = 64 * 1024;

/// Streams blocks into an XLIFF 2.1 document.
pub struct XliffWriter<W: Write> {
    out: W,
    /// Units written but not yet handed to `out`, reused: one allocation for
    /// the whole file, and `out` gets large writes (a `BufWriter` passes them
    /// through without copying them into its own buffer).
    pending: String,
    error: Option<std::io::Error>,
    units: usize,
    segmenter: Option<Segmenter>,
}

impl<W: Write> XliffWriter<W> {
    /// Writes the header: `<xliff version="2.1" srcLang trgLang><file original>`.
    pub fn new(
        mut out: W,
        source_lang: &LanguageTag,
        target_lang: Option<&LanguageTag>,
        original: &str,
    ) -> std::io::Result<Self> {
        let mut head = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        head.push_str(&format!(
            "<xliff xmlns=\"{XLIFF_NS}\" version=\"2.1\" srcLang=\""
        ));
        xml_escape(source_lang, true, &mut head);
        head.push('"');
        if let Some(t) = target_lang {
            head.push_str(" trgLang=\"");
            xml_escape(t, true, &mut head);
            head.push('"');
        }
        head.push_str(">\n <file id=\"f1\" original=\"");
        xml_escape(original, true, &mut head);
        head.push_str("\" xml:space=\"preserve\">\n");
        out.write_all(head.as_bytes())?;
        Ok(XliffWriter {
            out,
            pending: String::with_capacity(PENDING_BYTES + 4096),
            error: None,
            units: 0,
            segmenter: None,
        })
    }

    /// Units written.
    pub fn units(&self) -> usize {
        self.units
    }

    /// The buffer a unit is appended to (hand it back with [`XliffWriter::emit`]).
    pub(crate) fn take_pending(&mut self) -> String {
        std::mem::take(&mut self.pending)
    }

    /// Keeps `s` (the buffer of `take_pending` with a unit appended), writing it
    /// out once it holds [`PENDING_BYTES`].
    pub(crate) fn emit(&mut self, mut s: String) -> std::io::Result<()> {
        self.units += 1;
        if s.len() >= PENDING_BYTES {
            let written = self.out.write_all(s.as_bytes());
            s.clear();
            self.pending = s;
            return written;
        }
        self.pending = s;
        Ok(())
    }

    fn unit(&mut self, block: &Block) -> std::io::Result<()> {
        if let Some(seg) = &self.segmenter {
            let pieces = seg.split(&block.runs);
            if pieces.len() > 1 {
                return self.unit_sentences(block, &pieces, &[]);
            }
        }
        self.unit_with(block, None)
    }

    /// Cuts units into sentences with `segmenter` ([`crate::segment`]; `None`: one
    /// segment per unit).
    pub fn segmented(mut self, segmenter: Option<Segmenter>) -> Self {
        self.segmenter = segmenter;
        self
    }

    /// Writes one unit (not its sub-blocks) with what `update` carried over: an
    /// exact match's target (`state="translated"`), or, for a near match, the old
    /// source and target as notes and `state="initial"` (a near match is never
    /// merged: the translator confirms it, by giving the segment another state).
    pub(crate) fn unit_with(
        &mut self,
        block: &Block,
        carried: Option<&Carried>,
    ) -> std::io::Result<()> {
        let mut s = self.take_pending();
        let fuzzy = carried.and_then(|c| c.fuzzy.as_ref());
        unit_head(block, fuzzy.map(|f| ("", f)).as_slice(), &mut s);
        // A near match has no target unless a later update kept a draft beside
        // its suggestion.
        let target = carried
            .and_then(|c| c.target.as_ref())
            .map(|t| t.runs(&block.runs));
        s.push_str(match (&target, fuzzy) {
            (_, Some(_)) => "   <segment state=\"initial\"><source>",
            (Some(_), None) if carried.is_some_and(|c| c.unconfirmed) => {
                "   <segment state=\"initial\"><source>"
            }
            (Some(_), None) => "   <segment state=\"translated\"><source>",
            (None, None) => "   <segment><source>",
        });
        write_runs(&block.runs, Some(&block.runs), &mut s);
        s.push_str("</source>");
        if let Some(t) = &target {
            s.push_str("<target>");
            write_runs(t, Some(&block.runs), &mut s);
            s.push_str("</target>");
        }
        s.push_str("</segment>\n  </unit>\n");
        self.emit(s)
    }

    /// Closes the document and returns the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.pending.push_str(" </file>\n</xliff>\n");
        self.out.write_all(self.pending.as_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A unit's start tag, its notes (comments, then near matches' notes, each
/// labelled with its segment when there is one) and its `<originalData>`.
fn unit_head(block: &Block, fuzzy: &[(&str, &Fuzzy)], s: &mut String) {
    s.push_str("  <unit id=\"");
    xml_escape(&block.id, true, s);
    s.push_str("\" name=\"");
    xml_escape(&block.path, true, s);
    s.push_str("\">\n");
    if !block.notes.is_empty() || !fuzzy.is_empty() {
        s.push_str("   <notes>");
        for note in &block.notes {
            s.push_str("<note category=\"comment\">");
            escape(note, Escape::Note, s);
            s.push_str("</note>");
        }
        for (segment, f) in fuzzy {
            notes::fuzzy_notes(segment, f, s);
        }
        s.push_str("</notes>\n");
    }
    let has_codes = block.runs.iter().any(|r| !matches!(r, Run::Text(_)));
    if has_codes {
        s.push_str("   <originalData>");
        for (i, run) in block.runs.iter().enumerate() {
            if let Run::Open { data, .. }
            | Run::Close { data, .. }
            | Run::Placeholder { data, .. } = run
            {
                s.push_str("<data id=\"d");
                push_decimal(s, u32::try_from(i + 1).unwrap_or(u32::MAX));
                s.push_str("\">");
                xml_escape(data, false, s);
                s.push_str("</data>");
            }
        }
        s.push_str("</originalData>\n");
    }
}

/// Writes runs as XLIFF inline content. `source` gives the data ids (`d` + index + 1).
pub fn write_runs(runs: &[Run], source: Option<&[Run]>, s: &mut String) {
    // Codes are unique in a block (an id is one placeholder or one open/close
    // pair), so writing the source itself a code's data id is its own index.
    let itself = source.is_some_and(|src| std::ptr::eq(src, runs));
    let data_id = |at: usize| -> Option<usize> {
        if itself {
            return Some(at + 1);
        }
        let run = runs.get(at)?;
        source?.iter().position(|r| r == run).map(|i| i + 1)
    };
    let number = |s: &mut String, n: usize| push_decimal(s, u32::try_from(n).unwrap_or(u32::MAX));
    let mut i = 0;
    while i < runs.len() {
        match &runs[i] {
            Run::Text(t) => xml_escape(t, false, s),
            Run::Placeholder { id, .. } => {
                s.push_str("<ph id=\"");
                push_decimal(s, *id);
                if let Some(d) = data_id(i) {
                    s.push_str("\" dataRef=\"d");
                    number(s, d);
                }
                s.push_str("\"/>");
            }
            Run::Open { id, .. } => {
                let close = runs[i..]
                    .iter()
                    .position(|r| matches!(r, Run::Close { id: c, .. } if c == id));
                let start = data_id(i);
                let end = close.and_then(|c| data_id(i + c));
                s.push_str("<pc id=\"");
                push_decimal(s, *id);
                if let (Some(a), Some(b)) = (start, end) {
                    s.push_str("\" dataRefStart=\"d");
                    number(s, a);
                    s.push_str("\" dataRefEnd=\"d");
                    number(s, b);
                }
                s.push_str("\">");
                if close.is_none() {
                    s.push_str("</pc>");
                }
            }
            Run::Close { .. } => s.push_str("</pc>"),
        }
        i += 1;
    }
}

impl<W: Write> BlockSink for XliffWriter<W> {
    fn block(&mut self, block: &Block) -> Result<()> {
        let mut result = self.unit(block);
        for sub in &block.subs {
            if result.is_ok() {
                result = self.unit(sub);
            }
        }
        result.map_err(|e| L10nError::io("writing XLIFF", e))
    }
}

/// `runs` with adjacent text runs joined and empty ones dropped.
fn normalized(runs: &[Run]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::with_capacity(runs.len());
    for run in runs {
        match run {
            Run::Text(t) if t.is_empty() => {}
            Run::Text(t) => push_text(&mut out, t),
            code => out.push(code.clone()),
        }
    }
    out
}

/// How a unit's source differs from the page block's runs (`None`: the same text,
/// and the same codes — kind, id and original markup — in the same places).
pub fn source_difference(unit: &[Run], page: &[Run]) -> Option<String> {
    if unit == page {
        return None; // the usual case, without copies
    }
    let (unit, page) = (normalized(unit), normalized(page));
    for (u, p) in unit.iter().zip(&page) {
        if u == p {
            continue;
        }
        return Some(match (p.code_id(), u.code_id()) {
            (None, None) => "the text differs".into(),
            (Some(id), Some(uid)) if id == uid => format!("the markup of code {id} differs"),
            _ => "the inline codes differ".into(),
        });
    }
    (unit.len() != page.len()).then(|| "the text or inline codes differ".into())
}

/// Translations read from an XLIFF file, streaming, matched to blocks by id (an
/// id the page does not have: by source, `import.rs`); a translation is
/// applied only where the block still has the unit's source.
pub struct XliffTranslations {
    import: Importer<Units>,
    header: Option<XliffHeader>,
    /// No unit has a target, and the first pass read every unit's content
    /// (the fast path, see `xliff/fast.rs`): the merge reads the file no more.
    untranslated: bool,
    /// The first pass, still running on the read-ahead thread
    /// ([`XliffTranslations::open_read_ahead`]) until [`Translations::prepare`].
    ahead: Option<Ahead>,
}

impl Entry for Unit {
    fn key(&self) -> &str {
        &self.id
    }
    fn has_target(&self) -> bool {
        self.target.is_some()
    }
    fn unconfirmed(&self) -> bool {
        self.unconfirmed
    }
    fn source_key(&self) -> u64 {
        runs_key(&self.source)
    }
    fn same_source(&self, block: &Block) -> bool {
        source_difference(&self.source, &block.runs).is_none()
    }
}

impl XliffTranslations {
    /// Opens `path`. A first streaming pass finds whether any unit has a confirmed
    /// target (language retargeting only happens for a translated document): it
    /// stops at the first one, else reads the whole file, which must be well-formed
    /// XML, before any output is written. It skips sources, original data and
    /// notes: the merge reads and checks those (an error then still leaves no
    /// output: outputs are written to a temp file).
    ///
    /// A file without any target, whose units the first pass could read whole (a
    /// file this crate wrote), is not read again: nothing in it can be merged.
    pub fn open(path: &Path) -> Result<Self> {
        Self::open_with(path, false)
    }

    /// [`XliffTranslations::open`], reading the file on a second thread: the first
    /// pass runs while the page is read, the units are read ahead (a bounded
    /// number, `xliff/read_ahead.rs`) while the merge writes. Its errors come from
    /// [`Translations::prepare`] (the merge's writers call it first) and
    /// [`Translations::target`]. On a rayon worker (a directory run, one thread
    /// per file already) or when no thread can be started, it reads as `open`.
    pub fn open_read_ahead(path: &Path) -> Result<Self> {
        Self::open_with(path, rayon::current_thread_index().is_none())
    }

    fn open_with(path: &Path, read_ahead: bool) -> Result<Self> {
        let mut scan = XliffReader::open(path)?.scanning();
        let mut any = AnyTarget::default();
        // The header comes with the first unit (or the end of the file).
        let first = scan.next_unit()?;
        if let Some(unit) = &first {
            any.add(unit);
        }
        let header = scan.header.clone();
        if read_ahead && first.is_some() {
            if let Some((ahead, units)) = Ahead::spawn(scan, any, path) {
                return Ok(XliffTranslations {
                    import: Importer::new(units, any),
                    header,
                    untranslated: false,
                    ahead: Some(ahead),
                });
            }
            // No thread: read again from the start, directly.
            return Self::open_with(path, false);
        }
        let mut done = first.is_none();
        while !done && !any.confirmed {
            match scan.next_unit()? {
                Some(unit) => any.add(&unit),
                None => done = true,
            }
        }
        let untranslated = !any.confirmed && !any.unconfirmed && scan.on_fast_path();
        let mut reader = XliffReader::open(path)?;
        reader.header = header.clone();
        Ok(XliffTranslations {
            import: Importer::new(Units::Direct(Box::new(reader)), any),
            header,
            untranslated,
            ahead: None,
        })
    }

    /// Whether unconfirmed targets (a segment with `state="initial"`) are merged too
    /// (`--include-fuzzy`); by default they count as untranslated and are counted in
    /// [`Translations::unconfirmed`].
    pub fn include_unconfirmed(mut self, include: bool) -> Self {
        self.import.include_unconfirmed = include;
        self
    }

    /// The file's header.
    pub fn header(&self) -> Option<&XliffHeader> {
        self.header.as_ref()
    }

    /// Blocks of the document that had no unit (not counted for a file without
    /// any target, which the merge does not read again).
    pub fn missing(&self) -> usize {
        self.import.missing
    }
}

impl Translations for XliffTranslations {
    fn prepare(&mut self) -> Result<()> {
        if let Some(ahead) = self.ahead.take() {
            let scanned = ahead.scanned()?;
            self.import.any = scanned.any;
            self.untranslated = scanned.untranslated;
        }
        Ok(())
    }

    fn target(&mut self, block: &Block) -> Result<Option<Vec<Run>>> {
        self.prepare()?;
        if self.untranslated {
            return Ok(None);
        }
        let id = block.id.as_str();
        let Some(unit) = self.import.find(block, &[id], |k| k == id)? else {
            return Ok(None);
        };
        let accepted = self.import.accept(&unit);
        let Unit {
            id, source, target, ..
        } = unit;
        let mut unused = None;
        let target = match target {
            Some(target) if accepted => match source_difference(&source, &block.runs) {
                Some(why) => {
                    self.import
                        .issues
                        .push(Issue::new(&block.id, IssueKind::SourceChanged, why));
                    unused = Some(target);
                    None
                }
                None => Some(target),
            },
            other => {
                unused = other;
                None
            }
        };
        // The buffers go back to the reader (`xliff/pool.rs`).
        let reader = self.import.reader_mut();
        reader.recycle_string(id);
        reader.recycle_runs(source);
        if let Some(unused) = unused {
            reader.recycle_runs(unused);
        }
        Ok(target)
    }

    fn recycle(&mut self, runs: Vec<Run>) {
        self.import.reader_mut().recycle_runs(runs);
    }

    fn finish(&mut self) -> Result<Vec<Issue>> {
        self.prepare()?;
        if self.untranslated {
            // No target: no unit the page lacks is an issue, nor any block.
            return Ok(Vec::new());
        }
        self.import.finish(|id| id)
    }

    fn any_translated(&self) -> bool {
        self.import.any_translated()
    }

    fn unconfirmed(&self) -> usize {
        self.import.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        let mut s = String::new();
        xml_escape("a&<>\"\u{c}\u{FFFF}é\u{EFFF}\r", false, &mut s);
        assert_eq!(
            s,
            "a&amp;&lt;&gt;\"<cp hex=\"000C\"/><cp hex=\"FFFF\"/>é\u{EFFF}&#13;"
        );
        s.clear();
        xml_escape("a\"\n\u{1}", true, &mut s);
        assert_eq!(s, "a&quot;&#10;\u{FFFD}");
    }

    #[test]
    fn sources_come_back_with_their_code_markup() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.xlf");
        std::fs::write(
            &path,
            "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\" trgLang=\"\">\
             <file id=\"f\"><unit id=\"u1\"><notes><note>n</note></notes>\
             <originalData><data id=\"d1\">&lt;a x=<cp hex=\"0001\"/>&gt;</data><data id=\"d2\">&lt;/a&gt;</data>\
             <data id=\"d3\">&lt;br&gt;</data></originalData>\
             <segment><source>a <pc id=\"1\" dataRefStart=\"d1\" dataRefEnd=\"d2\">b</pc><ph id=\"2\" dataRef=\"d3\"/>&amp;</source>\
             <target><pc id=\"1\" dataRefStart=\"d3\">B</pc><ph id=\"2\"/></target></segment></unit></file></xliff>",
        )
        .unwrap();
        let mut r = XliffReader::open(&path).unwrap();
        let unit = r.next_unit().unwrap().unwrap();
        let code = |r: fn(u32, String) -> Run, id, d: &str| r(id, d.to_string());
        let open = |id, data| Run::Open { id, data };
        let close = |id, data| Run::Close { id, data };
        let ph = |id, data| Run::Placeholder { id, data };
        let source = vec![
            Run::Text("a ".into()),
            code(open, 1, "<a x=\u{1}>"),
            Run::Text("b".into()),
            code(close, 1, "</a>"),
            code(ph, 2, "<br>"),
            Run::Text("&".into()),
        ];
        assert_eq!(unit.source, source);
        // Target codes carry no markup, whatever data they name.
        let target = unit.target.unwrap();
        assert_eq!(target[0], code(open, 1, ""));
        assert!(r.header().unwrap().target_lang.is_none());
        assert_eq!(r.next_unit().unwrap(), None);
        // Comparison: text split differently is the same source; markup is not.
        let mut split = source.clone();
        split[0] = Run::Text("a".into());
        split.insert(1, Run::Text(" ".into()));
        assert_eq!(source_difference(&split, &source), None);
        let mut other = source.clone();
        other[1] = code(open, 1, "<a x=2>");
        assert_eq!(
            source_difference(&other, &source).as_deref(),
            Some("the markup of code 1 differs")
        );
        assert!(source_difference(&source[..5], &source).is_some());
    }

    fn block(id: &str, text: &str) -> Block {
        Block::paragraph(id, text)
    }

    #[test]
    fn initial_targets_are_unconfirmed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.xlf");
        let unit = |id: &str, state: &str, target: &str| {
            format!(
                "<unit id=\"{id}\"><segment{state}><source>{id}</source>{target}</segment></unit>"
            )
        };
        std::fs::write(
            &path,
            format!(
                "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\">\
                 <file id=\"f\">{}{}{}{}</file></xliff>",
                unit("a", " state=\"initial\"", "<target>A</target>"),
                unit("b", "", "<target>B</target>"),
                unit("c", " state=\"final\"", "<target>C</target>"),
                unit("d", " state=\"initial\"", ""),
            ),
        )
        .unwrap();
        let mut r = XliffReader::open(&path).unwrap();
        let states: Vec<(bool, bool)> = std::iter::from_fn(|| r.next_unit().unwrap())
            .map(|u| (u.target.is_some(), u.unconfirmed))
            .collect();
        assert_eq!(
            states,
            [(true, true), (true, false), (true, false), (false, true)]
        );
        for include in [false, true] {
            let mut t = XliffTranslations::open(&path)
                .unwrap()
                .include_unconfirmed(include);
            let got: Vec<bool> = ["a", "b", "c", "d"]
                .iter()
                .map(|id| t.target(&block(id, id)).unwrap().is_some())
                .collect();
            assert_eq!(got, [include, true, true, false]);
            assert_eq!(t.unconfirmed(), usize::from(!include));
            assert!(t.finish().unwrap().is_empty());
        }
        // A file whose only targets are unconfirmed is untranslated (no retargeting,
        // no "block not in file" issues) unless they are asked for.
        std::fs::write(
            &path,
            format!(
                "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\">\
                 <file id=\"f\">{}</file></xliff>",
                unit("a", " state=\"initial\"", "<target>A</target>"),
            ),
        )
        .unwrap();
        let t = XliffTranslations::open(&path).unwrap();
        assert!(!t.any_translated());
        assert!(t.include_unconfirmed(true).any_translated());
    }

    #[test]
    fn the_first_pass_stops_at_a_confirmed_target_and_the_merge_checks_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.xlf");
        let head = "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\">\
                    <file id=\"f\">";
        // The second unit's source has an unknown entity: the first pass never
        // reads it (the first unit is translated), the merge does.
        let units = "<unit id=\"a\"><segment><source>a</source><target>A</target></segment></unit>\
                     <unit id=\"b\"><segment><source>&nope;</source></segment></unit>";
        std::fs::write(&path, format!("{head}{units}</file></xliff>")).unwrap();
        let mut t = XliffTranslations::open(&path).unwrap();
        assert!(t.any_translated());
        assert!(t.target(&block("a", "a")).unwrap().is_some());
        let err = t.target(&block("b", "b")).unwrap_err();
        assert!(err.to_string().contains("nope"), "{err}");

        // Without a confirmed target the first pass reads the whole file: a file
        // that is not well-formed is an error before anything is merged.
        let units = "<unit id=\"a\"><segment><source>a</source></segment></unit>\
                     <unit id=\"b\"><segment><source>b</sourc></segment></unit>";
        std::fs::write(&path, format!("{head}{units}</file></xliff>")).unwrap();
        let Err(err) = XliffTranslations::open(&path) else {
            panic!("a broken file opened");
        };
        assert!(err.to_string().contains("sourc"), "{err}");
    }

    /// Everything a merge asks of `t`, in order: the targets of `ids`, then the
    /// counts and issues (or the first error).
    fn merge_answers(mut t: XliffTranslations, ids: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        if let Err(e) = t.prepare() {
            return vec![format!("error: {e}")];
        }
        out.push(format!("any {}", t.any_translated()));
        for id in ids {
            match t.target(&block(id, id)) {
                Ok(target) => out.push(format!("{id}: {target:?}")),
                Err(e) => return [out, vec![format!("error: {e}")]].concat(),
            }
        }
        out.push(format!("finish {:?}", t.finish().map(|i| i.len())));
        out.push(format!(
            "unconfirmed {} missing {}",
            t.unconfirmed(),
            t.missing()
        ));
        out
    }

    #[test]
    fn reading_ahead_answers_as_reading_directly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.xlf");
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\">\n <file id=\"f\">\n";
        let unit = |id: &str, segment: &str, target: &str| {
            format!(
                "  <unit id=\"{id}\">\n   <segment{segment}><source>{id}</source>{target}</segment>\n  </unit>\n"
            )
        };
        // More units than are read ahead, out of order, some translated, one not
        // confirmed, one the page lacks; files whose first pass reads all, stops
        // early, or finds an error, and an untranslated one read once.
        let n = read_ahead::UNITS_AHEAD * 3;
        let ids: Vec<String> = (0..n).map(|i| format!("u{i}")).collect();
        let mut many = String::new();
        for (i, id) in ids.iter().enumerate().rev() {
            let target = format!("<target>T{i}</target>");
            match i % 4 {
                0 => many.push_str(&unit(id, "", "")),
                1 => many.push_str(&unit(id, " state=\"initial\"", &target)),
                _ => many.push_str(&unit(id, "", &target)),
            }
        }
        many.push_str(&unit("gone", "", "<target>G</target>"));
        let plain: String = ids.iter().map(|id| unit(id, "", "")).collect();
        let late = format!("{plain}{}", unit("last", "", "<target>L</target>"));
        let broken =
            format!("{plain}  <unit id=\"b\"><segment><source>b</sourc></segment></unit>\n");
        let bad_late = format!(
            "{}{}  <unit id=\"b\"><segment><source>&nope;</source></segment></unit>\n",
            unit("a", "", "<target>A</target>"),
            plain
        );
        for body in [many, plain, late, broken, bad_late, String::new()] {
            std::fs::write(&path, format!("{head}{body} </file>\n</xliff>\n")).unwrap();
            let direct = XliffTranslations::open(&path);
            let ahead = XliffTranslations::open_read_ahead(&path).unwrap();
            assert_eq!(ahead.ahead.is_some(), !body.is_empty());
            let answers = merge_answers(ahead, &ids);
            match direct {
                Ok(direct) => assert_eq!(answers, merge_answers(direct, &ids)),
                // The first pass's error: at open when reading directly, from
                // `prepare` when reading ahead.
                Err(e) => assert_eq!(answers, [format!("error: {e}")]),
            }
        }
    }

    #[test]
    fn a_directory_run_reads_its_files_directly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.xlf");
        std::fs::write(
            &path,
            "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\">\
             <file id=\"f\"><unit id=\"a\"><segment><source>a</source><target>A</target></segment></unit></file></xliff>",
        )
        .unwrap();
        // A rayon worker (one thread per file already): no second thread.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let t = pool
            .install(|| XliffTranslations::open_read_ahead(&path))
            .unwrap();
        assert!(t.ahead.is_none());
        let t = XliffTranslations::open_read_ahead(&path).unwrap();
        assert!(t.ahead.is_some());
    }
}
