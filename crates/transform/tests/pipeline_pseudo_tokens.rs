//! Pseudo-tokens: the pipeline is generic over `PipelineToken`, so a front end can
//! run its own token enum (here HTML tokens plus a template pseudo-token) through
//! the same registry, phases and sinks-by-`Vec`, turning pseudo-tokens into HTML
//! tokens before the HTML sink.

use tagloom_html::token::{OwnedToken, TokenKind};
use tagloom_transform::pipeline::{
    Ctx, HandlerFuture, Match, Outcome, Pipeline, PipelineConfig, PipelineToken, Rank, Registry,
    VecSink, block_on, enter,
};

#[derive(Clone, Debug, PartialEq)]
enum Wiki {
    Html(OwnedToken),
    Template(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum WikiKind {
    Html(TokenKind),
    Template,
}

impl PipelineToken for Wiki {
    type Kind = WikiKind;
    fn kind(&self) -> WikiKind {
        match self {
            Wiki::Html(t) => WikiKind::Html(t.kind()),
            Wiki::Template(_) => WikiKind::Template,
        }
    }
    fn tag_name(&self) -> Option<&str> {
        match self {
            Wiki::Html(t) => t.tag_name(),
            Wiki::Template(name) => Some(name),
        }
    }
    fn is_eof(&self) -> bool {
        matches!(self, Wiki::Html(OwnedToken::Eof))
    }
    fn eof() -> Self {
        Wiki::Html(OwnedToken::Eof)
    }
}

/// `{{echo}}` expands to `<b>echo</b>`; `{{self}}` expands to itself (a loop).
fn templates(token: Wiki, ctx: &Ctx) -> HandlerFuture<Wiki> {
    let ctx = ctx.clone();
    Box::pin(async move {
        let Wiki::Template(name) = token else {
            return Ok(Outcome::Keep(token));
        };
        let child = match enter(&ctx, &name) {
            Ok(child) => child,
            Err(e) => {
                return Ok(Outcome::Keep(Wiki::Html(OwnedToken::text(format!(
                    "[{e}]"
                )))));
            }
        };
        let body = match name.as_str() {
            "self" => vec![Wiki::Template("self".into())],
            other => vec![
                Wiki::Html(OwnedToken::start("b")),
                Wiki::Html(OwnedToken::text(other)),
                Wiki::Html(OwnedToken::end("b")),
            ],
        };
        let mut sub = Pipeline::for_expansion(registry(), PipelineConfig::default(), child);
        let out = Box::pin(sub.expand(body.into_iter().map(Ok))).await?;
        Ok(Outcome::Expand(out))
    })
}

fn registry() -> Registry<Wiki> {
    let mut r = Registry::new();
    r.add_async(
        templates,
        Rank::new(1.1).unwrap(),
        Match::Kind(WikiKind::Template),
    )
    .unwrap();
    r
}

#[test]
fn pseudo_tokens_expand_through_the_same_pipeline() {
    let mut pipeline = Pipeline::new(registry(), PipelineConfig::default());
    let input = [
        Wiki::Html(OwnedToken::text("a")),
        Wiki::Template("echo".into()),
        Wiki::Template("self".into()),
    ];
    let (out, _) = block_on(pipeline.run(input.map(Ok), VecSink::default())).unwrap();
    let html: Vec<OwnedToken> = out
        .into_iter()
        .map(|t| match t {
            Wiki::Html(t) => t,
            Wiki::Template(name) => panic!("unexpanded {name}"),
        })
        .collect();
    assert_eq!(
        html,
        [
            OwnedToken::text("a"),
            OwnedToken::start("b"),
            OwnedToken::text("echo"),
            OwnedToken::end("b"),
            OwnedToken::text("[expansion loop: self -> self]"),
            OwnedToken::Eof,
        ]
    );
}
