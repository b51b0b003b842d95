//! Unit tests of the token filter (`filter.rs`).

use super::super::tree::{KeptElement, keep_element};
use super::*;
use tagloom_html::dom_patch::PatchAttr;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

/// `filter_token` (borrowed tokens, judged once, reused buffers) gives
/// what `filter_with` gives for the owned copies, token by token, with
/// the same simulator effects; a judged tag holds no attribute the tree
/// pass would change on an HTML element.
#[test]
fn filter_token_agrees_with_filter_with() {
    use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
    let inputs = [
        "<p onclick=x title=t class=c>a<!--c--><a href='javascript:x' rel=r>l</a></p>",
        "<!doctype html><div style='color:red; background:url(x)' class=c><img src=x.png alt=a></div>",
        "<a href=https://e.org/ title=t>x</a><area href=/x rel=nofollow><span style='x'>y</span>",
        "<b id=i>b</b><foo bar=1>u</foo><svg viewBox='0 0 1 1'><rect fill=url(#a)/></svg><table><td>t</table>",
        "<script>alert(1)</script><style>p{}</style><textarea><b>t</b></textarea><xmp>x</xmp>after",
        "<math><mi>x</mi><annotation-xml encoding=text/html><p>h</p></annotation-xml></math>",
        "<img src='java\tscript:x' alt='\u{1b}esc'><set attributename=href to=x><animate>",
        "<svg><script>x</script><style>y</style></svg><noscript><p>n</p></noscript><ol start=2 reversed>",
        "<div><div><p>unclosed<li>item<dd>d</div>tail</p><br/><hr>",
    ];
    for policy in [Policy::default(), Policy::widened()] {
        let rules = Arc::new(Rules::new(Arc::new(policy)));
        for input in inputs {
            let mut tok = Tokenizer::new(TokenizerConfig::default());
            let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
            tok.push_str(input);
            tok.finish();
            let mut owned_filter = SanitizeFilter::with_rules(rules.clone());
            let mut borrowed_filter = SanitizeFilter::with_rules(rules.clone());
            let mut spare = Spare::default();
            loop {
                let token = match tok.next_token() {
                    Ok(Some(token)) => token,
                    _ => Token::Eof,
                };
                let eof = matches!(token, Token::Eof);
                let effect = match &token {
                    Token::StartTag(tag) => Some(sim.start_tag(tag)),
                    Token::EndTag(tag) => Some(sim.end_tag(tag)),
                    Token::Characters(text) => {
                        sim.characters(text.text);
                        None
                    }
                    _ => None,
                };
                let (mut want, mut got) = (Vec::new(), Vec::new());
                owned_filter.filter_with(token.to_owned(), effect, &mut want);
                let (passed, judged) =
                    match borrowed_filter.filter_token(&token, effect, &mut got, &mut spare) {
                        Passed::Out => (false, false),
                        Passed::Token => {
                            got.push(token.to_owned());
                            (true, false)
                        }
                        Passed::Tag { judged } => {
                            got.extend(spare.tag.clone());
                            // The atoms for the tree builder's view name the
                            // tag and its kept attributes.
                            let (Token::StartTag(read), Some(OwnedToken::StartTag(tag))) =
                                (token, &spare.tag)
                            else {
                                panic!("{input}: a tag passed for {token:?}");
                            };
                            let names: Vec<&str> = std::iter::once(tag.name().as_str())
                                .chain(tag.attrs().iter().map(|a| a.name.as_str()))
                                .collect();
                            let atoms: Vec<&str> =
                                spare.atoms.iter().map(|&a| read.atoms().name(a)).collect();
                            assert_eq!(atoms, names, "{input}");
                            (true, judged)
                        }
                    };
                assert!(!passed || got.len() == 1, "{input}");
                if let Some(state) = effect.and_then(|e| e.switch) {
                    tok.set_state(state.into());
                }
                tok.set_cdata_allowed(sim.cdata_allowed());
                let strip = |t: &OwnedToken| match t {
                    OwnedToken::StartTag(tag) | OwnedToken::EndTag(tag) => {
                        let attrs: Vec<_> = tag
                            .attrs()
                            .iter()
                            .map(|a| (a.name.as_str().to_owned(), a.value.clone()))
                            .collect();
                        format!("{:?} {} {attrs:?}", t.kind(), tag.name().as_str())
                    }
                    OwnedToken::Characters(text) => format!("text {:?}", text.text()),
                    other => format!("{other:?}"),
                };
                let want: Vec<String> = want.iter().map(strip).collect();
                let shown: Vec<String> = got.iter().map(strip).collect();
                assert_eq!(shown, want, "{input}");
                if judged {
                    let Some(OwnedToken::StartTag(tag)) = got.first() else {
                        panic!("{input}: judged without a start tag");
                    };
                    let attrs = tag
                        .attrs()
                        .iter()
                        .map(|a| PatchAttr::new(a.name.as_str().to_owned(), a.value.clone()))
                        .collect::<Vec<_>>();
                    let name = tag.name().as_str();
                    let full = keep_element(&rules, Namespace::Html, name, attrs.clone(), false);
                    let fast = keep_element(&rules, Namespace::Html, name, attrs, true);
                    let view = |k: Option<KeptElement>| k.map(|k| (k.attrs, k.change));
                    assert_eq!(view(full), view(fast), "{input}: {name}");
                }
                if eof {
                    break;
                }
            }
        }
    }
}

/// `keeps_unchanged` and the filter agree token by token.
#[test]
fn keeps_unchanged_agrees_with_the_filter() {
    let inputs = [
        "<p onclick=x title=t>a<!--c--><a href='javascript:x' rel=r>l</a></p>",
        "<!doctype html><div style='color:red' class=c><img src=x.png alt=a></div>",
        "<a href=https://e.org/>x</a><span style='background:url(x)'>y</span>",
        "<b id=i>b</b><foo>u</foo><svg><rect/></svg><table><td>t</table>",
    ];
    for policy in [Policy::default(), Policy::widened()] {
        let policy = Arc::new(policy);
        let rules = Rules::new(policy.clone());
        for input in inputs {
            let mut tok = Tokenizer::new(TokenizerConfig::default());
            tok.push_str(input);
            tok.finish();
            while let Ok(Some(token)) = tok.next_token() {
                let keeps = keeps_unchanged(&rules, &token);
                let owned = token.to_owned();
                let mut filter = SanitizeFilter::new(policy.clone());
                let mut out = Vec::new();
                filter.filter(owned.clone(), &mut out);
                let unchanged = out.len() == 1 && out[0] == owned && !out[0].is_modified();
                assert_eq!(keeps, unchanged, "{input}: {owned:?} -> {out:?}");
            }
        }
    }
}
