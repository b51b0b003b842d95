//! Handler-at-a-time over chunks equals token-at-a-time, for random handler sets
//! (ranks, keys, outcomes, stateful handlers) and random chunk sizes: same output,
//! and every handler called with the same tokens in the same order.

use std::cell::RefCell;
use std::rc::Rc;

use proptest::prelude::*;
use tagloom_html::token::{OwnedToken, TokenKind};
use tagloom_transform::pipeline::{
    Ctx, Dispatch, Match, Outcome, Pipeline, PipelineConfig, Rank, Registry, VecSink, block_on,
};

#[derive(Clone, Copy, Debug)]
enum Action {
    Keep,
    Delete,
    Upper,
    ToComment,
    ExpandTwo,
    /// Deletes every third token it sees (state across tokens and chunks).
    EveryThird,
}

#[derive(Clone, Debug)]
struct Spec {
    rank: f64,
    key: u8,
    action: Action,
}

fn token(n: u8) -> OwnedToken {
    match n % 5 {
        0 => OwnedToken::text("x"),
        1 => OwnedToken::comment("c"),
        2 => OwnedToken::start("a"),
        3 => OwnedToken::start("b"),
        _ => OwnedToken::end("a"),
    }
}

fn key(k: u8) -> Match<TokenKind> {
    match k % 5 {
        0 => Match::Any,
        1 => Match::Kind(TokenKind::Characters),
        2 => Match::Kind(TokenKind::Comment),
        3 => Match::tag(TokenKind::StartTag, "a"),
        _ => Match::Kind(TokenKind::StartTag),
    }
}

type Calls = Rc<RefCell<Vec<(usize, String)>>>;

fn registry(specs: &[Spec], calls: &Calls) -> Registry<OwnedToken> {
    let mut r = Registry::new();
    for (i, spec) in specs.iter().enumerate() {
        let calls = Rc::clone(calls);
        let action = spec.action;
        let mut seen = 0usize;
        let handler = move |t: OwnedToken, _: &Ctx| {
            calls.borrow_mut().push((i, format!("{t:?}")));
            seen += 1;
            if matches!(t, OwnedToken::Eof) {
                return Ok(Outcome::Keep(t));
            }
            Ok(match action {
                Action::Keep => Outcome::Keep(t),
                Action::Delete => Outcome::Delete,
                Action::Upper => match t {
                    OwnedToken::Characters(x) => {
                        Outcome::Keep(OwnedToken::text(x.text().to_uppercase()))
                    }
                    t => Outcome::Keep(t),
                },
                Action::ToComment => Outcome::Keep(OwnedToken::comment("made")),
                Action::ExpandTwo => {
                    Outcome::Expand(vec![OwnedToken::text("e"), OwnedToken::start("a")])
                }
                Action::EveryThird if seen.is_multiple_of(3) => Outcome::Delete,
                Action::EveryThird => Outcome::Keep(t),
            })
        };
        let rank = Rank::new(spec.rank).expect("rank");
        // Duplicate (key, rank) pairs are refused; the property holds for the rest.
        let _ = r.add(handler, rank, key(spec.key));
    }
    r
}

fn run(
    specs: &[Spec],
    input: &[OwnedToken],
    dispatch: Dispatch,
    chunk_size: usize,
    vec: bool,
) -> (Vec<OwnedToken>, Vec<(usize, String)>) {
    let calls = Calls::default();
    let config = PipelineConfig {
        dispatch,
        chunk_size,
        ..PipelineConfig::default()
    };
    let mut pipeline = Pipeline::new(registry(specs, &calls), config);
    let (out, _) = if vec {
        block_on(pipeline.run_vec(input.to_vec(), VecSink::default())).expect("run_vec")
    } else {
        block_on(pipeline.run(input.iter().cloned().map(Ok), VecSink::default())).expect("run")
    };
    let mut calls = calls.borrow().clone();
    // Per handler, in call order.
    calls.sort_by_key(|(i, _)| *i);
    (out, calls)
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop_oneof![0u8..5, 20u8..25],
        0u8..5,
        prop_oneof![
            Just(Action::Keep),
            Just(Action::Delete),
            Just(Action::Upper),
            Just(Action::ToComment),
            Just(Action::ExpandTwo),
            Just(Action::EveryThird),
        ],
    )
        .prop_map(|(r, key, action)| Spec {
            rank: f64::from(r) / 10.0,
            key,
            action,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn handler_at_a_time_equals_token_at_a_time(
        specs in prop::collection::vec(spec(), 0..7),
        input in prop::collection::vec(any::<u8>(), 0..40),
        chunk_size in 1usize..12,
    ) {
        let input: Vec<OwnedToken> = input.into_iter().map(token).collect();
        let reference = run(&specs, &input, Dispatch::TokenAtATime, 1, false);
        let chunked = run(&specs, &input, Dispatch::HandlerAtATime, chunk_size, false);
        prop_assert_eq!(&chunked.0, &reference.0);
        prop_assert_eq!(&chunked.1, &reference.1);
        let whole = run(&specs, &input, Dispatch::TokenAtATime, 1000, false);
        prop_assert_eq!(&whole.0, &reference.0);
        // `run_vec`: the input as one chunk, whatever the chunk size.
        let one = run(&specs, &input, Dispatch::HandlerAtATime, chunk_size, true);
        prop_assert_eq!(&one.0, &reference.0);
        prop_assert_eq!(&one.1, &reference.1);
    }
}

/// `run_vec` adds the end of input a vector lacks and drops what follows
/// the first one, as `run` does with an iterator.
#[test]
fn run_vec_ends_input_like_run() {
    let mut pipeline = Pipeline::new(Registry::new(), PipelineConfig::default());
    let (out, stats) =
        block_on(pipeline.run_vec(vec![OwnedToken::text("a")], VecSink::default())).expect("run");
    assert_eq!(out, vec![OwnedToken::text("a"), OwnedToken::Eof]);
    assert_eq!(stats.tokens_in, 2);
    let input = vec![
        OwnedToken::text("a"),
        OwnedToken::Eof,
        OwnedToken::text("after"),
    ];
    let (out, _) = block_on(pipeline.run_vec(input.clone(), VecSink::default())).expect("run");
    let (reference, _) =
        block_on(pipeline.run(input.into_iter().map(Ok), VecSink::default())).expect("run");
    assert_eq!(out, reference);
    assert_eq!(out, vec![OwnedToken::text("a"), OwnedToken::Eof]);
}
