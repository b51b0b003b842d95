//! Rewrite rules as data: a JSON list of `{"select": SELECTOR, "actions": [...]}`
//! turned into [`Handlers`]. The one reader of the rules format, for `tagloom
//! rewrite --rules` and the Python package's `tagloom.rewrite`.
//!
//! ```
//! use tagloom_transform::rewrite::{Rules, Settings, rewrite_str};
//!
//! let rules = Rules::from_json(r#"[
//!   {"select": "a[href^='http']", "actions": [{"set_attr": ["rel", "nofollow"]}]},
//!   {"select": "script", "actions": [{"remove": true}]},
//!   {"select": "b", "actions": [{"rename": "strong"}]}
//! ]"#)?;
//! let out = rewrite_str("<a href=http://x>x</a><script>s</script><b>b</b>", rules.handlers()?, Settings::default())?;
//! assert_eq!(out, r#"<a href=http://x rel="nofollow">x</a><strong>b</strong>"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Actions: `set_attr` [name, value], `remove_attr` name, `remove` true, `unwrap`
//! true (remove the tags, keep the content), `rename` name, and `before`, `after`,
//! `prepend`, `append`, `replace`, `set_inner` with text (a string, escaped) or
//! `{"html": "…"}` (markup as is).

use serde_json::Value;

use super::{ContentType, Element, HandlerResult, Handlers, SelectorError};

/// Why rules could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// The text is not JSON.
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The JSON is not a list.
    #[error("expected a JSON list of rules")]
    NotAList,
    /// A rule is not of the rules' shape.
    #[error("rule {index}: {message}")]
    Rule {
        /// The rule's index in the list.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// A rule's selector does not parse (or is outside the streaming subset).
    #[error("rule selector {selector:?}: {source}")]
    Selector {
        /// The selector.
        selector: String,
        /// Why.
        source: SelectorError,
    },
}

/// One action of a rule.
#[derive(Clone, Debug)]
enum Action {
    SetAttr(String, String),
    RemoveAttr(String),
    Remove,
    Unwrap,
    Rename(String),
    Insert(Place, String, ContentType),
}

#[derive(Clone, Copy, Debug)]
enum Place {
    Before,
    After,
    Prepend,
    Append,
    Replace,
    SetInner,
}

#[derive(Clone, Debug)]
struct Rule {
    select: String,
    actions: Vec<Action>,
}

/// A list of rules, read and checked (every selector parses).
#[derive(Clone, Debug)]
pub struct Rules {
    rules: Vec<Rule>,
}

impl Rules {
    /// Rules from JSON text.
    pub fn from_json(text: &str) -> Result<Rules, RulesError> {
        Rules::from_value(&serde_json::from_str(text)?)
    }

    /// Rules from a parsed JSON value (a list).
    pub fn from_value(value: &Value) -> Result<Rules, RulesError> {
        let list = value.as_array().ok_or(RulesError::NotAList)?;
        let rules = list
            .iter()
            .enumerate()
            .map(|(index, rule)| {
                parse_rule(rule).map_err(|message| RulesError::Rule { index, message })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let rules = Rules { rules };
        // Parse every selector now, so a bad one fails before any output.
        rules.handlers()?;
        Ok(rules)
    }

    /// The rewriter's handlers running these rules.
    pub fn handlers(&self) -> Result<Handlers<'_>, RulesError> {
        let mut handlers = Handlers::new();
        for rule in &self.rules {
            handlers
                .element(&rule.select, move |el| apply(el, &rule.actions))
                .map_err(|source| RulesError::Selector {
                    selector: rule.select.clone(),
                    source,
                })?;
        }
        Ok(handlers)
    }
}

fn apply(el: &mut Element<'_, '_>, actions: &[Action]) -> HandlerResult {
    for action in actions {
        match action {
            Action::SetAttr(name, value) => el.set_attribute(name, value)?,
            Action::RemoveAttr(name) => el.remove_attribute(name),
            Action::Remove => el.remove(),
            Action::Unwrap => el.remove_and_keep_content(),
            Action::Rename(name) => el.set_tag_name(name)?,
            Action::Insert(place, content, kind) => match place {
                Place::Before => el.before(content, *kind),
                Place::After => el.after(content, *kind),
                Place::Prepend => el.prepend(content, *kind),
                Place::Append => el.append(content, *kind),
                Place::Replace => el.replace(content, *kind),
                Place::SetInner => el.set_inner_content(content, *kind),
            },
        }
    }
    Ok(())
}

fn parse_rule(rule: &Value) -> Result<Rule, String> {
    let select = rule
        .get("select")
        .and_then(Value::as_str)
        .ok_or("\"select\" must be a selector string")?
        .to_owned();
    let actions = rule
        .get("actions")
        .and_then(Value::as_array)
        .ok_or("\"actions\" must be a list")?
        .iter()
        .enumerate()
        .map(|(i, a)| parse_action(a).map_err(|e| format!("action {i}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Rule { select, actions })
}

fn parse_action(action: &Value) -> Result<Action, String> {
    let obj = action.as_object().ok_or("an action is an object")?;
    let mut it = obj.iter();
    let (Some((key, arg)), None) = (it.next(), it.next()) else {
        return Err("an action has exactly one key".into());
    };
    let string = |v: &Value| -> Result<String, String> {
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{key:?} takes a string"))
    };
    let flag = |v: &Value| -> Result<(), String> {
        match v.as_bool() {
            Some(true) => Ok(()),
            _ => Err(format!("{key:?} takes true")),
        }
    };
    let insert = |place: Place| -> Result<Action, String> {
        let bad = || format!("{key:?} takes a string (text) or {{\"html\": string}}");
        let (content, kind) = match arg {
            Value::String(s) => (s.clone(), ContentType::Text),
            Value::Object(o) => match o.get("html").and_then(Value::as_str) {
                Some(h) if o.len() == 1 => (h.to_owned(), ContentType::Html),
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        };
        Ok(Action::Insert(place, content, kind))
    };
    Ok(match key.as_str() {
        "set_attr" => match arg.as_array().map(Vec::as_slice) {
            Some([name, value]) => Action::SetAttr(string(name)?, string(value)?),
            _ => return Err("\"set_attr\" takes [name, value]".into()),
        },
        "remove_attr" => Action::RemoveAttr(string(arg)?),
        "remove" => {
            flag(arg)?;
            Action::Remove
        }
        "unwrap" => {
            flag(arg)?;
            Action::Unwrap
        }
        "rename" => Action::Rename(string(arg)?),
        "before" => insert(Place::Before)?,
        "after" => insert(Place::After)?,
        "prepend" => insert(Place::Prepend)?,
        "append" => insert(Place::Append)?,
        "replace" => insert(Place::Replace)?,
        "set_inner" => insert(Place::SetInner)?,
        other => {
            return Err(format!(
                "unknown action {other:?} (set_attr, remove_attr, remove, unwrap, rename, before, after, prepend, append, replace, set_inner)"
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_which_rule() {
        let err = Rules::from_json(r#"[{"select": "p", "actions": []}, {"select": 1}]"#);
        assert!(matches!(err, Err(RulesError::Rule { index: 1, .. })));
        let err = Rules::from_json(r#"[{"select": "p", "actions": [{"explode": true}]}]"#);
        assert!(err.unwrap_err().to_string().contains("unknown action"));
        let err = Rules::from_json(r#"[{"select": "h1 + p", "actions": []}]"#);
        assert!(matches!(err, Err(RulesError::Selector { .. })));
        assert!(matches!(Rules::from_json("{}"), Err(RulesError::NotAList)));
        assert!(matches!(Rules::from_json("["), Err(RulesError::Json(_))));
    }
}
