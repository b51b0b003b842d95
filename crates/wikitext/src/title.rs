//! Link targets: MediaWiki's title normalization (namespaces, first letter
//! upper-case, `_` as space) and Parsoid's link forms (`./Title`, red links).

/// Canonical namespace names, by the lowercase names and aliases that select them.
const NAMESPACES: &[(&str, &str)] = &[
    ("media", "Media"),
    ("special", "Special"),
    ("talk", "Talk"),
    ("user", "User"),
    ("user talk", "User talk"),
    ("project", "Project"),
    ("project talk", "Project talk"),
    ("file", "File"),
    ("image", "File"),
    ("file talk", "File talk"),
    ("image talk", "File talk"),
    ("mediawiki", "MediaWiki"),
    ("mediawiki talk", "MediaWiki talk"),
    ("template", "Template"),
    ("template talk", "Template talk"),
    ("help", "Help"),
    ("help talk", "Help talk"),
    ("category", "Category"),
    ("category talk", "Category talk"),
];

/// A parsed link target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkTarget {
    /// The canonical namespace name (empty for the main namespace).
    pub namespace: &'static str,
    /// The title within it, normalized (`Foo bar`).
    pub text: String,
    /// The fragment after `#`, if any (as written, trimmed).
    pub fragment: Option<String>,
    /// Written with a leading `:` (`[[:Category:X]]` is a link, not a category).
    pub colon: bool,
}

fn upper_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn clean(s: &str) -> String {
    let spaced = s.replace('_', " ");
    spaced
        .split([' ', '\t', '\u{a0}'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

impl LinkTarget {
    /// Parses `target` (entities already decoded); `None` if it cannot be a title.
    pub fn parse(target: &str) -> Option<LinkTarget> {
        let mut t = target.trim();
        let colon = t.starts_with(':');
        if colon {
            t = t.get(1..)?.trim_start();
        }
        let (page, fragment) = match t.split_once('#') {
            Some((p, f)) => (p, Some(f.trim().to_owned())),
            None => (t, None),
        };
        if page
            .chars()
            .any(|c| matches!(c, '<' | '>' | '[' | ']' | '{' | '}' | '|' | '\n' | '\r'))
        {
            return None;
        }
        let page = clean(page);
        let (namespace, text) = match page.split_once(':') {
            Some((ns, rest)) => {
                let key = clean(ns).to_lowercase();
                match NAMESPACES.iter().find(|(k, _)| *k == key) {
                    Some((_, canon)) => (*canon, upper_first(rest.trim())),
                    None => ("", upper_first(&page)),
                }
            }
            None => ("", upper_first(&page)),
        };
        if text.is_empty() && fragment.is_none() {
            return None;
        }
        Some(LinkTarget {
            namespace,
            text,
            fragment,
            colon,
        })
    }

    /// The full title (`Category:Foo bar`).
    pub fn full(&self) -> String {
        if self.namespace.is_empty() {
            self.text.clone()
        } else {
            format!("{}:{}", self.namespace, self.text)
        }
    }
}

/// A title as an href path segment: spaces as `_`, characters that would end or
/// change a path percent-encoded.
pub fn encode_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for c in title.chars() {
        match c {
            ' ' => out.push('_'),
            '%' | '?' | '\\' | '^' | '`' => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// A fragment for an href: spaces as `_`.
pub fn encode_fragment(fragment: &str) -> String {
    fragment.split_whitespace().collect::<Vec<_>>().join("_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        let t = LinkTarget::parse("category: foo_bar#x y").unwrap();
        assert_eq!((t.namespace, t.text.as_str()), ("Category", "Foo bar"));
        assert_eq!(t.fragment.as_deref(), Some("x y"));
        assert_eq!(LinkTarget::parse("18:30").unwrap().full(), "18:30");
        assert!(LinkTarget::parse("a{b").is_none());
        assert_eq!(encode_title("7% Solution"), "7%25_Solution");
        assert_eq!(encode_title("Foo\\bar"), "Foo%5Cbar");
    }
}
