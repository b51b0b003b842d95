//! Unit tests of the fragment serialization algorithm and the token serializer.

use super::*;
use crate::dom::DomStore;
use crate::dom_patch::{AttrNamespace, DomPatch, Namespace, PatchAttr, PatchKey};
use crate::token::{OwnedAttribute, OwnedDoctype, OwnedTag, OwnedToken};

fn k(n: u64) -> PatchKey {
    PatchKey::new(n).unwrap()
}

/// Builds a store from a compact description: (key, parent key or 0, patch).
fn store(nodes: Vec<(u64, DomPatch)>) -> DomStore {
    let mut s = DomStore::new();
    let mut batch = vec![DomPatch::CreateDocument { key: k(1) }];
    for (parent, patch) in nodes {
        let key = match &patch {
            DomPatch::CreateElement { key, .. }
            | DomPatch::CreateText { key, .. }
            | DomPatch::CreateComment { key, .. }
            | DomPatch::CreateDoctype { key, .. } => *key,
            _ => unreachable!(),
        };
        batch.push(patch);
        batch.push(DomPatch::AppendChild {
            parent: k(parent),
            child: key,
        });
    }
    s.apply_patches(&batch).unwrap();
    s
}

fn el(key: u64, ns: Namespace, name: &'static str, attrs: Vec<PatchAttr>) -> DomPatch {
    DomPatch::CreateElement {
        key: k(key),
        ns,
        name: name.into(),
        attrs,
        contents: (ns == Namespace::Html && name == "template").then(|| k(key + 1)),
    }
}

fn html(key: u64, name: &'static str) -> DomPatch {
    el(key, Namespace::Html, name, vec![])
}

fn text(key: u64, t: &str) -> DomPatch {
    DomPatch::CreateText {
        key: k(key),
        text: t.into(),
    }
}

fn inner(s: &DomStore, key: u64, scripting: bool) -> String {
    children_to_string(s.get(k(key)).unwrap(), FragmentOptions { scripting })
}

#[test]
fn document_with_every_node_kind() {
    let s = store(vec![
        (
            1,
            DomPatch::CreateDoctype {
                key: k(2),
                name: "html".into(),
                public_id: "p".into(),
                system_id: "s".into(),
            },
        ),
        (
            1,
            DomPatch::CreateComment {
                key: k(3),
                text: "c -- d".into(),
            },
        ),
        (1, html(4, "html")),
        (4, html(5, "head")),
        (4, html(6, "body")),
        (
            6,
            el(
                7,
                Namespace::Html,
                "p",
                vec![PatchAttr::new("title", "<\"&'\u{a0}>")],
            ),
        ),
        (7, text(8, "a&b<c>\u{a0}\"'")),
        (6, html(9, "br")),
        (6, html(10, "hr")),
    ]);
    assert_eq!(
        inner(&s, 1, false),
        "<!DOCTYPE html><!--c -- d--><html><head></head><body>\
         <p title=\"&lt;&quot;&amp;'&nbsp;&gt;\">a&amp;b&lt;c&gt;&nbsp;\"'</p><br><hr></body></html>"
    );
    // innerHTML of a void element is empty; of an empty element too.
    assert_eq!(inner(&s, 9, false), "");
    assert_eq!(inner(&s, 5, false), "");
    assert_eq!(inner(&s, 7, false), "a&amp;b&lt;c&gt;&nbsp;\"'");
}

#[test]
fn raw_text_parents() {
    let s = store(vec![
        (1, html(2, "div")),
        (2, html(3, "script")),
        (3, text(4, "a<b>&")),
        (2, html(5, "noscript")),
        (5, text(6, "<p>&")),
        (2, html(7, "textarea")),
        (7, text(8, "<x>")),
        // Only HTML elements are raw-text parents.
        (2, el(9, Namespace::Svg, "style", vec![])),
        (9, text(10, "<")),
        (2, html(11, "plaintext")),
        (11, text(12, "<&")),
    ]);
    assert_eq!(
        inner(&s, 2, false),
        "<script>a<b>&</script><noscript>&lt;p&gt;&amp;</noscript>\
         <textarea>&lt;x&gt;</textarea><style>&lt;</style><plaintext><&</plaintext>"
    );
    assert_eq!(
        inner(&s, 2, true),
        "<script>a<b>&</script><noscript><p>&</noscript>\
         <textarea>&lt;x&gt;</textarea><style>&lt;</style><plaintext><&</plaintext>"
    );
    // The node itself being raw text: its children are written literally.
    assert_eq!(inner(&s, 3, false), "a<b>&");
}

#[test]
fn templates_serialize_their_contents() {
    let mut s = store(vec![(1, html(2, "div")), (2, html(3, "template"))]);
    // contents = 4
    s.apply_patches(&[
        html(5, "b"),
        DomPatch::AppendChild {
            parent: k(4),
            child: k(5),
        },
        text(6, "x"),
        DomPatch::AppendChild {
            parent: k(5),
            child: k(6),
        },
        html(7, "i"),
        DomPatch::AppendChild {
            parent: k(4),
            child: k(7),
        },
        // A child of the template element itself is not serialized.
        html(8, "u"),
        DomPatch::AppendChild {
            parent: k(3),
            child: k(8),
        },
    ])
    .unwrap();
    assert_eq!(inner(&s, 2, false), "<template><b>x</b><i></i></template>");
    assert_eq!(inner(&s, 3, false), "<b>x</b><i></i>");
    assert_eq!(inner(&s, 4, false), "<b>x</b><i></i>");
}

#[test]
fn foreign_elements_and_attribute_names() {
    let attr = |ns, name: &'static str| PatchAttr {
        ns,
        name: name.into(),
        value: "v".into(),
    };
    let s = store(vec![
        (
            1,
            el(
                2,
                Namespace::Svg,
                "foreignObject",
                vec![
                    attr(AttrNamespace::XLink, "href"),
                    attr(AttrNamespace::Xml, "lang"),
                    attr(AttrNamespace::Xmlns, "xmlns"),
                    attr(AttrNamespace::Xmlns, "xlink"),
                    attr(AttrNamespace::None, "viewBox"),
                ],
            ),
        ),
        (2, el(3, Namespace::MathMl, "mi", vec![])),
        // No void handling outside HTML.
        (2, el(4, Namespace::Svg, "br", vec![])),
    ]);
    assert_eq!(
        inner(&s, 1, false),
        "<foreignObject xlink:href=\"v\" xml:lang=\"v\" xmlns=\"v\" xmlns:xlink=\"v\" viewBox=\"v\">\
         <mi></mi><br></br></foreignObject>"
    );
}

#[test]
fn deep_trees_need_no_stack() {
    let depth = 100_000u64;
    let mut batch = vec![DomPatch::CreateDocument { key: k(1) }];
    for i in 0..depth {
        batch.push(DomPatch::html_element(k(i + 2), "div"));
        batch.push(DomPatch::AppendChild {
            parent: k(i + 1),
            child: k(i + 2),
        });
    }
    let mut s = DomStore::new();
    s.apply_patches(&batch).unwrap();
    let out = inner(&s, 1, false);
    assert_eq!(out.len(), depth as usize * "<div></div>".len());
    assert!(out.starts_with("<div><div>") && out.ends_with("</div></div>"));
    // The dump's indentation makes its size quadratic in depth: check a slice.
    let mut dump = String::new();
    crate::dom::write_dump(s.get(k(depth - 1_000)).unwrap(), &mut dump).unwrap();
    assert_eq!(dump.lines().count(), 1_001);
}

#[test]
fn io_writer() {
    let s = store(vec![(1, html(2, "p"))]);
    let mut bytes = Vec::new();
    serialize_children_io(
        s.document().unwrap(),
        FragmentOptions::default(),
        &mut bytes,
    )
    .unwrap();
    assert_eq!(bytes, b"<p></p>");
}

fn tokens_to_string(options: SerializeOptions, tokens: &[OwnedToken]) -> String {
    TokenSerializer::new(options).to_string(tokens)
}

fn start(name: &str, attrs: Vec<OwnedAttribute>) -> OwnedToken {
    let mut tag = OwnedTag::new(name);
    *tag.attrs_mut() = attrs;
    OwnedToken::StartTag(tag)
}

#[test]
fn token_serializer_options() {
    let mut xlink = OwnedAttribute::new("href", "");
    xlink.ns = AttrNamespace::XLink;
    let attrs = vec![
        OwnedAttribute::new("z", "1"),
        OwnedAttribute::new("disabled", "disabled"),
        OwnedAttribute::new("a", "x`y"),
        xlink,
    ];
    let tokens = [start("input", attrs), OwnedToken::text("  a \n b  ")];
    assert_eq!(
        tokens_to_string(SerializeOptions::default(), &tokens),
        "<input z=1 disabled a=\"x`y\" xlink:href=\"\">  a \n b  "
    );
    let options = SerializeOptions {
        alphabetical_attributes: true,
        minimize_boolean_attributes: false,
        quote_attr_values: AttrQuoting::Always,
        quote_char: QuoteChar::Single,
        use_trailing_solidus: true,
        space_before_trailing_solidus: false,
        strip_whitespace: true,
        ..SerializeOptions::default()
    };
    assert_eq!(
        tokens_to_string(options, &tokens),
        "<input a='x`y' disabled='disabled' z='1' xlink:href=''/> a b "
    );
}

#[test]
fn token_serializer_doctypes_and_raw_text() {
    let doctype = |public_id, system_id| {
        OwnedToken::Doctype(Box::new(OwnedDoctype::new(
            Some("html"),
            public_id,
            system_id,
        )))
    };
    let s = |t: &[OwnedToken]| tokens_to_string(SerializeOptions::default(), t);
    assert_eq!(s(&[doctype(None, None)]), "<!DOCTYPE html>");
    assert_eq!(
        s(&[doctype(Some("p"), Some("s"))]),
        "<!DOCTYPE html PUBLIC \"p\" \"s\">"
    );
    assert_eq!(
        s(&[doctype(None, Some("a\"b"))]),
        "<!DOCTYPE html SYSTEM 'a\"b'>"
    );
    let script = [
        OwnedToken::start("noscript"),
        OwnedToken::text("<&>"),
        OwnedToken::end("noscript"),
        OwnedToken::text("<"),
    ];
    assert_eq!(s(&script), "<noscript><&></noscript>&lt;");
    let no_scripting = SerializeOptions {
        scripting: false,
        ..SerializeOptions::default()
    };
    assert_eq!(
        tokens_to_string(no_scripting, &script),
        "<noscript>&lt;&amp;&gt;</noscript>&lt;"
    );
}

#[test]
fn meta_charset_injection() {
    let options = SerializeOptions {
        inject_meta_charset: Some("utf-8".into()),
        omit_optional_tags: false,
        ..SerializeOptions::default()
    };
    assert_eq!(
        tokens_to_string(
            options,
            &[OwnedToken::start("head"), OwnedToken::end("head")]
        ),
        "<head><meta charset=utf-8></head>"
    );
}

/// Tokens of `source`, owned, with the simulator driving the tokenizer and
/// annotating namespaces.
fn owned_tokens(source: &str) -> Vec<OwnedToken> {
    use crate::text_type::{SimulatorConfig, TextTypeSimulator};
    use crate::tokenizer::{Tokenizer, TokenizerConfig};
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    tok.push_str(source);
    tok.finish();
    let mut out = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        let mut owned = token.to_owned();
        let effect = sim.process_owned(&owned);
        if let Some(state) = effect.switch {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(sim.cdata_allowed());
        if let Some(tag) = owned.as_tag_mut() {
            tag.set_ns(effect.ns);
        }
        out.push(owned);
    }
    out
}

#[test]
fn token_writer_preserves_untouched_tokens_and_escapes_changed_ones() {
    let source = "<!doctype html><P title='a&amp;b' hidden>x &lt; y<br/><svg><style>a<b/></style><circle r=\"1\"/></svg><style>a<b</style>";
    let tokens = owned_tokens(source);
    let mut writer = TokenWriter::new();
    let mut out = String::new();
    for token in &tokens {
        writer.write_preserving(token, source, &mut out).unwrap();
    }
    assert_eq!(out, source);

    // Every token changed: the spec's serialization, which reads back the same.
    let mut writer = TokenWriter::new();
    let mut out = String::new();
    for token in &tokens {
        let mut token = token.clone();
        if let Some(tag) = token.as_tag_mut() {
            tag.attrs_mut();
        }
        if let OwnedToken::Characters(t) = &mut token {
            t.text_mut();
        }
        writer.write_preserving(&token, source, &mut out).unwrap();
    }
    assert_eq!(
        out,
        "<!doctype html><p title=\"a&amp;b\" hidden>x &lt; y<br/><svg><style>a<b/></style>\
         <circle r=\"1\"/></svg><style>a<b</style>"
    );
}

#[test]
fn token_writer_refuses_lookahead_options() {
    assert_eq!(
        TokenWriter::with_options(SerializeOptions::default()).err(),
        Some(NeedsLookahead::OmitOptionalTags)
    );
    let inject = SerializeOptions {
        inject_meta_charset: Some("utf-8".into()),
        ..SerializeOptions::spec()
    };
    assert_eq!(
        TokenWriter::with_options(inject).err(),
        Some(NeedsLookahead::InjectMetaCharset)
    );
    assert!(TokenWriter::with_options(SerializeOptions::spec()).is_ok());
}

#[test]
fn io_writer_reports_the_writers_error() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = IoWriter::new(Full);
    let result = TokenWriter::new().write(&OwnedToken::text("x"), &mut out);
    let error = out.result(result).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::StorageFull);
}

#[test]
fn node_to_string_is_outer_html() {
    use crate::driver::{ParseConfig, parse_document};
    let store = parse_document(
        b"<!DOCTYPE html><p id=a>x &amp; <br><!--c--></p><style>a<b</style><template><i>t</i></template><svg><a xlink:href=u /></svg>",
        &ParseConfig::default(),
    )
    .unwrap();
    let doc = store.document().unwrap();
    let opts = FragmentOptions::default();
    let outer: Vec<String> = doc
        .children()
        .chain(
            doc.last_child()
                .unwrap()
                .children()
                .flat_map(|c| c.children()),
        )
        .map(|n| node_to_string(n, opts))
        .collect();
    assert_eq!(outer[0], "<!DOCTYPE html>");
    assert!(outer.contains(&"<p id=\"a\">x &amp; <br><!--c--></p>".to_owned()));
    assert!(outer.contains(&"<style>a<b</style>".to_owned()));
    assert!(outer.contains(&"<template><i>t</i></template>".to_owned()));
    assert!(outer.contains(&"<svg><a xlink:href=\"u\"></a></svg>".to_owned()));
    // A node's own HTML inside its parent's, for every node.
    let html = node_to_string(doc.last_child().unwrap(), opts);
    assert_eq!(
        html,
        children_to_string(doc, opts).trim_start_matches("<!DOCTYPE html>")
    );
    let p = doc
        .last_child()
        .unwrap()
        .last_child()
        .unwrap()
        .first_child()
        .unwrap();
    let text = p.first_child().unwrap();
    assert_eq!(node_to_string(text, opts), "x &amp; ");
    assert_eq!(node_to_string(p.last_child().unwrap(), opts), "<!--c-->");
}
