//! The preprocessor: template (`{{…}}`), template-argument (`{{{…}}}`) and parser
//! function expansion with frames, and the page store templates come from.
