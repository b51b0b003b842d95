//! HTML serialization of the owned tree (the HTML fragment serialization
//! algorithm's escaping; a newline kept after `<pre>` when the text starts with
//! one, since a parser drops the first).
//!
//! A page's tree is written by [`serialize_page`], which makes the page's last
//! pass (Parsoid's empty-element flag and French spacing,
//! [`super::flag_empty_and_display_space`]) while writing: no walk of its own,
//! no child list rebuilt, no span made for an armored space.

use tagloom_html::dom_patch::Namespace;
use tagloom_html::serializer::{EscapeMode, Utf8Bytes, serializes_as_void};

use super::{Node, cleanup, display_space};
use crate::transform::links::{Derived, red_link_title};

/// Appends the HTML of `nodes` to `out`. The HTML is built as bytes (the
/// escaping's fastest form) that are only ever whole text ([`Utf8Bytes`]:
/// no check of the page's bytes at the end).
#[cfg(test)]
pub(crate) fn serialize(nodes: &[Node], out: &mut String) {
    into_string(out, |bytes| write_nodes(nodes, bytes, false));
}

/// [`serialize`] for a page's tree after its other DOM passes: writes what
/// [`super::flag_empty_and_display_space`] would make of it (each element
/// flagged or cleaned up before its children are looked at, each text armored
/// as one), without changing it.
pub(crate) fn serialize_page(nodes: &[Node], out: &mut String) {
    into_string(out, |bytes| write_nodes(nodes, bytes, true));
}

fn into_string(out: &mut String, write: impl FnOnce(&mut Utf8Bytes)) {
    let mut bytes = Utf8Bytes::from(std::mem::take(out));
    write(&mut bytes);
    *out = bytes.into_string();
}

/// Where a node is, for the page's last pass: inside template output (an
/// ancestor has an `about`: some children are dropped), and whether its text
/// is armored (not inside `pre` and the like, and only when writing a page).
#[derive(Clone, Copy)]
struct Context {
    in_tpl: bool,
    spacing: bool,
}

/// A list of nodes being written: the top-level list, or an open element's
/// children (its end tag, written when they are done: a known name's as one
/// piece, told when its start tag was, any other's from its name).
struct Frame<'a> {
    rest: std::slice::Iter<'a, Node>,
    cx: Context,
    end_tag: &'static str,
    end_name: Option<&'a str>,
}

/// Frames [`write_nodes`]' stack has room for before it grows (the depth).
const STACK_ROOM: usize = 64;

/// Appends the HTML of `nodes` to `out` (iterative: the tree may be deep);
/// `page`: with the page's last pass ([`serialize_page`]). One frame per
/// open element, whose children are taken from it in order (none is copied
/// onto the stack).
fn write_nodes(nodes: &[Node], out: &mut Utf8Bytes, page: bool) {
    let mut stack: Vec<Frame<'_>> = Vec::with_capacity(STACK_ROOM);
    stack.push(Frame {
        rest: nodes.iter(),
        cx: Context {
            in_tpl: false,
            spacing: page,
        },
        end_tag: "",
        end_name: None,
    });
    while let Some(frame) = stack.last_mut() {
        let cx = frame.cx;
        let Some(node) = frame.rest.next() else {
            if let Some(name) = frame.end_name {
                write_end(out, frame.end_tag, name);
            }
            stack.pop();
            continue;
        };
        // Inside template output the page's pass drops some children.
        if cx.in_tpl && cleanup::removed(node) {
            continue;
        }
        match node {
            Node::Text(t) => write_text(out, t, cx.spacing),
            Node::Comment(c) => {
                out.push_str("<!--");
                out.push_str(c);
                out.push_str("-->");
            }
            Node::Element(e) => {
                let (props, end_tag) = write_tag_open(out, &e.name);
                // Whether it has the attribute that starts template output
                // ([`cleanup::in_template`]), told by the names' match.
                let mut template = false;
                // A red link's title, looked up at the first empty attribute
                // that may stand for a derived value: one pass for its `href`
                // and its `data-mw-i18n`.
                let mut red: Option<Option<&str>> = None;
                // Whether a value's closing quote is not written yet (it
                // goes with the next piece: one push less an attribute).
                let mut quote = false;
                for (k, v) in &e.attrs {
                    template |= write_attr_open(out, k, quote);
                    let derived = if v.is_empty() && Derived::derivable(k) {
                        red.get_or_insert_with(|| red_link_title(&e.attrs))
                            .and_then(|title| Derived::named(k, title))
                    } else {
                        None
                    };
                    match derived {
                        Some(derived) => derived.write(out),
                        None => out.push_escaped(v, EscapeMode::DoubleQuoted),
                    }
                    quote = true;
                }
                if quote {
                    out.push_str("\">");
                } else if page && props.flaggable && cleanup::flags_flaggable(e) {
                    // [`cleanup::flags`] (no attributes), the name's test
                    // already made.
                    out.push_str(" class=\"");
                    out.push_str(cleanup::EMPTY_CLASS);
                    out.push_str("\">");
                } else {
                    out.push_ascii(b'>');
                }
                if props.void {
                    continue;
                }
                let in_tpl = page && (cx.in_tpl || template);
                if props.newline_kept
                    && matches!(
                        e.children.iter().find(|c| !(in_tpl && cleanup::removed(c))),
                        Some(Node::Text(t)) if t.starts_with('\n')
                    )
                {
                    out.push_ascii(b'\n');
                }
                let spacing = cx.spacing && !props.keeps_spaces;
                // No children or one text (a link's, a bold's): written
                // whole, no frame pushed and popped.
                match e.children.as_slice() {
                    [] => {
                        write_end(out, end_tag, &e.name);
                        continue;
                    }
                    [Node::Text(t)] => {
                        write_text(out, t, spacing);
                        write_end(out, end_tag, &e.name);
                        continue;
                    }
                    _ => {}
                }
                stack.push(Frame {
                    rest: e.children.iter(),
                    cx: Context { in_tpl, spacing },
                    end_tag,
                    end_name: Some(&e.name),
                });
            }
        }
    }
}

/// What the serializer needs to know of an element from its name (looked up
/// once, with its start tag's first piece: [`write_tag_open`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Props {
    /// No end tag, no children written ([`serializes_as_void`]).
    void: bool,
    /// A leading newline of the first child is doubled (`pre` and the like).
    newline_kept: bool,
    /// Its text keeps its spaces ([`display_space::keeps_spaces`]).
    keeps_spaces: bool,
    /// It may get the empty-element class ([`cleanup::flaggable`]).
    flaggable: bool,
}

impl Props {
    /// An element none of the tests holds for.
    const PLAIN: Props = Props {
        void: false,
        newline_kept: false,
        keeps_spaces: false,
        flaggable: false,
    };
    /// A void element.
    const VOID: Props = Props {
        void: true,
        ..Props::PLAIN
    };
    /// An element the empty-element class may flag.
    const FLAG: Props = Props {
        flaggable: true,
        ..Props::PLAIN
    };

    /// The properties of any element, from their homes.
    fn of(name: &str) -> Props {
        Props {
            void: serializes_as_void(Namespace::Html, name),
            newline_kept: matches!(name, "pre" | "textarea" | "listing"),
            keeps_spaces: display_space::keeps_spaces(name),
            flaggable: cleanup::flaggable(name),
        }
    }
}

/// The element and attribute names written most (the 111 articles: `a`,
/// `span`, `li`, `sup`, `td` … `class`, `href`, `rel` …): each start tag's
/// `<name`, end tag and attribute's ` name="` is one constant piece, copied
/// without a call, where the general form writes three pieces, the name by
/// a call. The match costs a few comparisons of the name's length and bytes.
macro_rules! known_names {
    (elements: $($el:literal => $props:expr),* ; attributes: $($at:literal),* $(,)?) => {
        /// Writes `<name` and says what the element is ([`Props`]), and
        /// its end tag when the name is known (else `""`: [`write_end_tag`]).
        #[inline(always)]
        fn write_tag_open(out: &mut Utf8Bytes, name: &str) -> (Props, &'static str) {
            match name {
                $($el => {
                    out.push_str(concat!("<", $el));
                    ($props, concat!("</", $el, ">"))
                })*
                _ => {
                    out.push_ascii(b'<');
                    out.push_str(name);
                    (Props::of(name), "")
                }
            }
        }

        /// Writes ` name="`, after the quote that closes the value before
        /// when `quote`; whether `name` is [`cleanup::TEMPLATE_ATTR`] (a
        /// constant in each known name's arm).
        #[inline(always)]
        fn write_attr_open(out: &mut Utf8Bytes, name: &str, quote: bool) -> bool {
            match name {
                $($at => {
                    if quote {
                        out.push_str(concat!("\" ", $at, "=\""));
                    } else {
                        out.push_str(concat!(" ", $at, "=\""));
                    }
                    $at == cleanup::TEMPLATE_ATTR
                })*
                _ => {
                    if quote {
                        out.push_str("\" ");
                    } else {
                        out.push_ascii(b' ');
                    }
                    out.push_str(name);
                    out.push_str("=\"");
                    name == cleanup::TEMPLATE_ATTR
                }
            }
        }

        /// The known elements and what they are said to be (the tests check
        /// it against [`Props::of`]).
        #[cfg(test)]
        const KNOWN_ELEMENTS: &[(&str, Props)] = &[$(($el, $props)),*];

        /// The known attribute names.
        #[cfg(test)]
        const KNOWN_ATTRIBUTES: &[&str] = &[$($at),*];
    };
}

known_names! {
    elements:
        "a" => Props::PLAIN,
        "span" => Props::PLAIN,
        "li" => Props::FLAG,
        "sup" => Props::PLAIN,
        "td" => Props::PLAIN,
        "i" => Props::PLAIN,
        "p" => Props::FLAG,
        "tr" => Props::FLAG,
        "br" => Props::VOID,
        "b" => Props::PLAIN,
        "h2" => Props::PLAIN,
        "h3" => Props::PLAIN,
        "link" => Props::VOID,
        "meta" => Props::VOID,
        "ul" => Props::PLAIN,
        "th" => Props::PLAIN,
        "sub" => Props::PLAIN,
        "dd" => Props::PLAIN,
        "dl" => Props::PLAIN,
        "ol" => Props::PLAIN,
        "div" => Props::PLAIN,
        "tbody" => Props::FLAG,
        "table" => Props::PLAIN;
    attributes:
        "class", "href", "rel", "typeof", "title", "id", "data-mw", "about",
        "data-mw-i18n", "data-mw-footnote-number", "style",
}

/// Writes an element's end tag: `end_tag` when [`write_tag_open`] knew its
/// name, else from `name`.
#[inline(always)]
fn write_end(out: &mut Utf8Bytes, end_tag: &str, name: &str) {
    if end_tag.is_empty() {
        write_end_tag(out, name);
    } else {
        out.push_str(end_tag);
    }
}

/// Writes a text node, its spaces armored when `spacing` ([`write_armored`]).
#[inline(always)]
fn write_text(out: &mut Utf8Bytes, text: &str, spacing: bool) {
    if spacing {
        write_armored(out, text);
    } else {
        out.push_escaped(text, EscapeMode::Text);
    }
}

/// Writes `</name>` (an element whose name [`write_tag_open`] does not know).
fn write_end_tag(out: &mut Utf8Bytes, name: &str) {
    out.push_str("</");
    out.push_str(name);
    out.push_ascii(b'>');
}

/// `text` escaped, its spaces armored ([`display_space::spaces`]) as the
/// span French spacing makes.
fn write_armored(out: &mut Utf8Bytes, text: &str) {
    if !display_space::may_armor(text) {
        out.push_escaped(text, EscapeMode::Text);
        return;
    }
    let positions = display_space::spaces(text);
    if positions.is_empty() {
        out.push_escaped(text, EscapeMode::Text);
        return;
    }
    let mut from = 0;
    for p in positions {
        out.push_escaped(text.get(from..p).unwrap_or(""), EscapeMode::Text);
        out.push_str(display_space::ARMORED_HTML);
        from = p + 1;
    }
    out.push_escaped(text.get(from..).unwrap_or(""), EscapeMode::Text);
}

#[cfg(test)]
mod tests {
    use super::super::{Element, Node, flag_empty_and_display_space};
    use tagloom_html::serializer::Utf8Bytes;

    use super::{
        KNOWN_ATTRIBUTES, KNOWN_ELEMENTS, Props, serialize, serialize_page, write_attr_open,
        write_end_tag, write_tag_open,
    };

    fn el(name: &'static str, attrs: &[(&'static str, &str)], children: Vec<Node>) -> Node {
        let mut e = Element::new(name);
        e.attrs = attrs
            .iter()
            .map(|(k, v)| ((*k).into(), (*v).to_owned().into()))
            .collect();
        e.children = children;
        Node::Element(e)
    }

    fn text(s: &str) -> Node {
        Node::Text(s.to_owned().into())
    }

    /// The known names' pieces and properties are the general ones.
    #[test]
    fn known_names_are_written_as_any_other() {
        for &(name, props) in KNOWN_ELEMENTS {
            assert_eq!(props, Props::of(name), "{name}");
            let mut known = Utf8Bytes::default();
            let (_, end_tag) = write_tag_open(&mut known, name);
            known.push_str(end_tag);
            assert_eq!(known.into_string(), format!("<{name}</{name}>"));
        }
        for &name in KNOWN_ATTRIBUTES {
            let mut known = Utf8Bytes::default();
            assert_eq!(write_attr_open(&mut known, name, false), name == "about");
            assert_eq!(write_attr_open(&mut known, name, true), name == "about");
            assert_eq!(known.into_string(), format!(" {name}=\"\" {name}=\""));
        }
        let mut other = Utf8Bytes::default();
        assert_eq!(write_tag_open(&mut other, "pre"), (Props::of("pre"), ""));
        write_end_tag(&mut other, "pre");
        write_attr_open(&mut other, "lang", false);
        write_attr_open(&mut other, "dir", true);
        assert_eq!(other.into_string(), "<pre</pre> lang=\"\" dir=\"");
    }

    /// The page's serializer writes what the pass and the plain serializer
    /// make together.
    #[test]
    fn the_page_serializer_makes_the_last_pass() {
        let tree = vec![
            text("a : b « c » d"),
            el("p", &[], vec![]),
            el("p", &[], vec![text(" \n"), el("meta", &[], vec![])]),
            el(
                "div",
                &[("about", "#mwt1")],
                vec![
                    el("li", &[], vec![]),
                    el("li", &[("about", "#mwt1")], vec![text(" ")]),
                    el("li", &[], vec![Node::Comment("c".into())]),
                    el("tr", &[("typeof", "mw:Transclusion")], vec![]),
                    el("ul", &[], vec![el("li", &[], vec![]), text("x ?")]),
                ],
            ),
            el(
                "pre",
                &[],
                vec![text("\nkeep : this"), el("b", &[], vec![text("y !")])],
            ),
            el(
                "listing",
                &[("about", "#mwt2")],
                vec![el("tr", &[], vec![]), text("\nz ;")],
            ),
            el(
                "ul",
                &[],
                vec![el("li", &[], vec![el("p", &[], vec![text("\t")])])],
            ),
            el("span", &[], vec![text("50 %"), text("?")]),
            // One text child or none (no frame), attributes' quotes.
            el(
                "a",
                &[("href", "./X"), ("title", "X \"y\""), ("lang", "fr")],
                vec![text("« b »")],
            ),
            el("p", &[("class", "c")], vec![]),
            el("bdi", &[("dir", "ltr")], vec![text("x ?")]),
            el("pre", &[], vec![text("\nz ?")]),
            el("tr", &[("id", "r")], vec![el("td", &[], vec![])]),
        ];
        let mut passed = tree.clone();
        flag_empty_and_display_space(&mut passed);
        let mut expected = String::new();
        serialize(&passed, &mut expected);
        let mut html = String::new();
        serialize_page(&tree, &mut html);
        assert_eq!(html, expected);
        assert!(html.contains("mw-empty-elt") && html.contains("DisplaySpace"));
    }
}
