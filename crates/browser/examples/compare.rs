//! Parses each argument (a document; `CONTEXT::markup` for a fragment in
//! `CONTEXT`, e.g. `select::<input><option>` or `svg path::<b>`) with Chromium's
//! `DOMParser` and with tagloom, and prints both html5lib dumps when they differ.
//!
//! An argument starting with `json:` is a JSON string (for NUL and other
//! controls): `json:"<\\u0000"`.
//!
//! `cargo run -p tagloom-browser --example compare -- '<p><b>x</p>y'`

use tagloom_browser::compare::{self, Case};
use tagloom_browser::{Browser, LaunchOptions};
use tagloom_html::dom_patch::Namespace;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cases: Vec<Case> = std::env::args().skip(1).map(|a| parse_arg(&a)).collect();
    let mut browser = Browser::launch(&LaunchOptions::default())?;
    let mut page = browser.new_page()?;
    compare::install_dumper(&mut page)?;
    let theirs = compare::chromium_dumps(&mut page, &cases)?;
    for (case, theirs) in cases.iter().zip(theirs) {
        let ours = compare::tagloom_dump(case).unwrap_or_else(|e| format!("#error {e}"));
        println!("=== {:?} (context {:?})", case.data, case.context);
        if ours == theirs {
            print!("same\n{ours}");
        } else {
            print!("--- tagloom\n{ours}--- chromium\n{theirs}");
        }
    }
    Ok(())
}

fn parse_arg(arg: &str) -> Case {
    let decoded;
    let arg = match arg.strip_prefix("json:") {
        Some(json) => {
            decoded = serde_json::from_str::<String>(json).unwrap_or_else(|e| {
                eprintln!("not a JSON string: {json}: {e}");
                std::process::exit(2)
            });
            decoded.as_str()
        }
        None => arg,
    };
    let Some((context, data)) = arg.split_once("::") else {
        return Case::document(arg);
    };
    let (ns, name) = match context.split_once(' ') {
        Some(("svg", name)) => (Namespace::Svg, name),
        Some(("math", name)) => (Namespace::MathMl, name),
        _ => (Namespace::Html, context),
    };
    Case {
        data: data.to_owned(),
        context: Some((ns, name.to_owned())),
    }
}
