//! `{{…}}`: magic words, parser functions and templates (MediaWiki's
//! `Parser::braceSubstitution`).

use std::rc::Rc;
use std::sync::Arc;

use super::{Flags, Frame, Missing, PageExpander, Parsed, Warning};
use crate::preprocess::functions::{self, CallArgs};
use crate::preprocess::parse::{Mode, parse_with};
use crate::preprocess::title::{NS_MAIN, NS_TEMPLATE, Title};
use crate::preprocess::tree::Braced;

/// What a `{{…}}` calls, as Parsoid's `data-mw` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A parser function or magic word: `key` is its canonical name, lower case
    /// without `#` (`{{#if:…}}` → `if`, `{{CURRENTDAY}}` → `currentday`,
    /// `{{!}}` → `!`), `arg` the text after `:` (expanded, trimmed), if any.
    Function {
        /// The canonical name.
        key: String,
        /// The first argument (after `:`).
        arg: Option<String>,
    },
    /// A template (or `{{:Page}}` transclusion).
    Template(Title),
    /// Not a call: the braces stay text (an invalid title, `subst:`).
    Text,
}

/// A classified call.
enum Call<'t> {
    /// A magic word without parts, and its value.
    Variable { name: &'t str, value: String },
    /// A parser function, its name as written and the text after `:`.
    Function {
        f: functions::Func,
        name: &'t str,
        arg0: &'t str,
    },
    /// A template (`msgnw`: show its source).
    Template { title: Title, msgnw: bool },
    /// Not a call.
    Text,
}

/// Redirects followed when loading a template (MediaWiki follows two).
const MAX_REDIRECTS: usize = 2;

impl PageExpander<'_, '_> {
    /// What the template node `b` of a tree parsed from `src` (in the page's
    /// frame) calls: a function, a template or nothing. Its title is expanded
    /// (`{{ {{{1|x}}} }}` names `Template:X`).
    ///
    /// ```
    /// use tagloom_wikitext::preprocess::{parse, Config, Mode, Node, NoPages, Preprocessor, Site, Target, Title};
    ///
    /// let pre = Preprocessor::new(&NoPages, Config::default());
    /// let mut page = pre.page(Title::parse("Demo", 0, &Site::default())?);
    /// let src = "{{#IF: a | b }}{{CURRENTDAY}}{{foo_bar|x}}{{subst:x}}";
    /// let tree = parse(src, Mode::Page);
    /// let targets: Vec<Target> = tree
    ///     .nodes
    ///     .iter()
    ///     .map(|n| match n {
    ///         Node::Template(b) => page.target(src, b),
    ///         _ => Target::Text,
    ///     })
    ///     .collect();
    /// assert_eq!(targets[0], Target::Function { key: "if".into(), arg: Some("a".into()) });
    /// assert_eq!(targets[1], Target::Function { key: "currentday".into(), arg: None });
    /// assert_eq!(targets[2], Target::Template(Title::parse("Template:Foo bar", 0, &Site::default())?));
    /// assert_eq!(targets[3], Target::Text);
    /// # Ok::<(), tagloom_wikitext::preprocess::TitleError>(())
    /// ```
    pub fn target(&mut self, src: &str, b: &Braced) -> Target {
        let frame = Frame::root(src);
        let strip = Flags {
            strip_comments: true,
        };
        let title_ws = self.expand_to_string(&b.title.nodes, &frame, strip, 0);
        match self.classify(&title_ws, !b.parts.is_empty()) {
            Call::Variable { name, .. } => Target::Function {
                key: name.to_lowercase(),
                arg: None,
            },
            Call::Function { name, arg0, .. } => Target::Function {
                key: name.trim_start_matches('#').to_lowercase(),
                arg: Some(arg0.to_owned()),
            },
            Call::Template { title, .. } => Target::Template(title),
            Call::Text => Target::Text,
        }
    }

    /// What the expanded title `title_ws` of a call names (MediaWiki's order:
    /// modifiers, variables without parts, functions before `:`, templates).
    fn classify<'t>(&mut self, title_ws: &'t str, has_parts: bool) -> Call<'t> {
        let mut part1 = title_ws.trim();
        // `subst:` only means something when saving, so the call stays as
        // written; `safesubst:`, `msg:`, `msgnw:` and `raw:` are dropped.
        if strip_prefix_ci(part1, "subst:").is_some() {
            return Call::Text;
        }
        let mut msgnw = false;
        for m in ["safesubst:", "msgnw:", "msg:", "raw:"] {
            if let Some(rest) = strip_prefix_ci(part1, m) {
                part1 = rest.trim_start();
                msgnw |= m == "msgnw:";
            }
        }
        if !has_parts && let Some(value) = functions::variable(self, part1) {
            return Call::Variable { name: part1, value };
        }
        if let Some(colon) = part1.find(':')
            && let Some(f) = functions::lookup(&part1[..colon])
        {
            return Call::Function {
                f,
                name: &part1[..colon],
                arg0: part1[colon + 1..].trim(),
            };
        }
        let title = if part1.starts_with('/') || part1.starts_with("../") {
            // Subpage-relative: `{{/Sub}}`, `{{../Sibling}}` (in namespaces with
            // subpages), in the page's namespace.
            self.relative_title(part1)
        } else if let Some(title) = self.titles.get(part1) {
            title.clone()
        } else {
            // Character references in a title are decoded (`Foo&ndash;bar`).
            let name = if part1.contains('&') {
                std::borrow::Cow::Owned(crate::tokenize::entity::decode_all(part1))
            } else {
                std::borrow::Cow::Borrowed(part1)
            };
            let title = Title::parse(&name, NS_TEMPLATE, &self.pre.config.site).ok();
            self.titles.insert(part1.to_owned(), title.clone());
            title
        };
        match title {
            Some(title) if title.ns() >= 0 => Call::Template { title, msgnw },
            _ => Call::Text,
        }
    }

    /// `{{…}}`; `line_start`: whether the call counts as starting a line
    /// (T2529's newline before list or table output).
    pub(crate) fn template(
        &mut self,
        b: &Braced,
        line_start: bool,
        frame: &Frame<'_>,
        flags: Flags,
        depth: usize,
        out: &mut String,
    ) {
        let strip = Flags {
            strip_comments: true,
        };
        let title_ws = self.expand_text(&b.title.nodes, frame, strip, depth);
        let has_parts = usize::from(!b.parts.is_empty());
        let known = self.missing.get(has_parts).and_then(|m| m.get(&*title_ws));
        if let Some(missing) = known.map(Rc::clone) {
            // What [`transclude`](Self::transclude) does for a template
            // known to be missing, without classifying the name or looking
            // the title up again (a link never starts a line: T2529 adds
            // no newline).
            if self.admit(&missing.title, frame, out) {
                out.push_str(&missing.link);
            }
            return;
        }
        match self.classify(&title_ws, has_parts == 1) {
            Call::Variable { value, .. } => push_result(line_start, &value, out),
            Call::Function { f, arg0, .. } => {
                let call = CallArgs {
                    arg0,
                    parts: &b.parts,
                    flags,
                    depth,
                };
                let v = f(self, frame, &call);
                push_result(line_start, &v, out);
            }
            Call::Template { title, msgnw: true } => self.msgnw(&title, out),
            Call::Template { title, .. }
                if self.cache.borrow().get(&title).is_some_and(Option::is_none) =>
            {
                // A template already found missing: remembered by the name.
                let mut link = String::new();
                missing(&title, &mut link);
                let missing = Rc::new(Missing { title, link });
                if let Some(m) = self.missing.get_mut(has_parts) {
                    m.insert((*title_ws).to_owned(), Rc::clone(&missing));
                }
                if self.admit(&missing.title, frame, out) {
                    out.push_str(&missing.link);
                }
            }
            Call::Template { title, .. } => {
                let start = out.len();
                self.transclude(title, b, frame, flags, depth, out);
                // (The error markup and missing-template links of the early
                // returns never start a line.)
                if needs_newline(line_start, out.get(start..).unwrap_or("")) {
                    out.insert(start, '\n');
                }
            }
            Call::Text => self.literal(b, &title_ws, frame, flags, depth, out),
        }
    }

    /// The call as text, its parts expanded: `{{title|a|b}}`.
    fn literal(
        &mut self,
        b: &Braced,
        title: &str,
        frame: &Frame<'_>,
        flags: Flags,
        depth: usize,
        out: &mut String,
    ) {
        out.push_str("{{");
        out.push_str(title);
        for p in &b.parts {
            out.push('|');
            self.expand_nodes(&p.nodes, frame, flags, depth, out);
        }
        out.push_str("}}");
    }

    fn transclude(
        &mut self,
        t: Title,
        b: &Braced,
        frame: &Frame<'_>,
        flags: Flags,
        depth: usize,
        out: &mut String,
    ) {
        if !self.admit(&t, frame, out) {
            return;
        }
        let max_size = self.pre.limits.max_expansion_size;
        let Some((t, parsed)) = self.load(t, out) else {
            return;
        };
        let mut child = Frame {
            parent: Some(frame),
            src: &parsed.src,
            title: Some(t.clone()),
            depth: frame.depth + 1,
            args: Default::default(),
            cache: Default::default(),
        };
        let strip = Flags {
            strip_comments: true,
        };
        let mut index = 1;
        for p in &b.parts {
            match p.name() {
                Some(name) => {
                    let name = self.expand_text(name, frame, strip, depth);
                    child.args.insert(
                        name.trim().to_owned(),
                        super::frame::ArgRef {
                            nodes: p.value(),
                            trim: true,
                        },
                    );
                }
                None => {
                    child.args.insert(
                        index.to_string(),
                        super::frame::ArgRef {
                            nodes: &p.nodes,
                            trim: false,
                        },
                    );
                    index += 1;
                }
            }
        }
        // Expanded in place (no intermediate string), checked afterwards.
        let start = out.len();
        self.expand_nodes(&parsed.tree.nodes, &child, flags, depth, out);
        self.size = self.size.saturating_add(out.len() - start);
        if self.size > max_size {
            out.truncate(start);
            omitted(&t, out);
            self.warnings.push(Warning::ExpansionTooLarge {
                title: t.prefixed(),
            });
        }
    }

    /// The checks before template `t` is loaded for a call in `frame`: a
    /// loop, the depth, the number of transclusions (counted here) and the
    /// expansion size; false, with the markup written, when it may not be.
    fn admit(&mut self, t: &Title, frame: &Frame<'_>, out: &mut String) -> bool {
        let limits = &self.pre.limits;
        let (max_depth, max_tr, max_size) = (
            limits.max_depth,
            limits.max_transclusions,
            limits.max_expansion_size,
        );
        if frame.is_expanding(t) {
            out.push_str(&format!(
                "<span class=\"error\">Template loop detected: [[{}]]</span>",
                t.prefixed()
            ));
            self.warnings.push(Warning::Loop {
                title: t.prefixed(),
            });
            return false;
        }
        if frame.depth >= max_depth {
            out.push_str(&format!(
                "<span class=\"error\">Template recursion depth limit exceeded ({max_depth})</span>"
            ));
            self.warnings.push(Warning::TooDeep {
                title: t.prefixed(),
            });
            return false;
        }
        self.transclusions += 1;
        if self.transclusions > max_tr {
            self.limit_hit(Warning::TooManyTransclusions, out, || {
                format!(
                    "<span class=\"error\">Template transclusion limit exceeded ({max_tr})</span>"
                )
            });
            return false;
        }
        if self.size >= max_size {
            omitted(t, out);
            self.warnings.push(Warning::ExpansionTooLarge {
                title: t.prefixed(),
            });
            return false;
        }
        true
    }

    /// `{{msgnw:T}}`: the template's source as it would be transcluded, not
    /// expanded, its wikitext escaped (`wfEscapeWikiText`).
    fn msgnw(&mut self, t: &Title, out: &mut String) {
        let Some((_, parsed)) = self.load(t.clone(), out) else {
            return;
        };
        let mut raw = String::new();
        for node in &parsed.tree.nodes {
            if !matches!(node, crate::preprocess::tree::Node::Ignore(_)) {
                raw.push_str(parsed.src.get(node.span()).unwrap_or(""));
            }
        }
        out.push_str(&functions::escape_wikitext(&raw));
    }

    /// `/Sub` and `../Sibling` relative to the page, if its namespace has
    /// subpages and there are enough levels.
    fn relative_title(&self, rel: &str) -> Option<Title> {
        let site = &self.pre.config.site;
        if !site.subpage_namespaces.contains(&self.page.ns()) {
            return None;
        }
        let mut base: Vec<&str> = self.page.text().split('/').collect();
        let mut rest = rel;
        let mut up = false;
        while let Some(r) = rest.strip_prefix("../") {
            base.pop()?;
            rest = r;
            up = true;
        }
        if base.is_empty() {
            return None;
        }
        let rest = rest.trim_end_matches('/');
        let text = if up {
            if rest.is_empty() {
                base.join("/")
            } else {
                format!("{}/{}", base.join("/"), rest)
            }
        } else {
            format!("{}{}", base.join("/"), rest)
        };
        let prefixed = if self.page.ns_name().is_empty() {
            text
        } else {
            format!("{}:{}", self.page.ns_name(), text)
        };
        Title::parse(&prefixed, NS_MAIN, site).ok()
    }

    /// The parsed source of `t`, following redirects; a missing page is written
    /// as a link to it.
    fn load(&mut self, mut t: Title, out: &mut String) -> Option<(Title, Rc<Parsed>)> {
        // The title asked for, once a redirect replaced it in `t` (no copy of
        // it on the common path).
        let mut first: Option<Title> = None;
        for _ in 0..=MAX_REDIRECTS {
            if let Some(cached) = self.cache.borrow().get(&t) {
                return match cached {
                    Some(p) => Some((t, Rc::clone(p))),
                    None => {
                        missing(first.as_ref().unwrap_or(&t), out);
                        None
                    }
                };
            }
            let src: Option<Arc<str>> = match self.pre.store().source(&t) {
                Ok(s) => s,
                Err(e) => {
                    self.warnings.push(Warning::Store {
                        title: t.prefixed(),
                        message: e.to_string(),
                    });
                    None
                }
            };
            let Some(src) = src else {
                let first = first.as_ref().unwrap_or(&t);
                self.warnings.push(Warning::Missing {
                    title: first.prefixed(),
                });
                missing(first, out);
                self.cache.borrow_mut().insert(t, None);
                return None;
            };
            if let Some(target) = redirect_target(&src)
                && let Ok(next) = Title::parse(target, NS_MAIN, &self.pre.config.site)
            {
                let asked = std::mem::replace(&mut t, next);
                first.get_or_insert(asked);
                continue;
            }
            if src.len() > self.pre.limits.max_input {
                out.push_str(&format!(
                    "<span class=\"error\">Template too large: [[{}]]</span>",
                    t.prefixed()
                ));
                self.warnings.push(Warning::TemplateTooLarge {
                    title: t.prefixed(),
                });
                return None;
            }
            let tree = parse_with(&src, self.pre.parse_options(Mode::Transclusion));
            let parsed = Rc::new(Parsed { src, tree });
            self.cache
                .borrow_mut()
                .insert(t.clone(), Some(Rc::clone(&parsed)));
            return Some((t, parsed));
        }
        missing(first.as_ref().unwrap_or(&t), out);
        None
    }
}

fn missing(t: &Title, out: &mut String) {
    out.push_str("[[:");
    t.push_prefixed(out);
    out.push_str("]]");
}

fn omitted(t: &Title, out: &mut String) {
    missing(t, out);
    out.push_str("<!-- WARNING: template omitted, post-expand include size too large -->");
}

/// MediaWiki (T2529): output that starts with `{|`, `:`, `;`, `#` or `*` starts a
/// new line unless the call itself started one.
fn push_result(line_start: bool, text: &str, out: &mut String) {
    if needs_newline(line_start, text) {
        out.push('\n');
    }
    out.push_str(text);
}

fn needs_newline(line_start: bool, text: &str) -> bool {
    !line_start && (text.starts_with("{|") || text.starts_with([':', ';', '#', '*']))
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// `#REDIRECT [[Target]]` at the start of a page: the target.
pub(crate) fn redirect_target(src: &str) -> Option<&str> {
    let s = src.trim_start();
    let s = strip_prefix_ci(s, "#redirect")?;
    let s = s.trim_start();
    let s = s.strip_prefix(':').unwrap_or(s).trim_start();
    let s = s.strip_prefix("[[")?;
    let end = s.find([']', '|'])?;
    Some(s[..end].trim())
}
