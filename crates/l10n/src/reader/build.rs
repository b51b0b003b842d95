//! Building a block of runs from the tokens of a leaf (or of an inline run inside a
//! container): text coalesced and normalized, inline elements as paired codes,
//! void inline elements and comments as placeholders, non-translatable subtrees
//! (`script`, `translate="no"`…) as one placeholder, translatable attributes of inline
//! elements as sub-blocks.

use std::io::Read;

use super::input::SourceWindow;
use super::tokens::{Tok, TokenStream, ValueRange};
use crate::block::{Block, BlockKind, Buffers, Run, SubRef, quote_ending};
use crate::ids::push_decimal;
use crate::rules::{InlineRole, Rules};
use encoding_rs::UTF_8;
use tagloom_html::atom;
use tagloom_html::dom_patch::AttrNamespace;
use tagloom_html::token::{Name, OwnedAttribute, TokenKind};

/// HTML whitespace.
pub(crate) fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c')
}

/// Whether comment data is an IE conditional comment or one of its ends
/// (`<!--[if IE]>…<![endif]-->`, `<!--[if !IE]><!-->`, `<!--<![endif]-->`, and
/// the bogus comments of `<![if !IE]>`, `<![endif]>`): markup for old browsers,
/// never a translator's note.
pub(crate) fn is_conditional_comment(data: &str) -> bool {
    let data = data.trim_start_matches(is_ws).as_bytes();
    let starts = |prefix: &[u8]| {
        data.get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
    };
    starts(b"[if ") || starts(b"[if\t") || starts(b"<![endif]") || starts(b"[endif]")
}

/// Collapses each run of HTML whitespace into one space.
pub(crate) fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    collapse_into(s, &mut out);
    out
}

/// Appends [`collapse`]`(s)` to `out`: the text between whitespace runs copied in
/// slices (HTML whitespace is ASCII, so every cut is a character boundary). A
/// single space stays in its slice: clean text is one copy.
pub(crate) fn collapse_into(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    let ws = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c');
    let (mut start, mut i) = (0, 0);
    loop {
        // Eight bytes at a time past text that stays as it is (most of it), up
        // to the first byte that may start a whitespace run to collapse.
        let calm = calm_prefix(word_at(bytes, i));
        i = (i + calm).min(bytes.len());
        let Some(&b) = bytes.get(i) else {
            break;
        };
        if calm == 8 {
            continue;
        }
        if !ws(b) || b == b' ' && !bytes.get(i + 1).is_some_and(|&n| ws(n)) {
            i += 1;
            continue;
        }
        out.push_str(s.get(start..i).unwrap_or_default());
        out.push(' ');
        while bytes.get(i).is_some_and(|&b| ws(b)) {
            i += 1;
        }
        start = i;
    }
    out.push_str(s.get(start..).unwrap_or_default());
}

/// The eight bytes of `bytes` from `i` as a little-endian word, past the end
/// as `a` (a letter: what ends the text is no whitespace either, so the bytes
/// before it read the same to [`calm_prefix`]).
fn word_at(bytes: &[u8], i: usize) -> u64 {
    if let Some(word) = bytes
        .get(i..i + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
    {
        return u64::from_le_bytes(word);
    }
    let mut word = [b'a'; 8];
    for (to, &from) in word.iter_mut().zip(bytes.get(i..).unwrap_or_default()) {
        *to = from;
    }
    u64::from_le_bytes(word)
}

/// How many leading bytes of `word` (little-endian) [`collapse_into`] copies
/// as they are, whatever follows the word: those before the first control byte
/// (`\t`, `\n`, `\r`, `\x0c` are ones), the first space or control byte
/// followed by another, or a space or control byte last (what follows it is not
/// known); 8 when there is none. Bytes of 0x80 and up (parts of longer
/// characters) are text. Each byte is tested on its own, so every bit of the
/// masks is exact (no carry crosses a byte: its low seven bits plus 0x5F or
/// 0x60 stay below 0x100).
fn calm_prefix(word: u64) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let low = word & LOW7;
    // The high bit of each byte at most 0x20 (space or control), then below 0x20.
    let blank = !((low + 0x5F5F_5F5F_5F5F_5F5F) | word) & HIGH;
    let control = !((low + 0x6060_6060_6060_6060) | word) & HIGH;
    let stop = control | blank & (blank >> 8) | blank & (0x80 << 56);
    (stop.trailing_zeros() / 8) as usize
}

/// [`collapse_into`] of a piece that follows `out`'s text: a whitespace run
/// across the joint is one space too.
fn push_collapsed(out: &mut String, piece: &str) {
    let piece = if out.ends_with(' ') {
        piece.trim_start_matches(is_ws)
    } else {
        piece
    };
    collapse_into(piece, out);
}

/// The role of a reused string ([`Spare`] keeps one pool per role): strings of
/// one role have about one size, so a reused string rarely has to grow (a
/// reallocation costs a copy on top of the allocation it was to save).
#[derive(Clone, Copy)]
pub(crate) enum Pool {
    /// Run text and code markup.
    Text = 0,
    /// Unit ids and paths.
    Key = 1,
    /// Element names and key or path segments.
    Name = 2,
}

/// Buffers of emitted blocks and closed frames, reused by the next ones
/// ([`Spare::recycle`]): the strings of their runs, ids, paths and names, and
/// their run lists. A block then costs no allocation for them once the buffers
/// have grown. Bounded: at most [`Spare::MAX`] strings and [`Spare::MAX_BYTES`]
/// of capacity per [`Pool`], of at most [`Spare::MAX_CAPACITY`] bytes each (about
/// what the blocks of a few hand-off batches hold, `handoff.rs`: a batch comes
/// back whole).
#[derive(Default)]
pub(crate) struct Spare {
    pools: [Strings; 3],
    runs: Vec<Vec<Run>>,
    /// A block's lists, kept empty (one of each: a block takes them all).
    subs: Vec<Block>,
    sub_refs: Vec<SubRef>,
    lang_refs: Vec<SubRef>,
    /// The builder's own lists (see [`RunsBuilder`]), kept empty.
    open: Vec<(Name, usize)>,
    name_counts: Vec<(Name, u32)>,
    pending: Vec<PendingSub>,
}

/// The strings of one [`Pool`] and their capacity in all.
#[derive(Default)]
struct Strings {
    strings: Vec<String>,
    bytes: usize,
}

impl Spare {
    const MAX: usize = 1024;
    const MAX_BYTES: usize = 256 * 1024;
    const MAX_CAPACITY: usize = 4096;
    /// How many of the last kept strings [`Spare::string_for`] looks at.
    const LOOK: usize = 4;
    /// Run lists kept: two hand-off batches' worth (a batch brings back one per
    /// block, and each block takes one).
    const MAX_RUN_LISTS: usize = 2 * super::handoff::BATCH_BLOCKS;
    /// The least capacity of a new string ([`Spare::string_for`]).
    const MIN_CAPACITY: usize = 16;

    /// An empty string of at least `need` bytes for `pool`'s role: one of the
    /// last few kept when one is large enough (newest first), else a new one (a
    /// kept string that had to grow would cost a copy on top of an allocation).
    /// A new string's capacity is `need` rounded up to a power of two: strings
    /// of one role then come in a few sizes, and a kept one fits the next need
    /// of about its size (exact sizes made most looks miss: a new allocation
    /// each time while the pools were full).
    pub(crate) fn string_for(&mut self, pool: Pool, need: usize) -> String {
        let Some(pool) = self.pools.get_mut(pool as usize) else {
            return String::with_capacity(need);
        };
        let len = pool.strings.len();
        let fits = (len.saturating_sub(Self::LOOK)..len)
            .rev()
            .find(|&i| pool.strings.get(i).is_some_and(|s| s.capacity() >= need));
        let Some(i) = fits else {
            return String::with_capacity(Self::size_class(need));
        };
        let mut s = pool.strings.swap_remove(i);
        pool.bytes = pool.bytes.saturating_sub(s.capacity());
        s.clear();
        s
    }

    /// The capacity a new string of at least `need` bytes gets: a power of two
    /// (at least [`Spare::MIN_CAPACITY`]), or `need` itself when it is 0 (no
    /// allocation) or past what a pool keeps.
    fn size_class(need: usize) -> usize {
        if need == 0 || need > Self::MAX_CAPACITY {
            return need;
        }
        need.max(Self::MIN_CAPACITY).next_power_of_two()
    }

    /// `text` in a reused string of `pool`.
    pub(crate) fn copy_in(&mut self, pool: Pool, text: &str) -> String {
        let mut s = self.string_for(pool, text.len());
        s.push_str(text);
        s
    }

    /// `text` in a reused string.
    fn copy(&mut self, text: &str) -> String {
        self.copy_in(Pool::Text, text)
    }

    /// Buffers for a new block of element `element` whose text takes about
    /// `text` bytes.
    pub(crate) fn buffers(&mut self, element: &str, text: usize) -> Buffers {
        Buffers {
            element: self.copy_in(Pool::Name, element),
            text: self.string_for(Pool::Text, text),
            runs: self.runs.pop().unwrap_or_default(),
        }
    }

    /// Takes back a run string the reader is done with (kept when there is room).
    fn keep(&mut self, s: String) {
        self.keep_in(Pool::Text, s);
    }

    /// Takes back a string of `pool`'s role (kept when there is room).
    pub(crate) fn keep_in(&mut self, pool: Pool, s: String) {
        if let Some(pool) = self.pools.get_mut(pool as usize)
            && s.capacity() > 0
            && s.capacity() <= Self::MAX_CAPACITY
            && pool.strings.len() < Self::MAX
            && pool.bytes + s.capacity() <= Self::MAX_BYTES
        {
            pool.bytes += s.capacity();
            pool.strings.push(s);
        }
    }

    /// Takes back a run list that made no block.
    fn recycle_runs(&mut self, mut runs: Vec<Run>) {
        for run in runs.drain(..) {
            match run {
                Run::Text(s)
                | Run::Open { data: s, .. }
                | Run::Close { data: s, .. }
                | Run::Placeholder { data: s, .. } => self.keep(s),
            }
        }
        if runs.capacity() > 0 && self.runs.len() < Self::MAX_RUN_LISTS {
            self.runs.push(runs);
        }
    }

    /// Takes back the buffers of a block the reader is done with.
    pub(crate) fn recycle(&mut self, block: Block) {
        let Block {
            id,
            element,
            path,
            runs,
            subs,
            sub_refs,
            lang_refs,
            ..
        } = block;
        self.keep_in(Pool::Key, id);
        self.keep_in(Pool::Name, element);
        self.keep_in(Pool::Key, path);
        self.recycle_runs(runs);
        self.recycle_lists(subs, sub_refs, lang_refs);
    }

    /// Takes back a block's lists: its sub-blocks (recycled), the lists
    /// emptied.
    fn recycle_lists(
        &mut self,
        mut subs: Vec<Block>,
        mut sub_refs: Vec<SubRef>,
        mut lang_refs: Vec<SubRef>,
    ) {
        for sub in subs.drain(..) {
            self.recycle(sub);
        }
        keep_list(&mut self.subs, subs);
        sub_refs.clear();
        keep_list(&mut self.sub_refs, sub_refs);
        lang_refs.clear();
        keep_list(&mut self.lang_refs, lang_refs);
    }

    /// Takes over the buffers `from` holds, as many as there is room for (the
    /// rest stays in `from`): what another thread [`Spare::recycle`]d, moved in
    /// whole lists instead of taken apart block by block here.
    pub(crate) fn absorb(&mut self, from: &mut Spare) {
        for (to, from) in self.pools.iter_mut().zip(&mut from.pools) {
            let room = Self::MAX.saturating_sub(to.strings.len());
            let mut moved = 0;
            let fit = (from.strings.iter().take(room))
                .take_while(|s| {
                    let fits = to.bytes + moved + s.capacity() <= Self::MAX_BYTES;
                    moved += if fits { s.capacity() } else { 0 };
                    fits
                })
                .count();
            to.strings.extend(from.strings.drain(..fit));
            to.bytes += moved;
            from.bytes = from.bytes.saturating_sub(moved);
        }
        let room = Self::MAX_RUN_LISTS.saturating_sub(self.runs.len());
        let fit = room.min(from.runs.len());
        self.runs.extend(from.runs.drain(..fit));
        take_list(&mut self.subs, &mut from.subs);
        take_list(&mut self.sub_refs, &mut from.sub_refs);
        take_list(&mut self.lang_refs, &mut from.lang_refs);
    }

    /// Drops every buffer it holds (keeping its own lists' room).
    pub(crate) fn clear(&mut self) {
        for pool in &mut self.pools {
            pool.strings.clear();
            pool.bytes = 0;
        }
        self.runs.clear();
    }
}

/// Keeps `list` (empty) in `slot` unless the slot holds one already (or it never
/// grew, or grew large).
fn keep_list<T>(slot: &mut Vec<T>, list: Vec<T>) {
    const MAX_LEN: usize = 64;
    if slot.capacity() == 0 && list.capacity() <= MAX_LEN && list.is_empty() {
        *slot = list;
    }
}

/// [`keep_list`] of `from`'s list when `slot` has none (else `from` keeps it).
fn take_list<T>(slot: &mut Vec<T>, from: &mut Vec<T>) {
    if slot.capacity() == 0 {
        keep_list(slot, std::mem::take(from));
    }
}

/// Where a block is and how it reads.
pub(crate) struct BuildCtx<'a> {
    pub(crate) rules: &'a Rules,
    pub(crate) key: String,
    pub(crate) path: String,
    pub(crate) element: String,
    pub(crate) preserve: bool,
    pub(crate) translate: bool,
    /// Whether a sink reads the blocks: sub-blocks get paths and element names.
    pub(crate) for_sink: bool,
    /// Whether blocks keep a copy of their original bytes (see `Reader`).
    pub(crate) keep_original: bool,
}

/// What [`build`] made: the block and the decoded range it covers.
pub(crate) struct Built {
    pub(crate) block: Block,
    pub(crate) start: u64,
    pub(crate) end: u64,
}

/// Whether the element of start tag `tok` translates ([`Rules::translate_of`]).
/// Both values it reads are found in one pass over the attributes, by atom.
pub(crate) fn translate_of(rules: &Rules, tok: &Tok, inherited: bool) -> bool {
    if tok.class.protected() {
        return false;
    }
    let (mut class, mut translate) = (None, None);
    for a in tok.attrs() {
        if a.ns != AttrNamespace::None {
            continue;
        }
        // The first of a name, as `Tok::attr` finds it.
        if a.name.is(atom::CLASS) {
            class = class.or(Some(a.value.as_str()));
        } else if a.name.is(atom::TRANSLATE) {
            translate = translate.or(Some(a.value.as_str()));
        }
    }
    rules.translate_from(class, || translate, inherited)
}

fn raw_ws_prefix(s: &str) -> usize {
    s.len() - s.trim_start_matches(is_ws).len()
}

fn raw_ws_suffix(s: &str) -> usize {
    s.len() - s.trim_end_matches(is_ws).len()
}

/// Builds the block from the next `len` buffered tokens, with `spare`'s buffers;
/// `None` when they hold no translatable text. The block takes `ctx`'s key,
/// element and path.
pub(crate) fn build<R: Read>(
    ts: &mut TokenStream<'_, R>,
    len: usize,
    ctx: &mut BuildCtx<'_>,
    spare: &mut Spare,
) -> Option<Built> {
    ts.make_contiguous();
    let built = build_with(ts, len, ctx, spare);
    if built.is_none() {
        spare.keep_in(Pool::Key, std::mem::take(&mut ctx.key));
        spare.keep_in(Pool::Key, std::mem::take(&mut ctx.path));
        spare.keep_in(Pool::Name, std::mem::take(&mut ctx.element));
    }
    built
}

/// [`build`] once the tokens are contiguous. Always inlined (its one caller):
/// out of line, the built block was returned through memory and copied again
/// (≈ 30 M instructions on g50, where LLVM's choice flipped with unrelated edits).
#[inline(always)]
fn build_with<R: Read>(
    ts: &TokenStream<'_, R>,
    len: usize,
    ctx: &mut BuildCtx<'_>,
    spare: &mut Spare,
) -> Option<Built> {
    let toks = ts.buffered_run(len);
    let win = &ts.window;
    let (i0, i1, start, end) = region(toks, win, ctx.preserve)?;
    let mut b = RunsBuilder::new(win, spare, ctx.preserve, i1 + 1 - i0);
    let mut i = i0;
    while i <= i1 {
        let tok = &toks[i];
        match tok.kind() {
            TokenKind::Characters => b.text(tok.text(win)),
            TokenKind::Comment
            | TokenKind::ProcessingInstruction
            | TokenKind::Doctype
            | TokenKind::Eof => {
                let data = b.raw(tok, tok);
                b.placeholder(data);
            }
            TokenKind::StartTag => {
                let own_translate = translate_of(ctx.rules, tok, ctx.translate);
                match Rules::inline_role_of(tok.class, own_translate, tok.self_closing()) {
                    InlineRole::Protected => {
                        // The whole subtree, protected.
                        let k = subtree_end(&toks[..=i1], i);
                        let data = b.raw(tok, &toks[k]);
                        b.placeholder(data);
                        i = k + 1;
                        continue;
                    }
                    role => {
                        let paired = role == InlineRole::Paired;
                        b.start_tag(i, tok, paired, own_translate, ctx.rules);
                    }
                }
            }
            TokenKind::EndTag => b.end_tag(tok),
        }
        i += 1;
    }
    let runs = b.finish_runs(ctx.rules);
    if runs.is_some() {
        b.sub_blocks(toks, ctx);
    }
    let RunsBuilder {
        spare,
        mut open,
        mut name_counts,
        mut pending,
        subs,
        sub_refs,
        lang_refs,
        ..
    } = b;
    open.clear();
    keep_list(&mut spare.open, open);
    name_counts.clear();
    keep_list(&mut spare.name_counts, name_counts);
    pending.clear();
    keep_list(&mut spare.pending, pending);
    let Some(runs) = runs else {
        // No block: its lists and sub-blocks go back for the next ones (the
        // tokens are read again raw, their attribute blocks built then).
        spare.recycle_lists(subs, sub_refs, lang_refs);
        return None;
    };
    Some(Built {
        block: Block {
            id: std::mem::take(&mut ctx.key),
            kind: BlockKind::Content,
            element: std::mem::take(&mut ctx.element),
            path: std::mem::take(&mut ctx.path),
            notes: Vec::new(),
            preserve: ctx.preserve,
            runs,
            original: if ctx.keep_original {
                win.source(start, end).to_vec()
            } else {
                Vec::new()
            },
            subs,
            sub_refs,
            lang_refs,
        },
        start,
        end,
    })
}

/// The tokens `i0..=i1` a block covers and its decoded range `start..end`:
/// whitespace around it stays in the skeleton unless whitespace is preserved.
/// `None` when there is nothing but whitespace.
fn region<R: Read>(
    toks: &[Tok],
    win: &SourceWindow<R>,
    preserve: bool,
) -> Option<(usize, usize, u64, u64)> {
    let (first, last) = (toks.first()?, toks.last()?);
    let (mut i0, mut i1) = (0, toks.len() - 1);
    if preserve {
        return Some((i0, i1, first.start(), last.end()));
    }
    let ws_only = |t: &Tok| t.is_blank();
    while i0 <= i1 && ws_only(&toks[i0]) {
        i0 += 1;
    }
    if i0 > i1 {
        return None;
    }
    while ws_only(&toks[i1]) {
        i1 -= 1;
    }
    let (a, b) = (&toks[i0], &toks[i1]);
    let mut start = a.start();
    let mut end = b.end();
    if a.kind() == TokenKind::Characters {
        start += raw_ws_prefix(win.text(a.start(), a.end())) as u64;
    }
    if b.kind() == TokenKind::Characters {
        end -= raw_ws_suffix(win.text(b.start(), b.end())) as u64;
    }
    Some((i0, i1, start, end))
}

/// The index of the token that ends the protected subtree starting at `toks[i]`
/// (its matching end tag, else the last token).
fn subtree_end(toks: &[Tok], i: usize) -> usize {
    let Some(first) = toks.get(i) else {
        return i;
    };
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(i) {
        if t.same_name(first) {
            if t.kind() == TokenKind::StartTag && (!t.self_closing() || first.class.opaque()) {
                depth += 1;
            } else if t.kind() == TokenKind::EndTag {
                depth = depth.saturating_sub(1);
            }
        }
        if depth == 0 {
            return k;
        }
    }
    toks.len().saturating_sub(1).max(i)
}

/// The runs of a block as its tokens are read: text coalesced, codes numbered,
/// paired codes matched, attribute sub-blocks and language values of codes noted.
struct RunsBuilder<'w, R: Read> {
    win: &'w SourceWindow<R>,
    spare: &'w mut Spare,
    runs: Vec<Run>,
    /// Open paired codes: (element name, run index).
    open: Vec<(Name, usize)>,
    next_id: u32,
    subs: Vec<Block>,
    sub_refs: Vec<SubRef>,
    lang_refs: Vec<SubRef>,
    /// Inline elements by name, numbered for the sub-blocks' keys and paths.
    name_counts: Vec<(Name, u32)>,
    /// The attributes that may be sub-blocks, made into them once the block
    /// is known to have text ([`RunsBuilder::sub_blocks`]): a block without
    /// text makes none (its tokens are read again raw).
    pending: Vec<PendingSub>,
    /// Whitespace is kept as it is; else the text is collapsed as it is copied.
    preserve: bool,
}

impl<'w, R: Read> RunsBuilder<'w, R> {
    /// The most runs a builder makes room for before it starts: a block of
    /// `tokens` tokens makes at most as many runs, so a list reused from a
    /// smaller block grows once, not at each doubling (338 000 growths on the
    /// generated page), and a bounded one however long the block is.
    const RESERVED_RUNS: usize = 64;

    fn new(win: &'w SourceWindow<R>, spare: &'w mut Spare, preserve: bool, tokens: usize) -> Self {
        let mut runs = spare.runs.pop().unwrap_or_default();
        runs.reserve(tokens.min(Self::RESERVED_RUNS));
        RunsBuilder {
            win,
            runs,
            open: std::mem::take(&mut spare.open),
            next_id: 1,
            subs: std::mem::take(&mut spare.subs),
            sub_refs: std::mem::take(&mut spare.sub_refs),
            lang_refs: std::mem::take(&mut spare.lang_refs),
            name_counts: std::mem::take(&mut spare.name_counts),
            pending: std::mem::take(&mut spare.pending),
            spare,
            preserve,
        }
    }

    /// The source text from token `from` to token `to`, both included.
    fn raw(&mut self, from: &Tok, to: &Tok) -> String {
        self.spare.copy(self.win.text(from.start(), to.end()))
    }

    /// Text, after the text before it (collapsed unless whitespace is kept).
    fn text(&mut self, text: &str) {
        match self.runs.last_mut() {
            Some(Run::Text(t)) if self.preserve => t.push_str(text),
            Some(Run::Text(t)) => push_collapsed(t, text),
            _ if self.preserve => {
                let text = self.spare.copy(text);
                self.runs.push(Run::Text(text));
            }
            _ => {
                let mut t = self.spare.string_for(Pool::Text, text.len());
                collapse_into(text, &mut t);
                self.runs.push(Run::Text(t));
            }
        }
    }

    fn placeholder(&mut self, data: String) {
        self.runs.push(Run::Placeholder {
            id: self.next_id,
            data,
        });
        self.next_id += 1;
    }

    /// An inline start tag: a placeholder or an open code, with its attributes.
    fn start_tag(&mut self, i: usize, tok: &Tok, paired: bool, translate: bool, rules: &Rules) {
        let count = tok
            .tag_name()
            .map_or(1, |name| bump(&mut self.name_counts, name));
        let run_index = self.runs.len();
        let data = self.raw(tok, tok);
        if paired {
            self.runs.push(Run::Open {
                id: self.next_id,
                data,
            });
            if let Some(name) = tok.tag_name() {
                self.open.push((name.clone(), run_index));
            }
            self.next_id += 1;
        } else {
            self.placeholder(data);
        }
        self.attributes(i, tok, run_index, count, translate, rules);
    }

    /// The language values of the code at `run_index` (token `i`), and the
    /// attributes that may be sub-blocks ([`RunsBuilder::pending`]).
    fn attributes(
        &mut self,
        i: usize,
        tok: &Tok,
        run_index: usize,
        count: u32,
        translate: bool,
        rules: &Rules,
    ) {
        // Language switchers (`<a hreflang>`) keep their `lang`.
        let switcher = tok.attr_atom(atom::HREFLANG).is_some();
        for (k, attr) in tok.attrs().iter().enumerate().filter(|(_, a)| a.has_value) {
            let class = rules.attr_class(&attr.name);
            if class.lang() && !attr.value.trim().is_empty() {
                if !switcher {
                    self.lang_refs.push(sub_ref(tok, attr, run_index));
                }
                continue;
            }
            if translate && class.named() {
                self.pending.push(PendingSub {
                    tok: i,
                    attr: k,
                    run: run_index,
                    count,
                });
            }
        }
    }

    /// The sub-blocks of the [`RunsBuilder::pending`] attributes that translate
    /// (`toks`: the block's tokens).
    fn sub_blocks(&mut self, toks: &[Tok], ctx: &BuildCtx<'_>) {
        let mut pending = std::mem::take(&mut self.pending);
        for p in pending.drain(..) {
            let Some(tok) = toks.get(p.tok) else {
                continue;
            };
            if let Some(attr) = tok.attrs().get(p.attr) {
                self.sub_block(tok, attr, p.run, p.count, ctx);
            }
        }
        self.pending = pending;
    }

    /// The sub-block of attribute `attr` of the code at `run_index` (token
    /// `tok`, the `count`th of its name), when the rules translate it.
    fn sub_block(
        &mut self,
        tok: &Tok,
        attr: &OwnedAttribute,
        run_index: usize,
        count: u32,
        ctx: &BuildCtx<'_>,
    ) {
        let name = tok.name();
        if !ctx
            .rules
            .attr_rule_matches(name, attr.name.as_str(), |a| tok.attr(a))
            || !ctx.rules.is_translatable_text(&attr.value)
        {
            return;
        }
        let quote = quote_ending(
            self.win.text(tok.start(), attr.value_start()).as_bytes(),
            UTF_8,
        );
        let mut key = self.spare.string_for(Pool::Key, ctx.key.len() + 24);
        key.push_str(&ctx.key);
        key.push('.');
        super::push_portable(&mut key, name);
        key.push('-');
        push_decimal(&mut key, count);
        key.push(':');
        super::push_portable(&mut key, attr.name.as_str());
        let mut path = self.spare.string_for(
            Pool::Key,
            if ctx.for_sink { ctx.path.len() + 24 } else { 0 },
        );
        if ctx.for_sink {
            path.push_str(&ctx.path);
            path.push('/');
            path.push_str(name);
            path.push('[');
            push_decimal(&mut path, count);
            path.push_str("]/@");
            path.push_str(attr.name.as_str());
        }
        // A sub-block's bytes are inside its parent's: the skeleton never
        // keeps them, only a sink may read them (the interchange files'
        // writers do not: `keep_original` is off for them).
        let original = if ctx.for_sink && ctx.keep_original {
            let value = self.win.source(attr.value_start(), attr.value_end());
            value.to_vec()
        } else {
            Vec::new()
        };
        let element = if ctx.for_sink { name } else { "" };
        let buffers = self.spare.buffers(element, attr.value.len());
        self.subs.push(Block::attribute_in(
            buffers,
            key,
            path,
            quote,
            &attr.value,
            original,
        ));
        self.sub_refs.push(sub_ref(tok, attr, run_index));
    }

    /// An end tag: closes its open code (codes opened after it and never closed
    /// become placeholders), or is a placeholder itself.
    fn end_tag(&mut self, tok: &Tok) {
        let data = self.raw(tok, tok);
        let Some(pos) = self
            .open
            .iter()
            .rposition(|(n, _)| Some(n) == tok.tag_name())
        else {
            return self.placeholder(data);
        };
        for (_, idx) in self.open.drain(pos + 1..) {
            unpair(&mut self.runs, idx);
        }
        let idx = self.open.pop().map_or(0, |(_, idx)| idx);
        let id = self.runs.get(idx).and_then(Run::code_id).unwrap_or(0);
        self.runs.push(Run::Close { id, data });
    }

    /// The finished runs: unclosed codes become placeholders; `None` when the text
    /// has too few letters (NUL is no text either: the tree builder drops it in
    /// most contexts), else trimmed unless whitespace is kept (it was collapsed
    /// as it was copied, [`RunsBuilder::text`]).
    fn finish_runs(&mut self, rules: &Rules) -> Option<Vec<Run>> {
        let mut runs = std::mem::take(&mut self.runs);
        for (_, idx) in self.open.drain(..) {
            unpair(&mut runs, idx);
        }
        let texts = runs.iter().filter_map(|r| match r {
            Run::Text(t) => Some(t.as_str()),
            _ => None,
        });
        if !rules.is_translatable_pieces(texts) {
            self.spare.recycle_runs(runs);
            return None;
        }
        if !self.preserve {
            if let Some(Run::Text(t)) = runs.first_mut() {
                let n = t.len() - t.trim_start_matches(' ').len();
                t.drain(..n);
            }
            if let Some(Run::Text(t)) = runs.last_mut() {
                t.truncate(t.trim_end_matches(' ').len());
            }
            runs.retain(|r| !matches!(r, Run::Text(t) if t.is_empty()));
        }
        Some(runs)
    }
}

/// An attribute that may be a sub-block ([`RunsBuilder::pending`]): its
/// token's index among the block's, its own among the token's attributes, the
/// run of its code, and the code's number among those of its name.
pub(crate) struct PendingSub {
    tok: usize,
    attr: usize,
    run: usize,
    count: u32,
}

/// Where the value of attribute `attr` of the code at `run_index` (token
/// `tok`) sits in the code's data.
fn sub_ref(tok: &Tok, attr: &OwnedAttribute, run_index: usize) -> SubRef {
    SubRef {
        run: run_index,
        start: (attr.value_start() - tok.start()) as usize,
        end: (attr.value_end() - tok.start()) as usize,
    }
}

fn unpair(runs: &mut [Run], idx: usize) {
    if let Some(run) = runs.get_mut(idx)
        && let Run::Open { id, data } = run
    {
        *run = Run::Placeholder {
            id: *id,
            data: std::mem::take(data),
        };
    }
}

fn bump(counts: &mut Vec<(Name, u32)>, name: &Name) -> u32 {
    if let Some((_, c)) = counts.iter_mut().find(|(n, _)| n == name) {
        *c += 1;
        *c
    } else {
        counts.push((name.clone(), 1));
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spare_strings_come_back_by_role_and_empty() {
        let mut spare = Spare::default();
        let mut block = Block::paragraph("html-1.p-1", "Some text");
        block.path = "/html[1]/p[1]".into();
        block.element = "p".into();
        block.subs.push(Block::paragraph("sub", "More"));
        spare.recycle(block);
        // Ids and paths to the key pool, names to theirs, run text to its own.
        let key = spare.string_for(Pool::Key, 0);
        assert!(key.is_empty() && key.capacity() >= "sub".len());
        let name = spare.string_for(Pool::Name, 1);
        assert!(name.is_empty() && name.capacity() >= 1);
        let text = spare.string_for(Pool::Text, 4);
        assert!(text.is_empty() && text.capacity() >= "More".len());
        // None kept is large enough: a new string of the size asked.
        assert!(spare.string_for(Pool::Key, 1000).capacity() >= 1000);
        // A block's lists are kept once, empty.
        assert!(spare.subs.is_empty() && spare.subs.capacity() > 0);
        // Bounded: a large string is not kept.
        let mut spare = Spare::default();
        spare.keep_in(Pool::Name, String::with_capacity(Spare::MAX_CAPACITY + 1));
        assert_eq!(spare.string_for(Pool::Name, 0).capacity(), 0);
    }

    #[test]
    fn absorbed_buffers_stay_bounded() {
        let mut from = Spare::default();
        let mut block = Block::paragraph("html-1.p-1", "Some text");
        block.subs.push(Block::paragraph("sub", "More"));
        from.recycle(block);
        let mut spare = Spare::default();
        spare.absorb(&mut from);
        // Everything moved: strings by role, the block's lists.
        assert!(
            from.pools
                .iter()
                .all(|p| p.strings.is_empty() && p.bytes == 0)
        );
        assert!(spare.string_for(Pool::Text, 4).capacity() >= "More".len());
        assert!(spare.subs.capacity() > 0 && from.subs.capacity() == 0);
        // A full pool takes no more: the rest stays where it was.
        let mut full = Spare::default();
        let size = Spare::MAX_BYTES / 4;
        for _ in 0..4 {
            full.keep_in(
                Pool::Text,
                String::with_capacity(size.min(Spare::MAX_CAPACITY)),
            );
        }
        let mut from = Spare::default();
        for _ in 0..Spare::MAX {
            from.keep_in(Pool::Text, String::with_capacity(Spare::MAX_CAPACITY));
        }
        let offered = from.pools[Pool::Text as usize].strings.len();
        full.absorb(&mut from);
        let (to, left) = (
            &full.pools[Pool::Text as usize],
            &from.pools[Pool::Text as usize],
        );
        assert!(to.bytes <= Spare::MAX_BYTES && to.strings.len() <= Spare::MAX);
        assert_eq!(to.strings.len() - 4 + left.strings.len(), offered);
        let held: usize = to.strings.iter().map(String::capacity).sum();
        assert_eq!(held, to.bytes);
        from.clear();
        assert!(
            from.pools
                .iter()
                .all(|p| p.strings.is_empty() && p.bytes == 0)
        );
    }

    #[test]
    fn collapsing() {
        assert_eq!(collapse(" a \n\t b  "), " a b ");
        assert_eq!(collapse("a\u{a0} b"), "a\u{a0} b");
        for text in [
            "",
            " ",
            "\t\n",
            "é  ü\r\n",
            "x",
            " a",
            "a ",
            "日本\x0c\x0c語 ",
            "a b  c \n d ",
            "  ",
        ] {
            let by_chars = collapse_by_chars(text);
            assert_eq!(collapse(text), by_chars, "{text:?}");
            // Piece by piece, split anywhere: the same text.
            for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
                let mut pieces = String::new();
                push_collapsed(&mut pieces, &text[..cut]);
                push_collapsed(&mut pieces, &text[cut..]);
                assert_eq!(pieces, by_chars, "{text:?} at {cut}");
            }
        }
    }

    /// [`collapse`] character by character: the reference.
    fn collapse_by_chars(text: &str) -> String {
        let mut out = String::new();
        let mut in_ws = false;
        for c in text.chars() {
            if is_ws(c) {
                if !in_ws {
                    out.push(' ');
                }
                in_ws = true;
            } else {
                out.push(c);
                in_ws = false;
            }
        }
        out
    }

    #[test]
    fn collapsing_long_texts_word_by_word() {
        // Whitespace, control bytes, a byte of 0x20 ± 1, long characters, at
        // every offset around the eight-byte words.
        let pieces = [
            "a", " ", "  ", "\n", "\t", "\r\n", "\x0c", "\x01", "!", "\x1f", "é", "日本", "\u{a0}",
            "ab", "abcdefgh",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            let mut text = String::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut bits = state;
            for _ in 0..(bits % 24) {
                bits = bits.rotate_right(5).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                text.push_str(pieces[(bits >> 40) as usize % pieces.len()]);
            }
            assert_eq!(collapse(&text), collapse_by_chars(&text), "{text:?}");
        }
        let calm = |word: &[u8; 8]| calm_prefix(u64::from_le_bytes(*word));
        assert_eq!(calm(b"a b c d!"), 8);
        assert_eq!(calm(b"a  b c d"), 1);
        assert_eq!(calm(b"a b\nc d!"), 3);
        assert_eq!(calm(b"a b c d "), 7);
        assert_eq!(calm(b"\x01bcdefgh"), 0);
        assert_eq!(calm(b"\xc3\xa9 \xe6\x97\xa5!!"), 8);
        assert_eq!(word_at(b"ab", 0), u64::from_le_bytes(*b"abaaaaaa"));
        assert_eq!(word_at(b"ab", 2), u64::from_le_bytes(*b"aaaaaaaa"));
    }

    #[test]
    fn conditional_comments() {
        for data in [
            "[if IE]><p>Old</p><![endif]",
            "[if !IE]><!",
            "<![endif]",
            "[endif]",
            " [IF lt IE 9]>",
        ] {
            assert!(is_conditional_comment(data), "{data}");
        }
        for data in ["Main menu", "if IE", "[iffy]", ""] {
            assert!(!is_conditional_comment(data), "{data}");
        }
    }
}
