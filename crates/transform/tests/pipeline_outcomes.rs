//! Pipeline semantics: one test per handler outcome and per ordering rule.

use std::cell::RefCell;
use std::rc::Rc;

use tagloom_html::token::{OwnedToken, TokenKind};
use tagloom_transform::pipeline::{
    Ctx, Dispatch, HandlerError, Match, Outcome, Pipeline, PipelineConfig, PipelineError, Rank,
    Registry, VecSink, block_on,
};

type Log = Rc<RefCell<Vec<String>>>;

fn rank(r: f64) -> Rank {
    Rank::new(r).unwrap()
}

fn show(t: &OwnedToken) -> String {
    match t {
        OwnedToken::Characters(x) => format!("'{}'", x.text()),
        OwnedToken::Comment(x) => format!("!{}", x.text()),
        OwnedToken::StartTag(x) => format!("<{}>", x.name().as_str()),
        OwnedToken::EndTag(x) => format!("</{}>", x.name().as_str()),
        OwnedToken::Eof => "EOF".into(),
        other => format!("{other:?}"),
    }
}

/// A handler that logs `name:token` and applies `f`.
fn logging(
    log: &Log,
    name: &'static str,
    mut f: impl FnMut(OwnedToken) -> Outcome<OwnedToken> + 'static,
) -> impl FnMut(OwnedToken, &Ctx) -> Result<Outcome<OwnedToken>, HandlerError> + 'static {
    let log = Rc::clone(log);
    move |t, _| {
        log.borrow_mut().push(format!("{name}:{}", show(&t)));
        Ok(f(t))
    }
}

fn keep(t: OwnedToken) -> Outcome<OwnedToken> {
    Outcome::Keep(t)
}

fn run_modes(
    build: impl Fn(&Log) -> Registry<OwnedToken>,
    input: Vec<OwnedToken>,
) -> (Vec<String>, Vec<String>) {
    let mut results = Vec::new();
    for dispatch in [Dispatch::HandlerAtATime, Dispatch::TokenAtATime] {
        let log = Log::default();
        let config = PipelineConfig {
            dispatch,
            ..PipelineConfig::default()
        };
        let mut pipeline = Pipeline::new(build(&log), config);
        let (out, _) =
            block_on(pipeline.run(input.clone().into_iter().map(Ok), VecSink::default()))
                .expect("run");
        let out: Vec<String> = out.iter().map(show).collect();
        let log = log.borrow().clone();
        results.push((out, log));
    }
    assert_eq!(
        results[0].0, results[1].0,
        "outputs differ between dispatch modes"
    );
    let mut log = results.pop().unwrap().1;
    let out = results.pop().unwrap().0;
    log.sort();
    (out, log)
}

#[test]
fn keep_passes_the_token_to_the_next_handler() {
    let (out, log) = run_modes(
        |log| {
            let mut r = Registry::new();
            r.add(
                logging(log, "a", keep),
                rank(0.1),
                Match::Kind(TokenKind::Characters),
            )
            .unwrap();
            r.add(
                logging(log, "b", keep),
                rank(0.2),
                Match::Kind(TokenKind::Characters),
            )
            .unwrap();
            r
        },
        vec![OwnedToken::text("x")],
    );
    assert_eq!(out, ["'x'", "EOF"]);
    assert_eq!(log, ["a:'x'", "b:'x'"]);
}

#[test]
fn delete_hides_the_token_from_later_handlers() {
    let (out, log) = run_modes(
        |log| {
            let mut r = Registry::new();
            r.add(
                logging(log, "del", |_| Outcome::Delete),
                rank(0.1),
                Match::Kind(TokenKind::Comment),
            )
            .unwrap();
            r.add(logging(log, "any", keep), rank(2.9), Match::Any)
                .unwrap();
            r
        },
        vec![OwnedToken::comment("c"), OwnedToken::text("t")],
    );
    assert_eq!(out, ["'t'", "EOF"]);
    assert_eq!(log, ["any:'t'", "any:EOF", "del:!c"]);
}

#[test]
fn expand_sends_each_new_token_to_its_own_kind_at_later_ranks() {
    let (out, log) = run_modes(
        |log| {
            let mut r = Registry::new();
            r.add(
                logging(log, "text-early", keep),
                rank(0.1),
                Match::Kind(TokenKind::Characters),
            )
            .unwrap();
            r.add(
                logging(log, "expand", |_| {
                    Outcome::Expand(vec![OwnedToken::text("a"), OwnedToken::start("b")])
                }),
                rank(0.2),
                Match::Kind(TokenKind::Comment),
            )
            .unwrap();
            r.add(
                logging(log, "text-late", keep),
                rank(0.3),
                Match::Kind(TokenKind::Characters),
            )
            .unwrap();
            r.add(
                logging(log, "b", keep),
                rank(0.4),
                Match::tag(TokenKind::StartTag, "b"),
            )
            .unwrap();
            r
        },
        vec![OwnedToken::comment("c")],
    );
    assert_eq!(out, ["'a'", "<b>", "EOF"]);
    assert_eq!(log, ["b:<b>", "expand:!c", "text-late:'a'"]);
}

#[test]
fn modify_keeping_the_kind_goes_to_the_next_handler() {
    let (out, log) = run_modes(
        |log| {
            let mut r = Registry::new();
            r.add(
                logging(log, "upper", |t| match t {
                    OwnedToken::Characters(x) => {
                        Outcome::Keep(OwnedToken::text(x.text().to_uppercase()))
                    }
                    t => Outcome::Keep(t),
                }),
                rank(0.1),
                Match::Kind(TokenKind::Characters),
            )
            .unwrap();
            r.add(
                logging(log, "next", keep),
                rank(0.2),
                Match::Kind(TokenKind::Characters),
            )
            .unwrap();
            r
        },
        vec![OwnedToken::text("x")],
    );
    assert_eq!(out, ["'X'", "EOF"]);
    assert_eq!(log, ["next:'X'", "upper:'x'"]);
}

#[test]
fn modify_to_a_new_kind_goes_to_that_kind_at_later_ranks_only() {
    let (out, log) = run_modes(
        |log| {
            let mut r = Registry::new();
            r.add(
                logging(log, "text-early", keep),
                rank(0.4),
                Match::Kind(TokenKind::Characters),
            )
            .unwrap();
            r.add(
                logging(log, "to-text", |_| {
                    Outcome::Keep(OwnedToken::text("was comment"))
                }),
                rank(0.5),
                Match::Kind(TokenKind::Comment),
            )
            .unwrap();
            r.add(
                logging(log, "comment-late", keep),
                rank(0.6),
                Match::Kind(TokenKind::Comment),
            )
            .unwrap();
            r.add(
                logging(log, "text-late", keep),
                rank(0.6),
                Match::Kind(TokenKind::Characters),
            )
            .unwrap();
            r
        },
        vec![OwnedToken::comment("c")],
    );
    assert_eq!(out, ["'was comment'", "EOF"]);
    assert_eq!(log, ["text-late:'was comment'", "to-text:!c"]);
}

/// The rule for equal ranks across keys: tag name first, then kind, then any; lower
/// ranks first whatever the key.
#[test]
fn equal_ranks_run_specific_keys_first() {
    let log = Log::default();
    let mut r = Registry::new();
    let push = |name: &'static str| {
        let log = Rc::clone(&log);
        move |t: OwnedToken, _: &Ctx| {
            if !matches!(t, OwnedToken::Eof) {
                log.borrow_mut().push(name.to_owned());
            }
            Ok(Outcome::Keep(t))
        }
    };
    r.add(push("any@0.5"), rank(0.5), Match::Any).unwrap();
    r.add(
        push("kind@0.5"),
        rank(0.5),
        Match::Kind(TokenKind::StartTag),
    )
    .unwrap();
    r.add(
        push("tag@0.5"),
        rank(0.5),
        Match::tag(TokenKind::StartTag, "a"),
    )
    .unwrap();
    r.add(push("any@0.1"), rank(0.1), Match::Any).unwrap();
    r.add(
        push("tag@0.7"),
        rank(0.7),
        Match::tag(TokenKind::StartTag, "a"),
    )
    .unwrap();
    r.add(
        push("other-tag@0.2"),
        rank(0.2),
        Match::tag(TokenKind::StartTag, "b"),
    )
    .unwrap();
    let mut pipeline = Pipeline::new(r, PipelineConfig::default());
    block_on(pipeline.run([Ok(OwnedToken::start("a"))], VecSink::default())).unwrap();
    assert_eq!(
        *log.borrow(),
        ["any@0.1", "tag@0.5", "kind@0.5", "any@0.5", "tag@0.7"]
    );
}

#[test]
fn registry_refuses_duplicate_ranks_per_key_and_removes_by_handle() {
    let mut r = Registry::<OwnedToken>::new();
    let noop = |t, _: &Ctx| Ok(Outcome::Keep(t));
    let id = r
        .add(noop, rank(0.5), Match::Kind(TokenKind::Comment))
        .unwrap();
    assert!(matches!(
        r.add(noop, rank(0.5), Match::Kind(TokenKind::Comment)),
        Err(PipelineError::DuplicateRank(_))
    ));
    // Same rank, other key: fine.
    r.add(noop, rank(0.5), Match::Any).unwrap();
    r.add(noop, rank(0.5), Match::tag(TokenKind::StartTag, "p"))
        .unwrap();
    r.remove(id).unwrap();
    assert!(matches!(r.remove(id), Err(PipelineError::UnknownHandler)));
    r.add(noop, rank(0.5), Match::Kind(TokenKind::Comment))
        .unwrap();
    assert!(matches!(Rank::new(3.0), Err(PipelineError::BadRank(_))));
    assert!(matches!(
        r.add(noop, rank(1.5), Match::Any),
        Err(PipelineError::WrongPhase(_))
    ));
}

fn run_one(r: Registry<OwnedToken>, input: Vec<OwnedToken>) -> Result<Vec<String>, PipelineError> {
    let mut pipeline = Pipeline::new(r, PipelineConfig::default());
    let (out, _) = block_on(pipeline.run(input.into_iter().map(Ok), VecSink::default()))?;
    Ok(out.iter().map(show).collect())
}

#[test]
fn end_of_input_cannot_be_dropped_or_made() {
    let mut r = Registry::new();
    r.add(
        |_, _: &Ctx| Ok(Outcome::Delete),
        rank(0.5),
        Match::Kind(TokenKind::Eof),
    )
    .unwrap();
    assert!(matches!(run_one(r, vec![]), Err(PipelineError::EofLost)));

    let mut r = Registry::new();
    r.add(
        |_, _: &Ctx| Ok(Outcome::Keep(OwnedToken::text("x"))),
        rank(2.5),
        Match::Kind(TokenKind::Eof),
    )
    .unwrap();
    assert!(matches!(run_one(r, vec![]), Err(PipelineError::EofLost)));

    let mut r = Registry::new();
    r.add(
        |_, _: &Ctx| Ok(Outcome::Keep(OwnedToken::Eof)),
        rank(0.5),
        Match::Any,
    )
    .unwrap();
    assert!(matches!(
        run_one(r, vec![OwnedToken::text("x")]),
        Err(PipelineError::EofMade)
    ));

    // Expanding EOF into something ending with EOF is fine.
    let mut r = Registry::new();
    r.add(
        |t, _: &Ctx| Ok(Outcome::Expand(vec![OwnedToken::comment("end"), t])),
        rank(0.5),
        Match::Kind(TokenKind::Eof),
    )
    .unwrap();
    assert_eq!(run_one(r, vec![]).unwrap(), ["!end", "EOF"]);
}

#[test]
fn input_gets_one_end_and_nothing_after_it() {
    let out = run_one(
        Registry::new(),
        vec![
            OwnedToken::text("a"),
            OwnedToken::Eof,
            OwnedToken::text("ignored"),
        ],
    )
    .unwrap();
    assert_eq!(out, ["'a'", "EOF"]);
    assert_eq!(run_one(Registry::new(), vec![]).unwrap(), ["EOF"]);
}

#[test]
fn phases_run_in_rank_order_and_handlers_see_only_their_kinds() {
    let log = Log::default();
    let mut r = Registry::new();
    r.add(
        logging(&log, "global", keep),
        rank(2.0),
        Match::Kind(TokenKind::Characters),
    )
    .unwrap();
    r.add(
        logging(&log, "first", |_| Outcome::Keep(OwnedToken::text("1"))),
        rank(0.0),
        Match::Kind(TokenKind::Characters),
    )
    .unwrap();
    let out = run_one(r, vec![OwnedToken::comment("c"), OwnedToken::text("0")]).unwrap();
    assert_eq!(out, ["!c", "'1'", "EOF"]);
    assert_eq!(*log.borrow(), ["first:'0'", "global:'1'"]);
}

#[test]
fn a_failing_handler_fails_the_run() {
    let mut r = Registry::new();
    r.add(
        |_, _: &Ctx| Err(HandlerError::msg("no")),
        rank(2.5),
        Match::Kind(TokenKind::Comment),
    )
    .unwrap();
    let err = run_one(r, vec![OwnedToken::comment("c")]).unwrap_err();
    assert_eq!(err.to_string(), "handler failed: no");
}

/// A handler that doubles every text token, per token or (when `chunks`)
/// through `handle_chunk`, counting its chunk calls; `drop_eof`: it loses the
/// end of input.
struct Doubler {
    chunks: bool,
    drop_eof: bool,
    calls: Rc<RefCell<usize>>,
}

impl tagloom_transform::pipeline::Handler<OwnedToken> for Doubler {
    fn handle(&mut self, t: OwnedToken, _: &Ctx) -> Result<Outcome<OwnedToken>, HandlerError> {
        Ok(match t {
            OwnedToken::Eof if self.drop_eof => Outcome::Delete,
            OwnedToken::Characters(_) => Outcome::Expand(vec![t.clone(), t]),
            other => Outcome::Keep(other),
        })
    }

    fn takes_chunks(&self) -> bool {
        self.chunks
    }

    fn handle_chunk(
        &mut self,
        tokens: &mut Vec<OwnedToken>,
        ctx: &Ctx,
        out: &mut Vec<OwnedToken>,
    ) -> Result<(), HandlerError> {
        *self.calls.borrow_mut() += 1;
        for t in tokens.drain(..) {
            self.handle_into(t, ctx, out)?;
        }
        Ok(())
    }
}

#[test]
fn a_handler_taking_chunks_gives_what_it_gives_per_token() {
    let input = vec![
        OwnedToken::text("a"),
        OwnedToken::comment("c"),
        OwnedToken::text("b"),
    ];
    let run = |chunks: bool, drop_eof: bool, chunk_size: usize| {
        let calls = Rc::new(RefCell::new(0));
        let mut r = Registry::new();
        let doubler = Doubler {
            chunks,
            drop_eof,
            calls: Rc::clone(&calls),
        };
        r.add(doubler, rank(2.5), Match::Any).unwrap();
        let config = PipelineConfig {
            chunk_size,
            ..PipelineConfig::default()
        };
        let mut pipeline = Pipeline::new(r, config);
        let out = block_on(pipeline.run(input.clone().into_iter().map(Ok), VecSink::default()))
            .map(|(out, _)| out.iter().map(show).collect::<Vec<_>>());
        let calls = *calls.borrow();
        (out, calls)
    };
    let (per_token, calls) = run(false, false, 2);
    assert_eq!(calls, 0);
    for size in [1, 2, 64] {
        let (chunked, calls) = run(true, false, size);
        assert!(calls > 0);
        assert_eq!(chunked.as_ref().ok(), per_token.as_ref().ok());
    }
    assert_eq!(
        per_token.ok().unwrap_or_default(),
        ["'a'", "'a'", "!c", "'b'", "'b'", "EOF"]
    );
    // The end-of-input rule holds for the chunk as a whole.
    assert!(matches!(run(true, true, 64).0, Err(PipelineError::EofLost)));
}
