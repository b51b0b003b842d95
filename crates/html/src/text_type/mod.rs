//! The text-type simulator: what the tree builder would do to the *nesting* of the
//! document, without building anything — for token consumers that run the
//! tokenizer without a [`TreeBuilder`](crate::tree_builder::TreeBuilder) (the
//! localization reader, `tagloom demo`).
//!
//! It is the one home of two tables:
//!
//! * **which tokenizer state follows a start tag** (§13.2.6.2 "generic raw text /
//!   RCDATA element parsing algorithm", `<plaintext>`, `<script>`), and whether CDATA
//!   sections are allowed (§13.2.5.42: the adjusted current node is not in the HTML
//!   namespace) — both depend on foreign content, which the simulator tracks;
//! * **which open elements a tag closes**, by a stack of open elements that follows
//!   the insertion-mode rules of §13.2.6.4 (Part A of `spec/parsing.md` where it
//!   differs): `<p>` closed by block starts, `<li>`/`<dd>`/`<dt>` by their
//!   siblings, headings, `<select>` in `<select>`, `<option>`/`<optgroup>`,
//!   `<a>` in `<a>`, `<button>`, `<nobr>`, the table modes (implied `tbody`/`tr`,
//!   a `<table>` in a table closes it, a cell closes a cell), template contents,
//!   foreign content and its break-out tags, end tags and their scopes.
//!
//! ```
//! use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
//! use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
//! use tagloom_html::token::Token;
//!
//! let mut tok = Tokenizer::new(TokenizerConfig::default());
//! let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
//! tok.push_str("<ul><li>a<li>b<select><select><title>x<y></title>");
//! tok.finish();
//! let mut depths = Vec::new();
//! while let Some(token) = tok.next_token().unwrap() {
//!     let effect = match &token {
//!         Token::StartTag(tag) => sim.start_tag(tag),
//!         Token::EndTag(tag) => sim.end_tag(tag),
//!         _ => continue,
//!     };
//!     if let Some(state) = effect.switch {
//!         tok.set_state(state.into());
//!     }
//!     tok.set_cdata_allowed(sim.cdata_allowed());
//!     depths.push(effect.opened_at);
//! }
//! // (an implied body at 0) ul, li, li (closes the first), select, select (closes
//! // the first, not opened),
//! // title (RCDATA: `<y>` is text), `</title>`.
//! assert_eq!(depths, [Some(1), Some(2), Some(2), Some(3), None, Some(3), None]);
//! ```
//!
//! What it leaves out, on purpose (none of it changes which tokenizer state follows
//! a tag): the tree itself, the list of active formatting elements (an end tag that
//! the adoption agency would resolve by *reparenting* — a formatting element with a
//! special element after it — leaves the stack as it is; `<a>` in `<a>` closes the
//! open `a` when nothing special follows it), foster parenting (fostered elements
//! are simply pushed, as the tree builder does), `</form>` away from the current
//! node, the fragment case. `html`/`head` are only counted when their tags appear;
//! a body implied by a start tag or by text ([`TextTypeSimulator::characters`]) is.
//!
//! Limits: [`SimulatorConfig::max_depth`] is the tree builder's
//! [`max_depth`](crate::tree_builder::TreeBuilderConfig::max_depth): past it a start
//! tag is processed but its element is not opened ([`TagEffect::opened_at`] is
//! `None`), so what would have been its content becomes its following siblings. The
//! tree builder follows Chromium there instead: it still opens the element but
//! attaches it to the current node's parent, so its *tree* stays as shallow as the
//! simulated stack while its stack of open elements grows (and needs an index to keep
//! scope checks cheap). Keeping the simulated stack bounded keeps every step at most
//! one walk of at most `max_depth` entries; the price is that, past the limit, an end
//! tag may close a different element than the tree builder's.
//! Below the limit the simulated stack has the tree builder's depth on the nesting
//! shapes of the tests (`<div>`, tables in cells, `<select>`, `<template>`, lists,
//! `<a>`, foreign content…); at it, a table part that could not be opened leaves the
//! two in different modes (both stay bounded). Quirks mode is what the config says
//! ([`set_quirks`](TextTypeSimulator::set_quirks) from the DOCTYPE, if the caller
//! cares: it only decides whether `<table>` closes a `<p>`).

mod fast;
#[cfg(test)]
mod fast_tests;
mod modes;
#[cfg(test)]
mod tests;

use crate::atom::{self, Atom, AtomTable};
use crate::dom_patch::{AttrNamespace, Namespace, Namespace as Ns};
use crate::token::{OwnedTag, OwnedToken, Tag};
use crate::tree_builder::foreign::is_mathml_text_integration_point;
use crate::tree_builder::tag_sets::{SCOPE_BOUNDARIES_HTML, is_special_html};
use crate::tree_builder::{TokenizerSwitch, TreeBuilderConfig};

/// The tokenizer state the fragment parsing algorithm starts in for a context
/// element (§13.4 step 11): RCDATA for `title`/`textarea`, RAWTEXT for `style`,
/// `xmp`, `iframe`, `noembed`, `noframes` (and `noscript` when scripting), script
/// data for `script`, PLAINTEXT for `plaintext`; `None` (data) for anything else and
/// for every foreign context.
pub fn fragment_context_state(
    ns: crate::dom_patch::Namespace,
    name: crate::atom::Atom,
    scripting: bool,
) -> Option<TokenizerSwitch> {
    use crate::atom;
    if ns != crate::dom_patch::Namespace::Html {
        return None;
    }
    match name {
        atom::TITLE | atom::TEXTAREA => Some(TokenizerSwitch::Rcdata),
        atom::STYLE | atom::XMP | atom::IFRAME | atom::NOEMBED | atom::NOFRAMES => {
            Some(TokenizerSwitch::Rawtext)
        }
        atom::NOSCRIPT if scripting => Some(TokenizerSwitch::Rawtext),
        atom::SCRIPT => Some(TokenizerSwitch::ScriptData),
        atom::PLAINTEXT => Some(TokenizerSwitch::Plaintext),
        _ => None,
    }
}

/// The settings of a [`TextTypeSimulator`].
#[derive(Clone, Debug)]
pub struct SimulatorConfig {
    /// The scripting flag: `<noscript>` content is raw text when on.
    pub scripting: bool,
    /// The deepest the simulated stack of open elements may grow; the default is
    /// the tree builder's (512).
    pub max_depth: usize,
    /// The document is in quirks mode (`<table>` does not close a `<p>`).
    pub quirks: bool,
}

impl Default for SimulatorConfig {
    fn default() -> Self {
        SimulatorConfig {
            scripting: false,
            max_depth: TreeBuilderConfig::default().max_depth,
            quirks: false,
        }
    }
}

/// What one tag did to the simulated stack of open elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagEffect {
    /// The open elements at indices below `kept` survived the tag; every element
    /// that was at `kept` or above was closed by it (explicitly or implicitly).
    pub kept: usize,
    /// The stack index of the element the start tag opened; `None` for end tags,
    /// void elements, ignored tags and elements past the depth limit. A `<body>`
    /// tag after content already implied the body (the tree builder merges its
    /// attributes into that body) gives the implied body's index when it is still
    /// the current node.
    pub opened_at: Option<usize>,
    /// The tokenizer state to switch to before the next token.
    pub switch: Option<TokenizerSwitch>,
    /// The namespace of the tag's element: for a start tag, the namespace the tree
    /// builder creates it in (also for a self-closing foreign tag or one past the
    /// depth limit, which are not opened); for an end tag, the namespace of the
    /// element it matched in foreign content, HTML when HTML rules handled it. For
    /// text, the current node's. What a producer of [`OwnedToken`]s passes to
    /// [`OwnedTag::set_ns`] so a serializer knows that `<style>` in SVG is not raw
    /// text.
    pub ns: Namespace,
}

/// The kind of integration point the current node is (§13.2.6.1): inside one,
/// start tags follow HTML rules although the node is foreign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntegrationPoint {
    /// An HTML integration point: SVG `foreignObject`, `desc`, `title`, or a
    /// MathML `annotation-xml` whose `encoding` is `text/html` or
    /// `application/xhtml+xml`.
    Html,
    /// A MathML text integration point: `mi`, `mo`, `mn`, `ms`, `mtext`.
    MathMlText,
}

/// What the rules read from a start tag, whichever kind of tag it came from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Start {
    pub(crate) name: Atom,
    pub(crate) self_closing: bool,
    /// A `font` with `color`, `face` or `size` (breaks out of foreign content).
    font_breakout: bool,
    /// An `annotation-xml` whose `encoding` makes it an HTML integration point.
    annotation_html: bool,
}

/// The insertion mode a node puts the parser in while it is the current node
/// (what "reset the insertion mode appropriately" would find).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Head,
    HeadNoscript,
    Body,
    Table,
    TableBody,
    Row,
    Cell,
    Caption,
    ColumnGroup,
    Template,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    name: Atom,
    ns: Ns,
    mode: Mode,
    /// An HTML integration point (SVG `foreignObject`/`desc`/`title`, an HTML
    /// `annotation-xml`).
    html_ip: bool,
    /// A raw text or RCDATA element: the "text" insertion mode pops it at the
    /// next end tag (13.2.6.4.8).
    text: bool,
}

/// The simulator. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct TextTypeSimulator {
    config: SimulatorConfig,
    stack: Vec<Node>,
    /// The lowest stack length reached while processing the current tag.
    low: usize,
    opened_at: Option<usize>,
    switch: Option<TokenizerSwitch>,
    seen_html: bool,
    seen_head: bool,
    seen_body: bool,
    /// The body on the stack was implied by content, not opened by its tag.
    body_implied: bool,
    form_open: bool,
    /// A frameset document: "in frameset" and the modes after it.
    frameset: bool,
    /// The namespace of the current tag's element (see [`TagEffect::ns`]).
    tag_ns: Namespace,
    /// Names that are not static atoms, interned here so that tags from any source
    /// (the tokenizer's table, owned tags) compare by one table.
    names: AtomTable,
    /// Open the `html` and `head` elements the tree builder implies, and record
    /// the elements a token implies and closes at once
    /// ([`set_implied_elements`](TextTypeSimulator::set_implied_elements)).
    imply_document: bool,
    /// The elements the current token implied and closed again: (stack index,
    /// name), in order.
    transient: Vec<(usize, Atom)>,
}

/// Whether a tag is done with or must be processed again in the new mode.
enum Step {
    Done,
    Reprocess,
}

impl TextTypeSimulator {
    /// The start tags whose attributes the simulator reads: `<font>` leaves
    /// foreign content only with `color`, `face` or `size`, and `<annotation-xml>`
    /// is an HTML integration point by its `encoding`. A producer that skips
    /// attributes ([`AttributeMode`](crate::tokenizer::AttributeMode)) keeps these.
    pub const ATTRIBUTE_TAGS: &'static [Atom] = &[atom::FONT, atom::ANNOTATION_XML];

    /// A simulator at the start of a document.
    pub fn new(config: SimulatorConfig) -> Self {
        TextTypeSimulator {
            config,
            stack: Vec::new(),
            low: 0,
            opened_at: None,
            switch: None,
            seen_html: false,
            seen_head: false,
            seen_body: false,
            body_implied: false,
            form_open: false,
            frameset: false,
            tag_ns: Namespace::Html,
            names: AtomTable::new(),
            imply_document: false,
            transient: Vec::new(),
        }
    }

    /// With `on`, the simulated stack also holds the `html` and `head` elements
    /// the tree builder implies when their tags are missing (an implied `head`
    /// opens before the first head tag such as `<title>`; otherwise the start of
    /// the body implies an empty one), and
    /// [`transient_elements`](Self::transient_elements) reports the elements a
    /// token implies and closes at once. For consumers that report every element
    /// of the tree (the streaming rewriter); off by default, since nothing it adds
    /// changes a tokenizer state.
    ///
    /// ```
    /// use tagloom_html::atom;
    /// use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
    /// use tagloom_html::token::OwnedTag;
    ///
    /// let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    /// sim.set_implied_elements(true);
    /// let title = sim.start_tag_owned(&OwnedTag::new("title"));
    /// assert_eq!(title.opened_at, Some(2)); // html > head > title
    /// assert_eq!(sim.open_element(1), Some(atom::HEAD));
    /// sim.end_tag_owned(&OwnedTag::new("title"));
    /// sim.start_tag_owned(&OwnedTag::new("div"));
    /// // `</p>` with no open p: the tree builder inserts an empty p and closes it.
    /// sim.end_tag_owned(&OwnedTag::new("p"));
    /// assert_eq!(sim.transient_elements(), &[(3, atom::P)]); // html > body > div > p
    /// ```
    pub fn set_implied_elements(&mut self, on: bool) {
        self.imply_document = on;
    }

    /// The elements the last token implied and closed again, as (stack index,
    /// name) in the order the tree builder creates them: the empty `p` of a
    /// `</p>` with no `p` in button scope, the empty `head` when the body starts
    /// before any head content. Each is a child of the open element below its
    /// index at the moment it is created (the stack's other changes by the same
    /// token: elements closed first, then the implied and opened ones, which an
    /// entry at the same index precedes). Always empty unless
    /// [`set_implied_elements`](Self::set_implied_elements) is on.
    pub fn transient_elements(&self) -> &[(usize, Atom)] {
        &self.transient
    }

    /// The number of open elements.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The name of the open element at stack index `index` (0 is the outermost), for
    /// consumers that mirror the stack (the streaming rewriter learns the names of
    /// implied elements, such as a `tbody` before a `tr`, from it).
    pub fn open_element(&self, index: usize) -> Option<Atom> {
        self.stack.get(index).map(|n| n.name)
    }

    /// Whether the tokenizer may see CDATA sections now (§13.2.5.42: the adjusted
    /// current node is an element not in the HTML namespace).
    pub fn cdata_allowed(&self) -> bool {
        self.stack.last().is_some_and(|n| n.ns != Ns::Html)
    }

    /// The namespace of the current node (the last open element; HTML when none is
    /// open). A token producer that annotates owned tokens uses
    /// [`TagEffect::ns`] for a tag and this for what comes between tags.
    pub fn current_namespace(&self) -> Namespace {
        self.stack.last().map_or(Namespace::Html, |n| n.ns)
    }

    /// The integration point the current node is, if any (`None` also in HTML
    /// content). Constant time.
    pub fn integration_point(&self) -> Option<IntegrationPoint> {
        let top = self.stack.last()?;
        if top.html_ip {
            Some(IntegrationPoint::Html)
        } else if top.ns == Ns::MathMl && is_mathml_text_integration_point(top.name) {
            Some(IntegrationPoint::MathMlText)
        } else {
            None
        }
    }

    /// Sets quirks mode (from the DOCTYPE, which the caller sees).
    pub fn set_quirks(&mut self, quirks: bool) {
        self.config.quirks = quirks;
    }

    /// Processes a start tag from the tokenizer.
    #[inline]
    pub fn start_tag(&mut self, tag: &Tag<'_>) -> TagEffect {
        let name = self.name_of(tag.name, || tag.name_str());
        if let Some(effect) = self.fast_start(name) {
            return effect;
        }
        let attr = |a: Atom| tag.attrs.value_of(a);
        let start = Start::new(name, tag.self_closing, attr);
        self.start(start)
    }

    /// Processes an end tag from the tokenizer.
    #[inline]
    pub fn end_tag(&mut self, tag: &Tag<'_>) -> TagEffect {
        let name = self.name_of(tag.name, || tag.name_str());
        if let Some(effect) = self.fast_end(name) {
            return effect;
        }
        self.end(name)
    }

    /// Processes an owned start tag: the same rules and table as
    /// [`start_tag`](Self::start_tag) (its namespace annotation is ignored: the
    /// simulator decides namespaces, as the tree builder does).
    ///
    /// ```
    /// use tagloom_html::dom_patch::Namespace;
    /// use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
    /// use tagloom_html::token::OwnedTag;
    /// use tagloom_html::tree_builder::TokenizerSwitch;
    ///
    /// let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    /// let mut svg = OwnedTag::new("svg");
    /// let effect = sim.start_tag_owned(&svg);
    /// svg.set_ns(effect.ns);
    /// assert_eq!(svg.ns(), Namespace::Svg);
    /// // `<style>` in SVG is an ordinary element: no raw text follows it.
    /// let style = sim.start_tag_owned(&OwnedTag::new("style"));
    /// assert_eq!((style.ns, style.switch), (Namespace::Svg, None));
    /// assert!(sim.cdata_allowed());
    /// sim.end_tag_owned(&OwnedTag::new("style"));
    /// sim.end_tag_owned(&OwnedTag::new("svg"));
    /// let html_style = sim.start_tag_owned(&OwnedTag::new("style"));
    /// assert_eq!(html_style.switch, Some(TokenizerSwitch::Rawtext));
    /// ```
    pub fn start_tag_owned(&mut self, tag: &OwnedTag) -> TagEffect {
        let name = self.owned_name(tag);
        if let Some(effect) = self.fast_start(name) {
            return effect;
        }
        let attr = |a: Atom| {
            tag.attrs()
                .iter()
                .find(|at| at.ns == AttrNamespace::None && at.name.is(a))
                .map(|at| at.value.as_str())
        };
        let start = Start::new(name, tag.self_closing(), attr);
        self.start(start)
    }

    /// Processes an owned end tag (see [`start_tag_owned`](Self::start_tag_owned)).
    pub fn end_tag_owned(&mut self, tag: &OwnedTag) -> TagEffect {
        let name = self.owned_name(tag);
        if let Some(effect) = self.fast_end(name) {
            return effect;
        }
        self.end(name)
    }

    /// Processes any owned token: tags and text as their own methods do; other
    /// tokens change nothing (`kept` is the depth, no switch).
    pub fn process_owned(&mut self, token: &OwnedToken) -> TagEffect {
        match token {
            OwnedToken::StartTag(tag) => self.start_tag_owned(tag),
            OwnedToken::EndTag(tag) => self.end_tag_owned(tag),
            OwnedToken::Characters(text) => self.characters(text.text()),
            _ => {
                self.begin();
                self.finish()
            }
        }
    }

    /// `atom` when static, else its name interned in the simulator's own table.
    fn name_of<'a>(&mut self, atom: Atom, name: impl FnOnce() -> &'a str) -> Atom {
        if atom.is_static() {
            atom
        } else {
            self.names.intern_dynamic(name())
        }
    }

    fn owned_name(&mut self, tag: &OwnedTag) -> Atom {
        match tag.name().atom() {
            Some(atom) => atom,
            None => self.names.intern_dynamic(tag.name().as_str()),
        }
    }

    #[inline(never)]
    fn start(&mut self, tag: Start) -> TagEffect {
        self.begin();
        let mut guard = 0;
        while let Step::Reprocess = self.dispatch_start(tag) {
            // Each reprocess pops or changes the mode; the bound only guards bugs.
            guard += 1;
            if guard > 16 {
                break;
            }
        }
        self.finish()
    }

    #[inline(never)]
    fn end(&mut self, name: Atom) -> TagEffect {
        self.begin();
        let mut guard = 0;
        while let Step::Reprocess = self.dispatch_end(name) {
            guard += 1;
            if guard > 16 {
                break;
            }
        }
        self.finish()
    }

    /// Processes character data: text that is not only whitespace ends a `<head>`
    /// (a `<noscript>` in it) or a `<colgroup>`, and implies the body, as the tree
    /// builder does; elsewhere text changes no nesting.
    #[inline]
    pub fn characters(&mut self, text: &str) -> TagEffect {
        if let Some(effect) = self.fast_characters() {
            return effect;
        }
        self.characters_general(text)
    }

    /// [`characters`](Self::characters) by the general rules.
    #[inline(never)]
    fn characters_general(&mut self, text: &str) -> TagEffect {
        self.begin();
        let blank = text
            .chars()
            .all(|c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c'));
        if blank || self.frameset {
            return self.finish();
        }
        while let Some(top) = self.stack.last() {
            let ends = !top.text
                && top.ns == Ns::Html
                && match top.mode {
                    Mode::Head => top.name == atom::HEAD,
                    Mode::HeadNoscript => top.name == atom::NOSCRIPT,
                    Mode::ColumnGroup => top.name == atom::COLGROUP,
                    _ => false,
                };
            if !ends {
                break;
            }
            self.pop();
        }
        self.imply_body();
        self.finish()
    }

    fn begin(&mut self) {
        self.transient.clear();
        self.low = self.stack.len();
        self.opened_at = None;
        self.switch = None;
        self.tag_ns = self.current_namespace();
    }

    fn finish(&mut self) -> TagEffect {
        TagEffect {
            kept: self.low,
            opened_at: self.opened_at,
            switch: self.switch,
            ns: self.tag_ns,
        }
    }

    /// §13.2.6 "tree construction dispatcher", for a start tag.
    fn dispatch_start(&mut self, tag: Start) -> Step {
        let name = tag.name;
        if self.frameset {
            return self.frameset_start(name);
        }
        let html_rules = match self.stack.last() {
            None => true,
            Some(top) => match top.ns {
                Ns::Html => true,
                Ns::MathMl
                    if is_mathml_text_integration_point(top.name)
                        && name != atom::MGLYPH
                        && name != atom::MALIGNMARK =>
                {
                    true
                }
                Ns::MathMl if top.name == atom::ANNOTATION_XML && name == atom::SVG => true,
                _ => top.html_ip,
            },
        };
        if html_rules {
            self.html_start(tag)
        } else {
            self.foreign_start(tag)
        }
    }

    /// §13.2.6 dispatcher for an end tag: HTML rules unless the current node is
    /// foreign (integration points included).
    fn dispatch_end(&mut self, name: Atom) -> Step {
        match self.stack.last() {
            Some(top) if top.text => {
                self.pop();
                Step::Done
            }
            _ if self.frameset => {
                if name == atom::FRAMESET && self.top_is(atom::FRAMESET) {
                    self.pop();
                }
                Step::Done
            }
            Some(top) if top.ns != Ns::Html => self.foreign_end(name),
            _ => self.html_end(name),
        }
    }

    /// §13.2.6.5 start tags in foreign content.
    fn foreign_start(&mut self, tag: Start) -> Step {
        let name = tag.name;
        if crate::tree_builder::foreign::is_breakout_tag(name) || tag.font_breakout {
            self.pop_to_html_content();
            return self.html_start(tag);
        }
        let ns = self.current_namespace();
        self.tag_ns = ns;
        if tag.self_closing {
            return Step::Done;
        }
        let html_ip = match ns {
            Ns::Svg => matches!(name, atom::FOREIGNOBJECT | atom::DESC | atom::TITLE),
            Ns::MathMl => name == atom::ANNOTATION_XML && tag.annotation_html,
            Ns::Html => false,
        };
        let mode = self.mode();
        self.push_node(Node {
            name,
            ns,
            mode,
            html_ip,
            text: false,
        });
        Step::Done
    }

    /// §13.2.6.5 end tags in foreign content.
    fn foreign_end(&mut self, name: Atom) -> Step {
        if name == atom::BR || name == atom::P {
            self.pop_to_html_content();
            return self.html_end(name);
        }
        let mut i = self.stack.len();
        while i > 0 {
            i -= 1;
            let node = self.stack[i];
            if node.name == name {
                self.tag_ns = node.ns;
                self.truncate(i);
                return Step::Done;
            }
            if i > 0 && self.stack[i - 1].ns == Ns::Html {
                return self.html_end(name);
            }
        }
        Step::Done
    }

    /// Pops until the current node is HTML or an integration point.
    fn pop_to_html_content(&mut self) {
        while let Some(top) = self.stack.last() {
            let ip =
                top.html_ip || top.ns == Ns::MathMl && is_mathml_text_integration_point(top.name);
            if top.ns == Ns::Html || ip {
                break;
            }
            self.pop();
        }
    }

    // --- the stack -------------------------------------------------------------

    fn mode(&self) -> Mode {
        self.stack.last().map_or(Mode::Body, |n| n.mode)
    }

    fn top_is(&self, name: Atom) -> bool {
        self.stack
            .last()
            .is_some_and(|n| n.ns == Ns::Html && n.name == name)
    }

    fn push_node(&mut self, node: Node) {
        // The same bound as the tree builder's `push_open`.
        if self.stack.len() < self.config.max_depth.max(2) {
            self.opened_at = Some(self.stack.len());
            self.stack.push(node);
        } else {
            self.opened_at = None;
        }
    }

    /// Pushes an HTML element that keeps the current mode.
    fn push(&mut self, name: Atom) {
        let mode = self.mode();
        self.push_mode(name, mode);
    }

    fn push_mode(&mut self, name: Atom, mode: Mode) {
        self.push_node(Node {
            name,
            ns: Ns::Html,
            mode,
            html_ip: false,
            text: false,
        });
    }

    /// Pushes an implied element (its index is not the tag's own).
    fn push_implied(&mut self, name: Atom, mode: Mode) {
        self.push_mode(name, mode);
        self.opened_at = None;
    }

    fn pop(&mut self) {
        self.stack.pop();
        self.low = self.low.min(self.stack.len());
    }

    fn truncate(&mut self, len: usize) {
        self.stack.truncate(len);
        self.low = self.low.min(self.stack.len());
    }

    /// Pops until an HTML element named `name` has been popped.
    fn pop_until(&mut self, name: Atom) {
        if let Some(i) = self.position(name) {
            self.truncate(i);
        }
    }

    /// Pops until one of `names` has been popped.
    fn pop_until_any(&mut self, names: &[Atom]) {
        if let Some(i) = self
            .stack
            .iter()
            .rposition(|n| n.ns == Ns::Html && names.contains(&n.name))
        {
            self.truncate(i);
        }
    }

    fn position(&self, name: Atom) -> Option<usize> {
        self.stack
            .iter()
            .rposition(|n| n.ns == Ns::Html && n.name == name)
    }

    /// §13.2.6.3 "generate implied end tags", except for `except`.
    fn generate_implied_end_tags(&mut self, except: Option<Atom>) {
        while let Some(top) = self.stack.last() {
            let implied = top.ns == Ns::Html
                && crate::tree_builder::tag_sets::has_implied_end_tag(top.name)
                && Some(top.name) != except;
            if !implied {
                break;
            }
            self.pop();
        }
    }

    /// §13.2.4.2 "has an element in … scope"; `extra` adds boundaries (button
    /// scope, list item scope); `table` selects table scope.
    fn in_scope_with(&self, targets: &[Atom], extra: &[Atom], table: bool) -> bool {
        for node in self.stack.iter().rev() {
            if node.ns == Ns::Html && targets.contains(&node.name) {
                return true;
            }
            let boundary = if table {
                node.ns == Ns::Html
                    && matches!(node.name, atom::HTML | atom::TABLE | atom::TEMPLATE)
            } else {
                match node.ns {
                    Ns::Html => {
                        SCOPE_BOUNDARIES_HTML.contains(&node.name) || extra.contains(&node.name)
                    }
                    Ns::MathMl => {
                        is_mathml_text_integration_point(node.name)
                            || node.name == atom::ANNOTATION_XML
                    }
                    Ns::Svg => {
                        matches!(node.name, atom::FOREIGNOBJECT | atom::DESC | atom::TITLE)
                    }
                }
            };
            if boundary {
                return false;
            }
        }
        false
    }

    fn in_scope(&self, name: Atom) -> bool {
        self.in_scope_with(&[name], &[], false)
    }

    fn in_button_scope(&self, name: Atom) -> bool {
        self.in_scope_with(&[name], &[atom::BUTTON], false)
    }

    fn in_table_scope(&self, names: &[Atom]) -> bool {
        self.in_scope_with(names, &[], true)
    }

    /// Special for "any other end tag" and the `li`/`dd`/`dt` loops.
    fn is_special(node: &Node) -> bool {
        match node.ns {
            Ns::Html => is_special_html(node.name),
            Ns::MathMl => {
                is_mathml_text_integration_point(node.name) || node.name == atom::ANNOTATION_XML
            }
            Ns::Svg => matches!(node.name, atom::FOREIGNOBJECT | atom::DESC | atom::TITLE),
        }
    }

    fn has_template(&self) -> bool {
        self.position(atom::TEMPLATE).is_some()
    }
}

impl Start {
    /// Reads what the rules need; `attr` looks up a no-namespace attribute.
    fn new<'a>(name: Atom, self_closing: bool, attr: impl Fn(Atom) -> Option<&'a str>) -> Start {
        Start {
            name,
            self_closing,
            font_breakout: name == atom::FONT
                && [atom::COLOR, atom::FACE, atom::SIZE]
                    .iter()
                    .any(|&a| attr(a).is_some()),
            annotation_html: name == atom::ANNOTATION_XML
                && crate::tree_builder::foreign::annotation_xml_is_html(attr(atom::ENCODING)),
        }
    }
}
