//! Reads an html5lib tree dump back into `DomPatch`es: the inverse of
//! `tagloom_html::dom::dump_document`, used to check the dump against every
//! expected tree of the tree-construction suite (and handy for building fixtures).

use tagloom_html::dom_patch::{AttrNamespace, DomPatch, Namespace, PatchAttr, PatchKey};

enum Kind {
    Doctype(String, String, String),
    Element(Namespace, String, Vec<PatchAttr>),
    Text(String),
    Comment(String),
}

struct Parsed {
    depth: usize,
    /// Index of the parent node (None: a top-level node).
    parent: Option<usize>,
    /// Inside the parent's template contents rather than its children.
    in_contents: bool,
    kind: Kind,
}

/// A dump's logical lines: a node's line plus the continuation lines of
/// multi-line text, comments or attribute values (lines not starting with `| `).
fn logical_lines(dump: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for line in dump.strip_suffix('\n').unwrap_or(dump).split('\n') {
        match lines.last_mut() {
            Some(last) if !line.starts_with("| ") => {
                last.push('\n');
                last.push_str(line);
            }
            _ => lines.push(line.to_owned()),
        }
    }
    lines
}

fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    s.strip_prefix(open)?.strip_suffix(close)
}

/// Parses `dump` and returns the patches that rebuild it under `root` (an existing
/// document or element), creating keys from `first_key` on.
pub fn patches(dump: &str, root: PatchKey, first_key: u64) -> Result<Vec<DomPatch>, String> {
    let mut nodes: Vec<Parsed> = Vec::new();
    // (depth, node index, whether that entry is a template's `content` line)
    let mut open: Vec<(usize, usize, bool)> = Vec::new();
    for line in logical_lines(dump) {
        let body = line
            .strip_prefix("| ")
            .ok_or_else(|| format!("bad line {line:?}"))?;
        let content = body.trim_start_matches(' ');
        let spaces = body.len() - content.len();
        if spaces % 2 != 0 {
            return Err(format!("odd indentation: {line:?}"));
        }
        let depth = spaces / 2;
        while open.last().is_some_and(|&(d, _, _)| d >= depth) {
            open.pop();
        }
        let parent = open.last().copied();
        if parent.is_some_and(|(d, _, _)| d + 1 != depth) {
            return Err(format!("indentation jumps: {line:?}"));
        }
        let kind = if let Some(inner) = between(content, "<!DOCTYPE ", ">") {
            match inner.split_once(" \"") {
                Some((name, ids)) => {
                    let (public_id, system_id) = ids
                        .strip_suffix('"')
                        .and_then(|ids| ids.split_once("\" \""))
                        .ok_or_else(|| format!("bad DOCTYPE {line:?}"))?;
                    Kind::Doctype(name.into(), public_id.into(), system_id.into())
                }
                None => Kind::Doctype(inner.into(), String::new(), String::new()),
            }
        } else if let Some(data) = between(content, "<!-- ", " -->") {
            Kind::Comment(data.into())
        } else if let Some(name) = between(content, "<", ">") {
            let (ns, name) = if let Some(n) = name.strip_prefix("svg ") {
                (Namespace::Svg, n)
            } else if let Some(n) = name.strip_prefix("math ") {
                (Namespace::MathMl, n)
            } else {
                (Namespace::Html, name)
            };
            Kind::Element(ns, name.into(), Vec::new())
        } else if let Some(text) = between(content, "\"", "\"") {
            Kind::Text(text.into())
        } else if content == "content" {
            let (_, template, _) = parent.ok_or("content without a template")?;
            open.push((depth, template, true));
            continue;
        } else {
            let (name, value) = content
                .split_once("=\"")
                .and_then(|(n, v)| Some((n, v.strip_suffix('"')?)))
                .ok_or_else(|| format!("unrecognised line {line:?}"))?;
            let (ns, name) = match name.split_once(' ') {
                Some(("xlink", n)) => (AttrNamespace::XLink, n),
                Some(("xml", n)) => (AttrNamespace::Xml, n),
                Some(("xmlns", n)) => (AttrNamespace::Xmlns, n),
                _ => (AttrNamespace::None, name),
            };
            let (_, owner, _) = parent.ok_or("attribute without an element")?;
            match nodes.get_mut(owner).map(|n| &mut n.kind) {
                Some(Kind::Element(_, _, attrs)) => attrs.push(PatchAttr {
                    ns,
                    name: name.to_owned().into(),
                    value: value.into(),
                }),
                _ => return Err(format!("attribute of a non-element: {line:?}")),
            }
            continue;
        };
        let is_element = matches!(kind, Kind::Element(..));
        nodes.push(Parsed {
            depth,
            parent: parent.map(|(_, p, _)| p),
            in_contents: parent.is_some_and(|(_, _, c)| c),
            kind,
        });
        if is_element {
            open.push((depth, nodes.len() - 1, false));
        }
    }
    emit(nodes, root, first_key)
}

fn emit(nodes: Vec<Parsed>, root: PatchKey, first_key: u64) -> Result<Vec<DomPatch>, String> {
    let mut next = first_key;
    let mut alloc = || {
        let key = PatchKey::new(next).ok_or("key 0");
        next += 1;
        key
    };
    // (key, template contents key) per node
    let mut keys: Vec<(PatchKey, Option<PatchKey>)> = Vec::new();
    let mut out = Vec::new();
    for node in nodes {
        let key = alloc()?;
        let mut contents = None;
        out.push(match node.kind {
            Kind::Doctype(name, public_id, system_id) => DomPatch::CreateDoctype {
                key,
                name,
                public_id,
                system_id,
            },
            Kind::Text(text) => DomPatch::CreateText { key, text },
            Kind::Comment(text) => DomPatch::CreateComment { key, text },
            Kind::Element(ns, name, attrs) => {
                if ns == Namespace::Html && name == "template" {
                    contents = Some(alloc()?);
                }
                DomPatch::CreateElement {
                    key,
                    ns,
                    name: name.into(),
                    attrs,
                    contents,
                }
            }
        });
        keys.push((key, contents));
        let parent = match node.parent {
            None => root,
            Some(p) => {
                let (parent, parent_contents) = keys.get(p).copied().ok_or("bad parent")?;
                if node.in_contents {
                    parent_contents.ok_or("content of a non-template")?
                } else {
                    parent
                }
            }
        };
        out.push(DomPatch::AppendChild { parent, child: key });
    }
    Ok(out)
}
