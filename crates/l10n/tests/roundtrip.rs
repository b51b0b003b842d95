//! Acceptance 1: extract, then merge with the targets left empty, gives the input
//! back byte for byte — over the l10n samples, every html5lib tree-construction
//! input, and the bench corpus (read from ../shared at test time when present).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions};
use tagloom_testdata::Shared;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Extracts to XLIFF and PO, merges each back, and compares with the input.
fn round_trip(input: &Path, work: &Path) -> Result<(), String> {
    let original = std::fs::read(input).map_err(|e| e.to_string())?;
    for ext in ["xlf", "po"] {
        let xlf = work.join(format!("t.{ext}"));
        let out = work.join("out.html");
        let extracted = flow::extract(input, &xlf, &ExtractOptions::new("en", Some("fr")).unwrap())
            .map_err(|e| format!("extract: {e}"))?;
        let merged = flow::merge(input, &xlf, &out, &MergeOptions::default())
            .map_err(|e| format!("merge: {e}"))?;
        // The merge's replay counts the words the extract's writer counted.
        let words = |r: &flow::Report| r.files.iter().map(|f| f.words).sum::<usize>();
        if words(&merged) != words(&extracted) {
            return Err(format!(
                "{ext}: {} words merged, {} extracted",
                words(&merged),
                words(&extracted)
            ));
        }
        let back = std::fs::read(&out).map_err(|e| e.to_string())?;
        if back != original {
            let at = back
                .iter()
                .zip(&original)
                .position(|(a, b)| a != b)
                .unwrap_or(back.len().min(original.len()));
            return Err(format!(
                "{ext}: differs at byte {at} (lengths {} vs {})",
                back.len(),
                original.len()
            ));
        }
    }
    Ok(())
}

/// Found by the `l10n_roundtrip` fuzz target: the id of a translatable attribute of an
/// inline element kept the element's name unsanitized, and XLIFF cannot hold a
/// control character, so the id read back did not match and the merge failed.
#[test]
fn control_characters_in_inline_element_names_round_trip() {
    let work = tempfile::tempdir().unwrap();
    for (i, page) in [&b"!<H\x01 title=l>"[..], b"<p>x <b\x00\x7f title=t>y</b>"]
        .iter()
        .enumerate()
    {
        let input = work.path().join(format!("page{i}.html"));
        std::fs::write(&input, page).unwrap();
        if let Err(e) = round_trip(&input, work.path()) {
            panic!("{:?}: {e}", String::from_utf8_lossy(page));
        }
    }
}

#[test]
fn l10n_samples_round_trip() {
    let dir = manifest().join("tests/data/l10n-samples");
    let work = tempfile::tempdir().unwrap();
    let mut n = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        n += 1;
        if let Err(e) = round_trip(&path, work.path()) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    println!("l10n samples: {}/{n} byte-identical", n - failures.len());
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(n >= 20);
}

/// The `#data` sections of a tree-construction `.dat` file.
fn dat_inputs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if bare == "#data" {
            cur = Some(String::new());
            continue;
        }
        if bare.starts_with('#')
            && cur.is_some()
            && matches!(
                bare,
                "#errors"
                    | "#new-errors"
                    | "#document"
                    | "#document-fragment"
                    | "#script-on"
                    | "#script-off"
            )
        {
            let mut data = cur.take().unwrap();
            if data.ends_with('\n') {
                data.pop();
            }
            out.push(data);
            continue;
        }
        if let Some(c) = cur.as_mut() {
            c.push_str(line);
        }
    }
    out
}

#[test]
fn html5lib_tree_construction_inputs_round_trip() {
    let dir = manifest().join("../html/tests/data/html5lib/tree-construction");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        let _ = writeln!(
            std::io::stderr(),
            "html5lib inputs not found at {}: SKIPPED",
            dir.display()
        );
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("in.html");
    let mut n = 0;
    let mut failures = Vec::new();
    // The .dat files, including those of `scripted/`.
    let mut files: Vec<PathBuf> = Vec::new();
    for p in entries.map(|e| e.unwrap().path()) {
        if p.is_dir() {
            files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else {
            files.push(p);
        }
    }
    files.retain(|p| p.extension().is_some_and(|e| e == "dat"));
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, data) in dat_inputs(&text).into_iter().enumerate() {
            n += 1;
            std::fs::write(&input, data.as_bytes()).unwrap();
            if let Err(e) = round_trip(&input, work.path()) {
                failures.push(format!(
                    "{} #{i}: {e}: {data:?}",
                    file.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    println!(
        "html5lib tree-construction inputs: {}/{n} byte-identical",
        n - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
    assert!(n > 1000);
}

#[test]
fn bench_corpus_round_trip() {
    let Some(dir) = Shared::BenchCorpus.dir("bench_corpus_round_trip") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap();
    let work = tempfile::tempdir().unwrap();
    let mut n = 0;
    let mut failures = Vec::new();
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        n += 1;
        if let Err(e) = round_trip(&path, work.path()) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    println!("bench corpus: {}/{n} byte-identical", n - failures.len());
    assert!(failures.is_empty(), "{failures:#?}");
}
