//! Tests of the generated named character reference table (`table.rs`).

use super::table::{LONGEST_ENTITY_NAME, is_entity_prefix, lookup_entity};

/// (name without `&`, characters) for every entry of `data/entities.json`.
fn entities() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/entities.json");
    let text = std::fs::read_to_string(path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json.as_object()
        .unwrap()
        .iter()
        .map(|(key, value)| {
            let name = key.strip_prefix('&').unwrap().to_owned();
            let characters = value["characters"].as_str().unwrap().to_owned();
            (name, characters)
        })
        .collect()
}

#[test]
fn every_entity_resolves() {
    let entities = entities();
    assert_eq!(entities.len(), 2231);
    assert_eq!(
        entities
            .iter()
            .filter(|(name, _)| name.ends_with(';'))
            .count(),
        2125
    );
    for (name, characters) in &entities {
        assert_eq!(
            lookup_entity(name.as_bytes()),
            Some(characters.as_str()),
            "&{name}"
        );
        assert!(is_entity_prefix(name.as_bytes()), "&{name}");
        for end in 0..name.len() {
            assert!(
                is_entity_prefix(&name.as_bytes()[..end]),
                "&{name} up to {end}"
            );
        }
    }
    let longest = entities.iter().map(|(name, _)| name.len()).max().unwrap();
    assert_eq!(LONGEST_ENTITY_NAME, longest);
}

#[test]
fn known_values() {
    assert_eq!(lookup_entity(b"amp;"), Some("&"));
    assert_eq!(lookup_entity(b"amp"), Some("&"));
    assert_eq!(lookup_entity(b"AMP"), Some("&"));
    assert_eq!(lookup_entity(b"lt;"), Some("<"));
    assert_eq!(lookup_entity(b"not"), Some("\u{ac}"));
    assert_eq!(lookup_entity(b"notin;"), Some("\u{2209}"));
    assert_eq!(lookup_entity(b"NotEqualTilde;"), Some("\u{2242}\u{338}"));
    assert_eq!(
        lookup_entity(b"CounterClockwiseContourIntegral;"),
        Some("\u{2233}")
    );
    assert_eq!(
        LONGEST_ENTITY_NAME,
        "CounterClockwiseContourIntegral;".len()
    );
}

#[test]
fn non_entities_miss() {
    let entities = entities();
    let names: std::collections::HashSet<&[u8]> =
        entities.iter().map(|(name, _)| name.as_bytes()).collect();
    for (name, _) in &entities {
        let bytes = name.as_bytes();
        // Without `;`, with a doubled `;`, with the case of one letter changed, truncated.
        let mut candidates = vec![
            bytes.strip_suffix(b";").unwrap_or(bytes).to_vec(),
            [bytes, b";"].concat(),
            bytes[..bytes.len() - 1].to_vec(),
            [b"&", bytes].concat(),
        ];
        for i in 0..bytes.len() {
            if bytes[i].is_ascii_alphabetic() {
                let mut changed = bytes.to_vec();
                changed[i] ^= 0x20;
                candidates.push(changed);
            }
        }
        for candidate in candidates {
            if !names.contains(candidate.as_slice()) {
                assert_eq!(
                    lookup_entity(&candidate),
                    None,
                    "{:?}",
                    String::from_utf8_lossy(&candidate)
                );
            }
        }
    }
    for name in [
        &b""[..],
        b";",
        b"amp;;",
        b"ampx",
        b"Amp;",
        b"&amp;",
        b"\xff",
        &[b'a'; 40],
    ] {
        assert_eq!(
            lookup_entity(name),
            None,
            "{:?}",
            String::from_utf8_lossy(name)
        );
    }
}

#[test]
fn prefixes() {
    assert!(is_entity_prefix(b""));
    assert!(is_entity_prefix(b"a"));
    assert!(is_entity_prefix(b"am"));
    assert!(is_entity_prefix(b"amp"));
    assert!(is_entity_prefix(b"amp;"));
    assert!(is_entity_prefix(b"no"));
    assert!(is_entity_prefix(b"notin"));
    assert!(is_entity_prefix(b"CounterClockwiseContourIntegral"));
    assert!(!is_entity_prefix(b"amp;x"));
    assert!(!is_entity_prefix(b"ampx"));
    assert!(!is_entity_prefix(b"notit"));
    assert!(!is_entity_prefix(b"x;"));
    assert!(!is_entity_prefix(b"zzz"));
    assert!(!is_entity_prefix(b"\xff"));
    assert!(!is_entity_prefix(b"&amp"));
    assert!(!is_entity_prefix(b"CounterClockwiseContourIntegral;;"));
}
