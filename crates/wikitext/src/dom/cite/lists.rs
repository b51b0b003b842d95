//! The `<references>` list (Cite's `insertReferencesIntoDOM` and
//! `renderReferenceListElement`): a `<div class="mw-references-wrap">` around
//! an `<ol class="mw-references references">` with one `<li>` per footnote.

use super::errors::{CiteError, error_span, errors_json};
use super::model::{State, number_text};
use super::placeholder::Tag;
use super::validate;
use super::{Element, Node, attr, attrs_json_into, element, placeholder, serialize, text};
use crate::dom::Value;
use crate::transclusion::json_into;

/// Lists with more footnotes than this get `mw-references-columns`.
const RESPONSIVE_THRESHOLD: usize = 10;

/// What a list is made from.
pub(super) struct ListSource<'a> {
    pub(super) attrs: &'a [(String, String)],
    /// Attributes other passes put on the placeholder (`about`, `typeof`).
    pub(super) extra: &'a [crate::dom::Attr],
    pub(super) self_closed: bool,
    /// The body's wikitext.
    pub(super) src: Option<&'a str>,
    /// The transclusion's parts when the tag came from a template.
    pub(super) parts: Option<&'a str>,
    /// The tag is (in) a template's output wrapper: its body is kept as source.
    pub(super) template: bool,
    /// The tag came from a template.
    pub(super) templated: bool,
    /// `responsive="…"` (`None`: not given, responsive).
    pub(super) responsive: Option<bool>,
    /// The tag's own errors (bad parameters).
    pub(super) errors: Vec<CiteError>,
    /// Made at the end of the page for refs no `<references>` took.
    pub(super) auto: bool,
}

/// The finished `<sup>`s of the refs under `nodes` (the list's body), each
/// serialized and followed by a newline.
fn nested_refs_html(state: &State, nodes: &mut [Node]) -> String {
    let mut out = String::new();
    let mut stack: Vec<std::slice::IterMut<'_, Node>> = vec![nodes.iter_mut()];
    while let Some(it) = stack.last_mut() {
        let Some(node) = it.next() else {
            stack.pop();
            continue;
        };
        let is_use = matches!(&*node, Node::Element(e) if e.name == "sup" && e.attr(placeholder::USE).is_some());
        if is_use {
            state.finalize(std::slice::from_mut(node));
            out.push_str(&serialize(std::slice::from_ref(node)));
            out.push('\n');
            continue;
        }
        if let Node::Element(e) = node {
            stack.push(e.children.iter_mut());
        }
    }
    out
}

impl State {
    /// One `<references>`: its list (or nothing when nested in another list).
    pub(super) fn references(&mut self, tag: Tag) -> Node {
        if self.page.is_empty() {
            self.page.clone_from(&self.bodies.borrow().page);
        }
        let mut errs = Vec::new();
        let (group, responsive) =
            validate::check_references(&tag.attrs, tag.src.as_deref(), &mut errs);
        self.learn_labels(&group, &tag.labels);
        let nested = self.list_group.is_some();
        if !nested {
            self.list_group = Some(group.clone());
        }
        let mut body = self.bodies.borrow_mut().get(tag.body);
        self.embedded += 1;
        self.hoist(&mut body);
        self.walk(&mut body);
        self.embedded -= 1;
        if nested {
            // Its refs were processed; the list itself is the outer one's.
            return element("span", Vec::new(), body);
        }
        self.list_group = None;
        self.list(
            &group,
            ListSource {
                attrs: &tag.attrs,
                extra: &tag.extra,
                self_closed: tag.self_closed(),
                src: tag.src.as_deref(),
                parts: tag.parts(),
                template: tag.parts().is_some() || tag.in_wrapper,
                templated: tag.in_wrapper || tag.extra.iter().any(|(k, _)| k == "about"),
                responsive,
                errors: errs,
                auto: false,
            },
            &mut body,
        )
    }

    /// Lists for the groups no `<references>` took, at the end of the page.
    pub(super) fn auto_generated(&mut self, nodes: &mut Vec<Node>) {
        while let Some(name) = self.first_group_name() {
            let attrs = if name.is_empty() {
                Vec::new()
            } else {
                vec![("group".to_owned(), name.clone())]
            };
            let list = self.list(
                &name,
                ListSource {
                    attrs: &attrs,
                    extra: &[],
                    self_closed: true,
                    src: None,
                    parts: None,
                    template: false,
                    templated: false,
                    responsive: None,
                    errors: Vec::new(),
                    auto: true,
                },
                &mut Vec::new(),
            );
            nodes.push(text("\n"));
            nodes.push(list);
        }
    }

    /// Builds the list of `group` (and forgets the group).
    pub(super) fn list(&mut self, group: &str, src: ListSource<'_>, body: &mut [Node]) -> Node {
        let gi = self.groups.iter().position(|g| g.name == group);
        let items: Vec<usize> = gi
            .and_then(|g| self.groups.get(g))
            .map(|g| g.items.clone())
            .unwrap_or_default();
        // Named refs never given a text.
        for &i in &items {
            let Some(it) = self.items.get(i) else {
                continue;
            };
            if let (Some(name), None) = (&it.name, &it.content) {
                let err = CiteError::with("cite_error_references_no_text", &[name]);
                for &u in it.nodes.iter().chain(&it.embedded).collect::<Vec<_>>() {
                    if let Some(use_) = self.uses.get_mut(u) {
                        use_.errors.push(err.clone());
                    }
                }
            }
        }
        let nested = nested_refs_html(self, body);
        let mut errors = src.errors;
        let mut data_mw = String::from("{\"name\":\"references\",\"attrs\":");
        attrs_json_into(src.attrs, &mut data_mw);
        let parts = src.parts;
        let template = src.template;
        if src.auto {
            data_mw.push_str(",\"autoGenerated\":true");
        } else if !template && !nested.is_empty() {
            data_mw.push_str(",\"body\":{\"html\":");
            json_into(&format!("\n{nested}"), &mut data_mw);
            data_mw.push('}');
        } else if !template && !src.self_closed {
            data_mw.push_str(",\"body\":{\"html\":\"\"}");
        } else if let (true, Some(body)) = (template, src.src) {
            data_mw.push_str(",\"body\":{\"extsrc\":");
            json_into(body, &mut data_mw);
            data_mw.push('}');
        }

        let mut ol = Element::new("ol");
        ol.children.reserve_exact(2 * items.len());
        ol.attrs.push(attr("class", "mw-references references"));
        if !group.is_empty() {
            ol.attrs.push(attr("data-mw-group", group.to_owned()));
        }
        for &i in &items {
            ol.children.push(self.list_item(i));
            ol.children.push(text("\n"));
        }
        let mut after_ol: Vec<Node> = Vec::new();
        let responsive = src.responsive != Some(false);
        let list_errors = gi
            .and_then(|g| self.groups.get_mut(g))
            .map(|g| std::mem::take(&mut g.list_errors))
            .unwrap_or_default();
        for (n, err) in list_errors.iter().enumerate() {
            if responsive && n > 0 {
                after_ol.push(element("br", Vec::new(), Vec::new()));
                after_ol.push(text("\n"));
            }
            after_ol.push(error_span(err));
        }
        // The tag's own (last) error is shown after the list.
        if let Some(err) = errors.last() {
            after_ol.push(error_span(err));
        }
        if src.auto && !group.is_empty() && !items.is_empty() {
            let err = CiteError::with("cite_error_group_refs_without_references", &[group]);
            after_ol.push(error_span(&err));
            errors.push(err);
        }
        if !errors.is_empty() {
            data_mw.push_str(",\"errors\":");
            data_mw.push_str(&errors_json(&errors));
        }
        if let Some(parts) = parts {
            data_mw.push_str(",\"parts\":");
            data_mw.push_str(parts);
        }
        data_mw.push('}');
        let mut ty = String::from("mw:Extension/references");
        if !errors.is_empty() {
            ty.push_str(" mw:Error");
        }
        if parts.is_some() {
            ty.push_str(" mw:Transclusion");
        }
        let mut wrapper_attrs: Vec<crate::dom::Attr> = src
            .extra
            .iter()
            .filter(|(k, _)| k == "about")
            .cloned()
            .collect();
        wrapper_attrs.push(attr("typeof", ty));
        wrapper_attrs.push(attr("data-mw", data_mw));
        if let Some(g) = gi {
            self.groups.remove(g);
        }
        if items.is_empty() && src.templated {
            self.drops = true;
            wrapper_attrs.push(attr(placeholder::DROP, "1"));
        }
        if responsive {
            let mut class = String::from("mw-references-wrap");
            if items.len() > RESPONSIVE_THRESHOLD {
                class.push_str(" mw-references-columns");
            }
            let mut children = vec![Node::Element(ol)];
            children.append(&mut after_ol);
            let mut attrs = vec![attr("class", class)];
            attrs.append(&mut wrapper_attrs);
            element("div", attrs, children)
        } else {
            ol.attrs.append(&mut wrapper_attrs);
            ol.children.append(&mut after_ol);
            Node::Element(ol)
        }
    }

    /// One footnote's `<li>`.
    fn list_item(&mut self, i: usize) -> Node {
        let note_id = self.note_id(i).to_owned();
        let text_id = self.note_text_id(i);
        let Some(it) = self.items.get_mut(i) else {
            return text("");
        };
        let content = it.content.take().unwrap_or_default();
        let group = it.group.clone();
        let dir = it.dir.clone();
        let visible = it.visible;

        let mut li_attrs = Vec::with_capacity(3);
        li_attrs.push(attr("id", note_id));
        if matches!(dir.as_str(), "rtl" | "ltr" | "auto") {
            li_attrs.push(attr("class", format!("mw-cite-dir-{dir}")));
        }
        li_attrs.push(attr("data-mw-footnote-number", self.label(i, false)));
        let mut text_attrs = Vec::with_capacity(4);
        text_attrs.push(attr("id", text_id));
        text_attrs.push(attr("class", "mw-reference-text reference-text"));
        if dir == "auto" {
            text_attrs.push(attr("dir", "auto"));
        }
        if !group.is_empty() {
            text_attrs.push(attr("data-mw-group", group.clone()));
        }
        let link = |href: String, label: Value, rel: bool| {
            let mut a = Vec::with_capacity(3);
            a.push(attr("href", href));
            if !group.is_empty() {
                a.push(attr("data-mw-group", group.clone()));
            }
            if rel {
                a.push(attr("rel", "mw:referencedBy"));
            }
            element(
                "a",
                a,
                vec![element(
                    "span",
                    vec![attr("class", "mw-linkback-text")],
                    vec![text(label)],
                )],
            )
        };
        let backlinks = if visible == 1 {
            let href = self.backlink_href(i, 1);
            element(
                "span",
                vec![attr("class", "mw-cite-backlink")],
                vec![link(href, Value::from("↑"), true)],
            )
        } else {
            let mut children = Vec::new();
            for n in 1..=visible {
                if n > 1 {
                    children.push(text(" "));
                }
                let href = self.backlink_href(i, n);
                children.push(link(href, number_text(n), false));
            }
            element(
                "span",
                vec![
                    attr("class", "mw-cite-backlink"),
                    attr("rel", "mw:referencedBy"),
                ],
                children,
            )
        };
        let mut children = vec![backlinks, text(" "), element("span", text_attrs, content)];
        // The uses' errors, read where they are (no copy of the use list).
        let uses = self.items.get(i).map_or(&[][..], |it| it.nodes.as_slice());
        let mut reported: Vec<&CiteError> = Vec::new();
        for u in uses {
            let Some(use_) = self.uses.get(*u) else {
                continue;
            };
            for err in &use_.errors {
                if reported.contains(&err) {
                    continue;
                }
                reported.push(err);
                children.push(text(" "));
                children.push(error_span(err));
            }
        }
        element("li", li_attrs, children)
    }
}

/// Removes the empty lists templates made (Cite's T364830), except a
/// template's first node when more of its output follows (its `data-mw` would
/// be lost).
pub(super) fn drop_empty_templated(nodes: &mut Vec<Node>) {
    let mut stack: Vec<&mut Vec<Node>> = vec![nodes];
    while let Some(list) = stack.pop() {
        let mut i = 0;
        while i < list.len() {
            let verdict = match list.get(i) {
                Some(Node::Element(e)) if e.attr(placeholder::DROP).is_some() => {
                    let about = e.attr("about");
                    let next_same = list
                        .get(i + 1..)
                        .unwrap_or(&[])
                        .iter()
                        .find_map(|n| match n {
                            Node::Element(n) => Some(n.attr("about") == about && about.is_some()),
                            _ => None,
                        })
                        .unwrap_or(false);
                    Some(e.has_type("mw:Transclusion") && next_same)
                }
                _ => None,
            };
            match verdict {
                Some(false) => {
                    list.remove(i);
                }
                Some(true) => {
                    if let Some(Node::Element(e)) = list.get_mut(i) {
                        e.attrs.retain(|(k, _)| k != placeholder::DROP);
                    }
                    i += 1;
                }
                None => i += 1,
            }
        }
        for child in list.iter_mut() {
            if let Node::Element(e) = child {
                stack.push(&mut e.children);
            }
        }
    }
}
