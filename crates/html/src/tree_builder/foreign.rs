//! 13.2.6.1 / 13.2.6.5: what foreign content needs — the SVG tag-name and
//! attribute case tables, MathML's `definitionURL`, the namespaced attributes, and
//! the breakout tags that end foreign content.

use std::borrow::Cow;

use crate::atom::{self, Atom};
use crate::dom_patch::{AttrNamespace, PatchAttr};

/// 13.2.6.5 "any other start tag": SVG element names that are not all lowercase.
const SVG_TAG_NAMES: &[(&str, &str)] = &[
    ("altglyph", "altGlyph"),
    ("altglyphdef", "altGlyphDef"),
    ("altglyphitem", "altGlyphItem"),
    ("animatecolor", "animateColor"),
    ("animatemotion", "animateMotion"),
    ("animatetransform", "animateTransform"),
    ("clippath", "clipPath"),
    ("feblend", "feBlend"),
    ("fecolormatrix", "feColorMatrix"),
    ("fecomponenttransfer", "feComponentTransfer"),
    ("fecomposite", "feComposite"),
    ("feconvolvematrix", "feConvolveMatrix"),
    ("fediffuselighting", "feDiffuseLighting"),
    ("fedisplacementmap", "feDisplacementMap"),
    ("fedistantlight", "feDistantLight"),
    ("fedropshadow", "feDropShadow"),
    ("feflood", "feFlood"),
    ("fefunca", "feFuncA"),
    ("fefuncb", "feFuncB"),
    ("fefuncg", "feFuncG"),
    ("fefuncr", "feFuncR"),
    ("fegaussianblur", "feGaussianBlur"),
    ("feimage", "feImage"),
    ("femerge", "feMerge"),
    ("femergenode", "feMergeNode"),
    ("femorphology", "feMorphology"),
    ("feoffset", "feOffset"),
    ("fepointlight", "fePointLight"),
    ("fespecularlighting", "feSpecularLighting"),
    ("fespotlight", "feSpotLight"),
    ("fetile", "feTile"),
    ("feturbulence", "feTurbulence"),
    ("foreignobject", "foreignObject"),
    ("glyphref", "glyphRef"),
    ("lineargradient", "linearGradient"),
    ("radialgradient", "radialGradient"),
    ("textpath", "textPath"),
];

/// 13.2.6.1 "adjust SVG attributes".
const SVG_ATTR_NAMES: &[(&str, &str)] = &[
    ("attributename", "attributeName"),
    ("attributetype", "attributeType"),
    ("basefrequency", "baseFrequency"),
    ("baseprofile", "baseProfile"),
    ("calcmode", "calcMode"),
    ("clippathunits", "clipPathUnits"),
    ("diffuseconstant", "diffuseConstant"),
    ("edgemode", "edgeMode"),
    ("filterunits", "filterUnits"),
    ("glyphref", "glyphRef"),
    ("gradienttransform", "gradientTransform"),
    ("gradientunits", "gradientUnits"),
    ("kernelmatrix", "kernelMatrix"),
    ("kernelunitlength", "kernelUnitLength"),
    ("keypoints", "keyPoints"),
    ("keysplines", "keySplines"),
    ("keytimes", "keyTimes"),
    ("lengthadjust", "lengthAdjust"),
    ("limitingconeangle", "limitingConeAngle"),
    ("markerheight", "markerHeight"),
    ("markerunits", "markerUnits"),
    ("markerwidth", "markerWidth"),
    ("maskcontentunits", "maskContentUnits"),
    ("maskunits", "maskUnits"),
    ("numoctaves", "numOctaves"),
    ("pathlength", "pathLength"),
    ("patterncontentunits", "patternContentUnits"),
    ("patterntransform", "patternTransform"),
    ("patternunits", "patternUnits"),
    ("pointsatx", "pointsAtX"),
    ("pointsaty", "pointsAtY"),
    ("pointsatz", "pointsAtZ"),
    ("preservealpha", "preserveAlpha"),
    ("preserveaspectratio", "preserveAspectRatio"),
    ("primitiveunits", "primitiveUnits"),
    ("refx", "refX"),
    ("refy", "refY"),
    ("repeatcount", "repeatCount"),
    ("repeatdur", "repeatDur"),
    ("requiredextensions", "requiredExtensions"),
    ("requiredfeatures", "requiredFeatures"),
    ("specularconstant", "specularConstant"),
    ("specularexponent", "specularExponent"),
    ("spreadmethod", "spreadMethod"),
    ("startoffset", "startOffset"),
    ("stddeviation", "stdDeviation"),
    ("stitchtiles", "stitchTiles"),
    ("surfacescale", "surfaceScale"),
    ("systemlanguage", "systemLanguage"),
    ("tablevalues", "tableValues"),
    ("targetx", "targetX"),
    ("targety", "targetY"),
    ("textlength", "textLength"),
    ("viewbox", "viewBox"),
    ("viewtarget", "viewTarget"),
    ("xchannelselector", "xChannelSelector"),
    ("ychannelselector", "yChannelSelector"),
    ("zoomandpan", "zoomAndPan"),
];

/// The SVG element name for a lowercased tag name (`foreignobject` → `foreignObject`).
pub(crate) fn adjust_svg_tag_name(name: &str) -> Option<&'static str> {
    SVG_TAG_NAMES
        .iter()
        .find(|(lower, _)| *lower == name)
        .map(|(_, fixed)| *fixed)
}

/// Adjusts an attribute of an SVG element (case table) or MathML element
/// (`definitionURL`), then the namespaced attributes of both (13.2.6.1).
pub(crate) fn adjust_foreign_attr(attr: &mut PatchAttr, svg: bool) {
    if svg {
        if let Some((_, fixed)) = SVG_ATTR_NAMES.iter().find(|(lower, _)| *lower == attr.name) {
            attr.name = Cow::Borrowed(fixed);
        }
    } else if attr.name == "definitionurl" {
        attr.name = Cow::Borrowed("definitionURL");
    }
    // "adjust foreign attributes"
    let (ns, local) = match &*attr.name {
        "xlink:actuate" => (AttrNamespace::XLink, "actuate"),
        "xlink:arcrole" => (AttrNamespace::XLink, "arcrole"),
        "xlink:href" => (AttrNamespace::XLink, "href"),
        "xlink:role" => (AttrNamespace::XLink, "role"),
        "xlink:show" => (AttrNamespace::XLink, "show"),
        "xlink:title" => (AttrNamespace::XLink, "title"),
        "xlink:type" => (AttrNamespace::XLink, "type"),
        "xml:lang" => (AttrNamespace::Xml, "lang"),
        "xml:space" => (AttrNamespace::Xml, "space"),
        "xmlns" => (AttrNamespace::Xmlns, "xmlns"),
        "xmlns:xlink" => (AttrNamespace::Xmlns, "xlink"),
        _ => return,
    };
    attr.ns = ns;
    attr.name = Cow::Borrowed(local);
}

/// 13.2.6.5: start tags that break out of foreign content (`font` only with
/// `color`, `face` or `size`, checked by the caller).
pub(crate) fn is_breakout_tag(name: Atom) -> bool {
    use atom::*;
    matches!(
        name,
        B | BIG
            | BLOCKQUOTE
            | BODY
            | BR
            | CENTER
            | CODE
            | DD
            | DIV
            | DL
            | DT
            | EM
            | EMBED
            | H1
            | H2
            | H3
            | H4
            | H5
            | H6
            | HEAD
            | HR
            | I
            | IMG
            | LI
            | LISTING
            | MENU
            | META
            | NOBR
            | OL
            | P
            | PRE
            | RUBY
            | S
            | SMALL
            | SPAN
            | STRONG
            | STRIKE
            | SUB
            | SUP
            | TABLE
            | TT
            | U
            | UL
            | VAR
    )
}

/// 13.2.6.1: a MathML text integration point is a MathML `mi`, `mo`, `mn`, `ms`
/// or `mtext` element.
pub(crate) fn is_mathml_text_integration_point(name: Atom) -> bool {
    matches!(
        name,
        atom::MI | atom::MO | atom::MN | atom::MS | atom::MTEXT
    )
}

/// 13.2.6.1: an `annotation-xml` start tag whose `encoding` is `text/html` or
/// `application/xhtml+xml` makes an HTML integration point.
pub(crate) fn annotation_xml_is_html(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| {
        e.eq_ignore_ascii_case("text/html") || e.eq_ignore_ascii_case("application/xhtml+xml")
    })
}
