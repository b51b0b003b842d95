//! 13.2.6.4.1 "initial": which DOCTYPE puts the document in quirks or
//! limited-quirks mode (with the 2026 change of A.4: for the HTML 4.01 Frameset and
//! Transitional public identifiers, an empty system identifier counts as missing).

use crate::dom_patch::QuirksMode;
use crate::token::Doctype;

/// Public identifiers that put the document in quirks mode when they match exactly.
const QUIRKS_PUBLIC_EXACT: &[&str] = &[
    "-//W3O//DTD W3 HTML Strict 3.0//EN//",
    "-/W3C/DTD HTML 4.0 Transitional/EN",
    "HTML",
];

/// Public identifier prefixes that put the document in quirks mode.
const QUIRKS_PUBLIC_PREFIXES: &[&str] = &[
    "+//Silmaril//dtd html Pro v0r11 19970101//",
    "-//AS//DTD HTML 3.0 asWedit + extensions//",
    "-//AdvaSoft Ltd//DTD HTML 3.0 asWedit + extensions//",
    "-//IETF//DTD HTML 2.0 Level 1//",
    "-//IETF//DTD HTML 2.0 Level 2//",
    "-//IETF//DTD HTML 2.0 Strict Level 1//",
    "-//IETF//DTD HTML 2.0 Strict Level 2//",
    "-//IETF//DTD HTML 2.0 Strict//",
    "-//IETF//DTD HTML 2.0//",
    "-//IETF//DTD HTML 2.1E//",
    "-//IETF//DTD HTML 3.0//",
    "-//IETF//DTD HTML 3.2 Final//",
    "-//IETF//DTD HTML 3.2//",
    "-//IETF//DTD HTML 3//",
    "-//IETF//DTD HTML Level 0//",
    "-//IETF//DTD HTML Level 1//",
    "-//IETF//DTD HTML Level 2//",
    "-//IETF//DTD HTML Level 3//",
    "-//IETF//DTD HTML Strict Level 0//",
    "-//IETF//DTD HTML Strict Level 1//",
    "-//IETF//DTD HTML Strict Level 2//",
    "-//IETF//DTD HTML Strict Level 3//",
    "-//IETF//DTD HTML Strict//",
    "-//IETF//DTD HTML//",
    "-//Metrius//DTD Metrius Presentational//",
    "-//Microsoft//DTD Internet Explorer 2.0 HTML Strict//",
    "-//Microsoft//DTD Internet Explorer 2.0 HTML//",
    "-//Microsoft//DTD Internet Explorer 2.0 Tables//",
    "-//Microsoft//DTD Internet Explorer 3.0 HTML Strict//",
    "-//Microsoft//DTD Internet Explorer 3.0 HTML//",
    "-//Microsoft//DTD Internet Explorer 3.0 Tables//",
    "-//Netscape Comm. Corp.//DTD HTML//",
    "-//Netscape Comm. Corp.//DTD Strict HTML//",
    "-//O'Reilly and Associates//DTD HTML 2.0//",
    "-//O'Reilly and Associates//DTD HTML Extended 1.0//",
    "-//O'Reilly and Associates//DTD HTML Extended Relaxed 1.0//",
    "-//SQ//DTD HTML 2.0 HoTMetaL + extensions//",
    "-//SoftQuad Software//DTD HoTMetaL PRO 6.0::19990601::extensions to HTML 4.0//",
    "-//SoftQuad//DTD HoTMetaL PRO 4.0::19971010::extensions to HTML 4.0//",
    "-//Spyglass//DTD HTML 2.0 Extended//",
    "-//Sun Microsystems Corp.//DTD HotJava HTML//",
    "-//Sun Microsystems Corp.//DTD HotJava Strict HTML//",
    "-//W3C//DTD HTML 3 1995-03-24//",
    "-//W3C//DTD HTML 3.2 Draft//",
    "-//W3C//DTD HTML 3.2 Final//",
    "-//W3C//DTD HTML 3.2//",
    "-//W3C//DTD HTML 3.2S Draft//",
    "-//W3C//DTD HTML 4.0 Frameset//",
    "-//W3C//DTD HTML 4.0 Transitional//",
    "-//W3C//DTD HTML Experimental 19960712//",
    "-//W3C//DTD HTML Experimental 970421//",
    "-//W3C//DTD W3 HTML//",
    "-//W3O//DTD W3 HTML 3.0//",
    "-//WebTechs//DTD Mozilla HTML 2.0//",
    "-//WebTechs//DTD Mozilla HTML//",
];

/// HTML 4.01 prefixes: quirks without a system identifier, limited-quirks with one.
const HTML401_PREFIXES: &[&str] = &[
    "-//W3C//DTD HTML 4.01 Frameset//",
    "-//W3C//DTD HTML 4.01 Transitional//",
];

/// Prefixes that always give limited-quirks mode.
const LIMITED_QUIRKS_PREFIXES: &[&str] = &[
    "-//W3C//DTD XHTML 1.0 Frameset//",
    "-//W3C//DTD XHTML 1.0 Transitional//",
];

const QUIRKS_SYSTEM_EXACT: &str = "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len()
        && s.as_bytes()
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// The document mode a DOCTYPE token selects (13.2.6.4.1, A.4).
pub(crate) fn doctype_mode(doctype: &Doctype<'_>) -> QuirksMode {
    if doctype.force_quirks || doctype.name != Some("html") {
        return QuirksMode::Quirks;
    }
    let system = doctype.system_id;
    if system.is_some_and(|s| s.eq_ignore_ascii_case(QUIRKS_SYSTEM_EXACT)) {
        return QuirksMode::Quirks;
    }
    let Some(public) = doctype.public_id else {
        return QuirksMode::NoQuirks;
    };
    if QUIRKS_PUBLIC_EXACT
        .iter()
        .any(|p| public.eq_ignore_ascii_case(p))
        || QUIRKS_PUBLIC_PREFIXES
            .iter()
            .any(|p| starts_with_ci(public, p))
    {
        return QuirksMode::Quirks;
    }
    // A.4: a missing or empty system identifier counts the same.
    let system_absent = system.is_none_or(str::is_empty);
    if HTML401_PREFIXES.iter().any(|p| starts_with_ci(public, p)) {
        return if system_absent {
            QuirksMode::Quirks
        } else {
            QuirksMode::LimitedQuirks
        };
    }
    if LIMITED_QUIRKS_PREFIXES
        .iter()
        .any(|p| starts_with_ci(public, p))
    {
        return QuirksMode::LimitedQuirks;
    }
    QuirksMode::NoQuirks
}

/// Whether a DOCTYPE token is a parse error (13.2.6.4.1).
pub(crate) fn doctype_is_error(doctype: &Doctype<'_>) -> bool {
    doctype.name != Some("html")
        || doctype.public_id.is_some()
        || doctype
            .system_id
            .is_some_and(|s| s != "about:legacy-compat")
}
