//! `tagloom rewrite IN --rules FILE [-o OUT]`: the streaming rewriter
//! (`tagloom_transform::rewrite`) driven by a rules file.
//!
//! Rules are a JSON list; each rule has a selector and actions run in order on
//! every element it matches:
//!
//! ```json
//! [
//!   { "select": "a[href^='http']", "actions": [ { "set_attr": ["rel", "nofollow"] } ] },
//!   { "select": "script, iframe", "actions": [ { "remove": true } ] },
//!   { "select": "font", "actions": [ { "unwrap": true } ] },
//!   { "select": "b", "actions": [ { "rename": "strong" } ] },
//!   { "select": "img:not([alt])", "actions": [ { "set_attr": ["alt", ""] } ] },
//!   { "select": "body", "actions": [ { "append": { "html": "<footer>x</footer>" } } ] }
//! ]
//! ```
//!
//! Actions: `set_attr` [name, value], `remove_attr` name, `remove` true, `unwrap`
//! true (remove the tags, keep the content), `rename` name, and `before`, `after`,
//! `prepend`, `append`, `replace`, `set_inner` with text (a string, escaped) or
//! `{"html": "…"}` (markup as is).
//!
//! IN and OUT may be `-` (standard input / output). The input is streamed in 64 KiB
//! pieces; an output file is written beside its destination and renamed into place
//! only when the rewrite succeeded (no partial output). A directory IN needs `-o
//! DIR`: every `.html`/`.htm` file below it is rewritten into the same place under
//! DIR, in parallel, with a progress bar on a terminal.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;
use tagloom_transform::rewrite::{ContentType, Element, Handlers, IoSink, Rewriter, Settings};

use crate::batch;
use crate::input::{DEFAULT_PIECE, open};

/// Options of `tagloom rewrite`.
#[derive(clap::Args)]
pub struct Args {
    /// The document (`-` for standard input), or a directory of them.
    input: PathBuf,
    /// The rules: a JSON list of `{"select": SELECTOR, "actions": [...]}`.
    #[arg(long)]
    rules: PathBuf,
    /// Where to write (`-`, the default, for standard output; a directory when IN is one).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// The largest tag, comment or DOCTYPE accepted, in bytes.
    #[arg(long, default_value_t = Settings::default().max_token_bytes)]
    max_token_bytes: usize,
}

/// One action of a rule.
#[derive(Debug)]
enum Action {
    SetAttr(String, String),
    RemoveAttr(String),
    Remove,
    Unwrap,
    Rename(String),
    Insert(Place, String, ContentType),
}

#[derive(Debug, Clone, Copy)]
enum Place {
    Before,
    After,
    Prepend,
    Append,
    Replace,
    SetInner,
}

#[derive(Debug)]
struct Rule {
    select: String,
    actions: Vec<Action>,
}

pub fn run(args: &Args) -> Result<()> {
    let rules = load_rules(&args.rules)?;
    let settings = Settings {
        max_token_bytes: args.max_token_bytes,
        ..Settings::default()
    };
    if args.input.is_dir() {
        if args.output.as_os_str() == "-" {
            bail!("a directory input needs -o DIR");
        }
        return batch::run_dir(&args.input, &args.output, false, |src, dest| {
            batch::write_to(Some(dest), |out| {
                rewrite_stream(src, out, &rules, &settings)
            })
        });
    }
    batch::write_to(Some(&args.output), |out| {
        rewrite_stream(&args.input, out, &rules, &settings)
    })
}

fn handlers<'r>(rules: &'r [Rule]) -> Result<Handlers<'r>> {
    let mut handlers = Handlers::new();
    for rule in rules {
        handlers
            .element(&rule.select, move |el| apply(el, &rule.actions))
            .with_context(|| format!("rule selector {:?}", rule.select))?;
    }
    Ok(handlers)
}

fn apply(
    el: &mut Element<'_, '_>,
    actions: &[Action],
) -> tagloom_transform::rewrite::HandlerResult {
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

/// Rewrites `input` (a file or `-`) into `out`.
fn rewrite_stream(
    input: &Path,
    out: &mut dyn Write,
    rules: &[Rule],
    settings: &Settings,
) -> Result<()> {
    let input = open(input)?;
    let mut rw = Rewriter::new(handlers(rules)?, settings.clone(), IoSink(out));
    input.stream(DEFAULT_PIECE, |piece| {
        rw.write(piece).context("rewrite")?;
        Ok(ControlFlow::Continue(()))
    })?;
    rw.end().context("rewrite")?;
    Ok(())
}

fn load_rules(path: &Path) -> Result<Vec<Rule>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read rules {}", path.display()))?;
    let value: Value = serde_json::from_str(&text)
        .with_context(|| format!("rules {}: not JSON", path.display()))?;
    let list = value
        .as_array()
        .with_context(|| format!("rules {}: expected a JSON list of rules", path.display()))?;
    let rules = list
        .iter()
        .enumerate()
        .map(|(i, rule)| {
            parse_rule(rule).with_context(|| format!("rules {}: rule {i}", path.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    // Parse every selector now, so a bad one fails before any output.
    handlers(&rules).with_context(|| format!("rules {}", path.display()))?;
    Ok(rules)
}

fn parse_rule(rule: &Value) -> Result<Rule> {
    let select = rule
        .get("select")
        .and_then(Value::as_str)
        .context("\"select\" must be a selector string")?
        .to_owned();
    let actions = rule
        .get("actions")
        .and_then(Value::as_array)
        .context("\"actions\" must be a list")?
        .iter()
        .enumerate()
        .map(|(i, a)| parse_action(a).with_context(|| format!("action {i}")))
        .collect::<Result<Vec<_>>>()?;
    Ok(Rule { select, actions })
}

fn parse_action(action: &Value) -> Result<Action> {
    let obj = action.as_object().context("an action is an object")?;
    let mut it = obj.iter();
    let (Some((key, arg)), None) = (it.next(), it.next()) else {
        bail!("an action has exactly one key");
    };
    let string = |v: &Value| -> Result<String> {
        v.as_str()
            .map(str::to_owned)
            .with_context(|| format!("{key:?} takes a string"))
    };
    let flag = |v: &Value| -> Result<()> {
        match v.as_bool() {
            Some(true) => Ok(()),
            _ => bail!("{key:?} takes true"),
        }
    };
    let content = |v: &Value| -> Result<(String, ContentType)> {
        match v {
            Value::String(s) => Ok((s.clone(), ContentType::Text)),
            Value::Object(o) => match o.get("html").and_then(Value::as_str) {
                Some(h) if o.len() == 1 => Ok((h.to_owned(), ContentType::Html)),
                _ => bail!("{key:?} takes a string (text) or {{\"html\": string}}"),
            },
            _ => bail!("{key:?} takes a string (text) or {{\"html\": string}}"),
        }
    };
    let insert = |place: Place| -> Result<Action> {
        let (c, kind) = content(arg)?;
        Ok(Action::Insert(place, c, kind))
    };
    Ok(match key.as_str() {
        "set_attr" => match arg.as_array().map(Vec::as_slice) {
            Some([name, value]) => Action::SetAttr(string(name)?, string(value)?),
            _ => bail!("\"set_attr\" takes [name, value]"),
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
        other => bail!(
            "unknown action {other:?} (set_attr, remove_attr, remove, unwrap, rename, before, after, prepend, append, replace, set_inner)"
        ),
    })
}
