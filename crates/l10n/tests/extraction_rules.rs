//! Issue 10, acceptance 3 and 4: no junk units (no letter, `og:url`…, conditional
//! comments as notes), `notranslate` and `code`/`kbd`/`samp`/`var` protected,
//! `lang` retargeted only where it should be, `dir` for right-to-left targets.
//!
//! The corpus tests read the l10n samples (`../shared/l10n-samples`, else the
//! copy in `tests/data/l10n-samples`) and the bench pages (`../shared/bench-corpus`)
//! at test time and say so when a corpus is absent (see `tagloom-testdata`).

mod support;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::dom_patch::Namespace;
use tagloom_l10n::flow::{self, Common, ExtractOptions, MergeOptions, PseudoOptions};
use tagloom_l10n::reader::{self, ReadOptions};
use tagloom_l10n::{Block, Rules, Run};
use tagloom_testdata::Shared;

fn units(bytes: &[u8], rules: &Rules) -> Vec<Block> {
    reader::units(bytes, Path::new("t.html"), &ReadOptions::new(rules)).unwrap()
}

fn texts(html: &str, rules: &Rules) -> Vec<String> {
    units(html.as_bytes(), rules)
        .iter()
        .map(Block::plain_text)
        .collect()
}

/// Pseudo-translates `html` read as UTF-8 (the test pages declare no encoding, which
/// a browser, and tagloom, would read as windows-1252).
fn pseudo_with(html: &str, source: &str, target: &str, mut common: Common) -> String {
    common.encoding.get_or_insert_with(|| "utf-8".to_owned());
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("in.html"), dir.path().join("out.html"));
    std::fs::write(&input, html).unwrap();
    let opts = PseudoOptions {
        source_lang: source.parse().unwrap(),
        target_lang: Some(target.parse().unwrap()),
        common,
    };
    flow::pseudo(&input, &out, &opts).unwrap();
    std::fs::read_to_string(out).unwrap()
}

fn pseudo(html: &str, source: &str, target: &str) -> String {
    pseudo_with(html, source, target, Common::default())
}

/// Extract (XLIFF and PO) and merge back untranslated: must be the input.
fn assert_round_trip(html: &str) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.html");
    std::fs::write(&input, html).unwrap();
    for ext in ["xlf", "po"] {
        let file = dir.path().join(format!("t.{ext}"));
        let out = dir.path().join("out.html");
        flow::extract(
            &input,
            &file,
            &ExtractOptions::new("en", Some("ar")).unwrap(),
        )
        .unwrap();
        flow::merge(&input, &file, &out, &MergeOptions::default()).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), html, "{ext}");
    }
}

#[test]
fn no_units_without_letters() {
    let html = "<html><body><p>,</p><p>|</p><p>&nbsp;</p><p>-1</p><p>\u{a9}</p>\
        <p>\u{2192}</p><p>2024</p><p>3D</p><p>\u{a9} 2024 Acme</p><p>\u{65e5}\u{672c}</p>\
        <ul><li><a href=/a title=\"\u{2192}\">1</a></li><li><img src=x alt=\"2024\"><img src=y alt=Logo></li></ul>\
        <div>| <b>42</b> |</div></body></html>";
    assert_eq!(
        texts(html, &Rules::default()),
        ["3D", "\u{a9} 2024 Acme", "\u{65e5}\u{672c}", "Logo"]
    );
    // `min_letters: 0` gives back every non-whitespace text.
    let any = Rules::from_json_str(r#"{"min_letters": 0}"#).unwrap();
    let all = texts(html, &any);
    for want in [",", "|", "\u{a0}", "-1", "2024", "\u{2192}"] {
        assert!(all.iter().any(|t| t == want), "{want} missing from {all:?}");
    }
    assert_round_trip(html);
}

#[test]
fn open_graph_text_properties_only() {
    let html = r#"<head><meta property="og:title" content="Title"><meta property="og:description" content="Desc">
<meta property="og:site_name" content="Site"><meta property="og:image:alt" content="A cat">
<meta property="og:url" content="https://example.com/x"><meta property="og:image" content="https://example.com/x.png">
<meta property="og:type" content="article"><meta property="og:locale" content="en_US">
<meta name="twitter:title" content="TT"><meta name="twitter:card" content="summary_large_image">
<meta name="twitter:image" content="https://example.com/t.png"></head>"#;
    assert_eq!(
        texts(html, &Rules::default()),
        ["Title", "Desc", "Site", "A cat", "TT"]
    );
    assert_round_trip(html);
}

#[test]
fn conditional_comments_are_not_notes_nor_text() {
    let html = "<body><!-- The greeting --><p>Hello</p>\
        <!--[if lt IE 9]><p>Please upgrade your browser</p><![endif]--><p>World</p>\
        <!--[if !IE]><!--><p>Modern</p><!--<![endif]--><![if IE]><p>Old</p><![endif]></body>";
    let got = units(html.as_bytes(), &Rules::default());
    let got: Vec<(String, Vec<String>)> =
        got.into_iter().map(|b| (b.plain_text(), b.notes)).collect();
    let note = |s: &str| vec![s.to_string()];
    assert_eq!(
        got,
        [
            ("Hello".into(), note("The greeting")),
            ("World".into(), vec![]),
            ("Modern".into(), vec![]),
            // Inside `<![if IE]>` (bogus comments, not comments around it): real
            // markup every browser reads.
            ("Old".into(), vec![]),
        ]
    );
    assert_round_trip(html);
}

#[test]
fn notranslate_class_and_code_elements_are_protected() {
    let html = "<body><p>Run <code title=\"Tip\">ls -l</code> then press <kbd>Ctrl</kbd>+<kbd>C</kbd>; \
        <var>x</var> is <samp>ok</samp>.</p><p class=\"brand notranslate\">Acme</p>\
        <div class=notranslate><p>Inner</p><img src=a alt=\"Alt\"></div>\
        <p>Say <span class=notranslate title=\"No\">Acme</span> now</p>\
        <p class=Notranslate>Case matters</p><pre><code>fn main() {}</code></pre><pre>A poem</pre>\
        <div><code>rm -rf</code></div></body>";
    let got = units(html.as_bytes(), &Rules::default());
    let texts: Vec<String> = got.iter().map(Block::plain_text).collect();
    assert_eq!(
        texts,
        [
            "Run  then press +;  is .",
            "Say  now",
            "Case matters",
            "A poem"
        ]
    );
    // The protected elements are placeholders: their whole markup, one code each.
    let placeholders: Vec<&str> = got[0]
        .runs
        .iter()
        .filter_map(|r| match r {
            Run::Placeholder { data, .. } => Some(data.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        placeholders,
        [
            "<code title=\"Tip\">ls -l</code>",
            "<kbd>Ctrl</kbd>",
            "<kbd>C</kbd>",
            "<var>x</var>",
            "<samp>ok</samp>"
        ]
    );
    // Pseudo-translation leaves them as they are.
    let out = pseudo(html, "en", "fr");
    for kept in [
        "<code title=\"Tip\">ls -l</code>",
        "<kbd>Ctrl</kbd>",
        "<p class=\"brand notranslate\">Acme</p>",
        "<p>Inner</p><img src=a alt=\"Alt\">",
        "<span class=notranslate title=\"No\">Acme</span>",
        "<pre><code>fn main() {}</code></pre>",
        "<div><code>rm -rf</code></div>",
    ] {
        assert!(out.contains(kept), "{kept} not kept in {out}");
    }
    // A rules file can translate them again (and protect `pre`).
    let rules =
        Rules::from_json_str(r#"{"protected": ["pre"], "no_translate_classes": []}"#).unwrap();
    let texts: Vec<String> = units(html.as_bytes(), &rules)
        .iter()
        .map(Block::plain_text)
        .collect();
    assert!(texts.contains(&"Run ls -l then press Ctrl+C; x is ok.".to_string()));
    assert!(texts.contains(&"Acme".to_string()) && texts.contains(&"Tip".to_string()));
    assert!(!texts.iter().any(|t| t == "A poem" || t.contains("fn main")));
    assert_round_trip(html);
}

const SWITCHER_PAGE: &str = "<!DOCTYPE html><html lang=\"en\"><head><title>Hi there</title>\
<meta http-equiv=\"content-language\" content=\"en\"></head><body>\
<p>Hello <q lang=\"en-GB\">colour</q> and <b lang=\"en\">bold</b> words</p>\
<ul><li><a href=\"/fr/\" lang=\"fr\" hreflang=\"fr\">Fran\u{e7}ais</a></li>\
<li><a href=\"/en/\" lang=\"en\" hreflang=\"en\">English</a></li></ul>\
<nav lang=\"en\"><a href=\"/en-gb/\" hreflang=\"en-GB\" lang=\"en-GB\">English (UK)</a> | \
<a href=\"/de/\" hreflang=\"de\" lang=\"en\">German</a></nav>\
<p lang=\"en\">World</p><div lang=\"en-GB\"><p>Quoted text</p></div>\
<p class=\"notranslate\" lang=\"en\">Acme</p><p translate=\"no\"><span lang=\"en\">Keep</span></p>\
</body></html>";

#[test]
fn lang_switchers_and_other_variants_keep_their_lang() {
    let out = pseudo(SWITCHER_PAGE, "en", "fr");
    for want in [
        "<html lang=\"fr\">",
        "content=\"fr\"",
        "<q lang=\"en-GB\">",
        "<b lang=\"fr\">",
        "<a href=\"/fr/\" lang=\"fr\" hreflang=\"fr\">",
        "<a href=\"/en/\" lang=\"en\" hreflang=\"en\">",
        "<nav lang=\"fr\">",
        "<a href=\"/en-gb/\" hreflang=\"en-GB\" lang=\"en-GB\">",
        "<a href=\"/de/\" hreflang=\"de\" lang=\"en\">",
        "<p lang=\"fr\">",
        "<div lang=\"en-GB\">",
        "<p class=\"notranslate\" lang=\"en\">Acme</p>",
        "<span lang=\"en\">Keep</span>",
    ] {
        assert!(out.contains(want), "{want} not in {out}");
    }
    assert_round_trip(SWITCHER_PAGE);
    // The page's own language, when it names the source, is retargeted where it
    // recurs exactly; other variants are not; without `<html lang>`, only the
    // source exactly.
    let page = "<html lang=en-US><p lang=en-us>A</p><p lang=en>B</p><p lang=en-GB>C</p>";
    let out = pseudo(page, "en", "fr");
    assert!(
        out.starts_with("<html lang=\"fr\"><p lang=\"fr\">")
            && out.contains("<p lang=\"fr\">[")
            && out.contains("<p lang=en-GB>"),
        "{out}"
    );
    let page = "<p lang=en-US>A</p><p lang=EN>B</p>";
    let out = pseudo(page, "en", "fr");
    assert!(
        out.starts_with("<p lang=en-US>") && out.contains("<p lang=\"fr\">"),
        "{out}"
    );
}

#[test]
fn dir_follows_the_target_direction() {
    let page = "<!DOCTYPE html><html lang=\"en\"><head><title>Hello</title></head><body><p>World</p></body></html>";
    for target in ["ar", "he", "fa", "ur", "ar-EG", "pa-Arab"] {
        let out = pseudo(page, "en", target);
        let want = format!("<html dir=\"rtl\" lang=\"{target}\">");
        assert!(out.starts_with(&format!("<!DOCTYPE html>{want}")), "{out}");
    }
    for target in ["de", "ja", "pa"] {
        assert!(!pseudo(page, "en", target).contains("dir="), "{target}");
    }
    // An existing value is replaced, in its own quotes.
    let out = pseudo("<html lang=en dir='ltr'><p>Hi</p>", "en", "he");
    assert!(out.starts_with("<html lang=\"he\" dir='rtl'>"), "{out}");
    let out = pseudo("<HTML LANG=en DIR=ltr><p>Hi</p>", "en", "he");
    assert!(out.starts_with("<HTML LANG=\"he\" DIR=\"rtl\">"), "{out}");
    // From a right-to-left source to a left-to-right target.
    let rtl = "<html lang=\"ar\" dir=\"rtl\"><body><p>\u{645}\u{631}\u{62d}\u{628}\u{627}</p></body></html>";
    let out = pseudo(rtl, "ar", "fr");
    assert!(out.starts_with("<html lang=\"fr\" dir=\"ltr\">"), "{out}");
    let out = pseudo(rtl, "ar", "he");
    assert!(out.starts_with("<html lang=\"he\" dir=\"rtl\">"), "{out}");
    // Untranslated: byte-exact (the Root mark writes nothing).
    assert_round_trip(page);
    assert_round_trip(rtl);
    // The re-parse fallback follows the same rules.
    let dir = tempfile::tempdir().unwrap();
    let common = Common {
        temp_dir: Some(dir.path().to_path_buf()),
        skeleton_limit: Some(0),
        ..Common::default()
    };
    let out = pseudo_with(SWITCHER_PAGE, "en", "ar", common);
    for want in [
        "<html lang=\"ar\" dir=\"rtl\">",
        "<q lang=\"en-GB\">",
        "<a href=\"/en/\" lang=\"en\" hreflang=\"en\">",
        "<div lang=\"en-GB\">",
    ] {
        assert!(out.contains(want), "fallback: {want} not in {out}");
    }
}

// ---- the corpora ----

fn samples() -> Vec<PathBuf> {
    let dir = Shared::L10nSamples.existing().unwrap_or_else(|| {
        let copy = support::manifest().join("tests/data/l10n-samples");
        let _ = writeln!(
            std::io::stderr(),
            "{} absent: using the copy in {}",
            Shared::L10nSamples.path().display(),
            copy.display()
        );
        copy
    });
    support::corpus(&dir, &["html", "phtml", "htm", "xhtml"])
}

fn bench() -> Vec<PathBuf> {
    Shared::BenchCorpus.files("the bench pages of extraction_rules", &["html"])
}

/// Elements in tree order with whether they translate (the reader's rule,
/// inherited through the tree).
fn walk<'a>(store: &'a DomStore, rules: &Rules, mut f: impl FnMut(NodeRef<'a>, bool, bool)) {
    let Some(doc) = store.document() else {
        return;
    };
    let mut stack: Vec<(NodeRef<'a>, bool)> = doc.children().map(|c| (c, true)).collect();
    stack.reverse();
    while let Some((node, inherited)) = stack.pop() {
        let NodeKind::Element(e) = node.kind() else {
            continue;
        };
        let own = e.ns() != Namespace::Html
            || rules.translate_of(e.local_name(), |a| e.attr(a), inherited);
        f(node, inherited, own);
        let mut kids: Vec<_> = node.children().map(|c| (c, own)).collect();
        if let Some(c) = node.template_contents() {
            kids.extend(c.children().map(|c| (c, own)));
        }
        kids.reverse();
        stack.extend(kids);
    }
}

/// The text and attributes of a subtree, as one string.
fn subtree(node: NodeRef<'_>) -> String {
    let mut out = String::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind() {
            NodeKind::Text(t) => out.push_str(t),
            NodeKind::Element(e) => {
                out.push_str(&format!("<{} {:?}>", e.local_name(), e.attrs()));
            }
            _ => {}
        }
        let mut kids: Vec<_> = n.children().collect();
        kids.reverse();
        stack.extend(kids);
    }
    out
}

#[derive(Default, Debug)]
struct Counts {
    pages: usize,
    units: usize,
    no_letter: usize,
    og_junk: usize,
    og_text: usize,
    protected: usize,
    protected_changed: usize,
    switchers: usize,
    switchers_changed: usize,
    rtl_html: usize,
    no_html_tag: usize,
}

fn check_page(path: &Path, rules: &Rules, c: &mut Counts, failures: &mut Vec<String>) {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    c.pages += 1;
    let tree = support::parse(&bytes);
    let page = Page {
        path,
        name: &name,
        bytes: &bytes,
        tree: &tree,
    };
    check_units(&page, rules, c, failures);
    check_pseudo_ar(&page, rules, c, failures);
}

/// A page under check: its file, name, bytes and tree.
struct Page<'a> {
    path: &'a Path,
    name: &'a str,
    bytes: &'a [u8],
    tree: &'a DomStore,
}

/// Units: none without a letter; Open Graph values of og:url/og:image/og:type never.
fn check_units(page: &Page<'_>, rules: &Rules, c: &mut Counts, failures: &mut Vec<String>) {
    let Page {
        name, bytes, tree, ..
    } = *page;
    let found = units(bytes, rules);
    c.units += found.len();
    for u in &found {
        if !u.plain_text().chars().any(char::is_alphabetic) {
            c.no_letter += 1;
            failures.push(format!(
                "{name}: unit {} without a letter: {:?}",
                u.id,
                u.plain_text()
            ));
        }
    }
    // Open Graph: the values of og:url/og:image/og:type are never units.
    let mut og = Vec::new();
    walk(tree, rules, |node, _, _| {
        if let Some(e) = node.as_element().filter(|e| e.is_html("meta"))
            && let (Some(p), Some(v)) = (e.attr("property"), e.attr("content"))
        {
            og.push((p.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    });
    for (property, value) in &og {
        let is_unit = found
            .iter()
            .any(|u| u.element == "meta" && u.plain_text() == *value);
        match property.as_str() {
            "og:url" | "og:image" | "og:type" | "og:locale" | "og:image:width"
                if is_unit && !value.is_empty() =>
            {
                c.og_junk += 1;
                failures.push(format!("{name}: {property} is a unit"));
            }
            "og:title" | "og:description" | "og:site_name" if !value.is_empty() => {
                c.og_text += usize::from(is_unit);
            }
            _ => {}
        }
    }
}

/// Pseudo-translated to Arabic: protected subtrees and switchers unchanged,
/// `dir="rtl"` on `<html>`.
fn check_pseudo_ar(page: &Page<'_>, rules: &Rules, c: &mut Counts, failures: &mut Vec<String>) {
    let Page {
        path,
        name,
        bytes,
        tree,
    } = *page;
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("out.html");
    let opts = PseudoOptions {
        source_lang: "en".parse().unwrap(),
        target_lang: Some("ar".parse().unwrap()),
        common: Common::default(),
    };
    flow::pseudo(path, &out_path, &opts).unwrap();
    let out = support::parse(&std::fs::read(&out_path).unwrap());
    let mut before = Vec::new();
    walk(tree, rules, |node, inherited, own| {
        before.push((node, inherited, own))
    });
    let mut after = Vec::new();
    walk(&out, rules, |node, _, _| after.push(node));
    if before.len() != after.len() {
        failures.push(format!("{name}: pseudo changed the element count"));
        return;
    }
    for ((node, inherited, own), new) in before.iter().zip(&after) {
        let Some(e) = node.as_element() else { continue };
        if *inherited && !*own && e.ns() == Namespace::Html {
            c.protected += 1;
            if subtree(*node) != subtree(*new) {
                c.protected_changed += 1;
                failures.push(format!("{name}: protected <{}> changed", e.local_name()));
            }
        }
        if e.attr("hreflang").is_some() && e.attr("lang").is_some() {
            c.switchers += 1;
            let new_lang = new.as_element().and_then(|n| n.attr("lang"));
            if new_lang != e.attr("lang") {
                c.switchers_changed += 1;
                failures.push(format!(
                    "{name}: switcher lang {:?} changed",
                    e.attr("lang")
                ));
            }
        }
    }
    // The tree's `html` is implied when the page has no `<html>` tag: no `dir` then.
    let has_html_tag = {
        let (encoding, bom) = tagloom_l10n::reader::detect_encoding(bytes, None);
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        text.to_ascii_lowercase().contains("<html")
    };
    let html_dir = after
        .iter()
        .find_map(|n| n.as_element().filter(|e| e.is_html("html")))
        .and_then(|e| e.attr("dir").map(str::to_string));
    if !has_html_tag {
        c.no_html_tag += 1;
    } else if html_dir.as_deref() == Some("rtl") {
        c.rtl_html += 1;
    } else {
        failures.push(format!(
            "{name}: <html dir> is {html_dir:?} for an ar target"
        ));
    }
}

#[test]
fn samples_and_bench_pages_have_no_junk_units() {
    let rules = Rules::default();
    for (corpus, files) in [("l10n samples", samples()), ("bench corpus", bench())] {
        let mut c = Counts::default();
        let mut failures = Vec::new();
        for f in &files {
            check_page(f, &rules, &mut c, &mut failures);
        }
        println!("{corpus}: {c:?}");
        assert!(failures.is_empty(), "{corpus}: {failures:#?}");
        if corpus == "l10n samples" {
            assert!(c.pages >= 20 && c.units > 100, "{c:?}");
        }
    }
}

/// A protected inline element outside any block (read raw: no text around it)
/// keeps everything inside it, attributes of its descendants included.
#[test]
fn protected_inline_elements_outside_blocks() {
    let html = "<div><code><abbr title=\"Tip\">x</abbr></code></div>\
        <div>1 <span class=notranslate><img src=a alt=\"Alt text\"></span> 2</div>\
        <div><span translate=no><b lang=en title=\"T\">x</b></span><p>After</p></div>";
    assert_eq!(texts(html, &Rules::default()), ["After"]);
    let out = pseudo(html, "en", "fr");
    assert!(out.contains("<b lang=en title=\"T\">"), "{out}");
    assert_round_trip(html);
}

/// A `lang` on the element around a block follows that block: retargeted only
/// when the block is translated (with attribute blocks in the same tag, it follows
/// the document). Merged from PO with one target filled in.
#[test]
fn lang_follows_the_translation_of_its_block() {
    let html = "<html lang=\"en\"><body><p lang=\"en\">Hello</p>\
        <p lang=\"en\" title=\"Tip\">World</p><p xml:lang='en' lang=en>Other</p></body></html>";
    let dir = tempfile::tempdir().unwrap();
    let (input, po, out) = (
        dir.path().join("in.html"),
        dir.path().join("t.po"),
        dir.path().join("out.html"),
    );
    std::fs::write(&input, html).unwrap();
    flow::extract(&input, &po, &ExtractOptions::new("en", Some("fr")).unwrap()).unwrap();
    let text = std::fs::read_to_string(&po).unwrap();
    let filled = text.replace(
        "msgid \"Hello\"\nmsgstr \"\"",
        "msgid \"Hello\"\nmsgstr \"Bonjour\"",
    );
    assert_ne!(text, filled);
    std::fs::write(&po, filled).unwrap();
    flow::merge(&input, &po, &out, &MergeOptions::default()).unwrap();
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "<html lang=\"fr\"><body><p lang=\"fr\">Bonjour</p>\
        <p lang=\"fr\" title=\"Tip\">World</p><p xml:lang='en' lang=en>Other</p></body></html>"
    );
    assert_round_trip(html);
}
