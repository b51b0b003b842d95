//! Cite's argument checks (its `Validator`): which attributes a `<ref>` and a
//! `<references>` take, and the errors of their values and bodies.

use super::errors::CiteError;

/// A `<ref>`'s arguments after the checks.
#[derive(Clone, Debug, Default)]
pub(crate) struct RefArgs {
    pub(crate) group: String,
    pub(crate) name: String,
    pub(crate) follow: String,
    /// `rtl`, `ltr`, `auto` or empty.
    pub(crate) dir: String,
}

const REF_ARGS: [&str; 4] = ["group", "name", "follow", "dir"];
const REFERENCES_ARGS: [&str; 2] = ["group", "responsive"];

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev.get(j).copied().unwrap_or(0) + usize::from(ca != *cb);
            let del = prev.get(j + 1).copied().unwrap_or(0) + 1;
            let ins = cur.get(j).copied().unwrap_or(0) + 1;
            cur.push(sub.min(del).min(ins));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

fn closest(bad: &str, allowed: &[&'static str]) -> Option<&'static str> {
    let bad = bad.trim().to_ascii_lowercase();
    if bad.len() > 20 {
        return None;
    }
    let mut best: Option<(&'static str, usize)> = None;
    for s in allowed {
        let d = levenshtein(&bad, s);
        if d <= 1 {
            return Some(s);
        }
        if best.is_none_or(|(_, bd)| d < bd) {
            best = Some((s, d));
        }
    }
    best.filter(|(s, d)| *d * 2 <= s.len()).map(|(s, _)| s)
}

/// The first attribute not in `allowed`, as Cite reports it.
fn unknown(attrs: &[(String, String)], allowed: &[&'static str], list: bool) -> Option<CiteError> {
    let (bad, _) = attrs.iter().find(|(k, _)| !allowed.contains(&k.as_str()))?;
    let mut sorted = allowed.to_vec();
    sorted.sort_unstable();
    let joined = sorted.join(", ");
    if let Some(m) = closest(bad, allowed).filter(|_| !list) {
        return Some(CiteError::with(
            "cite_error_ref_parameter_suggestion",
            &[bad, m],
        ));
    }
    let key = if list {
        "cite_error_references_invalid_parameters"
    } else {
        "cite_error_ref_too_many_keys"
    };
    Some(CiteError::with(key, &[bad, &joined]))
}

/// The value of the last attribute named `n` (a later duplicate wins, as in the tag).
fn last_attr(attrs: &[(String, String)], n: &str) -> Option<String> {
    attrs
        .iter()
        .rev()
        .find(|(k, _)| k == n)
        .map(|(_, v)| v.clone())
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Checks a `<ref>`: `text` is `None` for a self-closed tag, else whether the
/// body has more than whitespace; `list_group` is the `<references>` group the
/// ref sits in, if any.
pub(crate) fn check_ref(
    attrs: &[(String, String)],
    has_text: Option<bool>,
    list_group: Option<&str>,
    errors: &mut Vec<CiteError>,
) -> RefArgs {
    if let Some(e) = unknown(attrs, &REF_ARGS, false) {
        errors.push(e);
    }
    let get = |n: &str| last_attr(attrs, n);
    let group_attr = get("group");
    let mut args = RefArgs {
        group: group_attr
            .clone()
            .or_else(|| list_group.map(str::to_owned))
            .unwrap_or_default(),
        name: get("name").unwrap_or_default(),
        follow: get("follow").unwrap_or_default(),
        dir: String::new(),
    };
    if is_digits(&args.name) {
        args.name.clear();
        errors.push(CiteError::new("cite_error_ref_numeric_key"));
    } else if is_digits(&args.follow) {
        errors.push(CiteError::new("cite_error_ref_numeric_key"));
    }
    if !args.follow.is_empty() && !args.name.is_empty() {
        errors.push(CiteError::new("cite_error_ref_follow_conflicts"));
    }
    if let Some(dir) = get("dir") {
        let lower = dir.to_ascii_lowercase();
        if matches!(lower.as_str(), "rtl" | "ltr" | "auto") {
            args.dir = lower;
        } else {
            errors.push(CiteError::with("cite_error_ref_invalid_dir", &[&dir]));
        }
    }
    match list_group {
        None => {
            if args.name.is_empty() {
                match has_text {
                    None => errors.push(CiteError::new("cite_error_ref_no_key")),
                    Some(false) => errors.push(CiteError::new("cite_error_ref_no_input")),
                    Some(true) => {}
                }
            }
        }
        Some(list) => {
            let written_group = args.group.clone();
            if args.group != list {
                errors.push(CiteError::with(
                    "cite_error_references_group_mismatch",
                    &[&args.group],
                ));
                args.group = list.to_owned();
            }
            if args.name.is_empty() {
                errors.push(CiteError::new("cite_error_references_no_key"));
            }
            if has_text != Some(true) {
                errors.push(CiteError::with(
                    "cite_error_empty_references_define",
                    &[&args.name, &written_group],
                ));
            }
        }
    }
    args
}

/// A body's own source: without the output of the template calls in it (a
/// `<references>` a template makes inside a list is not written in it).
fn own_text(src: &str) -> String {
    use crate::transclusion::{END, START};
    let mut out = String::with_capacity(src.len());
    let mut depth = 0usize;
    for c in src.chars() {
        match c {
            START => depth += 1,
            END => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A `<references>`'s arguments: its group, whether it is responsive (`None`:
/// the default), and its errors.
pub(crate) fn check_references(
    attrs: &[(String, String)],
    src: Option<&str>,
    errors: &mut Vec<CiteError>,
) -> (String, Option<bool>) {
    if let Some(e) = unknown(attrs, &REFERENCES_ARGS, true) {
        errors.push(e);
    }
    if src.is_some_and(|s| own_text(s).to_ascii_lowercase().contains("<references")) {
        errors.push(CiteError::new("cite_error_included_references"));
    }
    let get = |n: &str| last_attr(attrs, n);
    let responsive = get("responsive").map(|v| v != "0");
    (get("group").unwrap_or_default(), responsive)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn numeric_names_are_dropped_with_an_error() {
        let mut errors = Vec::new();
        let args = check_ref(&attrs(&[("name", "123")]), Some(true), None, &mut errors);
        assert_eq!(args.name, "");
        assert_eq!(errors, vec![CiteError::new("cite_error_ref_numeric_key")]);
    }

    #[test]
    fn a_misspelt_parameter_gets_a_suggestion() {
        let mut errors = Vec::new();
        check_ref(&attrs(&[("nmae", "x")]), Some(true), None, &mut errors);
        assert_eq!(
            errors.first().map(|e| e.key),
            Some("cite_error_ref_parameter_suggestion")
        );
    }

    #[test]
    fn an_empty_unnamed_ref_is_an_error() {
        let mut errors = Vec::new();
        check_ref(&[], None, None, &mut errors);
        assert_eq!(errors, vec![CiteError::new("cite_error_ref_no_key")]);
        let mut errors = Vec::new();
        check_ref(&[], Some(false), None, &mut errors);
        assert_eq!(errors, vec![CiteError::new("cite_error_ref_no_input")]);
    }

    #[test]
    fn refs_in_a_list_take_its_group() {
        let mut errors = Vec::new();
        let args = check_ref(
            &attrs(&[("name", "a"), ("group", "x")]),
            Some(true),
            Some("g"),
            &mut errors,
        );
        assert_eq!(args.group, "g");
        assert_eq!(
            errors.first().map(|e| e.key),
            Some("cite_error_references_group_mismatch")
        );
    }
}
