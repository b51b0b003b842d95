//! The chain with the stages' masks ([`Transform::wants`](super::Transform::wants))
//! against the chain that hands every token to every stage: the same tokens
//! out of the page's and a ref body's stages, and the same HTML out of the
//! whole render, over the parserTests' wikitext and random mixes of wikitext
//! syntax. A stage that left a class out of its mask while a token of it
//! would have changed its state shows here as a difference.

use std::rc::Rc;
use std::sync::Arc;

use proptest::prelude::*;
use tagloom_testdata::Shared;

use super::{Chain, UNMASKED};
use crate::RenderOptions;
use crate::render::{Context, Page, page_tokens, stages};
use crate::token::WikiToken;

/// `f` run with the chains made in it unmasked.
fn unmasked<R>(f: impl FnOnce() -> R) -> R {
    UNMASKED.set(true);
    let r = f();
    UNMASKED.set(false);
    r
}

/// `text`'s tokens through a fresh chain of `context`'s stages.
fn staged(text: &str, context: Context) -> Vec<WikiToken> {
    let page = Rc::new(Page::new(
        Arc::new(RenderOptions::default()),
        Arc::from(Vec::new()),
    ));
    let mut chain = Chain::new(stages(&page, context));
    let out = chain.run_all(page_tokens(text, &page));
    page.release_renderers();
    out
}

fn html(text: &str) -> String {
    crate::render(text, &RenderOptions::default()).unwrap_or_else(|e| format!("error: {e}"))
}

/// Both ways agree on `text`: the page's and a ref body's staged tokens,
/// and the page's HTML.
fn check(text: &str) -> Result<(), String> {
    for context in [Context::Page, Context::Inline { depth: 1 }] {
        let masked = staged(text, context);
        let all = unmasked(|| staged(text, context));
        if masked != all {
            return Err(format!("staged tokens differ for {text:?}"));
        }
    }
    let masked = html(text);
    let all = unmasked(|| html(text));
    if masked != all {
        return Err(format!("HTML differs for {text:?}:\n{masked}\n{all}"));
    }
    Ok(())
}

/// The `!! wikitext` sections of a parserTests file.
fn wikitext_sections(file: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in file.lines() {
        if let Some(keyword) = line.strip_prefix("!!") {
            if let Some(text) = current.take() {
                out.push(text);
            }
            if keyword.trim() == "wikitext" {
                current = Some(String::new());
            }
        } else if let Some(text) = current.as_mut() {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line);
        }
    }
    out.extend(current);
    out
}

#[test]
fn masks_change_nothing_on_parser_tests() {
    let files = Shared::ParserTests.files("masks_change_nothing_on_parser_tests", &["txt"]);
    let mut inputs = 0;
    for path in files {
        let Ok(file) = std::fs::read_to_string(&path) else {
            continue;
        };
        for text in wikitext_sections(&file) {
            if let Err(e) = check(&text) {
                panic!("{}: {e}", path.display());
            }
            inputs += 1;
        }
    }
    eprintln!("{inputs} parserTests inputs: masked and unmasked chains agree");
}

#[test]
fn masks_change_nothing_on_samples() {
    for text in [
        "plain text\n\nanother paragraph",
        "a ''b [[x|c '''d]] e'' f\n''g'''h",
        "x [[a]] ''y'' <b>z</b> '''w\n* [[l]] <i>i\n** j</i>\n:{|\n|a || ''b'' || c\n|}\nafter",
        " pre ''q'' [[a]]\n  more\n\ntext",
        "== H ''i'' [[a]] ==\ntext <ref>body [[b]] ''c''</ref>\n<references/>",
        "<div>''a''</div>\n;t:d\n#n\n<!-- c -->\n__TOC__\n[[Category:X]]",
        "{|\n! h !! ''g''\n|-\n| c <b>d</b>\n|}\n* '''l''' [[x]]<ref name=r/>",
        "<a href=x>y</a> </b> </i> '' x ''' y ''''' z ''''''",
    ] {
        if let Err(e) = check(text) {
            panic!("{e}");
        }
    }
}

/// Pieces of wikitext syntax, mixed at random.
const PIECES: &[&str] = &[
    "text",
    " ",
    "\n",
    "\n\n",
    "''",
    "'''",
    "'''''",
    "* ",
    "# ",
    ": ",
    "; ",
    " pre",
    "{|\n",
    "|-\n",
    "| ",
    "||",
    "! ",
    "!!",
    "|}\n",
    "[[a|b]]",
    "[[c]]",
    "[x y]",
    "<ref>r</ref>",
    "<ref name=n/>",
    "<references/>",
    "== h ==",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a>",
    "</a>",
    "<!-- c -->",
    "{{t}}",
    "<div>",
    "</div>",
    "<pre>p</pre>",
    "__TOC__",
    "[[Category:X]]",
    "<h2>",
    "</h2>",
    "<td>",
    "</table>",
    "x y",
    "a ",
    "<span>",
    "</span>",
    "<blockquote>",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn masks_change_nothing_on_mixes(picks in proptest::collection::vec(0..PIECES.len(), 0..40)) {
        let text: String = picks.iter().filter_map(|&i| PIECES.get(i).copied()).collect();
        prop_assert_eq!(check(&text), Ok(()));
    }
}
