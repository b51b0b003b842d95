//! Title normalization shared by links and the renderer.

/// MediaWiki's title normalization for comparisons: `_` as space, runs of
/// spaces collapsed, trimmed, first letter upper-case.
pub fn normalize_title(title: &str) -> String {
    let spaced = title.replace('_', " ");
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let joined = words.join(" ");
    let mut chars = joined.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
