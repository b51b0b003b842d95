//! html5lib-tests' serializer suite (`tests/data/html5lib/serializer/*.test`) run
//! through [`TokenSerializer`], with the options the fixtures name.
//!
//! As html5lib's own runner does, attributes are written in alphabetical order and
//! `inject_meta_charset` is on unless a test turns it off (it only acts when the
//! test gives an `encoding`). `escape_lt_in_attrs` needs no mapping: `<` and `>` are
//! always escaped in attribute values now (HTML §13.3 since 2025).
//!
//! The fixtures' tokens become `OwnedToken`s: an `EmptyTag` is a start tag of an
//! element that serializes as void (the fixtures only use it for those, and for one
//! unknown `foo` that nothing follows), `SpaceCharacters` are characters.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use tagloom_html::dom_patch::{AttrNamespace, Namespace};
use tagloom_html::serializer::{AttrQuoting, QuoteChar, SerializeOptions, TokenSerializer};
use tagloom_html::token::{Name, OwnedAttribute, OwnedDoctype, OwnedTag, OwnedToken};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/html5lib/serializer"
);
const KNOWN_FAILURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/known-failures/serializer.txt"
);

fn namespace(uri: Option<&str>) -> Result<Namespace, String> {
    match uri {
        None | Some("http://www.w3.org/1999/xhtml") => Ok(Namespace::Html),
        Some("http://www.w3.org/2000/svg") => Ok(Namespace::Svg),
        Some("http://www.w3.org/1998/Math/MathML") => Ok(Namespace::MathMl),
        Some(other) => Err(format!("unknown namespace {other}")),
    }
}

fn attr_namespace(uri: Option<&str>) -> Result<AttrNamespace, String> {
    match uri {
        None => Ok(AttrNamespace::None),
        Some("http://www.w3.org/1999/xlink") => Ok(AttrNamespace::XLink),
        Some("http://www.w3.org/XML/1998/namespace") => Ok(AttrNamespace::Xml),
        Some("http://www.w3.org/2000/xmlns/") => Ok(AttrNamespace::Xmlns),
        Some(other) => Err(format!("unknown attribute namespace {other}")),
    }
}

fn string(v: Option<&Value>) -> Result<String, String> {
    v.and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("expected a string, got {v:?}"))
}

fn attr(ns: AttrNamespace, name: &str, value: String) -> OwnedAttribute {
    let mut attr = OwnedAttribute::new(Name::new(name), value);
    attr.ns = ns;
    attr
}

fn attrs(v: Option<&Value>) -> Result<Vec<OwnedAttribute>, String> {
    match v {
        Some(Value::Array(list)) => list
            .iter()
            .map(|a| {
                Ok(attr(
                    attr_namespace(a.get("namespace").and_then(Value::as_str))?,
                    &string(a.get("name"))?,
                    string(a.get("value"))?,
                ))
            })
            .collect(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| Ok(attr(AttrNamespace::None, k, string(Some(v))?)))
            .collect(),
        other => Err(format!("bad attributes {other:?}")),
    }
}

fn start(ns: Namespace, name: &str, attrs: Vec<OwnedAttribute>) -> OwnedToken {
    let mut tag = OwnedTag::new(Name::new(name));
    tag.set_ns(ns);
    *tag.attrs_mut() = attrs;
    OwnedToken::StartTag(tag)
}

fn end(ns: Namespace, name: &str) -> OwnedToken {
    let mut tag = OwnedTag::new(Name::new(name));
    tag.set_ns(ns);
    OwnedToken::EndTag(tag)
}

fn token(v: &Value) -> Result<OwnedToken, String> {
    let parts = v.as_array().ok_or("token is not an array")?;
    let kind = parts
        .first()
        .and_then(Value::as_str)
        .ok_or("no token type")?;
    let s = |i: usize| string(parts.get(i));
    let ns = |i: usize| namespace(parts.get(i).and_then(Value::as_str));
    // An identifier the fixture leaves out or gives as empty is missing.
    let id = |i: usize| s(i).ok().filter(|s| !s.is_empty());
    Ok(match (kind, parts.len()) {
        ("StartTag", 4) => start(ns(1)?, &s(2)?, attrs(parts.get(3))?),
        ("StartTag", 3) | ("EmptyTag", _) => start(Namespace::Html, &s(1)?, attrs(parts.get(2))?),
        ("EndTag", 3) => end(ns(1)?, &s(2)?),
        ("EndTag", 2) => end(Namespace::Html, &s(1)?),
        ("Comment", _) => OwnedToken::comment(s(1)?),
        ("Characters" | "SpaceCharacters", _) => OwnedToken::text(s(1)?),
        ("Doctype", _) => OwnedToken::Doctype(Box::new(OwnedDoctype::new(
            Some(&s(1)?),
            id(2).as_deref(),
            id(3).as_deref(),
        ))),
        _ => return Err(format!("unsupported token {v}")),
    })
}

fn options(v: Option<&Value>) -> Result<SerializeOptions, String> {
    let mut o = SerializeOptions {
        alphabetical_attributes: true,
        ..SerializeOptions::default()
    };
    let Some(map) = v.and_then(Value::as_object) else {
        return Ok(o);
    };
    let flag = |name: &str| map.get(name).and_then(Value::as_bool);
    let mut inject = true;
    for (name, value) in map {
        match name.as_str() {
            "quote_attr_values" => {
                o.quote_attr_values = match value {
                    Value::Bool(true) => AttrQuoting::Always,
                    Value::String(s) if s == "always" => AttrQuoting::Always,
                    _ => AttrQuoting::WhenNeeded,
                }
            }
            "quote_char" => {
                o.quote_char = match value.as_str() {
                    Some("'") => QuoteChar::Single,
                    _ => QuoteChar::Double,
                }
            }
            "use_best_quote_char" if value == &Value::Bool(false) => {
                o.quote_char = QuoteChar::Double
            }
            "use_best_quote_char" => {}
            "minimize_boolean_attributes" => {
                o.minimize_boolean_attributes = flag(name).unwrap_or(true)
            }
            "use_trailing_solidus" => o.use_trailing_solidus = flag(name).unwrap_or(false),
            "space_before_trailing_solidus" => {
                o.space_before_trailing_solidus = flag(name).unwrap_or(true)
            }
            "escape_rcdata" => o.escape_rcdata = flag(name).unwrap_or(false),
            "omit_optional_tags" => o.omit_optional_tags = flag(name).unwrap_or(true),
            "strip_whitespace" => o.strip_whitespace = flag(name).unwrap_or(false),
            "alphabetical_attributes" => o.alphabetical_attributes = flag(name).unwrap_or(true),
            "inject_meta_charset" => inject = flag(name).unwrap_or(true),
            // Always on, see the module docs.
            "escape_lt_in_attrs" | "encoding" => {}
            other => return Err(format!("unsupported option {other}")),
        }
    }
    if inject {
        o.inject_meta_charset = map
            .get("encoding")
            .and_then(Value::as_str)
            .map(str::to_owned);
    }
    Ok(o)
}

/// Runs one test; `Ok(true)` when the output is one of the expected ones.
fn run(test: &Value) -> Result<(bool, String), String> {
    let options = options(test.get("options"))?;
    let tokens = test
        .get("input")
        .and_then(Value::as_array)
        .ok_or("no input")?
        .iter()
        .map(token)
        .collect::<Result<Vec<_>, _>>()?;
    let actual = TokenSerializer::new(options).to_string(&tokens);
    let expected = test
        .get("expected")
        .and_then(Value::as_array)
        .ok_or("no expected")?;
    let pass = expected.iter().any(|e| e.as_str() == Some(actual.as_str()));
    Ok((pass, actual))
}

fn known_failures() -> BTreeSet<String> {
    std::fs::read_to_string(KNOWN_FAILURES)
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn html5lib_serializer_suite() {
    let known = known_failures();
    let mut files: Vec<_> = std::fs::read_dir(DATA)
        .expect("serializer data directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .test files in {DATA}");
    let (mut total, mut passed, mut known_seen) = (0, 0, 0);
    let mut unexpected = Vec::new();
    let mut stale = Vec::new();
    for path in &files {
        let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("?");
        let json: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read"))
            .expect("valid JSON");
        let tests = json.get("tests").and_then(Value::as_array).expect("tests");
        let mut file_passed = 0;
        for test in tests {
            let description = test
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("?");
            let id = format!("{file}: {description}");
            let (pass, detail) = match run(test) {
                Ok((pass, actual)) => (
                    pass,
                    format!("got {actual:?}, expected {}", test["expected"]),
                ),
                Err(e) => (false, e),
            };
            let listed = known.contains(&id);
            match (pass, listed) {
                (true, false) => file_passed += 1,
                (true, true) => {
                    file_passed += 1;
                    stale.push(id);
                }
                (false, true) => known_seen += 1,
                (false, false) => unexpected.push(format!("{id}: {detail}")),
            }
        }
        println!("{file:<20} {file_passed:>4}/{:<4}", tests.len());
        total += tests.len();
        passed += file_passed;
    }
    println!(
        "{:<20} {passed:>4}/{total:<4} ({known_seen} known failures)",
        "total"
    );
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed in {} but passing now:\n{}",
        Path::new(KNOWN_FAILURES).display(),
        stale.join("\n")
    );
}
