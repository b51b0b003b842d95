//! html5lib-tests' serializer suite (`tests/data/html5lib/serializer/*.test`) run
//! through [`TokenSerializer`], with the options the fixtures name.
//!
//! As html5lib's own runner does, attributes are written in alphabetical order and
//! `inject_meta_charset` is on unless a test turns it off (it only acts when the
//! test gives an `encoding`). `escape_lt_in_attrs` needs no mapping: `<` and `>` are
//! always escaped in attribute values now (HTML §13.3 since 2025).

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use tagloom_html::dom_patch::{AttrNamespace, Namespace};
use tagloom_html::serializer::{
    AttrQuoting, QuoteChar, SerializeOptions, SerializerToken, TokenAttr, TokenSerializer,
};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/html5lib/serializer"
);
const KNOWN_FAILURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/known-failures/serializer.txt"
);

/// A token with owned text, from the fixture's JSON.
enum Owned {
    Doctype(String, String, String),
    Start(
        Namespace,
        String,
        Vec<(AttrNamespace, String, String)>,
        bool,
    ),
    End(Namespace, String),
    Comment(String),
    Characters(String),
}

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

fn attrs(v: Option<&Value>) -> Result<Vec<(AttrNamespace, String, String)>, String> {
    match v {
        Some(Value::Array(list)) => list
            .iter()
            .map(|a| {
                Ok((
                    attr_namespace(a.get("namespace").and_then(Value::as_str))?,
                    string(a.get("name"))?,
                    string(a.get("value"))?,
                ))
            })
            .collect(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| Ok((AttrNamespace::None, k.clone(), string(Some(v))?)))
            .collect(),
        other => Err(format!("bad attributes {other:?}")),
    }
}

fn token(v: &Value) -> Result<Owned, String> {
    let parts = v.as_array().ok_or("token is not an array")?;
    let kind = parts
        .first()
        .and_then(Value::as_str)
        .ok_or("no token type")?;
    let s = |i: usize| string(parts.get(i));
    Ok(match (kind, parts.len()) {
        ("StartTag", 4) => Owned::Start(
            namespace(parts.get(1).and_then(Value::as_str))?,
            s(2)?,
            attrs(parts.get(3))?,
            false,
        ),
        ("StartTag", 3) => Owned::Start(Namespace::Html, s(1)?, attrs(parts.get(2))?, false),
        ("EmptyTag", _) => Owned::Start(Namespace::Html, s(1)?, attrs(parts.get(2))?, true),
        ("EndTag", 3) => Owned::End(namespace(parts.get(1).and_then(Value::as_str))?, s(2)?),
        ("EndTag", 2) => Owned::End(Namespace::Html, s(1)?),
        ("Comment", _) => Owned::Comment(s(1)?),
        ("Characters" | "SpaceCharacters", _) => Owned::Characters(s(1)?),
        ("Doctype", _) => Owned::Doctype(s(1)?, s(2).unwrap_or_default(), s(3).unwrap_or_default()),
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
    let owned = test
        .get("input")
        .and_then(Value::as_array)
        .ok_or("no input")?
        .iter()
        .map(token)
        .collect::<Result<Vec<_>, _>>()?;
    let attr_lists: Vec<Vec<TokenAttr<'_>>> = owned
        .iter()
        .map(|t| match t {
            Owned::Start(_, _, attrs, _) => attrs
                .iter()
                .map(|(ns, name, value)| TokenAttr {
                    ns: *ns,
                    name,
                    value,
                })
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    let tokens: Vec<SerializerToken<'_>> = owned
        .iter()
        .zip(&attr_lists)
        .map(|(t, attrs)| match t {
            Owned::Doctype(name, public_id, system_id) => SerializerToken::Doctype {
                name,
                public_id,
                system_id,
            },
            Owned::Start(_, name, _, true) => SerializerToken::EmptyTag { name, attrs },
            Owned::Start(ns, name, _, false) => SerializerToken::StartTag {
                ns: *ns,
                name,
                attrs,
            },
            Owned::End(ns, name) => SerializerToken::EndTag { ns: *ns, name },
            Owned::Comment(data) => SerializerToken::Comment(data),
            Owned::Characters(data) => SerializerToken::Characters(data),
        })
        .collect();
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
