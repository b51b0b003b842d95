//! The sanitizer's token filter: see [`SanitizeFilter`].

use std::borrow::Cow;
use std::sync::Arc;

use tagloom_html::atom::{self, Atom};
use tagloom_html::dom_patch::Namespace;
use tagloom_html::serializer::serializes_as_void;
use tagloom_html::text_type::TagEffect;
use tagloom_html::token::{Name, OwnedAttribute, OwnedTag, OwnedToken, Tag, Token};

use super::attrs::{clean_attribute, clean_value_as, is_animation};
use super::memo::NameMemo;
use super::policy::{Disposition, Policy};
use super::rules::{Reach, Rules};
use super::tree::has_escape;

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

/// What [`still_dropping`] reads of a token.
enum Seen<'a> {
    Start(&'a str, bool),
    End(&'a str),
    Eof,
    Other,
}

impl<'a> Seen<'a> {
    fn owned(token: &'a OwnedToken) -> Seen<'a> {
        match token {
            OwnedToken::StartTag(t) => Seen::Start(t.name().as_str(), t.self_closing()),
            OwnedToken::EndTag(t) => Seen::End(t.name().as_str()),
            OwnedToken::Eof => Seen::Eof,
            _ => Seen::Other,
        }
    }

    fn borrowed(token: &Token<'a>) -> Seen<'a> {
        match token {
            Token::StartTag(t) => Seen::Start(t.name_str(), t.self_closing),
            Token::EndTag(t) => Seen::End(t.name_str()),
            Token::Eof => Seen::Eof,
            _ => Seen::Other,
        }
    }
}

fn still_dropping(dropping: Dropping, token: Seen<'_>, effect: Option<TagEffect>) -> After {
    match dropping {
        Dropping::Level(level, name) => match (token, effect) {
            (Seen::End(t), Some(e)) if e.kept <= level => {
                if t == name {
                    After::Swallow
                } else {
                    After::Pass
                }
            }
            (Seen::Start(..), Some(e)) if e.kept <= level => After::Pass,
            (Seen::Eof, _) => After::Pass,
            _ => After::Dropping(Dropping::Level(level, name)),
        },
        Dropping::Count(name, open) => match token {
            Seen::Start(t, self_closing) if t == name && !self_closing => {
                After::Dropping(Dropping::Count(name, open + 1))
            }
            Seen::End(t) if t == name => {
                if open <= 1 {
                    After::Swallow
                } else {
                    After::Dropping(Dropping::Count(name, open - 1))
                }
            }
            Seen::Eof => After::Pass,
            _ => After::Dropping(Dropping::Count(name, open)),
        },
    }
}

/// What [`SanitizeFilter::filter_token`] keeps from token to token of one
/// input (one tokenizer: the memo is keyed by its atoms): the buffers the
/// front end hands back once the tree builder has read the tokens made with
/// them, and the answers about names.
#[derive(Default)]
pub(crate) struct Spare {
    /// The last start tag passed on ([`Passed::Tag`]), an [`OwnedToken::StartTag`].
    pub(crate) tag: Option<OwnedToken>,
    /// Its name's and attributes' atoms, in the tokenizer's table (for
    /// [`OwnedToken::view`]).
    pub(crate) atoms: Vec<Atom>,
    pub(crate) names: NameMemo,
    /// Attribute slots of `tag` not in use (a tag with fewer attributes than
    /// the one before leaves them here, keeping their allocations).
    slots: Vec<OwnedAttribute>,
}

/// What [`SanitizeFilter::filter_token`] passed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Passed {
    /// The tokens in `out` (maybe none).
    Out,
    /// The token read, as it is.
    Token,
    /// The start tag in [`Spare::tag`]; `judged`: see
    /// [`SanitizeFilter::filter_token`].
    Tag { judged: bool },
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
            match still_dropping(dropping, Seen::owned(&token), effect) {
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
        let name = tag.name().as_str();
        match self.policy.disposition(name) {
            Disposition::Unwrap => {}
            Disposition::Escape => out.push(OwnedToken::text(escaped_tag(
                name,
                tag.attrs()
                    .iter()
                    .map(|a| (a.name.as_str(), a.has_value, a.value.as_str())),
                tag.self_closing(),
            ))),
            Disposition::Drop => self.drop_element(name, tag.self_closing(), effect),
        }
    }

    /// A start tag named `name` whose element the policy drops.
    fn drop_element(&mut self, name: &str, self_closing: bool, effect: Option<TagEffect>) {
        if is_void(name) {
            return;
        }
        let name = name.to_owned();
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
            None if self_closing && matches!(name.as_str(), "svg" | "math") => None,
            None => Some(Dropping::Count(name, 1)),
        };
    }

    /// Whether [`filter_token`](Self::filter_token) passes text on as it is
    /// now (no element's content is being dropped).
    #[inline]
    pub(crate) fn passes_text(&self) -> bool {
        self.dropping.is_none()
    }

    /// [`filter_with`](Self::filter_with) over the tokenizer's borrowed token,
    /// with the same output: text and kept end tags pass as they are; each
    /// attribute of a kept start tag is judged once as it is copied (none is
    /// copied only to be dropped) into `spare.tag`, a buffer the caller hands
    /// back. A start tag passed on is `judged` when the tree pass would keep
    /// every attribute of an HTML element with this name and these attributes
    /// as it is (each is allowed there by name, its value already passed the
    /// checks the tree pass repeats, no ESC), the element is no SVG animation
    /// and has no `rel` the policy rewrites — so the tree pass need not judge
    /// its attributes again (`tree::keep_element`'s `judged`).
    pub(crate) fn filter_token(
        &mut self,
        token: &Token<'_>,
        effect: Option<TagEffect>,
        out: &mut Vec<OwnedToken>,
        spare: &mut Spare,
    ) -> Passed {
        if let Some(dropping) = self.dropping.take() {
            match still_dropping(dropping, Seen::borrowed(token), effect) {
                After::Dropping(d) => {
                    self.dropping = Some(d);
                    return Passed::Out;
                }
                After::Swallow => return Passed::Out,
                After::Pass => {}
            }
        }
        match token {
            Token::Doctype(_) | Token::ProcessingInstruction(_) => {}
            Token::Comment(_) => {
                if self.policy.allow_comments {
                    out.push((*token).to_owned());
                }
            }
            Token::Characters(_) | Token::Eof => return Passed::Token,
            Token::EndTag(tag) => {
                let name = tag.name_str();
                if spare.names.may_keep_tag(&self.policy, tag.name, name) {
                    return Passed::Token;
                } else if self.policy.disposition(name) == Disposition::Escape {
                    out.push(OwnedToken::text(format!("</{name}>")));
                }
            }
            Token::StartTag(tag) => {
                let name = tag.name_str();
                if spare.names.may_keep_tag(&self.policy, tag.name, name) {
                    return match judge_tag(&self.policy, tag, spare) {
                        Some(judged) => Passed::Tag { judged },
                        None => Passed::Out,
                    };
                }
                match self.policy.disposition(name) {
                    Disposition::Unwrap => {}
                    Disposition::Escape => {
                        let atoms = tag.atoms();
                        out.push(OwnedToken::text(escaped_tag(
                            name,
                            tag.attrs
                                .iter()
                                .map(|a| (atoms.name(a.name), a.has_value, a.value)),
                            tag.self_closing,
                        )));
                    }
                    Disposition::Drop => self.drop_element(name, tag.self_closing, effect),
                }
            }
        }
        Passed::Out
    }
}

/// The text an escaped start tag becomes.
fn escaped_tag<'a>(
    name: &str,
    attrs: impl Iterator<Item = (&'a str, bool, &'a str)>,
    self_closing: bool,
) -> String {
    let mut text = format!("<{name}");
    for (attr, has_value, value) in attrs {
        text.push(' ');
        text.push_str(attr);
        if has_value {
            text.push_str("=\"");
            text.push_str(&value.replace('"', "&quot;"));
            text.push('"');
        }
    }
    text.push_str(if self_closing { "/>" } else { ">" });
    text
}

/// The filter's copy of a start tag it may keep, into `spare.tag` (reusing
/// its allocations) with its names' atoms in `spare.atoms`: the attributes it
/// keeps, each judged once. Returns whether the tag is judged (see
/// [`SanitizeFilter::filter_token`]); `None` only if `spare.tag` could not
/// hold a start tag (never).
fn judge_tag(policy: &Rules, tag: &Tag<'_>, spare: &mut Spare) -> Option<bool> {
    let atoms = tag.atoms();
    let name = tag.name_str();
    if !matches!(spare.tag, Some(OwnedToken::StartTag(_))) {
        spare.tag = Some(OwnedToken::StartTag(OwnedTag::new(atom::SPAN)));
    }
    let Some(OwnedToken::StartTag(owned)) = &mut spare.tag else {
        return None;
    };
    owned.set_name(Name::from_atom(tag.name, atoms));
    owned.set_self_closing(tag.self_closing);
    spare.atoms.clear();
    spare.atoms.push(tag.name);
    let link = policy.link_rel.is_some() && matches!(name, "a" | "area");
    let mut judged = !is_animation(name);
    let list = owned.attrs_mut();
    let slots = &mut spare.slots;
    let mut n = 0;
    for a in tag.attrs.iter() {
        let attr = atoms.name(a.name);
        let known = spare.names.attr(policy, tag.name, name, a.name, attr);
        let reach = known.reach;
        if reach == Reach::None {
            continue;
        }
        let value = match clean_value_as(policy, known.check, attr, a.value) {
            None => continue,
            Some(Cow::Borrowed(v)) => v,
            Some(Cow::Owned(v)) => {
                judged = false;
                set_slot(list, slots, n, Name::from_atom(a.name, atoms), &v);
                spare.atoms.push(a.name);
                n += 1;
                continue;
            }
        };
        judged = judged
            && reach == Reach::Html
            && attr != "attributename"
            && !(link && attr == "rel")
            && !has_escape(value);
        set_slot(list, slots, n, Name::from_atom(a.name, atoms), value);
        spare.atoms.push(a.name);
        n += 1;
    }
    if list.len() > n {
        slots.extend(list.drain(n..));
    }
    Some(judged)
}

/// Sets attribute `n` of `list`: an existing slot, reused, or one from
/// `slots` (reused), or a new one.
fn set_slot(
    list: &mut Vec<OwnedAttribute>,
    slots: &mut Vec<OwnedAttribute>,
    n: usize,
    name: Name,
    value: &str,
) {
    if list.len() <= n
        && let Some(slot) = slots.pop()
    {
        list.push(slot);
    }
    match list.get_mut(n) {
        Some(slot) => {
            slot.name = name;
            slot.value.clear();
            slot.value.push_str(value);
        }
        None => list.push(OwnedAttribute::new(name, value.to_owned())),
    }
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
#[path = "filter_tests.rs"]
mod tests;
