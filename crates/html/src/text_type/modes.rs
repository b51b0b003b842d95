//! The insertion-mode rules of the simulator (§13.2.6.4.x, Part A where it
//! differs), reduced to what they do to the stack of open elements and to the
//! tokenizer state.

use super::{Mode, Node, Ns, Start, Step, TextTypeSimulator};
use crate::atom::{self, Atom};
use crate::tree_builder::TokenizerSwitch;
use crate::tree_builder::tag_sets::is_heading;

use atom::*;

/// A.6 block start tags: close a `p` in button scope, insert.
const BLOCK_STARTS: &[Atom] = &[
    ADDRESS, ARTICLE, ASIDE, BLOCKQUOTE, CENTER, DETAILS, DIALOG, DIR, DIV, DL, FIELDSET,
    FIGCAPTION, FIGURE, FOOTER, HEADER, HGROUP, MAIN, MENU, NAV, OL, P, SEARCH, SECTION, SUMMARY,
    UL,
];

/// A.6 block end tags: pop to the element if it is in scope.
const BLOCK_ENDS: &[Atom] = &[
    ADDRESS, ARTICLE, ASIDE, BLOCKQUOTE, BUTTON, CENTER, DETAILS, DIALOG, DIR, DIV, DL, FIELDSET,
    FIGCAPTION, FIGURE, FOOTER, HEADER, HGROUP, LISTING, MAIN, MENU, NAV, OL, PRE, SEARCH, SECTION,
    SELECT, SUMMARY, UL,
];

const FORMATTING: &[Atom] = &[
    A, B, BIG, CODE, EM, FONT, I, NOBR, S, SMALL, STRIKE, STRONG, TT, U,
];

/// Elements that put a marker on the list of active formatting elements.
const MARKERS: &[Atom] = &[APPLET, OBJECT, MARQUEE, TEMPLATE, TD, TH, CAPTION];

const TABLE_PARTS: &[Atom] = &[CAPTION, COL, COLGROUP, TBODY, TFOOT, THEAD, TR, TD, TH];
const SECTIONS: &[Atom] = &[TBODY, TFOOT, THEAD];
const HEADINGS: &[Atom] = &[H1, H2, H3, H4, H5, H6];

impl TextTypeSimulator {
    /// Start tags in HTML content, by insertion mode.
    pub(super) fn html_start(&mut self, tag: Start) -> Step {
        let name = tag.name;
        self.tag_ns = Ns::Html;
        match self.mode() {
            Mode::Head => self.in_head_start(name),
            // 13.2.6.4.5 "in head noscript".
            Mode::HeadNoscript => match name {
                BASEFONT | BGSOUND | LINK | META | NOFRAMES | STYLE => self.in_head_start(name),
                HTML | HEAD | NOSCRIPT => Step::Done,
                _ => {
                    self.pop();
                    Step::Reprocess
                }
            },
            Mode::Template => self.in_template_start(name),
            Mode::Table => self.in_table_start(tag),
            Mode::TableBody => match name {
                TR => {
                    self.clear_to(&[TBODY, TFOOT, THEAD, TEMPLATE, HTML]);
                    self.push_mode(TR, Mode::Row);
                    Step::Done
                }
                TH | TD => {
                    self.clear_to(&[TBODY, TFOOT, THEAD, TEMPLATE, HTML]);
                    self.push_implied(TR, Mode::Row);
                    Step::Reprocess
                }
                CAPTION | COL | COLGROUP | TBODY | TFOOT | THEAD => {
                    if !self.in_table_scope(SECTIONS) {
                        return Step::Done;
                    }
                    self.clear_to(&[TBODY, TFOOT, THEAD, TEMPLATE, HTML]);
                    self.pop();
                    Step::Reprocess
                }
                _ => self.in_table_start(tag),
            },
            Mode::Row => match name {
                TH | TD => {
                    self.clear_to(&[TR, TEMPLATE, HTML]);
                    self.push_mode(name, Mode::Cell);
                    Step::Done
                }
                CAPTION | COL | COLGROUP | TBODY | TFOOT | THEAD | TR => {
                    if !self.in_table_scope(&[TR]) {
                        return Step::Done;
                    }
                    self.clear_to(&[TR, TEMPLATE, HTML]);
                    self.pop();
                    Step::Reprocess
                }
                _ => self.in_table_start(tag),
            },
            Mode::Cell if TABLE_PARTS.contains(&name) => {
                if !self.in_table_scope(&[TD, TH]) {
                    return Step::Done;
                }
                self.close_cell();
                Step::Reprocess
            }
            Mode::Caption if TABLE_PARTS.contains(&name) => {
                if !self.in_table_scope(&[CAPTION]) {
                    return Step::Done;
                }
                self.generate_implied_end_tags(None);
                self.pop_until(CAPTION);
                Step::Reprocess
            }
            Mode::ColumnGroup => match name {
                COL => Step::Done,
                TEMPLATE => self.in_head_start(name),
                HTML => Step::Done,
                _ if self.top_is(COLGROUP) => {
                    self.pop();
                    Step::Reprocess
                }
                _ => Step::Done,
            },
            Mode::Body | Mode::Cell | Mode::Caption => self.in_body_start(tag),
        }
    }

    /// End tags in HTML content, by insertion mode.
    pub(super) fn html_end(&mut self, name: Atom) -> Step {
        self.tag_ns = Ns::Html;
        match self.mode() {
            Mode::Head => match name {
                HEAD => {
                    if self.top_is(HEAD) {
                        self.pop();
                    }
                    Step::Done
                }
                TEMPLATE => self.template_end(),
                BODY | HTML | BR if self.top_is(HEAD) => {
                    self.pop();
                    Step::Reprocess
                }
                _ => Step::Done,
            },
            Mode::HeadNoscript => match name {
                NOSCRIPT => {
                    self.pop();
                    Step::Done
                }
                BR => {
                    self.pop();
                    Step::Reprocess
                }
                _ => Step::Done,
            },
            // 13.2.6.4.18: any other end tag is ignored.
            Mode::Template if name != TEMPLATE => Step::Done,
            Mode::Table | Mode::TableBody | Mode::Row => self.table_end(name),
            Mode::Cell => match name {
                TD | TH => {
                    if self.in_table_scope(&[name]) {
                        self.generate_implied_end_tags(None);
                        self.pop_until(name);
                    }
                    Step::Done
                }
                BODY | CAPTION | COL | COLGROUP | HTML => Step::Done,
                TABLE | TBODY | TFOOT | THEAD | TR => {
                    if !self.in_table_scope(&[name]) {
                        return Step::Done;
                    }
                    self.close_cell();
                    Step::Reprocess
                }
                _ => self.in_body_end(name),
            },
            Mode::Caption => match name {
                CAPTION | TABLE => {
                    if !self.in_table_scope(&[CAPTION]) {
                        return Step::Done;
                    }
                    self.generate_implied_end_tags(None);
                    self.pop_until(CAPTION);
                    if name == TABLE {
                        Step::Reprocess
                    } else {
                        Step::Done
                    }
                }
                BODY | COL | COLGROUP | HTML | TBODY | TD | TFOOT | TH | THEAD | TR => Step::Done,
                _ => self.in_body_end(name),
            },
            Mode::ColumnGroup => match name {
                COLGROUP => {
                    if self.top_is(COLGROUP) {
                        self.pop();
                    }
                    Step::Done
                }
                COL => Step::Done,
                TEMPLATE => self.template_end(),
                _ if self.top_is(COLGROUP) => {
                    self.pop();
                    Step::Reprocess
                }
                _ => Step::Done,
            },
            Mode::Body | Mode::Template => self.in_body_end(name),
        }
    }

    /// 13.2.6.4.20-.22 "in frameset", "after frameset", "after after frameset":
    /// only framesets, frames and `noframes` count.
    pub(super) fn frameset_start(&mut self, name: Atom) -> Step {
        match name {
            FRAMESET if self.top_is(FRAMESET) => self.push(name),
            NOFRAMES => self.push_text(name, TokenizerSwitch::Rawtext),
            _ => {}
        }
        Step::Done
    }

    /// 13.2.6.4.4 "in head" start tags (also used from "in body" and the table modes).
    fn in_head_start(&mut self, name: Atom) -> Step {
        match name {
            BASE | BASEFONT | BGSOUND | LINK | META => {}
            TITLE => self.push_text(name, TokenizerSwitch::Rcdata),
            NOFRAMES | STYLE => self.push_text(name, TokenizerSwitch::Rawtext),
            NOSCRIPT if self.config.scripting => self.push_text(name, TokenizerSwitch::Rawtext),
            NOSCRIPT if self.mode() == Mode::Head => self.push_mode(name, Mode::HeadNoscript),
            NOSCRIPT => self.push(name),
            SCRIPT => self.push_text(name, TokenizerSwitch::ScriptData),
            TEMPLATE => self.push_mode(name, Mode::Template),
            HEAD => {}
            // "Anything else": the head ends, the token is reprocessed.
            _ if self.top_is(HEAD) => {
                self.pop();
                return Step::Reprocess;
            }
            _ => return self.in_body_start_named(name, false),
        }
        Step::Done
    }

    fn push_text(&mut self, name: Atom, switch: TokenizerSwitch) {
        self.push(name);
        if self.opened_at.is_some()
            && let Some(top) = self.stack.last_mut()
        {
            top.text = true;
        }
        self.switch = Some(switch);
    }

    /// 13.2.6.4.18 "in template": the first start tag decides the template's mode.
    fn in_template_start(&mut self, name: Atom) -> Step {
        let mode = match name {
            BASE | BASEFONT | BGSOUND | LINK | META | NOFRAMES | SCRIPT | STYLE | TEMPLATE
            | TITLE => return self.in_head_start(name),
            CAPTION | COLGROUP | TBODY | TFOOT | THEAD => Mode::Table,
            COL => Mode::ColumnGroup,
            TR => Mode::TableBody,
            TD | TH => Mode::Row,
            _ => Mode::Body,
        };
        if let Some(top) = self.stack.last_mut() {
            top.mode = mode;
        }
        Step::Reprocess
    }

    /// 13.2.6.4.9 "in table" start tags.
    fn in_table_start(&mut self, tag: Start) -> Step {
        let name = tag.name;
        match name {
            CAPTION => {
                self.clear_to(&[TABLE, TEMPLATE, HTML]);
                self.push_mode(name, Mode::Caption);
            }
            COLGROUP => {
                self.clear_to(&[TABLE, TEMPLATE, HTML]);
                self.push_mode(name, Mode::ColumnGroup);
            }
            COL => {
                self.clear_to(&[TABLE, TEMPLATE, HTML]);
                self.push_implied(COLGROUP, Mode::ColumnGroup);
                return Step::Reprocess;
            }
            TBODY | TFOOT | THEAD => {
                self.clear_to(&[TABLE, TEMPLATE, HTML]);
                self.push_mode(name, Mode::TableBody);
            }
            TD | TH | TR => {
                self.clear_to(&[TABLE, TEMPLATE, HTML]);
                self.push_implied(TBODY, Mode::TableBody);
                return Step::Reprocess;
            }
            TABLE => {
                if self.in_table_scope(&[TABLE]) {
                    self.pop_until(TABLE);
                    return Step::Reprocess;
                }
            }
            STYLE | SCRIPT | TEMPLATE => return self.in_head_start(name),
            INPUT => {}
            FORM => {
                if !self.has_template() && !self.form_open {
                    // Inserted and popped at once: it only sets the form pointer.
                    self.form_open = true;
                }
            }
            // "Anything else": in-body rules with foster parenting.
            _ => return self.in_body_start(tag),
        }
        Step::Done
    }

    /// End tags of the three table modes (13.2.6.4.9, .13, .14).
    fn table_end(&mut self, name: Atom) -> Step {
        let mode = self.mode();
        match name {
            TR if mode == Mode::Row => {
                if self.in_table_scope(&[TR]) {
                    self.clear_to(&[TR, TEMPLATE, HTML]);
                    self.pop();
                }
                Step::Done
            }
            TBODY | TFOOT | THEAD if mode == Mode::TableBody => {
                if self.in_table_scope(&[name]) {
                    self.clear_to(&[TBODY, TFOOT, THEAD, TEMPLATE, HTML]);
                    self.pop();
                }
                Step::Done
            }
            TABLE | TBODY | TFOOT | THEAD if mode == Mode::Row => {
                let ok =
                    self.in_table_scope(&[TR]) && (name == TABLE || self.in_table_scope(&[name]));
                if !ok {
                    return Step::Done;
                }
                self.clear_to(&[TR, TEMPLATE, HTML]);
                self.pop();
                Step::Reprocess
            }
            TABLE if mode == Mode::TableBody => {
                if !self.in_table_scope(SECTIONS) {
                    return Step::Done;
                }
                self.clear_to(&[TBODY, TFOOT, THEAD, TEMPLATE, HTML]);
                self.pop();
                Step::Reprocess
            }
            TABLE => {
                if self.in_table_scope(&[TABLE]) {
                    self.pop_until(TABLE);
                }
                Step::Done
            }
            BODY | CAPTION | COL | COLGROUP | HTML | TBODY | TD | TFOOT | TH | THEAD | TR => {
                Step::Done
            }
            TEMPLATE => self.template_end(),
            _ => self.in_body_end(name),
        }
    }

    /// 13.2.6.4.7 "in body" start tags (A.6 for `select` and its content).
    fn in_body_start(&mut self, tag: Start) -> Step {
        self.in_body_start_named(tag.name, tag.self_closing)
    }

    fn in_body_start_named(&mut self, name: Atom, self_closing: bool) -> Step {
        if !self.seen_html && name != HTML {
            self.imply_html();
        }
        match name {
            HTML => {
                if !self.seen_html && self.stack.is_empty() {
                    self.seen_html = true;
                    self.push(name);
                }
                return Step::Done;
            }
            HEAD => {
                if !self.seen_head && !self.seen_body {
                    self.seen_head = true;
                    self.push_mode(name, Mode::Head);
                }
                return Step::Done;
            }
            BASE | BASEFONT | BGSOUND | LINK | META | NOFRAMES | SCRIPT | STYLE | TEMPLATE
            | TITLE => {
                if self.imply_document && !self.seen_head && !self.seen_body && self.only_html() {
                    // "before head": anything else implies the head element.
                    self.seen_head = true;
                    self.push_implied(HEAD, Mode::Head);
                }
                return self.in_head_start(name);
            }
            BODY | FRAMESET => {
                if !self.seen_body {
                    self.imply_empty_head();
                    self.seen_body = true;
                    self.frameset = name == FRAMESET;
                    self.push_mode(name, Mode::Body);
                } else if name == BODY && self.body_implied && self.top_is(BODY) {
                    // Merged into the implied body: that element, as if opened here.
                    self.body_implied = false;
                    self.opened_at = Some(self.stack.len() - 1);
                }
                return Step::Done;
            }
            _ => {}
        }
        self.imply_body();
        match name {
            _ if BLOCK_STARTS.contains(&name) => {
                self.close_p_in_button_scope();
                self.push(name);
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                self.close_p_in_button_scope();
                if self
                    .stack
                    .last()
                    .is_some_and(|n| n.ns == Ns::Html && is_heading(n.name))
                {
                    self.pop();
                }
                self.push(name);
            }
            PRE | LISTING => {
                self.close_p_in_button_scope();
                self.push(name);
            }
            FORM => {
                let template = self.has_template();
                if self.form_open && !template {
                    return Step::Done;
                }
                self.close_p_in_button_scope();
                self.push(name);
                if !template {
                    self.form_open = true;
                }
            }
            LI => {
                self.close_list_item(&[LI]);
                self.close_p_in_button_scope();
                self.push(name);
            }
            DD | DT => {
                self.close_list_item(&[DD, DT]);
                self.close_p_in_button_scope();
                self.push(name);
            }
            PLAINTEXT => {
                self.close_p_in_button_scope();
                self.push_text(name, TokenizerSwitch::Plaintext);
            }
            BUTTON => {
                if self.in_scope(BUTTON) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(BUTTON);
                }
                self.push(name);
            }
            A => {
                let open_a = self.stack.iter().rev().find_map(|n| {
                    if n.ns == Ns::Html && n.name == A {
                        Some(true)
                    } else if n.ns == Ns::Html && MARKERS.contains(&n.name) {
                        Some(false)
                    } else {
                        None
                    }
                });
                if open_a == Some(true) {
                    self.formatting_end(A);
                }
                self.push(name);
            }
            NOBR => {
                if self.in_scope(NOBR) {
                    self.formatting_end(NOBR);
                }
                self.push(name);
            }
            TABLE => {
                if !self.config.quirks {
                    self.close_p_in_button_scope();
                }
                self.push_mode(name, Mode::Table);
            }
            AREA | BR | EMBED | IMG | KEYGEN | WBR | PARAM | SOURCE | TRACK | IMAGE => {}
            INPUT => {
                if self.in_scope(SELECT) {
                    self.pop_until(SELECT);
                }
            }
            HR => {
                self.close_p_in_button_scope();
                if self.in_scope(SELECT) {
                    self.generate_implied_end_tags(None);
                }
            }
            TEXTAREA => self.push_text(name, TokenizerSwitch::Rcdata),
            XMP => {
                self.close_p_in_button_scope();
                self.push_text(name, TokenizerSwitch::Rawtext);
            }
            IFRAME | NOEMBED => self.push_text(name, TokenizerSwitch::Rawtext),
            NOSCRIPT if self.config.scripting => self.push_text(name, TokenizerSwitch::Rawtext),
            SELECT => {
                if self.in_scope(SELECT) {
                    // A.6: the token is ignored and closes the open select.
                    self.pop_until(SELECT);
                } else {
                    self.push(name);
                }
            }
            OPTION => {
                if self.in_scope(SELECT) {
                    self.generate_implied_end_tags(Some(OPTGROUP));
                } else if self.top_is(OPTION) {
                    self.pop();
                }
                self.push(name);
            }
            OPTGROUP => {
                if self.in_scope(SELECT) {
                    self.generate_implied_end_tags(None);
                } else if self.top_is(OPTION) {
                    self.pop();
                }
                self.push(name);
            }
            RB | RTC | RP | RT => {
                if self.in_scope(RUBY) {
                    let except = if matches!(name, RP | RT) {
                        Some(RTC)
                    } else {
                        None
                    };
                    self.generate_implied_end_tags(except);
                }
                self.push(name);
            }
            MATH | SVG => {
                let ns = if name == MATH { Ns::MathMl } else { Ns::Svg };
                self.tag_ns = ns;
                if !self_closing {
                    let mode = self.mode();
                    self.push_node(Node {
                        name,
                        ns,
                        mode,
                        html_ip: false,
                        text: false,
                    });
                }
            }
            CAPTION | COL | COLGROUP | FRAME | TBODY | TD | TFOOT | TH | THEAD | TR => {}
            _ => self.push(name),
        }
        Step::Done
    }

    /// Any other tag (or text) opens the body, implicitly when it was not seen
    /// ("before head", "in head", "after head": anything else).
    pub(super) fn imply_body(&mut self) {
        if self.seen_body {
            return;
        }
        self.imply_html();
        if self.only_html() {
            self.imply_empty_head();
            self.seen_body = true;
            self.push_implied(BODY, Mode::Body);
            self.body_implied = true;
        }
    }

    /// Whether the stack holds nothing but `html` (or nothing).
    fn only_html(&self) -> bool {
        self.stack
            .iter()
            .all(|n| n.ns == Ns::Html && n.name == HTML)
    }

    /// "before html", anything else: the html element (with implied elements on).
    #[cold]
    fn imply_html(&mut self) {
        if self.imply_document && !self.seen_html && self.stack.is_empty() && !self.frameset {
            self.seen_html = true;
            self.push_implied(HTML, Mode::Body);
        }
    }

    /// "before head" then "in head", anything else: an empty head, created and
    /// popped before the body (with implied elements on).
    fn imply_empty_head(&mut self) {
        if self.imply_document && !self.seen_head {
            self.seen_head = true;
            self.transient.push((self.stack.len(), HEAD));
        }
    }

    /// 13.2.6.4.7 "in body" end tags.
    fn in_body_end(&mut self, name: Atom) -> Step {
        match name {
            // "after body": later content still goes into the body.
            BODY | HTML | BR => {}
            _ if BLOCK_ENDS.contains(&name) => {
                if self.in_scope(name) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(name);
                }
            }
            FORM => {
                if self.has_template() {
                    if self.in_scope(FORM) {
                        self.generate_implied_end_tags(None);
                        self.pop_until(FORM);
                    }
                } else {
                    self.form_open = false;
                    if self.in_scope(FORM) {
                        self.generate_implied_end_tags(None);
                        // Only the current node is removed here (see the module docs).
                        if self.top_is(FORM) {
                            self.pop();
                        }
                    }
                }
            }
            P => {
                if self.in_button_scope(P) {
                    self.generate_implied_end_tags(Some(P));
                    self.pop_until(P);
                } else if self.imply_document && !self.stack.is_empty() {
                    // "Insert an HTML element for a p start tag", then close it.
                    self.imply_body();
                    if self.stack.len() < self.config.max_depth.max(2) {
                        self.transient.push((self.stack.len(), P));
                    }
                }
            }
            LI => {
                if self.in_scope_with(&[LI], &[OL, UL], false) {
                    self.generate_implied_end_tags(Some(LI));
                    self.pop_until(LI);
                }
            }
            DD | DT => {
                if self.in_scope(name) {
                    self.generate_implied_end_tags(Some(name));
                    self.pop_until(name);
                }
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                if self.in_scope_with(HEADINGS, &[], false) {
                    self.generate_implied_end_tags(None);
                    self.pop_until_any(HEADINGS);
                }
            }
            _ if FORMATTING.contains(&name) => self.formatting_end(name),
            APPLET | MARQUEE | OBJECT => {
                if self.in_scope(name) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(name);
                }
            }
            TEMPLATE => return self.template_end(),
            _ => self.any_other_end(name),
        }
        Step::Done
    }

    /// "An end tag whose tag name is template" (13.2.6.4.4).
    fn template_end(&mut self) -> Step {
        if self.has_template() {
            while let Some(top) = self.stack.last() {
                let thorough = top.ns == Ns::Html
                    && crate::tree_builder::tag_sets::has_implied_end_tag_thoroughly(top.name);
                if !thorough {
                    break;
                }
                self.pop();
            }
            self.pop_until(TEMPLATE);
        }
        Step::Done
    }

    /// The adoption agency algorithm's effect on the stack, reduced (see the module
    /// docs): no formatting element → "any other end tag"; not in scope → ignored;
    /// nothing special after it → popped to it; else the stack is left as it is.
    fn formatting_end(&mut self, name: Atom) {
        let Some(i) = self
            .stack
            .iter()
            .rposition(|n| n.ns == Ns::Html && n.name == name)
        else {
            return self.any_other_end(name);
        };
        let crossed_marker = self.stack[i + 1..]
            .iter()
            .any(|n| n.ns == Ns::Html && MARKERS.contains(&n.name));
        if crossed_marker {
            return self.any_other_end(name);
        }
        if !self.in_scope(name) {
            return;
        }
        if self.stack[i + 1..].iter().any(Self::is_special) {
            return;
        }
        self.truncate(i);
    }

    /// 13.2.6.4.7 "any other end tag".
    fn any_other_end(&mut self, name: Atom) {
        let mut i = self.stack.len();
        while i > 0 {
            i -= 1;
            let node = self.stack[i];
            if node.ns == Ns::Html && node.name == name {
                self.generate_implied_end_tags(Some(name));
                self.truncate(i.min(self.stack.len()));
                return;
            }
            if Self::is_special(&node) {
                return;
            }
        }
    }

    /// "Close a p element" when one is in button scope.
    fn close_p_in_button_scope(&mut self) {
        if self.in_button_scope(P) {
            self.generate_implied_end_tags(Some(P));
            self.pop_until(P);
        }
    }

    /// The `li` / `dd`-`dt` loop of 13.2.6.4.7.
    fn close_list_item(&mut self, names: &[Atom]) {
        for i in (0..self.stack.len()).rev() {
            let node = self.stack[i];
            if node.ns == Ns::Html && names.contains(&node.name) {
                self.generate_implied_end_tags(Some(node.name));
                self.pop_until(node.name);
                return;
            }
            let special = Self::is_special(&node)
                && !(node.ns == Ns::Html && matches!(node.name, ADDRESS | DIV | P));
            if special {
                return;
            }
        }
    }

    /// "Close the cell" (13.2.6.4.15).
    fn close_cell(&mut self) {
        self.generate_implied_end_tags(None);
        self.pop_until_any(&[TD, TH]);
    }

    /// "Clear the stack back to a … context": pop until the current node is one
    /// of `names` (or the stack is empty).
    fn clear_to(&mut self, names: &[Atom]) {
        while let Some(top) = self.stack.last() {
            if top.ns == Ns::Html && names.contains(&top.name) {
                break;
            }
            self.pop();
        }
    }
}
