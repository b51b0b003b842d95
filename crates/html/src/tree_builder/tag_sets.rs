//! The spec's element categories and tag sets (13.2.4.2, 13.2.6.3, A.1) as small
//! predicates over atoms. Every predicate here is about HTML-namespace elements
//! unless its name says otherwise.

use crate::atom::{self, Atom};

/// The "special" category (A.1, 2026 list), HTML part.
pub(crate) const fn is_special_html(name: Atom) -> bool {
    use atom::*;
    matches!(
        name,
        ADDRESS
            | APPLET
            | AREA
            | ARTICLE
            | ASIDE
            | BASE
            | BASEFONT
            | BGSOUND
            | BLOCKQUOTE
            | BODY
            | BR
            | BUTTON
            | CAPTION
            | CENTER
            | COL
            | COLGROUP
            | DD
            | DETAILS
            | DIR
            | DIV
            | DL
            | DT
            | EMBED
            | FIELDSET
            | FIGCAPTION
            | FIGURE
            | FOOTER
            | FORM
            | FRAME
            | FRAMESET
            | H1
            | H2
            | H3
            | H4
            | H5
            | H6
            | HEAD
            | HEADER
            | HGROUP
            | HR
            | HTML
            | IFRAME
            | IMG
            | INPUT
            | KEYGEN
            | LI
            | LINK
            | LISTING
            | MAIN
            | MARQUEE
            | MENU
            | META
            | NAV
            | NOEMBED
            | NOFRAMES
            | NOSCRIPT
            | OBJECT
            | OL
            | P
            | PARAM
            | PLAINTEXT
            | PRE
            | SCRIPT
            | SEARCH
            | SECTION
            | SELECT
            | SOURCE
            | STYLE
            | SUMMARY
            | TABLE
            | TBODY
            | TD
            | TEMPLATE
            | TEXTAREA
            | TFOOT
            | TH
            | THEAD
            | TITLE
            | TR
            | TRACK
            | UL
            | WBR
            | XMP
    )
}

/// The "formatting" category (13.2.4.2).
pub(crate) fn is_formatting(name: Atom) -> bool {
    // One bit per atom (asked for every element created): a shift and a test
    // instead of fourteen comparisons.
    const FORMATTING: [u128; 2] = {
        use atom::*;
        let names = [
            A, B, BIG, CODE, EM, FONT, I, NOBR, S, SMALL, STRIKE, STRONG, TT, U,
        ];
        let mut mask = [0u128; 2];
        let mut i = 0;
        while i < names.len() {
            // A compile-time check: the names fit the mask.
            assert!(names[i].0 < 256);
            mask[(names[i].0 / 128) as usize] |= 1 << (names[i].0 % 128);
            i += 1;
        }
        mask
    };
    FORMATTING
        .get((name.0 / 128) as usize)
        .is_some_and(|word| (word >> (name.0 % 128)) & 1 == 1)
}

/// The HTML elements of the "has an element in scope" boundary list (A.1).
pub(crate) const SCOPE_BOUNDARIES_HTML: [Atom; 10] = {
    use atom::*;
    [
        APPLET, CAPTION, HTML, TABLE, TD, TH, MARQUEE, OBJECT, SELECT, TEMPLATE,
    ]
};

/// `h1`–`h6`.
pub(crate) fn is_heading(name: Atom) -> bool {
    use atom::*;
    matches!(name, H1 | H2 | H3 | H4 | H5 | H6)
}

/// 13.2.6.3 "generate implied end tags".
pub(crate) fn has_implied_end_tag(name: Atom) -> bool {
    use atom::*;
    matches!(
        name,
        DD | DT | LI | OPTGROUP | OPTION | P | RB | RP | RT | RTC
    )
}

/// 13.2.6.3 "generate all implied end tags thoroughly".
pub(crate) fn has_implied_end_tag_thoroughly(name: Atom) -> bool {
    use atom::*;
    has_implied_end_tag(name)
        || matches!(
            name,
            CAPTION | COLGROUP | TBODY | TD | TFOOT | TH | THEAD | TR
        )
}

/// 13.2.4.3 / in-table: the nodes that make "foster parenting" apply and that
/// send character tokens to "in table text".
pub(crate) fn is_table_context_for_text(name: Atom) -> bool {
    use atom::*;
    matches!(name, TABLE | TBODY | TEMPLATE | TFOOT | THEAD | TR)
}

/// Whether `name` is allowed to stay open at the end of the body (13.2.6.4.7 "an
/// end tag whose tag name is body": the list a parse error is *not* reported for).
pub(crate) fn may_stay_open_at_body_end(name: Atom) -> bool {
    use atom::*;
    matches!(
        name,
        DD | DT
            | LI
            | OPTGROUP
            | OPTION
            | P
            | RB
            | RP
            | RT
            | RTC
            | TBODY
            | TD
            | TFOOT
            | TH
            | THEAD
            | TR
            | BODY
            | HTML
    )
}
