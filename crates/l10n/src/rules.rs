//! Element and attribute rules: which elements are blocks, which are opaque, which
//! attributes are translatable. A configuration, not code: [`Rules::default`] holds
//! the built-in defaults and [`Rules::from_json_file`] overrides any of them (fields
//! left out of the file keep their defaults).
//!
//! ```
//! use tagloom_l10n::rules::Rules;
//! let rules = Rules::from_json_str(r#"{ "opaque": ["script", "style", "code"] }"#)?;
//! assert!(rules.is_opaque("code"));
//! assert!(rules.is_block("p")); // default kept
//! # Ok::<(), String>(())
//! ```

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{L10nError, Result};

/// A translatable attribute: `name` on `elements` (`"*"` for any), optionally only
/// when another attribute has one of some values (`"og:*"` matches a prefix).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct AttrRule {
    /// The attribute.
    pub name: String,
    /// The elements it applies to (`"*"`: all).
    pub elements: Vec<String>,
    /// Only when this attribute…
    #[serde(default)]
    pub when_attr: Option<String>,
    /// …has one of these values (ASCII case-insensitive; a trailing `*` matches a prefix).
    #[serde(default)]
    pub when_values: Vec<String>,
}

/// The rules of the reader. See the module docs.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Block-level elements: a block is a container if it has block children,
    /// else its content is one translatable block. Everything else is inline.
    pub blocks: Vec<String>,
    /// Elements whose whole subtree is non-translatable and goes to the skeleton
    /// (`script`, `style`…; inside a block they become one placeholder).
    pub opaque: Vec<String>,
    /// Void elements (no end tag).
    pub void: Vec<String>,
    /// Elements whose whitespace is kept as is (`pre`, `textarea`).
    pub preserve_whitespace: Vec<String>,
    /// Block starts that close an open element implicitly: element → closers
    /// (`"*block"` stands for every block element).
    pub implied_end: HashMap<String, Vec<String>>,
    /// Translatable attributes.
    pub attributes: Vec<AttrRule>,
    /// Elements protected like `translate="no"` (inherited: their subtree is not
    /// extracted, not pseudo-translated, and inside a block it is one placeholder
    /// code): `code`, `kbd`, `samp`, `var` by default. Remove one to translate it;
    /// add `pre` to protect preformatted blocks as well.
    pub protected: Vec<String>,
    /// Classes that mean `translate="no"` (Google's `notranslate` by default).
    pub no_translate_classes: Vec<String>,
    /// The fewest letters (Unicode alphabetic characters) a unit's text must have:
    /// text with fewer (`,`, `|`, NBSP, `-1`, `©`, `→`, `2024`) stays in the
    /// skeleton untouched. Digits are not letters, so pure numbers are not units;
    /// `0` makes any non-whitespace text a unit (the old behaviour).
    pub min_letters: usize,
    /// Language attributes spliced as Lang entries.
    pub lang_attributes: Vec<String>,
    /// Also treat `<meta http-equiv="content-language" content>` as a language value.
    pub content_language_meta: bool,
    /// Tokenize `<noscript>` content as raw text (scripting on). Off by default: its
    /// markup is read and translated (scripting off).
    pub noscript_rawtext: bool,
    /// Forward-scan budget in tokens: past it an element is treated as a container.
    pub scan_token_budget: usize,
    /// Forward-scan budget in bytes of decoded input.
    pub scan_byte_budget: usize,
    /// The largest single token (a tag, a comment) the tokenizer buffers; past it
    /// the extraction fails with a clear error instead of growing without bound.
    pub max_token_bytes: usize,
    /// The deepest nesting of open elements the reader follows, as the tree builder's
    /// `max_depth` (default 512, the same): a deeper element is still read, but as a
    /// sibling of the element at the limit, so unit ids and paths stay bounded.
    pub max_depth: usize,
    /// How units get their ids (see [`IdScheme`]); rules files spell it
    /// `"ids": "content"` or `"ids": "structural"`.
    pub ids: IdScheme,
    /// Whether units are cut into sentences ([`crate::segment`]); rules files spell
    /// it `"segment": "sentences"` (default `"none"`).
    pub segment: crate::segment::Segmentation,
    #[serde(skip)]
    index: Index,
}

/// How the reader names units (`crate::reader` module docs, "Unit ids").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IdScheme {
    /// `id.hello` for an element with an `id` (and its attributes), else `c.` and
    /// a digest of the unit's source text and code markers (`c.3fa9c0d1e2b4`, a
    /// repeat `c.3fa9c0d1e2b4.2`): an id survives inserted, deleted and moved
    /// blocks elsewhere on the page. The default.
    #[default]
    Content,
    /// The structural key (`html-1.body-1.p-2`, restarting at an element `id`):
    /// the scheme of earlier versions; inserting a paragraph renumbers the later
    /// ones.
    Structural,
}

/// How an element reads inside a block ([`Rules::inline_role`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InlineRole {
    /// Opaque, or it does not translate: the whole subtree is one placeholder code.
    Protected,
    /// Void (or a self-closing tag): one placeholder code.
    Placeholder,
    /// A pair of codes (open, close) around its content, which is read on.
    Paired,
}

#[derive(Clone, Debug, Default)]
struct Index {
    built: bool,
    blocks: crate::FastSet<String>,
    opaque: crate::FastSet<String>,
    void: crate::FastSet<String>,
    preserve: crate::FastSet<String>,
    lang: crate::FastSet<String>,
    protected: crate::FastSet<String>,
    attr_names: crate::FastSet<String>,
    /// [`Rules::implied_end`] in a map of the crate's fast hasher (the reader asks
    /// it per start tag under an element some start tag ends).
    implied_end: crate::FastMap<String, Vec<String>>,
    /// Every closer [`Rules::implied_end`] names (`*block` aside), and whether
    /// one entry has `*block`: what [`NameClass::ends`] asks.
    closers: crate::FastSet<String>,
    block_closes: bool,
    /// [`Rules::class_of_str`] of every static atom, by atom index: a tag name the
    /// tokenizer gave a static atom is classified with one load.
    static_classes: Vec<NameClass>,
    /// [`Rules::attr_class_of_str`] of every static atom, by atom index.
    static_attr_classes: Vec<AttrClass>,
}

/// What the rules say about an attribute name ([`Rules::attr_class`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct AttrClass(u8);

impl AttrClass {
    const LANG: u8 = 1;
    const NAMED: u8 = 2;
    const READ: u8 = 4;

    /// [`Rules::is_lang_attr`].
    pub(crate) fn lang(self) -> bool {
        self.0 & Self::LANG != 0
    }

    /// Whether some attribute rule names it (it may be translatable: see
    /// [`Rules::is_translatable_attr`]).
    pub(crate) fn named(self) -> bool {
        self.0 & Self::NAMED != 0
    }

    /// Whether the reader ever reads the value of an attribute of this name (see
    /// [`Rules::attr_class_of_str`]); the values of the others are not copied.
    pub(crate) fn read(self) -> bool {
        self.0 & Self::READ != 0
    }
}

/// The attributes whose values the reader reads besides the language attributes
/// and those some attribute rule names: `translate` and the no-translate classes,
/// unit ids, the language switchers' `hreflang`, the page's `dir`, a
/// content-language `<meta>`.
const READ_ATTRIBUTES: &[&str] = &[
    "class",
    "translate",
    "id",
    "hreflang",
    "dir",
    "lang",
    "xml:lang",
    "http-equiv",
    "content",
];

/// What the element rules say about a tag name, all at once ([`Rules::class_of`]):
/// the reader asks it once per tag when the tag is fetched, not once per question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NameClass(u8);

impl NameClass {
    const BLOCK: u8 = 1;
    const OPAQUE: u8 = 2;
    const VOID: u8 = 4;
    const PRESERVE: u8 = 8;
    const PROTECTED: u8 = 16;
    const IMPLIED: u8 = 32;
    const ENDS: u8 = 64;

    /// [`Rules::is_block`].
    pub(crate) fn block(self) -> bool {
        self.0 & Self::BLOCK != 0
    }
    /// [`Rules::is_opaque`].
    pub(crate) fn opaque(self) -> bool {
        self.0 & Self::OPAQUE != 0
    }
    /// [`Rules::is_void`].
    pub(crate) fn void(self) -> bool {
        self.0 & Self::VOID != 0
    }
    /// [`Rules::preserves_whitespace`].
    pub(crate) fn preserve(self) -> bool {
        self.0 & Self::PRESERVE != 0
    }
    /// [`Rules::is_protected`].
    pub(crate) fn protected(self) -> bool {
        self.0 & Self::PROTECTED != 0
    }
    /// Whether some start tag implicitly ends the element (it has an entry in
    /// [`Rules::implied_end`]; else [`Rules::implies_end`] is false for it).
    pub(crate) fn implied(self) -> bool {
        self.0 & Self::IMPLIED != 0
    }
    /// Whether a start tag of this name implicitly ends some element (it is in
    /// an entry of [`Rules::implied_end`], or a block where one has `*block`;
    /// else [`Rules::implies_end`] is false with it as the closer).
    pub(crate) fn ends(self) -> bool {
        self.0 & Self::ENDS != 0
    }
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Headings (blocks too).
const HEADINGS: &[&str] = &["h1", "h2", "h3", "h4", "h5", "h6"];

const BLOCKS: &[&str] = &[
    "html",
    "head",
    "body",
    "title",
    "p",
    "div",
    "hgroup",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "td",
    "th",
    "colgroup",
    "col",
    "blockquote",
    "pre",
    "address",
    "section",
    "article",
    "aside",
    "header",
    "footer",
    "nav",
    "main",
    "figure",
    "figcaption",
    "form",
    "fieldset",
    "legend",
    "details",
    "summary",
    "dialog",
    "menu",
    "center",
    "dir",
    "listing",
    "option",
    "optgroup",
    "select",
    "datalist",
    "textarea",
    "hr",
    "meta",
    "link",
    "base",
    "noscript",
    "frameset",
    "frame",
    "search",
    "template",
    "video",
    "audio",
    "picture",
    "map",
];

const OPAQUE: &[&str] = &[
    "script",
    "style",
    "svg",
    "math",
    "xmp",
    "plaintext",
    "iframe",
    "noembed",
    "noframes",
];

const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen", "basefont", "bgsound", "frame", "image",
];

/// `<meta name|property>` values whose `content` is text: Open Graph's text
/// properties only (never `og:url`, `og:image`, `og:type`, `og:locale`…: URLs and
/// enumerations).
const META_TEXT_NAMES: &[&str] = &[
    "description",
    "keywords",
    "author",
    "application-name",
    "og:title",
    "og:description",
    "og:site_name",
    "og:image:alt",
    "og:video:alt",
    "twitter:title",
    "twitter:description",
    "twitter:image:alt",
];

/// The default translatable attributes.
fn default_attributes() -> Vec<AttrRule> {
    let attr = |name: &str, elements: &[&str]| AttrRule {
        name: name.into(),
        elements: strings(elements),
        when_attr: None,
        when_values: vec![],
    };
    let when = |name: &str, elements: &[&str], a: &str, values: &[&str]| AttrRule {
        name: name.into(),
        elements: strings(elements),
        when_attr: Some(a.into()),
        when_values: strings(values),
    };
    vec![
        attr("title", &["*"]),
        attr("alt", &["img", "area", "input"]),
        attr("placeholder", &["*"]),
        attr("aria-label", &["*"]),
        attr("aria-description", &["*"]),
        attr("aria-placeholder", &["*"]),
        attr("aria-roledescription", &["*"]),
        attr(
            "label",
            &["optgroup", "option", "track", "menu", "menuitem"],
        ),
        attr("summary", &["table"]),
        attr("abbr", &["th", "td"]),
        attr("standby", &["object"]),
        when("value", &["input"], "type", &["button", "submit", "reset"]),
        when("content", &["meta"], "name", META_TEXT_NAMES),
        when("content", &["meta"], "property", META_TEXT_NAMES),
        when("content", &["meta"], "itemprop", &["name", "description"]),
    ]
}

/// The default implied ends: element → the start tags that end it.
fn default_implied_end() -> HashMap<String, Vec<String>> {
    let cells = &["td", "th", "tr", "tbody", "thead", "tfoot"];
    [
        ("p", &["*block", "p"][..]),
        ("li", &["li"]),
        ("dt", &["dt", "dd"]),
        ("dd", &["dt", "dd"]),
        ("option", &["option", "optgroup"]),
        ("optgroup", &["optgroup"]),
        ("td", cells),
        ("th", cells),
        ("tr", &cells[2..]),
        ("thead", &["tbody", "tfoot"]),
        ("tbody", &["tbody", "tfoot"]),
        ("head", &["body"]),
    ]
    .into_iter()
    .map(|(element, closers)| (element.to_string(), strings(closers)))
    .collect()
}

impl Default for Rules {
    fn default() -> Self {
        let mut rules = Rules {
            blocks: strings(&[BLOCKS, HEADINGS].concat()),
            opaque: strings(OPAQUE),
            void: strings(VOID),
            preserve_whitespace: strings(&["pre", "textarea", "listing"]),
            implied_end: default_implied_end(),
            attributes: default_attributes(),
            protected: strings(&["code", "kbd", "samp", "var"]),
            no_translate_classes: strings(&["notranslate"]),
            min_letters: 1,
            lang_attributes: strings(&["lang", "xml:lang"]),
            content_language_meta: true,
            noscript_rawtext: false,
            scan_token_budget: 4096,
            scan_byte_budget: 256 * 1024,
            max_token_bytes: 16 << 20,
            max_depth: tagloom_html::tree_builder::TreeBuilderConfig::default().max_depth,
            ids: IdScheme::default(),
            segment: crate::segment::Segmentation::None,
            index: Index::default(),
        };
        rules.build_index();
        rules
    }
}

impl Rules {
    /// Rules from JSON text; missing fields keep their defaults.
    pub fn from_json_str(json: &str) -> Result<Self, String> {
        let mut rules: Rules = serde_json::from_str(json).map_err(|e| e.to_string())?;
        rules.build_index();
        Ok(rules)
    }

    /// Rules from a JSON file; missing fields keep their defaults.
    pub fn from_json_file(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| L10nError::Rules {
            path: path.into(),
            message: e.to_string(),
        })?;
        Self::from_json_str(&text).map_err(|message| L10nError::Rules {
            path: path.into(),
            message,
        })
    }

    /// The defaults as pretty JSON (a starting point for a rules file).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    fn build_index(&mut self) {
        let set = |v: &[String]| v.iter().map(|s| s.to_ascii_lowercase()).collect();
        self.index = Index {
            built: true,
            blocks: set(&self.blocks),
            opaque: set(&self.opaque),
            void: set(&self.void),
            preserve: set(&self.preserve_whitespace),
            lang: set(&self.lang_attributes),
            protected: set(&self.protected),
            attr_names: self
                .attributes
                .iter()
                .map(|a| a.name.to_ascii_lowercase())
                .collect(),
            implied_end: (self.implied_end.iter())
                .map(|(element, closers)| (element.clone(), closers.clone()))
                .collect(),
            closers: (self.implied_end.values().flatten())
                .filter(|c| *c != "*block")
                .cloned()
                .collect(),
            block_closes: (self.implied_end.values().flatten()).any(|c| c == "*block"),
            static_classes: Vec::new(),
            static_attr_classes: Vec::new(),
        };
        let names = tagloom_html::atom::STATIC_NAMES;
        let classes = names.iter().map(|name| self.class_of_str(name)).collect();
        let attr_classes = names
            .iter()
            .map(|name| self.attr_class_of_str(name))
            .collect();
        self.index.static_classes = classes;
        self.index.static_attr_classes = attr_classes;
    }

    /// What the rules say about attribute name `name` (see [`AttrClass`]).
    pub(crate) fn attr_class(&self, name: &tagloom_html::token::Name) -> AttrClass {
        name.atom()
            .and_then(|atom| self.index().static_attr_classes.get(atom.index() as usize))
            .copied()
            .unwrap_or_else(|| self.attr_class_of_str(name.as_str()))
    }

    /// [`Rules::attr_class`] by the name's text.
    pub(crate) fn attr_class_of_str(&self, name: &str) -> AttrClass {
        let bit = |yes: bool, bit: u8| if yes { bit } else { 0 };
        let lang = self.is_lang_attr(name);
        let named = self.index().attr_names.contains(name);
        // What an attribute rule's condition looks up (`when_attr`) is read too.
        let read = lang
            || named
            || READ_ATTRIBUTES.contains(&name)
            || self.attributes.iter().any(|rule| {
                rule.when_attr
                    .as_deref()
                    .is_some_and(|w| w.eq_ignore_ascii_case(name))
            });
        AttrClass(
            bit(lang, AttrClass::LANG) | bit(named, AttrClass::NAMED) | bit(read, AttrClass::READ),
        )
    }

    /// What the element rules say about tag name `name` (see [`NameClass`]).
    pub(crate) fn class_of(&self, name: &tagloom_html::token::Name) -> NameClass {
        name.atom()
            .and_then(|atom| self.index().static_classes.get(atom.index() as usize))
            .copied()
            .unwrap_or_else(|| self.class_of_str(name.as_str()))
    }

    /// [`Rules::class_of`] by the name's text.
    pub(crate) fn class_of_str(&self, name: &str) -> NameClass {
        let bit = |yes: bool, bit: u8| if yes { bit } else { 0 };
        let block = self.is_block(name);
        let index = self.index();
        let ends = index.block_closes && block || index.closers.contains(name);
        NameClass(
            bit(block, NameClass::BLOCK)
                | bit(self.is_opaque(name), NameClass::OPAQUE)
                | bit(self.is_void(name), NameClass::VOID)
                | bit(self.preserves_whitespace(name), NameClass::PRESERVE)
                | bit(self.is_protected(name), NameClass::PROTECTED)
                | bit(self.implied_end.contains_key(name), NameClass::IMPLIED)
                | bit(ends, NameClass::ENDS),
        )
    }

    fn index(&self) -> &Index {
        &self.index
    }

    /// Whether `name` is a block element.
    pub fn is_block(&self, name: &str) -> bool {
        self.index().blocks.contains(name)
    }
    /// Whether `name`'s subtree is non-translatable.
    pub fn is_opaque(&self, name: &str) -> bool {
        self.index().opaque.contains(name)
    }
    /// Whether `name` is void.
    pub fn is_void(&self, name: &str) -> bool {
        self.index().void.contains(name)
    }
    /// Whether whitespace is significant in `name`.
    pub fn preserves_whitespace(&self, name: &str) -> bool {
        self.index().preserve.contains(name)
    }
    /// Whether `attr` is a language attribute.
    pub fn is_lang_attr(&self, attr: &str) -> bool {
        self.index().lang.contains(attr)
    }
    /// Whether attribute `attr` of element `element` holds a language value (what
    /// the writer retargets), given a lookup of the element's attributes: a
    /// [language attribute](Rules::lang_attributes), or the `content` of a
    /// content-language `<meta http-equiv>` when [`Rules::content_language_meta`].
    pub fn is_lang_value<'a>(
        &self,
        element: &str,
        attr: &str,
        lookup: impl Fn(&str) -> Option<&'a str>,
    ) -> bool {
        self.is_lang_attr(attr) || self.is_content_language_meta(element, attr, lookup)
    }

    /// The second half of [`Rules::is_lang_value`]: the `content` of a
    /// content-language `<meta http-equiv>`, when [`Rules::content_language_meta`].
    pub(crate) fn is_content_language_meta<'a>(
        &self,
        element: &str,
        attr: &str,
        lookup: impl Fn(&str) -> Option<&'a str>,
    ) -> bool {
        self.content_language_meta
            && element == "meta"
            && attr == "content"
            && lookup("http-equiv")
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("content-language"))
    }

    /// How an element that is not a block reads inside a block: the one rule of
    /// the reader's blocks (the re-parse fallback applies it to the tree).
    /// `translate` is the element's own ([`Rules::translate_of`]); `self_closing`
    /// whether its start tag was.
    pub fn inline_role(&self, name: &str, translate: bool, self_closing: bool) -> InlineRole {
        Self::inline_role_of(self.class_of_str(name), translate, self_closing)
    }

    /// [`Rules::inline_role`] of a name already classified.
    pub(crate) fn inline_role_of(
        class: NameClass,
        translate: bool,
        self_closing: bool,
    ) -> InlineRole {
        if class.opaque() || !translate {
            InlineRole::Protected
        } else if class.void() || self_closing {
            InlineRole::Placeholder
        } else {
            InlineRole::Paired
        }
    }

    /// Whether `name` is protected like `translate="no"` (see [`Rules::protected`]).
    pub fn is_protected(&self, name: &str) -> bool {
        self.index().protected.contains(name)
    }

    /// Whether an element translates, given its name, a lookup of its attributes and
    /// what it inherits: `translate="no"`, a no-translate class (`notranslate`) or a
    /// protected element (`code`…) say no; `translate="yes"` or `""` says yes;
    /// otherwise it inherits. The one home of this rule (reader and re-parse writer).
    pub fn translate_of<'a>(
        &self,
        name: &str,
        lookup: impl Fn(&str) -> Option<&'a str>,
        inherited: bool,
    ) -> bool {
        self.translate_with(self.is_protected(name), lookup, inherited)
    }

    /// [`Rules::translate_of`] of an element whose protection is known
    /// ([`NameClass::protected`]).
    pub(crate) fn translate_with<'a>(
        &self,
        protected: bool,
        lookup: impl Fn(&str) -> Option<&'a str>,
        inherited: bool,
    ) -> bool {
        if protected {
            return false;
        }
        self.translate_from(lookup("class"), || lookup("translate"), inherited)
    }

    /// [`Rules::translate_with`] of an unprotected element from its `class` and
    /// `translate` values (`translate` asked only when the class does not say
    /// no): for a caller that finds both in one pass over the attributes.
    pub(crate) fn translate_from<'a>(
        &self,
        class: Option<&str>,
        translate: impl FnOnce() -> Option<&'a str>,
        inherited: bool,
    ) -> bool {
        // HTML whitespace is ASCII: the class list is split on bytes (a byte of a
        // longer character is never one), with no character decoding.
        let class_says_no = class.is_some_and(|class| {
            class
                .as_bytes()
                .split(u8::is_ascii_whitespace)
                .any(|c| self.no_translate_classes.iter().any(|n| n.as_bytes() == c))
        });
        if class_says_no {
            return false;
        }
        match translate().map(str::trim) {
            Some(v) if v.eq_ignore_ascii_case("no") => false,
            Some(v) if v.eq_ignore_ascii_case("yes") || v.is_empty() => true,
            _ => inherited,
        }
    }

    /// Whether `text` has enough letters to be a unit (see [`Rules::min_letters`]).
    pub fn is_translatable_text(&self, text: &str) -> bool {
        self.is_translatable_pieces(std::iter::once(text))
    }

    /// [`Rules::is_translatable_text`] of the concatenation of `pieces`, without
    /// joining them (a block's text runs).
    pub(crate) fn is_translatable_pieces<'t>(&self, pieces: impl Iterator<Item = &'t str>) -> bool {
        let chars = pieces.flat_map(str::chars);
        if self.min_letters == 0 {
            return chars
                .into_iter()
                .any(|c| c != '\0' && !crate::reader::is_html_ws(c));
        }
        chars
            .filter(|c| c.is_alphabetic())
            .take(self.min_letters)
            .count()
            >= self.min_letters
    }

    /// Whether the rules are usable (always true for values built by this module).
    pub fn is_ready(&self) -> bool {
        self.index().built
    }

    /// Whether a start tag of `closer` implicitly ends an open `element`.
    pub fn implies_end(&self, element: &str, closer: &str) -> bool {
        match self.index().implied_end.get(element) {
            Some(list) => list
                .iter()
                .any(|c| c == closer || (c == "*block" && self.is_block(closer))),
            None => false,
        }
    }

    /// Whether attribute `attr` of element `element` is translatable, given a lookup
    /// of the element's other attributes.
    pub fn is_translatable_attr<'a>(
        &self,
        element: &str,
        attr: &str,
        lookup: impl Fn(&str) -> Option<&'a str>,
    ) -> bool {
        self.index().attr_names.contains(attr) && self.attr_rule_matches(element, attr, lookup)
    }

    /// [`Rules::is_translatable_attr`] of an attribute some rule names
    /// ([`AttrClass::named`]): whether one of those rules matches.
    pub(crate) fn attr_rule_matches<'a>(
        &self,
        element: &str,
        attr: &str,
        lookup: impl Fn(&str) -> Option<&'a str>,
    ) -> bool {
        self.attributes.iter().any(|rule| {
            rule.name.eq_ignore_ascii_case(attr)
                && rule.elements.iter().any(|e| e == "*" || e == element)
                && match &rule.when_attr {
                    None => true,
                    Some(other) => lookup(other).is_some_and(|v| {
                        let v = v.trim();
                        rule.when_values
                            .iter()
                            .any(|pattern| match pattern.strip_suffix('*') {
                                Some(prefix) => v
                                    .get(..prefix.len())
                                    .is_some_and(|p| p.eq_ignore_ascii_case(prefix)),
                                None => v.eq_ignore_ascii_case(pattern),
                            })
                    }),
                }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translatable_pieces_count_as_the_joined_text() {
        let cases: [&[&str]; 7] = [
            &[],
            &["", " \n"],
            &["\0", " "],
            &["a", "b"],
            &["a", " ", "1"],
            &["\u{e9}t", "\u{e9}"],
            &[" ", "x"],
        ];
        for min_letters in [0, 1, 2, 3] {
            let rules = Rules {
                min_letters,
                ..Rules::default()
            };
            for pieces in cases {
                assert_eq!(
                    rules.is_translatable_pieces(pieces.iter().copied()),
                    rules.is_translatable_text(&pieces.concat()),
                    "{pieces:?}, min_letters {min_letters}"
                );
            }
        }
    }

    /// The per-name tables say what the per-question lookups say, for every static
    /// name and for names that are no atom, with the defaults and with a rules file
    /// that moves names between the sets.
    #[test]
    fn name_classes_agree_with_the_lookups() {
        use tagloom_html::token::Name;
        let custom = Rules::from_json_str(
            r#"{ "blocks": ["p", "my-widget", "span"], "opaque": ["code", "x-raw"],
                 "void": ["x-raw"], "preserve_whitespace": ["my-widget"],
                 "protected": ["kbd", "x-kbd"], "lang_attributes": ["lang", "data-lang"] }"#,
        )
        .unwrap();
        let extra = [
            "my-widget",
            "x-raw",
            "x-kbd",
            "data-lang",
            "data-title",
            "#text",
        ];
        for rules in [Rules::default(), custom] {
            let names = tagloom_html::atom::STATIC_NAMES.iter().chain(&extra);
            for &name in names {
                let class = rules.class_of(&Name::new(name));
                assert_eq!(class, rules.class_of_str(name), "{name}");
                assert_eq!(class.block(), rules.is_block(name), "{name}");
                assert_eq!(class.opaque(), rules.is_opaque(name), "{name}");
                assert_eq!(class.void(), rules.is_void(name), "{name}");
                assert_eq!(class.preserve(), rules.preserves_whitespace(name), "{name}");
                assert_eq!(class.protected(), rules.is_protected(name), "{name}");
                assert_eq!(
                    class.implied(),
                    [
                        "div", "p", "li", "dt", "dd", "option", "optgroup", "td", "th", "tr",
                        "tbody", "thead", "tfoot", "body",
                    ]
                    .iter()
                    .any(|closer| rules.implies_end(name, closer)),
                    "{name}"
                );
                assert_eq!(
                    class.ends(),
                    rules
                        .implied_end
                        .keys()
                        .any(|element| rules.implies_end(element, name)),
                    "{name}"
                );
                let attr = rules.attr_class(&Name::new(name));
                assert_eq!(attr, rules.attr_class_of_str(name), "{name}");
                assert_eq!(attr.lang(), rules.is_lang_attr(name), "{name}");
                assert!(attr.read() || !attr.lang() && !attr.named(), "{name}");
                let when = rules
                    .attributes
                    .iter()
                    .any(|r| r.when_attr.as_deref() == Some(name));
                assert!(
                    attr.read() || !when && !READ_ATTRIBUTES.contains(&name),
                    "{name}"
                );
                for element in ["img", "a", "meta", "my-widget"] {
                    let lookup = |a: &str| (a == "name").then_some("description");
                    assert_eq!(
                        attr.named() && rules.attr_rule_matches(element, name, lookup),
                        rules.is_translatable_attr(element, name, lookup),
                        "{element} {name}"
                    );
                }
            }
        }
    }

    #[test]
    fn defaults() {
        let r = Rules::default();
        assert!(r.is_block("p") && !r.is_block("b") && r.is_opaque("script"));
        assert!(r.is_translatable_attr("img", "alt", |_| None));
        assert!(!r.is_translatable_attr("img", "src", |_| None));
        let og = |a: &str| (a == "property").then_some("og:title");
        assert!(r.is_translatable_attr("meta", "content", og));
        let viewport = |a: &str| (a == "name").then_some("viewport");
        assert!(!r.is_translatable_attr("meta", "content", viewport));
        let submit = |a: &str| (a == "type").then_some("Submit");
        assert!(r.is_translatable_attr("input", "value", submit));
        assert!(!r.is_translatable_attr("input", "value", |_| Some("text")));
        assert!(
            r.implies_end("p", "div") && r.implies_end("li", "li") && !r.implies_end("li", "p")
        );
    }

    #[test]
    fn junk_and_protection_rules() {
        let r = Rules::default();
        for (p, yes) in [
            ("og:title", true),
            ("og:image:alt", true),
            ("og:url", false),
            ("og:image", false),
            ("og:type", false),
            ("og:locale", false),
        ] {
            let lookup = |a: &str| (a == "property").then_some(p);
            assert_eq!(
                r.is_translatable_attr("meta", "content", lookup),
                yes,
                "{p}"
            );
        }
        for (text, yes) in [
            ("a", true),
            ("3D", true),
            ("\u{65e5}", true),
            (",", false),
            ("\u{a0}", false),
            ("-1", false),
            ("2024", false),
            ("\u{a9} \u{2192}", false),
        ] {
            assert_eq!(r.is_translatable_text(text), yes, "{text:?}");
        }
        let none = |_: &str| None;
        assert!(!r.translate_of("code", none, true) && r.translate_of("span", none, true));
        assert!(!r.translate_of("span", none, false));
        let class = |v: &'static str| move |a: &str| (a == "class").then_some(v);
        assert!(!r.translate_of("p", class("x notranslate"), true));
        assert!(r.translate_of("p", class("Notranslate"), true));
        let yes = |a: &str| (a == "translate").then_some("yes");
        assert!(r.translate_of("p", yes, false) && !r.translate_of("kbd", yes, true));
    }

    #[test]
    fn json_overrides_keep_defaults() {
        let r = Rules::from_json_str(r#"{"scan_token_budget": 8}"#).unwrap();
        assert_eq!(r.scan_token_budget, 8);
        assert!(r.is_block("div"));
        let round = Rules::from_json_str(&Rules::default().to_json()).unwrap();
        assert_eq!(round.blocks, Rules::default().blocks);
        assert!(Rules::from_json_str(r#"{"nope": 1}"#).is_err());
    }
}
