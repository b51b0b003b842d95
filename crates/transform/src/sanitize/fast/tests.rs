//! The fast path gives the general path's output or hands the input over.

use std::sync::Arc;

use super::super::{Policy, Sanitizer};
use super::FastFallback;

fn sanitizers() -> [Sanitizer; 2] {
    [
        Sanitizer::new(Arc::new(Policy::default())),
        Sanitizer::new(Arc::new(Policy::widened())),
    ]
}

/// The fast path's answer for `input` under `s`, checked against the reference.
fn fast(s: &Sanitizer, input: &str) -> Result<String, FastFallback> {
    let reference = s.sanitize_reference(input).html;
    assert_eq!(s.sanitize(input).html, reference, "{input:?}");
    let out = s.sanitize_fast(input).map(|done| done.html);
    if let Ok(html) = &out {
        assert_eq!(html, &reference, "{input:?}");
    }
    // The proof never passes what the re-parse check refuses.
    let (proof, reparse) = s.sanitize_fast_checks(input);
    if let Ok(html) = &proof {
        assert_eq!(reparse.as_ref(), Ok(html), "{input:?}");
    }
    out
}

/// The proof's answer alone and the re-parse check's.
fn checks(
    s: &Sanitizer,
    input: &str,
) -> (Result<String, FastFallback>, Result<String, FastFallback>) {
    fast(s, input).ok();
    s.sanitize_fast_checks(input)
}

/// A leading newline in a `pre` (the parser drops one after the start tag,
/// so `<pre>\n\nx` holds "\nx"): the proof refuses it, the re-parse check
/// decides, the answer is the reference's.
#[test]
fn the_proof_refuses_a_leading_newline_in_pre() {
    for s in sanitizers() {
        for input in ["<pre>\n\nx</pre>", "<div><pre>\n\n<b>x</b></pre></div>"] {
            let (proof, _) = checks(&s, input);
            assert_eq!(proof, Err(FastFallback::Unproven), "{input:?}");
        }
    }
}

/// What the proof covers: rich text, lists, tables with whitespace between
/// their parts, formatting elements, links, nested inline content.
#[test]
fn the_proof_covers_rich_text_and_tables() {
    for s in sanitizers() {
        for input in [
            "<p>Hi <b>there</b> <a href=https://e.org/ title=t>link</a><br>x</p>",
            "<ul>\n<li>a <i>b</i></li>\n<li>c<ul><li>d</li></ul></li></ul><ol><li>e</ol>",
            "<table>\n<caption>c</caption><thead><tr><th>h</th></tr></thead>\n<tbody>\n<tr>\n<td><p>x</p><table><tr><td>in</td></tr></table></td>\n</tr></tbody></table>",
            "<div><h2>t</h2><p>a</p><blockquote><p>q</p></blockquote><pre>x\ny</pre><hr></div>",
            "<p><a href=/a>1</a><a href=/b>2</a></p><dl><dt>t<dd>d</dl>",
            "<b><i><u>x</u></i></b><b><b><b><b>deep</b></b></b></b>",
        ] {
            let (proof, reparse) = checks(&s, input);
            assert!(
                proof.is_ok(),
                "{input:?}: {proof:?} (re-parse check {reparse:?})"
            );
        }
    }
}

#[test]
fn plain_rich_text_takes_the_fast_path() {
    for s in sanitizers() {
        for input in [
            "",
            "hi",
            "<p onclick=x>Hi <a href='java&#x09;script:alert(1)'>x</a><script>alert(1)</script>",
            "<ul><li>a<li>b</ul><p>c<br>d<img src=x.png alt=y></p>",
            "<table><tr><td>a<td>b</table>",
            "<div><span title='a&amp;b\"c'>x &lt; y &nbsp;</span></div>",
            "<b>b<i>bi</i></b>",
            "<foo>unwrapped <bar>x</bar></foo> tail",
            "<pre>x\ny</pre>",
        ] {
            assert!(fast(&s, input).is_ok(), "{input:?}: {:?}", fast(&s, input));
        }
    }
}

#[test]
fn foster_parenting_falls_back() {
    for s in sanitizers() {
        assert_eq!(
            fast(&s, "<table><tr>text<td>x</td></tr></table>"),
            Err(FastFallback::Patch)
        );
    }
}

#[test]
fn the_adoption_agency_falls_back() {
    for s in sanitizers() {
        assert_eq!(fast(&s, "<b>1<p>2</b>3</p>"), Err(FastFallback::Patch));
    }
}

#[test]
fn nested_forms_fall_back() {
    let [default, widened] = sanitizers();
    // Forms unwrapped (default): nothing nests.
    assert_eq!(
        fast(&default, "<form><div></form><form><input></form>").as_deref(),
        Ok("<div></div>")
    );
    // Kept forms (widened): the tree nests a form in a form, which the
    // serialization cannot carry; the re-parse differs and the fast path must
    // not answer.
    assert_eq!(
        fast(&widened, "<form><div></form><form><input></form>"),
        Err(FastFallback::Reparse)
    );
}

#[test]
fn a_leading_newline_in_pre_is_checked() {
    for s in sanitizers() {
        // The parser drops the first newline after `<pre>`: the second one of
        // the tree would be read back as the first, and dropped.
        assert_eq!(fast(&s, "<pre>\n\nx</pre>"), Err(FastFallback::Reparse));
        assert_eq!(fast(&s, "<pre>&#10;x</pre>").as_deref(), Ok("<pre>x</pre>"));
        assert_eq!(
            fast(&s, "<pre><b></b>\nx</pre>").as_deref(),
            Ok("<pre><b></b>\nx</pre>")
        );
    }
}

#[test]
fn carriage_returns_fall_back() {
    for s in sanitizers() {
        assert_eq!(fast(&s, "<p>a&#13;b</p>"), Err(FastFallback::Text));
        assert_eq!(
            fast(&s, "<p title='a&#13;b'>x</p>"),
            Err(FastFallback::Name)
        );
    }
}

#[test]
fn raw_text_elements_fall_back() {
    let widened = Sanitizer::new(Arc::new(Policy::widened()));
    for input in [
        "<style>p{color:red}</style>",
        "<xmp>a</xmp>",
        "<svg><style>&lt;/style&gt;&lt;img src=x onerror=alert(1)&gt;</style></svg>",
        "<svg><style>a{}</style></svg>",
    ] {
        assert_eq!(
            fast(&widened, input),
            Err(FastFallback::RawText),
            "{input:?}"
        );
    }
}

#[test]
fn plaintext_and_script_never_reach_the_output() {
    for s in sanitizers() {
        assert!(fast(&s, "<plaintext><b>x</b>").is_ok());
        assert!(fast(&s, "<p>a<script>b</script>c</p>").is_ok());
    }
}

#[test]
fn rcdata_round_trips_through_s() {
    let [_, widened] = sanitizers();
    assert_eq!(
        fast(&widened, "<textarea>a &lt;/textarea&gt; b</textarea>").as_deref(),
        Ok("<textarea>a &lt;/textarea&gt; b</textarea>")
    );
    assert_eq!(
        fast(&widened, "<title>a<b>c</b></title>").as_deref(),
        Ok("<title>a&lt;b&gt;c&lt;/b&gt;</title>")
    );
}

#[test]
fn foreign_content_takes_the_fast_path() {
    let [_, widened] = sanitizers();
    for (input, want) in [
        (
            "<svg viewBox='0 0 1 1'><linearGradient id=g></linearGradient><a xlink:href='#g'>x</a></svg>",
            "<svg viewBox=\"0 0 1 1\"><linearGradient id=\"g\"></linearGradient><a xlink:href=\"#g\">x</a></svg>",
        ),
        (
            "<math><mi>x</mi><annotation-xml encoding=text/html><p>h</p></annotation-xml></math>",
            "<math><mi>x</mi><annotation-xml encoding=\"text/html\"><p>h</p></annotation-xml></math>",
        ),
        (
            "<svg><foreignObject><p>x</p></foreignObject><p>out</svg>",
            "<svg><foreignObject><p>x</p></foreignObject></svg><p>out</p>",
        ),
        (
            "<svg><set attributeName=href to=javascript:alert(1)></svg>",
            "<svg></svg>",
        ),
    ] {
        assert_eq!(fast(&widened, input).as_deref(), Ok(want), "{input:?}");
    }
}

/// The tokens the fast path feeds its second tree builder are exactly what a
/// tokenizer reads from the output (driven by a tree builder, as a browser's
/// parse of the output would be), adjacent character tokens joined.
#[test]
fn s_is_the_tokenization_of_the_output() {
    use tagloom_html::token::OwnedToken;
    use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
    use tagloom_html::tree_builder::TreeBuilder;

    /// Kind, name, attributes (name, value) or text.
    fn plain(tokens: &[OwnedToken]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for t in tokens {
            let s = match t {
                OwnedToken::StartTag(tag) => {
                    let attrs: Vec<String> = tag
                        .attrs()
                        .iter()
                        .map(|a| format!("{}={:?}", a.name.as_str(), a.value))
                        .collect();
                    format!("<{} {}>", tag.name().as_str(), attrs.join(" "))
                }
                OwnedToken::EndTag(tag) => format!("</{}>", tag.name().as_str()),
                OwnedToken::Characters(text) => {
                    if let Some(last) = out.last_mut()
                        && last.starts_with('"')
                    {
                        last.push_str(text.text());
                        continue;
                    }
                    format!("\"{}", text.text())
                }
                OwnedToken::Eof => "EOF".to_owned(),
                other => format!("{other:?}"),
            };
            out.push(s);
        }
        out
    }

    let mut inputs: Vec<String> = [
        "<p onclick=x>Hi <a href='/x?a=1&amp;b=2' title='&quot;q&quot;'>x</a> &lt;3 &nbsp;</p>",
        "<ul><li>a<li>b</ul><table><tr><td>1<td>2</table><br><img src=x.png alt='a>b'>",
        "<svg viewBox='0 0 1 1'><linearGradient id=g></linearGradient><a xlink:href='#g'>x</a></svg>",
        "<math><mi>x</mi><annotation-xml encoding=text/html><p>h</p></annotation-xml></math>",
        "<textarea>a &lt;/textarea&gt; b</textarea><title>a<b>c</b></title>",
        "<pre>&#10;x</pre><div title=\"a\u{a0}b\">c\u{a0}d</div>",
    ]
    .map(str::to_owned)
    .to_vec();
    inputs.extend(html5lib_inputs());
    let mut checked = 0;
    for s in sanitizers() {
        for input in &inputs {
            let Ok(first) = s.fast_first(input, super::check::Check::Reparse) else {
                continue;
            };
            let html = first.html.clone();
            let mut tok = Tokenizer::new(TokenizerConfig::default());
            let mut tb = TreeBuilder::new(super::super::tree_config("body", usize::MAX / 2));
            tok.push_str(&html);
            tok.finish();
            let mut real = Vec::new();
            while let Some(token) = tok.next_token().expect("tokenizer") {
                real.push(token.to_owned());
                tb.process_token(token).expect("tree builder");
                if let Some(state) = tb.take_tokenizer_state() {
                    tok.set_state(state.into());
                }
                tok.set_cdata_allowed(tb.cdata_allowed());
            }
            assert_eq!(
                plain(&first.second().expect("re-parse check").seen),
                plain(&real),
                "{input:?} -> {html:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[path = "../../../tests/sanitize_support/html5lib_inputs.rs"]
mod html5lib_data;

/// The `#data` sections of html5lib's tree-construction tests.
fn html5lib_inputs() -> Vec<String> {
    html5lib_data::tree_construction_inputs()
}

/// Windows of the bench corpus pages (`../shared/bench-corpus` or
/// `$TAGLOOM_BENCH_CORPUS`), cut at pseudo-random offsets so that tags,
/// tables and formatting elements are left open or half-written: the fast
/// path answers as the reference does. Ignored by default (slow in debug
/// builds): `cargo test -p tagloom-transform --release --lib windows -- --ignored`
/// (`TAGLOOM_SANITIZE_WINDOWS=N`: N windows per policy, default 1500).
#[test]
#[ignore]
fn corpus_windows_agree_with_the_reference() {
    let pages: Vec<String> = tagloom_testdata::Shared::BenchCorpus
        .files("corpus_windows_agree_with_the_reference", &["html"])
        .into_iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("page")).into_owned())
        .collect();
    assert!(!pages.is_empty());
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let rounds: usize = std::env::var("TAGLOOM_SANITIZE_WINDOWS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1500);
    let mut fast_answers = 0;
    for s in sanitizers() {
        for _ in 0..rounds {
            let page = &pages[(next() as usize) % pages.len()];
            let mut start = (next() as usize) % page.len();
            let mut end = (start + 1 + (next() as usize) % 4000).min(page.len());
            while !page.is_char_boundary(start) {
                start -= 1;
            }
            while !page.is_char_boundary(end) {
                end -= 1;
            }
            let input = &page[start..end];
            if fast(&s, input).is_ok() {
                fast_answers += 1;
            }
        }
    }
    println!(
        "{fast_answers} of {} windows took the fast path",
        2 * rounds
    );
    assert!(fast_answers > rounds);
}

/// A re-parse that would switch the tokenizer to RAWTEXT (or script data, or
/// PLAINTEXT) cannot be modelled by S. No policy lets such an element reach S
/// (raw-text elements give up earlier, `script`/`plaintext` are never
/// allowed), so the guard is fed directly.
#[test]
fn rawtext_in_the_reparse_is_refused() {
    use tagloom_html::token::OwnedToken;

    let rules = Arc::new(super::super::rules::Rules::new(Arc::new(Policy::widened())));
    for name in ["xmp", "style", "script", "plaintext", "iframe"] {
        let mut first = super::check::First::new(&rules, 0, super::check::Check::Reparse);
        let out = first.feed_for_test(&OwnedToken::start(name));
        assert_eq!(out, Err(FastFallback::State), "{name}");
    }
    // After `<title>` (RCDATA) only text and `</title>` may follow in S. (The
    // title itself is reported as a re-parse mismatch here: nothing queued
    // the clean tree's node; the RCDATA state is set all the same.)
    let mut first = super::check::First::new(&rules, 0, super::check::Check::Reparse);
    assert_eq!(
        first.feed_for_test(&OwnedToken::start("title")),
        Err(FastFallback::Reparse)
    );
    assert_eq!(
        first.feed_for_test(&OwnedToken::start("b")),
        Err(FastFallback::State)
    );
}

/// A tag name the tokenizer would not read back as written (`=` in it) makes
/// the fast path give up; the general path decides.
#[test]
fn odd_names_fall_back() {
    let mut policy = Policy::widened();
    policy.tags.insert("my=tag".to_owned());
    policy.generic_attributes.insert("data-x".to_owned());
    let s = Sanitizer::new(Arc::new(policy));
    assert_eq!(fast(&s, "<my=tag>x</my=tag>"), Err(FastFallback::Name));
    assert!(fast(&s, "<p data-x=1>x</p>").is_ok());
}

/// The short-text byte classes agree with the shared `write_escaped`: a text
/// whose classes say "nothing to escape" comes out of it unchanged (the fast
/// path copies such text as it is), and one that has something does not.
#[test]
fn byte_classes_agree_with_the_serializer() {
    use super::check::{ESCAPE_QUOTE, ESCAPE_TEXT, classes};
    use tagloom_html::serializer::{EscapeMode, write_escaped};
    let mut texts: Vec<String> = [
        "",
        "plain text",
        "a<b>c&d\"e'f",
        "\u{a0}",
        "\u{1a0}\u{20a0}é & ü",
        "short \"q\"",
    ]
    .iter()
    .map(|t| (*t).to_owned())
    .collect();
    // Every character of the first two planes' boundaries and every ASCII one.
    texts.extend(
        (0..0x800u32)
            .chain(0xfff0..0x1_0010)
            .filter_map(char::from_u32)
            .map(|c| format!("x{c}y")),
    );
    for text in &texts {
        let found = classes(text.as_bytes());
        for (mode, bits) in [
            (EscapeMode::Text, ESCAPE_TEXT),
            (EscapeMode::DoubleQuoted, ESCAPE_TEXT | ESCAPE_QUOTE),
        ] {
            let mut out = String::new();
            let _ = write_escaped(&mut out, text, mode);
            // 0xC2 is flagged for U+00A0 but also leads U+0080..U+00BF: a
            // flagged text may come back unchanged, an unflagged one must.
            if found & bits == 0 {
                assert_eq!(&out, text, "{text:?} {mode:?}");
            } else if !text.contains(|c: char| ('\u{80}'..='\u{bf}').contains(&c) && c != '\u{a0}')
            {
                assert_ne!(&out, text, "{text:?} {mode:?}");
            }
        }
    }
}

/// The CR/NUL test answers as a plain search, short text or long.
#[test]
fn plain_text_finds_cr_and_nul() {
    let long = "x".repeat(40);
    for text in [
        String::new(),
        "a".to_owned(),
        "a\rb".to_owned(),
        "\0".to_owned(),
        long.clone(),
        format!("{long}\r"),
        format!("\0{long}"),
        format!("{long}\u{a0}\n"),
    ] {
        assert_eq!(
            super::check::plain_text(&text),
            !text.contains(['\r', '\0']),
            "{text:?}"
        );
    }
}

/// The sink's thread-local log carries nothing from one parse to the next
/// that changes it: after a parse the walker abandoned halfway (foster
/// parenting), and after ones whose attribute lists went back to the pool
/// (to be refilled with other attributes), the next input still takes the
/// fast path and gives the reference's output.
#[test]
fn the_sink_log_starts_clean_for_every_parse() {
    let s = Sanitizer::new(Arc::new(Policy::default()));
    let inputs = [
        "<table><tr><td>a</td></tr>text<b>x</b></table><p>after",
        "<p title=t><a href=/x title=y>link</a> text</p>",
        "<table>a<p>b</p></table>",
        "<div><span id=s>one</span></div>two",
    ];
    for _ in 0..3 {
        for input in inputs {
            let fast_path = fast(&s, input);
            // The fast inputs stay fast whatever came before them (a log
            // left over from the previous parse would make the walker give up).
            if !input.starts_with("<table>") {
                assert_eq!(
                    fast_path.as_ref(),
                    Ok(&s.sanitize_reference(input).html),
                    "{input:?}"
                );
            }
        }
    }
}

/// Each thread has its own log: sanitizing on several threads at once gives
/// every thread the reference's outputs.
#[test]
fn threads_sanitize_independently() {
    let s = Sanitizer::new(Arc::new(Policy::default()));
    let inputs: Vec<String> = (0..40)
        .map(|i| format!("<p class=c{i}>t{i} <a href=/{i}>l</a><table>x{i}</table></p>"))
        .collect();
    let expected: Vec<String> = inputs
        .iter()
        .map(|i| s.sanitize_reference(i).html)
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for (input, want) in inputs.iter().zip(&expected) {
                    assert_eq!(&s.sanitize(input).html, want, "{input:?}");
                }
            });
        }
    });
}
