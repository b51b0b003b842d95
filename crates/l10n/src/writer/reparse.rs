//! The re-parse fallback: the original bytes through the tagloom tree builder, the
//! translations patched into a copy of the tree, the copy serialized with the HTML
//! fragment serialization algorithm and encoded back into the input's encoding.
//!
//! # How blocks are found in the tree
//!
//! The reader identifies blocks on tokens, the tree builder makes a tree, and the two
//! do not always agree (implied end tags, foster parenting, the adoption agency).
//! So blocks are not located by position but by *content*:
//!
//! 1. The tree is parsed first (with the encoding the reader picks), so a
//!    tree-builder failure leaves the translations unconsumed for the next fallback.
//!    Then the reader runs (no skeleton), and every block's translation is asked
//!    from [`Translations`] in document order and checked, exactly as the skeleton
//!    writer does (one routine: `writer::resolve`).
//!    Content blocks are filed under their **signature**: their runs with text
//!    whitespace-collapsed and trimmed and each code reduced to its kind
//!    (open/close/placeholder). Top-level attribute blocks are filed under
//!    (element, attribute, collapsed value).
//! 2. The tree is walked in tree order, tracking `translate` inheritance. An element
//!    whose whole content reads (by the reader's rules, from their one home in
//!    [`Rules`]: [`Rules::is_block`], [`Rules::inline_role`] — paired codes,
//!    placeholders, protected subtrees — [`Rules::translate_of`]) with the
//!    signature of a pending block is that block (a leaf); otherwise each maximal run
//!    of inline content between block-level children is tried (an implicit block,
//!    trimmed like the reader trims: whitespace, comments and — at its start — opaque
//!    elements stay outside). Blocks with the same signature are taken in document
//!    order.
//! 3. A matched block is rebuilt from its target runs: text nodes for text, the
//!    matched DOM elements (the *n*-th code of the block is the *n*-th code of the
//!    DOM content: the signatures being equal, the sequences line up) for codes,
//!    with translated attribute values of its sub-blocks and, when the block was
//!    translated, `lang` values retargeted. Whitespace around the block is kept.
//!
//! # Limits
//!
//! * The output is the serialization of the tree, not the original bytes: implied
//!   elements (`html`, `head`, `body`, `tbody`) appear, attributes are re-quoted,
//!   character references are normalized, markup the tree builder repaired is
//!   written repaired. It parses to the same tree as the input (with translations).
//! * A block whose content the tree builder restructured (misnested inline markup,
//!   foster-parented text, a `<span/>` the reader took as void…) has no signature
//!   match and stays untranslated; it is reported as an [`Issue`]
//!   ([`IssueKind::NotInTree`]). Blocks with identical source text are matched in document order, which
//!   only matters when their translations differ.
//! * Memory is proportional to the document (the tree, its translated copy, all
//!   blocks: about [`BYTES_PER_INPUT_BYTE`] bytes per input byte): it is a fallback,
//!   not the streaming path. Inputs over the limit
//!   ([`crate::flow::Common::reparse_limit`], [`DEFAULT_INPUT_LIMIT`] by default) are
//!   refused before anything is read ([`L10nError::ReparseLimit`]), so the flow
//!   goes on to the block-only fallback instead of exhausting memory. Deeply nested
//!   inline markup (over 256 levels) is not matched.
//! * `lang` values are retargeted on every element outside blocks, and on codes of
//!   translated blocks (as the skeleton writer does).

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::num::NonZeroU64;

use encoding_rs::Encoding;
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::dom_patch::{AttrNamespace, DomPatch, Namespace, PatchAttr, PatchKey};
use tagloom_html::driver::{DriveError, ParseConfig};
use tagloom_html::serializer::{FragmentOptions, serialize_children};
use tagloom_html::session::SessionConfig;

use super::{
    EncodedOutput, FallbackError, Issue, IssueKind, Resolved, Translations, WriteReport,
    WriterOptions, resolve,
};
use crate::block::{Block, BlockKind, Run, runs_text};
use crate::error::{IoContext, L10nError, Result};
use crate::lang::{LanguageTag, Retarget};
use crate::reader::{ReadOptions, read_document};
use crate::rules::{InlineRole, Rules};

/// Nesting of inline markup beyond which an element is not matched.
const MAX_INLINE_DEPTH: usize = 256;

/// Patches applied to the copy at a time (the walk never holds more).
const PATCH_BATCH: usize = 4096;

/// The default of [`crate::flow::Common::reparse_limit`]: the largest input, in
/// bytes, the re-parse fallback takes on (32 MiB: about 1.2 GB of memory, see
/// [`BYTES_PER_INPUT_BYTE`]).
pub const DEFAULT_INPUT_LIMIT: u64 = 32 << 20;

/// Measured peak memory (resident set) of the re-parse fallback per byte of input,
/// rounded up: 32–34× on generated 4 and 16 MB pages dense with headings,
/// paragraphs, links, lists, images, comments and scripts (release build: 134 MB
/// for 4 MB, 510 MB for 16 MB). It holds the
/// parsed tree, its translated copy and every block with its translation; the
/// input's bytes only until both passes are done, and neither the patches of the
/// copy (applied 4096 at a time) nor its serialization (streamed to the output).
pub const BYTES_PER_INPUT_BYTE: u64 = 36;

/// What the re-parse writer needs besides the input and the translations.
pub(crate) struct Settings<'a> {
    /// The reader's options.
    pub read: ReadOptions<'a>,
    /// Languages.
    pub options: &'a WriterOptions,
    /// The largest input taken on, in bytes.
    pub limit: u64,
}

/// Parses `bytes` with the tagloom tree builder, decoding with `encoding` as the
/// transport encoding (only a BOM overrides it, as for the reader).
pub fn parse_document(bytes: &[u8], encoding: &'static Encoding) -> Result<DomStore> {
    let config = SessionConfig {
        decoder: DecoderConfig::with_transport(encoding),
        ..SessionConfig::default()
    };
    let config = ParseConfig {
        session: config,
        chunk_size: 64 * 1024,
    };
    tagloom_html::driver::parse_document(bytes, &config).map_err(|e| match e {
        DriveError::Sink(e) => L10nError::Usage(format!("the tree builder's patches: {e}")),
        e => L10nError::Usage(format!("the tree builder failed: {e}")),
    })
}

/// A block with what the translations said about it.
struct Pending {
    block: Block,
    /// Validated target runs (`None`: write the source).
    target: Option<Vec<Run>>,
    /// Sub-block targets (plain text), parallel to `block.subs`.
    subs: Vec<Option<String>>,
}

/// The signature of runs: text collapsed and trimmed, codes by kind.
fn signature<'a>(runs: impl Iterator<Item = SigItem<'a>>) -> String {
    let mut raw = String::new();
    for item in runs {
        match item {
            SigItem::Text(t) => raw.push_str(t),
            SigItem::Open => raw.push('\u{E000}'),
            SigItem::Close => raw.push('\u{E001}'),
            SigItem::Placeholder => raw.push('\u{E002}'),
        }
    }
    crate::reader::collapse_ws(&raw)
        .trim_matches(' ')
        .to_string()
}

enum SigItem<'a> {
    Text(&'a str),
    Open,
    Close,
    Placeholder,
}

fn run_sig(run: &Run) -> SigItem<'_> {
    match run {
        Run::Text(t) => SigItem::Text(t),
        Run::Open { .. } => SigItem::Open,
        Run::Close { .. } => SigItem::Close,
        Run::Placeholder { .. } => SigItem::Placeholder,
    }
}

/// Content as the reader would read it, over DOM nodes.
#[derive(Clone, Copy)]
enum DRun<'a> {
    Text(&'a str),
    Open(NodeRef<'a>),
    Close,
    Placeholder(NodeRef<'a>),
}

impl<'a> DRun<'a> {
    fn sig(&self) -> SigItem<'a> {
        match self {
            DRun::Text(t) => SigItem::Text(t),
            DRun::Open(_) => SigItem::Open,
            DRun::Close => SigItem::Close,
            DRun::Placeholder(_) => SigItem::Placeholder,
        }
    }
    fn is_code(&self) -> bool {
        !matches!(self, DRun::Text(_))
    }
}

/// Whether `element` translates: the reader's rule ([`Rules::translate_of`]).
fn translate_of(rules: &Rules, element: &tagloom_html::dom::Element, inherited: bool) -> bool {
    rules.translate_of(element.local_name(), |a| element.attr(a), inherited)
}

fn is_html_block(rules: &Rules, node: NodeRef<'_>) -> bool {
    node.as_element()
        .is_some_and(|e| e.ns() == Namespace::Html && rules.is_block(e.local_name()))
}

/// Reads `node` (and, for inline elements, its content) the way the reader reads
/// tokens. `None` when it holds a block-level element (then it is no inline content).
fn read_node<'a>(
    rules: &Rules,
    node: NodeRef<'a>,
    translate: bool,
    depth: usize,
    out: &mut Vec<DRun<'a>>,
) -> Option<()> {
    match node.kind() {
        NodeKind::Text(t) => out.push(DRun::Text(t)),
        NodeKind::Comment(_) => out.push(DRun::Placeholder(node)),
        NodeKind::Element(e) => {
            let name = e.local_name();
            let html = e.ns() == Namespace::Html;
            // A block element ends inline content, unless an inline element is open
            // around it (the reader's implicit blocks take it in as a code then).
            if html && rules.is_block(name) && depth == 0 {
                return None;
            }
            // The reader's rule; foreign elements and `template` (whose content
            // the tree keeps apart) are read whole.
            if !html
                || name == "template"
                || rules.inline_role(name, translate_of(rules, &e, translate), false)
                    != InlineRole::Paired
            {
                out.push(DRun::Placeholder(node));
                return Some(());
            }
            if depth >= MAX_INLINE_DEPTH {
                return None;
            }
            out.push(DRun::Open(node));
            for child in node.children() {
                read_node(rules, child, translate, depth + 1, out)?;
            }
            out.push(DRun::Close);
        }
        _ => return None,
    }
    Some(())
}

struct Builder<'r> {
    rules: &'r Rules,
    /// (source, target, the page's language) when `lang` values are retargeted
    /// (the rule of [`Retarget`]).
    retarget: Option<(LanguageTag, LanguageTag, Option<String>)>,
    /// Patches not yet applied to `copy` (applied every [`PATCH_BATCH`]).
    patches: Vec<DomPatch>,
    /// The translated copy of the tree, built as the walk goes.
    copy: DomStore,
    next_key: u64,
    /// Content blocks by signature, in document order.
    blocks: HashMap<String, VecDeque<usize>>,
    pending: Vec<Option<Pending>>,
    /// Top-level attribute targets by (element, attribute, collapsed value).
    attrs: HashMap<(String, String, String), VecDeque<Option<String>>>,
    report: WriteReport,
}

/// A matched block as [`Builder::rebuild`] needs it.
struct Rebuilt<'p, 'a> {
    block: &'p Block,
    /// Source run index → code ordinal (`usize::MAX` for text).
    ordinal: &'p [usize],
    /// The DOM content's codes, by ordinal.
    codes: &'p [DRun<'a>],
    /// Sub-block targets by code ordinal.
    subs: &'p HashMap<usize, Vec<(String, String)>>,
    /// Whether the block's own target is written (codes' `lang` retargeted).
    translated: bool,
}

/// Work items of the tree walk (an explicit stack: any depth).
enum Item<'a> {
    /// Copy `node` under `parent`, translating attributes and matching blocks.
    Node {
        node: NodeRef<'a>,
        parent: PatchKey,
        translate: bool,
    },
    /// Copy `node` and its subtree as it is.
    Verbatim { node: NodeRef<'a>, parent: PatchKey },
    /// The children of `node` (an element or template contents) under `parent`.
    Children {
        node: NodeRef<'a>,
        parent: PatchKey,
        translate: bool,
    },
    /// The children of an element from `next` on, a group at a time: each one
    /// copied (`plain`), or matched like the reader's implicit blocks.
    Siblings {
        next: NodeRef<'a>,
        parent: PatchKey,
        translate: bool,
        plain: bool,
    },
    /// A matched block: `runs` (a slice of the DOM content) become block `index`.
    Block {
        runs: Vec<DRun<'a>>,
        parent: PatchKey,
        index: usize,
    },
}

impl<'r> Builder<'r> {
    fn new(rules: &'r Rules, retarget: Option<(LanguageTag, LanguageTag, Option<String>)>) -> Self {
        Builder {
            rules,
            retarget,
            patches: Vec::new(),
            copy: DomStore::new(),
            next_key: 0,
            blocks: HashMap::new(),
            pending: Vec::new(),
            attrs: HashMap::new(),
            report: WriteReport::default(),
        }
    }

    /// The translated copy and the report, with an issue for each block the walk
    /// did not find.
    fn finish(self) -> (DomStore, WriteReport) {
        let mut report = self.report;
        for p in self.pending.into_iter().flatten() {
            report.blocks += 1 + p.block.subs.len();
            report.issues.push(Issue::new(
                &p.block.id,
                IssueKind::NotInTree,
                "written untranslated",
            ));
        }
        (self.copy, report)
    }

    fn key(&mut self) -> PatchKey {
        self.next_key += 1;
        PatchKey(NonZeroU64::new(self.next_key).unwrap_or(NonZeroU64::MIN))
    }

    fn append(&mut self, parent: PatchKey, child: PatchKey) {
        self.patches.push(DomPatch::AppendChild { parent, child });
    }

    fn text(&mut self, parent: PatchKey, text: &str) {
        if text.is_empty() {
            return;
        }
        let key = self.key();
        self.patches.push(DomPatch::CreateText {
            key,
            text: text.to_string(),
        });
        self.append(parent, key);
    }

    fn is_lang(&self, element: &tagloom_html::dom::Element, attr: &PatchAttr) -> bool {
        match attr.ns {
            AttrNamespace::Xml => attr.name == "lang",
            AttrNamespace::None => {
                self.rules
                    .is_lang_value(element.local_name(), &attr.name, |a| element.attr(a))
            }
            _ => false,
        }
    }

    fn retarget(&mut self, value: &mut String) {
        if let Some((source, target, page)) = &self.retarget
            && !value.trim().is_empty()
            && (Retarget {
                source,
                target,
                page: page.clone(),
            })
            .applies(value)
        {
            *value = target.to_string();
            self.report.lang_retargeted += 1;
        }
    }

    /// The root `html` element: its `lang` is the page's language, and its `dir`
    /// follows the target's direction ([`Retarget::dir`]).
    fn root_attrs(&mut self, attrs: &mut Vec<PatchAttr>) {
        let Some((source, target, page)) = &mut self.retarget else {
            return;
        };
        let lang = |n: &str| {
            attrs
                .iter()
                .find(|a| a.ns == AttrNamespace::None && a.name == n)
                .map(|a| a.value.trim().to_string())
        };
        *page = lang("lang")
            .or_else(|| lang("xml:lang"))
            .filter(|p| !p.is_empty());
        let dir_at = attrs
            .iter()
            .position(|a| a.ns == AttrNamespace::None && a.name == "dir");
        let rule = Retarget {
            source,
            target,
            page: None,
        };
        let current = dir_at.and_then(|i| attrs.get(i)).map(|a| a.value.as_str());
        if let Some(dir) = rule.dir(current) {
            match dir_at.and_then(|i| attrs.get_mut(i)) {
                Some(a) => a.value = dir.as_str().to_string(),
                None => attrs.push(PatchAttr {
                    ns: AttrNamespace::None,
                    name: "dir".into(),
                    value: dir.as_str().to_string(),
                }),
            }
        }
    }

    /// Creates a shallow copy of `node` (not attached). `translate`: top-level
    /// attribute blocks apply; `lang`: retarget language values; `subs`: values of
    /// sub-blocks (attribute name, source value, target).
    fn shallow(
        &mut self,
        node: NodeRef<'_>,
        translate: bool,
        lang: bool,
        subs: &[(String, String)],
    ) -> (PatchKey, Option<PatchKey>) {
        let key = self.key();
        match node.kind() {
            NodeKind::Element(e) => {
                let mut attrs = e.attrs().to_vec();
                if e.is_html("html") && node.parent().is_some_and(|p| p.as_element().is_none()) {
                    self.root_attrs(&mut attrs);
                }
                self.translate_attrs(&e, &mut attrs, translate, lang, subs);
                let contents = node.template_contents().map(|_| self.key());
                self.patches.push(DomPatch::CreateElement {
                    key,
                    ns: e.ns(),
                    name: e.local_name().to_string().into(),
                    attrs,
                    contents,
                });
                (key, contents)
            }
            NodeKind::Text(t) => {
                self.patches.push(DomPatch::CreateText {
                    key,
                    text: t.to_string(),
                });
                (key, None)
            }
            NodeKind::Comment(t) => {
                self.patches.push(DomPatch::CreateComment {
                    key,
                    text: t.to_string(),
                });
                (key, None)
            }
            NodeKind::ProcessingInstruction(pi) => {
                self.patches.push(DomPatch::CreateProcessingInstruction {
                    key,
                    target: pi.target().to_string(),
                    data: pi.data().to_string(),
                });
                (key, None)
            }
            NodeKind::Doctype(d) => {
                self.patches.push(DomPatch::CreateDoctype {
                    key,
                    name: d.name().to_string(),
                    public_id: d.public_id().to_string(),
                    system_id: d.system_id().to_string(),
                });
                (key, None)
            }
            NodeKind::Document | NodeKind::DocumentFragment => (key, None),
        }
    }

    /// The attributes of a copy of `e`: language values retargeted (`lang`, not on
    /// language switchers), sub-block values (`subs`: attribute name, target), and
    /// when `translate`, the targets of top-level attribute blocks.
    fn translate_attrs(
        &mut self,
        e: &tagloom_html::dom::Element,
        attrs: &mut [PatchAttr],
        translate: bool,
        lang: bool,
        subs: &[(String, String)],
    ) {
        // Language switchers (`<a hreflang>`) keep their `lang`.
        let switcher = e.attr("hreflang").is_some();
        for attr in attrs {
            if self.is_lang(e, attr) {
                if lang && !switcher {
                    self.retarget(&mut attr.value);
                }
                continue;
            }
            if attr.ns != AttrNamespace::None {
                continue;
            }
            if let Some((_, target)) = subs.iter().find(|(n, _)| *n == attr.name) {
                attr.value = target.clone();
                continue;
            }
            if !translate || attr.value.trim().is_empty() {
                continue;
            }
            let k = (
                e.local_name().to_string(),
                attr.name.to_string(),
                crate::reader::collapse_ws(attr.value.trim()),
            );
            if let Some(queue) = self.attrs.get_mut(&k)
                && let Some(Some(target)) = queue.pop_front()
            {
                attr.value = target;
                self.report.translated += 1;
            }
        }
    }

    /// The pending block whose signature is `sig`, if any (taken).
    fn take_block(&mut self, sig: &str) -> Option<usize> {
        if sig.is_empty() {
            return None;
        }
        let queue = self.blocks.get_mut(sig)?;
        let index = queue.pop_front()?;
        if queue.is_empty() {
            self.blocks.remove(sig);
        }
        Some(index)
    }

    /// Applies the pending patches to the copy.
    fn apply(&mut self) -> Result<()> {
        self.copy
            .apply_patches(&self.patches)
            .map_err(|e| L10nError::Usage(format!("rebuilding the tree: {e}")))?;
        self.patches.clear();
        Ok(())
    }

    fn walk<'a>(&mut self, document: NodeRef<'a>, root: PatchKey) -> Result<()> {
        let mut stack: Vec<Item<'a>> = vec![Item::Children {
            node: document,
            parent: root,
            translate: true,
        }];
        while let Some(item) = stack.pop() {
            if self.patches.len() >= PATCH_BATCH {
                self.apply()?;
            }
            match item {
                Item::Verbatim { node, parent } => {
                    let (key, contents) = self.shallow(node, false, false, &[]);
                    self.append(parent, key);
                    push_children(&mut stack, node, key, contents, |node, parent| {
                        Item::Verbatim { node, parent }
                    });
                }
                Item::Node {
                    node,
                    parent,
                    translate,
                } => {
                    let own = node
                        .as_element()
                        .map_or(translate, |e| translate_of(self.rules, &e, translate));
                    let (key, contents) = self.shallow(node, own, true, &[]);
                    self.append(parent, key);
                    if let Some(c) = contents.zip(node.template_contents()) {
                        stack.push(Item::Children {
                            node: c.1,
                            parent: c.0,
                            translate: own,
                        });
                    }
                    let Some(e) = node.as_element() else {
                        continue;
                    };
                    if e.ns() != Namespace::Html || self.rules.is_opaque(e.local_name()) {
                        // Opaque content is never translated: copied as it is.
                        push_children(&mut stack, node, key, None, |node, parent| Item::Verbatim {
                            node,
                            parent,
                        });
                        continue;
                    }
                    stack.push(Item::Children {
                        node,
                        parent: key,
                        translate: own,
                    });
                }
                Item::Children {
                    node,
                    parent,
                    translate,
                } => {
                    let items = self.plan_children(node, parent, translate);
                    stack.extend(items.into_iter().rev());
                }
                Item::Siblings {
                    next,
                    parent,
                    translate,
                    plain,
                } => {
                    let items = self.plan_siblings(next, parent, translate, plain);
                    stack.extend(items);
                }
                Item::Block {
                    runs,
                    parent,
                    index,
                } => self.write_block(&runs, parent, index, &mut stack),
            }
        }
        self.apply()
    }

    /// The work items for the children of `node`: a leaf block, or implicit blocks
    /// between block-level children, or plain copies.
    fn plan_children<'a>(
        &mut self,
        node: NodeRef<'a>,
        parent: PatchKey,
        translate: bool,
    ) -> Vec<Item<'a>> {
        let siblings = |plain| {
            node.first_child().map(|next| Item::Siblings {
                next,
                parent,
                translate,
                plain,
            })
        };
        if !translate || node.as_element().is_none() {
            return siblings(true).into_iter().collect();
        }
        // A leaf: the whole content is one block.
        let mut runs = Vec::new();
        if node
            .children()
            .all(|c| read_node(self.rules, c, translate, 0, &mut runs).is_some())
        {
            let sig = signature(runs.iter().map(DRun::sig));
            if let Some(index) = self.take_block(&sig) {
                return vec![Item::Block {
                    runs,
                    parent,
                    index,
                }];
            }
        }
        // Implicit blocks: maximal inline runs between block-level children, one
        // group at a time (the stack never holds a whole child list).
        siblings(false).into_iter().collect()
    }

    /// The work items for the next group of children from `next` on: the child
    /// itself (`plain`, or a block-level child), or a maximal inline run; then a
    /// [`Item::Siblings`] for the rest. In stack order (the last is done first).
    fn plan_siblings<'a>(
        &mut self,
        next: NodeRef<'a>,
        parent: PatchKey,
        translate: bool,
        plain: bool,
    ) -> Vec<Item<'a>> {
        let rest = |after: Option<NodeRef<'a>>| {
            after.map(|next| Item::Siblings {
                next,
                parent,
                translate,
                plain,
            })
        };
        if plain || is_html_block(self.rules, next) {
            let mut items: Vec<Item<'a>> = rest(next.next_sibling()).into_iter().collect();
            items.push(Item::Node {
                node: next,
                parent,
                translate,
            });
            return items;
        }
        let mut nodes = vec![next];
        let mut after = next.next_sibling();
        while let Some(node) = after.filter(|n| !is_html_block(self.rules, *n)) {
            nodes.push(node);
            after = node.next_sibling();
        }
        let mut group = Vec::new();
        self.plan_inline(&nodes, parent, translate, &mut group);
        let mut items: Vec<Item<'a>> = rest(after).into_iter().collect();
        items.extend(group.into_iter().rev());
        items
    }

    /// An inline run of children: trimmed like the reader trims, then matched.
    fn plan_inline<'a>(
        &mut self,
        nodes: &[NodeRef<'a>],
        parent: PatchKey,
        translate: bool,
        items: &mut Vec<Item<'a>>,
    ) {
        let plain = |node| Item::Node {
            node,
            parent,
            translate,
        };
        let ws = |n: &NodeRef<'_>| match n.kind() {
            NodeKind::Text(t) => t.chars().all(crate::reader::is_html_ws),
            NodeKind::Comment(_) => true,
            _ => false,
        };
        let opaque = |n: &NodeRef<'_>| {
            n.as_element()
                .is_some_and(|e| e.ns() != Namespace::Html || self.rules.is_opaque(e.local_name()))
        };
        let mut a = 0;
        while a < nodes.len() && (ws(&nodes[a]) || opaque(&nodes[a])) {
            a += 1;
        }
        let mut b = nodes.len();
        while b > a && ws(&nodes[b - 1]) {
            b -= 1;
        }
        let mut runs = Vec::new();
        let matched = if a < b
            && nodes[a..b]
                .iter()
                .all(|c| read_node(self.rules, *c, translate, 0, &mut runs).is_some())
        {
            let sig = signature(runs.iter().map(DRun::sig));
            self.take_block(&sig)
        } else {
            None
        };
        match matched {
            Some(index) => {
                items.extend(nodes[..a].iter().copied().map(plain));
                items.push(Item::Block {
                    runs,
                    parent,
                    index,
                });
                items.extend(nodes[b..].iter().copied().map(plain));
            }
            None => items.extend(nodes.iter().copied().map(plain)),
        }
    }

    /// Writes block `index` over the DOM content `runs` under `parent`.
    fn write_block<'a>(
        &mut self,
        runs: &[DRun<'a>],
        parent: PatchKey,
        index: usize,
        stack: &mut Vec<Item<'a>>,
    ) {
        let Some(p) = self.pending.get_mut(index).and_then(Option::take) else {
            return;
        };
        self.report.blocks += 1 + p.block.subs.len();
        let codes: Vec<DRun<'a>> = runs.iter().copied().filter(DRun::is_code).collect();
        // Source run index → code ordinal.
        let mut ordinal = vec![usize::MAX; p.block.runs.len()];
        let mut n = 0;
        for (i, run) in p.block.runs.iter().enumerate() {
            if run.code_id().is_some() {
                ordinal[i] = n;
                n += 1;
            }
        }
        if n != codes.len() {
            // Cannot happen with equal signatures; stay safe.
            self.copy_runs(runs, parent, stack);
            return;
        }
        let subs = self.sub_targets(&p, &ordinal, &codes);
        if p.target.is_none() && subs.is_empty() {
            self.copy_runs(runs, parent, stack);
            return;
        }
        let translated = p.target.is_some();
        if translated {
            self.report.translated += 1;
        }
        // Whitespace around the block stays (the reader leaves it in the skeleton).
        let (lead, trail) = if p.block.preserve {
            ("", "")
        } else {
            let lead = match runs.first() {
                Some(DRun::Text(t)) => {
                    &t[..t.len() - t.trim_start_matches(crate::reader::is_html_ws).len()]
                }
                _ => "",
            };
            let trail = match runs.last() {
                Some(DRun::Text(t)) => &t[t.trim_end_matches(crate::reader::is_html_ws).len()..],
                _ => "",
            };
            (lead, trail)
        };
        self.text(parent, lead);
        let rebuilt = Rebuilt {
            block: &p.block,
            ordinal: &ordinal,
            codes: &codes,
            subs: &subs,
            translated,
        };
        self.rebuild(
            &rebuilt,
            p.target.as_deref().unwrap_or(&p.block.runs),
            parent,
            stack,
        );
        self.text(parent, trail);
    }

    /// Sub-block targets per code ordinal: (attribute name, target), for each
    /// translated sub-block of `p` whose attribute the matching DOM element has.
    fn sub_targets(
        &mut self,
        p: &Pending,
        ordinal: &[usize],
        codes: &[DRun<'_>],
    ) -> HashMap<usize, Vec<(String, String)>> {
        let mut subs: HashMap<usize, Vec<(String, String)>> = HashMap::new();
        for ((sub, at), target) in p.block.subs.iter().zip(&p.block.sub_refs).zip(&p.subs) {
            let (Some(target), Some(&k)) = (target, ordinal.get(at.run)) else {
                continue;
            };
            let Some(DRun::Open(node) | DRun::Placeholder(node)) = codes.get(k) else {
                continue;
            };
            let Some(e) = node.as_element() else { continue };
            let source = sub.plain_text();
            let taken: Vec<String> = subs
                .get(&k)
                .map_or(Vec::new(), |v| v.iter().map(|(n, _)| n.clone()).collect());
            let attr = e.attrs().iter().find(|a| {
                a.ns == AttrNamespace::None
                    && !taken.iter().any(|t| *t == a.name)
                    && crate::reader::collapse_ws(a.value.trim()) == source
                    && self
                        .rules
                        .is_translatable_attr(e.local_name(), a.name, |x| e.attr(x))
            });
            if let Some(attr) = attr {
                subs.entry(k)
                    .or_default()
                    .push((attr.name.to_string(), target.clone()));
                self.report.translated += 1;
            }
        }
        subs
    }

    /// The block's `target` runs under `parent`: text nodes, and shallow copies of
    /// the matched DOM elements for codes (placeholders with their subtree).
    fn rebuild<'a>(
        &mut self,
        b: &Rebuilt<'_, 'a>,
        target: &[Run],
        parent: PatchKey,
        stack: &mut Vec<Item<'a>>,
    ) {
        let mut open = vec![parent];
        for run in target {
            let top = *open.last().unwrap_or(&parent);
            let code = match run {
                Run::Text(t) => {
                    self.text(top, t);
                    continue;
                }
                Run::Close { .. } => {
                    if open.len() > 1 {
                        open.pop();
                    }
                    continue;
                }
                code => code,
            };
            let Some(k) = super::source_code(&b.block.runs, code).and_then(|i| b.ordinal.get(i))
            else {
                continue;
            };
            let node = match b.codes.get(*k) {
                Some(DRun::Open(node) | DRun::Placeholder(node)) => *node,
                _ => continue,
            };
            let attrs = b.subs.get(k).map_or(&[][..], Vec::as_slice);
            let (key, contents) = self.shallow(node, false, b.translated, attrs);
            self.append(top, key);
            if matches!(run, Run::Open { .. }) {
                open.push(key);
            } else {
                push_children(stack, node, key, contents, |node, parent| Item::Verbatim {
                    node,
                    parent,
                });
            }
        }
    }

    /// Copies DOM content as it is (an untranslated block).
    fn copy_runs<'a>(&mut self, runs: &[DRun<'a>], parent: PatchKey, stack: &mut Vec<Item<'a>>) {
        let mut open = vec![parent];
        for run in runs {
            let top = *open.last().unwrap_or(&parent);
            match run {
                DRun::Text(t) => self.text(top, t),
                DRun::Open(node) => {
                    let (key, _) = self.shallow(*node, false, false, &[]);
                    self.append(top, key);
                    open.push(key);
                }
                DRun::Close => {
                    if open.len() > 1 {
                        open.pop();
                    }
                }
                DRun::Placeholder(node) => stack.push(Item::Verbatim {
                    node: *node,
                    parent: top,
                }),
            }
        }
    }
}

/// Pushes the children of `node` (and its template contents) as work items.
fn push_children<'a>(
    stack: &mut Vec<Item<'a>>,
    node: NodeRef<'a>,
    key: PatchKey,
    contents: Option<PatchKey>,
    make: impl Fn(NodeRef<'a>, PatchKey) -> Item<'a>,
) {
    let children: Vec<NodeRef<'a>> = node.children().collect();
    stack.extend(children.into_iter().rev().map(|c| make(c, key)));
    if let Some((c, k)) = node.template_contents().zip(contents) {
        let children: Vec<NodeRef<'a>> = c.children().collect();
        stack.extend(children.into_iter().rev().map(|child| make(child, k)));
    }
}

/// The re-parse writer (see the module docs). Errors before the first translation
/// is asked are [`FallbackError::Unavailable`] (the next fallback may run); later
/// ones are [`FallbackError::Failed`].
pub(super) fn write_reparsed(
    input: &std::path::Path,
    settings: &Settings<'_>,
    translations: &mut dyn Translations,
    out: &mut dyn Write,
) -> std::result::Result<WriteReport, FallbackError> {
    let Settings {
        read: read_options,
        options,
        limit,
    } = *settings;
    let (rules, forced) = (read_options.rules, read_options.encoding);
    let bytes = read_within(input, limit).map_err(FallbackError::Unavailable)?;
    // The encoding the reader will pick.
    let (encoding, bom_len) = crate::reader::detect_encoding(&bytes, forced);
    // 1. The tree first: a tree-builder failure leaves the translations unconsumed
    // for the next fallback.
    let store = parse_document(&bytes, encoding).map_err(FallbackError::Unavailable)?;
    // The BOM that decided the encoding, if any (kept in the output).
    let bom = bytes.get(..bom_len).unwrap_or_default().to_vec();
    let retarget = options
        .target_lang
        .clone()
        .filter(|t| !t.is_empty() && translations.any_translated())
        .map(|t| (options.source_lang.clone(), t, None));
    let mut builder = Builder::new(rules, retarget);
    // 2. The blocks as the reader identifies them, each with its translation (asked
    // in document order, as the skeleton writer asks). From here on translations
    // are consumed: every error is fatal.
    let mut attr_blocks = 0usize;
    let read = {
        let mut sink = |block: &Block| -> Result<()> {
            attr_blocks += builder.file_block(block, translations)?;
            Ok(())
        };
        read_document(
            std::io::Cursor::new(&bytes),
            input,
            &read_options,
            None,
            Some(&mut sink),
        )
        .map_err(FallbackError::Failed)?
    };
    drop(bytes);
    if read.encoding != encoding {
        return Err(FallbackError::Failed(L10nError::Usage(format!(
            "the re-parse fallback decoded {} as {} but the reader as {}",
            input.display(),
            encoding.name(),
            read.encoding.name()
        ))));
    }
    let finished = translations.finish().map_err(FallbackError::Failed)?;
    builder.report.issues.extend(finished);
    translate_tree(&mut builder, store).map_err(FallbackError::Failed)?;
    let (copy, mut report) = builder.finish();
    report.blocks += attr_blocks;
    (report.bytes_written, report.char_references) =
        serialize(&copy, read.encoding, &bom, out).map_err(FallbackError::Failed)?;
    report.encoding = Some(read.encoding);
    Ok(report)
}

/// The bytes of `input`, refused ([`L10nError::ReparseLimit`]) when over `limit`
/// before they are read (and after, should the file have grown).
fn read_within(input: &std::path::Path, limit: u64) -> Result<Vec<u8>> {
    let over = |size| L10nError::ReparseLimit {
        path: input.to_path_buf(),
        size,
        limit,
    };
    let size = std::fs::metadata(input)
        .ctx(|| format!("reading {}", input.display()))?
        .len();
    if size > limit {
        return Err(over(size));
    }
    let bytes = std::fs::read(input).ctx(|| format!("reading {}", input.display()))?;
    if bytes.len() as u64 > limit {
        return Err(over(bytes.len() as u64));
    }
    Ok(bytes)
}

impl Builder<'_> {
    /// Asks the translation of `block` (and of its sub-blocks) and files it:
    /// content blocks by signature, attribute blocks by (element, attribute,
    /// value). Returns 1 for an attribute block (counted apart), else 0.
    fn file_block(&mut self, block: &Block, translations: &mut dyn Translations) -> Result<usize> {
        let Resolved { target, subs } = resolve(block, translations, &mut self.report.issues)?;
        match block.kind {
            BlockKind::Attribute { .. } => {
                let attr = block.path.rsplit_once("/@").map_or("", |(_, a)| a);
                self.attrs
                    .entry((block.element.clone(), attr.to_string(), block.plain_text()))
                    .or_default()
                    .push_back(target.map(|t| runs_text(&t)));
                Ok(1)
            }
            BlockKind::Content => {
                let sig = signature(block.runs.iter().map(run_sig));
                self.blocks
                    .entry(sig)
                    .or_default()
                    .push_back(self.pending.len());
                // The walk needs no bytes, notes or path: the tree has them.
                let mut block = block.clone();
                block.original = Vec::new();
                block.notes = Vec::new();
                block.path = String::new();
                self.pending.push(Some(Pending {
                    block,
                    target,
                    subs,
                }));
                Ok(0)
            }
        }
    }
}

/// Step 4: a copy of the tree with the translations in (the original tree is dropped
/// once copied).
fn translate_tree(builder: &mut Builder<'_>, store: DomStore) -> Result<()> {
    let document = store
        .document()
        .ok_or_else(|| L10nError::Usage("the tree builder made no document".into()))?;
    let root = builder.key();
    builder.patches.push(DomPatch::CreateDocument { key: root });
    builder.patches.push(DomPatch::SetQuirksMode {
        mode: store.quirks_mode(),
    });
    builder.walk(document, root)
}

/// Step 5: serializes the copy straight into `out`, encoded in the input's encoding
/// by the skeleton writer's [`EncodedOutput`] (character references for what it
/// cannot hold), after `bom`. Returns the bytes written and the characters written
/// as references (the whole document's: the tree holds no trace of the input's own).
fn serialize(
    copy: &DomStore,
    encoding: &'static Encoding,
    bom: &[u8],
    out: &mut dyn Write,
) -> Result<(u64, u64)> {
    let io = |e| L10nError::io(super::WRITING_OUTPUT, e);
    let document = copy
        .document()
        .ok_or_else(|| L10nError::Usage("the rebuilt tree has no document".into()))?;
    let mut sink = EncodingSink {
        out: EncodedOutput::new(out, encoding),
        text: String::new(),
        error: None,
    };
    sink.out.raw(bom).map_err(io)?;
    let serialized = serialize_children(document, FragmentOptions::default(), &mut sink);
    sink.flush_text();
    if let Some(e) = sink.error {
        return Err(io(e));
    }
    serialized.map_err(|_| L10nError::Usage("serializing the tree failed".into()))?;
    Ok((sink.out.written(), sink.out.references()))
}

/// A `fmt::Write` over [`EncodedOutput`] that encodes what the serializer writes
/// 64 KiB at a time.
struct EncodingSink<'o> {
    out: EncodedOutput<&'o mut dyn Write>,
    text: String,
    error: Option<std::io::Error>,
}

impl EncodingSink<'_> {
    const CHUNK: usize = 64 * 1024;

    fn flush_text(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.text(&self.text)
        {
            self.error = Some(e);
        }
        self.text.clear();
    }
}

impl std::fmt::Write for EncodingSink<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.text.push_str(s);
        if self.text.len() >= Self::CHUNK {
            self.flush_text();
        }
        match self.error {
            Some(_) => Err(std::fmt::Error),
            None => Ok(()),
        }
    }
}
