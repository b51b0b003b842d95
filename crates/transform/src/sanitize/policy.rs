//! The sanitizer's policy: see [`Policy`].

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

/// Elements no policy keeps, whatever it lists: they run script, change how the
/// rest of the page is read (`base`, `meta`, `link`), or parse differently with
/// scripting on and off (`noscript`), or swallow the rest of the page
/// (`plaintext`). Document-level elements (`html`, `head`, `body`, `frameset`,
/// `frame`) cannot appear in a fragment. What happens to them instead is their
/// [`Disposition`] (by default: `html` and `body` are unwrapped, the others
/// dropped with their content).
pub const NEVER_ALLOWED: &[&str] = &[
    "script",
    "noscript",
    "plaintext",
    "base",
    "meta",
    "link",
    "html",
    "head",
    "body",
    "frameset",
    "frame",
    "applet",
    "handler",
    "listener",
];

/// Attributes no policy keeps: event handlers (`on*`), `srcdoc` (a whole document),
/// namespace declarations, `is` (customized built-ins run the page's code) and
/// `shadowroot*` (a declarative shadow root: a tree this parser does not build, so
/// the re-parse check could not vouch for it), `xml:base` (moves the base URL of
/// relative URLs, which the URL check lets through).
pub fn is_never_allowed_attribute(name: &str) -> bool {
    let starts = |prefix: &str| {
        name.as_bytes()
            .get(..prefix.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(prefix.as_bytes()))
    };
    let is = |other: &str| name.eq_ignore_ascii_case(other);
    starts("on")
        || is("srcdoc")
        || is("xmlns")
        || starts("xmlns:")
        || is("is")
        || starts("shadowroot")
        || is("xml:base")
}

/// What happens to an element the policy does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Disposition {
    /// The element and everything in it are removed.
    Drop,
    /// The element's tags are removed, its content is kept.
    Unwrap,
    /// The element's tags are kept as visible text (`&lt;b&gt;`), its content is
    /// sanitized.
    Escape,
}

/// The sanitizer's policy.
///
/// [`Policy`]: what the sanitizer keeps. Built in Rust (`Policy::default()` and its
/// public fields) or read from a JSON file ([`Policy::from_json`]); every field is
/// optional in the file and defaults to the value of [`Policy::default`].
///
/// The defaults are close to ammonia's: the HTML elements of ordinary rich text, a
/// few attributes per element, `lang` and `title` everywhere, no `class`, no
/// `style`, no SVG or MathML, comments dropped, links get `rel="noopener
/// noreferrer"`, URLs must be relative or use `http`, `https`, `mailto` or `tel`.
///
/// Some things no policy can allow, because no check makes them safe or because
/// their parse depends on the reader (the scripting flag): see [`NEVER_ALLOWED`] and
/// [`is_never_allowed_attribute`].
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// HTML elements kept (lowercase local names).
    pub tags: BTreeSet<String>,
    /// Attributes kept on particular HTML elements (element → attribute names).
    pub tag_attributes: BTreeMap<String, BTreeSet<String>>,
    /// Attributes kept on every kept element (HTML, SVG and MathML).
    pub generic_attributes: BTreeSet<String>,
    /// Attribute name prefixes kept on every kept element (e.g. `data-`).
    pub generic_attribute_prefixes: BTreeSet<String>,
    /// What happens to a disallowed element, per local name; others get
    /// [`default_disposition`](Self::default_disposition).
    pub dispositions: BTreeMap<String, Disposition>,
    /// What happens to a disallowed element not listed in `dispositions`.
    pub default_disposition: Disposition,
    /// Keep SVG content at all (then `svg_tags` and `svg_attributes` apply).
    pub allow_svg: bool,
    /// SVG elements kept (case as the spec writes them: `linearGradient`).
    pub svg_tags: BTreeSet<String>,
    /// Attributes kept on every kept SVG element (after SVG case adjustment:
    /// `viewBox`; `xlink:href` for the XLink `href`).
    pub svg_attributes: BTreeSet<String>,
    /// Keep MathML content at all.
    pub allow_mathml: bool,
    /// MathML elements kept.
    pub mathml_tags: BTreeSet<String>,
    /// Attributes kept on every kept MathML element.
    pub mathml_attributes: BTreeSet<String>,
    /// Attributes whose value is a URL, checked against `url_schemes` (any
    /// namespace; `srcset` and `ping` hold several URLs and are checked one by one).
    pub url_attributes: BTreeSet<String>,
    /// URL schemes allowed (lowercase, without the colon).
    pub url_schemes: BTreeSet<String>,
    /// Allow URLs without a scheme (relative, `//host`, `#frag`).
    pub allow_relative_urls: bool,
    /// CSS properties kept in `style` attributes (lowercase). `style` itself must
    /// be allowed as an attribute for any of this to apply.
    pub style_properties: BTreeSet<String>,
    /// The `rel` tokens every `<a>` and `<area>` gets (`None`: leave `rel` alone).
    pub link_rel: Option<String>,
    /// Keep comments.
    pub allow_comments: bool,
    /// Prefix for `id` and `name` values (against DOM clobbering), added once.
    pub id_prefix: Option<String>,
    /// The deepest element nesting of the output (and of the tree builder's
    /// tree): deeper elements are unwrapped, their content moves up. Browsers
    /// flatten past 512 open elements; the default stays at 512.
    pub max_depth: usize,
    /// How many times the output may be sanitized again before it is settled
    /// (see the module docs of `sanitize`); none settles → text only.
    pub max_passes: usize,
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

impl Default for Policy {
    fn default() -> Self {
        let tags = set(&[
            "a",
            "abbr",
            "acronym",
            "area",
            "article",
            "aside",
            "b",
            "bdi",
            "bdo",
            "blockquote",
            "br",
            "caption",
            "center",
            "cite",
            "code",
            "col",
            "colgroup",
            "data",
            "dd",
            "del",
            "details",
            "dfn",
            "div",
            "dl",
            "dt",
            "em",
            "figcaption",
            "figure",
            "footer",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "header",
            "hgroup",
            "hr",
            "i",
            "img",
            "ins",
            "kbd",
            "li",
            "map",
            "mark",
            "nav",
            "ol",
            "p",
            "pre",
            "q",
            "rp",
            "rt",
            "rtc",
            "ruby",
            "s",
            "samp",
            "small",
            "span",
            "strike",
            "strong",
            "sub",
            "summary",
            "sup",
            "table",
            "tbody",
            "td",
            "tfoot",
            "th",
            "thead",
            "time",
            "tr",
            "tt",
            "u",
            "ul",
            "var",
            "wbr",
        ]);
        let cells = ["align", "char", "charoff", "colspan", "headers", "rowspan"];
        let parts = ["align", "char", "charoff"];
        let mut tag_attributes = BTreeMap::new();
        for (tag, attrs) in [
            ("a", &["href", "hreflang"][..]),
            ("area", &["alt", "coords", "href", "shape"][..]),
            ("bdo", &["dir"][..]),
            ("blockquote", &["cite"][..]),
            ("col", &["align", "char", "charoff", "span"][..]),
            ("colgroup", &["align", "char", "charoff", "span"][..]),
            ("del", &["cite", "datetime"][..]),
            ("hr", &["align", "size", "width"][..]),
            ("img", &["align", "alt", "height", "src", "width"][..]),
            ("ins", &["cite", "datetime"][..]),
            ("ol", &["start"][..]),
            ("q", &["cite"][..]),
            ("table", &["align", "char", "charoff", "summary"][..]),
            ("tbody", &parts[..]),
            ("tfoot", &parts[..]),
            ("thead", &parts[..]),
            ("tr", &parts[..]),
            ("td", &cells[..]),
            (
                "th",
                &[
                    "align", "char", "charoff", "colspan", "headers", "rowspan", "scope",
                ][..],
            ),
            ("time", &["datetime"][..]),
            ("data", &["value"][..]),
            ("map", &["name"][..]),
        ] {
            tag_attributes.insert(tag.to_owned(), set(attrs));
        }
        let mut dispositions = BTreeMap::new();
        for tag in [
            "script",
            "style",
            "noscript",
            "template",
            "iframe",
            "object",
            "embed",
            "applet",
            "textarea",
            "title",
            "xmp",
            "noembed",
            "noframes",
            "plaintext",
            "svg",
            "math",
            "select",
            "option",
            "head",
            "frameset",
            "frame",
            "base",
            "meta",
            "link",
            "param",
            "source",
            "track",
            "audio",
            "video",
            "canvas",
            "portal",
            "fencedframe",
            "button",
            "input",
            "form",
            "datalist",
            "output",
            "progress",
            "meter",
            "dialog",
            "slot",
            "search",
            "selectedcontent",
            "optgroup",
            "keygen",
            "bgsound",
            "marquee",
        ] {
            let disposition = match tag {
                // Markup content a reader would see as text: keep it.
                "form" | "button" | "dialog" | "search" | "marquee" | "output" | "meter"
                | "progress" | "audio" | "video" | "canvas" => Disposition::Unwrap,
                _ => Disposition::Drop,
            };
            dispositions.insert(tag.to_owned(), disposition);
        }
        Policy {
            tags,
            tag_attributes,
            generic_attributes: set(&["lang", "title"]),
            generic_attribute_prefixes: BTreeSet::new(),
            dispositions,
            default_disposition: Disposition::Unwrap,
            allow_svg: false,
            svg_tags: set(&[
                "svg",
                "g",
                "defs",
                "desc",
                "title",
                "symbol",
                "use",
                "path",
                "rect",
                "circle",
                "ellipse",
                "line",
                "polyline",
                "polygon",
                "text",
                "tspan",
                "textPath",
                "linearGradient",
                "radialGradient",
                "stop",
                "clipPath",
                "mask",
                "pattern",
                "marker",
                "image",
                "switch",
                "metadata",
                "filter",
                "feBlend",
                "feColorMatrix",
                "feComposite",
                "feFlood",
                "feGaussianBlur",
                "feMerge",
                "feMergeNode",
                "feOffset",
                "a",
            ]),
            svg_attributes: set(&[
                "viewBox",
                "width",
                "height",
                "x",
                "y",
                "x1",
                "x2",
                "y1",
                "y2",
                "cx",
                "cy",
                "r",
                "rx",
                "ry",
                "d",
                "points",
                "fill",
                "fill-opacity",
                "fill-rule",
                "stroke",
                "stroke-width",
                "stroke-linecap",
                "stroke-linejoin",
                "stroke-dasharray",
                "stroke-opacity",
                "opacity",
                "transform",
                "offset",
                "stop-color",
                "stop-opacity",
                "gradientUnits",
                "gradientTransform",
                "preserveAspectRatio",
                "font-size",
                "font-family",
                "text-anchor",
                "dx",
                "dy",
                "id",
                "clip-path",
                "clipPathUnits",
                "mask",
                "href",
                "xlink:href",
                "version",
                "role",
                "aria-label",
            ]),
            allow_mathml: false,
            mathml_tags: set(&[
                "math",
                "mi",
                "mn",
                "mo",
                "ms",
                "mtext",
                "mspace",
                "mrow",
                "mfrac",
                "msqrt",
                "mroot",
                "msub",
                "msup",
                "msubsup",
                "munder",
                "mover",
                "munderover",
                "mtable",
                "mtr",
                "mtd",
                "mstyle",
                "merror",
                "mpadded",
                "mphantom",
                "semantics",
                "annotation",
                "mmultiscripts",
                "mprescripts",
                "none",
            ]),
            mathml_attributes: set(&[
                "display",
                "mathvariant",
                "mathsize",
                "mathcolor",
                "mathbackground",
                "displaystyle",
                "scriptlevel",
                "fence",
                "separator",
                "stretchy",
                "symmetric",
                "largeop",
                "movablelimits",
                "accent",
                "accentunder",
                "lspace",
                "rspace",
                "linethickness",
                "columnalign",
                "rowalign",
                "columnspan",
                "rowspan",
                "width",
                "height",
                "depth",
                "voffset",
                "encoding",
                "dir",
            ]),
            url_attributes: set(&[
                "href",
                "src",
                "srcset",
                "action",
                "formaction",
                "xlink:href",
                "poster",
                "data",
                "cite",
                "background",
                "longdesc",
                "usemap",
                "manifest",
                "ping",
                "codebase",
                "classid",
                "archive",
                "profile",
                "lowsrc",
                "dynsrc",
                "icon",
                "imagesrcset",
                "itemtype",
                "itemid",
                "attributionsrc",
            ]),
            url_schemes: set(&["http", "https", "mailto", "tel"]),
            allow_relative_urls: true,
            style_properties: set(&[
                "color",
                "background-color",
                "font-weight",
                "font-style",
                "font-size",
                "font-family",
                "font-variant",
                "text-decoration",
                "text-align",
                "text-indent",
                "text-transform",
                "line-height",
                "letter-spacing",
                "word-spacing",
                "white-space",
                "vertical-align",
                "margin",
                "margin-top",
                "margin-right",
                "margin-bottom",
                "margin-left",
                "padding",
                "padding-top",
                "padding-right",
                "padding-bottom",
                "padding-left",
                "border",
                "border-top",
                "border-right",
                "border-bottom",
                "border-left",
                "border-color",
                "border-style",
                "border-width",
                "border-radius",
                "border-collapse",
                "border-spacing",
                "width",
                "height",
                "max-width",
                "max-height",
                "min-width",
                "min-height",
                "list-style-type",
                "direction",
                "unicode-bidi",
            ]),
            link_rel: Some("noopener noreferrer".to_owned()),
            allow_comments: false,
            id_prefix: None,
            max_depth: 512,
            max_passes: 4,
        }
    }
}

/// A policy file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// Not JSON, or not the shape of a policy.
    #[error("policy: {0}")]
    Json(#[from] serde_json::Error),
    /// A value out of range.
    #[error("policy: {0}")]
    Invalid(String),
}

impl Policy {
    /// A policy from JSON text: an object whose keys are the fields of [`Policy`]
    /// (any left out keep their defaults; unknown keys are an error).
    ///
    /// ```
    /// use tagloom_transform::sanitize::Policy;
    ///
    /// let policy = Policy::from_json(r#"{"allow_comments": true, "url_schemes": ["https"]}"#).unwrap();
    /// assert!(policy.allow_comments);
    /// assert!(policy.tags.contains("p"));
    /// assert!(Policy::from_json(r#"{"max_depth": 0}"#).is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<Policy, PolicyError> {
        let policy: Policy = serde_json::from_str(text)?;
        policy.validate()?;
        Ok(policy)
    }

    /// Checks the limits: `max_depth` in 2..=10 000, `max_passes` in 1..=16.
    pub fn validate(&self) -> Result<(), PolicyError> {
        if !(2..=10_000).contains(&self.max_depth) {
            return Err(PolicyError::Invalid(format!(
                "max_depth must be between 2 and 10000, not {}",
                self.max_depth
            )));
        }
        if !(1..=16).contains(&self.max_passes) {
            return Err(PolicyError::Invalid(format!(
                "max_passes must be between 1 and 16, not {}",
                self.max_passes
            )));
        }
        Ok(())
    }

    /// The policy with the widest allow-list the tests use: the defaults plus
    /// every raw-text and RCDATA element a policy may keep (`style`, `xmp`,
    /// `iframe`, `noembed`, `noframes`, `textarea`, `title`), `template`, forms,
    /// `select`, comments, `style` and `class` attributes, SVG and MathML with
    /// their animation, `foreignObject` and `annotation-xml` elements.
    pub fn widened() -> Policy {
        let mut p = Policy::default();
        for tag in [
            "style",
            "xmp",
            "iframe",
            "noembed",
            "noframes",
            "textarea",
            "title",
            "template",
            "form",
            "input",
            "button",
            "select",
            "option",
            "optgroup",
            "selectedcontent",
            "object",
            "embed",
            "svg",
            "math",
            "video",
            "audio",
            "source",
            "details",
            "dialog",
            "marquee",
            "font",
            "label",
            "fieldset",
            "legend",
            "keygen",
            "image",
        ] {
            p.tags.insert(tag.to_owned());
        }
        for (tag, attrs) in [
            ("form", &["action", "method"][..]),
            ("input", &["type", "value", "name", "formaction", "src"][..]),
            ("button", &["formaction", "name", "value", "type"][..]),
            ("iframe", &["src", "name"][..]),
            ("object", &["data", "type"][..]),
            ("embed", &["src", "type"][..]),
            ("video", &["src", "poster"][..]),
            ("source", &["src", "srcset"][..]),
            ("img", &["src", "srcset", "usemap", "alt"][..]),
            ("a", &["href", "ping", "name"][..]),
            ("option", &["value", "selected"][..]),
        ] {
            let entry = p.tag_attributes.entry(tag.to_owned()).or_default();
            entry.extend(attrs.iter().map(|s| (*s).to_owned()));
        }
        p.generic_attributes
            .extend(["style", "class", "id", "name", "dir"].map(str::to_owned));
        p.allow_comments = true;
        p.allow_svg = true;
        p.allow_mathml = true;
        p.svg_tags.extend(
            [
                "style",
                "foreignObject",
                "animate",
                "set",
                "animateMotion",
                "animateTransform",
                "script",
            ]
            .map(str::to_owned),
        );
        p.svg_attributes.extend(
            [
                "attributeName",
                "to",
                "from",
                "values",
                "begin",
                "dur",
                "style",
            ]
            .map(str::to_owned),
        );
        p.mathml_tags
            .extend(["annotation-xml", "maction", "mglyph", "malignmark"].map(str::to_owned));
        p.mathml_attributes
            .extend(["href", "xlink:href", "actiontype", "style"].map(str::to_owned));
        p
    }
}
