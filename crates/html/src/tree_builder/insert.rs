//! 13.2.6.1 (with A.3) "creating and inserting nodes": the appropriate place for
//! inserting a node (foster parenting, template contents), creating elements for
//! tokens, and inserting elements, characters and comments — each as patches plus
//! the matching change to the mirror.

use std::borrow::Cow;

use crate::atom::{self, Atom};
use crate::dom_patch::{Namespace, PatchAttr};
use crate::token::{Tag, Token};

use super::TreeBuilder;
use super::foreign;
use super::mirror::{Kind, NodeId};
use super::open_stack::ElemKey;
use super::sink::{ElementAttrs, NewElement, TreeSink};

/// "No store slot recorded" (see [`TreeBuilder::slot`]).
pub(crate) const NO_SLOT: u32 = u32::MAX;

/// An insertion location.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Place {
    /// After the last child of the node.
    Append(NodeId),
    /// Inside the first node, just before the second.
    Before(NodeId, NodeId),
}

impl Place {
    pub(crate) fn parent(self) -> NodeId {
        match self {
            Place::Append(p) | Place::Before(p, _) => p,
        }
    }
}

/// 13.2.6.1: SVG `foreignObject`/`desc`/`title`, or MathML `annotation-xml` with
/// an HTML `encoding`, are HTML integration points.
pub(crate) fn is_html_integration_point(ns: Namespace, name: Atom, encoding: Option<&str>) -> bool {
    match ns {
        Namespace::Svg => matches!(name, atom::FOREIGNOBJECT | atom::DESC | atom::TITLE),
        Namespace::MathMl => {
            name == atom::ANNOTATION_XML && foreign::annotation_xml_is_html(encoding)
        }
        Namespace::Html => false,
    }
}

/// The static text of an atom, or an owned copy of a dynamic one.
pub(crate) fn atom_text(name: Atom, tag: &Tag<'_>) -> Cow<'static, str> {
    match name.static_name() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(tag.atoms().name(name).to_owned()),
    }
}

impl TreeBuilder {
    /// The current node: the bottommost node of the stack of open elements.
    pub(crate) fn current_node(&self) -> Option<NodeId> {
        self.open.last()
    }

    /// True when the adjusted current node is known to be an HTML element from
    /// the stack alone (the common case, asked for every token); false means
    /// "look at the node".
    #[inline]
    pub(crate) fn adjusted_current_surely_html(&self) -> bool {
        // The cached answer first: a document has no context element.
        self.open.last_is_html() && !(self.context.is_some() && self.open.len() == 1)
    }

    /// 13.2.4.2 the adjusted current node: the context element when the stack
    /// holds only the root (fragment case), else the current node.
    pub(crate) fn adjusted_current_node(&self) -> Option<NodeId> {
        if self.open.len() == 1
            && let Some(ctx) = self.context
        {
            return Some(ctx);
        }
        self.current_node()
    }

    /// 13.2.6.1 "appropriate place for inserting a node", with an optional
    /// override target.
    pub(crate) fn appropriate_place(&self, override_target: Option<NodeId>) -> Place {
        self.place_for(override_target, false)
    }

    /// Where a new element, comment or processing instruction goes: the
    /// appropriate place, with the depth limit of
    /// [`max_depth`](super::TreeBuilderConfig::max_depth) applied (text and the
    /// adoption agency's moves are not limited, as in Chromium).
    pub(crate) fn node_place(&self, override_target: Option<NodeId>) -> Place {
        self.place_for(override_target, true)
    }

    #[inline]
    fn place_for(&self, override_target: Option<NodeId>, depth_limited: bool) -> Place {
        // The usual case, read from the stack alone: the current node, no foster
        // parenting, within the depth limit, not a template.
        if override_target.is_none()
            && !self.foster_parenting
            && !(depth_limited && self.open.len() > self.config.max_depth.max(2))
            && let Some(current) = self.current_node()
            && self
                .open
                .last_key()
                .is_some_and(|key| key != ElemKey::html(atom::TEMPLATE))
        {
            return Place::Append(current);
        }
        self.place_for_slow(override_target, depth_limited)
    }

    /// [`place_for`](Self::place_for) past its usual case.
    #[inline(never)]
    fn place_for_slow(&self, override_target: Option<NodeId>, depth_limited: bool) -> Place {
        let target = override_target
            .or_else(|| self.current_node())
            .unwrap_or(self.document);
        let place = if self.foster_parenting
            && self.mirror.elem(target).is_some_and(|e| {
                e.ns == Namespace::Html
                    && super::tag_sets::is_table_context_for_text(e.name)
                    && e.name != atom::TEMPLATE
            }) {
            self.foster_place()
        } else if depth_limited && self.open.len() > self.config.max_depth.max(2) {
            // Chromium's `kMaximumHTMLParserDOMTreeDepth` rule: with more open
            // elements than the limit, attach to the target's parent instead
            // (decided before the template contents redirect below).
            Place::Append(self.mirror.parent(target).unwrap_or(target))
        } else {
            Place::Append(target)
        };
        // Step 3: inside a template, insert into its contents.
        match place {
            Place::Append(p) => match self.template_contents(p) {
                Some(c) => Place::Append(c),
                None => place,
            },
            Place::Before(p, b) => match self.template_contents(p) {
                Some(c) => Place::Append(c),
                None => Place::Before(p, b),
            },
        }
    }

    fn template_contents(&self, node: NodeId) -> Option<NodeId> {
        self.mirror.elem(node).and_then(|e| e.contents())
    }

    /// 13.2.6.1 step 2: foster parenting.
    fn foster_place(&self) -> Place {
        let last_template = self.open.top(ElemKey::html(atom::TEMPLATE));
        let last_table = self.open.top(ElemKey::html(atom::TABLE));
        if let Some(t) = last_template
            && last_table.is_none_or(|table| t > table)
            && let Some(node) = self.open.get(t)
        {
            return Place::Append(node);
        }
        let Some(table_index) = last_table else {
            // Fragment case: the first element of the stack (the root).
            return Place::Append(self.open.first().unwrap_or(self.document));
        };
        let Some(table) = self.open.get(table_index) else {
            return Place::Append(self.document);
        };
        if let Some(parent) = self.mirror.parent(table) {
            return Place::Before(parent, table);
        }
        let previous = table_index
            .checked_sub(1)
            .and_then(|i| self.open.get(i))
            .unwrap_or(self.document);
        Place::Append(previous)
    }

    /// Whether `node` is an HTML element named `name`.
    pub(crate) fn is_html(&self, node: NodeId, name: Atom) -> bool {
        self.mirror
            .elem(node)
            .is_some_and(|e| e.ns == Namespace::Html && e.name == name)
    }

    /// The HTML tag name of `node`, if it is an HTML element.
    pub(crate) fn html_name(&self, node: NodeId) -> Option<Atom> {
        self.mirror
            .elem(node)
            .filter(|e| e.ns == Namespace::Html)
            .map(|e| e.name)
    }

    /// Whether the current node is an HTML element named `name`.
    pub(crate) fn current_is(&self, name: Atom) -> bool {
        self.open.last_key() == Some(ElemKey::html(name))
    }

    /// Creates an element (not inserted) and emits its `CreateElement`; an HTML
    /// `template` gets its contents fragment, keyed just after it.
    pub(crate) fn create_element(
        &mut self,
        ns: Namespace,
        name: Atom,
        qual: Cow<'static, str>,
        attrs: ElementAttrs<'_>,
    ) -> NodeId {
        self.create_element_in(ns, name, qual, attrs, None).0
    }

    /// Where a new node can be created already linked: appended to `place`'s
    /// parent when the store holds it by a known slot (the store path's usual
    /// case; never the document, whose children A.3 restricts).
    #[inline]
    pub(crate) fn append_target(&self, place: Place) -> Option<(NodeId, u32)> {
        match place {
            Place::Append(parent) if parent != self.document => {
                let slot = self.slot(parent);
                (slot != NO_SLOT).then_some((parent, slot))
            }
            _ => None,
        }
    }

    /// [`create_element`](Self::create_element), appended at once to `into`
    /// (an [`append_target`](Self::append_target)) when given and the element
    /// is not a template: whether it was linked comes back with it.
    #[inline(always)]
    pub(crate) fn create_element_in(
        &mut self,
        ns: Namespace,
        name: Atom,
        qual: Cow<'static, str>,
        attrs: ElementAttrs<'_>,
        into: Option<(NodeId, u32)>,
    ) -> (NodeId, bool) {
        // Only MathML `annotation-xml` reads its `encoding`: no attribute walk for
        // the other elements.
        let encoding = (ns == Namespace::MathMl)
            .then(|| attrs.iter().find(|a| a.name.as_str() == "encoding"))
            .flatten()
            .map(|a| a.value);
        let html_integration_point = is_html_integration_point(ns, name, encoding);
        // A formatting element's attributes are read again (clones, the Noah's
        // Ark clause): kept in the mirror, unless the sink holds them (the
        // store sink; a `selectedcontent` clones any element from the mirror).
        let formatting = ns == Namespace::Html && super::tag_sets::is_formatting(name);
        let full = self.select_tracker.full_mirror;
        let in_sink = formatting && !full && self.emit.reads_attrs();
        let kept = if full || (formatting && !in_sink) {
            attrs
        } else {
            ElementAttrs::none()
        };
        let template = ns == Namespace::Html && name == atom::TEMPLATE;
        if let Some((parent, parent_slot)) = into
            && !template
        {
            // The key of the node about to be added.
            let key = self.mirror.key(self.mirror.len());
            let element = NewElement {
                ns,
                atom: name,
                name: qual.clone(),
                attrs,
                contents: None,
            };
            let info = (ns, name, qual, html_integration_point);
            let (id, linked) = match self.emit.create_element_in(key, element, parent_slot) {
                Some(slot) => (
                    self.mirror.add_element_appended(info, kept, parent, slot),
                    true,
                ),
                None => (
                    self.mirror
                        .add_element(info.0, info.1, info.2, kept, info.3),
                    false,
                ),
            };
            if in_sink && !attrs.is_empty() {
                self.mirror.set_attrs_in_sink(id);
            }
            return (id, linked);
        }
        let id = self
            .mirror
            .add_element(ns, name, qual.clone(), kept, html_integration_point);
        if in_sink && !attrs.is_empty() {
            self.mirror.set_attrs_in_sink(id);
        }
        let key = self.mirror.key(id);
        let contents = if template {
            let c = self.mirror.add(Kind::Fragment);
            self.mirror.set_template_contents(id, c);
            Some(self.mirror.key(c))
        } else {
            None
        };
        self.emit.create_element(
            key,
            NewElement {
                ns,
                atom: name,
                name: qual,
                attrs,
                contents,
            },
        );
        // A template's last node is its contents: its own slot is looked up.
        if contents.is_none() {
            self.note_slot(id);
        }
        (id, false)
    }

    /// 13.2.6.1 "create an element for a token" in `ns`, with the attribute
    /// adjustments of foreign content.
    pub(crate) fn create_element_for(&mut self, tag: &Tag<'_>, ns: Namespace) -> NodeId {
        self.create_element_for_in(tag, ns, None).0
    }

    /// [`create_element_for`](Self::create_element_for), appended at once as
    /// [`create_element_in`](Self::create_element_in) does.
    /// Inlined into its callers (one per start tag): the HTML case is a call
    /// to [`create_element_in`](Self::create_element_in) with the token's
    /// attributes as they are.
    #[inline(always)]
    fn create_element_for_in(
        &mut self,
        tag: &Tag<'_>,
        ns: Namespace,
        into: Option<(NodeId, u32)>,
    ) -> (NodeId, bool) {
        if ns == Namespace::Html {
            let attrs = ElementAttrs::token(tag.attrs, tag.atoms());
            return self.create_element_in(ns, tag.name, atom_text(tag.name, tag), attrs, into);
        }
        self.create_foreign_element_in(tag, ns, into)
    }

    /// [`create_element_for_in`](Self::create_element_for_in) in SVG or
    /// MathML: names and attributes adjusted.
    #[inline(never)]
    fn create_foreign_element_in(
        &mut self,
        tag: &Tag<'_>,
        ns: Namespace,
        into: Option<(NodeId, u32)>,
    ) -> (NodeId, bool) {
        let mut attrs: Vec<PatchAttr> = tag
            .attrs
            .iter()
            .map(|a| PatchAttr::new(atom_text(a.name, tag), a.value))
            .collect();
        let qual = match ns {
            Namespace::Svg => foreign::adjust_svg_tag_name(tag.name_str())
                .map(Cow::Borrowed)
                .unwrap_or_else(|| atom_text(tag.name, tag)),
            _ => atom_text(tag.name, tag),
        };
        for attr in &mut attrs {
            foreign::adjust_foreign_attr(attr, ns == Namespace::Svg);
        }
        self.create_element_in(ns, tag.name, qual, ElementAttrs::list(&attrs), into)
    }

    /// Inserts the parentless `child` at `place` (mirror and patch). A.3: a node
    /// the document cannot take (a second element, text) is dropped.
    pub(crate) fn insert_at(&mut self, place: Place, child: NodeId) {
        let parent = place.parent();
        // The document is the one node of its kind: no look at the mirror.
        if parent == self.document {
            // Only an element needs the walk over the document's children: a walk
            // per comment made n comments before the first tag quadratic.
            let is_element = self.mirror.elem(child).is_some();
            if self.mirror.is_text(child) || (is_element && self.document_has_element()) {
                return;
            }
        }
        self.link_at(place, child);
    }

    /// Links the parentless `child` at `place` (mirror and patch), where the
    /// parent is known to take it.
    fn link_at(&mut self, place: Place, child: NodeId) {
        let parent = place.parent();
        // The store path: by the slots the store gave the nodes, no key lookup.
        let (parent_slot, child_slot) = (self.slot(parent), self.slot(child));
        if parent_slot != NO_SLOT && child_slot != NO_SLOT {
            let before_slot = match place {
                Place::Append(_) => Some(NO_SLOT),
                Place::Before(_, before) => Some(self.slot(before)).filter(|&s| s != NO_SLOT),
            };
            if let Some(before_slot) = before_slot {
                match place {
                    Place::Append(_) => self.mirror.append(parent, child),
                    Place::Before(_, before) => self.mirror.insert_before(parent, child, before),
                }
                if self.emit.link_slots(parent_slot, child_slot, before_slot) {
                    return;
                }
                // Not a store (slots are only recorded for one): by keys.
                let (parent_key, child_key) = (self.mirror.key(parent), self.mirror.key(child));
                match place {
                    Place::Append(_) => self.emit.append_child(parent_key, child_key),
                    Place::Before(_, before) => {
                        let before_key = self.mirror.key(before);
                        self.emit.insert_before(parent_key, child_key, before_key);
                    }
                }
                return;
            }
        }
        let parent_key = self.mirror.key(parent);
        let child_key = self.mirror.key(child);
        match place {
            Place::Append(_) => {
                self.mirror.append(parent, child);
                self.emit.append_child(parent_key, child_key);
            }
            Place::Before(_, before) => {
                self.mirror.insert_before(parent, child, before);
                let before_key = self.mirror.key(before);
                self.emit.insert_before(parent_key, child_key, before_key);
            }
        }
    }

    /// The store slot of `node` on the store path, when recorded since the
    /// store was attached ([`NO_SLOT`] otherwise: the caller looks the key up).
    #[inline]
    pub(crate) fn slot(&self, node: NodeId) -> u32 {
        if node >= self.slot_floor {
            self.mirror.slot(node)
        } else {
            NO_SLOT
        }
    }

    /// Records the store slot of the node just created (`node`) as the store
    /// sink reports it (a no-op on the other paths).
    #[inline]
    fn note_slot(&mut self, node: NodeId) {
        let slot = self.emit.last_slot();
        if slot != NO_SLOT {
            self.mirror.set_slot(node, slot);
        }
    }

    fn document_has_element(&self) -> bool {
        let mut child = self.mirror.get(self.document).and_then(|d| d.first_child());
        while let Some(c) = child {
            if self.mirror.elem(c).is_some() {
                return true;
            }
            child = self.mirror.get(c).and_then(|n| n.next());
        }
        false
    }

    /// Appends the parentless `child` to `parent`.
    pub(crate) fn append_to(&mut self, parent: NodeId, child: NodeId) {
        self.insert_at(Place::Append(parent), child);
    }

    /// Detaches `node` from its parent, if it has one (a `Remove` patch).
    pub(crate) fn detach(&mut self, node: NodeId) {
        if self.mirror.parent(node).is_some() {
            self.mirror.detach(node);
            let key = self.mirror.key(node);
            self.emit.remove(key);
        }
    }

    /// Pushes `node` onto the stack of open elements (there is no cap: past
    /// [`max_depth`](super::TreeBuilderConfig::max_depth) the limit is on where
    /// nodes are inserted, see [`node_place`](Self::node_place)).
    pub(crate) fn push_open(&mut self, node: NodeId) {
        self.open.push(node, &self.mirror);
    }

    /// 13.2.6.1 "insert a foreign element" (`only_stack` = "only add to element
    /// stack"), returning the element.
    pub(crate) fn insert_foreign_element(
        &mut self,
        tag: &Tag<'_>,
        ns: Namespace,
        only_stack: bool,
    ) -> NodeId {
        let place = self.node_place(None);
        let into = if only_stack {
            None
        } else {
            self.append_target(place)
        };
        let (element, linked) = self.create_element_for_in(tag, ns, into);
        if !only_stack && !linked {
            self.insert_at(place, element);
        }
        // The stack's key is known here: no look at the mirror.
        self.open
            .push_key(element, Some(ElemKey { ns, name: tag.name }));
        element
    }

    /// 13.2.6.1 "insert an HTML element" for a token.
    pub(crate) fn insert_html_element(&mut self, tag: &Tag<'_>) -> NodeId {
        self.insert_foreign_element(tag, Namespace::Html, false)
    }

    /// Inserts an HTML element for a token and pops it right away (void elements).
    pub(crate) fn insert_void_element(&mut self, tag: &Tag<'_>) {
        let place = self.node_place(None);
        let into = self.append_target(place);
        let (element, linked) = self.create_element_for_in(tag, Namespace::Html, into);
        if !linked {
            self.insert_at(place, element);
        }
    }

    /// Inserts an HTML element for a start tag the parser made up (no attributes).
    pub(crate) fn insert_html_element_named(&mut self, name: Atom) -> NodeId {
        let place = self.node_place(None);
        let qual = Cow::Borrowed(name.static_name().unwrap_or(""));
        let into = self.append_target(place);
        let (element, linked) =
            self.create_element_in(Namespace::Html, name, qual, ElementAttrs::none(), into);
        if !linked {
            self.insert_at(place, element);
        }
        self.push_open(element);
        element
    }

    /// 13.2.6.1 "insert a character" for a run of characters, coalescing with an
    /// adjacent text node (A.3: text for the Document is dropped).
    pub(crate) fn insert_text(&mut self, text: &str) {
        self.insert_text_inline(text);
    }

    /// [`insert_text`](Self::insert_text) inlined, for the one caller that runs
    /// for nearly every text run ("in body"): one call less per text node.
    #[inline(always)]
    pub(crate) fn insert_text_inline(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let place = self.appropriate_place(None);
        if place.parent() == self.document {
            return;
        }
        let previous = match place {
            Place::Append(p) => self.mirror.get(p).and_then(|n| n.last_child()),
            Place::Before(_, b) => self.mirror.get(b).and_then(|n| n.prev()),
        };
        if let Some(prev) = previous
            && self.mirror.is_text(prev)
        {
            let key = self.mirror.key(prev);
            // Texts are kept only after a `selectedcontent`: no hash look before.
            if !self.select_tracker.texts.is_empty()
                && let Some(stored) = self.select_tracker.texts.get_mut(&prev)
            {
                stored.push_str(text);
            }
            let slot = self.slot(prev);
            if slot == NO_SLOT || !self.emit.append_text_slot(slot, key, text) {
                self.emit.append_text(key, text);
            }
            return;
        }
        // The store path's usual case: created and appended in one call (the
        // store's, then the mirror's).
        if let Place::Append(parent) = place {
            let parent_slot = self.slot(parent);
            if parent_slot != NO_SLOT {
                // The key of the node about to be added.
                let key = self.mirror.key(self.mirror.len());
                if let Some(slot) = self.emit.create_text_in(key, text, parent_slot) {
                    let node = self.mirror.add_appended(Kind::Text, parent, slot);
                    if self.select_tracker.full_mirror {
                        self.select_tracker.texts.insert(node, text.to_owned());
                    }
                    return;
                }
            }
        }
        let node = self.mirror.add(Kind::Text);
        if self.select_tracker.full_mirror {
            self.select_tracker.texts.insert(node, text.to_owned());
        }
        let key = self.mirror.key(node);
        self.emit.create_text(key, text);
        self.note_slot(node);
        // The parent is not the document (checked above): no A.3 check.
        self.link_at(place, node);
    }

    /// Where a comment or processing instruction goes: `place` (an append there
    /// subject to the depth limit), or the appropriate place.
    fn comment_place(&self, place: Option<Place>) -> Place {
        match place {
            Some(Place::Append(p)) => self.node_place(Some(p)),
            Some(place) => place,
            None => self.node_place(None),
        }
    }

    /// 13.2.6.1 "insert a comment" (at `place`, or the appropriate place).
    pub(crate) fn insert_comment(&mut self, text: &str, place: Option<Place>) {
        let place = self.comment_place(place);
        let node = self.mirror.add(Kind::Other);
        if self.select_tracker.full_mirror {
            self.select_tracker.texts.insert(node, text.to_owned());
        }
        let key = self.mirror.key(node);
        self.emit.create_comment(key, text);
        self.note_slot(node);
        self.insert_at(place, node);
    }

    /// A.3 "insert a comment" or "insert a processing instruction" for a comment
    /// or processing instruction token (A.4: a PI token is handled like a
    /// comment token in every insertion mode).
    pub(crate) fn insert_comment_token(&mut self, token: Token<'_>, place: Option<Place>) {
        match token {
            Token::Comment(t) => self.insert_comment(t.text, place),
            Token::ProcessingInstruction(pi) => self.insert_pi(pi.target, pi.data, place),
            _ => {}
        }
    }

    /// A.3 "insert a processing instruction" (at `place`, or the appropriate
    /// place; the depth limit applies as for comments).
    fn insert_pi(&mut self, target: &str, data: &str, place: Option<Place>) {
        let place = self.comment_place(place);
        let node = self.mirror.add(Kind::Other);
        if self.select_tracker.full_mirror {
            self.select_tracker
                .pis
                .insert(node, (target.to_owned(), data.to_owned()));
        }
        let key = self.mirror.key(node);
        self.emit.create_processing_instruction(key, target, data);
        self.insert_at(place, node);
    }
}
