//! [`SourceText`]: where a byte-preserving serializer finds a token's original
//! text.

use crate::span::Span;

/// The text a token was read from, by its [`Span`] (offsets into the decoded
/// input, counted from its first byte; for UTF-8 input without invalid sequences
/// these are the source bytes themselves).
///
/// Implemented for a whole document held as `str`/`String`; a streaming consumer
/// implements it over the window of input it still holds, answering `None` for
/// text it has released (the token is then written from its fields).
///
/// ```
/// use tagloom_html::serializer::SourceText;
/// use tagloom_html::span::Span;
///
/// let doc = "<p class=x>hi";
/// assert_eq!(doc.source_text(Span::new(0, 11)), Some("<p class=x>"));
/// assert_eq!(doc.source_text(Span::new(11, 99)), None);
/// ```
pub trait SourceText {
    /// The source text of `span`, if this source holds all of it.
    fn source_text(&self, span: Span) -> Option<&str>;
}

impl SourceText for str {
    fn source_text(&self, span: Span) -> Option<&str> {
        self.get(span.start..span.end)
    }
}

impl SourceText for String {
    fn source_text(&self, span: Span) -> Option<&str> {
        self.as_str().source_text(span)
    }
}
