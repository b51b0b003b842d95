//! Expansion: a page's text with its templates, arguments, parser functions and
//! magic words replaced, MediaWiki's `PPFrame::expand` and `braceSubstitution`.
//!
//! The result is wikitext (what MediaWiki's `Parser::preprocess` returns, and what
//! Parsoid tokenizes for a template's output). Extension tags are copied as they are
//! written; the parser renders them. Failures inside the page (a loop, a missing
//! template, a limit) are visible in the text, as in MediaWiki, and listed in
//! [`Expansion::warnings`]; only a page over the input limit is an error.

mod frame;
mod template;

use foldhash::HashMap;
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

pub(crate) use frame::Frame;
pub use template::Target;
pub(crate) use template::redirect_target;

use super::config::{Config, Limits};
use super::parse::{Mode, ParseOptions, parse_with};
use super::store::PageStore;
use super::title::Title;
use super::tree::{Node, Tree};

/// Why a page could not be expanded at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PreprocessError {
    /// The page is larger than [`Limits::max_input`](super::Limits::max_input).
    #[error("page of {size} bytes is larger than the limit of {limit}")]
    InputTooLarge {
        /// The page's size.
        size: usize,
        /// The limit.
        limit: usize,
    },
}

/// Something the expansion had to refuse or could not find; each also shows in
/// the text as error markup (or, for a missing template, a link to it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// A template calls itself, directly or through others.
    Loop {
        /// The template.
        title: String,
    },
    /// Templates nested deeper than [`Limits::max_depth`](super::Limits::max_depth).
    TooDeep {
        /// The template that was not expanded.
        title: String,
    },
    /// More than [`Limits::max_transclusions`](super::Limits::max_transclusions).
    TooManyTransclusions,
    /// Template output over [`Limits::max_expansion_size`](super::Limits::max_expansion_size).
    ExpansionTooLarge {
        /// The template that was omitted.
        title: String,
    },
    /// Template arguments over [`Limits::max_expansion_size`](super::Limits::max_expansion_size)
    /// (counted with template output): omitted.
    ArgumentTooLarge,
    /// More than [`Limits::max_copied`](super::Limits::max_copied) bytes of text
    /// copied.
    TooMuchText,
    /// More than [`Limits::max_nodes`](super::Limits::max_nodes) expanded.
    TooManyNodes,
    /// Expansions nested deeper than [`Limits::max_expand_depth`](super::Limits::max_expand_depth).
    ExpandTooDeep,
    /// A template source larger than [`Limits::max_input`](super::Limits::max_input).
    TemplateTooLarge {
        /// The template.
        title: String,
    },
    /// The page store failed for a template (it is shown as missing).
    Store {
        /// The template.
        title: String,
        /// The store's error.
        message: String,
    },
    /// A template that does not exist (shown as a link to it).
    Missing {
        /// The template.
        title: String,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let limits = "see the preprocessor's limits";
        match self {
            Warning::Loop { title } => write!(f, "template loop: {title}"),
            Warning::TooDeep { title } => write!(f, "template nesting too deep at {title}"),
            Warning::TooManyTransclusions => write!(f, "too many transclusions ({limits})"),
            Warning::ExpansionTooLarge { title } => {
                write!(f, "expansion too large, {title} omitted")
            }
            Warning::ArgumentTooLarge => {
                write!(f, "expansion too large, template arguments omitted")
            }
            Warning::TooManyNodes => write!(f, "too many preprocessor nodes ({limits})"),
            Warning::TooMuchText => write!(f, "too much text expanded ({limits})"),
            Warning::ExpandTooDeep => write!(f, "expansions nested too deep ({limits})"),
            Warning::TemplateTooLarge { title } => write!(f, "template {title} is too large"),
            Warning::Store { title, message } => write!(f, "reading {title}: {message}"),
            Warning::Missing { title } => write!(f, "missing template {title}"),
        }
    }
}

/// An expanded text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expansion {
    /// The expanded wikitext.
    pub text: String,
    /// What went wrong on the way (also visible in `text`).
    pub warnings: Vec<Warning>,
}

/// The preprocessor: a page store and a configuration, shared by all pages.
///
/// ```
/// use tagloom_wikitext::preprocess::{Config, MemoryStore, Preprocessor, Site, Title};
///
/// let site = Site::default();
/// let mut store = MemoryStore::default();
/// store.insert(Title::parse("Template:Hello", 0, &site)?, "Hello, {{{1|world}}}!");
/// let pre = Preprocessor::new(&store, Config::default());
/// let page = Title::parse("Main Page", 0, &site)?;
/// let out = pre.expand(&page, "{{hello}} {{Hello| you }} {{#if: x | yes | no }}")?;
/// assert_eq!(out.text, "Hello, world! Hello,  you ! yes");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Preprocessor<'s> {
    store: &'s dyn PageStore,
    /// The configuration: the caller's, borrowed by a render (not cloned
    /// with its strings for every page), or owned.
    config: Cow<'s, Config>,
    /// `config.limits`, copied: read at every expanded node, with no
    /// branch on whether the configuration is borrowed.
    pub(crate) limits: Limits,
    /// `config.keep_comments`, copied as `limits`.
    keep_comments: bool,
    /// Parse options for page view and transclusion, each built when first
    /// asked for (with a copy of the extension tag names; a page whose
    /// calls load no template never asks for the transclusion one).
    options: [OnceLock<ParseOptions>; 2],
}

impl<'s> Preprocessor<'s> {
    /// A preprocessor over `store`.
    pub fn new(store: &'s dyn PageStore, config: Config) -> Self {
        Preprocessor::with_config(store, Cow::Owned(config))
    }

    /// A preprocessor over `store` with `config` borrowed or owned.
    pub(crate) fn with_config(store: &'s dyn PageStore, config: Cow<'s, Config>) -> Self {
        Preprocessor {
            store,
            limits: config.limits.clone(),
            keep_comments: config.keep_comments,
            config,
            options: Default::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The page store.
    pub fn store(&self) -> &'s dyn PageStore {
        self.store
    }

    /// Starts expanding page `title`: the returned [`PageExpander`] counts the
    /// page's limits across all its calls and caches parsed templates.
    pub fn page(&self, title: Title) -> PageExpander<'_, 's> {
        PageExpander {
            pre: self,
            page: title,
            transclusions: 0,
            size: 0,
            nodes: 0,
            copied: 0,
            reported: Vec::new(),
            warnings: Vec::new(),
            cache: RefCell::new(HashMap::default()),
            titles: HashMap::default(),
            missing: Default::default(),
        }
    }

    /// Expands a whole page (page view) in one call.
    pub fn expand(&self, title: &Title, src: &str) -> Result<Expansion, PreprocessError> {
        self.page(title.clone()).expand(src)
    }

    pub(crate) fn parse_options(&self, mode: Mode) -> &ParseOptions {
        let [page, transclusion] = &self.options;
        let cell = match mode {
            Mode::Page => page,
            Mode::Transclusion => transclusion,
        };
        cell.get_or_init(|| ParseOptions {
            mode,
            ext_tags: self.config.ext_tags.clone(),
            max_nesting: self.limits.max_nesting,
        })
    }
}

/// A parsed template source.
pub(crate) struct Parsed {
    pub(crate) src: Arc<str>,
    pub(crate) tree: Tree,
}

/// The expansion of one page: its limits' counters and its template cache.
///
/// The parser calls [`PageExpander::expand`] on the page, or once per template
/// call it found itself (`{{name|parts}}` as written), in page order; counters
/// and the loop check then work as for a whole-page expansion.
pub struct PageExpander<'p, 's> {
    pub(crate) pre: &'p Preprocessor<'s>,
    pub(crate) page: Title,
    pub(crate) transclusions: usize,
    pub(crate) size: usize,
    pub(crate) nodes: usize,
    /// Bytes of source text copied by the expansion, at every level.
    pub(crate) copied: usize,
    /// Limit warnings already shown once (later hits expand to nothing).
    reported: Vec<Warning>,
    pub(crate) warnings: Vec<Warning>,
    pub(crate) cache: RefCell<HashMap<Title, Option<Rc<Parsed>>>>,
    /// A called name as classified (after its modifiers) → the template
    /// title it names, if any: a page calls the same few templates again and
    /// again, and a title parse costs about ten lookups.
    pub(crate) titles: HashMap<String, Option<Title>>,
    /// Calls known to name a missing template: the expanded call name →
    /// the template and the link written for it, one map for calls without
    /// parts and one for calls with (a name can be a magic word without
    /// parts only). Most calls of a page without template pages are such
    /// red links, and most names come again and again.
    pub(crate) missing: [HashMap<String, Rc<Missing>>; 2],
}

/// A call name that names a missing template ([`PageExpander::missing`]).
pub(crate) struct Missing {
    pub(crate) title: Title,
    /// What the call writes when the limits let it: the link to the template.
    pub(crate) link: String,
}

impl PageExpander<'_, '_> {
    /// The page being expanded.
    pub fn title(&self) -> &Title {
        &self.page
    }

    /// Expands `src` (page view) in the page's frame.
    pub fn expand(&mut self, src: &str) -> Result<Expansion, PreprocessError> {
        self.check_input(src.len())?;
        let tree = parse_with(src, self.pre.parse_options(Mode::Page));
        Ok(self.expand_tree(src, &tree))
    }

    /// Whether page text of `size` bytes is within [`Limits::max_input`](super::Limits::max_input).
    pub(crate) fn check_input(&self, size: usize) -> Result<(), PreprocessError> {
        let limit = self.pre.limits.max_input;
        if size > limit {
            return Err(PreprocessError::InputTooLarge { size, limit });
        }
        Ok(())
    }

    /// Expands an already parsed page text (`tree` from [`parse`](super::parse) of
    /// `src` in [`Mode::Page`]).
    pub fn expand_tree(&mut self, src: &str, tree: &Tree) -> Expansion {
        let frame = Frame::root(src);
        let mut text = String::with_capacity(src.len());
        self.expand_nodes(&tree.nodes, &frame, Flags::default(), 0, &mut text);
        Expansion {
            text,
            warnings: std::mem::take(&mut self.warnings),
        }
    }

    /// Expands one node of a tree parsed from `src` (for example a
    /// [`Node::Template`] the parser turned into a pseudo-token), in the page's
    /// frame.
    ///
    /// ```
    /// use tagloom_wikitext::preprocess::{parse, Config, Mode, NoPages, Preprocessor, Site, Title};
    ///
    /// let pre = Preprocessor::new(&NoPages, Config::default());
    /// let mut page = pre.page(Title::parse("Demo", 0, &Site::default())?);
    /// let src = "x {{uc:{{PAGENAME}}}} y";
    /// let tree = parse(src, Mode::Page);
    /// assert_eq!(page.expand_node(src, &tree.nodes[1]).text, "DEMO");
    /// # Ok::<(), tagloom_wikitext::preprocess::TitleError>(())
    /// ```
    pub fn expand_node(&mut self, src: &str, node: &Node) -> Expansion {
        let frame = Frame::root(src);
        let mut text = String::new();
        self.expand_nodes(
            std::slice::from_ref(node),
            &frame,
            Flags::default(),
            0,
            &mut text,
        );
        Expansion {
            text,
            warnings: std::mem::take(&mut self.warnings),
        }
    }

    /// Expands nodes of `frame`'s tree into `out`.
    pub(crate) fn expand_nodes(
        &mut self,
        nodes: &[Node],
        frame: &Frame<'_>,
        flags: Flags,
        depth: usize,
        out: &mut String,
    ) {
        if depth > self.pre.limits.max_expand_depth {
            self.limit_hit(Warning::ExpandTooDeep, out, || {
                "<span class=\"error\">Expansion depth limit exceeded</span>".into()
            });
            return;
        }
        for node in nodes {
            if !self.count_node(out) {
                return;
            }
            match node {
                Node::Ext(e) => self.ext(e, frame, flags, depth, out),
                Node::Template(b) => self.template(b, b.line_start, frame, flags, depth + 1, out),
                Node::Argument(b) => self.argument(b, frame, flags, depth + 1, out),
                node => {
                    if !self.expand_plain(frame.src, node, flags, out) {
                        return;
                    }
                }
            }
        }
    }

    /// A text, comment or dropped node of the text `src`, counted as
    /// expanded: false when the text limit stops the expansion.
    fn expand_plain(&mut self, src: &str, node: &Node, flags: Flags, out: &mut String) -> bool {
        match node {
            Node::Text(s) => {
                let text = src.get(s.clone()).unwrap_or("");
                self.copied += text.len();
                if self.copied > self.pre.limits.max_copied {
                    self.limit_hit(Warning::TooMuchText, out, || {
                        "<span class=\"error\">Expansion text limit exceeded</span>".into()
                    });
                    return false;
                }
                out.push_str(text);
            }
            Node::Comment(s) if self.pre.keep_comments && !flags.strip_comments => {
                out.push_str(src.get(s.clone()).unwrap_or(""));
            }
            _ => {}
        }
        true
    }

    /// Counts one more expanded node: false (and the limit's markup, once) when
    /// that is over [`Limits::max_nodes`](super::Limits::max_nodes).
    fn count_node(&mut self, out: &mut String) -> bool {
        self.nodes += 1;
        if self.nodes > self.pre.limits.max_nodes {
            self.limit_hit(Warning::TooManyNodes, out, || {
                "<span class=\"error\">Node-count limit exceeded</span>".into()
            });
            return false;
        }
        true
    }

    /// Expands `nodes`, top-level nodes of the tree of the page text `src`
    /// (page view), into `out` in the page's frame: what [`PageExpander::expand`]
    /// of their source gives, without parsing it again. Warnings are dropped.
    pub(crate) fn expand_page_nodes(&mut self, src: &str, nodes: &[Node], out: &mut String) {
        let plain = |n: &Node| matches!(n, Node::Text(_) | Node::Comment(_) | Node::Ignore(_));
        if nodes.iter().all(plain) {
            // Most of a page between its calls: no frame needed (no hash
            // maps made), each node counted as `expand_nodes` counts it.
            for node in nodes {
                if !self.count_node(out) || !self.expand_plain(src, node, Flags::default(), out) {
                    break;
                }
            }
        } else {
            let frame = Frame::root(src);
            self.expand_nodes(nodes, &frame, Flags::default(), 0, out);
        }
        self.warnings.clear();
    }

    /// Expands one call `node` (a top-level node of the tree of the page text
    /// `frame.src`; `frame` its [`Frame::root`], made once for all the calls
    /// of that text: a root frame has no arguments, so nothing is cached in
    /// it, and it stays as made) into `out`, as [`PageExpander::expand`] of
    /// the call's own source does: a template call there starts no line (its
    /// output starting a list or table goes on a new line). Warnings are
    /// dropped.
    pub(crate) fn expand_call(&mut self, frame: &Frame<'_>, node: &Node, out: &mut String) {
        debug_assert!(frame.parent.is_none() && frame.args.is_empty());
        match node {
            Node::Template(b) => {
                if self.count_node(out) {
                    self.template(b, false, frame, Flags::default(), 1, out);
                }
            }
            _ => self.expand_nodes(std::slice::from_ref(node), frame, Flags::default(), 0, out),
        }
        debug_assert!(frame.cache.borrow().is_empty());
        self.warnings.clear();
    }

    /// Expands nodes to a new string.
    pub(crate) fn expand_to_string(
        &mut self,
        nodes: &[Node],
        frame: &Frame<'_>,
        flags: Flags,
        depth: usize,
    ) -> String {
        let mut s = String::new();
        self.expand_nodes(nodes, frame, flags, depth, &mut s);
        s
    }

    /// [`expand_to_string`](Self::expand_to_string) of `nodes`, borrowed from
    /// the frame's text when they are one text node within the limits (most
    /// call and argument names are), not copied; counted as expanded.
    pub(crate) fn expand_text<'s>(
        &mut self,
        nodes: &[Node],
        frame: &Frame<'s>,
        flags: Flags,
        depth: usize,
    ) -> Cow<'s, str> {
        let limits = &self.pre.limits;
        if let [Node::Text(span)] = nodes
            && let Some(text) = frame.src.get(span.clone())
            && depth <= limits.max_expand_depth
            && self.nodes < limits.max_nodes
            && self.copied.saturating_add(text.len()) <= limits.max_copied
        {
            self.nodes += 1;
            self.copied += text.len();
            return Cow::Borrowed(text);
        }
        Cow::Owned(self.expand_to_string(nodes, frame, flags, depth))
    }

    /// A limit was reached: the first time, its markup is shown and the warning
    /// recorded; later hits of the same limit add nothing (so a template bomb
    /// cannot fill the output with error markup).
    pub(crate) fn limit_hit(
        &mut self,
        w: Warning,
        out: &mut String,
        markup: impl FnOnce() -> String,
    ) {
        if !self.reported.contains(&w) {
            out.push_str(&markup());
            self.reported.push(w.clone());
            self.warnings.push(w);
        }
    }

    /// An extension tag: copied as written, except that the content of the tags
    /// in [`Config::preprocessed_tags`] (Cite's `<ref>`, …, which MediaWiki
    /// parses in the frame they appear in) is expanded here, in this frame.
    fn ext(
        &mut self,
        e: &super::tree::ExtTag,
        frame: &Frame<'_>,
        flags: Flags,
        depth: usize,
        out: &mut String,
    ) {
        let src = frame.src;
        let name = src.get(e.name.clone()).unwrap_or("").to_ascii_lowercase();
        let (Some(inner), true) = (
            e.inner.clone(),
            self.pre.config.preprocessed_tags.contains(&name),
        ) else {
            out.push_str(src.get(e.span.clone()).unwrap_or(""));
            return;
        };
        let inner_src = src.get(inner.clone()).unwrap_or("");
        out.push_str(src.get(e.span.start..inner.start).unwrap_or(""));
        let mode = if frame.title.is_some() {
            Mode::Transclusion
        } else {
            Mode::Page
        };
        let tree = parse_with(inner_src, self.pre.parse_options(mode));
        let inner_frame = frame.with_src(inner_src);
        self.expand_nodes(&tree.nodes, &inner_frame, flags, depth + 1, out);
        out.push_str(src.get(inner.end..e.span.end).unwrap_or(""));
    }

    /// `{{{name|default}}}`.
    fn argument(
        &mut self,
        b: &super::tree::Braced,
        frame: &Frame<'_>,
        flags: Flags,
        depth: usize,
        out: &mut String,
    ) {
        let strip = Flags {
            strip_comments: true,
        };
        let name_ws = self.expand_text(&b.title.nodes, frame, strip, depth);
        let name = name_ws.trim();
        if let Some(v) = self.get_arg(frame, name, depth) {
            // Argument text counts toward the expansion size too (MediaWiki's
            // `arg` include size), so doubling arguments cannot grow unbounded.
            self.size = self.size.saturating_add(v.len());
            if self.size > self.pre.limits.max_expansion_size {
                self.limit_hit(Warning::ArgumentTooLarge, out, || {
                    "<!-- WARNING: argument omitted, expansion size too large -->".into()
                });
            } else {
                out.push_str(&v);
            }
        } else if let Some(default) = b.parts.first() {
            self.expand_nodes(&default.nodes, frame, flags, depth, out);
        } else {
            out.push_str("{{{");
            out.push_str(&name_ws);
            for p in &b.parts {
                out.push('|');
                self.expand_nodes(&p.nodes, frame, flags, depth, out);
            }
            out.push_str("}}}");
        }
    }

    /// The value of argument `name` of `frame`, expanded in the caller's frame.
    pub(crate) fn get_arg(
        &mut self,
        frame: &Frame<'_>,
        name: &str,
        depth: usize,
    ) -> Option<Rc<str>> {
        if let Some(v) = frame.cache.borrow().get(name) {
            return Some(Rc::clone(v));
        }
        let arg = frame.args.get(name)?;
        let parent = frame.parent?;
        let strip = Flags {
            strip_comments: true,
        };
        let mut v = self.expand_to_string(arg.nodes, parent, strip, depth);
        if arg.trim {
            v = v.trim().to_owned();
        }
        let v: Rc<str> = Rc::from(v);
        frame
            .cache
            .borrow_mut()
            .insert(name.to_owned(), Rc::clone(&v));
        Some(v)
    }
}

/// Expansion flags (MediaWiki's `PPFrame::STRIP_COMMENTS`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    pub(crate) strip_comments: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocess::{NoPages, Site, parse};

    /// Calls of a template found missing are remembered by name (with parts
    /// or without: a magic word's name without parts is no template) and
    /// still counted against the transclusion limit, one call at a time.
    #[test]
    fn missing_templates_by_name_count_as_transclusions() {
        let mut config = Config::default();
        config.limits.max_transclusions = 5;
        let pre = Preprocessor::new(&NoPages, config);
        let title = Title::parse("Demo", 0, &Site::default()).unwrap();
        let src = "{{Foo}}{{foo}}{{ Foo |x}}{{PAGENAME}}{{PAGENAME|x}}{{PAGENAME}}\
                   {{Foo|y}}{{Foo}}{{Bar}}";
        let out = pre.expand(&title, src).unwrap();
        assert_eq!(
            out.text,
            "[[:Template:Foo]][[:Template:Foo]][[:Template:Foo]]Demo\
             [[:Template:PAGENAME]]Demo[[:Template:Foo]]\
             <span class=\"error\">Template transclusion limit exceeded (5)</span>"
        );
        assert_eq!(
            out.warnings,
            [
                Warning::Missing {
                    title: "Template:Foo".into()
                },
                Warning::Missing {
                    title: "Template:PAGENAME".into()
                },
                Warning::TooManyTransclusions,
            ]
        );
    }

    /// A name borrowed from the source is counted as its expansion is, up to
    /// and past the limits.
    #[test]
    fn expand_text_counts_as_expand_to_string() {
        let src = "{{abc}}{{x<!-- c -->y}}";
        let tree = parse(src, Mode::Page);
        for (max_nodes, max_copied) in [(1000, 1000), (0, 1000), (1, 1000), (1000, 2), (1000, 3)] {
            let mut config = Config::default();
            config.limits.max_nodes = max_nodes;
            config.limits.max_copied = max_copied;
            let pre = Preprocessor::new(&NoPages, config);
            let title = Title::parse("T", 0, &Site::default()).unwrap();
            let (mut a, mut b) = (pre.page(title.clone()), pre.page(title));
            let frame = Frame::root(src);
            for node in &tree.nodes {
                let Node::Template(call) = node else { continue };
                let borrowed = a.expand_text(&call.title.nodes, &frame, Flags::default(), 1);
                let made = b.expand_to_string(&call.title.nodes, &frame, Flags::default(), 1);
                assert_eq!(borrowed, made);
                assert_eq!((a.nodes, a.copied), (b.nodes, b.copied));
                assert_eq!(a.warnings, b.warnings);
            }
        }
    }
}
