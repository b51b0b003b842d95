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
    out
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
