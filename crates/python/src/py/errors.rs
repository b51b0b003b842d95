//! The exception hierarchy: `TagloomError` and one subclass per failing area,
//! each carrying the Rust error's message.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    tagloom,
    TagloomError,
    PyException,
    "Every error tagloom raises."
);
create_exception!(
    tagloom,
    ParseError,
    TagloomError,
    "A parse stopped: an engine limit or failure (malformed markup never raises)."
);
create_exception!(
    tagloom,
    EncodingError,
    TagloomError,
    "An encoding label the WHATWG Encoding Standard does not know."
);

create_exception!(
    tagloom,
    TokenizerError,
    TagloomError,
    "The tokenizer stopped: a token over its size limit."
);
create_exception!(
    tagloom,
    PolicyError,
    TagloomError,
    "A sanitizer policy that is not JSON of the policy's shape, or out of range."
);
create_exception!(
    tagloom,
    RewriteError,
    TagloomError,
    "Bad rewrite rules (a selector, an action), or a rewrite that failed."
);
create_exception!(
    tagloom,
    L10nError,
    TagloomError,
    "An extraction, merge or pseudo-translation that failed."
);
create_exception!(
    tagloom,
    WikitextError,
    TagloomError,
    "A page the wikitext renderer refused."
);

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TagloomError", py.get_type::<TagloomError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("EncodingError", py.get_type::<EncodingError>())?;
    m.add("TokenizerError", py.get_type::<TokenizerError>())?;
    m.add("PolicyError", py.get_type::<PolicyError>())?;
    m.add("RewriteError", py.get_type::<RewriteError>())?;
    m.add("L10nError", py.get_type::<L10nError>())?;
    m.add("WikitextError", py.get_type::<WikitextError>())?;
    Ok(())
}

impl From<crate::pool::TaskPanicked> for PyErr {
    fn from(err: crate::pool::TaskPanicked) -> PyErr {
        TagloomError::new_err(err.to_string())
    }
}

impl From<crate::parse::ParseError> for PyErr {
    fn from(err: crate::parse::ParseError) -> PyErr {
        use crate::parse::ParseError as E;
        match err {
            E::Encoding(_) => EncodingError::new_err(err.to_string()),
            E::Context(_) => pyo3::exceptions::PyValueError::new_err(err.to_string()),
            E::Engine(_) => ParseError::new_err(err.to_string()),
        }
    }
}
