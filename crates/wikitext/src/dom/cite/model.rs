//! What the pass knows while it walks (Cite's `ReferencesData`, `RefGroup`,
//! `RefGroupItem`): the groups still open, their refs in order of first use,
//! the ids and labels Cite derives from them.

use foldhash::HashMap;

use super::errors::CiteError;
use super::placeholder::Tag;
use super::{Node, serialize};
use crate::dom::Value;

/// One footnote of a group.
#[derive(Debug, Default)]
pub(super) struct Item {
    pub(super) name: Option<String>,
    pub(super) group: String,
    /// Its number in the group.
    pub(super) number: usize,
    /// Its number among all refs of the page (ids use it).
    pub(super) global: usize,
    /// `cite_note-…`: the footnote's id (made once, with the item).
    pub(super) note_id: String,
    /// Where the name as an id ([`normalize_id_into`]) ends in `note_id`
    /// (it starts after [`NOTE_ID`]): each use's ids take it from there, the
    /// name not normalized again.
    pub(super) id_name_end: usize,
    /// `note_id` is a link fragment as it is ([`href_fragment_into`] would
    /// copy it unchanged): each use's link copies it, no scan.
    pub(super) note_fragment: bool,
    pub(super) dir: String,
    /// The footnote's text (the first definition's).
    pub(super) content: Option<Vec<Node>>,
    /// The uses shown in the page (indices into `State::uses`).
    pub(super) nodes: Vec<usize>,
    pub(super) visible: usize,
    /// Uses not shown in place (in a list's body).
    pub(super) embedded: Vec<usize>,
}

/// A group's refs.
#[derive(Debug, Default)]
pub(super) struct Group {
    pub(super) name: String,
    /// Indices into `State::items`.
    pub(super) items: Vec<usize>,
    /// Named refs by name.
    by_name: HashMap<String, usize>,
    next: usize,
    /// Errors of refs inside `<references>` with no visible use to carry them.
    pub(super) list_errors: Vec<CiteError>,
}

/// How a ref's `data-mw` refers to its body.
#[derive(Debug)]
pub(super) enum UseBody {
    /// By the footnote text's id ([`State::note_text_id`]) of this item,
    /// written with the `data-mw` (no id string a use).
    Note(usize),
    /// Inline (an empty or conflicting body).
    Html(String),
}

/// One `<sup>` written: what its `data-mw` will hold.
#[derive(Debug)]
pub(super) struct Use {
    /// The tag's attributes (written as JSON into `data-mw` at the end).
    pub(super) attrs: Vec<(String, String)>,
    /// The transclusion's parts when the ref came from a template.
    pub(super) parts: Option<String>,
    pub(super) body: Option<UseBody>,
    pub(super) errors: Vec<CiteError>,
}

/// Whether a redefinition's body differs from the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Conflict {
    None,
    /// Only in metadata (`data-mw`, `typeof`).
    Invisible,
    Visible,
}

/// Compares two bodies as Cite does (markup without metadata decides whether
/// the difference is visible).
pub(super) fn compare(old: &[Node], new: &[Node]) -> Conflict {
    if serialize(old) == serialize(new) {
        return Conflict::None;
    }
    if serialize(&strip_metadata(old)) == serialize(&strip_metadata(new)) {
        Conflict::Invisible
    } else {
        Conflict::Visible
    }
}

fn strip_metadata(nodes: &[Node]) -> Vec<Node> {
    let mut copy = nodes.to_vec();
    let mut stack: Vec<&mut Node> = copy.iter_mut().collect();
    while let Some(n) = stack.pop() {
        if let Node::Element(e) = n {
            e.attrs
                .retain(|(k, _)| !matches!(&**k, "data-mw" | "typeof" | "about"));
            stack.extend(e.children.iter_mut());
        }
    }
    copy
}

/// The pass's state.
#[derive(Default)]
pub(super) struct State {
    pub(super) items: Vec<Item>,
    /// Groups with refs not yet listed, in order of creation.
    pub(super) groups: Vec<Group>,
    global: usize,
    pub(super) uses: Vec<Use>,
    /// The group of the `<references>` being processed.
    pub(super) list_group: Option<String>,
    /// Depth of content that is not shown in place (a list's body, a
    /// conflicting redefinition).
    pub(super) embedded: usize,
    /// Depth of ref bodies being processed.
    pub(super) ref_depth: usize,
    locks: Vec<(String, String)>,
    /// The page's link form (`./Title`).
    pub(super) page: String,
    /// Custom footnote labels by group.
    labels: HashMap<String, Vec<String>>,
    /// The page's rendered ref bodies, which placeholders name.
    pub(super) bodies: super::placeholder::SharedBodies,
    /// How many uses have their final `data-mw` (once all have, no walk
    /// looks further).
    pub(super) finalized: std::cell::Cell<usize>,
    /// A list was marked [`super::placeholder::DROP`] (the page's last walk
    /// looks for them only then).
    pub(super) drops: bool,
    /// Walks under way (the page's is the first).
    pub(super) walks: usize,
    /// Where the page's walk left its `<sup>`s: child indices from the page's
    /// top-level nodes (nothing moves them before they are finalized), one
    /// after the other in one list (no `Vec` per `<sup>`), each after its
    /// use's index and its length.
    pub(super) sup_paths: Vec<usize>,
}

/// The start of a footnote's id (`cite_note-name-1`, `cite_note-2`).
const NOTE_ID: &str = "cite_note-";

/// Cite's fragment-id normalization: runs of `_` and whitespace become `_`
/// (appended to `out`).
fn normalize_id_into(id: &str, out: &mut String) {
    let mut run = false;
    // Runs of ASCII without `_` or whitespace are copied whole.
    let mut rest = id;
    while !rest.is_empty() {
        let plain = rest
            .bytes()
            .position(|b| !b.is_ascii() || b == b'_' || b.is_ascii_whitespace() || b == 0x0B)
            .unwrap_or(rest.len());
        if plain > 0 {
            out.push_str(rest.get(..plain).unwrap_or_default());
            run = false;
        }
        rest = rest.get(plain..).unwrap_or_default();
        let Some(c) = rest.chars().next() else { break };
        rest = rest.get(c.len_utf8()..).unwrap_or_default();
        if c == '_' || c.is_whitespace() {
            if !run {
                out.push('_');
            }
            run = true;
        } else {
            out.push(c);
            run = false;
        }
    }
}

/// Plain decimal texts below [`crate::decimal::LIMIT`].
const NUMBERS: crate::decimal::Decimals = crate::decimal::decimals!(b"");

/// `n` in decimal as a text or attribute value: static text below 1 000
/// (every footnote label and backlink number of the corpus: no string made
/// and freed for each), an owned string past them.
pub(crate) fn number_text(n: usize) -> Value {
    NUMBERS
        .get(n)
        .map_or_else(|| n.to_string().into(), Value::from)
}

/// Appends `n` in decimal (the ids' numbers, the transclusion markers'
/// indexes; no formatting machinery).
pub(crate) fn push_number(out: &mut String, n: usize) {
    // `usize::MAX` has at most 20 digits.
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    while at > 0 {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in digits.get(at..).unwrap_or_default() {
        out.push(char::from(d));
    }
}

/// Whether [`href_fragment_into`] copies `id` unchanged: at most 1024
/// bytes (nothing to cut), no whitespace or `%`.
fn is_fragment(id: &str) -> bool {
    id.len() <= 1024 && !id.bytes().any(|b| b <= b' ' || b == b'%')
}

/// An id as a link fragment (Parsoid's `Sanitizer::escapeIdForLink`: at most
/// 1024 characters, whitespace as `_`, a `%` that starts an escape as `%25`).
fn href_fragment_into(id: &str, out: &mut String) {
    // At most 1024 bytes: at most 1024 characters, nothing to cut.
    let id = match (id.len() > 1024)
        .then(|| id.char_indices().nth(1024))
        .flatten()
    {
        Some((at, _)) => id.get(..at).unwrap_or(id),
        None => id,
    };
    // The ids Cite makes (`normalize_id_into`: whitespace already `_`)
    // rarely hold a byte to change: one cheap test per byte, then one copy.
    if !id.bytes().any(|b| b <= b' ' || b == b'%') {
        out.push_str(id);
        return;
    }
    // Runs without whitespace or `%` are copied whole.
    let bytes = id.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' => {
                out.push_str(id.get(start..i).unwrap_or_default());
                out.push('_');
                start = i + 1;
            }
            b'%' if bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) =>
            {
                out.push_str(id.get(start..=i).unwrap_or_default());
                out.push_str("25");
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push_str(id.get(start..).unwrap_or_default());
}

impl State {
    /// The group of the list a ref is directly in (not in a ref body there).
    pub(super) fn list_group(&self) -> Option<&str> {
        if self.ref_depth == 0 {
            self.list_group.as_deref()
        } else {
            None
        }
    }

    pub(super) fn group_index(&mut self, name: &str) -> usize {
        match self.groups.iter().position(|g| g.name == name) {
            Some(i) => i,
            None => {
                self.groups.push(Group {
                    name: name.to_owned(),
                    next: 1,
                    ..Group::default()
                });
                self.groups.len() - 1
            }
        }
    }

    pub(super) fn lookup(&self, group: usize, name: &str) -> Option<usize> {
        if name.is_empty() {
            return None;
        }
        self.groups.get(group)?.by_name.get(name).copied()
    }

    pub(super) fn is_known(&self, group: &str, name: &str) -> bool {
        self.groups
            .iter()
            .position(|g| g.name == group)
            .and_then(|g| self.lookup(g, name))
            .is_some()
    }

    pub(super) fn is_locked(&self, group: &str, name: &str) -> bool {
        self.locks.iter().any(|(g, n)| g == group && n == name)
    }

    pub(super) fn lock(&mut self, group: &str, name: &str) {
        self.locks.push((group.to_owned(), name.to_owned()));
    }

    pub(super) fn unlock(&mut self, group: &str, name: &str) {
        if let Some(i) = self
            .locks
            .iter()
            .rposition(|(g, n)| g == group && n == name)
        {
            self.locks.remove(i);
        }
    }

    pub(super) fn add_item(&mut self, group: usize, name: &str, dir: &str) -> usize {
        self.global += 1;
        let index = self.items.len();
        let Some(g) = self.groups.get_mut(group) else {
            return index;
        };
        let number = g.next;
        g.next += 1;
        g.items.push(index);
        if !name.is_empty() {
            g.by_name.insert(name.to_owned(), index);
        }
        let mut note_id = String::with_capacity(name.len() + 24);
        note_id.push_str(NOTE_ID);
        if !name.is_empty() {
            normalize_id_into(name, &mut note_id);
        }
        let id_name_end = note_id.len();
        if !name.is_empty() {
            note_id.push('-');
        }
        push_number(&mut note_id, self.global);
        let note_fragment = is_fragment(&note_id);
        self.items.push(Item {
            name: (!name.is_empty()).then(|| name.to_owned()),
            group: g.name.clone(),
            number,
            global: self.global,
            note_id,
            id_name_end,
            note_fragment,
            dir: dir.to_owned(),
            ..Item::default()
        });
        index
    }

    pub(super) fn item(&self, i: usize) -> Option<&Item> {
        self.items.get(i)
    }

    pub(super) fn item_mut(&mut self, i: usize, f: impl FnOnce(&mut Item)) {
        if let Some(it) = self.items.get_mut(i) {
            f(it);
        }
    }

    pub(super) fn item_content(&self, i: usize) -> Option<&[Node]> {
        self.items.get(i).and_then(|it| it.content.as_deref())
    }

    pub(super) fn group_list_errors(&mut self, group: usize, errs: Vec<CiteError>) {
        if let Some(g) = self.groups.get_mut(group) {
            g.list_errors.extend(errs);
        }
    }

    /// Records a use of `tag` (its attributes move to the use).
    pub(super) fn push_use(
        &mut self,
        tag: &mut Tag,
        body: Option<UseBody>,
        errors: Vec<CiteError>,
    ) {
        self.uses.push(Use {
            attrs: std::mem::take(&mut tag.attrs),
            parts: tag.parts().map(str::to_owned),
            body,
            errors,
        });
    }

    pub(super) fn first_group_name(&self) -> Option<String> {
        self.groups.first().map(|g| g.name.clone())
    }

    /// `cite_note-…`: the footnote's id.
    pub(super) fn note_id(&self, i: usize) -> &str {
        self.items.get(i).map_or("", |it| it.note_id.as_str())
    }

    /// The prefix of a footnote text's id ([`note_text_id`](Self::note_text_id)).
    pub(super) const NOTE_TEXT: &'static str = "mw-reference-text-";

    pub(super) fn note_text_id(&self, i: usize) -> String {
        let id = self.note_id(i);
        let mut out = String::with_capacity(id.len() + 18);
        out.push_str(Self::NOTE_TEXT);
        out.push_str(id);
        out
    }

    /// `cite_ref-…`: the id of the `count`th use (default: the latest).
    pub(super) fn backlink_id(&self, i: usize, count: Option<usize>) -> String {
        let name = self.items.get(i).and_then(|it| it.name.as_deref());
        let mut out = String::with_capacity(name.map_or(0, str::len) + 32);
        self.backlink_id_into(i, count, &mut out);
        out
    }

    /// [`backlink_id`](Self::backlink_id) appended to `out`.
    fn backlink_id_into(&self, i: usize, count: Option<usize>, out: &mut String) {
        let Some(it) = self.items.get(i) else {
            return;
        };
        let count = count.unwrap_or(it.visible);
        out.push_str("cite_ref-");
        match &it.name {
            Some(n) => {
                match it.note_id.get(NOTE_ID.len()..it.id_name_end) {
                    Some(id_name) => out.push_str(id_name),
                    None => normalize_id_into(n, out),
                }
                debug_assert_eq!(
                    it.note_id.get(NOTE_ID.len()..it.id_name_end),
                    Some({
                        let mut id = String::new();
                        normalize_id_into(n, &mut id);
                        id
                    })
                    .as_deref()
                );
                out.push('_');
                push_number(out, it.global);
                out.push('-');
                push_number(out, count.saturating_sub(1));
            }
            None => {
                push_number(out, it.global);
                if count > 1 {
                    out.push('-');
                    push_number(out, count - 1);
                }
            }
        }
    }

    pub(super) fn href(&self, id: &str) -> String {
        let mut out = String::with_capacity(self.page.len() + id.len() + 8);
        out.push_str(&self.page);
        out.push('#');
        href_fragment_into(id, &mut out);
        out
    }

    /// The link to the `count`th use of item `i`: [`href`](Self::href) of its
    /// [`backlink_id`](Self::backlink_id), the id written in place (no
    /// `String` of its own) unless it needs the fragment's escapes.
    pub(super) fn backlink_href(&self, i: usize, count: usize) -> String {
        let item = self.items.get(i);
        let name = item.and_then(|it| it.name.as_deref());
        let mut out = String::with_capacity(self.page.len() + name.map_or(0, str::len) + 40);
        out.push_str(&self.page);
        out.push('#');
        let start = out.len();
        self.backlink_id_into(i, Some(count), &mut out);
        let id = out.get(start..).unwrap_or_default();
        // The id's name part is the note id's: when that is a fragment as it
        // is, so is the id but for its length (no scan of its bytes).
        let clean = item.is_some_and(|it| it.note_fragment);
        let needs_escapes = |id: &str| id.bytes().any(|b| b <= b' ' || b == b'%');
        debug_assert!(!clean || !needs_escapes(id), "{id}");
        if id.len() > 1024 || (!clean && needs_escapes(id)) {
            let id = out.split_off(start);
            href_fragment_into(&id, &mut out);
        }
        out
    }

    /// Remembers the custom labels a tag brought for `group`.
    pub(super) fn learn_labels(&mut self, group: &str, labels: &Option<Vec<String>>) {
        if let Some(l) = labels {
            self.labels
                .entry(group.to_owned())
                .or_insert_with(|| l.clone());
        }
    }

    /// A footnote's label: the group's custom label for its number, else the
    /// number (after the group's name when `with_group`).
    pub(super) fn label(&self, i: usize, with_group: bool) -> Value {
        let Some(it) = self.items.get(i) else {
            return Value::EMPTY;
        };
        if let Some(l) = self
            .labels
            .get(&it.group)
            .and_then(|l| l.get(it.number.wrapping_sub(1)))
        {
            return l.clone().into();
        }
        if with_group && !it.group.is_empty() {
            format!("{} {}", it.group, it.number).into()
        } else {
            number_text(it.number)
        }
    }

    /// The use's link: target, label (`1`, `group 1`) and group.
    pub(super) fn link_parts(&self, i: usize) -> (String, Value, String) {
        let Some(it) = self.items.get(i) else {
            return Default::default();
        };
        (
            if it.note_fragment {
                let mut out = String::with_capacity(self.page.len() + it.note_id.len() + 1);
                out.push_str(&self.page);
                out.push('#');
                out.push_str(&it.note_id);
                debug_assert_eq!(out, self.href(&it.note_id));
                out
            } else {
                self.href(&it.note_id)
            },
            self.label(i, true),
            it.group.clone(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{href_fragment_into, normalize_id_into, number_text, push_number};

    #[test]
    fn number_texts_are_the_numbers() {
        for n in 0..=1500 {
            assert_eq!(number_text(n).as_str(), n.to_string(), "{n}");
        }
    }

    fn id(f: fn(&str, &mut String), s: &str) -> String {
        let mut out = String::new();
        f(s, &mut out);
        out
    }

    #[test]
    fn backlink_hrefs_are_the_hrefs_of_backlink_ids() {
        let mut state = super::State {
            page: "./A_page".to_owned(),
            ..super::State::default()
        };
        let group = state.group_index("");
        let long = "n".repeat(1100);
        for name in ["", "plain", "two words", "a%41b", "x\u{1}y", long.as_str()] {
            let i = state.add_item(group, name, "");
            // A use's link to the note, copied or escaped.
            assert_eq!(
                state.link_parts(i).0,
                state.href(state.note_id(i)),
                "{name:?}"
            );
            for count in [1, 2, 12] {
                assert_eq!(
                    state.backlink_href(i, count),
                    state.href(&state.backlink_id(i, Some(count))),
                    "{name:?} {count}"
                );
            }
        }
    }

    #[test]
    fn numbers_in_decimal() {
        for n in [0, 7, 10, 99, 100, 12_345, usize::MAX] {
            let mut out = String::from("x");
            push_number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn ids_join_underscores_and_whitespace() {
        assert_eq!(id(normalize_id_into, "a b__c\u{a0} \td"), "a_b_c_d");
        assert_eq!(id(normalize_id_into, "_é\u{b}x_"), "_é_x_");
        assert_eq!(id(normalize_id_into, ""), "");
    }

    #[test]
    fn fragments_escape_percent_escapes() {
        assert_eq!(id(href_fragment_into, "a b\tc"), "a_b_c");
        assert_eq!(id(href_fragment_into, "%41%4%zz%é"), "%2541%4%zz%é");
        assert_eq!(id(href_fragment_into, "x%4"), "x%4");
        // The common id, nothing to change (the one-copy path), and a control
        // byte the quick test sends the long way, kept.
        assert_eq!(
            id(href_fragment_into, "cite_note-Sm\u{e9}_1-2"),
            "cite_note-Sm\u{e9}_1-2"
        );
        assert_eq!(id(href_fragment_into, "a\u{1}b"), "a\u{1}b");
        assert_eq!(id(href_fragment_into, "\u{a0}%ff"), "\u{a0}%25ff");
    }
}
