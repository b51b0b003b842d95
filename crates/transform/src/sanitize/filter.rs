//! The sanitizer's token filter: see [`SanitizeFilter`].

use std::borrow::Cow;
use std::sync::Arc;

use tagloom_html::dom_patch::Namespace;
use tagloom_html::serializer::serializes_as_void;
use tagloom_html::text_type::TagEffect;
use tagloom_html::token::{Name, OwnedAttribute, OwnedTag, OwnedToken, Tag, Token};

use super::attrs::{clean_attribute, name_may_stay};
use super::policy::{Disposition, Policy};
use super::rules::Rules;

/// Elements that never have content, whatever their disposition: those that
/// serialize as void, and `image` (which the tree builder turns into `img`).
fn is_void(name: &str) -> bool {
    name == "image" || serializes_as_void(Namespace::Html, name)
}

/// Where a dropped element's content ends.
#[derive(Clone, Debug)]
enum Dropping {
    /// At the tag that closes simulated stack index `.0` (`.1` is its name).
    Level(usize, String),
    /// At the end tag balancing `.1` open start tags named `.0`.
    Count(String, usize),
}

/// What becomes of a token met while dropping.
enum After {
    /// Still inside the dropped element: the token goes too.
    Dropping(Dropping),
    /// The token is the dropped element's own end tag: it goes, dropping ends.
    Swallow,
    /// The token closed the dropped element (an ancestor's end tag, a tag that
    /// implies its end, end of input): dropping ends, the token is filtered.
    Pass,
}

fn still_dropping(dropping: Dropping, token: &OwnedToken, effect: Option<TagEffect>) -> After {
    match dropping {
        Dropping::Level(level, name) => match (token, effect) {
            (OwnedToken::EndTag(t), Some(e)) if e.kept <= level => {
                if t.name().as_str() == name {
                    After::Swallow
                } else {
                    After::Pass
                }
            }
            (OwnedToken::StartTag(_), Some(e)) if e.kept <= level => After::Pass,
            (OwnedToken::Eof, _) => After::Pass,
            _ => After::Dropping(Dropping::Level(level, name)),
        },
        Dropping::Count(name, open) => match token {
            OwnedToken::StartTag(t) if t.name().as_str() == name && !t.self_closing() => {
                After::Dropping(Dropping::Count(name, open + 1))
            }
            OwnedToken::EndTag(t) if t.name().as_str() == name => {
                if open <= 1 {
                    After::Swallow
                } else {
                    After::Dropping(Dropping::Count(name, open - 1))
                }
            }
            OwnedToken::Eof => After::Pass,
            _ => After::Dropping(Dropping::Count(name, open)),
        },
    }
}

/// The sanitizer's token filter.
///
/// The token-level half of the sanitizer: a filter over [`OwnedToken`]s, made to run
/// as the last handler set of the pipeline's phase 3, before the tree builder.
///
/// It removes what is disallowed in every namespace (comments, DOCTYPEs,
/// processing instructions, tags no allow-list names, attributes no allow-list
/// names, bad URLs and styles; `rel` on `a`/`area` stays when the policy sets
/// [`Policy::link_rel`], since the tree pass rewrites it) and drops the content of
/// elements whose disposition is [`Disposition::Drop`]. It does not know namespaces, so what it
/// keeps is only a candidate: the tree pass decides.
///
/// "Content" is measured with the text-type simulator's [`TagEffect`] when the
/// caller has one ([`SanitizeFilter::filter_with`], what [`sanitize`](super::sanitize)
/// does): the dropped element ends when the simulated stack closes it, explicitly
/// or not. Without one ([`SanitizeFilter::filter`]), it ends at the end tag that
/// balances its start tags of the same name — or at the end of input, which can
/// only drop more.
///
/// ```
/// use std::sync::Arc;
/// use tagloom_html::token::OwnedToken;
/// use tagloom_transform::sanitize::{Policy, SanitizeFilter};
///
/// let mut filter = SanitizeFilter::new(Arc::new(Policy::default()));
/// let mut out = Vec::new();
/// for t in [OwnedToken::start("script"), OwnedToken::text("alert(1)"), OwnedToken::end("script"), OwnedToken::text("ok")] {
///     filter.filter(t, &mut out);
/// }
/// assert_eq!(out, [OwnedToken::text("ok")]);
/// ```
#[derive(Clone, Debug)]
pub struct SanitizeFilter {
    policy: Arc<Rules>,
    dropping: Option<Dropping>,
}

impl SanitizeFilter {
    /// A filter for `policy`.
    pub fn new(policy: Arc<Policy>) -> SanitizeFilter {
        SanitizeFilter::with_rules(Arc::new(Rules::new(policy)))
    }

    /// A filter for compiled rules (a sanitizer's own).
    pub(crate) fn with_rules(policy: Arc<Rules>) -> SanitizeFilter {
        SanitizeFilter {
            policy,
            dropping: None,
        }
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        self.policy.policy()
    }

    /// Filters one token into `out` (zero or more tokens), measuring dropped
    /// content by tag names.
    pub fn filter(&mut self, token: OwnedToken, out: &mut Vec<OwnedToken>) {
        self.filter_with(token, None, out);
    }

    /// Filters one token into `out`, given what the token did to the text-type
    /// simulator's stack (`None` for text, comments, or when there is no
    /// simulator).
    pub fn filter_with(
        &mut self,
        token: OwnedToken,
        effect: Option<TagEffect>,
        out: &mut Vec<OwnedToken>,
    ) {
        if let Some(dropping) = self.dropping.take() {
            match still_dropping(dropping, &token, effect) {
                After::Dropping(d) => {
                    self.dropping = Some(d);
                    return;
                }
                After::Swallow => return,
                After::Pass => {}
            }
        }
        match token {
            OwnedToken::Doctype(_) | OwnedToken::ProcessingInstruction(_) => {}
            OwnedToken::Comment(_) => {
                if self.policy.allow_comments {
                    out.push(token);
                }
            }
            OwnedToken::Characters(_) | OwnedToken::Eof => out.push(token),
            OwnedToken::StartTag(tag) => self.start_tag(tag, effect, out),
            OwnedToken::EndTag(tag) => {
                let name = tag.name().as_str();
                if self.policy.may_keep_tag(name) {
                    out.push(OwnedToken::EndTag(tag));
                } else if self.policy.disposition(name) == Disposition::Escape {
                    out.push(OwnedToken::text(format!("</{name}>")));
                }
            }
        }
    }

    fn start_tag(
        &mut self,
        mut tag: OwnedTag,
        effect: Option<TagEffect>,
        out: &mut Vec<OwnedToken>,
    ) {
        if self.policy.may_keep_tag(tag.name().as_str()) {
            let policy = &self.policy;
            let name = tag.name().as_str();
            let mut changed = Vec::new();
            let mut dropped = false;
            for a in tag.attrs() {
                match clean_attribute(policy, None, name, a.name.as_str(), &a.value) {
                    Some(Cow::Borrowed(_)) => {}
                    Some(Cow::Owned(v)) => changed.push((a.name.clone(), v)),
                    None => dropped = true,
                }
            }
            // Only a tag the policy changes is touched (and marked modified).
            if dropped {
                let name = tag.name().clone();
                tag.retain_attrs(|a| {
                    clean_attribute(policy, None, name.as_str(), a.name.as_str(), &a.value)
                        .is_some()
                });
            }
            for (n, v) in changed {
                tag.set_attr(n, v);
            }
            out.push(OwnedToken::StartTag(tag));
            return;
        }
        let name = tag.name().as_str().to_owned();
        match self.policy.disposition(&name) {
            Disposition::Unwrap => {}
            Disposition::Escape => {
                let mut text = format!("<{name}");
                for a in tag.attrs() {
                    text.push(' ');
                    text.push_str(a.name.as_str());
                    if a.has_value {
                        text.push_str("=\"");
                        text.push_str(&a.value.replace('"', "&quot;"));
                        text.push('"');
                    }
                }
                text.push_str(if tag.self_closing() { "/>" } else { ">" });
                out.push(OwnedToken::text(text));
            }
            Disposition::Drop => {
                if is_void(&name) {
                    return;
                }
                self.dropping = match effect {
                    Some(e) => match (e.opened_at, e.switch) {
                        (Some(level), _) => Some(Dropping::Level(level, name)),
                        // Not opened (past the depth limit) but its text follows:
                        // the tokenizer ends it at its own end tag.
                        (None, Some(_)) => Some(Dropping::Count(name, 1)),
                        (None, None) => None,
                    },
                    // A self-closing foreign root (`<svg/>`) has no content; for an
                    // HTML element the flag is ignored, so count it as open.
                    None if tag.self_closing() && matches!(name.as_str(), "svg" | "math") => None,
                    None => Some(Dropping::Count(name, 1)),
                };
            }
        }
    }
}

/// The owned copy of `token` for [`SanitizeFilter::filter_with`], without what
/// the filter never reads: a start tag it may keep comes without the
/// attributes whose name alone makes it drop them, one it drops or unwraps
/// without any (an escaped one keeps them all). The filter's output is the
/// same as for `token.to_owned()`; only the copying is saved.
pub(crate) fn owned_for_filter(policy: &Rules, token: Token<'_>) -> OwnedToken {
    let Token::StartTag(tag) = token else {
        return token.to_owned();
    };
    let name = tag.name_str();
    let keep_attr: &dyn Fn(&str) -> bool = if policy.may_keep_tag(name) {
        &|attr| name_may_stay(policy, name, attr)
    } else if policy.disposition(name) == Disposition::Escape {
        return token.to_owned();
    } else {
        &|_| false
    };
    OwnedToken::StartTag(start_tag(&tag, keep_attr))
}

fn start_tag(tag: &Tag<'_>, keep_attr: &dyn Fn(&str) -> bool) -> OwnedTag {
    let atoms = tag.atoms();
    let mut owned = OwnedTag::new(Name::from_atom(tag.name, atoms));
    owned.set_self_closing(tag.self_closing);
    let attrs = owned.attrs_mut();
    for a in tag.attrs.iter() {
        let name = atoms.name(a.name);
        if keep_attr(name) {
            attrs.push(OwnedAttribute::new(Name::from_atom(a.name, atoms), a.value));
        }
    }
    owned
}

/// Whether [`SanitizeFilter`] passes `token` on exactly as it is, outside dropped
/// content: the borrowed twin of [`SanitizeFilter::filter_with`]'s decisions
/// (same policy calls), for the output check, which reads borrowed tokens. A
/// unit test holds the two to the same answers.
pub(crate) fn keeps_unchanged(policy: &Rules, token: &Token<'_>) -> bool {
    match token {
        Token::Doctype(_) | Token::ProcessingInstruction(_) => false,
        Token::Comment(_) => policy.allow_comments,
        Token::Characters(_) | Token::Eof => true,
        Token::EndTag(tag) => policy.may_keep_tag(tag.name_str()),
        Token::StartTag(tag) => keeps_tag_unchanged(
            policy,
            tag.name_str(),
            tag.attrs
                .iter()
                .map(|a| (tag.atoms().name(a.name), a.value)),
        ),
    }
}

/// [`keeps_unchanged`] for a start tag given by its name and its attributes'
/// names and values.
pub(crate) fn keeps_tag_unchanged<'a>(
    policy: &Rules,
    name: &str,
    mut attrs: impl Iterator<Item = (&'a str, &'a str)>,
) -> bool {
    policy.may_keep_tag(name)
        && attrs.all(|(attr, value)| {
            matches!(
                clean_attribute(policy, None, name, attr, value),
                Some(Cow::Borrowed(_))
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

    /// `keeps_unchanged` and the filter agree token by token.
    #[test]
    fn keeps_unchanged_agrees_with_the_filter() {
        let inputs = [
            "<p onclick=x title=t>a<!--c--><a href='javascript:x' rel=r>l</a></p>",
            "<!doctype html><div style='color:red' class=c><img src=x.png alt=a></div>",
            "<a href=https://e.org/>x</a><span style='background:url(x)'>y</span>",
            "<b id=i>b</b><foo>u</foo><svg><rect/></svg><table><td>t</table>",
        ];
        for policy in [Policy::default(), Policy::widened()] {
            let policy = Arc::new(policy);
            let rules = Rules::new(policy.clone());
            for input in inputs {
                let mut tok = Tokenizer::new(TokenizerConfig::default());
                tok.push_str(input);
                tok.finish();
                while let Ok(Some(token)) = tok.next_token() {
                    let keeps = keeps_unchanged(&rules, &token);
                    let owned = token.to_owned();
                    let mut filter = SanitizeFilter::new(policy.clone());
                    let mut out = Vec::new();
                    filter.filter(owned.clone(), &mut out);
                    let unchanged = out.len() == 1 && out[0] == owned && !out[0].is_modified();
                    assert_eq!(keeps, unchanged, "{input}: {owned:?} -> {out:?}");
                }
            }
        }
    }
}
