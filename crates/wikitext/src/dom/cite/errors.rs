//! Cite's errors as Parsoid writes them: `{"key":…,"params":[…]}` in a
//! `data-mw`'s `errors`, and a visible `<span class="error mw-ext-cite-error"
//! typeof="mw:I18n">` whose `data-mw-i18n` names the message.

use super::super::{Element, Node};

/// One error: the message key and its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CiteError {
    pub(crate) key: &'static str,
    pub(crate) params: Vec<String>,
}

impl CiteError {
    pub(crate) fn new(key: &'static str) -> CiteError {
        CiteError {
            key,
            params: Vec::new(),
        }
    }

    pub(crate) fn with(key: &'static str, params: &[&str]) -> CiteError {
        CiteError {
            key,
            params: params.iter().map(|p| (*p).to_owned()).collect(),
        }
    }

    /// The `data-mw` form (no `params` when there are none).
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        m.insert("key".into(), self.key.into());
        if !self.params.is_empty() {
            m.insert("params".into(), self.params.clone().into());
        }
        serde_json::Value::Object(m)
    }
}

/// `"errors":[…]` as JSON text.
pub(crate) fn errors_json(errors: &[CiteError]) -> String {
    serde_json::Value::Array(errors.iter().map(CiteError::to_json).collect()).to_string()
}

/// The visible error span.
pub(crate) fn error_span(error: &CiteError) -> Node {
    let params: Vec<serde_json::Value> = error
        .params
        .iter()
        .map(|p| serde_json::Value::String(p.clone()))
        .collect();
    let i18n = format!(
        "{{\"/\":{{\"lang\":\"x-user\",\"key\":\"cite_error\",\"params\":[{{\"text\":{{\"key\":{},\"params\":{}}}}}]}}}}",
        serde_json::Value::String(error.key.to_owned()),
        serde_json::Value::Array(params)
    );
    let mut span = Element::new("span");
    span.attrs = vec![
        ("class".into(), "error mw-ext-cite-error".into()),
        ("typeof".into(), "mw:I18n".into()),
        ("data-mw-i18n".into(), i18n.into()),
    ];
    Node::Element(span)
}
