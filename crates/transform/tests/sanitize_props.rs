//! Generated markup: tag soup from the pieces mutation XSS is made of (raw-text
//! and RCDATA elements, foreign roots and integration points, tables, forms,
//! `select`, templates, comments and their odd ends, CDATA, dangerous attributes
//! and URLs), through the same property check as the corpus, under the default and
//! the widened policy.

mod sanitize_support;

use proptest::prelude::*;
use sanitize_support::check;
use tagloom_transform::sanitize::Policy;

const PIECES: &[&str] = &[
    "<svg>",
    "</svg>",
    "<math>",
    "</math>",
    "<mtext>",
    "<mi>",
    "<mglyph>",
    "<malignmark>",
    "<annotation-xml encoding=\"text/html\">",
    "<annotation-xml>",
    "</annotation-xml>",
    "<foreignObject>",
    "</foreignObject>",
    "<desc>",
    "<title>",
    "</title>",
    "<style>",
    "</style>",
    "<xmp>",
    "</xmp>",
    "<iframe>",
    "</iframe>",
    "<noembed>",
    "<noframes>",
    "<noscript>",
    "</noscript>",
    "<textarea>",
    "</textarea>",
    "<plaintext>",
    "<script>",
    "</script>",
    "<template>",
    "</template>",
    "<table>",
    "</table>",
    "<tr>",
    "<td>",
    "</td>",
    "<caption>",
    "<form>",
    "</form>",
    "<p>",
    "</p>",
    "<a href=javascript:alert(1)>",
    "<a href=/ok>",
    "</a>",
    "<b>",
    "</b>",
    "<i>",
    "<div>",
    "</div>",
    "<select>",
    "</select>",
    "<option>",
    "<button>",
    "<selectedcontent>",
    "<img src=x onerror=alert(1)>",
    "<img src=x>",
    "<!--",
    "-->",
    "--!>",
    "<!-->",
    "<![CDATA[",
    "]]>",
    "<br/>",
    "<path/>",
    "<set attributeName=href to=javascript:alert(1)>",
    "<animate attributeName=x>",
    "<p style=\"color:red;background:url(x)\">",
    "<span title=\"</style><img src=x onerror=alert(1)>\">",
    "<h1>",
    "<h2>",
    "<li>",
    "<ul>",
    "<pre>",
    "\n",
    "x",
    " ",
    "&lt;",
    "&amp;",
    "<",
    ">",
    "\"",
    "'",
    "=",
    "/",
    "<body onload=alert(1)>",
    "<html>",
    "<head>",
    "<frameset>",
    "<keygen>",
    "<image>",
    "<input>",
    "<listing>",
    "<object>",
    "</object>",
    "<embed>",
    "<base href=x>",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..80).prop_map(|v| v.concat())
}

proptest! {
    // 400 cases in CI; PROPTEST_CASES=N for a longer search.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(400),
        ..ProptestConfig::default()
    })]

    #[test]
    fn generated_markup_holds_every_property(x in soup()) {
        let mut failures = check(&x, &Policy::default());
        failures.extend(check(&x, &Policy::widened()));
        prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
