//! Temporary (not committed): dumps every sanitize output and report.
mod sanitize_support;
use sanitize_support::{tree_construction_inputs, vectors};
use std::io::Write;
use std::sync::Arc;
use tagloom_transform::sanitize::{Policy, Sanitizer};

#[test]
fn dump() {
    let Some(path) = std::env::var_os("SAN_DUMP") else {
        return;
    };
    let mut inputs = vectors();
    inputs.extend(tree_construction_inputs());
    let mut files: Vec<_> = std::fs::read_dir("/work/shared/bench-corpus")
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    files.sort();
    for f in files {
        inputs.push(String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned());
    }
    let mut out = std::fs::File::create(path).unwrap();
    for policy in [Policy::default(), Policy::widened()] {
        let s = Sanitizer::new(Arc::new(policy));
        for x in &inputs {
            let r = s.sanitize(x);
            writeln!(out, "{:?}\n{}\n----", r.report, r.html).unwrap();
        }
    }
}
