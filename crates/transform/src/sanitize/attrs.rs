//! One attribute's fate: kept as is, kept with a new value, or dropped. Shared by
//! the token filter (which does not know the namespace and asks the wider
//! question) and the tree pass (which knows it and has the last word).

use std::borrow::Cow;

use tagloom_html::dom_patch::Namespace;

use super::memo::ValueCheck;
use super::rules::{Reach, Rules};
use super::{css, url};

/// The value to keep for attribute `name` (full name: `xlink:href`) on element
/// `element` of namespace `ns` (`None`: unknown, any namespace the policy keeps),
/// or `None` to drop it. Borrowed when the value stays as it is.
pub(crate) fn clean_attribute<'v>(
    policy: &Rules,
    ns: Option<Namespace>,
    element: &str,
    name: &str,
    value: &'v str,
) -> Option<Cow<'v, str>> {
    let allowed = match ns {
        Some(ns) => policy.attribute_allowed(ns, element, name),
        None => name_may_stay(policy, element, name),
    };
    if !allowed {
        return None;
    }
    clean_value(policy, ns, name, value)
}

/// [`clean_attribute`] for an attribute whose name the policy allows there:
/// the value checks alone.
pub(crate) fn clean_value<'v>(
    policy: &Rules,
    ns: Option<Namespace>,
    name: &str,
    value: &'v str,
) -> Option<Cow<'v, str>> {
    let lower: Cow<'_, str> = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        name.to_ascii_lowercase().into()
    } else {
        name.into()
    };
    let is_url = policy.is_url_attribute(name) || lower == "href" || lower.ends_with(":href");
    if is_url && !url::attribute_value_allowed(policy, &lower, value) {
        return None;
    }
    if lower == "style" {
        return css::clean_style(value, &policy.style_properties).map(|v| {
            if v == value {
                Cow::Borrowed(value)
            } else {
                Cow::Owned(v)
            }
        });
    }
    if ns.is_some_and(|ns| ns != Namespace::Html) && !foreign_value_ok(value) {
        return None;
    }
    if let Some(prefix) = &policy.id_prefix
        && (lower == "id" || lower == "name")
        && !value.starts_with(prefix.as_str())
    {
        return Some(Cow::Owned(format!("{prefix}{value}")));
    }
    Some(Cow::Borrowed(value))
}

/// How [`clean_value`] treats a value of attribute `name` on an HTML element
/// or a tag of unknown namespace: it keeps any value of most attributes as
/// it is ([`ValueCheck::None`]); it only asks the URL check about one that
/// is a URL and neither a style nor an `id`/`name` under the policy's id
/// prefix ([`ValueCheck::Url`]).
pub(crate) fn value_check(policy: &Rules, name: &str) -> ValueCheck {
    let lower = name.to_ascii_lowercase();
    let url = policy.is_url_attribute(name) || lower == "href" || lower.ends_with(":href");
    let other =
        lower == "style" || (policy.id_prefix.is_some() && (lower == "id" || lower == "name"));
    match (url, other) {
        (false, false) => ValueCheck::None,
        (true, false) => ValueCheck::Url,
        _ => ValueCheck::Full,
    }
}

/// [`clean_value`] for an HTML element or a tag of unknown namespace, given
/// [`value_check`] of the attribute's name.
pub(crate) fn clean_value_as<'v>(
    policy: &Rules,
    check: ValueCheck,
    name: &str,
    value: &'v str,
) -> Option<Cow<'v, str>> {
    match check {
        ValueCheck::None => Some(Cow::Borrowed(value)),
        ValueCheck::Url => {
            url::attribute_value_allowed(policy, name, value).then_some(Cow::Borrowed(value))
        }
        ValueCheck::Full => clean_value(policy, None, name, value),
    }
}

/// Whether the token filter (no namespace known) may keep attribute `name` on
/// a tag named `element`, before its value is checked.
pub(crate) fn name_may_stay(policy: &Rules, element: &str, name: &str) -> bool {
    name_reach(policy, element, name) != Reach::None
}

/// [`name_may_stay`], telling whether the tree pass keeps the attribute by
/// name on an HTML element ([`Reach::Html`]: its value is then judged there as
/// the filter judges it, see [`clean_value`]). A link's `rel` that the policy
/// rewrites is [`Reach::Foreign`] unless a list names it.
pub(crate) fn name_reach(policy: &Rules, element: &str, name: &str) -> Reach {
    match policy.attribute_reach(element, name) {
        // The tree pass rewrites `rel` on HTML links whatever the token had (and
        // judges it with the namespace elsewhere): the filter lets it by, so a
        // sanitized link passes the filter unchanged.
        Reach::None
            if policy.link_rel.is_some()
                && name.eq_ignore_ascii_case("rel")
                && matches!(element, "a" | "area") =>
        {
            Reach::Foreign
        }
        reach => reach,
    }
}

/// SVG/MathML presentation attributes may hold `url(…)` paint references: only to
/// a fragment of this document (`url(#id)`).
fn foreign_value_ok(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let mut rest = lower.as_str();
    while let Some(i) = rest.find("url(") {
        rest = &rest[i + 4..];
        let target =
            rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '"' || c == '\'');
        if !target.starts_with('#') {
            return false;
        }
    }
    !lower.contains("javascript:") && !lower.contains('\\')
}

/// SVG animation elements whose `attributeName` would let them rewrite a URL, an
/// event handler or a style (`<set attributeName=href to=javascript:…>`): the
/// element is dropped.
pub(crate) fn animation_is_dangerous(policy: &Rules, attribute_name: Option<&str>) -> bool {
    let Some(target) = attribute_name else {
        return false;
    };
    let target = target.trim().to_ascii_lowercase();
    let local = target.rsplit(':').next().unwrap_or(&target);
    local.starts_with("on")
        || local == "href"
        || local == "style"
        || policy.is_url_attribute(local)
        || policy.is_url_attribute(&target)
}

/// Whether an element is an SVG animation element (any case).
pub(crate) fn is_animation(name: &str) -> bool {
    [
        "animate",
        "set",
        "animatemotion",
        "animatetransform",
        "animatecolor",
        "discard",
    ]
    .iter()
    .any(|a| a.eq_ignore_ascii_case(name))
}

/// The `rel` value of a link after the policy's additions: the tokens it had
/// (when `rel` is allowed), then the policy's tokens it lacked.
pub(crate) fn link_rel(existing: Option<&str>, add: &str) -> String {
    let mut tokens: Vec<&str> = existing
        .map(|e| e.split_ascii_whitespace().collect())
        .unwrap_or_default();
    for t in add.split_ascii_whitespace() {
        if !tokens.iter().any(|x| x.eq_ignore_ascii_case(t)) {
            tokens.push(t);
        }
    }
    tokens.join(" ")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::sanitize::Policy;

    /// `clean_value_as` with `value_check`'s answer is `clean_value` (on an
    /// HTML element or a tag of unknown namespace).
    #[test]
    fn value_checks_by_name_agree_with_clean_value() {
        let mut prefixed = Policy::widened();
        prefixed.id_prefix = Some("user-".to_owned());
        let names = [
            "title",
            "alt",
            "href",
            "HREF",
            "xlink:href",
            "src",
            "srcset",
            "style",
            "Style",
            "id",
            "name",
            "lang",
            "class",
            "action",
            "poster",
            "data",
            "ping",
            "width",
        ];
        let values = [
            "",
            "x",
            "javascript:alert(1)",
            "java\tscript:x",
            "color: red",
            "background:url(x)",
            "a\u{1b}b",
            "user-x",
            "https://e.org/",
            "data:text/html,x",
            "x.png 1x, javascript:y 2x",
        ];
        let mut seen = Vec::new();
        for policy in [Policy::default(), Policy::widened(), prefixed] {
            let rules = Rules::new(Arc::new(policy));
            for name in names {
                let check = value_check(&rules, name);
                seen.push(check);
                for value in values {
                    let want = clean_value(&rules, None, name, value);
                    assert_eq!(
                        clean_value_as(&rules, check, name, value),
                        want,
                        "{name}={value:?}"
                    );
                    assert_eq!(
                        clean_value(&rules, Some(Namespace::Html), name, value),
                        want,
                        "{name}={value:?}"
                    );
                    if check == ValueCheck::None {
                        assert_eq!(want, Some(Cow::Borrowed(value)), "{name}={value:?}");
                    }
                }
            }
        }
        for check in [ValueCheck::None, ValueCheck::Url, ValueCheck::Full] {
            assert!(seen.contains(&check), "{check:?} never tested");
        }
    }
}
