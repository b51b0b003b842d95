//! The sanitizer's vector corpus (`tests/data/sanitize/vectors.txt`, one vector per
//! advisory class and then some) and the html5lib tree-construction inputs, under
//! the default policy and the widened one: every output re-parses to itself in
//! both contexts and scripting modes, serializes back byte for byte, is a fixed
//! point of the sanitizer, and passes the safety oracle.

mod sanitize_support;

use sanitize_support::{check, tree_construction_inputs, vectors};
use tagloom_transform::sanitize::{Policy, sanitize};

fn run(inputs: &[String], label: &str) {
    let mut failures = Vec::new();
    for (name, policy) in [
        ("default", Policy::default()),
        ("widened", Policy::widened()),
    ] {
        for x in inputs {
            failures.extend(
                check(x, &policy)
                    .into_iter()
                    .map(|f| format!("[{name}] {f}")),
            );
        }
    }
    println!(
        "{label}: {} inputs x 2 policies, {} failures",
        inputs.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_vectors_hold_every_property() {
    let v = vectors();
    assert!(v.len() > 250, "{} vectors", v.len());
    run(&v, "vectors");
}

#[test]
fn tree_construction_inputs_hold_every_property() {
    let inputs = tree_construction_inputs();
    assert!(inputs.len() > 1000, "{} inputs", inputs.len());
    run(&inputs, "tree-construction");
}

#[test]
fn nothing_scriptable_survives_the_default_policy() {
    let policy = Policy::default();
    for x in vectors() {
        let s = sanitize(&x, &policy).html.to_ascii_lowercase();
        for bad in [
            "<script",
            "=\"javascript:",
            "<style",
            "<svg",
            "<math",
            "<iframe",
            "<!--",
        ] {
            assert!(!s.contains(bad), "{x:?} -> {s:?} contains {bad}");
        }
    }
}

#[test]
fn exact_outputs() {
    let p = Policy::default();
    let cases = [
        ("<p>Hi<script>alert(1)</script></p>", "<p>Hi</p>"),
        ("<b>a<i>b</b>c</i>", "<b>a<i>b</i></b><i>c</i>"),
        (
            "<a href=/x>y</a>",
            "<a href=\"/x\" rel=\"noopener noreferrer\">y</a>",
        ),
        (
            "<a href=javascript:alert(1)>y</a>",
            "<a rel=\"noopener noreferrer\">y</a>",
        ),
        ("<foo>kept<bar>text</bar></foo>", "kepttext"),
        (
            "<table><tr><td>1</td></tr></table>",
            "<table><tbody><tr><td>1</td></tr></tbody></table>",
        ),
        (
            "<style>p{}</style><textarea>t</textarea><title>x</title>ok",
            "ok",
        ),
        ("<svg><text>drawn</text></svg>after", "after"),
        ("<!-- c -->x", "x"),
        (
            "<img src=x.png alt=a onerror=alert(1)>",
            "<img src=\"x.png\" alt=\"a\">",
        ),
        ("<plaintext><b>x", ""),
        ("x<noscript><p>y</p></noscript>z", "xz"),
    ];
    for (input, want) in cases {
        assert_eq!(sanitize(input, &p).html, want, "{input:?}");
    }
}

#[test]
fn widened_policy_keeps_what_it_allows() {
    let p = Policy::widened();
    let out = sanitize("<svg viewBox='0 0 1 1'><rect width=1 fill='url(#g)'/></svg><p style='color:red;position:fixed'>x</p><!--c-->", &p).html;
    assert_eq!(
        out,
        "<svg viewBox=\"0 0 1 1\"><rect width=\"1\" fill=\"url(#g)\"></rect></svg><p style=\"color: red\">x</p><!--c-->"
    );
    // Never allowed, even when listed.
    let out = sanitize("<svg><script>alert(1)</script></svg>", &p).html;
    assert_eq!(out, "<svg></svg>");
}

/// How often the fast path hands the vectors and the html5lib inputs to the
/// general path (printed: `cargo test --test sanitize_vectors fast -- --nocapture`),
/// and every fast answer equals the reference's.
#[test]
fn fast_path_answers_equal_the_reference() {
    use std::collections::BTreeMap;
    use std::sync::Arc;
    use tagloom_transform::sanitize::Sanitizer;

    for (name, policy) in [
        ("default", Policy::default()),
        ("widened", Policy::widened()),
    ] {
        let sanitizer = Sanitizer::new(Arc::new(policy));
        for (label, inputs) in [
            ("vectors", vectors()),
            ("tree-construction", tree_construction_inputs()),
        ] {
            let mut tally: BTreeMap<String, usize> = BTreeMap::new();
            for x in &inputs {
                let key = match sanitizer.sanitize_fast(x) {
                    Ok(done) => {
                        let reference = sanitizer.sanitize_reference(x);
                        assert_eq!(done, reference, "[{name}] {x:?}");
                        "fast".to_owned()
                    }
                    Err(why) => format!("{why:?}"),
                };
                *tally.entry(key).or_default() += 1;
            }
            println!("[{name}] {label}: {} inputs, {tally:?}", inputs.len());
            assert!(tally.get("fast").is_some_and(|&n| n * 2 > inputs.len()));
        }
    }
}
