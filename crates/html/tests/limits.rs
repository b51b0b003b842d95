//! Hostile shapes through the whole pipeline (bytes → patches → DomStore): they must
//! neither crash nor go quadratic. Nothing here asserts on time; a quadratic
//! regression shows up as a test that never finishes.

use tagloom_html::dom::{DomStore, NodeKind};
use tagloom_html::driver::{ParseConfig, parse_document};

fn parse(input: &[u8], chunk: usize) -> DomStore {
    let config = ParseConfig {
        chunk_size: chunk,
        ..ParseConfig::default()
    };
    parse_document(input, &config).unwrap()
}

#[test]
fn a_hundred_thousand_unclosed_divs() {
    let input = "<div>".repeat(100_000);
    let store = parse(input.as_bytes(), 64 * 1024);
    let divs = (1..=store.last_key().map_or(0, |k| k.get()))
        .filter_map(|k| tagloom_html::dom_patch::PatchKey::new(k).and_then(|k| store.get(k)))
        .filter(|n| n.as_element().is_some_and(|e| e.is_html("div")))
        .count();
    assert_eq!(
        divs, 100_000,
        "every div is in the tree (nested up to the depth limit, then siblings)"
    );
}

#[test]
fn a_hundred_thousand_attributes_on_one_element() {
    let mut input = String::from("<p");
    for i in 0..100_000 {
        input.push_str(&format!(" a{i}=v{i}"));
    }
    // And as many duplicates, which must be dropped without a quadratic search.
    for i in 0..100_000 {
        input.push_str(&format!(" a{i}=dup"));
    }
    input.push_str(">x");
    let store = parse(input.as_bytes(), 1 << 20);
    let p = (1..=store.last_key().map_or(0, |k| k.get()))
        .filter_map(|k| tagloom_html::dom_patch::PatchKey::new(k).and_then(|k| store.get(k)))
        .find_map(|n| {
            n.as_element()
                .filter(|e| e.is_html("p"))
                .map(|e| e.attrs().len())
        });
    assert_eq!(p, Some(100_000));
}

#[test]
fn deep_foreign_content_and_formatting_elements() {
    let mut input = String::new();
    input.push_str(&"<svg><g>".repeat(20_000));
    input.push_str(&"<b><i><a>".repeat(20_000));
    input.push_str(&"</p>".repeat(20_000));
    let store = parse(input.as_bytes(), 4096);
    assert!(store.len() > 60_000);
}

#[test]
fn a_megabyte_of_text_and_a_huge_comment_arrive_byte_by_byte() {
    let mut input = String::from("<p>");
    input.push_str(&"text &amp; more ".repeat(16_384));
    input.push_str("<!--");
    input.push_str(&"c".repeat(256 * 1024));
    input.push_str("-->");
    let store = parse(input.as_bytes(), 1);
    let comments = (1..=store.last_key().map_or(0, |k| k.get()))
        .filter_map(|k| tagloom_html::dom_patch::PatchKey::new(k).and_then(|k| store.get(k)))
        .filter(|n| matches!(n.kind(), NodeKind::Comment(c) if c.len() == 256 * 1024))
        .count();
    assert_eq!(comments, 1);
}

#[test]
fn a_selectedcontent_inside_its_own_selected_option_is_disabled() {
    // Cloning the option's children once walked the subtree it was growing (the
    // selectedcontent is inside the option): it never finished. Now such a
    // selectedcontent is disabled (an `option` ancestor), as in Chromium: nothing
    // is cloned into it.
    let store = parse(b"<select><option selected><selectedcontent>x</selectedcontent>y</option><option>z</select>", 7);
    let dump = tagloom_html::dom::dump_document(&store);
    assert!(
        dump.contains("|         <selectedcontent>\n|           \"x\"\n|         \"y\"\n"),
        "{dump}"
    );
    let mut input = String::from("<select>");
    input.push_str(&"<option><selectedcontent>x</option>".repeat(200));
    let store = parse(input.as_bytes(), 4096);
    assert!(store.len() < 10_000, "{} nodes", store.len());
}

#[test]
fn deep_stacks_answer_scope_checks_without_walking() {
    // Past the depth limit elements are still opened, so the stack of open
    // elements grows with the input: each shape makes a per-token walk of the
    // stack (scope check, "any other end tag", the `li` loop, the reset of the
    // insertion mode, foreign end tags) quadratic if one comes back.
    let n = 50_000;
    let shapes = [
        format!("<p><button>{}", "<div>".repeat(n)),
        format!("{}{}", "<span>".repeat(n), "</x>".repeat(n)),
        format!("{}{}", "<div>".repeat(n), "<li></li>".repeat(n)),
        format!("{}{}", "<div>".repeat(n), "<table></table>".repeat(n)),
        format!("<svg>{}{}", "<g>".repeat(n), "</x>".repeat(n)),
        format!("{}{}", "<div>".repeat(n), "</body><p>".repeat(n)),
    ];
    for input in shapes {
        let store = parse(input.as_bytes(), 1 << 20);
        assert!(store.len() > n, "{} nodes", store.len());
    }
}
