//! `{{…}}`: magic words, parser functions and templates (MediaWiki's
//! `Parser::braceSubstitution`).

use std::rc::Rc;
use std::sync::Arc;

use super::{Flags, Frame, PageExpander, Parsed, Warning};
use crate::preprocess::functions::{self, CallArgs};
use crate::preprocess::parse::{Mode, parse_with};
use crate::preprocess::title::{NS_MAIN, NS_TEMPLATE, Title};
use crate::preprocess::tree::Braced;

/// Redirects followed when loading a template (MediaWiki follows two).
const MAX_REDIRECTS: usize = 2;

impl PageExpander<'_, '_> {
    pub(crate) fn template(
        &mut self,
        b: &Braced,
        frame: &Frame<'_>,
        flags: Flags,
        depth: usize,
        out: &mut String,
    ) {
        let strip = Flags {
            strip_comments: true,
        };
        let title_ws = self.expand_to_string(&b.title.nodes, frame, strip, depth);
        let mut part1 = title_ws.trim();
        // Modifiers: `subst:` only means something when saving, so the call stays
        // as written; `safesubst:`, `msg:`, `msgnw:` and `raw:` are dropped.
        if strip_prefix_ci(part1, "subst:").is_some() {
            self.literal(b, &title_ws, frame, flags, depth, out);
            return;
        }
        for m in ["safesubst:", "msgnw:", "msg:", "raw:"] {
            if let Some(rest) = strip_prefix_ci(part1, m) {
                part1 = rest.trim_start();
            }
        }
        if b.parts.is_empty()
            && let Some(v) = functions::variable(self, part1)
        {
            push_result(b, &v, out);
            return;
        }
        if let Some(colon) = part1.find(':')
            && let Some(f) = functions::lookup(&part1[..colon])
        {
            let call = CallArgs {
                arg0: part1[colon + 1..].trim(),
                parts: &b.parts,
                flags,
                depth,
            };
            let v = f(self, frame, &call);
            push_result(b, &v, out);
            return;
        }
        match Title::parse(part1, NS_TEMPLATE, &self.pre.config.site) {
            Ok(t) if t.ns() >= 0 => self.transclude(t, b, frame, flags, depth, out),
            _ => self.literal(b, &title_ws, frame, flags, depth, out),
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
        let limits = &self.pre.config.limits;
        let (max_depth, max_tr, max_size) = (
            limits.max_depth,
            limits.max_transclusions,
            limits.max_expansion_size,
        );
        if frame.is_expanding(&t) {
            out.push_str(&format!(
                "<span class=\"error\">Template loop detected: [[{}]]</span>",
                t.prefixed()
            ));
            self.warnings.push(Warning::Loop {
                title: t.prefixed(),
            });
            return;
        }
        if frame.depth >= max_depth {
            out.push_str(&format!(
                "<span class=\"error\">Template recursion depth limit exceeded ({max_depth})</span>"
            ));
            self.warnings.push(Warning::TooDeep {
                title: t.prefixed(),
            });
            return;
        }
        self.transclusions += 1;
        if self.transclusions > max_tr {
            self.limit_hit(Warning::TooManyTransclusions, out, || {
                format!(
                    "<span class=\"error\">Template transclusion limit exceeded ({max_tr})</span>"
                )
            });
            return;
        }
        if self.size >= max_size {
            omitted(&t, out);
            self.warnings.push(Warning::ExpansionTooLarge {
                title: t.prefixed(),
            });
            return;
        }
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
                    let name = self.expand_to_string(name, frame, strip, depth);
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
        let text = self.expand_to_string(&parsed.tree.nodes, &child, flags, depth);
        self.size = self.size.saturating_add(text.len());
        if self.size > max_size {
            omitted(&t, out);
            self.warnings.push(Warning::ExpansionTooLarge {
                title: t.prefixed(),
            });
            return;
        }
        push_result(b, &text, out);
    }

    /// The parsed source of `t`, following redirects; a missing page is written
    /// as a link to it.
    fn load(&mut self, mut t: Title, out: &mut String) -> Option<(Title, Rc<Parsed>)> {
        let first = t.clone();
        for _ in 0..=MAX_REDIRECTS {
            if let Some(cached) = self.cache.borrow().get(&t) {
                return match cached {
                    Some(p) => Some((t, Rc::clone(p))),
                    None => {
                        missing(&first, out);
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
                self.cache.borrow_mut().insert(t.clone(), None);
                self.warnings.push(Warning::Missing {
                    title: first.prefixed(),
                });
                missing(&first, out);
                return None;
            };
            if let Some(target) = redirect_target(&src)
                && let Ok(next) = Title::parse(target, NS_MAIN, &self.pre.config.site)
            {
                t = next;
                continue;
            }
            if src.len() > self.pre.config.limits.max_input {
                out.push_str(&format!(
                    "<span class=\"error\">Template too large: [[{}]]</span>",
                    t.prefixed()
                ));
                self.warnings.push(Warning::TemplateTooLarge {
                    title: t.prefixed(),
                });
                return None;
            }
            let tree = parse_with(&src, &self.pre.parse_options(Mode::Transclusion));
            let parsed = Rc::new(Parsed { src, tree });
            self.cache
                .borrow_mut()
                .insert(t.clone(), Some(Rc::clone(&parsed)));
            return Some((t, parsed));
        }
        missing(&first, out);
        None
    }
}

fn missing(t: &Title, out: &mut String) {
    out.push_str("[[:");
    out.push_str(&t.prefixed());
    out.push_str("]]");
}

fn omitted(t: &Title, out: &mut String) {
    missing(t, out);
    out.push_str("<!-- WARNING: template omitted, post-expand include size too large -->");
}

/// MediaWiki (T2529): output that starts with `{|`, `:`, `;`, `#` or `*` starts a
/// new line unless the call itself started one.
fn push_result(b: &Braced, text: &str, out: &mut String) {
    if !b.line_start && (text.starts_with("{|") || text.starts_with([':', ';', '#', '*'])) {
        out.push('\n');
    }
    out.push_str(text);
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
