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

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TagloomError", py.get_type::<TagloomError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("EncodingError", py.get_type::<EncodingError>())?;
    Ok(())
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
