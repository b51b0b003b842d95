//! The DOM surface scripts see while the document is parsed: a `document`
//! global (`window` and `self` are the global object) and element objects over the [`DomStore`]. Element objects hold only
//! the element's key: each lookup makes a new object (no identity), which
//! parsing-time scripts do not notice.

use boa_engine::object::builtins::JsArray;
use boa_engine::object::{FunctionObjectBuilder, ObjectInitializer};
use boa_engine::property::Attribute;
use boa_engine::{
    Context, Finalize, JsData, JsError, JsNativeError, JsObject, JsResult, JsValue, NativeFunction,
    Trace, js_string,
};
use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::dom_patch::{AttrNamespace, Namespace, PatchKey};
use tagloom_html::session::{ScriptHostError, WriteStatus};
use tagloom_html::tree_builder::DomChange;

use crate::ScriptError;
use crate::runner::{SharedRef, run_running_script};

/// The native data of an element object.
#[derive(Trace, Finalize, JsData)]
struct ElementRef {
    #[unsafe_ignore_trace]
    key: PatchKey,
}

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

fn this_element(this: &JsValue) -> Option<PatchKey> {
    this.as_object()
        .and_then(|o| o.downcast_ref::<ElementRef>().map(|e| e.key))
}

fn this_key(this: &JsValue) -> JsResult<PatchKey> {
    this_element(this).ok_or_else(|| JsNativeError::typ().with_message("not an element").into())
}

/// Reads the element `key` in the store.
fn with_element<R>(
    this: &JsValue,
    context: &Context,
    f: impl FnOnce(&DomStore, NodeRef<'_>) -> R,
) -> JsResult<R> {
    let key = this_key(this)?;
    let shared = shared(context)?;
    let s = shared.borrow();
    match s.store.get(key) {
        Some(node) => Ok(f(&s.store, node)),
        None => Err(js_error("the element is gone")),
    }
}

/// An element object for `key`.
fn element_object(key: PatchKey, context: &mut Context) -> JsResult<JsObject> {
    let methods: [(&str, Native, usize); 5] = [
        ("getAttribute", get_attribute, 1),
        ("setAttribute", set_attribute, 2),
        ("removeAttribute", remove_attribute, 1),
        ("hasAttribute", has_attribute, 1),
        ("getElementsByTagName", get_elements_by_tag_name, 1),
    ];
    let accessors: [(&str, Native, Option<Native>); 6] = [
        ("id", get_id, Some(set_id)),
        ("tagName", get_tag_name, None),
        ("nodeName", get_tag_name, None),
        ("localName", get_local_name, None),
        ("parentNode", get_parent, None),
        ("textContent", get_text_content, None),
    ];
    let functions: Vec<_> = accessors
        .iter()
        .map(|&(name, get, set)| {
            let build = |f: Native| {
                FunctionObjectBuilder::new(context.realm(), NativeFunction::from_fn_ptr(f)).build()
            };
            (name, build(get), set.map(build))
        })
        .collect();
    let mut object = ObjectInitializer::with_native_data(ElementRef { key }, context);
    for (name, f, length) in methods {
        object.function(NativeFunction::from_fn_ptr(f), js_string!(name), length);
    }
    for (name, get, set) in functions {
        object.accessor(
            js_string!(name),
            Some(get),
            set,
            Attribute::CONFIGURABLE | Attribute::ENUMERABLE,
        );
    }
    Ok(object.build())
}

fn get_id(this: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let id = with_element(this, context, |_, n| {
        n.as_element()
            .and_then(|e| e.attr("id"))
            .unwrap_or("")
            .to_owned()
    })?;
    Ok(js_string!(id).into())
}

fn set_id(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let value = arg_string(args, 0, context)?;
    change_attribute(this, "id", Some(&value), context)
}

fn get_tag_name(this: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = with_element(this, context, |_, n| match n.as_element() {
        Some(e) if e.ns() == Namespace::Html => e.local_name().to_ascii_uppercase(),
        Some(e) => e.local_name().to_owned(),
        None => String::new(),
    })?;
    Ok(js_string!(name).into())
}

fn get_local_name(this: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = with_element(this, context, |_, n| {
        n.as_element()
            .map(|e| e.local_name().to_owned())
            .unwrap_or_default()
    })?;
    Ok(js_string!(name).into())
}

fn get_parent(this: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let parent = with_element(this, context, |_, n| {
        n.parent()
            .filter(|p| p.as_element().is_some())
            .map(|p| p.key())
    })?;
    Ok(match parent {
        Some(key) => element_object(key, context)?.into(),
        None => JsValue::null(),
    })
}

fn get_text_content(this: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let text = with_element(this, context, |_, n| {
        let mut text = String::new();
        let mut stack = vec![n];
        while let Some(node) = stack.pop() {
            match node.kind() {
                NodeKind::Text(t) => text.push_str(t),
                NodeKind::Element(_) => {
                    let at = stack.len();
                    stack.extend(node.children());
                    stack.get_mut(at..).map(<[_]>::reverse);
                }
                _ => {}
            }
        }
        text
    })?;
    Ok(js_string!(text).into())
}

/// The attribute name a DOM method means: lowercased on HTML elements.
fn attribute_name(this: &JsValue, name: String, context: &Context) -> JsResult<String> {
    let html = with_element(this, context, |_, n| {
        n.as_element().is_some_and(|e| e.ns() == Namespace::Html)
    })?;
    Ok(if html {
        name.to_ascii_lowercase()
    } else {
        name
    })
}

fn get_attribute(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = attribute_name(this, arg_string(args, 0, context)?, context)?;
    let value = with_element(this, context, |_, n| {
        n.as_element()
            .and_then(|e| e.attr(&name))
            .map(str::to_owned)
    })?;
    Ok(value.map_or_else(JsValue::null, |v| js_string!(v).into()))
}

fn has_attribute(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = attribute_name(this, arg_string(args, 0, context)?, context)?;
    let has = with_element(this, context, |_, n| {
        n.as_element().and_then(|e| e.attr(&name)).is_some()
    })?;
    Ok(has.into())
}

fn set_attribute(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = attribute_name(this, arg_string(args, 0, context)?, context)?;
    if name.is_empty() || name.contains(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>') {
        return Err(js_error(format!("InvalidCharacterError: {name:?}")));
    }
    let value = arg_string(args, 1, context)?;
    change_attribute(this, &name, Some(&value), context)
}

fn remove_attribute(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let name = attribute_name(this, arg_string(args, 0, context)?, context)?;
    change_attribute(this, &name, None, context)
}

/// Changes the attribute in the store and tells the tree builder.
fn change_attribute(
    this: &JsValue,
    name: &str,
    value: Option<&str>,
    context: &mut Context,
) -> JsResult<JsValue> {
    let key = this_key(this)?;
    let shared = shared(context)?;
    let mut s = shared.borrow_mut();
    s.store
        .set_attribute(key, AttrNamespace::None, name, value)
        .map_err(js_error)?;
    let change = DomChange::Attribute {
        element: key,
        ns: AttrNamespace::None,
        name,
        value,
    };
    match s.session.dom_changed(change) {
        // After end of file, or an element of an earlier parse: nothing to track.
        Ok(()) | Err(ScriptHostError::UnknownElement(_)) => Ok(JsValue::undefined()),
        Err(err) => Err(js_error(err)),
    }
}
