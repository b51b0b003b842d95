//! One `<ref>` (Cite's `extractRefFromNode`): checks, numbering, reuse,
//! `follow`, conflicts between definitions, the `<sup>` marker; and the final
//! `typeof`/`data-mw` of every marker once all errors are known.

use super::errors::{self, CiteError};
use super::model::{self, Conflict, State, UseBody};
use super::placeholder::{self, Tag};
use super::{
    Element, Node, attr, attrs_json_into, attrs_json_len, element, has_placeholder, serialize,
    text, validate,
};
use crate::transclusion::json_into;

impl State {
    /// One `<ref>` (Cite's `extractRefFromNode`): its `<sup>` and its use's
    /// index. A `<sup>` of the page's own walk is finalized from the path
    /// the walk records with the index ([`finalize_page`](Self::finalize_page)):
    /// only a `<sup>` met by a body's walk carries its index in a
    /// [`placeholder::USE`] attribute for [`finalize`](Self::finalize) to find.
    pub(super) fn extract_ref(&mut self, mut tag: Tag) -> (Node, usize) {
        if self.page.is_empty() {
            self.page.clone_from(&self.bodies.borrow().page);
        }
        let mut errs: Vec<CiteError> = Vec::new();
        let src = tag.src.as_deref().unwrap_or("");
        let empty_body = src.trim().is_empty();
        let has_text = if tag.self_closed() {
            None
        } else {
            Some(!empty_body)
        };
        let list_group = self.list_group().map(str::to_owned);
        if let Some(g) = tag.group() {
            self.learn_labels(g, &tag.labels);
        }
        let args = validate::check_ref(&tag.attrs, has_text, list_group.as_deref(), &mut errs);
        if list_group.is_some() && !args.name.is_empty() && !self.is_known(&args.group, &args.name)
        {
            errs.push(CiteError::with(
                "cite_error_references_missing_key",
                &[&args.name],
            ));
        }
        let group = self.group_index(&args.group);
        let mut item = self.lookup(group, &args.name);
        let mut body = self.bodies.borrow_mut().get(tag.body);
        // Most bodies' sources have no `<nowiki>`: no span to look for.
        if self.bodies.borrow().may_unwrap(tag.body) {
            placeholder::unwrap_nowiki(&mut body);
        } else if cfg!(debug_assertions) {
            // Debug builds check that the walk skipped would change nothing.
            let mut unwrapped = body.clone();
            placeholder::unwrap_nowiki(&mut unwrapped);
            assert!(unwrapped == body, "a nowiki span in a body without <nowiki");
        }

        let locked = !args.name.is_empty() && self.is_locked(&args.group, &args.name);
        let mut conflict = Conflict::None;
        if !args.name.is_empty() && !empty_body {
            if locked {
                conflict = Conflict::Visible;
            } else if let Some(content) = item.and_then(|i| self.item_content(i)) {
                conflict = model::compare(content, &body);
            }
        }
        let mut valid_follow = false;
        if !args.follow.is_empty() {
            let mut span = Element::new("span");
            span.attrs.push(attr("typeof", "mw:Cite/Follow"));
            span.children.push(text(" "));
            span.children.append(&mut body);
            body.push(Node::Element(span));
            if let Some(followed) = self.lookup(group, &args.follow) {
                valid_follow = true;
                item = Some(followed);
            }
        }
        // A body whose render made no placeholder is not searched for one.
        let nested =
            !tag.self_closed() && self.bodies.borrow().may_nest(tag.body) && has_placeholder(&body);
        // The name is locked while the body's refs are processed (a
        // redefinition there conflicts). An unlocked name whose body holds
        // no ref would be unlocked at once: no entry made (no copy of the
        // name). A locked one gets its entry, which stays, as before.
        let locks = !args.name.is_empty() && (locked || nested);
        if locks {
            self.lock(&args.group, &args.name);
        }
        if nested {
            let embedded = conflict != Conflict::None;
            if embedded {
                self.embedded += 1;
            }
            self.ref_depth += 1;
            self.hoist(&mut body);
            self.walk(&mut body);
            self.ref_depth -= 1;
            if embedded {
                self.embedded -= 1;
            }
        }
        if !args.name.is_empty() {
            if locks && !locked {
                self.unlock(&args.group, &args.name);
            }
            item = item.or_else(|| self.lookup(group, &args.name));
        }
        let use_index = self.uses.len();
        let mut visible = false;
        let item = match item {
            Some(i) if valid_follow => i,
            found => {
                let i = found.unwrap_or_else(|| self.add_item(group, &args.name, &args.dir));
                if self.embedded == 0 {
                    self.item_mut(i, |it| {
                        it.nodes.push(use_index);
                        it.visible += 1;
                    });
                    visible = true;
                } else {
                    self.item_mut(i, |it| it.embedded.push(use_index));
                }
                i
            }
        };
        // A named item whose `dir` differs from this use's (no copy of the
        // item's name or `dir` unless they conflict).
        let conflicting_dir = self.item(item).and_then(|it| {
            let name = it.name.as_ref()?;
            let differs = !it.dir.is_empty() && !args.dir.is_empty() && it.dir != args.dir;
            differs.then(|| name.clone())
        });
        if let Some(name) = &conflicting_dir {
            errs.push(CiteError::with("cite_error_ref_conflicting_dir", &[name]));
        }
        // Refs nested in the body are final before the body is written out
        // (only the walk above makes uses in it).
        if nested {
            self.finalize(&mut body);
        }
        // The body's HTML goes into `data-mw` only for an empty body or a
        // conflicting definition; otherwise the use names the note by id.
        let body_html = if empty_body || conflict != Conflict::None {
            serialize(&body)
        } else {
            String::new()
        };
        if conflict == Conflict::Visible && !body_html.is_empty() {
            errs.push(CiteError::with(
                "cite_error_references_duplicate_key",
                &[&args.name],
            ));
        }
        let use_body = if empty_body {
            if tag.self_closed() {
                None
            } else {
                Some(UseBody::Html(body_html))
            }
        } else if conflict != Conflict::None {
            Some(UseBody::Html(body_html))
        } else {
            Some(UseBody::Note(item))
        };
        if list_group.is_some() && self.ref_depth == 0 {
            match self.item(item).and_then(|it| it.nodes.first().copied()) {
                Some(first) => {
                    if let Some(u) = self.uses.get_mut(first) {
                        u.errors.extend(errs);
                    }
                }
                None => self.group_list_errors(group, errs),
            }
            self.push_use(&mut tag, use_body, Vec::new());
        } else {
            self.push_use(&mut tag, use_body, errs);
        }

        // The content: the first definition's, or a follower's appended to it.
        let has_content = self.item_content(item).is_some();
        if valid_follow && has_content {
            self.item_mut(item, |it| {
                if let Some(c) = it.content.as_mut() {
                    c.append(&mut body);
                }
            });
        } else if !has_content && !empty_body && !locked {
            let dir = args.dir.clone();
            self.item_mut(item, |it| {
                it.content = Some(body);
                it.dir = dir;
            });
        }

        // Constant text: no `String` a ref.
        let class = if valid_follow {
            "mw-ref reference mw-ref-follow"
        } else {
            "mw-ref reference"
        };
        // Room for every attribute and for the two `finalize_use` adds
        // (`typeof`, `data-mw`) after taking the use index out: no regrowth.
        let mut attrs = Vec::with_capacity(7);
        attrs.push(attr("class", class));
        if visible {
            attrs.push(attr("id", self.backlink_id(item, None)));
        }
        attrs.push(attr("rel", "dc:references"));
        attrs.extend(
            std::mem::take(&mut tag.extra)
                .into_iter()
                .filter(|(k, _)| k == "about" || k == "typeof"),
        );
        if self.walks != 1 {
            attrs.push(attr(placeholder::USE, placeholder::number(use_index)));
        }
        let (href, label, group_name) = self.link_parts(item);
        let mut a_attrs = Vec::with_capacity(2);
        a_attrs.push(attr("href", href));
        if !group_name.is_empty() {
            a_attrs.push(attr("data-mw-group", group_name));
        }
        let bracket =
            |s: &'static str| element("span", vec![attr("class", "cite-bracket")], vec![text(s)]);
        let link_text = element(
            "span",
            vec![attr("class", "mw-reflink-text")],
            vec![bracket("["), Node::Text(label), bracket("]")],
        );
        let sup = element("sup", attrs, vec![element("a", a_attrs, vec![link_text])]);
        (sup, use_index)
    }

    /// Writes each use's final `typeof` and `data-mw` (errors included, some of
    /// which are only known once its list is built). Stops once every use
    /// has them (the rest of the page holds none).
    pub(super) fn finalize(&self, nodes: &mut [Node]) {
        if self.finalized.get() >= self.uses.len() {
            return;
        }
        let mut stack: Vec<std::slice::IterMut<'_, Node>> = vec![nodes.iter_mut()];
        while let Some(it) = stack.last_mut() {
            let Some(node) = it.next() else {
                stack.pop();
                continue;
            };
            let Node::Element(e) = node else { continue };
            // Uses are the `<sup>`s `extract_ref` makes.
            if e.name == "sup" && self.finalize_use(e) {
                self.finalized.set(self.finalized.get() + 1);
                if self.finalized.get() >= self.uses.len() {
                    return;
                }
            }
            stack.push(e.children.iter_mut());
        }
    }

    /// [`finalize`](Self::finalize) for the page: its `<sup>`s are found
    /// where the walk left them (any use still without `data-mw` is then
    /// looked for in the whole page).
    pub(super) fn finalize_page(&mut self, nodes: &mut [Node]) {
        let paths = std::mem::take(&mut self.sup_paths);
        // Each path after its use's index and its length.
        let mut rest = paths.as_slice();
        // The page walk's uses, and those found where it left them (all: their
        // `<sup>`s carry no attribute a later search could find them by).
        let (mut recorded, mut found) = (0usize, 0usize);
        while let [index, len, tail @ ..] = rest {
            let (path, next) = tail.split_at((*len).min(tail.len()));
            rest = next;
            recorded += 1;
            if let Some(e) = element_at(nodes, path)
                && e.name == "sup"
                && self.write_use(e, *index)
            {
                found += 1;
            }
        }
        debug_assert_eq!(found, recorded, "a page use not where its walk left it");
        self.finalized.set(self.finalized.get() + found);
        self.finalize(nodes);
    }

    /// Finalizes `e` if it is a use not finalized yet, which its
    /// [`placeholder::USE`] attribute names (whether it was).
    fn finalize_use(&self, e: &mut Element) -> bool {
        let Some(index) = e
            .attr(placeholder::USE)
            .and_then(|v| v.parse::<usize>().ok())
        else {
            return false;
        };
        e.attrs.retain(|(k, _)| k != placeholder::USE);
        self.write_use(e, index)
    }

    /// Writes the final `typeof` and `data-mw` of use `index` on its
    /// `<sup>` `e` (whether there is such a use).
    fn write_use(&self, e: &mut Element, index: usize) -> bool {
        let Some(u) = self.uses.get(index) else {
            return false;
        };
        const HEAD: &str = "{\"name\":\"ref\",\"attrs\":";
        let errors = (!u.errors.is_empty()).then(|| errors::errors_json(&u.errors));
        // Room for every part (and the quotes of a JSON string): no regrowth
        // but for escapes.
        let body_len = match &u.body {
            Some(UseBody::Note(i)) => self.note_id(*i).len() + State::NOTE_TEXT.len() + 24,
            Some(UseBody::Html(v)) => v.len() + 24,
            None => 0,
        };
        let mut data_mw = String::with_capacity(
            HEAD.len()
                + attrs_json_len(&u.attrs)
                + body_len
                + u.parts.as_ref().map_or(0, |p| p.len() + 10)
                + errors.as_ref().map_or(0, |e| e.len() + 11)
                + 1,
        );
        data_mw.push_str(HEAD);
        attrs_json_into(&u.attrs, &mut data_mw);
        match &u.body {
            Some(UseBody::Note(i)) => {
                data_mw.push_str(",\"body\":{\"id\":");
                // The id's JSON string, its constant prefix (nothing to
                // escape) put after the opening quote.
                let quote = data_mw.len();
                json_into(self.note_id(*i), &mut data_mw);
                data_mw.insert_str(quote + 1, State::NOTE_TEXT);
                data_mw.push('}');
            }
            Some(UseBody::Html(h)) => {
                data_mw.push_str(",\"body\":{\"html\":");
                json_into(h, &mut data_mw);
                data_mw.push('}');
            }
            None => {}
        }
        if let Some(parts) = &u.parts {
            data_mw.push_str(",\"parts\":");
            data_mw.push_str(parts);
        }
        if let Some(errors) = &errors {
            data_mw.push_str(",\"errors\":");
            data_mw.push_str(errors);
        }
        data_mw.push('}');
        const TYPE: &str = "mw:Extension/ref";
        let written = e.attrs.iter().find(|(k, _)| k == "typeof").map(|(_, v)| v);
        // Most uses have no `typeof` of their own and no error: the constant
        // text, no `String` a use.
        let ty: crate::dom::Value = match written {
            None if u.errors.is_empty() => TYPE.into(),
            _ => {
                let mut ty = String::with_capacity(written.map_or(0, |v| v.len() + 1) + 26);
                if let Some(v) = written {
                    ty.push_str(v);
                    ty.push(' ');
                }
                ty.push_str(TYPE);
                if !u.errors.is_empty() {
                    ty.push_str(" mw:Error");
                }
                ty.into()
            }
        };
        e.attrs.retain(|(k, _)| k != "typeof" && k != "data-mw");
        e.attrs.push(attr("typeof", ty));
        e.attrs.push(attr("data-mw", data_mw));
        true
    }
}

/// The element at `path` (child indices from `nodes`), if there is one.
fn element_at<'a>(nodes: &'a mut [Node], path: &[usize]) -> Option<&'a mut Element> {
    let (&last, parents) = path.split_last()?;
    let mut list = nodes;
    for &i in parents {
        match list.get_mut(i)? {
            Node::Element(e) => list = &mut e.children,
            _ => return None,
        }
    }
    match list.get_mut(last)? {
        Node::Element(e) => Some(e),
        _ => None,
    }
}
