//! Unit tests: every invariant violation is rejected with its error and leaves the
//! store untouched; valid batches, `Clear`, moves and the dump.

use super::*;
use crate::dom_patch::{AttrNamespace, DomPatch, Namespace, PatchAttr, PatchKey, QuirksMode};

fn k(n: u64) -> PatchKey {
    PatchKey::new(n).unwrap()
}

fn el(key: u64, name: &'static str) -> DomPatch {
    DomPatch::html_element(k(key), name)
}

fn append(parent: u64, child: u64) -> DomPatch {
    DomPatch::AppendChild {
        parent: k(parent),
        child: k(child),
    }
}

fn text(key: u64, t: &str) -> DomPatch {
    DomPatch::CreateText {
        key: k(key),
        text: t.into(),
    }
}

fn template(key: u64, contents: u64) -> DomPatch {
    DomPatch::CreateElement {
        key: k(key),
        ns: Namespace::Html,
        name: "template".into(),
        attrs: vec![],
        contents: Some(k(contents)),
    }
}

/// document 1 > html 2 > (head 3, body 4 > "x" 5)
fn base() -> DomStore {
    let mut s = DomStore::new();
    s.apply_patches(&[
        DomPatch::CreateDocument { key: k(1) },
        el(2, "html"),
        append(1, 2),
        el(3, "head"),
        append(2, 3),
        el(4, "body"),
        append(2, 4),
        text(5, "x"),
        append(4, 5),
    ])
    .unwrap();
    s
}

/// Applies `batch` to a clone of `store`, expects `err`, and checks nothing changed;
/// the same through `apply_owned`.
fn rejects(store: &DomStore, batch: &[DomPatch], err: PatchError) {
    let mut s = store.clone();
    assert_eq!(s.apply_patches(batch), Err(err));
    assert_eq!(format!("{s:?}"), format!("{store:?}"), "store changed");
    let mut s = store.clone();
    assert_eq!(s.apply_patches_owned(batch.to_vec()), Err(err));
    assert_eq!(
        format!("{s:?}"),
        format!("{store:?}"),
        "store changed (owned)"
    );
}

#[test]
fn valid_batch_builds_the_tree() {
    let s = base();
    assert_eq!(s.len(), 5);
    assert_eq!(s.last_key(), Some(k(5)));
    assert_eq!(
        dump_document(&s),
        "| <html>\n|   <head>\n|   <body>\n|     \"x\"\n"
    );
    let body = s.get(k(4)).unwrap();
    assert_eq!(body.parent().unwrap().key(), k(2));
    assert_eq!(body.previous_sibling().unwrap().key(), k(3));
    let kids: Vec<_> = s.get(k(2)).unwrap().children().map(|n| n.key()).collect();
    assert_eq!(kids, [k(3), k(4)]);
}

#[test]
fn clear_only_first() {
    rejects(
        &base(),
        &[el(6, "p"), DomPatch::Clear],
        PatchError::ClearNotFirst { index: 1 },
    );
}

#[test]
fn keys_strictly_increase() {
    let s = base();
    rejects(
        &s,
        &[el(5, "p")],
        PatchError::KeyNotIncreasing {
            index: 0,
            key: k(5),
            last: k(5),
        },
    );
    rejects(
        &s,
        &[el(7, "p"), el(6, "p")],
        PatchError::KeyNotIncreasing {
            index: 1,
            key: k(6),
            last: k(7),
        },
    );
    // Never reused, not even after a Clear.
    rejects(
        &s,
        &[DomPatch::Clear, DomPatch::CreateDocument { key: k(3) }],
        PatchError::KeyNotIncreasing {
            index: 1,
            key: k(3),
            last: k(5),
        },
    );
    // Template contents come right after their element.
    rejects(
        &s,
        &[template(8, 7)],
        PatchError::KeyNotIncreasing {
            index: 0,
            key: k(7),
            last: k(8),
        },
    );
}

#[test]
fn unknown_and_stale_keys() {
    let s = base();
    rejects(
        &s,
        &[append(4, 9)],
        PatchError::UnknownKey {
            index: 0,
            key: k(9),
        },
    );
    rejects(
        &s,
        &[DomPatch::Clear, el(6, "p"), append(6, 2)],
        PatchError::StaleKey {
            index: 2,
            key: k(2),
        },
    );
    let mut cleared = s.clone();
    cleared.apply_patches(&[DomPatch::Clear]).unwrap();
    assert!(cleared.get(k(2)).is_none());
    rejects(
        &cleared,
        &[DomPatch::Remove { node: k(5) }],
        PatchError::StaleKey {
            index: 0,
            key: k(5),
        },
    );
}

#[test]
fn one_document() {
    rejects(
        &base(),
        &[DomPatch::CreateDocument { key: k(6) }],
        PatchError::SecondDocument {
            index: 0,
            key: k(6),
            existing: k(1),
        },
    );
    rejects(
        &DomStore::new(),
        &[DomPatch::SetQuirksMode {
            mode: QuirksMode::Quirks,
        }],
        PatchError::NoDocument { index: 0 },
    );
}

#[test]
fn template_contents_only_for_templates() {
    let s = base();
    rejects(
        &s,
        &[el(6, "template")],
        PatchError::TemplateContentsMismatch {
            index: 0,
            key: k(6),
        },
    );
    rejects(
        &s,
        &[DomPatch::CreateElement {
            key: k(6),
            ns: Namespace::Svg,
            name: "template".into(),
            attrs: vec![],
            contents: Some(k(7)),
        }],
        PatchError::TemplateContentsMismatch {
            index: 0,
            key: k(6),
        },
    );
}

#[test]
fn single_parent() {
    rejects(
        &base(),
        &[append(3, 5)],
        PatchError::AlreadyHasParent {
            index: 0,
            child: k(5),
            parent: k(4),
        },
    );
}

#[test]
fn before_must_be_a_child() {
    rejects(
        &base(),
        &[
            el(6, "p"),
            DomPatch::InsertBefore {
                parent: k(3),
                child: k(6),
                before: k(5),
            },
        ],
        PatchError::NotAChild {
            index: 1,
            parent: k(3),
            before: k(5),
        },
    );
}

#[test]
fn no_cycles() {
    let s = base();
    let cycle = |index, parent, child| PatchError::Cycle {
        index,
        parent: k(parent),
        child: k(child),
    };
    rejects(&s, &[el(6, "p"), append(6, 6)], cycle(1, 6, 6));
    rejects(
        &s,
        &[DomPatch::Remove { node: k(4) }, append(5, 4)],
        PatchError::CannotHaveChildren {
            index: 1,
            parent: k(5),
        },
    );
    rejects(
        &s,
        &[
            DomPatch::Remove { node: k(4) },
            el(6, "div"),
            append(4, 6),
            append(6, 4),
        ],
        cycle(3, 6, 4),
    );
    // Through a template's contents: the template may not go into its own contents.
    rejects(
        &s,
        &[template(6, 7), el(8, "div"), append(7, 8), append(8, 6)],
        cycle(3, 8, 6),
    );
    // Nor into its own empty contents (the fast path must not miss it).
    rejects(&s, &[template(6, 7), append(7, 6)], cycle(1, 7, 6));
}

#[test]
fn children_only_where_allowed() {
    let s = base();
    rejects(
        &s,
        &[
            DomPatch::CreateComment {
                key: k(6),
                text: "c".into(),
            },
            el(7, "p"),
            append(6, 7),
        ],
        PatchError::CannotHaveChildren {
            index: 2,
            parent: k(6),
        },
    );
    rejects(
        &s,
        &[template(6, 7), append(4, 7)],
        PatchError::CannotBeChild {
            index: 1,
            child: k(7),
        },
    );
    rejects(
        &s,
        &[append(4, 1)],
        PatchError::CannotBeChild {
            index: 0,
            child: k(1),
        },
    );
    let hierarchy = |index, parent, child| PatchError::HierarchyRequest {
        index,
        parent: k(parent),
        child: k(child),
    };
    rejects(&s, &[text(6, "t"), append(1, 6)], hierarchy(1, 1, 6));
    rejects(&s, &[el(6, "html"), append(1, 6)], hierarchy(1, 1, 6));
    let doctype = |key| DomPatch::CreateDoctype {
        key: k(key),
        name: "html".into(),
        public_id: String::new(),
        system_id: String::new(),
    };
    rejects(&s, &[doctype(6), append(4, 6)], hierarchy(1, 4, 6));
    let mut with_doctype = s.clone();
    with_doctype
        .apply_patches(&[
            doctype(6),
            DomPatch::InsertBefore {
                parent: k(1),
                child: k(6),
                before: k(2),
            },
        ])
        .unwrap();
    rejects(
        &with_doctype,
        &[doctype(7), append(1, 7)],
        hierarchy(1, 1, 7),
    );
}

#[test]
fn operations_on_the_wrong_kind() {
    let s = base();
    rejects(
        &s,
        &[DomPatch::AppendText {
            node: k(4),
            text: "y".into(),
        }],
        PatchError::NotText {
            index: 0,
            node: k(4),
        },
    );
    rejects(
        &s,
        &[DomPatch::AddAttributes {
            node: k(5),
            attrs: vec![],
        }],
        PatchError::NotElement {
            index: 0,
            node: k(5),
        },
    );
    rejects(
        &s,
        &[el(6, "p"), DomPatch::Remove { node: k(6) }],
        PatchError::NoParent {
            index: 1,
            node: k(6),
        },
    );
}

#[test]
fn failed_batch_rolls_back_every_kind_of_change() {
    let s = base();
    rejects(
        &s,
        &[
            DomPatch::SetQuirksMode {
                mode: QuirksMode::Quirks,
            },
            DomPatch::AppendText {
                node: k(5),
                text: "yz".into(),
            },
            DomPatch::AddAttributes {
                node: k(4),
                attrs: vec![PatchAttr::new("class", "c")],
            },
            DomPatch::Remove { node: k(3) },
            el(6, "p"),
            DomPatch::InsertBefore {
                parent: k(4),
                child: k(6),
                before: k(5),
            },
            DomPatch::Remove { node: k(5) },
            append(3, 5),
            append(9, 9),
        ],
        PatchError::UnknownKey {
            index: 8,
            key: k(9),
        },
    );
    rejects(
        &s,
        &[
            DomPatch::Clear,
            DomPatch::CreateDocument { key: k(6) },
            el(7, "html"),
            append(6, 7),
            append(6, 7),
        ],
        PatchError::AlreadyHasParent {
            index: 4,
            child: k(7),
            parent: k(6),
        },
    );
}

#[test]
fn clear_starts_a_new_baseline() {
    let mut s = base();
    s.apply_patches(&[DomPatch::SetQuirksMode {
        mode: QuirksMode::LimitedQuirks,
    }])
    .unwrap();
    s.apply_patches(&[
        DomPatch::Clear,
        DomPatch::CreateDocument { key: k(10) },
        el(11, "html"),
        append(10, 11),
    ])
    .unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s.quirks_mode(), QuirksMode::NoQuirks);
    assert_eq!(s.last_key(), Some(k(11)));
    assert_eq!(dump_document(&s), "| <html>\n");
    // An empty batch and a lone Clear are fine.
    s.apply_patches(&[]).unwrap();
    s.apply_patches(&[DomPatch::Clear]).unwrap();
    assert!(s.is_empty() && s.document().is_none());
}

#[test]
fn moves_inserts_and_attribute_merge() {
    let mut s = base();
    s.apply_patches(&[
        el(6, "p"),
        DomPatch::InsertBefore {
            parent: k(4),
            child: k(6),
            before: k(5),
        },
        DomPatch::Remove { node: k(5) },
        append(6, 5),
        DomPatch::AppendText {
            node: k(5),
            text: "y".into(),
        },
        DomPatch::AddAttributes {
            node: k(4),
            attrs: vec![PatchAttr::new("id", "a"), PatchAttr::new("id", "b")],
        },
        DomPatch::AddAttributes {
            node: k(4),
            attrs: vec![PatchAttr::new("id", "c"), PatchAttr::new("class", "d")],
        },
    ])
    .unwrap();
    assert_eq!(
        dump_document(&s),
        "| <html>\n|   <head>\n|   <body>\n|     class=\"d\"\n|     id=\"a\"\n|     <p>\n|       \"xy\"\n"
    );
}

#[test]
fn sparse_keys_are_found() {
    let mut s = DomStore::new();
    s.apply_patches(&[
        DomPatch::CreateDocument { key: k(3) },
        el(1_000, "html"),
        append(3, 1_000),
        el(1_000_000_000_000, "body"),
        append(1_000, 1_000_000_000_000),
    ])
    .unwrap();
    assert_eq!(dump_document(&s), "| <html>\n|   <body>\n");
    assert!(s.get(k(999)).is_none());
}

#[test]
fn dump_covers_every_node_kind() {
    let mut s = DomStore::new();
    s.apply_patches(&[
        DomPatch::CreateDocument { key: k(1) },
        DomPatch::CreateDoctype {
            key: k(2),
            name: "html".into(),
            public_id: "pub".into(),
            system_id: String::new(),
        },
        append(1, 2),
        DomPatch::CreateComment {
            key: k(3),
            text: "c".into(),
        },
        append(1, 3),
        el(4, "html"),
        append(1, 4),
        template(5, 6),
        append(4, 5),
        el(7, "b"),
        append(6, 7),
        text(8, "a\nb"),
        append(7, 8),
        DomPatch::CreateElement {
            key: k(9),
            ns: Namespace::Svg,
            name: "svg".into(),
            attrs: vec![
                PatchAttr {
                    ns: AttrNamespace::XLink,
                    name: "href".into(),
                    value: "h".into(),
                },
                PatchAttr::new("xlink:href", "n"),
                PatchAttr {
                    ns: AttrNamespace::Xmlns,
                    name: "xlink".into(),
                    value: "x".into(),
                },
                PatchAttr::new("a", "1"),
            ],
            contents: None,
        },
        append(4, 9),
        DomPatch::CreateElement {
            key: k(10),
            ns: Namespace::MathMl,
            name: "mi".into(),
            attrs: vec![],
            contents: None,
        },
        append(9, 10),
    ])
    .unwrap();
    let expected = "\
| <!DOCTYPE html \"pub\" \"\">
| <!-- c -->
| <html>
|   <template>
|     content
|       <b>
|         \"a
b\"
|   <svg svg>
|     a=\"1\"
|     xlink href=\"h\"
|     xlink:href=\"n\"
|     xmlns xlink=\"x\"
|     <math mi>
";
    assert_eq!(dump_document(&s), expected);
    let html = s.get(k(4)).unwrap();
    let expected_children = "\
| <template>
|   content
|     <b>
|       \"a
b\"
| <svg svg>
|   a=\"1\"
|   xlink href=\"h\"
|   xlink:href=\"n\"
|   xmlns xlink=\"x\"
|   <math mi>
";
    assert_eq!(dump_children(html), expected_children);
    assert_eq!(html.children().count(), 2);
    let contents = s.get(k(5)).unwrap().template_contents().unwrap();
    assert_eq!(contents.host().unwrap().key(), k(5));
    assert_eq!(dump_children(contents), "| <b>\n|   \"a\nb\"\n");
}

#[test]
fn text_data_survives_rollbacks_appends_and_many_nodes() {
    // Thousands of text and element nodes (several arena segments and text
    // chunks), appends to the last and to earlier text nodes, and a rejected
    // batch in between: every node reads back what the patches said.
    let mut s = base();
    let mut expected = vec![(5, "x".to_owned())];
    let mut key = 6;
    for i in 0..3000u64 {
        let data = format!("t{i}-").repeat((i % 5) as usize + 1);
        s.apply_patches(&[
            el(key, "span"),
            append(4, key),
            text(key + 1, &data),
            append(key, key + 1),
        ])
        .unwrap();
        expected.push((key + 1, data));
        key += 2;
        if i % 500 == 0 {
            // A batch that appends, creates, then fails: nothing of it stays.
            assert!(
                s.apply_patches(&[
                    DomPatch::AppendText {
                        node: k(key - 1),
                        text: "lost".into()
                    },
                    text(key, "lost too"),
                    append(99_999, key),
                ])
                .is_err()
            );
        }
    }
    // Appending to an early node moves its data; the others stay put.
    for (node, data) in expected.iter_mut().step_by(97) {
        s.apply_patches(&[DomPatch::AppendText {
            node: k(*node),
            text: "+more".into(),
        }])
        .unwrap();
        data.push_str("+more");
    }
    for (node, data) in &expected {
        let got = s.get(k(*node)).unwrap();
        assert!(
            matches!(got.kind(), NodeKind::Text(t) if t == data),
            "node {node}"
        );
    }
}
