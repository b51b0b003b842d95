//! The view element handlers get of a start tag, and what they change.

use tagloom_html::token::Tag;

use super::content::{ContentType, check_name, push_content};
use super::error::{HandlerResult, RewriteError};
use super::nodes::EndTag;
use super::output::{Output, OutputSink};

/// A boxed end-tag callback (see [`Element::on_end_tag`]).
pub(crate) type EndCallback<'h> = Box<dyn FnOnce(&mut EndTag<'_>) -> HandlerResult + 'h>;

/// An element, seen at its start tag. Changes are written when the handler returns;
/// an element no handler changes is written back byte for byte.
pub struct Element<'a, 'h> {
    /// The start tag; `None` for an element the tree builder implies.
    pub(crate) tag: Option<&'a Tag<'a>>,
    /// The tag name as written (lowercased).
    pub(crate) name: &'a str,
    pub(crate) edits: &'a mut ElementEdits<'h>,
    /// The element stays open for content (not void, not past the depth limit).
    pub(crate) opened: bool,
}

/// One attribute a handler set or removed: its name and new value (`None`:
/// removed) as ranges of [`ElementEdits::arena`], so a steady stream of edits
/// allocates nothing.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AttrEdit {
    name: (usize, usize),
    value: Option<(usize, usize)>,
}

/// What handlers did to one start tag (reused from tag to tag).
#[derive(Default)]
pub(crate) struct ElementEdits<'h> {
    pub(crate) touched: bool,
    pub(crate) name: Option<String>,
    /// Attribute edits, one per name, in the order first made.
    pub(crate) attr_edits: Vec<AttrEdit>,
    /// The text of the attribute edits.
    pub(crate) arena: String,
    pub(crate) before: String,
    pub(crate) after: String,
    pub(crate) prepend: String,
    pub(crate) append: String,
    pub(crate) inner: Option<String>,
    pub(crate) removed: bool,
    pub(crate) keep_content: bool,
    pub(crate) end_callbacks: Vec<EndCallback<'h>>,
}

impl ElementEdits<'_> {
    pub(crate) fn clear(&mut self) {
        self.touched = false;
        self.name = None;
        self.attr_edits.clear();
        self.arena.clear();
        self.before.clear();
        self.after.clear();
        self.prepend.clear();
        self.append.clear();
        self.inner = None;
        self.removed = false;
        self.keep_content = false;
        self.end_callbacks.clear();
    }

    fn text(&self, (start, end): (usize, usize)) -> &str {
        self.arena.get(start..end).unwrap_or("")
    }

    fn find(&self, name: &str) -> Option<&AttrEdit> {
        self.attr_edits.iter().find(|e| self.text(e.name) == name)
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.attr_edits
            .iter()
            .position(|e| self.text(e.name) == name)
    }

    fn edit(&mut self, name: &str, value: Option<&str>) {
        self.touched = true;
        let value = value.map(|v| {
            let start = self.arena.len();
            self.arena.push_str(v);
            (start, self.arena.len())
        });
        match self
            .attr_edits
            .iter()
            .position(|e| self.text(e.name) == name)
        {
            Some(i) => {
                if let Some(e) = self.attr_edits.get_mut(i) {
                    e.value = value;
                }
            }
            None => {
                let start = self.arena.len();
                self.arena.push_str(name);
                self.attr_edits.push(AttrEdit {
                    name: (start, self.arena.len()),
                    value,
                });
            }
        }
    }
}

/// The source bytes of one attribute: from its name to the end of its value
/// (closing quote included).
pub(crate) fn raw_attribute(
    src: &str,
    base: usize,
    attr: &tagloom_html::token::Attribute<'_>,
) -> (usize, usize) {
    let start = attr.name_span.start;
    if !attr.has_value {
        return (start, attr.name_span.end);
    }
    let (vs, ve) = (attr.value_span.start, attr.value_span.end);
    let byte = |abs: usize| {
        abs.checked_sub(base)
            .and_then(|i| src.as_bytes().get(i).copied())
    };
    let quoted = match (vs.checked_sub(1).and_then(byte), byte(ve)) {
        (Some(open), Some(close)) => open == close && (open == b'"' || open == b'\''),
        _ => false,
    };
    (start, if quoted { ve + 1 } else { ve })
}

impl<'a, 'h> Element<'a, 'h> {
    /// The tag name, lowercased (as renamed, if it was).
    pub fn tag_name(&self) -> &str {
        self.edits.name.as_deref().unwrap_or(self.name)
    }

    /// Whether the element is one the tree builder implies, with no tag in the
    /// source: an `html`, `head` or `body` whose tag is missing, a `tbody` before
    /// a `tr`, a `tr` before a `td`, a `colgroup` before a `col`, the empty `p` a
    /// `</p>` creates when no `p` is open, … Such an element has no attributes.
    /// Changes to it are written where the tree builder creates it (just before
    /// the tag or text that implies it): an attribute change or a rename writes
    /// its start tag there (`<tbody class=x>`, which the tree builder takes for
    /// the element it would have implied), `before`/`prepend` insert there,
    /// `append`/`after`/end-tag handlers act where it ends, `remove` drops its
    /// content.
    pub fn is_implied(&self) -> bool {
        self.tag.is_none()
    }

    /// Renames the element; its end tag is renamed too (and written where the
    /// element ends implicitly, so the new element closes where the old one did).
    pub fn set_tag_name(&mut self, name: &str) -> Result<(), RewriteError> {
        check_name(name)?;
        self.edits.name = Some(name.to_ascii_lowercase());
        self.edits.touched = true;
        Ok(())
    }

    /// Whether the tag was written `<br/>`.
    pub fn is_self_closing(&self) -> bool {
        self.tag.is_some_and(|t| t.self_closing)
    }

    /// Whether the element has content (is not void), so that
    /// [`append`](Self::append), [`set_inner_content`](Self::set_inner_content)
    /// and end-tag handlers mean something.
    pub fn can_have_content(&self) -> bool {
        self.opened
    }

    /// The value of attribute `name` (ASCII case-insensitive), character
    /// references decoded.
    pub fn get_attribute(&self, name: &str) -> Option<&str> {
        let lower = lower(name);
        if let Some(edit) = self.edits.find(&lower) {
            return edit.value.map(|r| self.edits.text(r));
        }
        let tag = self.tag?;
        tag.attrs.value_of(tag.atoms().get(&lower)?)
    }

    /// Whether the element has attribute `name`.
    pub fn has_attribute(&self, name: &str) -> bool {
        self.get_attribute(name).is_some()
    }

    /// The attributes as (name, value) pairs: the tag's in source order (as
    /// edited), then the ones handlers added.
    pub fn attributes(&self) -> Vec<(&str, &str)> {
        let mut out: Vec<(&str, &str)> = Vec::with_capacity(self.tag.map_or(0, |t| t.attrs.len()));
        if let Some(tag) = self.tag {
            let atoms = tag.atoms();
            for a in tag.attrs.iter() {
                let name = atoms.name(a.name);
                match self.edits.find(name) {
                    Some(edit) => {
                        if let Some(v) = edit.value {
                            out.push((name, self.edits.text(v)));
                        }
                    }
                    None => out.push((name, a.value)),
                }
            }
        }
        for edit in &self.edits.attr_edits {
            let name = self.edits.text(edit.name);
            if let Some(v) = edit.value
                && !out.iter().any(|(n, _)| *n == name)
                && self
                    .tag
                    .and_then(|t| t.attrs.value_of(t.atoms().get(name)?))
                    .is_none()
            {
                out.push((name, self.edits.text(v)));
            }
        }
        out
    }

    /// Sets attribute `name` to `value` (added at the end if it is new).
    pub fn set_attribute(&mut self, name: &str, value: &str) -> Result<(), RewriteError> {
        check_name(name)?;
        self.edits.edit(&lower(name), Some(value));
        Ok(())
    }

    /// Removes attribute `name` if present.
    pub fn remove_attribute(&mut self, name: &str) {
        if self.has_attribute(name) {
            self.edits.edit(&lower(name), None);
        }
    }

    /// Inserts `content` before the element.
    pub fn before(&mut self, content: &str, kind: ContentType) {
        self.edits.touched = true;
        push_content(&mut self.edits.before, content, kind);
    }

    /// Inserts `content` after the element (after its end tag).
    pub fn after(&mut self, content: &str, kind: ContentType) {
        self.edits.touched = true;
        let mut new = String::new();
        push_content(&mut new, content, kind);
        self.edits.after.insert_str(0, &new);
    }

    /// Inserts `content` at the start of the element's content.
    pub fn prepend(&mut self, content: &str, kind: ContentType) {
        self.edits.touched = true;
        let mut new = String::new();
        push_content(&mut new, content, kind);
        self.edits.prepend.insert_str(0, &new);
    }

    /// Inserts `content` at the end of the element's content.
    pub fn append(&mut self, content: &str, kind: ContentType) {
        self.edits.touched = true;
        push_content(&mut self.edits.append, content, kind);
    }

    /// Replaces the element's content with `content`.
    pub fn set_inner_content(&mut self, content: &str, kind: ContentType) {
        self.edits.touched = true;
        let mut new = String::new();
        push_content(&mut new, content, kind);
        self.edits.inner = Some(new);
    }

    /// Replaces the whole element with `content`.
    pub fn replace(&mut self, content: &str, kind: ContentType) {
        self.before(content, kind);
        self.remove();
    }

    /// Removes the element with its content.
    pub fn remove(&mut self) {
        self.edits.touched = true;
        self.edits.removed = true;
    }

    /// Removes the start and end tags, keeping the content.
    pub fn remove_and_keep_content(&mut self) {
        self.edits.touched = true;
        self.edits.keep_content = true;
    }

    /// Whether [`remove`](Self::remove) or [`replace`](Self::replace) was called.
    pub fn removed(&self) -> bool {
        self.edits.removed
    }

    /// Runs `handler` at the element's end: its end tag, or where it ends
    /// implicitly. Not called for elements without content (void elements).
    pub fn on_end_tag(&mut self, handler: impl FnOnce(&mut EndTag<'_>) -> HandlerResult + 'h) {
        self.edits.touched = true;
        self.edits.end_callbacks.push(Box::new(handler));
    }
}

fn lower(name: &str) -> std::borrow::Cow<'_, str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        name.to_ascii_lowercase().into()
    } else {
        name.into()
    }
}

/// Unchanged attributes up to this size are copied into the serialized tag; longer
/// ones go from the source straight to the output (a huge value costs no copy).
const INLINE_ATTR: usize = 4096;

/// Writes a changed start tag: unchanged attributes are copied from the source,
/// changed ones are serialized; `scratch` collects the tag (one write to the sink
/// for an ordinary tag).
pub(crate) fn write_start_tag<O: OutputSink>(
    out: &mut Output<O>,
    scratch: &mut String,
    tag: Option<&Tag<'_>>,
    original: &str,
    edits: &ElementEdits<'_>,
) -> std::io::Result<()> {
    let name = edits.name.as_deref().unwrap_or(original);
    scratch.clear();
    scratch.push('<');
    scratch.push_str(name);
    let Some(tag) = tag else {
        // An implied element: its start tag, made up.
        for edit in &edits.attr_edits {
            if let Some(v) = edit.value {
                super::content::push_attribute(scratch, edits.text(edit.name), edits.text(v));
            }
        }
        scratch.push('>');
        return out.put(scratch);
    };
    if edits.attr_edits.is_empty() {
        // Renamed only: everything after the name as written.
        let text = out.source(tag.span.start, tag.span.end);
        let after_name = text
            .get(1..)
            .and_then(|t| {
                t.find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
                    .map(|i| i + 1)
            })
            .unwrap_or(text.len());
        out.put(scratch)?;
        return out.put_source(tag.span.start + after_name, tag.span.end);
    }
    let atoms = tag.atoms();
    // The edits (of the first 64) that changed an attribute the tag has.
    let mut applied = 0u64;
    for a in tag.attrs.iter() {
        let attr_name = atoms.name(a.name);
        match edits.position(attr_name) {
            Some(i) => {
                if i < 64 {
                    applied |= 1 << i;
                }
                if let Some(v) = edits.attr_edits.get(i).and_then(|e| e.value) {
                    super::content::push_attribute(scratch, attr_name, edits.text(v));
                }
            }
            None => {
                let (s, e) = raw_attribute(&out.src, out.base, &a);
                scratch.push(' ');
                if e - s <= INLINE_ATTR {
                    scratch.push_str(out.source(s, e));
                } else {
                    out.put(scratch)?;
                    scratch.clear();
                    out.put_source(s, e)?;
                }
            }
        }
    }
    for (i, edit) in edits.attr_edits.iter().enumerate() {
        let edit_name = edits.text(edit.name);
        let exists = if i < 64 {
            applied & (1 << i) != 0
        } else {
            atoms
                .get(edit_name)
                .and_then(|at| tag.attrs.value_of(at))
                .is_some()
        };
        if let Some(v) = edit.value
            && !exists
        {
            super::content::push_attribute(scratch, edit_name, edits.text(v));
        }
    }
    scratch.push_str(if tag.self_closing { " />" } else { ">" });
    out.put(scratch)
}

/// What an element-content handler sees at the element's end (see
/// [`Handlers::element_content`](super::Handlers::element_content)).
#[derive(Debug)]
pub struct ElementContent<'a> {
    pub(crate) name: &'a str,
    pub(crate) html: &'a str,
    pub(crate) text: &'a str,
    pub(crate) edits: &'a mut ContentEdits,
}

/// What content handlers changed.
#[derive(Debug, Default)]
pub(crate) struct ContentEdits {
    pub(crate) inner: Option<String>,
    pub(crate) before: String,
    pub(crate) after: String,
    pub(crate) removed: bool,
}

impl<'a> ElementContent<'a> {
    /// The element's tag name.
    pub fn tag_name(&self) -> &'a str {
        self.name
    }

    /// The element's content as it will be written (after the other handlers'
    /// changes), between its start and end tags.
    pub fn inner_html(&self) -> &'a str {
        self.html
    }

    /// The text of the content (character references decoded, tags left out).
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Replaces the element's content.
    pub fn set_inner_content(&mut self, content: &str, kind: ContentType) {
        let mut new = String::new();
        push_content(&mut new, content, kind);
        self.edits.inner = Some(new);
    }

    /// Inserts `content` before the element's start tag.
    pub fn before(&mut self, content: &str, kind: ContentType) {
        push_content(&mut self.edits.before, content, kind);
    }

    /// Inserts `content` after the element.
    pub fn after(&mut self, content: &str, kind: ContentType) {
        push_content(&mut self.edits.after, content, kind);
    }

    /// Replaces the whole element with `content`.
    pub fn replace(&mut self, content: &str, kind: ContentType) {
        self.before(content, kind);
        self.edits.removed = true;
    }

    /// Removes the whole element.
    pub fn remove(&mut self) {
        self.edits.removed = true;
    }
}
