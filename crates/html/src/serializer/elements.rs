//! Element and attribute categories the serializers consult, as small predicates
//! named after the spec's lists.

use crate::dom_patch::Namespace;

/// "Serializes as void" (A.8): the void elements plus `basefont`, `bgsound`,
/// `frame`, `keygen` and `param`. Such elements get no children and no end tag.
pub fn serializes_as_void(ns: Namespace, name: &str) -> bool {
    ns == Namespace::Html
        && matches!(
            name,
            "area"
                | "base"
                | "br"
                | "col"
                | "embed"
                | "hr"
                | "img"
                | "input"
                | "link"
                | "meta"
                | "source"
                | "track"
                | "wbr"
                | "basefont"
                | "bgsound"
                | "frame"
                | "keygen"
                | "param"
        )
}

/// Whether text inside this element is written literally (A.8, "If current node is
/// a Text node"): `style`, `script`, `xmp`, `iframe`, `noembed`, `noframes`,
/// `plaintext`, and `noscript` when scripting is enabled. These are the elements
/// whose content the tokenizer reads as raw text, so escaping would be visible.
pub fn is_raw_text_element(ns: Namespace, name: &str, scripting: bool) -> bool {
    ns == Namespace::Html
        && match name {
            "style" | "script" | "xmp" | "iframe" | "noembed" | "noframes" | "plaintext" => true,
            "noscript" => scripting,
            _ => false,
        }
}

/// Boolean attributes (their presence is the value) of the current HTML standard's
/// element index, plus `irrelevant`, the early name of `hidden` that html5lib's
/// serializer fixtures still minimize. Used by the token serializer's
/// `minimize_boolean_attributes`.
pub fn is_boolean_attribute(element: &str, attr: &str) -> bool {
    match attr {
        // Global.
        "autofocus" | "inert" | "itemscope" | "irrelevant" => true,
        "disabled" => matches!(
            element,
            "button"
                | "fieldset"
                | "input"
                | "optgroup"
                | "option"
                | "select"
                | "textarea"
                | "link"
        ),
        "checked" | "alpha" => element == "input",
        "readonly" => matches!(element, "input" | "textarea"),
        "required" => matches!(element, "input" | "select" | "textarea"),
        "multiple" => matches!(element, "input" | "select"),
        "formnovalidate" => matches!(element, "button" | "input"),
        "novalidate" => element == "form",
        "selected" => element == "option",
        "ismap" => element == "img",
        "allowfullscreen" => element == "iframe",
        "async" | "defer" | "nomodule" => element == "script",
        "autoplay" | "controls" | "loop" | "muted" => matches!(element, "audio" | "video"),
        "playsinline" => element == "video",
        "open" => matches!(element, "details" | "dialog"),
        "reversed" => element == "ol",
        "default" => element == "track",
        "shadowrootclonable" | "shadowrootdelegatesfocus" | "shadowrootserializable" => {
            element == "template"
        }
        _ => false,
    }
}
