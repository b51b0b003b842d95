//! 13.2.6.4.7 "in body": start tags.

use crate::atom::{self, Atom};
use crate::dom_patch::Namespace;
use crate::error::ErrorCode;
use crate::token::{Tag, Token};
use crate::tree_builder::open_stack::{Category, ElemKey};
use crate::tree_builder::sink::{ElementAttrs, TreeSink};
use crate::tree_builder::stack::Scope;
use crate::tree_builder::{Flow, InsertionMode, TokenizerSwitch, TreeBuilder, tag_sets};

impl TreeBuilder {
    pub(crate) fn in_body_start_tag<'a>(&mut self, tag: Tag<'a>, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match tag.name {
            HTML => {
                self.parse_error(ErrorCode::UnexpectedStartTag);
                if !self.has_open(TEMPLATE)
                    && let Some(html) = self.open.first()
                {
                    self.add_attributes(html, &tag);
                }
            }
            BASE | BASEFONT | BGSOUND | LINK | META | NOFRAMES | SCRIPT | STYLE | TEMPLATE
            | TITLE => return self.in_head(token),
            BODY => {
                self.parse_error(ErrorCode::UnexpectedStartTag);
                let body = self.open.get(1);
                if let Some(body) = body
                    && self.is_html(body, BODY)
                    && !self.has_open(TEMPLATE)
                {
                    self.frameset_ok = false;
                    self.add_attributes(body, &tag);
                }
            }
            FRAMESET => {
                self.parse_error(ErrorCode::UnexpectedStartTag);
                let body = self.open.get(1);
                if let Some(body) = body
                    && self.is_html(body, BODY)
                    && self.frameset_ok
                {
                    self.detach(body);
                    self.open.truncate(1);
                    self.insert_html_element(&tag);
                    self.mode = InsertionMode::InFrameset;
                }
            }
            ADDRESS | ARTICLE | ASIDE | BLOCKQUOTE | CENTER | DETAILS | DIALOG | DIR | DIV | DL
            | FIELDSET | FIGCAPTION | FIGURE | FOOTER | HEADER | HGROUP | MAIN | MENU | NAV
            | OL | P | SEARCH | SECTION | SUMMARY | UL => {
                self.close_p_if_in_button_scope();
                self.insert_html_element(&tag);
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                self.close_p_if_in_button_scope();
                if self
                    .current_node()
                    .and_then(|n| self.html_name(n))
                    .is_some_and(tag_sets::is_heading)
                {
                    self.parse_error(ErrorCode::UnexpectedNestedElement);
                    self.pop();
                }
                self.insert_html_element(&tag);
            }
            PRE | LISTING => {
                self.close_p_if_in_button_scope();
                self.insert_html_element(&tag);
                self.skip_newline = true;
                self.frameset_ok = false;
            }
            FORM => {
                let in_template = self.has_open(TEMPLATE);
                if self.form.is_some() && !in_template {
                    self.parse_error(ErrorCode::UnexpectedNestedElement);
                } else {
                    self.close_p_if_in_button_scope();
                    let form = self.insert_html_element(&tag);
                    if !in_template {
                        self.form = Some(form);
                    }
                }
            }
            LI => {
                self.close_list_item(&[LI], Scope::ListItem);
                self.insert_html_element(&tag);
            }
            DD | DT => {
                self.close_list_item(&[DD, DT], Scope::Default);
                self.insert_html_element(&tag);
            }
            PLAINTEXT => {
                self.close_p_if_in_button_scope();
                self.insert_html_element(&tag);
                self.tokenizer_switch = Some(TokenizerSwitch::Plaintext);
            }
            BUTTON => {
                if self.has_in_scope(BUTTON, Scope::Default) {
                    self.parse_error(ErrorCode::UnexpectedNestedElement);
                    self.generate_implied_end_tags(None);
                    self.pop_until(BUTTON);
                }
                self.reconstruct_active_formatting();
                self.insert_html_element(&tag);
                self.frameset_ok = false;
            }
            A => {
                if let Some(a) = self.formatting_element_named(A) {
                    self.parse_error(ErrorCode::UnexpectedNestedElement);
                    if !self.adoption_agency(A) {
                        self.any_other_end_tag(A);
                    }
                    self.active.remove(a);
                    self.forget_kept_attrs(a);
                    if let Some(i) = self.open.position(a) {
                        self.open.remove(i);
                    }
                }
                self.reconstruct_active_formatting();
                let a = self.insert_html_element(&tag);
                self.push_formatting(a);
            }
            B | BIG | CODE | EM | FONT | I | S | SMALL | STRIKE | STRONG | TT | U => {
                self.reconstruct_active_formatting();
                let e = self.insert_html_element(&tag);
                self.push_formatting(e);
            }
            NOBR => {
                self.reconstruct_active_formatting();
                if self.has_in_scope(NOBR, Scope::Default) {
                    self.parse_error(ErrorCode::UnexpectedNestedElement);
                    if !self.adoption_agency(NOBR) {
                        self.any_other_end_tag(NOBR);
                    }
                    self.reconstruct_active_formatting();
                }
                let e = self.insert_html_element(&tag);
                self.push_formatting(e);
            }
            APPLET | MARQUEE | OBJECT => {
                self.reconstruct_active_formatting();
                self.insert_html_element(&tag);
                self.active.push_marker();
                self.frameset_ok = false;
            }
            TABLE => {
                if self.quirks != crate::dom_patch::QuirksMode::Quirks {
                    self.close_p_if_in_button_scope();
                }
                self.insert_html_element(&tag);
                self.frameset_ok = false;
                self.mode = InsertionMode::InTable;
            }
            AREA | BR | EMBED | IMG | KEYGEN | WBR => {
                self.reconstruct_active_formatting();
                self.insert_void_element(&tag);
                self.frameset_ok = false;
            }
            INPUT => {
                // A.6.
                if self.context_is(SELECT) {
                    self.parse_error(ErrorCode::UnexpectedStartTag);
                    return Flow::Done;
                }
                if self.has_in_scope(SELECT, Scope::Default) {
                    self.parse_error(ErrorCode::UnexpectedStartTag);
                    self.pop_until(SELECT);
                }
                self.reconstruct_active_formatting();
                self.insert_void_element(&tag);
                if !tag
                    .attrs
                    .value_of(TYPE)
                    .is_some_and(|t| t.eq_ignore_ascii_case("hidden"))
                {
                    self.frameset_ok = false;
                }
            }
            PARAM | SOURCE | TRACK => self.insert_void_element(&tag),
            HR => {
                // A.6.
                self.close_p_if_in_button_scope();
                if self.has_in_scope(SELECT, Scope::Default) {
                    self.generate_implied_end_tags(None);
                    if self.has_in_scope(OPTION, Scope::Default)
                        || self.has_in_scope(OPTGROUP, Scope::Default)
                    {
                        self.parse_error(ErrorCode::ImplicitlyClosedElements);
                    }
                }
                self.insert_void_element(&tag);
                self.frameset_ok = false;
            }
            IMAGE => {
                // Parse error; treat as `img` ("Don't ask.").
                self.parse_error(ErrorCode::UnexpectedStartTag);
                let mut img = tag;
                img.name = IMG;
                return Flow::Reprocess(Token::StartTag(img));
            }
            TEXTAREA => {
                self.insert_html_element(&tag);
                self.skip_newline = true;
                self.tokenizer_switch = Some(TokenizerSwitch::Rcdata);
                self.original_mode = self.mode;
                self.frameset_ok = false;
                self.mode = InsertionMode::Text;
            }
            XMP => {
                self.close_p_if_in_button_scope();
                self.reconstruct_active_formatting();
                self.frameset_ok = false;
                self.parse_text_element(&tag, TokenizerSwitch::Rawtext);
            }
            IFRAME => {
                self.frameset_ok = false;
                self.parse_text_element(&tag, TokenizerSwitch::Rawtext);
            }
            NOEMBED => self.parse_text_element(&tag, TokenizerSwitch::Rawtext),
            NOSCRIPT if self.config.scripting => {
                self.parse_text_element(&tag, TokenizerSwitch::Rawtext)
            }
            SELECT => {
                // A.6.
                if self.context_is(SELECT) {
                    self.parse_error(ErrorCode::UnexpectedNestedElement);
                } else if self.has_in_scope(SELECT, Scope::Default) {
                    self.parse_error(ErrorCode::UnexpectedNestedElement);
                    self.pop_until(SELECT);
                } else {
                    self.reconstruct_active_formatting();
                    self.insert_html_element(&tag);
                    self.frameset_ok = false;
                }
            }
            OPTION | OPTGROUP => {
                // A.6.
                if self.has_in_scope(SELECT, Scope::Default) {
                    let except = (tag.name == OPTION).then_some(OPTGROUP);
                    self.generate_implied_end_tags(except);
                    if self.has_in_scope(OPTION, Scope::Default)
                        || (tag.name == OPTGROUP && self.has_in_scope(OPTGROUP, Scope::Default))
                    {
                        self.parse_error(ErrorCode::ImplicitlyClosedElements);
                    }
                } else if self.current_is(OPTION) {
                    self.pop();
                }
                self.reconstruct_active_formatting();
                let element = self.insert_html_element(&tag);
                if tag.name == OPTION {
                    let selected = tag.attrs.value_of(SELECTED).is_some();
                    self.option_inserted(element, selected);
                }
            }
            RB | RTC => {
                if self.has_in_scope(RUBY, Scope::Default) {
                    self.generate_implied_end_tags(None);
                    if !self.current_is(RUBY) {
                        self.parse_error(ErrorCode::ImplicitlyClosedElements);
                    }
                }
                self.insert_html_element(&tag);
            }
            RP | RT => {
                if self.has_in_scope(RUBY, Scope::Default) {
                    self.generate_implied_end_tags(Some(RTC));
                    if !self.current_is(RTC) && !self.current_is(RUBY) {
                        self.parse_error(ErrorCode::ImplicitlyClosedElements);
                    }
                }
                self.insert_html_element(&tag);
            }
            MATH | SVG => {
                self.reconstruct_active_formatting();
                let ns = if tag.name == MATH {
                    Namespace::MathMl
                } else {
                    Namespace::Svg
                };
                self.insert_foreign_element(&tag, ns, false);
                if tag.self_closing {
                    self.pop();
                }
            }
            CAPTION | COL | COLGROUP | FRAME | HEAD | TBODY | TD | TFOOT | TH | THEAD | TR => {
                self.parse_error(ErrorCode::UnexpectedStartTag);
            }
            _ => {
                self.reconstruct_active_formatting();
                let element = self.insert_html_element(&tag);
                if tag.name == SELECTEDCONTENT {
                    self.selectedcontent_inserted(element);
                }
            }
        }
        Flow::Done
    }

    /// The `li` / `dd` / `dt` start tag loop: close an open item of the same
    /// kind unless a special element (other than `address`, `div`, `p`) is in
    /// the way, then close a `p` in button scope.
    fn close_list_item(&mut self, names: &[Atom], _scope: Scope) {
        self.frameset_ok = false;
        // The walk down the stack, answered from its index: the topmost item of
        // the kind, unless a special element other than `address`, `div`, `p`
        // sits above it (the item itself is one).
        let item = names
            .iter()
            .filter_map(|&n| self.open.top(ElemKey::html(n)))
            .max();
        // The blocker scan only when there is an item to close.
        if let Some(index) = item
            && self
                .open
                .top_in(Category::SpecialNotAddressDivP)
                .is_none_or(|b| index >= b)
            && let Some(name) = self.open.get(index).and_then(|n| self.html_name(n))
        {
            self.generate_implied_end_tags(Some(name));
            if !self.current_is(name) {
                self.parse_error(ErrorCode::ImplicitlyClosedElements);
            }
            self.pop_until(name);
        }
        self.close_p_if_in_button_scope();
    }

    /// Whether this is the fragment case with an HTML context element `name`.
    pub(crate) fn context_is(&self, name: Atom) -> bool {
        self.context.is_some_and(|c| self.is_html(c, name))
    }

    /// The `<html>`/`<body>` merge: add the token's attributes the element lacks
    /// (the store skips the ones it has).
    fn add_attributes(&mut self, node: usize, tag: &Tag<'_>) {
        if tag.attrs.is_empty() {
            return;
        }
        let key = self.mirror.key(node);
        self.emit
            .add_attributes(key, ElementAttrs::token(tag.attrs, tag.atoms()));
    }
}
