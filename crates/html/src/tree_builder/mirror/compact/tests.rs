//! Unit tests of the mirror's compaction: keys, lookups, links and rare data.

use std::borrow::Cow;

use super::super::{Kind, Lookup, Mirror, NodeId};
use super::Marks;
use crate::atom;
use crate::dom_patch::{Namespace, PatchAttr, PatchKey};
use crate::tree_builder::sink::ElementAttrs;

fn key(k: u64) -> PatchKey {
    PatchKey(std::num::NonZeroU64::new(k).unwrap())
}

fn element(m: &mut Mirror, name: atom::Atom, parent: Option<NodeId>) -> NodeId {
    let qual = Cow::Borrowed(name.static_name().unwrap());
    let id = m.add_element(Namespace::Html, name, qual, ElementAttrs::none(), false);
    if let Some(p) = parent {
        m.append(p, id);
    }
    id
}

fn children(m: &Mirror, id: NodeId) -> Vec<u64> {
    let mut out = Vec::new();
    let mut c = m.get(id).and_then(|n| n.first_child());
    while let Some(n) = c {
        out.push(m.key(n).0.get());
        c = m.get(n).and_then(|n| n.next());
    }
    out
}

/// document(10) > html(11) > [p(12) > [i(13) > b(14)], div(15) > text(16)]
fn sample() -> (Mirror, [NodeId; 7]) {
    let mut m = Mirror::new(10);
    let doc = m.add(Kind::Document);
    let html = element(&mut m, atom::HTML, Some(doc));
    let p = element(&mut m, atom::P, Some(html));
    let i = element(&mut m, atom::I, Some(p));
    let b = element(&mut m, atom::B, Some(i));
    let div = element(&mut m, atom::DIV, Some(html));
    let text = m.add(Kind::Text);
    m.append(div, text);
    (m, [doc, html, p, i, b, div, text])
}

#[test]
fn kept_nodes_keep_their_keys_and_new_nodes_follow() {
    let (mut m, [_, _, p, i, b, div, _]) = sample();
    assert_eq!(m.next_key(), 17);
    let mut marks = Marks::new(&m);
    marks.expand(&m, div);
    let remap = m.compact(marks);
    // div and its ancestors with their children: document, html, p, div, text.
    assert_eq!(m.len(), 5);
    assert_eq!(remap.get(i), None);
    assert_eq!(remap.get(b), None);
    let new_div = remap.get(div).unwrap();
    assert_eq!(m.key(new_div), key(15));
    assert_eq!(m.lookup(key(15)), Lookup::Held(new_div));
    assert_eq!(m.lookup(key(13)), Lookup::Forgotten);
    assert_eq!(m.lookup(key(9)), Lookup::Unknown);
    assert_eq!(m.lookup(key(17)), Lookup::Unknown);
    // The next node gets the next key, arithmetic from there on.
    assert_eq!(m.next_key(), 17);
    let span = element(&mut m, atom::SPAN, Some(new_div));
    assert_eq!(m.key(span), key(17));
    assert_eq!(m.lookup(key(17)), Lookup::Held(span));
    assert_eq!(m.next_key(), 18);
    // The kept p lost its children (closed: nobody reads them).
    let new_p = remap.get(p).unwrap();
    assert!(children(&m, new_p).is_empty());
    assert_eq!(children(&m, new_div), [16, 17]);
    assert_eq!(children(&m, 1), [12, 15]);
}

#[test]
fn a_second_compaction_keeps_listed_and_arithmetic_keys() {
    let (mut m, [_, _, _, _, _, div, _]) = sample();
    let mut marks = Marks::new(&m);
    marks.expand(&m, div);
    let remap = m.compact(marks);
    let div = remap.get(div).unwrap();
    let span = element(&mut m, atom::SPAN, Some(div));
    let em = element(&mut m, atom::EM, Some(span));
    let mut marks = Marks::new(&m);
    marks.expand(&m, em);
    let remap = m.compact(marks);
    let em = remap.get(em).unwrap();
    assert_eq!(m.key(em), key(18));
    assert_eq!(m.lookup(key(17)), Lookup::Held(remap.get(span).unwrap()));
    assert_eq!(m.lookup(key(12)), Lookup::Held(remap.get(2).unwrap()));
    assert_eq!(m.lookup(key(16)), Lookup::Held(remap.get(4).unwrap()));
    assert_eq!(m.next_key(), 19);
    // Released after end of file: keys still answer, lookups find nothing.
    m.release();
    assert_eq!(m.key(em), key(18));
    assert_eq!(m.next_key(), 19);
    assert_eq!(m.lookup(key(18)), Lookup::Unknown);
}

#[test]
fn a_node_kept_alone_whose_parent_goes_is_an_orphan() {
    let (mut m, [_, html, p, i, b, div, _]) = sample();
    let mut marks = Marks::new(&m);
    marks.expand(&m, div);
    marks.keep(b);
    let remap = m.compact(marks);
    let b = remap.get(b).unwrap();
    // b's parent i was forgotten: b is an orphan now.
    assert_eq!(remap.get(i), None);
    assert_eq!(m.parent(b), None);
    // p is kept as html's child, without children.
    let p = remap.get(p).unwrap();
    assert_eq!(m.parent(p), remap.get(html));
    assert_eq!(m.get(p).and_then(|n| n.next()), remap.get(div));
}

#[test]
fn the_rare_element_data_and_template_contents_are_copied() {
    let mut m = Mirror::new(1);
    let doc = m.add(Kind::Document);
    let attrs = [PatchAttr::new("class", "x")];
    let b = m.add_element(
        Namespace::Html,
        atom::B,
        "b".into(),
        ElementAttrs::list(&attrs),
        false,
    );
    m.append(doc, b);
    let svg = m.add_element(
        Namespace::Svg,
        atom::FOREIGNOBJECT,
        "foreignObject".into(),
        ElementAttrs::none(),
        true,
    );
    m.append(b, svg);
    let template = element(&mut m, atom::TEMPLATE, Some(svg));
    let contents = m.add(Kind::Fragment);
    m.set_template_contents(template, contents);
    let t = m.add(Kind::Text);
    m.append(contents, t);
    let mut marks = Marks::new(&m);
    marks.expand(&m, template);
    let remap = m.compact(marks);
    let b = m.elem(remap.get(b).unwrap()).unwrap().clone();
    assert_eq!(m.attrs(&b), attrs.to_vec());
    let svg = m.elem(remap.get(svg).unwrap()).unwrap().clone();
    assert_eq!(m.qual(&svg), "foreignObject");
    assert!(svg.html_integration_point);
    // An expanded template's contents are expanded too.
    let template = m.elem(remap.get(template).unwrap()).unwrap().clone();
    let contents = template.contents().unwrap();
    assert_eq!(Some(contents), remap.get(4));
    assert_eq!(
        children(&m, contents),
        [m.key(remap.get(t).unwrap()).0.get()]
    );
}

#[test]
fn a_subtree_is_kept_whole() {
    let (mut m, [_, _, p, i, b, _, _]) = sample();
    let mut marks = Marks::new(&m);
    marks.expand_subtree(&m, p);
    let remap = m.compact(marks);
    // Not the div's text: the div is kept as html's child only.
    assert_eq!(m.len(), 6);
    let i = remap.get(i).unwrap();
    assert_eq!(m.parent(remap.get(b).unwrap()), Some(i));
    assert_eq!(children(&m, remap.get(p).unwrap()), [13]);
}
