//! The byte-preserving token writer round-trips: random HTML-ish documents,
//! tokenized in random chunks with the text-type simulator driving the tokenizer,
//! turned into owned tokens and written back with `TokenWriter::write_preserving`,
//! give the input byte for byte up to the end of the last token's span; what no
//! token covers — an unfinished tag dropped at end of file, the `]]>` of a CDATA
//! section that ends the input — is the consumer's to copy at end of input. With every token marked modified the writer
//! serializes each one; the output then tokenizes to the same tokens (names,
//! attributes, text, comments).

use proptest::prelude::*;
use tagloom_html::serializer::TokenWriter;
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::OwnedToken;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

const PIECES: &[&str] = &[
    "<p>",
    "</p>",
    "<P CLASS=a>",
    "<div id=\"x\" hidden>",
    "</div>",
    "<br/>",
    "<img src=a.png alt='a \"b\"'>",
    "<a href=\"/x?a=1&amp;b=2\">",
    "</a>",
    "<input value=x disabled>",
    "<b =x y=>",
    "<script>",
    "</script>",
    "<script>if (a<b && c>d) x='</p>';",
    "<!--<script>",
    "<style>",
    "</style>",
    "p > a { x: '<' }",
    "<title>",
    "</title>",
    "<textarea>",
    "</textarea>",
    "<noscript>",
    "</noscript>",
    "<plaintext>",
    "<xmp>",
    "</xmp>",
    "<iframe>",
    "</iframe>",
    "<svg>",
    "</svg>",
    "<circle r=\"1\"/>",
    "<foreignObject>",
    "</foreignObject>",
    "<desc>",
    "<math>",
    "</math>",
    "<mi>",
    "</mi>",
    "<annotation-xml encoding=text/html>",
    "<mglyph/>",
    "<![CDATA[a<b]]>",
    "<![CDATA[",
    "]]>",
    "<table>",
    "<td>",
    "<tr>",
    "</table>",
    "<select>",
    "<option>",
    "<template>",
    "</template>",
    "<!-- c -->",
    "<!---->",
    "<!--a--!>",
    "<!-x->",
    "<?pi x?>",
    "</ >",
    "</3>",
    "<!doctype html>",
    "<!DOCTYPE>",
    "<my-el a=1>",
    "</my-el>",
    "&",
    "&amp;",
    "&lt;",
    "&nbsp;",
    "&notin",
    "&#x41;",
    "&#0;",
    "\u{a0}",
    "<",
    ">",
    "'",
    "\"",
    "text",
    " ",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "\0",
    "é",
    "😀",
    "</",
    "<a",
    " b=c",
    "/>",
];

fn random_doc() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|p| p.concat())
}

/// Tokenizes `doc` pushed in pieces of `sizes` (cycled; bytes), driving the
/// tokenizer with the simulator and annotating tags with their namespace; `each`
/// sees every owned token as soon as it is read.
fn tokenize(doc: &str, sizes: &[usize], mut each: impl FnMut(OwnedToken)) {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    let mut pull = |tok: &mut Tokenizer| {
        while let Some(token) = tok.next_token().expect("no tokenizer error") {
            let mut owned = token.to_owned();
            let effect = sim.process_owned(&owned);
            if let Some(state) = effect.switch {
                tok.set_state(state.into());
            }
            tok.set_cdata_allowed(sim.cdata_allowed());
            if let Some(tag) = owned.as_tag_mut() {
                tag.set_ns(effect.ns);
            }
            each(owned);
        }
    };
    let bytes = doc.as_bytes();
    let mut at = 0;
    for &size in sizes.iter().cycle() {
        if at >= bytes.len() {
            break;
        }
        let end = (at + size.max(1)).min(bytes.len());
        tok.push_bytes(&bytes[at..end]);
        pull(&mut tok);
        at = end;
    }
    tok.finish();
    pull(&mut tok);
}

/// What must survive a serialization: adjacent text coalesced, end tags by name.
#[derive(Debug, PartialEq)]
enum Seen {
    Start(String, Vec<(String, String)>, bool),
    End(String),
    Text(String),
    Comment(String),
    Doctype(Option<String>),
    Other,
}

fn seen(tokens: &[OwnedToken]) -> Vec<Seen> {
    let mut out: Vec<Seen> = Vec::new();
    for token in tokens {
        let item = match token {
            OwnedToken::StartTag(t) => Seen::Start(
                t.name().to_string(),
                t.attrs()
                    .iter()
                    .map(|a| (a.name.to_string(), a.value.to_string()))
                    .collect(),
                t.self_closing(),
            ),
            OwnedToken::EndTag(t) => Seen::End(t.name().to_string()),
            OwnedToken::Characters(t) => {
                if let Some(Seen::Text(last)) = out.last_mut() {
                    last.push_str(t.text());
                    continue;
                }
                Seen::Text(t.text().to_owned())
            }
            OwnedToken::Comment(t) => Seen::Comment(t.text().to_owned()),
            OwnedToken::Doctype(d) => Seen::Doctype(d.name().map(str::to_owned)),
            _ => Seen::Other,
        };
        out.push(item);
    }
    out
}

/// Marks `token` modified without changing it.
fn touch(token: &mut OwnedToken) {
    match token {
        OwnedToken::StartTag(t) | OwnedToken::EndTag(t) => {
            t.attrs_mut();
        }
        OwnedToken::Characters(t) | OwnedToken::Comment(t) => {
            t.text_mut();
        }
        OwnedToken::Doctype(d) => {
            let quirks = d.force_quirks();
            d.set_force_quirks(quirks);
        }
        _ => {}
    }
}

fn check(doc: &str, sizes: &[usize]) -> Result<(), TestCaseError> {
    let mut preserved = String::new();
    let mut writer = TokenWriter::new();
    let mut tokens = Vec::new();
    let mut covered = 0;
    tokenize(doc, sizes, |token| {
        writer
            .write_preserving(&token, doc, &mut preserved)
            .expect("writing into a String");
        if let Some(span) = token.span() {
            covered = span.end;
        }
        tokens.push(token);
    });
    prop_assert_eq!(&preserved, &doc[..covered]);
    let tail = &doc[covered..];
    prop_assert!(
        tail.is_empty() || tail.starts_with('<') || tail.starts_with("]]>"),
        "lost {:?}",
        tail
    );

    let mut serialized = String::new();
    let mut writer = TokenWriter::new();
    for token in &tokens {
        let mut token = token.clone();
        touch(&mut token);
        prop_assert!(token.is_modified() || token.kind() == tagloom_html::token::TokenKind::Eof);
        writer
            .write_preserving(&token, doc, &mut serialized)
            .expect("writing into a String");
    }
    let mut again = Vec::new();
    tokenize(&serialized, &[usize::MAX], |t| again.push(t));
    prop_assert_eq!(
        seen(&tokens),
        seen(&again),
        "serialized as {:?}",
        serialized
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn preserving_writer_round_trips(
        doc in random_doc(),
        sizes in prop::collection::vec(1usize..16, 1..16),
    ) {
        check(&doc, &sizes)?;
        check(&doc, &[usize::MAX])?;
    }
}
