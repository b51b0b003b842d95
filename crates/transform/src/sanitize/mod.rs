//! An HTML sanitizer whose output is the serialization of a spec tree, checked to
//! re-parse to itself.
//!
//! ```
//! use tagloom_transform::sanitize::{sanitize, Policy};
//!
//! let policy = Policy::default();
//! let out = sanitize(r#"<p onclick=x>Hi <a href="java&#x09;script:alert(1)">x</a><script>alert(1)</script>"#, &policy);
//! assert_eq!(out.html, r#"<p>Hi <a rel="noopener noreferrer">x</a></p>"#);
//! // Idempotent: sanitizing the output changes nothing.
//! assert_eq!(sanitize(&out.html, &policy).html, out.html);
//! ```
//!
//! # How it works
//!
//! 1. **Tokens.** The input is tokenized as a `<body>` fragment; the
//!    [`TextTypeSimulator`] picks the tokenizer state after each start tag
//!    (RAWTEXT after `<style>`, CDATA allowed in foreign content…), so the tokens
//!    are what a browser's tokenizer reads. Every tag is read with its
//!    attributes: since the tokenizer's fused tag reader (session 11) a full
//!    read costs less than skimming the tags the filter drops (go1-docs −3.5 %,
//!    whatwg −2.8 % of the sanitizer's instructions).
//! 2. **Token filter** ([`SanitizeFilter`], the pipeline's last phase-3 handler
//!    set): drops comments, DOCTYPEs, disallowed tags and attributes, bad URLs and
//!    styles, and the content of elements dropped with their content (`script`,
//!    `style`, `textarea`, `svg` when SVG is off…). Policy lookups go through
//!    the policy compiled into hash sets (`rules.rs`), and the answers about
//!    names are remembered per input by atom (`memo.rs`). Here it reads the
//!    tokenizer's borrowed tokens: text and kept end tags pass as they are, a
//!    kept start tag is copied with the attributes it keeps, each judged once;
//!    when every one of them is final for an HTML element, the tag carries
//!    that verdict to the tree pass (*judged*), which then does not judge them
//!    again.
//! 3. **Tree.** The tree builder (fragment case, context `body`) builds the
//!    tree from borrowed tokens (a filtered start tag as a view of the filter's
//!    copy over the tokenizer's atoms); the **tree pass** (`tree.rs`) re-checks
//!    every node with its namespace and keeps what stays.
//! 4. **Serialization** with the spec's fragment serialization algorithm.
//! 5. **Output checks.** Parsed again as `<body>` content (a `<div>` fragment
//!    parses alike: see `Recheck`), the output must give the tree it was
//!    serialized from, and sanitizing it again must give it back.
//!
//! Two paths do this. The **fast path** (`fast/`, every corpus page takes it)
//! streams steps 3–5 with no `DomStore` and no second tokenization: what the
//! tree builder builds (through the fast path's own sink, no patch values) is
//! read as long as each node is appended at the end of the tree
//! (a stack of open elements), the tree pass runs on that stream, and the
//! serializer also emits the tokens a tokenizer reads back from what it wrote
//! (which holds only with no CR or NUL, plain names, no raw text: checked),
//! fed to a second tree builder whose tree is compared node by node with the
//! clean tree and whose own tree pass must give the output again — unless a
//! structural proof over the clean tree (`fast/proof.rs`: only shapes a tree
//! builder reads back as written) already shows both, which spares the second
//! tree builder on ordinary rich text. Anything it
//! cannot vouch for — foster parenting, the adoption agency, a kept `style` or
//! `xmp`, a CR, a re-parse that differs — hands the input to the **general
//! path**: the tree in a `DomStore`, the tree pass copying into a new one, the
//! serialization re-parsed into a third. While the filter would keep every
//! token of the output unchanged and the simulator agrees with the tree
//! builder, that re-parse is the second sanitize's own parse, and only its tree
//! pass runs. If the output does not settle (mutation XSS: a tree whose
//! serialization parses differently, e.g. nested `<form>`s or a `<style>` moved
//! between namespaces), it is sanitized again, up to [`Policy::max_passes`]
//! times; if no pass settles, the output is the escaped text of the tree, and
//! if even that does not settle, empty. The result is never something a second
//! sanitize would change. Both paths give the same output byte for byte
//! (`Sanitizer::sanitize_reference`, the checks as first written, is the
//! oracle the tests hold them to).
//!
//! # Limits
//!
//! The tree is at most [`Policy::max_depth`] elements deep (the tree builder
//! attaches deeper elements to their parent, as Chromium does, and the tree pass
//! unwraps anything deeper). A page that embeds the output `d` elements deep
//! has Chromium flatten it past `512 - d` (elements attach to their parent's
//! parent there; text, namespaces and tokenizer states are unchanged). The whole
//! input is held in memory; peak memory is a small multiple of the input.
//!
//! Policies load from JSON ([`Policy::from_json`]); TOML is not supported.

mod attrs;
mod css;
mod fast;
mod filter;
mod memo;
mod pipeline;
mod policy;
mod rules;
mod tree;
mod url;

use std::sync::Arc;

use tagloom_html::atom::AtomTable;
use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::dom_patch::{Namespace, PatchKey};
use tagloom_html::serializer::{FragmentOptions, children_to_string};
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_html::tree_builder::{FragmentContext, TreeBuilder, TreeBuilderConfig};

pub use fast::FastFallback;
pub use filter::SanitizeFilter;
pub use pipeline::{SanitizeHandler, SanitizeSink};
pub use policy::{Disposition, NEVER_ALLOWED, Policy, PolicyError, is_never_allowed_attribute};

/// The sanitized HTML and how it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sanitized {
    /// The sanitized fragment, serialized.
    pub html: String,
    /// How it was made.
    pub report: Report,
}

/// How a [`Sanitized`] output was made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Sanitize passes run (1 when the first output was already settled).
    pub passes: usize,
    /// What the output fell back to, if the passes did not settle.
    pub fallback: Option<Fallback>,
}

/// The fallbacks of the output checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// No pass settled: the output is the escaped text of the last tree.
    Text,
    /// Not even the text settled (or an engine invariant failed): empty output.
    Empty,
}

/// Sanitizes `input` (HTML body content) with `policy`. Never fails: whatever
/// the input, the output is settled (see the [module docs](self)).
pub fn sanitize(input: &str, policy: &Policy) -> Sanitized {
    Sanitizer::new(Arc::new(policy.clone())).sanitize(input)
}

/// A sanitizer holding its policy, for many inputs.
#[derive(Clone, Debug)]
pub struct Sanitizer {
    policy: Arc<rules::Rules>,
}

/// One pass: the clean tree and its serialization.
struct Pass {
    tree: tree::CleanTree,
    html: String,
}

impl Sanitizer {
    /// A sanitizer for `policy`.
    pub fn new(policy: Arc<Policy>) -> Sanitizer {
        Sanitizer {
            policy: Arc::new(rules::Rules::new(policy)),
        }
    }

    /// The token filter for this policy (to plug into a pipeline).
    pub fn filter(&self) -> SanitizeFilter {
        SanitizeFilter::with_rules(self.policy.clone())
    }

    /// Sanitizes one input. See [`sanitize`].
    pub fn sanitize(&self, input: &str) -> Sanitized {
        match self.sanitize_fast(input) {
            Ok(done) => done,
            Err(_) => self.settle(self.pass(input)),
        }
    }

    /// Sanitizes a tree built elsewhere — the pipeline's: tokens through
    /// [`SanitizeFilter`], then the tree builder (fragment, context `body`), then
    /// a [`DomStore`]. `root` is the node whose children are the fragment (the
    /// tree builder's [`fragment_root_key`](TreeBuilder::fragment_root_key)). Runs
    /// the tree pass, the serializer and the output checks, exactly as
    /// [`sanitize`](Self::sanitize) does after its own parse.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tagloom_html::dom::DomStore;
    /// use tagloom_html::dom_patch::Namespace;
    /// use tagloom_html::token::{OwnedTag, OwnedToken};
    /// use tagloom_html::tree_builder::{FragmentContext, TreeBuilder, TreeBuilderConfig};
    /// use tagloom_transform::sanitize::{Policy, Sanitizer};
    ///
    /// let sanitizer = Sanitizer::new(Arc::new(Policy::default()));
    /// let mut filter = sanitizer.filter();
    /// let mut tb = TreeBuilder::new(TreeBuilderConfig {
    ///     fragment_context: Some(FragmentContext::new(Namespace::Html, "body")),
    ///     ..TreeBuilderConfig::default()
    /// });
    /// let mut out = Vec::new();
    /// for t in [
    ///     OwnedToken::StartTag(OwnedTag::new("p").with_attr("onclick", "x")),
    ///     OwnedToken::text("hi"),
    ///     OwnedToken::Eof,
    /// ] {
    ///     filter.filter(t, &mut out);
    /// }
    /// for t in &out {
    ///     tb.process_owned(t).unwrap();
    /// }
    /// let mut store = DomStore::new();
    /// store.apply_patches(&tb.take_patches()).unwrap();
    /// let root = store.get(tb.fragment_root_key().unwrap()).unwrap();
    /// assert_eq!(sanitizer.sanitize_tree(root).html, "<p>hi</p>");
    /// ```
    pub fn sanitize_tree(&self, root: NodeRef<'_>) -> Sanitized {
        self.settle(self.pass_from_tree(root))
    }

    /// The output checks over a first pass (see the module docs): one re-parse of
    /// the output serves both checks when it is *faithful* (see [`Recheck`]).
    fn settle(&self, first: Option<Pass>) -> Sanitized {
        let mut report = Report::default();
        let Some(mut pass) = first else {
            return empty(report);
        };
        for n in 1..=self.policy.max_passes {
            report.passes = n;
            let Some(check) = pass
                .tree
                .root()
                .and_then(|own| self.recheck(&pass.html, own))
            else {
                return empty(report);
            };
            let next = if check.faithful {
                // The re-parse is the tree `self.pass(&pass.html)` would build:
                // the second sanitize needs only its tree pass.
                check
                    .store
                    .get(check.root)
                    .and_then(|root| self.pass_from_tree(root))
            } else {
                self.pass(&pass.html)
            };
            let Some(next) = next else {
                return empty(report);
            };
            if check.same && next.html == pass.html {
                return Sanitized {
                    html: next.html,
                    report,
                };
            }
            pass = next;
        }
        self.text_fallback(pass, report)
    }

    /// No pass settled: the text alone, if it settles.
    fn text_fallback(&self, pass: Pass, mut report: Report) -> Sanitized {
        let text = pass.tree.root().map(text_content).unwrap_or_default();
        if let Some(t) = self.pass(&escape_text(&text))
            && t.html == escape_text(&text)
            && t.tree.root().is_some_and(|root| reparses_to(&t.html, root))
        {
            report.fallback = Some(Fallback::Text);
            return Sanitized {
                html: t.html,
                report,
            };
        }
        empty(report)
    }

    /// The output checks as first written (re-parse as `<body>` and as `<div>`,
    /// then a whole second sanitize): the oracle the tests hold the fast checks of
    /// [`sanitize`](Self::sanitize) to. Not for production use.
    #[doc(hidden)]
    pub fn sanitize_reference(&self, input: &str) -> Sanitized {
        let mut report = Report::default();
        let Some(mut pass) = self.pass_with(input, Front::Plain) else {
            return empty(report);
        };
        for n in 1..=self.policy.max_passes {
            report.passes = n;
            let reparses = pass
                .tree
                .root()
                .is_some_and(|root| reparses_to(&pass.html, root));
            let Some(next) = self.pass_with(&pass.html, Front::Plain) else {
                return empty(report);
            };
            if reparses && next.html == pass.html {
                return Sanitized {
                    html: next.html,
                    report,
                };
            }
            pass = next;
        }
        self.text_fallback(pass, report)
    }

    /// Parses `html` as `<body>` content the ordinary way (the tree builder
    /// drives the tokenizer, no depth limit) and compares the tree with `own`;
    /// meanwhile watches whether the tokens are exactly those `self.pass(html)`
    /// would feed its tree builder (see [`Recheck::faithful`]).
    fn recheck(&self, html: &str, own: NodeRef<'_>) -> Option<Recheck> {
        let policy = &*self.policy;
        let mut tok = Tokenizer::new(TokenizerConfig {
            report_errors: false,
            ..TokenizerConfig::default()
        });
        let mut sim = TextTypeSimulator::new(SimulatorConfig {
            max_depth: policy.max_depth,
            ..SimulatorConfig::default()
        });
        let mut tb = TreeBuilder::new(tree_config("body", usize::MAX / 2));
        let mut store = DomStore::new();
        let mut faithful = true;
        tok.push_str(html);
        tok.finish();
        while let Some(token) = tok.next_token().ok()? {
            let mut switch = None;
            if faithful {
                faithful = filter::keeps_unchanged(policy, &token);
                switch = match &token {
                    Token::StartTag(tag) => sim.start_tag(tag).switch,
                    Token::EndTag(tag) => sim.end_tag(tag).switch,
                    Token::Characters(text) => {
                        sim.characters(text.text);
                        None
                    }
                    _ => None,
                };
            }
            tb.process_token(token).ok()?;
            let state = tb.take_tokenizer_state();
            // `self.pass` drives its tokenizer by the simulator and caps the depth:
            // same tokens only while the two agree and the cap never applies.
            faithful = faithful
                && switch == state
                && sim.cdata_allowed() == tb.cdata_allowed()
                && tb.open_elements() < policy.max_depth;
            if let Some(state) = state {
                tok.set_state(state.into());
            }
            tok.set_cdata_allowed(tb.cdata_allowed());
            if tb.pending_patches() > 4096 {
                store.apply_patches_owned(tb.take_patches()).ok()?;
            }
        }
        store.apply_patches_owned(tb.take_patches()).ok()?;
        let root = tb.fragment_root_key()?;
        let same = store.get(root).is_some_and(|r| same_children(r, own));
        Some(Recheck {
            store,
            root,
            same,
            faithful,
        })
    }

    /// Tokenizer → filter → tree builder → tree pass → serialization.
    fn pass(&self, input: &str) -> Option<Pass> {
        self.pass_with(input, Front::Lean)
    }

    fn pass_with(&self, input: &str, how: Front) -> Option<Pass> {
        let mut tb = TreeBuilder::new(tree_config("body", self.policy.max_depth));
        let mut store = DomStore::new();
        self.front(
            input,
            &mut tb,
            how,
            |_| {},
            |tb, eof| {
                if tb.pending_patches() > 4096 || eof {
                    store.apply_patches_owned(tb.take_patches()).ok()?;
                }
                Some(())
            },
        )?;
        self.pass_from_tree(store.get(tb.fragment_root_key()?)?)
    }

    /// The front end of a pass: tokenizer (driven by the text-type simulator) →
    /// filter → `tb`, calling `each(tb, eof)` after every input token (`eof`:
    /// the last call) and `judged(Some(tag))` just before `tb` processes a
    /// start tag with attributes [`SanitizeFilter::filter_token`] judged (the
    /// filter's copy, as `tb` reads a view of it), `judged(None)` just after. `None` when `each` or the tree builder gives up.
    fn front(
        &self,
        input: &str,
        tb: &mut TreeBuilder,
        how: Front,
        mut judged: impl FnMut(Option<fast::Judged<'_>>),
        mut each: impl FnMut(&mut TreeBuilder, bool) -> Option<()>,
    ) -> Option<()> {
        let policy = &*self.policy;
        // The whole input is pushed at once, so no token waits for its end and
        // the tokenizer's token size limit never applies.
        let mut tok = Tokenizer::new(TokenizerConfig {
            report_errors: false,
            ..TokenizerConfig::default()
        });
        let mut sim = TextTypeSimulator::new(SimulatorConfig {
            max_depth: policy.max_depth,
            ..SimulatorConfig::default()
        });
        let mut filter = SanitizeFilter::with_rules(self.policy.clone());
        let mut out = Vec::new();
        let mut spare = filter::Spare::default();
        // The names of the owned tokens the filter makes (`out`).
        let mut own_atoms = AtomTable::new();
        let mut names = Vec::new();
        tok.push_str(input);
        tok.finish();
        loop {
            let token = match tok.next_token() {
                Ok(Some(token)) => token,
                Ok(None) | Err(_) => Token::Eof,
            };
            let eof = matches!(token, Token::Eof);
            let effect = match &token {
                Token::StartTag(tag) => Some(sim.start_tag(tag)),
                Token::EndTag(tag) => Some(sim.end_tag(tag)),
                Token::Characters(text) => {
                    sim.characters(text.text);
                    None
                }
                _ => None,
            };
            // Every token reaches the tree builder as a borrowed one, whose
            // names are atoms of the tokenizer's table (see `OwnedToken::view`).
            let passed = match how {
                // Text outside dropped content passes (without the call).
                Front::Lean if eof_or_text(&token) && filter.passes_text() => filter::Passed::Token,
                Front::Lean => filter.filter_token(&token, effect, &mut out, &mut spare),
                Front::Plain => {
                    filter.filter_with(token.to_owned(), effect, &mut out);
                    filter::Passed::Out
                }
            };
            match passed {
                filter::Passed::Token => {
                    tb.process_token(token).ok()?;
                }
                filter::Passed::Tag { judged: j } => {
                    let tag = spare.tag.as_ref()?;
                    let Token::StartTag(read) = token else {
                        return None;
                    };
                    let view = tag.view(read.atoms(), &spare.atoms);
                    let owned = tag.as_tag()?;
                    // Without attributes there is nothing to judge again.
                    if j && !owned.attrs().is_empty() {
                        judged(Some((owned, &spare.atoms, read.atoms())));
                        let done = tb.process_token(view);
                        judged(None);
                        done.ok()?;
                    } else {
                        tb.process_token(view).ok()?;
                    }
                }
                filter::Passed::Out => {
                    for t in out.drain(..) {
                        // Tags come through `out` only from `Front::Plain`, all
                        // of whose tokens do: their names go into a table of
                        // their own.
                        names.clear();
                        t.intern_names(&mut own_atoms, &mut names);
                        tb.process_token(t.view(&own_atoms, &names)).ok()?;
                    }
                }
            }
            // The simulator drives the tokenizer; the tree builder's requests
            // are for the filtered stream and are not used.
            let _ = tb.take_tokenizer_state();
            if let Some(state) = effect.and_then(|e| e.switch) {
                tok.set_state(state.into());
            }
            tok.set_cdata_allowed(sim.cdata_allowed());
            each(tb, eof)?;
            if eof {
                return Some(());
            }
        }
    }

    /// The tree pass and the serializer over a parsed fragment.
    fn pass_from_tree(&self, root: NodeRef<'_>) -> Option<Pass> {
        let tree = tree::clean_tree(root, &self.policy).ok()?;
        let html = children_to_string(tree.root()?, FragmentOptions::default());
        Some(Pass { tree, html })
    }
}

/// Text or the end of input: what [`SanitizeFilter::filter_token`] passes on
/// as it is outside dropped content.
#[inline]
fn eof_or_text(token: &Token<'_>) -> bool {
    matches!(token, Token::Characters(_) | Token::Eof)
}

/// How a pass reads its input: the same tokens reach the filter either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Front {
    /// The filter reads the tokenizer's tokens, copying only what it keeps
    /// ([`SanitizeFilter::filter_token`]).
    Lean,
    /// Every tag read in full and copied whole (the reference's way).
    Plain,
}

/// The re-parse of an output as `<body>` content.
///
/// One context is enough at run time: the tree builder reads its fragment
/// context's name only in "reset the insertion mode" (`body` and `div` both give
/// "in body"), for the tokenizer's first state (data for both), the form pointer
/// and `select` checks (neither), and through the adjusted current node (an HTML
/// element that is no integration point, either way); so `<body>` and `<div>`
/// fragments parse alike. The tests still parse every output in both.
struct Recheck {
    store: DomStore,
    root: PatchKey,
    /// The re-parse gives the tree the output was serialized from.
    same: bool,
    /// The tokens were exactly what [`Sanitizer::pass`] feeds its tree builder
    /// for the same text: the filter kept every one unchanged (so it never
    /// dropped content), the simulator asked for the tokenizer states the tree
    /// builder asked for, and the stack stayed under the depth cap. The tree is
    /// then the one `pass` builds, and its tree pass is the second sanitize.
    faithful: bool,
}

fn tree_config(context: &str, max_depth: usize) -> TreeBuilderConfig {
    TreeBuilderConfig {
        fragment_context: Some(FragmentContext::new(Namespace::Html, context)),
        max_depth,
        ..TreeBuilderConfig::default()
    }
}

fn empty(mut report: Report) -> Sanitized {
    report.fallback = Some(Fallback::Empty);
    Sanitized {
        html: String::new(),
        report,
    }
}

/// Parses `html` as a fragment in an HTML `context` element the ordinary way (the
/// tree builder drives the tokenizer), returning the store and the fragment root.
fn parse_fragment(html: &str, context: &str, max_depth: usize) -> Option<(DomStore, PatchKey)> {
    let mut tok = Tokenizer::new(TokenizerConfig {
        report_errors: false,
        ..TokenizerConfig::default()
    });
    let mut tb = TreeBuilder::new(TreeBuilderConfig {
        fragment_context: Some(FragmentContext::new(Namespace::Html, context)),
        max_depth,
        ..TreeBuilderConfig::default()
    });
    let mut store = DomStore::new();
    tok.push_str(html);
    tok.finish();
    while let Some(token) = tok.next_token().ok()? {
        tb.process_token(token).ok()?;
        if let Some(state) = tb.take_tokenizer_state() {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(tb.cdata_allowed());
        if tb.pending_patches() > 4096 {
            store.apply_patches_owned(tb.take_patches()).ok()?;
        }
    }
    store.apply_patches_owned(tb.take_patches()).ok()?;
    let root = tb.fragment_root_key()?;
    Some((store, root))
}

/// Whether `html`, parsed as `<body>` content and as a `<div>` fragment, gives
/// the tree under `root`.
fn reparses_to(html: &str, root: NodeRef<'_>) -> bool {
    ["body", "div"].iter().all(|context| {
        parse_fragment(html, context, usize::MAX / 2)
            .is_some_and(|(store, key)| store.get(key).is_some_and(|r| same_children(r, root)))
    })
}

/// Whether the children of `a` and `b` are the same trees: node kinds, names,
/// namespaces, attributes in order, text, template contents. Iterative.
fn same_children(a: NodeRef<'_>, b: NodeRef<'_>) -> bool {
    let mut stack = vec![(a.first_child(), b.first_child())];
    while let Some(pair) = stack.pop() {
        let (x, y) = match pair {
            (None, None) => continue,
            (Some(x), Some(y)) => (x, y),
            _ => return false,
        };
        let same = match (x.kind(), y.kind()) {
            (NodeKind::Element(e), NodeKind::Element(f)) => {
                e.ns() == f.ns() && e.local_name() == f.local_name() && e.attrs() == f.attrs()
            }
            (NodeKind::Text(s), NodeKind::Text(t))
            | (NodeKind::Comment(s), NodeKind::Comment(t)) => s == t,
            _ => false,
        };
        if !same {
            return false;
        }
        stack.push((x.next_sibling(), y.next_sibling()));
        match (x.template_contents(), y.template_contents()) {
            (Some(c), Some(d)) => stack.push((c.first_child(), d.first_child())),
            (None, None) => {}
            _ => return false,
        }
        stack.push((x.first_child(), y.first_child()));
    }
    true
}

/// The text of every text node under `root`, in order, without NUL or CR.
fn text_content(root: NodeRef<'_>) -> String {
    let mut out = String::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let NodeKind::Text(t) = node.kind() {
            out.extend(t.chars().filter(|c| !matches!(c, '\0' | '\r')));
        }
        let mut children: Vec<NodeRef<'_>> = node.children().collect();
        if let Some(contents) = node.template_contents() {
            children.extend(contents.children());
        }
        stack.extend(children.into_iter().rev());
    }
    out
}

fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            c => out.push(c),
        }
    }
    out
}
