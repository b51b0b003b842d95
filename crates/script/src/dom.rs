//! The DOM surface scripts see while the document is parsed: a `document`
//! global (`window` and `self` are the global object; `write`, `writeln`,
//! `getElementById`, `getElementsByTagName`) here, and element objects over
//! the `DomStore` in [`element`]. Element objects hold only the element's key:
//! each lookup makes a new object (no identity), which parsing-time scripts do
//! not notice.

use boa_engine::object::ObjectInitializer;
use boa_engine::object::builtins::JsArray;
use boa_engine::property::Attribute;
use boa_engine::{Context, JsError, JsNativeError, JsResult, JsValue, NativeFunction, js_string};
use tagloom_html::dom::{NodeKind, NodeRef};
use tagloom_html::dom_patch::{Namespace, PatchKey};
use tagloom_html::session::{ScriptHostError, WriteStatus};

use crate::ScriptError;
use crate::runner::{SharedRef, run_running_script};

mod element;

use element::{element_object, this_element};

/// The signature of a native function or accessor.
type Native = fn(&JsValue, &[JsValue], &mut Context) -> JsResult<JsValue>;

/// Defines the `document` global.
pub(crate) fn install(context: &mut Context) -> JsResult<()> {
    let methods: [(&str, Native, usize); 4] = [
        ("write", write, 1),
        ("writeln", writeln, 1),
        ("getElementById", get_element_by_id, 1),
        ("getElementsByTagName", get_elements_by_tag_name, 1),
    ];
    let mut document = ObjectInitializer::new(context);
    for (name, f, length) in methods {
        document.function(NativeFunction::from_fn_ptr(f), js_string!(name), length);
    }
    let document = document.build();
    context.register_global_property(js_string!("document"), document, Attribute::all())?;
    // `window` and `self` are the global object, as in a browser.
    let global = context.global_object();
    for name in ["window", "self"] {
        context.register_global_property(js_string!(name), global.clone(), Attribute::all())?;
    }
    Ok(())
}

fn shared(context: &Context) -> JsResult<SharedRef> {
    context
        .get_data::<SharedRef>()
        .cloned()
        .ok_or_else(|| JsNativeError::error().with_message("no document").into())
}

fn js_error(message: impl std::fmt::Display) -> JsError {
    JsNativeError::error()
        .with_message(message.to_string())
        .into()
}

/// Records a failure that stops the parse and throws to unwind the scripts.
fn fatal(shared: &SharedRef, err: ScriptError) -> JsError {
    let message = err.to_string();
    shared.borrow_mut().fatal = Some(err);
    js_error(message)
}

fn arg_string(args: &[JsValue], i: usize, context: &mut Context) -> JsResult<String> {
    let value = args.get(i).cloned().unwrap_or_default();
    Ok(value.to_string(context)?.to_std_string_escaped())
}

fn write(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    document_write(args, false, context)
}

fn writeln(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    document_write(args, true, context)
}

/// `document.write(...text)` / `writeln`: the session parses the text at the
/// insertion point; each script it closes runs here, one level deeper.
fn document_write(args: &[JsValue], newline: bool, context: &mut Context) -> JsResult<JsValue> {
    let mut text = String::new();
    for i in 0..args.len() {
        text.push_str(&arg_string(args, i, context)?);
    }
    if newline {
        text.push('\n');
    }
    let shared = shared(context)?;
    let mut status = step(&shared, |s| s.session.document_write(&text))?;
    loop {
        match status {
            WriteStatus::Done | WriteStatus::Ignored => return Ok(JsValue::undefined()),
            WriteStatus::Restarted => {
                shared.borrow_mut().restarted = true;
                return Err(js_error(
                    "the parse restarted with the encoding a <meta> declared",
                ));
            }
            WriteStatus::Script => {
                run_running_script(&shared, context);
                if shared.borrow().unwinding() {
                    return Err(js_error("the parse stopped"));
                }
                step(&shared, |s| s.session.end_script())?;
                status = step(&shared, |s| s.session.resume_write())?;
            }
        }
    }
}

/// One script-host call, then the batches it made go to the store. Misuse and
/// limits throw; a failure of the parse itself is fatal.
fn step<T>(
    shared: &SharedRef,
    call: impl FnOnce(&mut crate::runner::Shared) -> Result<T, ScriptHostError>,
) -> JsResult<T> {
    let result = call(&mut shared.borrow_mut());
    let applied = shared.borrow_mut().apply_batches();
    if let Err(err) = applied {
        return Err(fatal(shared, err));
    }
    match result {
        Ok(value) => Ok(value),
        Err(ScriptHostError::Session(err)) => Err(fatal(shared, err.into())),
        Err(err) => Err(js_error(err)),
    }
}

/// The elements under `root` in tree order (not `root`, not template contents).
fn descendants(root: NodeRef<'_>, mut keep: impl FnMut(NodeRef<'_>) -> bool) -> Vec<PatchKey> {
    let mut found = Vec::new();
    let mut stack: Vec<NodeRef<'_>> = root.children().collect();
    stack.reverse();
    while let Some(node) = stack.pop() {
        if let NodeKind::Element(_) = node.kind() {
            if keep(node) {
                found.push(node.key());
            }
            let at = stack.len();
            stack.extend(node.children());
            stack.get_mut(at..).map(<[_]>::reverse);
        }
    }
    found
}

fn get_element_by_id(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let id = arg_string(args, 0, context)?;
    let shared = shared(context)?;
    let found = {
        let s = shared.borrow();
        s.store.document().and_then(|doc| {
            descendants(doc, |n| {
                n.as_element().and_then(|e| e.attr("id")) == Some(id.as_str())
            })
            .first()
            .copied()
        })
    };
    Ok(match found {
        Some(key) => element_object(key, context)?.into(),
        None => JsValue::null(),
    })
}

fn get_elements_by_tag_name(
    this: &JsValue,
    args: &[JsValue],
    context: &mut Context,
) -> JsResult<JsValue> {
    let name = arg_string(args, 0, context)?;
    let lower = name.to_ascii_lowercase();
    let shared = shared(context)?;
    let keys = {
        let s = shared.borrow();
        let root = match this_element(this) {
            Some(key) => s.store.get(key),
            None => s.store.document(),
        };
        root.map(|root| {
            descendants(root, |n| match n.as_element() {
                Some(_) if name == "*" => true,
                Some(e) if e.ns() == Namespace::Html => e.local_name() == lower,
                Some(e) => e.local_name() == name,
                None => false,
            })
        })
        .unwrap_or_default()
    };
    let mut elements = Vec::with_capacity(keys.len());
    for key in keys {
        elements.push(JsValue::from(element_object(key, context)?));
    }
    Ok(JsArray::from_iter(elements, context).into())
}
