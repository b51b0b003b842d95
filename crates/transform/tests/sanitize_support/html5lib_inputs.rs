//! The `#data` sections of html5lib's tree-construction tests, read from
//! tagloom-html's copy. One reader for the transform crate's tests: the
//! integration tests include it through `sanitize_support`, the fast path's unit
//! tests with `#[path]`.

/// Where tagloom-html keeps the html5lib tree-construction `.dat` files.
const TREE_DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../html/tests/data/html5lib/tree-construction"
);

/// The `#data` sections of every html5lib tree-construction file.
pub fn tree_construction_inputs() -> Vec<String> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(TREE_DATA)
        .expect("tree-construction dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("dat file");
        let mut data: Option<Vec<&str>> = None;
        for line in text.lines() {
            if line == "#data" {
                data = Some(Vec::new());
            } else if line.starts_with('#') {
                if let Some(d) = data.take() {
                    out.push(d.join("\n"));
                }
            } else if let Some(d) = data.as_mut() {
                d.push(line);
            }
        }
    }
    out
}
