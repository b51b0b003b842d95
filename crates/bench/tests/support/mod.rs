//! Test support of the differential tests: the html5lib tree-construction dump of an
//! html5ever `RcDom` (the format of html5lib-tests' `tree-construction/README.md`,
//! the one `tagloom_html::dom::dump_document` writes), both parsers' dumps from
//! bytes, and a line diff for messages.

use std::cmp::Ordering;
use std::fmt::Write;

use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{Attribute, ParseOpts, ns, parse_document};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use tagloom_bench::{parse_config, tagloom_parse};
use tagloom_html::dom;

/// html5ever's tree of a document given as bytes (decoded as UTF-8, replacing
/// malformed sequences as html5ever's `from_utf8` does), dumped. `scripting` is
/// html5ever's `scripting_enabled` (on by default).
pub fn html5ever_dump_bytes(bytes: &[u8], scripting: bool) -> String {
    let dom = parse_document(RcDom::default(), opts(scripting))
        .from_utf8()
        .one(bytes);
    dump_rcdom(&dom)
}

/// html5ever's tree of a document given as text, dumped.
pub fn html5ever_dump_str(text: &str, scripting: bool) -> String {
    let dom = parse_document(RcDom::default(), opts(scripting)).one(StrTendril::from(text));
    dump_rcdom(&dom)
}

fn opts(scripting: bool) -> ParseOpts {
    ParseOpts {
        tree_builder: TreeBuilderOpts {
            scripting_enabled: scripting,
            ..TreeBuilderOpts::default()
        },
        ..ParseOpts::default()
    }
}

/// tagloom's tree of a document given as bytes (UTF-8 as the transport encoding,
/// so nothing is sniffed), dumped with `dump_document`.
pub fn tagloom_dump_bytes(bytes: &[u8], scripting: bool) -> String {
    dom::dump_document(&tagloom_parse(bytes, parse_config(scripting)))
}

/// The html5lib dump of an `RcDom` document: its children at depth 0.
pub fn dump_rcdom(dom: &RcDom) -> String {
    let mut out = String::new();
    for child in dom.document.children.borrow().iter() {
        dump_node(child, 0, &mut out);
    }
    out
}

fn start_line(out: &mut String, depth: usize) {
    out.push_str("| ");
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn dump_node(node: &Handle, depth: usize, out: &mut String) {
    start_line(out, depth);
    match &node.data {
        // Neither occurs below the document in a parsed tree.
        NodeData::Document => out.push_str("#document\n"),
        NodeData::ProcessingInstruction { target, contents } => {
            let _ = writeln!(out, "<?{target} {contents}>");
        }
        NodeData::Doctype {
            name,
            public_id,
            system_id,
        } => {
            let _ = write!(out, "<!DOCTYPE {name}");
            if !public_id.is_empty() || !system_id.is_empty() {
                let _ = write!(out, " \"{public_id}\" \"{system_id}\"");
            }
            out.push_str(">\n");
        }
        NodeData::Text { contents } => {
            let _ = writeln!(out, "\"{}\"", contents.borrow());
        }
        NodeData::Comment { contents } => {
            let _ = writeln!(out, "<!-- {contents} -->");
        }
        NodeData::Element {
            name,
            attrs,
            template_contents,
            ..
        } => {
            let designator = if name.ns == ns!(html) {
                ""
            } else if name.ns == ns!(svg) {
                "svg "
            } else if name.ns == ns!(mathml) {
                "math "
            } else {
                // Not produced by the HTML parser; keep it visible.
                "?ns "
            };
            let _ = writeln!(out, "<{designator}{}>", name.local);
            let mut printed: Vec<(String, String)> = attrs
                .borrow()
                .iter()
                .map(|attr| (attr_name(attr), attr.value.to_string()))
                .collect();
            printed.sort_by(|a, b| utf16_cmp(&a.0, &b.0));
            for (name, value) in printed {
                start_line(out, depth + 1);
                let _ = writeln!(out, "{name}=\"{value}\"");
            }
            if let Some(contents) = template_contents.borrow().as_ref() {
                start_line(out, depth + 1);
                out.push_str("content\n");
                for child in contents.children.borrow().iter() {
                    dump_node(child, depth + 2, out);
                }
            }
        }
    }
    for child in node.children.borrow().iter() {
        dump_node(child, depth + 1, out);
    }
}

/// The README's printed attribute name: `xlink href`, `xml lang`, `xmlns xlink`
/// for the adjusted foreign attributes (by namespace, whatever the prefix), else
/// the local name.
fn attr_name(attr: &Attribute) -> String {
    let ns = &attr.name.ns;
    let designator = if *ns == ns!() {
        ""
    } else if *ns == ns!(xlink) {
        "xlink "
    } else if *ns == ns!(xml) {
        "xml "
    } else if *ns == ns!(xmlns) {
        "xmlns "
    } else {
        "?ns "
    };
    format!("{designator}{}", attr.name.local)
}

/// Orders by UTF-16 code units, as the README asks for attribute names.
fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// `None` when equal, else the first differing line (1-based) with `context`
/// lines around it from both sides.
pub fn first_difference(ours: &str, theirs: &str, context: usize) -> Option<String> {
    if ours == theirs {
        return None;
    }
    let a: Vec<&str> = ours.lines().collect();
    let b: Vec<&str> = theirs.lines().collect();
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = at.saturating_sub(context);
    let mut msg = format!(
        "first difference at dump line {} (tagloom {} lines, html5ever {} lines)\n",
        at + 1,
        a.len(),
        b.len()
    );
    for (label, lines) in [("tagloom", &a), ("html5ever", &b)] {
        let _ = writeln!(msg, "  --- {label}");
        for (i, line) in lines.iter().enumerate().skip(from).take(2 * context + 1) {
            let mark = if i == at { ">" } else { " " };
            let shown: String = line.chars().take(160).collect();
            let _ = writeln!(msg, "  {mark}{:6} {shown}", i + 1);
        }
    }
    Some(msg)
}
