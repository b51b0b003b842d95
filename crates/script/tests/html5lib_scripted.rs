//! html5lib-tests with the scripts run: every tree-construction document case
//! whose scripting flag may be on (the `scripted/` ones included, which the
//! `tagloom-html` suite lists as known failures for want of a JavaScript
//! engine), fed whole and in chunks of 1 and 7 bytes (the 1-byte run compacts
//! the tree builder's mirror at every pump: scripts' DOM changes reach it as
//! without); and the scripted case of the encoding suite. Every case must pass
//! (there is no known-failure list here).

#[path = "../../html/tests/support/tree_dat.rs"]
#[allow(dead_code)]
mod tree_dat;

use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom;
use tagloom_html::tree_builder::MirrorCompaction;
use tagloom_script::{ScriptConfig, ScriptedParser};

fn run(
    data: &[u8],
    chunk: usize,
    decoder: DecoderConfig,
) -> Result<(String, usize, String), String> {
    let mut config = ScriptConfig::default();
    config.session.decoder = decoder;
    if chunk == 1 {
        config.session.tree.mirror_compaction = MirrorCompaction::After(0);
    }
    let mut parser = ScriptedParser::new(&config);
    for piece in data.chunks(chunk.max(1)) {
        parser.push(piece).map_err(|e| e.to_string())?;
    }
    parser.finish().map_err(|e| e.to_string())?;
    let doc = parser.into_document().map_err(|e| e.to_string())?;
    let encoding = doc
        .session
        .decoder()
        .encoding()
        .map_or("", |e| e.name())
        .to_owned();
    Ok((dom::dump_document(&doc.store), doc.scripts_run, encoding))
}

#[test]
fn tree_construction_with_scripts_run() {
    let files = tree_dat::load_dir(tree_dat::DATA_DIR).expect("tree-construction data");
    let (mut total, mut passed, mut scripted, mut ran) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (path, tests) in &files {
        let name = path
            .strip_prefix(tree_dat::DATA_DIR)
            .unwrap_or(path)
            .display()
            .to_string();
        let name = name.trim_start_matches('/');
        for (index, test) in tests.iter().enumerate() {
            if test.fragment.is_some() || test.scripting == tree_dat::Scripting::Off {
                continue;
            }
            total += 1;
            let utf8 = DecoderConfig::with_transport(encoding_rs::UTF_8);
            let mut ok = true;
            for chunk in [test.data.len(), 1, 7] {
                match run(test.data.as_bytes(), chunk, utf8) {
                    Ok((dump, scripts, _)) if dump == test.document => {
                        if chunk == test.data.len() {
                            ran += scripts;
                        }
                    }
                    Ok((dump, _, _)) => {
                        ok = false;
                        failures.push(format!(
                            "{name}:{index} (chunk {chunk})\n--- data\n{}\n--- expected\n{}--- got\n{dump}",
                            test.data, test.document
                        ));
                    }
                    Err(e) => {
                        ok = false;
                        failures.push(format!("{name}:{index} (chunk {chunk}): {e}"));
                    }
                }
            }
            if name.starts_with("scripted") {
                scripted += 1;
            }
            passed += usize::from(ok);
        }
    }
    println!(
        "tree construction, scripts run: {passed}/{total} document cases with scripting on \
         ({scripted} in scripted/), {ran} scripts run"
    );
    for f in failures.iter().take(20) {
        println!("FAIL {f}\n");
    }
    assert!(scripted >= 3, "the scripted/ cases were not found");
    assert!(
        failures.is_empty(),
        "{} failure(s), see output",
        failures.len()
    );
}

#[test]
fn scripted_encoding_case() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../html/tests/data/html5lib/encoding/scripted/tests1.dat"
    );
    let text = std::fs::read(path).expect("encoding/scripted/tests1.dat");
    let text = String::from_utf8_lossy(&text);
    let data = text
        .split("#data\n")
        .nth(1)
        .and_then(|rest| rest.split("\n#encoding\n").next())
        .expect("a #data section");
    let expected = text
        .split("#encoding\n")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .expect("an #encoding section")
        .trim();
    for chunk in [data.len(), 1, 7] {
        let (_, scripts, encoding) =
            run(data.as_bytes(), chunk, DecoderConfig::default()).expect("parse");
        assert!(
            encoding.eq_ignore_ascii_case(expected),
            "chunk {chunk}: {encoding}, expected {expected}"
        );
        // The script ran and wrote the <meta> (the decoder changes the encoding
        // without a restart when the text so far decodes the same).
        assert!(scripts >= 1, "chunk {chunk}");
    }
}
