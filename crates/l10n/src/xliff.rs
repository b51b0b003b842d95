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
//! are buffered until asked for) and turns each `<target>` into runs: `<pc>`, `<sc>`/
//! `<ec>` and `<ph>` become codes by id, `<cp hex>` a character, other inline
//! markup (`<mrk>`, `<sm>`, `<em>`) is dropped keeping its text.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use quick_xml::events::{BytesStart, Event};

use crate::block::{Block, Run};
use crate::error::{L10nError, Result};
use crate::reader::BlockSink;
use crate::writer::Translations;

/// XLIFF 2.x core namespace (2.1 keeps the 2.0 namespace).
pub const XLIFF_NS: &str = "urn:oasis:names:tc:xliff:document:2.0";

/// Escapes for XML text and attribute values; characters XML 1.0 cannot hold become
/// `<cp hex>` in text (`in_attr` replaces them with U+FFFD: attributes cannot carry `<cp>`).
fn xml_escape(s: &str, in_attr: bool, out: &mut String) {
    // Fast path: copy runs of bytes that never need escaping (printable ASCII and
    // UTF-8 sequences that cannot be U+FFFE/U+FFFF, which start with 0xEF).
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let special = b < 0x20 || matches!(b, b'&' | b'<' | b'>' | 0xEF) || (in_attr && b == b'"');
        if !special {
            i += 1;
            continue;
        }
        out.push_str(&s[start..i]);
        let c = s[i..].chars().next().unwrap_or('\u{FFFD}');
        escape_char(c, in_attr, out);
        i += c.len_utf8();
        start = i;
    }
    out.push_str(&s[start..]);
}

fn escape_char(c: char, in_attr: bool, out: &mut String) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' if in_attr => out.push_str("&quot;"),
        '\t' | '\n' | '\r' if in_attr => out.push_str(&format!("&#{};", c as u32)),
        '\r' => out.push_str("&#13;"),
        c if !is_xml_char(c) => {
            if in_attr {
                out.push('\u{FFFD}');
            } else {
                out.push_str(&format!("<cp hex=\"{:04X}\"/>", c as u32));
            }
        }
        c => out.push(c),
    }
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Streams blocks into an XLIFF 2.1 document.
pub struct XliffWriter<W: Write> {
    out: W,
    error: Option<std::io::Error>,
    units: usize,
}

impl<W: Write> XliffWriter<W> {
    /// Writes the header: `<xliff version="2.1" srcLang trgLang><file original>`.
    pub fn new(
        mut out: W,
        source_lang: &str,
        target_lang: Option<&str>,
        original: &str,
    ) -> std::io::Result<Self> {
        let mut head = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        head.push_str(&format!(
            "<xliff xmlns=\"{XLIFF_NS}\" version=\"2.1\" srcLang=\""
        ));
        xml_escape(source_lang, true, &mut head);
        head.push('"');
        if let Some(t) = target_lang.filter(|t| !t.is_empty()) {
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
            error: None,
            units: 0,
        })
    }

    /// Units written.
    pub fn units(&self) -> usize {
        self.units
    }

    fn unit(&mut self, block: &Block) -> std::io::Result<()> {
        let mut s = String::with_capacity(256);
        s.push_str("  <unit id=\"");
        xml_escape(&block.id, true, &mut s);
        s.push_str("\" name=\"");
        xml_escape(&block.path, true, &mut s);
        s.push_str("\">\n");
        if !block.notes.is_empty() {
            s.push_str("   <notes>");
            for note in &block.notes {
                s.push_str("<note category=\"comment\">");
                xml_escape(note, false, &mut s);
                s.push_str("</note>");
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
                    s.push_str(&format!("<data id=\"d{}\">", i + 1));
                    xml_escape(data, false, &mut s);
                    s.push_str("</data>");
                }
            }
            s.push_str("</originalData>\n");
        }
        s.push_str("   <segment><source>");
        write_runs(&block.runs, Some(&block.runs), &mut s);
        s.push_str("</source></segment>\n  </unit>\n");
        self.units += 1;
        self.out.write_all(s.as_bytes())
    }

    /// Closes the document and returns the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.write_all(b" </file>\n</xliff>\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Writes runs as XLIFF inline content. `source` gives the data ids (`d` + index + 1).
pub fn write_runs(runs: &[Run], source: Option<&[Run]>, s: &mut String) {
    let data_id =
        |run: &Run| -> Option<usize> { source?.iter().position(|r| r == run).map(|i| i + 1) };
    let mut i = 0;
    while i < runs.len() {
        match &runs[i] {
            Run::Text(t) => xml_escape(t, false, s),
            Run::Placeholder { id, .. } => match data_id(&runs[i]) {
                Some(d) => s.push_str(&format!("<ph id=\"{id}\" dataRef=\"d{d}\"/>")),
                None => s.push_str(&format!("<ph id=\"{id}\"/>")),
            },
            Run::Open { id, .. } => {
                let close = runs[i..]
                    .iter()
                    .position(|r| matches!(r, Run::Close { id: c, .. } if c == id));
                let start = data_id(&runs[i]);
                let end = close.and_then(|c| data_id(&runs[i + c]));
                match (start, end) {
                    (Some(a), Some(b)) => s.push_str(&format!(
                        "<pc id=\"{id}\" dataRefStart=\"d{a}\" dataRefEnd=\"d{b}\">"
                    )),
                    _ => s.push_str(&format!("<pc id=\"{id}\">")),
                }
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

/// One unit read back: id and target runs (`None` when the target is absent or empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The unit id.
    pub id: String,
    /// The target.
    pub target: Option<Vec<Run>>,
}

/// Header facts of an XLIFF file.
#[derive(Clone, Debug, Default)]
pub struct XliffHeader {
    /// `srcLang`.
    pub source_lang: String,
    /// `trgLang`.
    pub target_lang: Option<String>,
}

/// A streaming reader of XLIFF 2.x units.
pub struct XliffReader {
    reader: quick_xml::Reader<BufReader<File>>,
    path: PathBuf,
    buf: Vec<u8>,
    header: Option<XliffHeader>,
}

impl XliffReader {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path)
            .map_err(|e| L10nError::io(format!("opening {}", path.display()), e))?;
        let mut reader = quick_xml::Reader::from_reader(BufReader::new(file));
        reader.config_mut().trim_text(false);
        Ok(XliffReader {
            reader,
            path: path.to_path_buf(),
            buf: Vec::new(),
            header: None,
        })
    }

    fn err(&self, message: impl Into<String>) -> L10nError {
        L10nError::Xliff {
            path: self.path.clone(),
            message: format!(
                "{} (at byte {})",
                message.into(),
                self.reader.buffer_position()
            ),
        }
    }

    /// The header (read on first use).
    pub fn header(&self) -> Option<&XliffHeader> {
        self.header.as_ref()
    }

    fn attr(&self, e: &BytesStart<'_>, name: &str) -> Result<Option<String>> {
        match e.try_get_attribute(name) {
            Ok(Some(a)) => a
                .unescape_value()
                .map(|v| Some(v.into_owned()))
                .map_err(|x| self.err(x.to_string())),
            Ok(None) => Ok(None),
            Err(x) => Err(self.err(x.to_string())),
        }
    }

    /// The next unit; `None` at the end of the document.
    pub fn next_unit(&mut self) -> Result<Option<Unit>> {
        let mut unit: Option<Unit> = None;
        let mut in_target = false;
        let mut target: Vec<Run> = Vec::new();
        let mut has_target = false;
        let mut pc_stack: Vec<u32> = Vec::new();
        loop {
            self.buf.clear();
            let event = self
                .reader
                .read_event_into(&mut self.buf)
                .map_err(|e| L10nError::Xliff {
                    path: self.path.clone(),
                    message: e.to_string(),
                })?
                .into_owned();
            match event {
                Event::Eof => {
                    if unit.is_some() {
                        return Err(self.err("unexpected end of file inside a unit"));
                    }
                    if self.header.is_none() {
                        return Err(self.err("no <xliff> element"));
                    }
                    return Ok(None);
                }
                Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"xliff" => {
                    let version = self.attr(&e, "version")?.unwrap_or_default();
                    if !version.starts_with('2') {
                        return Err(
                            self.err(format!("XLIFF version {version:?}: 2.0 or 2.1 expected"))
                        );
                    }
                    self.header = Some(XliffHeader {
                        source_lang: self.attr(&e, "srcLang")?.unwrap_or_default(),
                        target_lang: self.attr(&e, "trgLang")?,
                    });
                }
                Event::Start(e) if e.local_name().as_ref() == b"unit" => {
                    let id = self
                        .attr(&e, "id")?
                        .ok_or_else(|| self.err("unit without id"))?;
                    unit = Some(Unit { id, target: None });
                }
                Event::End(e) if e.local_name().as_ref() == b"unit" => {
                    let mut u = unit.take().ok_or_else(|| self.err("stray </unit>"))?;
                    let empty = target
                        .iter()
                        .all(|r| matches!(r, Run::Text(t) if t.is_empty()));
                    u.target = (has_target && !empty).then_some(target);
                    return Ok(Some(u));
                }
                Event::Start(e) if e.local_name().as_ref() == b"target" && unit.is_some() => {
                    in_target = true;
                    has_target = true;
                }
                Event::End(e) if e.local_name().as_ref() == b"target" => in_target = false,
                Event::Start(e) if in_target && e.local_name().as_ref() == b"pc" => {
                    let id = self.code_id(&e, "id")?;
                    pc_stack.push(id);
                    target.push(Run::Open {
                        id,
                        data: String::new(),
                    });
                }
                Event::End(e) if in_target && e.local_name().as_ref() == b"pc" => {
                    let id = pc_stack.pop().ok_or_else(|| self.err("stray </pc>"))?;
                    target.push(Run::Close {
                        id,
                        data: String::new(),
                    });
                }
                Event::Empty(e) if in_target => match e.local_name().as_ref() {
                    b"ph" => target.push(Run::Placeholder {
                        id: self.code_id(&e, "id")?,
                        data: String::new(),
                    }),
                    b"sc" => target.push(Run::Open {
                        id: self.code_id(&e, "id")?,
                        data: String::new(),
                    }),
                    b"ec" => target.push(Run::Close {
                        id: self.code_id(&e, "startRef")?,
                        data: String::new(),
                    }),
                    b"pc" => {
                        let id = self.code_id(&e, "id")?;
                        target.push(Run::Open {
                            id,
                            data: String::new(),
                        });
                        target.push(Run::Close {
                            id,
                            data: String::new(),
                        });
                    }
                    b"cp" => {
                        let hex = self.attr(&e, "hex")?.unwrap_or_default();
                        let c = u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| self.err(format!("bad <cp hex={hex:?}>")))?;
                        push_text(&mut target, &c.to_string());
                    }
                    _ => {}
                },
                Event::Text(t) if in_target => {
                    let text = t.decode().map_err(|e| self.err(e.to_string()))?;
                    push_text(&mut target, &text);
                }
                Event::CData(t) if in_target => {
                    let text = t.decode().map_err(|e| self.err(e.to_string()))?;
                    push_text(&mut target, &text);
                }
                Event::GeneralRef(r) if in_target => {
                    let c = match r.resolve_char_ref().map_err(|e| self.err(e.to_string()))? {
                        Some(c) => c.to_string(),
                        None => {
                            let name = r.decode().map_err(|e| self.err(e.to_string()))?;
                            quick_xml::escape::resolve_predefined_entity(&name)
                                .ok_or_else(|| self.err(format!("unknown entity &{name};")))?
                                .to_string()
                        }
                    };
                    push_text(&mut target, &c);
                }
                _ => {}
            }
        }
    }

    fn code_id(&self, e: &BytesStart<'_>, attr: &str) -> Result<u32> {
        let v = self
            .attr(e, attr)?
            .ok_or_else(|| self.err(format!("code without {attr}")))?;
        // Foreign ids are kept as 0: the code check then reports them.
        Ok(v.trim().parse().unwrap_or(0))
    }
}

fn push_text(runs: &mut Vec<Run>, text: &str) {
    if let Some(Run::Text(t)) = runs.last_mut() {
        t.push_str(text);
    } else {
        runs.push(Run::Text(text.to_string()));
    }
}

/// Translations read from an XLIFF file, streaming, matched to blocks by id.
pub struct XliffTranslations {
    reader: XliffReader,
    pending: HashMap<String, Option<Vec<Run>>>,
    done: bool,
    any_translated: bool,
    missing: usize,
}

impl XliffTranslations {
    /// Opens `path`. A first streaming pass finds whether any unit has a target
    /// (language retargeting only happens for a translated document) and checks the
    /// file is well-formed before any output is written.
    pub fn open(path: &Path) -> Result<Self> {
        let mut scan = XliffReader::open(path)?;
        let mut any = false;
        while let Some(unit) = scan.next_unit()? {
            any |= unit.target.is_some();
        }
        let header = scan.header.clone();
        let mut reader = XliffReader::open(path)?;
        reader.header = header;
        Ok(XliffTranslations {
            reader,
            pending: HashMap::new(),
            done: false,
            any_translated: any,
            missing: 0,
        })
    }

    /// The file's header.
    pub fn header(&self) -> Option<&XliffHeader> {
        self.reader.header()
    }

    /// Blocks of the document that had no unit.
    pub fn missing(&self) -> usize {
        self.missing
    }
}

impl Translations for XliffTranslations {
    fn target(&mut self, block: &Block) -> Result<Option<Vec<Run>>> {
        if let Some(t) = self.pending.remove(&block.id) {
            return Ok(t);
        }
        while !self.done {
            match self.reader.next_unit()? {
                Some(u) if u.id == block.id => return Ok(u.target),
                Some(u) => {
                    self.pending.insert(u.id, u.target);
                }
                None => self.done = true,
            }
        }
        self.missing += 1;
        Ok(None)
    }

    fn finish(&mut self) -> Result<()> {
        while !self.done {
            match self.reader.next_unit()? {
                Some(u) => {
                    self.pending.insert(u.id, u.target);
                }
                None => self.done = true,
            }
        }
        crate::error::no_unmatched_units(&self.reader.path, self.pending.keys())
    }

    fn any_translated(&self) -> bool {
        self.any_translated
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
}
