//! Page-name magic words (`PAGENAME`, `FULLPAGENAME`, … and their `E` forms),
//! namespaces (`ns`, `nse`), URLs (`fullurl`, `localurl`), site words, and
//! `#titleparts`.
//!
//! The words describe the page being rendered (not the template they are
//! written in), or the title given after `:` (`{{PAGENAME:Help:A/b}}`). Plain
//! forms are escaped like MediaWiki's `wfEscapeWikiText` (`'` as `&#39;`), `E`
//! forms URL-encoded.

use super::escape::escape_wikitext;
use super::text::wiki_urlencode;
use super::{CallArgs, Frame, Func, PageExpander};
use crate::preprocess::config::Site;
use crate::preprocess::title::{NS_MAIN, Title, namespace_id, namespace_name};

type Ex<'x, 'p, 's> = &'x mut PageExpander<'p, 's>;

/// Page-name words: the part of a title each one shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    FullPageName,
    PageName,
    BasePageName,
    RootPageName,
    SubPageName,
    Namespace,
    NamespaceNumber,
    TalkSpace,
    SubjectSpace,
    TalkPageName,
    SubjectPageName,
}

fn word(name: &str) -> Option<(Word, bool)> {
    const WORDS: &[(&str, Word)] = &[
        ("FULLPAGENAME", Word::FullPageName),
        ("PAGENAME", Word::PageName),
        ("BASEPAGENAME", Word::BasePageName),
        ("ROOTPAGENAME", Word::RootPageName),
        ("SUBPAGENAME", Word::SubPageName),
        ("NAMESPACE", Word::Namespace),
        ("NAMESPACENUMBER", Word::NamespaceNumber),
        ("TALKSPACE", Word::TalkSpace),
        ("SUBJECTSPACE", Word::SubjectSpace),
        ("ARTICLESPACE", Word::SubjectSpace),
        ("TALKPAGENAME", Word::TalkPageName),
        ("SUBJECTPAGENAME", Word::SubjectPageName),
        ("ARTICLEPAGENAME", Word::SubjectPageName),
    ];
    WORDS.iter().find_map(|&(n, w)| {
        if name == n {
            Some((w, false))
        } else if name.strip_suffix('E') == Some(n) && w != Word::NamespaceNumber {
            Some((w, true))
        } else {
            None
        }
    })
}

fn show(w: Word, encoded: bool, t: &Title, site: &Site) -> String {
    let subpages = site.subpage_namespaces.contains(&t.ns());
    let text = t.text();
    let text_part = |s: &str| {
        if encoded {
            wiki_urlencode(&s.replace(' ', "_"))
        } else {
            escape_wikitext(s)
        }
    };
    match w {
        Word::FullPageName => text_part(&t.prefixed()),
        Word::PageName => text_part(text),
        Word::BasePageName => text_part(match text.rfind('/') {
            Some(k) if subpages => &text[..k],
            _ => text,
        }),
        Word::RootPageName => text_part(match text.find('/') {
            Some(k) if subpages => &text[..k],
            _ => text,
        }),
        Word::SubPageName => text_part(match text.rfind('/') {
            Some(k) if subpages => &text[k + 1..],
            _ => text,
        }),
        Word::Namespace => text_part(t.ns_name()),
        Word::NamespaceNumber => t.ns().to_string(),
        Word::TalkSpace => t
            .talk(site)
            .map(|x| text_part(x.ns_name()))
            .unwrap_or_default(),
        Word::SubjectSpace => text_part(t.subject(site).ns_name()),
        Word::TalkPageName => t
            .talk(site)
            .map(|x| text_part(&x.prefixed()))
            .unwrap_or_default(),
        Word::SubjectPageName => text_part(&t.subject(site).prefixed()),
    }
}

macro_rules! word_fns {
    ($($f:ident = $name:literal),* $(,)?) => {
        $(fn $f(ex: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
            with_arg(ex, $name, c.arg0)
        })*
        /// The page-name word `name` used with a title after `:` (case-sensitive).
        pub(crate) fn lookup_word(name: &str) -> Option<Func> {
            Some(match name {
                $($name => $f as Func,)*
                _ => return None,
            })
        }
    };
}

word_fns!(
    w_fullpagename = "FULLPAGENAME",
    w_fullpagenamee = "FULLPAGENAMEE",
    w_pagename = "PAGENAME",
    w_pagenamee = "PAGENAMEE",
    w_basepagename = "BASEPAGENAME",
    w_basepagenamee = "BASEPAGENAMEE",
    w_rootpagename = "ROOTPAGENAME",
    w_rootpagenamee = "ROOTPAGENAMEE",
    w_subpagename = "SUBPAGENAME",
    w_subpagenamee = "SUBPAGENAMEE",
    w_namespace = "NAMESPACE",
    w_namespacee = "NAMESPACEE",
    w_namespacenumber = "NAMESPACENUMBER",
    w_talkspace = "TALKSPACE",
    w_talkspacee = "TALKSPACEE",
    w_subjectspace = "SUBJECTSPACE",
    w_subjectspacee = "SUBJECTSPACEE",
    w_articlespace = "ARTICLESPACE",
    w_articlespacee = "ARTICLESPACEE",
    w_talkpagename = "TALKPAGENAME",
    w_talkpagenamee = "TALKPAGENAMEE",
    w_subjectpagename = "SUBJECTPAGENAME",
    w_subjectpagenamee = "SUBJECTPAGENAMEE",
    w_articlepagename = "ARTICLEPAGENAME",
    w_articlepagenamee = "ARTICLEPAGENAMEE",
);

fn with_arg(ex: Ex<'_, '_, '_>, name: &str, arg: &str) -> String {
    let site = &ex.pre.config().site;
    match (word(name), Title::parse(arg, NS_MAIN, site)) {
        (Some((w, e)), Ok(t)) => show(w, e, &t, site),
        _ => String::new(),
    }
}

/// Page-name and site words without arguments.
pub(crate) fn variable(ex: Ex<'_, '_, '_>, name: &str) -> Option<String> {
    let site = &ex.pre.config().site;
    if let Some((w, e)) = word(name) {
        return Some(show(w, e, &ex.page, site));
    }
    // MediaWiki's case-insensitive variables.
    let upper = name.to_ascii_uppercase();
    let name = if matches!(
        upper.as_str(),
        "SERVER" | "SERVERNAME" | "SCRIPTPATH" | "STYLEPATH"
    ) {
        upper.as_str()
    } else {
        name
    };
    Some(match name {
        "SITENAME" => site.name.clone(),
        "SERVER" => site.server.clone(),
        "SERVERNAME" => site
            .server
            .split("//")
            .nth(1)
            .unwrap_or(&site.server)
            .split(['/', ':'])
            .next()
            .unwrap_or("")
            .to_owned(),
        "SCRIPTPATH" => site
            .script
            .rsplit_once('/')
            .map(|(d, _)| d.to_owned())
            .unwrap_or_default(),
        "CONTENTLANGUAGE" | "CONTENTLANG" => site.language.clone(),
        "DIRMARK" | "DIRECTIONMARK" => "\u{200e}".into(),
        "PAGELANGUAGE" => site.language.clone(),
        "STYLEPATH" => format!(
            "{}/skins",
            site.script.rsplit_once('/').map_or("", |(d, _)| d)
        ),
        // Facts about the wiki and the revision that a renderer does not know:
        // MediaWiki's values for an empty wiki and an unsaved page.
        "NUMBEROFARTICLES"
        | "NUMBEROFPAGES"
        | "NUMBEROFFILES"
        | "NUMBEROFEDITS"
        | "NUMBEROFUSERS"
        | "NUMBEROFADMINS"
        | "NUMBEROFACTIVEUSERS"
        | "PAGESIZE" => "0".into(),
        "REVISIONID" => ex
            .pre
            .config()
            .revision_id
            .map(|id| id.to_string())
            .unwrap_or_default(),
        "REVISIONUSER" | "PAGEID" | "REVISIONSIZE" => String::new(),
        _ => return None,
    })
}

/// `{{ns:10}}`, `{{ns:template}}`: a namespace's name.
pub(crate) fn ns(ex: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    ns_name(ex, c.arg0).unwrap_or_default()
}

/// `{{nse:…}}`: the name with underscores, URL-encoded.
pub(crate) fn nse(ex: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    ns_name(ex, c.arg0)
        .map(|n| wiki_urlencode(&n.replace(' ', "_")))
        .unwrap_or_default()
}

fn ns_name(ex: Ex<'_, '_, '_>, arg: &str) -> Option<String> {
    let site = &ex.pre.config().site;
    let id = match arg.trim().parse::<i32>() {
        Ok(id) => id,
        Err(_) => namespace_id(arg, site)?,
    };
    namespace_name(id, site)
}

fn local_url(site: &Site, t: &Title, query: &str) -> String {
    let key = wiki_urlencode(&t.db_key());
    if query.is_empty() {
        site.article_path.replace("$1", &key)
    } else {
        format!("{}?title={key}&{query}", site.script)
    }
}

fn url(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>, full: bool) -> String {
    let query = ex.arg(f, c, 0).unwrap_or_default();
    let site = &ex.pre.config().site;
    match Title::parse(c.arg0, NS_MAIN, site) {
        Ok(t) => {
            let local = local_url(site, &t, &query);
            if full {
                format!("{}{local}", site.server)
            } else {
                local
            }
        }
        Err(_) => String::new(),
    }
}

/// `{{fullurl:Title|query}}`.
pub(crate) fn fullurl(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    url(ex, f, c, true)
}

/// `{{fullurle:…}}`: as `fullurl`, `&` escaped.
pub(crate) fn fullurle(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    url(ex, f, c, true).replace('&', "&amp;")
}

/// `{{localurl:Title|query}}`.
pub(crate) fn localurl(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    url(ex, f, c, false)
}

/// `{{localurle:…}}`.
pub(crate) fn localurle(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    url(ex, f, c, false).replace('&', "&amp;")
}

/// `{{#rel2abs: path | base }}`: a relative path (`./x`, `../x`, `/x`) made
/// absolute against `base` (default: the page).
pub(crate) fn rel2abs(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let base = ex
        .arg(f, c, 0)
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| ex.page.prefixed());
    let to = c.arg0;
    let path = if to.is_empty()
        || to.starts_with('/')
        || to.starts_with("./")
        || to.starts_with("../")
        || to == "."
        || to == ".."
    {
        format!("{base}/{to}")
    } else {
        to.to_owned()
    };
    let mut out: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if out.pop().is_none() {
                    return "<strong class=\"error\">Error: Invalid depth in path: \"".to_owned()
                        + &super::text::html_escape(&path)
                        + "\" (tried to access a node above the root node).</strong>";
                }
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

/// `{{#special:Name}}`: the special page's title (aliases are not resolved).
pub(crate) fn special(ex: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let site = &ex.pre.config().site;
    let name = crate::preprocess::title::ucfirst(c.arg0.trim());
    format!("{}:{name}", namespace_name(-1, site).unwrap_or_default())
}

/// `{{#titleparts: title | count | first }}`: `count` `/`-separated segments
/// (0 all, negative: all but that many at the end) from segment `first`
/// (1-based, negative from the end).
pub(crate) fn titleparts(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let count = super::text::php_int_prefix(&ex.arg(f, c, 0).unwrap_or_default());
    let first = super::text::php_int_prefix(&ex.arg(f, c, 1).unwrap_or_default());
    let site = &ex.pre.config().site;
    let Ok(t) = Title::parse(c.arg0, NS_MAIN, site) else {
        return c.arg0.to_owned();
    };
    let full = t.prefixed();
    let segs: Vec<&str> = full.split('/').collect();
    let n = segs.len() as i64;
    let start = if first > 0 {
        first - 1
    } else if first < 0 {
        (n + first).max(0)
    } else {
        0
    };
    let start = start.min(n);
    let rest = &segs[start as usize..];
    let len = rest.len() as i64;
    let take = if count > 0 {
        count.min(len)
    } else if count < 0 {
        (len + count).max(0)
    } else {
        len
    };
    rest[..take as usize].join("/")
}
