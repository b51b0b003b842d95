//! Tests of the generated static atom table (`static_atoms.rs`).

use std::collections::HashSet;

use super::*;

fn names() -> HashSet<&'static [u8]> {
    STATIC_NAMES.iter().map(|name| name.as_bytes()).collect()
}

#[test]
fn names_are_unique() {
    assert_eq!(names().len(), STATIC_NAMES.len());
}

#[test]
fn every_name_round_trips() {
    for (index, name) in STATIC_NAMES.iter().enumerate() {
        assert_eq!(
            static_atoms::lookup(name.as_bytes()),
            Some(index as u32),
            "{name}"
        );
        let atom = Atom::lookup_static(name.as_bytes()).unwrap();
        assert_eq!(atom.static_name(), Some(*name));
        assert!(atom.is_static());
    }
}

/// Every name with one byte replaced (by its other ASCII case, by a neighbour, by a
/// byte outside ASCII), with a byte removed or appended: a miss unless the result is
/// itself a name, and then a hit on that name.
#[test]
fn near_misses_miss() {
    let names = names();
    let check = |candidate: &[u8]| {
        let expected = names.contains(candidate).then(|| {
            STATIC_NAMES
                .iter()
                .position(|name| name.as_bytes() == candidate)
                .unwrap() as u32
        });
        assert_eq!(
            static_atoms::lookup(candidate),
            expected,
            "{:?}",
            String::from_utf8_lossy(candidate)
        );
    };
    for name in STATIC_NAMES {
        let bytes = name.as_bytes();
        for i in 0..bytes.len() {
            let original = bytes[i];
            let flipped_case = if original.is_ascii_alphabetic() {
                original ^ 0x20
            } else {
                original
            };
            for replacement in [
                flipped_case,
                original.wrapping_add(1),
                original.wrapping_sub(1),
                0,
                0xC3,
                b'-',
            ] {
                if replacement != original {
                    let mut changed = bytes.to_vec();
                    changed[i] = replacement;
                    check(&changed);
                }
            }
            let mut removed = bytes.to_vec();
            removed.remove(i);
            check(&removed);
        }
        for extra in [b'a', b'-', b';', b'0'] {
            let mut longer = bytes.to_vec();
            longer.push(extra);
            check(&longer);
            longer.insert(0, extra);
            check(&longer[..longer.len() - 1]);
        }
        check(&bytes.to_ascii_uppercase());
    }
}

#[test]
fn other_inputs_miss() {
    for name in [
        &b""[..],
        b" ",
        b"\0",
        b"div ",
        b"my-widget",
        b"DIV",
        b"ForeignObject",
        b"xlink:HREF",
        b"xlink:",
        b"\xff\xfe",
        "é".as_bytes(),
        &[b'a'; 17],
        &[b'x'; 1000],
    ] {
        assert_eq!(
            static_atoms::lookup(name),
            None,
            "{:?}",
            String::from_utf8_lossy(name)
        );
    }
}

#[test]
fn constants_name_their_atoms() {
    for (constant, name) in [
        (DIV, "div"),
        (P, "p"),
        (H1, "h1"),
        (FOREIGN_OBJECT, "foreignObject"),
        (FOREIGNOBJECT, "foreignobject"),
        (XLINK_HREF, "xlink:href"),
        (XMLNS_XLINK, "xmlns:xlink"),
        (XML_LANG, "xml:lang"),
        (ANNOTATION_XML, "annotation-xml"),
        (DEFINITION_URL, "definitionURL"),
        (DEFINITIONURL, "definitionurl"),
        (FE_FUNC_A, "feFuncA"),
        (POINTS_AT_X, "pointsAtX"),
        (HTTP_EQUIV, "http-equiv"),
        (CLIP_PATH, "clipPath"),
        (CLIP_PATH_ATTR, "clip-path"),
        (SELECTEDCONTENT, "selectedcontent"),
        (ENCODING, "encoding"),
    ] {
        assert_eq!(constant.static_name(), Some(name));
        assert_eq!(Atom::lookup_static(name.as_bytes()), Some(constant));
    }
}

/// Every name the tree builder's SVG and MathML adjustments produce, and the one it
/// starts from, is static.
#[test]
fn adjustment_tables_are_covered() {
    for name in [
        "altGlyph",
        "altGlyphDef",
        "altGlyphItem",
        "animateColor",
        "animateMotion",
        "animateTransform",
        "clipPath",
        "feBlend",
        "feColorMatrix",
        "feComponentTransfer",
        "feComposite",
        "feConvolveMatrix",
        "feDiffuseLighting",
        "feDisplacementMap",
        "feDistantLight",
        "feDropShadow",
        "feFlood",
        "feFuncA",
        "feFuncB",
        "feFuncG",
        "feFuncR",
        "feGaussianBlur",
        "feImage",
        "feMerge",
        "feMergeNode",
        "feMorphology",
        "feOffset",
        "fePointLight",
        "feSpecularLighting",
        "feSpotLight",
        "feTile",
        "feTurbulence",
        "foreignObject",
        "glyphRef",
        "linearGradient",
        "radialGradient",
        "textPath",
        "attributeName",
        "attributeType",
        "baseFrequency",
        "baseProfile",
        "calcMode",
        "clipPathUnits",
        "diffuseConstant",
        "edgeMode",
        "filterUnits",
        "gradientTransform",
        "gradientUnits",
        "kernelMatrix",
        "kernelUnitLength",
        "keyPoints",
        "keySplines",
        "keyTimes",
        "lengthAdjust",
        "limitingConeAngle",
        "markerHeight",
        "markerUnits",
        "markerWidth",
        "maskContentUnits",
        "maskUnits",
        "numOctaves",
        "pathLength",
        "patternContentUnits",
        "patternTransform",
        "patternUnits",
        "pointsAtX",
        "pointsAtY",
        "pointsAtZ",
        "preserveAlpha",
        "preserveAspectRatio",
        "primitiveUnits",
        "refX",
        "refY",
        "repeatCount",
        "repeatDur",
        "requiredExtensions",
        "requiredFeatures",
        "specularConstant",
        "specularExponent",
        "spreadMethod",
        "startOffset",
        "stdDeviation",
        "stitchTiles",
        "surfaceScale",
        "systemLanguage",
        "tableValues",
        "targetX",
        "targetY",
        "textLength",
        "viewBox",
        "viewTarget",
        "xChannelSelector",
        "yChannelSelector",
        "zoomAndPan",
        "definitionURL",
    ] {
        assert!(Atom::lookup_static(name.as_bytes()).is_some(), "{name}");
        let lower = name.to_ascii_lowercase();
        assert!(Atom::lookup_static(lower.as_bytes()).is_some(), "{lower}");
    }
    for name in [
        "xlink:actuate",
        "xlink:arcrole",
        "xlink:href",
        "xlink:role",
        "xlink:show",
        "xlink:title",
        "xlink:type",
        "xml:lang",
        "xml:space",
        "xmlns",
        "xmlns:xlink",
        "xlink",
        "xml",
        "actuate",
        "arcrole",
        "href",
        "role",
        "show",
        "title",
        "type",
        "lang",
        "space",
    ] {
        assert!(Atom::lookup_static(name.as_bytes()).is_some(), "{name}");
    }
}

#[test]
fn atom_table_interns_static_names_without_growing() {
    let mut atoms = AtomTable::new();
    for name in STATIC_NAMES {
        assert_eq!(atoms.intern(name).static_name(), Some(*name));
    }
    assert_eq!(atoms.dynamic_len(), 0);
    let custom = atoms.intern("foreignobjecT");
    assert!(!custom.is_static());
    assert_eq!(atoms.name(custom), "foreignobjecT");
}
