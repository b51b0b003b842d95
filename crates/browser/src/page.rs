//! One page (a DevTools target attached in flat mode) and the few commands the
//! tests need: load content, evaluate, screenshot.

use serde_json::{Value, json};

use crate::base64;
use crate::browser::Browser;
use crate::error::BrowserError;

/// A page of a [`Browser`]: a target created by `Target.createTarget` and
/// attached with `flatten`, so that its commands carry a `sessionId`. Closed on
/// drop.
#[derive(Debug)]
pub struct Page<'b> {
    browser: &'b mut Browser,
    target: String,
    session: String,
}

impl Browser {
    /// Opens a new `about:blank` page with the `Page` domain enabled.
    pub fn new_page(&mut self) -> Result<Page<'_>, BrowserError> {
        let created = self.call("Target.createTarget", json!({ "url": "about:blank" }), None)?;
        let target = string_field(&created, "targetId", "Target.createTarget")?;
        let attached = self.call(
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
            None,
        )?;
        let session = string_field(&attached, "sessionId", "Target.attachToTarget")?;
        let mut page = Page {
            browser: self,
            target,
            session,
        };
        page.call("Page.enable", json!({}))?;
        Ok(page)
    }
}

impl Page<'_> {
    /// Sends a command to this page's session and returns its `result`.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, BrowserError> {
        self.browser.call(method, params, Some(&self.session))
    }

    /// Waits for this page's next event named `method`.
    pub fn wait_event(&mut self, method: &str) -> Result<Value, BrowserError> {
        self.browser.wait_event(method, Some(&self.session))
    }

    /// Navigates to `url` (`data:`, `file:`, `about:blank`) and waits for its
    /// load event.
    pub fn navigate(&mut self, url: &str) -> Result<(), BrowserError> {
        self.browser.clear_events();
        let answer = self.call("Page.navigate", json!({ "url": url }))?;
        if let Some(error) = answer.get("errorText").and_then(Value::as_str) {
            return Err(BrowserError::Protocol {
                method: "Page.navigate".into(),
                code: 0,
                message: error.to_owned(),
            });
        }
        self.wait_event("Page.loadEventFired")?;
        Ok(())
    }

    /// Replaces the page's document with `html` (`Page.setDocumentContent`: parsed
    /// as the main frame's document, scripts run).
    pub fn set_content(&mut self, html: &str) -> Result<(), BrowserError> {
        let tree = self.call("Page.getFrameTree", json!({}))?;
        let frame = tree
            .pointer("/frameTree/frame/id")
            .and_then(Value::as_str)
            .ok_or_else(|| BrowserError::Malformed {
                method: "Page.getFrameTree".into(),
                detail: "no frameTree.frame.id".into(),
            })?
            .to_owned();
        self.call(
            "Page.setDocumentContent",
            json!({ "frameId": frame, "html": html }),
        )?;
        Ok(())
    }

    /// Evaluates `expression` in the page (a returned promise is awaited) and
    /// returns its value as JSON; a thrown exception is [`BrowserError::Script`].
    pub fn evaluate(&mut self, expression: &str) -> Result<Value, BrowserError> {
        let mut answer = self.call(
            "Runtime.evaluate",
            json!({
                "expression": expression,
                "returnByValue": true,
                "awaitPromise": true,
            }),
        )?;
        if let Some(details) = answer.get("exceptionDetails") {
            let text = details
                .pointer("/exception/description")
                .or_else(|| details.pointer("/exception/value"))
                .or_else(|| details.get("text"))
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .unwrap_or_default();
            return Err(BrowserError::Script(text));
        }
        Ok(answer
            .pointer_mut("/result/value")
            .map(Value::take)
            .unwrap_or(Value::Null))
    }

    /// Evaluates `expression`, a call of the page function `function` that
    /// returns one item per input, and checks that it returned a list of `n`.
    pub(crate) fn evaluate_list(
        &mut self,
        expression: &str,
        function: &str,
        n: usize,
    ) -> Result<Vec<Value>, BrowserError> {
        let malformed = |detail: String| BrowserError::Malformed {
            method: "Runtime.evaluate".into(),
            detail,
        };
        let Value::Array(items) = self.evaluate(expression)? else {
            return Err(malformed(format!("{function} did not return an array")));
        };
        if items.len() != n {
            return Err(malformed(format!(
                "{function} returned {} items for {n} inputs",
                items.len()
            )));
        }
        Ok(items)
    }

    /// A PNG screenshot of the viewport.
    pub fn screenshot_png(&mut self) -> Result<Vec<u8>, BrowserError> {
        let answer = self.call("Page.captureScreenshot", json!({ "format": "png" }))?;
        let data = string_field(&answer, "data", "Page.captureScreenshot")?;
        base64::decode(&data).ok_or_else(|| BrowserError::Malformed {
            method: "Page.captureScreenshot".into(),
            detail: "data is not base64".into(),
        })
    }

    /// The DevTools session id of this page.
    pub fn session_id(&self) -> &str {
        &self.session
    }
}

impl Drop for Page<'_> {
    fn drop(&mut self) {
        let target = std::mem::take(&mut self.target);
        let _ = self
            .browser
            .call("Target.closeTarget", json!({ "targetId": target }), None);
    }
}

fn string_field(value: &Value, field: &str, method: &str) -> Result<String, BrowserError> {
    value
        .get(field)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| BrowserError::Malformed {
            method: method.to_owned(),
            detail: format!("no string {field:?} in {value}"),
        })
}
