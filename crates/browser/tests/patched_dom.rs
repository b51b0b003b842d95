//! tagloom's patches drive a real browser DOM (issue 14, acceptance 3, first
//! half): every html5lib tree-construction case with scripting off (documents
//! and fragments) and every bench page is parsed into versioned batches of at
//! most 8 patches (input pushed 61 bytes at a time); the page applies them with
//! `tagloom view`'s batch applier (`applyBatch`) to a fresh document, and after
//! the batches at 1/4, 1/2 and 3/4 of the stream and after the last one its
//! html5lib dump must equal the `DomStore`'s after the same batch. The final
//! tree must also equal `tagloom parse --scripting off`'s (the driver's
//! default batching). The bench pages run a second time as bytes with the
//! encoding sniffed, and so does a page whose late `<meta charset>` restarts the
//! parse (a batch opening with `Clear`, which the applier must honour). No
//! known differences: any mismatch fails.

mod support;

use std::time::Instant;

use tagloom_browser::{compare, launch_for_test, patched};

const BATCH_PATCHES: usize = 8;
const CHUNK: usize = 61;

#[test]
fn patched_dom_equals_the_store_mid_stream_and_at_the_end() {
    let name = "patched_dom_equals_the_store_mid_stream_and_at_the_end";
    let Some(mut browser) = launch_for_test(name) else {
        return;
    };
    let (mut inputs, script_on) = support::tree_construction();
    let tree_cases = inputs.len();
    inputs.extend(support::bench_pages(name));
    let mut failures = Vec::new();
    let mut streamed = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let s = patched::stream(&input.case, BATCH_PATCHES, CHUNK)
            .unwrap_or_else(|e| panic!("{}: {e}", input.id));
        let whole = compare::tagloom_dump(&input.case).unwrap_or_else(|e| format!("#error {e}"));
        if s.store_dumps.last() != Some(&whole) {
            failures.push(format!(
                "{}: the store after the last small batch differs from tagloom parse",
                input.id
            ));
        }
        streamed.push(s);
    }
    // The same pages as bytes, sniffed, and a late <meta> that restarts the parse.
    let mut late_meta = b"<!DOCTYPE html><title>t</title><p>".to_vec();
    late_meta.resize(2000, b'a');
    late_meta.extend_from_slice(b"<meta charset=iso-8859-2><p>\xB1</p>");
    let mut raw: Vec<(String, Vec<u8>)> = vec![("late-meta".to_owned(), late_meta)];
    raw.extend(support::bench_bytes(name));
    for (id, bytes) in raw {
        let s = patched::stream_bytes(&bytes, None, None, BATCH_PATCHES, CHUNK)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        inputs.push(support::Input {
            id: format!("bytes:{id}"),
            case: compare::Case::document(String::from_utf8_lossy(&bytes).into_owned()),
        });
        streamed.push(s);
    }
    let clears: usize = streamed.iter().map(|s| s.clears).sum();
    assert!(
        clears > 0,
        "no input restarted: the Clear path is not exercised"
    );
    let batches: usize = streamed.iter().map(|s| s.batches.len()).sum();
    let checkpoints: usize = streamed.iter().map(|s| s.at.len()).sum();

    let started = Instant::now();
    let mut page = browser.new_page().expect("page");
    compare::install_dumper(&mut page).expect("install dumper");
    patched::install_applier(&mut page).expect("install applier");
    let dumps = patched::page_dumps(&mut page, &streamed).expect("page dumps");
    let browser_time = started.elapsed();

    let mut equal = 0;
    for ((input, s), page_dumps) in inputs.iter().zip(&streamed).zip(&dumps) {
        if *page_dumps == s.store_dumps {
            equal += 1;
            continue;
        }
        let at = s
            .store_dumps
            .iter()
            .zip(page_dumps)
            .position(|(a, b)| a != b)
            .unwrap_or(page_dumps.len().min(s.store_dumps.len()));
        let store = s.store_dumps.get(at).map_or("", String::as_str);
        let page = page_dumps.get(at).map_or("(no dump)", String::as_str);
        failures.push(format!(
            "{}: page differs from the store after batch {} of {}\n--- data\n{}\n--- {}",
            input.id,
            s.at.get(at).copied().unwrap_or(usize::MAX),
            s.batches.len(),
            input.case.data.chars().take(300).collect::<String>(),
            compare::first_difference(store, page)
        ));
    }
    let bench = inputs.iter().filter(|i| i.id.starts_with("bench:")).count();
    println!(
        "patched DOM vs DomStore: {} inputs ({tree_cases} tree-construction cases, {bench} bench pages, \
         {} as bytes with sniffing; \
         {script_on} #script-on cases left out), {batches} batches of <= {BATCH_PATCHES} patches, \
         {checkpoints} checkpoints, {clears} restarts: {equal} inputs equal at every checkpoint, {} failures; \
         browser side {browser_time:?}",
        inputs.len(),
        inputs.len() - tree_cases - bench,
        failures.len()
    );
    for f in failures.iter().take(20) {
        println!("FAIL {f}\n");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
}
