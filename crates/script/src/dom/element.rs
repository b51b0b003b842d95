//! Element objects: what a script gets from `getElementById` and the like.
//! An object holds only the element's key and reads the [`DomStore`] on each
//! access; attribute changes go to the store and are reported to the tree
//! builder.

use boa_engine::object::{FunctionObjectBuilder, ObjectInitializer};
use boa_engine::property::Attribute;
use boa_engine::{
    Context, Finalize, JsData, JsNativeError, JsObject, JsResult, JsValue, NativeFunction, Trace,
    js_string,
};
use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::dom_patch::{AttrNamespace, Namespace, PatchKey};
use tagloom_html::session::ScriptHostError;
use tagloom_html::tree_builder::DomChange;

use super::{Native, arg_string, get_elements_by_tag_name, js_error, shared};

/// The native data of an element object.
#[derive(Trace, Finalize, JsData)]
struct ElementRef {
    #[unsafe_ignore_trace]
    key: PatchKey,
}

pub(super) fn this_element(this: &JsValue) -> Option<PatchKey> {
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
pub(super) fn element_object(key: PatchKey, context: &mut Context) -> JsResult<JsObject> {
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
