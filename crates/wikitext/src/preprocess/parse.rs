//! Brace matching: wikitext to a [`Tree`], following MediaWiki's preprocessor
//! (`Preprocessor_Hash::preprocessToObj`), rule by rule:
//!
//! - A run of `{` opens a construct when it has at least 2 braces; a run of `}`
//!   closes the innermost open run with as many braces as match, at most 3: three
//!   make an argument `{{{…}}}`, two a template `{{…}}`. Leftover opening braces
//!   stay open (`{{{{{x}}}}}` is `{{ {{{x}}} }}`), leftover closing braces are text.
//! - `[[`…`]]` is tracked the same way (so a `|` inside a link inside a template does
//!   not split the template) but makes no node.
//! - `|` splits a construct's parts and the first `=` of a part after the title
//!   names it, both only at the part's top level (not inside a nested construct,
//!   a link, a heading line, a comment or an extension tag).
//! - A line starting with `=` opens a heading until the end of the line: no `|`,
//!   `=` or closing brace of an enclosing construct is seen inside it (a single `=`
//!   at the start of a line inside a template stays a name separator).
//! - `<!-- … -->` is a comment (a line holding only comments and blanks is eaten
//!   whole); extension tags are opaque; `<noinclude>`, `<includeonly>` and
//!   `<onlyinclude>` depend on the [`Mode`].
//! - Anything still open at the end is text again (its inner constructs stay).
//!
//! One deviation, a limit: at most [`ParseOptions::max_nesting`] opening braces,
//! brackets and heading marks are open at once; further ones are text (of a longer
//! run, the first ones). This bounds the tree's depth (and so the recursion of
//! everything that walks or drops it) on hostile input such as 10 000 `{{`; real
//! pages stay far below it.
//! The parser is linear in the input apart from close-tag searches, which are cached
//! per tag name as MediaWiki does.

use tagloom_html::tokenizer::lanes::{Lanes, WIDTH};

use super::tree::{Braced, ExtTag, Node, Part, Span, Tree};

/// Which view of a page the text is preprocessed for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The page itself is rendered: `<includeonly>…</includeonly>` is dropped, the
    /// `<noinclude>` and `<onlyinclude>` tags are dropped but their content kept.
    #[default]
    Page,
    /// The text is transcluded (a template's source): `<noinclude>…</noinclude>` is
    /// dropped, `<includeonly>` tags dropped with their content kept, and if the text
    /// has an `<onlyinclude>…</onlyinclude>`, only such sections are kept.
    Transclusion,
}

/// The extension tags MediaWiki sites commonly register: their content is not
/// preprocessed. [`ParseOptions::ext_tags`] can replace the list.
pub const DEFAULT_EXT_TAGS: &[&str] = &[
    "nowiki",
    "pre",
    "ref",
    "references",
    "gallery",
    "math",
    "chem",
    "ce",
    "source",
    "syntaxhighlight",
    "poem",
    "indicator",
    "templatedata",
    "templatestyles",
    "timeline",
    "hiero",
    "score",
    "graph",
    "mapframe",
    "maplink",
    "categorytree",
    "imagemap",
    "inputbox",
    "section",
    "charinsert",
    "langconvert",
];

/// What [`parse_with`] needs besides the text.
#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// Page view or transclusion.
    pub mode: Mode,
    /// Extension tag names, lower case (see [`DEFAULT_EXT_TAGS`]).
    pub ext_tags: Vec<String>,
    /// At most this many opening braces, brackets and heading marks open at once
    /// (default 1000).
    pub max_nesting: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            mode: Mode::Page,
            ext_tags: DEFAULT_EXT_TAGS.iter().map(|s| (*s).to_owned()).collect(),
            max_nesting: 1000,
        }
    }
}

/// Parses wikitext into a preprocessor tree with the default options.
///
/// ```
/// use tagloom_wikitext::preprocess::{parse, Mode, Node};
///
/// let src = "a {{echo|x|name = y}} {{{1|d}}}";
/// let tree = parse(src, Mode::Page);
/// let Node::Template(t) = &tree.nodes[1] else { panic!() };
/// assert_eq!(&src[t.span.clone()], "{{echo|x|name = y}}");
/// assert_eq!(&src[t.title.span.clone()], "echo");
/// assert_eq!(t.parts.len(), 2);
/// assert!(t.parts[1].eq.is_some());
/// assert!(matches!(tree.nodes[3], Node::Argument(_)));
/// ```
pub fn parse(src: &str, mode: Mode) -> Tree {
    parse_with(
        src,
        &ParseOptions {
            mode,
            ..ParseOptions::default()
        },
    )
}

/// Parses wikitext into a preprocessor tree.
pub fn parse_with(src: &str, options: &ParseOptions) -> Tree {
    Parser::new(src, options).run()
}

/// The bytes the main scan stops at: `[`, `{`, `<` and newline always, the top
/// piece's closing byte, `|` where a pipe splits parts and `=` where it names
/// one; one table per combination ([`stop_set`]): [`find_stop`] tests the
/// set's bytes sixteen at a time, and the text's last bytes with the table.
static STOPS: [[bool; 256]; 12] = {
    let mut t = [[false; 256]; 12];
    let mut set = 0;
    while set < 12 {
        t[set][b'[' as usize] = true;
        t[set][b'{' as usize] = true;
        t[set][b'<' as usize] = true;
        t[set][b'\n' as usize] = true;
        match set / 4 {
            1 => t[set][b'}' as usize] = true,
            2 => t[set][b']' as usize] = true,
            _ => {}
        }
        if set & 2 != 0 {
            t[set][b'|' as usize] = true;
        }
        if set & 1 != 0 {
            t[set][b'=' as usize] = true;
        }
        set += 1;
    }
    t
};

/// The index in [`STOPS`] of a scan's stop set.
fn stop_set(closing: Option<u8>, pipe: bool, equals: bool) -> usize {
    let close = match closing {
        Some(b'}') => 1,
        Some(b']') => 2,
        // A heading's newline is a stop anyway.
        _ => 0,
    };
    close * 4 + usize::from(pipe) * 2 + usize::from(equals)
}

/// The first byte of `rest` in the stop set `set` ([`STOPS`]): sixteen
/// bytes at a time, each block compared with the set's bytes at once
/// (`tagloom_html`'s SSE2 blocks; in braces a byte at a time was six
/// instructions a byte, a fifth of the parser; on the page's own text two
/// cached memchr searches, for `[{<` and newlines, cost more on its short
/// runs between links), the last bytes of the text by the table.
fn find_stop(rest: &[u8], set: usize) -> Option<usize> {
    let (blocks, tail) = rest.as_chunks::<WIDTH>();
    // The four bytes every set has.
    let always = |v: Lanes| v.eq(b'[').or(v.eq(b'{')).or(v.eq(b'<')).or(v.eq(b'\n'));
    // The sets the stack makes (a brace piece always splits at `|`; a
    // bracket piece or a heading does not) with their bytes as constants:
    // a scan per set, not the bytes worked out and spread over a block at
    // every stop (≈ 30 instructions a call; there is a stop per ≈ 30 bytes).
    const BRACES: usize = 6;
    const BRACES_EQUALS: usize = 7;
    const BRACKETS: usize = 8;
    debug_assert_eq!(stop_set(Some(b'}'), true, false), BRACES);
    debug_assert_eq!(stop_set(Some(b'}'), true, true), BRACES_EQUALS);
    debug_assert_eq!(stop_set(Some(b']'), false, false), BRACKETS);
    // Tests, not a `match`: the compiler makes a jump table of that, an
    // indirect branch the predictor misses at about every other stop.
    let hit = if set == 0 {
        first_hit(blocks, always)
    } else if set & !1 == BRACES {
        if set == BRACES_EQUALS {
            first_hit(blocks, |v| {
                always(v).or(v.eq(b'}')).or(v.eq(b'|')).or(v.eq(b'='))
            })
        } else {
            first_hit(blocks, |v| always(v).or(v.eq(b'}')).or(v.eq(b'|')))
        }
    } else if set == BRACKETS {
        first_hit(blocks, |v| always(v).or(v.eq(b']')))
    } else {
        // The set's other bytes; one the set lacks is the newline again.
        let close = match set / 4 {
            1 => b'}',
            2 => b']',
            _ => b'\n',
        };
        let pipe = if set & 2 != 0 { b'|' } else { b'\n' };
        let equals = if set & 1 != 0 { b'=' } else { b'\n' };
        first_hit(blocks, |v| {
            always(v).or(v.eq(close)).or(v.eq(pipe)).or(v.eq(equals))
        })
    };
    if hit.is_some() {
        return hit;
    }
    let stops = STOPS.get(set)?;
    let done = blocks.len() * WIDTH;
    tail.iter()
        .position(|&c| stops[usize::from(c)])
        .map(|off| done + off)
}

/// The offset in `blocks` of the first byte `hits` marks.
#[inline(always)]
fn first_hit(blocks: &[[u8; WIDTH]], hits: impl Fn(Lanes) -> Lanes) -> Option<usize> {
    blocks.iter().enumerate().find_map(|(k, block)| {
        let bits = hits(Lanes::load(block)).bits();
        (bits != 0).then(|| k * WIDTH + bits.trailing_zeros() as usize)
    })
}

/// The parts a new `{{…}}` piece has room for (a growth past them doubles):
/// citation templates, most of the calls in ref bodies, have eight to a
/// dozen parameters, and a piece's parts live only while it is open.
const BRACE_PARTS: usize = 16;

/// The parts of a new `{{…}}`/`{{{…}}}` piece: the title's, with room for
/// a few parameters (most calls have some), made at once.
fn brace_parts(start: usize) -> Vec<Part> {
    let mut parts = Vec::with_capacity(BRACE_PARTS);
    parts.push(new_part(start));
    parts
}

/// The nodes a part has room for when made (a growth past them doubles).
const PART_NODES: usize = 4;

/// A part being collected from `start`: its span ends there until the
/// piece closes ([`Parser::close`] sets the ends), so the piece's list of
/// parts becomes the call's without a copy.
fn new_part(start: usize) -> Part {
    Part {
        span: start..start,
        // Room for a part's usual nodes (`name`, `=`, value) made at once:
        // a first push would grow an empty vector the slower way.
        nodes: Vec::with_capacity(PART_NODES),
        eq: None,
    }
}

/// An open construct on the stack.
///
/// Only braces make nodes: a `[[` or a heading always ends as text, so its
/// opening run and content go to the accumulator below it as they come (its
/// `parts` stay empty; [`Parser::push`]), not moved there when it closes.
struct Piece {
    /// `{`, `[` or `\n` (a heading).
    open: u8,
    count: usize,
    start: usize,
    line_start: bool,
    parts: Vec<Part>,
}

impl Piece {
    fn close(&self) -> u8 {
        match self.open {
            b'{' => b'}',
            b'[' => b']',
            _ => b'\n',
        }
    }

    /// The piece as text: its unused opening run, then its parts joined by `|`
    /// (a bracket or heading piece: nothing, its text is out already).
    fn break_syntax(self, opening: usize, out: &mut Vec<Node>) {
        if self.open != b'{' {
            return;
        }
        let end = self.start + self.count;
        push_node(out, None, Node::Text(end - opening..end));
        for (k, part) in self.parts.into_iter().enumerate() {
            if k > 0 {
                push_node(out, None, Node::Text(part.span.start - 1..part.span.start));
            }
            for node in part.nodes {
                push_node(out, None, node);
            }
        }
    }
}

/// Appends a node, merging adjacent text (but never into a part's `=` node).
fn push_node(out: &mut Vec<Node>, eq: Option<usize>, node: Node) {
    match node {
        Node::Text(span) => push_text_node(out, eq, span),
        node => out.push(node),
    }
}

/// [`push_node`] of text `span` (no node made while it joins the last one).
fn push_text_node(out: &mut Vec<Node>, eq: Option<usize>, span: Span) {
    if span.start >= span.end {
        return;
    }
    let last = out.len().wrapping_sub(1);
    if eq != Some(last)
        && let Some(Node::Text(prev)) = out.last_mut()
        && prev.end == span.start
    {
        prev.end = span.end;
        return;
    }
    out.push(Node::Text(span));
}

enum Found {
    Pipe,
    Equals,
    Angle,
    LineStart,
    LineEnd,
    Close,
    Open(u8),
}

struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    options: &'a ParseOptions,
    root: Vec<Node>,
    stack: Vec<Piece>,
    i: usize,
    /// `>` was not found once: no tag can end any more.
    no_more_gt: bool,
    /// Tag names whose close tag was not found.
    no_more_closing: Vec<String>,
    /// The sum of the counts of the pieces on the stack.
    open_count: usize,
    /// Plain `[[…]]` taken whole ([`Parser::plain_link_end`]); off only in
    /// the tests that compare both ways.
    plain_links: bool,
    /// The index in `stack` of the top `{` piece (the accumulator's), kept
    /// as pieces come and go: not found by a walk down the stack at every
    /// text push.
    brace: Option<usize>,
    /// What the main scan stops at, for the stack as it is: refreshed when
    /// the top piece or its parts change ([`Parser::refresh_stops`]), not
    /// worked out again at every stop.
    stops: Stops,
}

/// The main scan's stops for the current top piece (see [`stop_set`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stops {
    closing: Option<u8>,
    pipe: bool,
    equals: bool,
    set: usize,
}

/// Source bytes per top-level node, rounded down: the root's list is made
/// once rather than grown by copies (the real-article corpus of
/// `examples/wiki_speed.rs` has one top-level node per 85 to 1 273 bytes,
/// 236 for the median page).
const BYTES_PER_ROOT_NODE: usize = 64;

/// The root's room at least (see [`BYTES_PER_ROOT_NODE`]).
const MIN_ROOT_NODES: usize = 4;

/// The open pieces the stack has room for when made (most texts the parser
/// sees hold a call; pieces nest a few deep).
const MIN_STACK: usize = 8;

impl<'a> Parser<'a> {
    fn new(src: &'a str, options: &'a ParseOptions) -> Self {
        Parser {
            src,
            bytes: src.as_bytes(),
            options,
            // A short text (a ref body) still gets room for a few nodes: a
            // first push into an empty list grows it the slower way.
            root: Vec::with_capacity((src.len() / BYTES_PER_ROOT_NODE).max(MIN_ROOT_NODES)),
            stack: Vec::with_capacity(MIN_STACK),
            i: 0,
            no_more_gt: false,
            no_more_closing: Vec::new(),
            open_count: 0,
            plain_links: true,
            brace: None,
            stops: Stops::default(),
        }
    }

    /// Works the stop set out again after a change to the top piece.
    fn refresh_stops(&mut self) {
        self.stops = self.stops_of_stack();
    }

    /// The stop set for the stack as it is.
    fn stops_of_stack(&self) -> Stops {
        let top = self.stack.last();
        let closing = top.map(Piece::close);
        let pipe = top.is_some_and(|p| p.open != b'\n' && p.open != b'[');
        let equals = pipe
            && top.is_some_and(|p| {
                p.parts.len() > 1 && p.parts.last().is_some_and(|x| x.eq.is_none())
            });
        Stops {
            closing,
            pipe,
            equals,
            set: stop_set(closing, pipe, equals),
        }
    }

    /// The stop set after a `|` opened a part of the top piece (`equals`:
    /// an `=` can name it) or an `=` named it (no more `=`): its closing
    /// byte and `|` stay, so only `=` changes, not worked out from the
    /// stack again (≈ 35 instructions at each of ≈ 90 K such stops).
    fn set_equals(&mut self, equals: bool) {
        let s = &mut self.stops;
        s.equals = equals;
        s.set = stop_set(s.closing, s.pipe, equals);
        debug_assert_eq!(self.stops, self.stops_of_stack());
    }

    /// The accumulator: the current part of the top brace piece, or the root.
    fn push(&mut self, node: Node) {
        match self.accumulator() {
            Some(part) => push_node(&mut part.nodes, part.eq, node),
            None => push_node(&mut self.root, None, node),
        }
    }

    /// The current part of the top brace piece (`None`: the root).
    fn accumulator(&mut self) -> Option<&mut Part> {
        let k = self.brace?;
        self.stack.get_mut(k).and_then(|p| p.parts.last_mut())
    }

    /// Called once a stop and more (the main scan's text before each stop):
    /// inlined, not a call each time.
    #[inline(always)]
    fn push_text(&mut self, span: Span) {
        if span.start >= span.end {
            return;
        }
        match self.accumulator() {
            Some(part) => push_text_node(&mut part.nodes, part.eq, span),
            None => push_text_node(&mut self.root, None, span),
        }
    }

    fn find_equals(&self) -> bool {
        self.stops.equals
    }

    fn in_heading(&self) -> bool {
        self.stack.last().is_some_and(|p| p.open == b'\n')
    }

    fn run(mut self) -> Tree {
        let transclusion = self.options.mode == Mode::Transclusion;
        let only_include = transclusion
            && find_from(self.src, 0, "<onlyinclude>").is_some()
            && find_from(self.src, 0, "</onlyinclude>").is_some();
        let mut find_only_include = only_include;
        let mut fake_line_start = true;
        let len = self.bytes.len();
        loop {
            if find_only_include {
                match find_from(self.src, self.i, "<onlyinclude>") {
                    None => {
                        self.push(Node::Ignore(self.i..len));
                        break;
                    }
                    Some(at) => {
                        let end = at + "<onlyinclude>".len();
                        self.push(Node::Ignore(self.i..end));
                        self.i = end;
                        find_only_include = false;
                    }
                }
            }
            let found = if fake_line_start {
                Found::LineStart
            } else {
                let Stops {
                    closing,
                    pipe,
                    equals,
                    set,
                } = self.stops;
                let start = self.i;
                let rest = self.bytes.get(start..).unwrap_or(&[]);
                let j = find_stop(rest, set).map_or(len, |off| start + off);
                self.push_text(start..j);
                self.i = j;
                match self.bytes.get(j) {
                    None if self.in_heading() => Found::LineEnd,
                    None => break,
                    Some(&c) => match c {
                        b'|' if pipe => Found::Pipe,
                        b'=' if equals => Found::Equals,
                        b'<' => Found::Angle,
                        b'\n' if self.in_heading() => Found::LineEnd,
                        b'\n' => Found::LineStart,
                        c if Some(c) == closing => Found::Close,
                        c => Found::Open(c),
                    },
                }
            };
            match found {
                Found::Pipe => {
                    // Found only when the top piece is a brace piece
                    // (`Stops::pipe`): its new part can be named.
                    if let Some(top) = self.stack.last_mut() {
                        top.parts.push(new_part(self.i + 1));
                    }
                    self.set_equals(true);
                    self.i += 1;
                }
                Found::Equals => {
                    let at = self.i;
                    if let Some(part) = self.stack.last_mut().and_then(|p| p.parts.last_mut()) {
                        part.nodes.push(Node::Text(at..at + 1));
                        part.eq = Some(part.nodes.len() - 1);
                    }
                    self.set_equals(false);
                    self.i += 1;
                }
                Found::Angle => {
                    if only_include && self.src[self.i..].starts_with("</onlyinclude>") {
                        find_only_include = true;
                        continue;
                    }
                    if self.angle() {
                        fake_line_start = true;
                    }
                }
                Found::LineStart => {
                    if fake_line_start {
                        fake_line_start = false;
                    } else {
                        self.push_text(self.i..self.i + 1);
                        self.i += 1;
                    }
                    self.line_start();
                }
                Found::LineEnd => {
                    // Close the heading (its text is out already); the
                    // newline is seen again as a line start.
                    self.pop_piece();
                }
                Found::Close => self.close(),
                Found::Open(c) => self.open(c),
            }
        }
        let mut root = std::mem::take(&mut self.root);
        for piece in std::mem::take(&mut self.stack) {
            let count = piece.count;
            piece.break_syntax(count, &mut root);
        }
        Tree { nodes: root }
    }

    fn line_start(&mut self) {
        let run = self.run_of(b'=', self.i).min(6);
        if run == 0 || (run == 1 && self.find_equals()) {
            return;
        }
        if self.open_count + run > self.options.max_nesting {
            return;
        }
        self.push_text(self.i..self.i + run);
        self.push_piece(Piece {
            open: b'\n',
            count: run,
            start: self.i,
            line_start: true,
            parts: Vec::new(),
        });
        self.i += run;
    }

    fn push_piece(&mut self, piece: Piece) {
        self.open_count += piece.count;
        if piece.open == b'{' {
            self.brace = Some(self.stack.len());
        }
        self.stack.push(piece);
        self.refresh_stops();
    }

    fn pop_piece(&mut self) -> Option<Piece> {
        let piece = self.stack.pop()?;
        self.open_count -= piece.count;
        if piece.open == b'{' {
            self.brace = self.stack.iter().rposition(|p| p.open == b'{');
        }
        self.refresh_stops();
        Some(piece)
    }

    /// The length of the run of `c` at `from`, at most `max`.
    fn run_of_max(&self, c: u8, from: usize, max: usize) -> usize {
        self.bytes
            .get(from..)
            .map_or(0, |b| b.iter().take(max).take_while(|&&x| x == c).count())
    }

    fn run_of(&self, c: u8, from: usize) -> usize {
        self.bytes
            .get(from..)
            .map_or(0, |b| b.iter().take_while(|&&x| x == c).count())
    }

    fn open(&mut self, c: u8) {
        let count = self.run_of(c, self.i);
        if c == b'['
            && count == 2
            && self.plain_links
            && self.open_count + 2 <= self.options.max_nesting
            && let Some(end) = self.plain_link_end(self.i + 2)
        {
            // What the bracket piece would end as: text, with nothing on
            // the stack changed in between.
            self.push_text(self.i..end);
            self.i = end;
            return;
        }
        let start = self.i;
        self.i += count;
        // Over the budget, the first braces of the run are text.
        let budget = self.options.max_nesting.saturating_sub(self.open_count);
        let (start, count) = if count > budget {
            self.push_text(start..start + count - budget);
            (start + count - budget, budget)
        } else {
            (start, count)
        };
        if count >= 2 && c == b'{' {
            self.push_piece(Piece {
                open: c,
                count,
                start,
                line_start: start > 0 && self.bytes.get(start - 1) == Some(&b'\n'),
                parts: brace_parts(start + count),
            });
        } else if count >= 2 {
            // Brackets end as text: written now (see [`Piece`]).
            self.push_text(start..start + count);
            self.push_piece(Piece {
                open: c,
                count,
                start,
                line_start: false,
                parts: Vec::new(),
            });
        } else {
            self.push_text(start..start + count);
        }
    }

    /// The end of a `[[…]]` whose content, from `from`, holds none of the
    /// bytes a bracket piece stops at (`[`, `{`, `<`, a newline) before its
    /// `]]`: most links. Such a piece opens and closes as text and nothing
    /// in it is seen, so [`Parser::open`] takes it whole.
    fn plain_link_end(&self, from: usize) -> Option<usize> {
        let rest = self.bytes.get(from..)?;
        let at = from + find_stop(rest, stop_set(Some(b']'), false, false))?;
        (self.bytes.get(at..at + 2) == Some(b"]]")).then_some(at + 2)
    }

    fn close(&mut self) {
        let Some(piece) = self.pop_piece() else {
            return;
        };
        let close = piece.close();
        let max_count = piece.count;
        let count = self.run_of_max(close, self.i, max_count);
        let matching = match piece.open {
            b'{' => count.min(3),
            _ => count.min(2),
        };
        if matching < 2 {
            self.push_piece(piece);
            self.push_text(self.i..self.i + count);
            self.i += count;
            return;
        }
        let close_at = self.i;
        self.i += matching;
        let mut piece = piece;
        let rest = piece.count - matching;
        piece.count = rest;
        if piece.open == b'[' {
            // The opening run and the content are out already (see [`Piece`]).
            if rest >= 2 {
                self.push_piece(piece);
            }
            self.push_text(close_at..close_at + matching);
            return;
        }
        let span = piece.start + rest..close_at + matching;
        let mut rest_parts = if rest >= 2 {
            std::mem::replace(&mut piece.parts, vec![new_part(piece.start + rest)])
        } else {
            std::mem::take(&mut piece.parts)
        };
        // Each part ends where the next one's `|` is, the last at the close.
        let mut end = close_at;
        for part in rest_parts.iter_mut().rev() {
            part.span.end = end;
            end = part.span.start.saturating_sub(1);
        }
        // The title taken out: the list left is the parameters'.
        let mut title = if rest_parts.is_empty() {
            Part {
                span: close_at..close_at,
                nodes: Vec::new(),
                eq: None,
            }
        } else {
            rest_parts.remove(0)
        };
        // The title has no name: an `=` in it is text.
        title.eq = None;
        let braced = Braced {
            span,
            title,
            parts: rest_parts,
            line_start: piece.line_start && matching == max_count,
        };
        if rest >= 2 {
            self.push_piece(piece);
        } else if rest > 0 {
            self.push_text(piece.start..piece.start + rest);
        }
        self.push(if matching == 3 {
            Node::Argument(Box::new(braced))
        } else {
            Node::Template(Box::new(braced))
        });
    }

    /// Handles `<` at `self.i`; true when a line of comments was eaten (the next
    /// position is a line start).
    fn angle(&mut self) -> bool {
        let i = self.i;
        let after = self.src.get(i + 1..).unwrap_or("");
        if after.starts_with("!--") {
            return self.comment();
        }
        let Some(name) = self.element_name(after) else {
            self.push_text(i..i + 1);
            self.i += 1;
            return false;
        };
        let attr_start = i + 1 + name.len();
        let tag_end = if self.no_more_gt {
            None
        } else {
            // A byte search (`str::find` of a char goes through a
            // searcher; every extension tag asks).
            self.bytes
                .get(attr_start..)
                .and_then(|s| memchr::memchr(b'>', s))
                .map(|o| attr_start + o)
        };
        let Some(tag_end) = tag_end else {
            self.no_more_gt = true;
            self.push_text(i..i + 1);
            self.i += 1;
            return false;
        };
        let transclusion = self.options.mode == Mode::Transclusion;
        let ignored_tag = if transclusion {
            is_any(name, &["includeonly", "/includeonly"])
        } else {
            is_any(
                name,
                &["noinclude", "/noinclude", "onlyinclude", "/onlyinclude"],
            )
        };
        if ignored_tag {
            self.push(Node::Ignore(i..tag_end + 1));
            self.i = tag_end + 1;
            return false;
        }
        let (attr_end, inner, close);
        if self.bytes.get(tag_end.wrapping_sub(1)) == Some(&b'/') && tag_end > attr_start {
            attr_end = tag_end - 1;
            inner = None;
            close = None;
            self.i = tag_end + 1;
        } else {
            attr_end = tag_end;
            let found = if self.no_more_closing.iter().any(|n| n == name) {
                None
            } else {
                find_close_tag(self.src, tag_end + 1, name)
            };
            match found {
                Some(c) => {
                    inner = Some(tag_end + 1..c.start);
                    self.i = c.end;
                    close = Some(c);
                }
                None if is_any(name, &["includeonly", "noinclude", "onlyinclude"]) => {
                    inner = Some(tag_end + 1..self.bytes.len());
                    self.i = self.bytes.len();
                    close = None;
                }
                None => {
                    self.i = tag_end + 1;
                    self.push_text(i..tag_end + 1);
                    self.no_more_closing.push(name.to_owned());
                    return false;
                }
            }
        }
        let ignored_element = if transclusion {
            name.eq_ignore_ascii_case("noinclude")
        } else {
            name.eq_ignore_ascii_case("includeonly")
        };
        if ignored_element {
            self.push(Node::Ignore(i..self.i));
            return false;
        }
        let attrs = if attr_end <= attr_start {
            attr_start..attr_start
        } else {
            attr_start..attr_end
        };
        self.push(Node::Ext(Box::new(ExtTag {
            span: i..self.i,
            name: i + 1..attr_start,
            attrs,
            inner,
            close,
        })));
        false
    }

    /// The element name at the start of `after` (the text after `<`), if it is an
    /// extension tag or one of the mode's special tags, followed by a blank, `/>` or
    /// `>`. The name is returned as written.
    fn element_name(&self, after: &'a str) -> Option<&'a str> {
        let end = after
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || b == b'/' || b == b'_' || b == b'-'))
            .unwrap_or(after.len());
        let name = after.get(..end)?;
        if name.is_empty() {
            return None;
        }
        let rest = &after[end..];
        let delimited = rest.starts_with("/>")
            || rest.starts_with('>')
            || rest.starts_with([' ', '\t', '\n', '\r', '\x0c', '\x0b']);
        // A name ending in `/` (`<ref/>`) is the name plus a self-closing slash.
        let (name, delimited) = match name.strip_suffix('/') {
            Some(n) if rest.starts_with('>') && !n.is_empty() && !n.starts_with('/') => (n, true),
            _ => (name, delimited),
        };
        if !delimited {
            return None;
        }
        let special = match self.options.mode {
            Mode::Transclusion => is_any(name, &["noinclude", "includeonly", "/includeonly"]),
            Mode::Page => is_any(
                name,
                &[
                    "includeonly",
                    "noinclude",
                    "/noinclude",
                    "onlyinclude",
                    "/onlyinclude",
                ],
            ),
        };
        let ext = || {
            self.options.ext_tags.iter().any(|tag| {
                // `tag == name.to_ascii_lowercase()`, without the copy.
                tag.len() == name.len()
                    && tag
                        .bytes()
                        .zip(name.bytes())
                        .all(|(t, n)| t == n.to_ascii_lowercase())
            })
        };
        (special || ext()).then_some(name)
    }

    /// `<!--` at `self.i`: see the module docs. True when the line was eaten.
    fn comment(&mut self) -> bool {
        let i = self.i;
        let b = self.bytes;
        let Some(end) = find_from(self.src, i + 4, "-->") else {
            self.push(Node::Comment(i..b.len()));
            self.i = b.len();
            return false;
        };
        let blanks = |k: usize| b.get(k).is_some_and(|&c| c == b' ' || c == b'\t');
        let mut ws_start = i;
        while ws_start > 0 && blanks(ws_start - 1) {
            ws_start -= 1;
        }
        let skip_blanks = |mut k: usize| {
            while blanks(k) {
                k += 1;
            }
            k
        };
        // ws_end: the last blank after the comment, or its `>`.
        let mut ws_end = skip_blanks(end + 3) - 1;
        let mut comments = vec![(ws_start, ws_end)];
        while self
            .src
            .get(ws_end + 1..)
            .is_some_and(|s| s.starts_with("<!--"))
        {
            let Some(c) = find_from(self.src, ws_end + 4, "-->") else {
                break;
            };
            let c = skip_blanks(c + 3) - 1;
            comments.push((ws_end + 1, c));
            ws_end = c;
        }
        let eat = ws_start > 0
            && b.get(ws_start - 1) == Some(&b'\n')
            && b.get(ws_end + 1) == Some(&b'\n');
        let (start, last) = if eat {
            self.trim_accumulated_blanks(i - ws_start);
            let n = comments.len();
            for &(s, e) in comments.iter().take(n - 1) {
                self.push(Node::Comment(s..e + 1));
            }
            let (s, e) = comments[n - 1];
            (s, e + 1)
        } else {
            (i, end + 2)
        };
        self.push(Node::Comment(start..last + 1));
        self.i = last + 1;
        eat
    }

    /// Removes `n` trailing blanks from the accumulator's last text node.
    fn trim_accumulated_blanks(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let acc = match self.accumulator() {
            Some(part) => &mut part.nodes,
            None => &mut self.root,
        };
        if let Some(Node::Text(span)) = acc.last_mut()
            && span.len() >= n
        {
            span.end -= n;
            if span.start >= span.end {
                acc.pop();
            }
        }
    }
}

/// Whether `name` is one of the lower-case ASCII names `lower`, ASCII case
/// ignored (what comparing its lower-case copy tells, without the copy).
fn is_any(name: &str, lower: &[&str]) -> bool {
    lower.iter().any(|l| name.eq_ignore_ascii_case(l))
}

/// The first `needle` at or after `from`: a search for its first byte,
/// then a prefix check. Cheaper than `str::find(&str)`, which builds a
/// two-way searcher on every call, for the short needles the parser looks
/// for (`</`, `-->`, `<onlyinclude>`; the tokenizer's closing tags too).
pub(crate) fn find_from(src: &str, from: usize, needle: &str) -> Option<usize> {
    let hay = src.get(from..)?.as_bytes();
    let Some((&first, rest)) = needle.as_bytes().split_first() else {
        return Some(from);
    };
    // Each candidate by its first byte (memchr's vector search: the closing
    // tag searches cross whole ref bodies), then the rest compared. A
    // match of the whole needle starts on a character boundary (UTF-8).
    let mut k = 0;
    while let Some(at) = hay.get(k..).and_then(|h| memchr::memchr(first, h)) {
        let at = k + at;
        if hay.get(at + 1..).is_some_and(|h| h.starts_with(rest)) {
            return Some(from + at);
        }
        k = at + 1;
    }
    None
}

/// Finds `</name\s*>` (name case-insensitive) from `from`.
fn find_close_tag(src: &str, from: usize, name: &str) -> Option<Span> {
    let b = src.as_bytes();
    let mut k = from;
    while let Some(at) = find_from(src, k, "</") {
        let n0 = at + 2;
        let n1 = n0 + name.len();
        if b.get(n0..n1)
            .is_some_and(|s| s.eq_ignore_ascii_case(name.as_bytes()))
        {
            let mut e = n1;
            while b.get(e).is_some_and(|c| c.is_ascii_whitespace()) {
                e += 1;
            }
            if b.get(e) == Some(&b'>') {
                return Some(at..e + 1);
            }
        }
        k = at + 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Plain links taken whole give the tree the bracket pieces give.
        #[test]
        fn plain_links_as_bracket_pieces(pieces in prop::collection::vec(
            prop::sample::select(vec![
                "[[", "]]", "[", "]", "[[[", "]]]", "{{", "}}", "{{{", "}}}", "|", "=",
                "\n", "\n==", "==", "a", " b ", "<!--", "-->", "<ref>", "</ref>", "é",
            ]),
            0..40,
        ), max_nesting in 1usize..8) {
            let src: String = pieces.concat();
            for options in [
                ParseOptions { max_nesting, ..ParseOptions::default() },
                ParseOptions { mode: Mode::Transclusion, ..ParseOptions::default() },
            ] {
                let mut bracket_pieces = Parser::new(&src, &options);
                bracket_pieces.plain_links = false;
                prop_assert_eq!(Parser::new(&src, &options).run(), bracket_pieces.run());
            }
        }
    }

    proptest! {
        /// The block scan finds the stop the table finds a byte at a time,
        /// for every stop set.
        #[test]
        fn stops_found_as_by_the_table(bytes in prop::collection::vec(
            prop::sample::select(b"ab [{<\n}]|=x\xff".to_vec()),
            0..70,
        )) {
            for (set, stops) in STOPS.iter().enumerate() {
                for from in 0..=bytes.len() {
                    let rest = &bytes[from..];
                    let expected = rest.iter().position(|&c| stops[usize::from(c)]);
                    prop_assert_eq!(find_stop(rest, set), expected, "set {} from {}", set, from);
                }
            }
        }
    }

    /// The byte search finds what `str::find` finds from each position.
    #[test]
    fn find_from_is_str_find() {
        let src = "a</b> é</ref>--><!-- x -->é<onlyinclude>ü</é";
        for needle in ["</", "-->", "<onlyinclude>", "é", "</é", "", "zz", "<"] {
            for from in 0..=src.len() + 1 {
                let expected = src
                    .get(from..)
                    .and_then(|rest| rest.find(needle).map(|at| from + at));
                assert_eq!(find_from(src, from, needle), expected, "{needle:?} {from}");
            }
        }
    }
}
