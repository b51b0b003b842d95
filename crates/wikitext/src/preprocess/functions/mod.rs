//! Parser functions (`{{#if:…}}`, `{{lc:…}}`) and magic words (`{{PAGENAME}}`).
//!
//! [`lookup`] maps a name (the text before the first `:`) to its function,
//! [`variable`] answers a magic word used without arguments. Names starting with
//! `#` and the lower-case functions are matched case-insensitively; the upper-case
//! words (`PAGENAME`, `CURRENTYEAR`, …) exactly, as in MediaWiki.
//!
//! | file | what |
//! |---|---|
//! | `cond.rs` | `#if`, `#ifeq`, `#iferror`, `#ifexist`, `#ifexpr`, `#switch` |
//! | `expr.rs` | `#expr`'s evaluator |
//! | `text.rs` | `lc`, `uc`, `lcfirst`, `ucfirst`, `padleft`, `padright`, `urlencode`, `anchorencode`, `formatnum`, `plural`, `#tag` |
//! | `titles.rs` | the `PAGENAME` family, `ns`, `fullurl`, `localurl`, site words |
//! | `time.rs` | date and time words, `#time` |
//! | `escape.rs` | entity decoding, `wfEscapeWikiText`, PHP's loose `==` |

mod cond;
mod escape;
pub(crate) mod expr;
mod text;
pub(crate) mod time;
mod titles;

pub(crate) use escape::escape_wikitext;

use super::expand::{Flags, Frame, PageExpander};
use super::tree::Part;

/// A parser function call: the text after `:` (expanded, trimmed) and the other
/// parts, not yet expanded.
pub(crate) struct CallArgs<'c> {
    pub(crate) arg0: &'c str,
    pub(crate) parts: &'c [Part],
    pub(crate) flags: Flags,
    pub(crate) depth: usize,
}

/// A parser function.
pub(crate) type Func = fn(&mut PageExpander<'_, '_>, &Frame<'_>, &CallArgs<'_>) -> String;

impl PageExpander<'_, '_> {
    /// Part `k` (0 = first part after the name), whole (`a=b` stays `a=b`),
    /// expanded and trimmed.
    pub(crate) fn arg(&mut self, f: &Frame<'_>, c: &CallArgs<'_>, k: usize) -> Option<String> {
        let p = c.parts.get(k)?;
        Some(
            self.expand_to_string(&p.nodes, f, c.flags, c.depth)
                .trim()
                .to_owned(),
        )
    }

    /// All parts after the name, expanded and trimmed.
    pub(crate) fn args(&mut self, f: &Frame<'_>, c: &CallArgs<'_>) -> Vec<String> {
        (0..c.parts.len())
            .filter_map(|k| self.arg(f, c, k))
            .collect()
    }
}

/// Whether `name` (the text before `:`) is a parser function.
pub(crate) fn is_function(name: &str) -> bool {
    lookup(name).is_some()
}

/// The parser function called `name` (as written before `:`; like MediaWiki,
/// `{{#if :…}}` with a blank before the colon is no call).
pub(crate) fn lookup(name: &str) -> Option<Func> {
    // Case-sensitive: the magic words that also take an argument.
    if let Some(f) = titles::lookup_word(name) {
        return Some(f);
    }
    let lower = name.to_lowercase();
    Some(match lower.as_str() {
        "#if" => cond::if_,
        "#ifeq" => cond::ifeq,
        "#iferror" => cond::iferror,
        "#ifexist" => cond::ifexist,
        "#ifexpr" => cond::ifexpr,
        "#switch" => cond::switch,
        "#expr" => cond::expr,
        "#tag" => text::tag,
        "#time" => time::time_fn,
        "#timel" => time::timel_fn,
        "#titleparts" => titles::titleparts,
        "lc" => text::lc,
        "uc" => text::uc,
        "lcfirst" => text::lcfirst,
        "ucfirst" => text::ucfirst,
        "padleft" => text::padleft,
        "padright" => text::padright,
        "urlencode" => text::urlencode,
        "anchorencode" => text::anchorencode,
        "formatnum" => text::formatnum,
        "plural" => text::plural,
        "#language" => text::first_arg_name,
        "int" => text::int_msg,
        "ns" => titles::ns,
        "nse" => titles::nse,
        "fullurl" => titles::fullurl,
        "fullurle" => titles::fullurle,
        "localurl" => titles::localurl,
        "localurle" => titles::localurle,
        "canonicalurl" => titles::fullurl,
        "defaultsort" | "defaultsortkey" | "defaultcategorysort" | "displaytitle" => text::nothing,
        "gender" => text::gender,
        "grammar" | "bidi" | "#bcp47" => text::first_arg_name,
        "#rel2abs" => titles::rel2abs,
        "#special" => titles::special,
        "#invoke" => text::invoke,
        "#formatdate" | "#dateformat" => time::formatdate,
        "#property" | "#statements" | "#coordinates" | "#related" => text::nothing,
        "pagesize" | "pagesincategory" | "pagesincat" | "numberingroup" | "numberofarticles"
        | "numberofpages" | "numberoffiles" | "numberofedits" | "numberofusers" => text::zero,
        "protectionlevel" | "protectionexpiry" | "cascadingsources" | "pendingchangelevel"
        | "revisionid" | "revisionuser" | "pageid" => text::nothing,
        _ => return None,
    })
}

/// The value of magic word `name` used without arguments.
pub(crate) fn variable(ex: &mut PageExpander<'_, '_>, name: &str) -> Option<String> {
    match name {
        "!" => return Some("|".into()),
        "=" => return Some("=".into()),
        _ => {}
    }
    if let Some(v) = time::variable(&ex.pre.config().clock, name) {
        return Some(v);
    }
    titles::variable(ex, name)
}
