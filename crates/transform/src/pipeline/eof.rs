//! The end-of-input rules of a run, in one place: what a run's input is cut
//! to, and what output of a handler given the end of input must look like.
//! [`Pipeline::run_vec`](super::Pipeline::run_vec) and the dispatch apply
//! them; a caller that drives one chunk-taking handler itself (many short
//! inputs through the same stages, no run set up per input) applies the
//! same two.

use super::{PipelineError, PipelineToken};

/// Ends `tokens` as a run's input: cut after its first end of input, or
/// given one at the end.
///
/// ```
/// use tagloom_html::token::OwnedToken;
/// use tagloom_transform::pipeline::end_input;
///
/// let mut tokens = vec![OwnedToken::text("a"), OwnedToken::Eof, OwnedToken::text("b")];
/// end_input(&mut tokens);
/// assert_eq!(tokens, [OwnedToken::text("a"), OwnedToken::Eof]);
/// let mut none = vec![OwnedToken::text("a")];
/// end_input(&mut none);
/// assert_eq!(none, [OwnedToken::text("a"), OwnedToken::Eof]);
/// ```
pub fn end_input<T: PipelineToken>(tokens: &mut Vec<T>) {
    match tokens.iter().position(T::is_eof) {
        Some(at) => tokens.truncate(at + 1),
        None => tokens.push(T::eof()),
    }
}

/// Checks what a handler gave for input that held the end of input: it
/// must hold exactly one, last ([`PipelineError::EofLost`] otherwise).
///
/// ```
/// use tagloom_html::token::OwnedToken;
/// use tagloom_transform::pipeline::{PipelineError, check_ended};
///
/// assert!(check_ended(&[OwnedToken::text("a"), OwnedToken::Eof]).is_ok());
/// assert!(matches!(check_ended(&[OwnedToken::text("a")]), Err(PipelineError::EofLost)));
/// assert!(check_ended(&[OwnedToken::Eof, OwnedToken::Eof]).is_err());
/// ```
pub fn check_ended<T: PipelineToken>(out: &[T]) -> Result<(), PipelineError> {
    let eofs = out.iter().filter(|t| t.is_eof()).count();
    if eofs == 1 && out.last().is_some_and(T::is_eof) {
        Ok(())
    } else {
        Err(PipelineError::EofLost)
    }
}
