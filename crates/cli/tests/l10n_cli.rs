//! `tagloom l10n` end to end through the binary, in directory mode: extracting every
//! l10n sample (UTF-8, UTF-8 with BOM, UTF-16LE, windows-1252) to XLIFF and to PO and
//! merging the untranslated files back gives byte-identical pages; pseudo writes a
//! page per input; bad input exits 2 with one line and leaves no output behind.

mod support;

use std::path::{Path, PathBuf};

fn tagloom(args: &[&std::ffi::OsStr]) -> std::process::Output {
    support::tagloom()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../l10n/tests/data/l10n-samples")
}

fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "html" || e == "phtml"))
        .collect();
    files.sort();
    files
}

#[test]
fn untranslated_round_trip_of_a_directory_is_byte_identical() {
    let work = std::env::temp_dir().join(format!("tagloom-l10n-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let inputs = html_files(&samples());
    assert!(inputs.len() >= 15);
    for format in ["xliff", "po"] {
        let xlf = work.join(format!("{format}-units"));
        let back = work.join(format!("{format}-back"));
        let out = tagloom(&[
            "l10n".as_ref(),
            "extract".as_ref(),
            samples().as_os_str(),
            "--source".as_ref(),
            "en".as_ref(),
            "--target".as_ref(),
            "fr".as_ref(),
            "-o".as_ref(),
            xlf.as_os_str(),
            "--format".as_ref(),
            format.as_ref(),
            "--quiet".as_ref(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = tagloom(&[
            "l10n".as_ref(),
            "merge".as_ref(),
            samples().as_os_str(),
            xlf.as_os_str(),
            "-o".as_ref(),
            back.as_os_str(),
            "--quiet".as_ref(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for input in &inputs {
            let name = input.file_name().unwrap();
            let merged = std::fs::read(back.join(name)).unwrap_or_default();
            assert!(
                merged == std::fs::read(input).unwrap(),
                "{format}: {} changed",
                input.display()
            );
        }
        println!(
            "l10n {format}: {} pages byte-identical after extract + merge",
            inputs.len()
        );
    }
    let pseudo = work.join("pseudo");
    let out = tagloom(&[
        "l10n".as_ref(),
        "pseudo".as_ref(),
        samples().as_os_str(),
        "--target".as_ref(),
        "fr".as_ref(),
        "-o".as_ref(),
        pseudo.as_os_str(),
        "--quiet".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(html_files(&pseudo).len(), inputs.len());
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn bad_input_exits_2_with_one_line_and_no_output() {
    let work = std::env::temp_dir().join(format!("tagloom-l10n-bad-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let page = samples().join("okapi-simpleTest.html");
    let xlf = work.join("units.xlf");
    assert!(
        tagloom(&[
            "l10n".as_ref(),
            "extract".as_ref(),
            page.as_os_str(),
            "-o".as_ref(),
            xlf.as_os_str()
        ])
        .status
        .success()
    );
    // An XLIFF whose source language is not a BCP 47 tag (unit ids that do not
    // belong to the page are reported, exit 1: see l10n_merge_cli.rs).
    let wrong = work.join("wrong.xlf");
    let text = std::fs::read_to_string(&xlf).unwrap().replacen(
        "srcLang=\"en\"",
        "srcLang=\"en&quot;\"",
        1,
    );
    std::fs::write(&wrong, text).unwrap();
    let out_html = work.join("out.html");
    let missing = work.join("missing.html");
    let units_txt = work.join("units.txt");
    for args in [
        vec![
            "l10n".as_ref(),
            "merge".as_ref(),
            page.as_os_str(),
            wrong.as_os_str(),
            "-o".as_ref(),
            out_html.as_os_str(),
        ],
        vec![
            "l10n".as_ref(),
            "merge".as_ref(),
            missing.as_os_str(),
            xlf.as_os_str(),
            "-o".as_ref(),
            out_html.as_os_str(),
        ],
        vec![
            "l10n".as_ref(),
            "extract".as_ref(),
            page.as_os_str(),
            "-o".as_ref(),
            units_txt.as_os_str(),
        ],
    ] {
        let out = tagloom(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let error_lines: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("tagloom: "))
            .collect();
        assert_eq!(error_lines.len(), 1, "{stderr}");
        assert!(!out_html.exists(), "no partial output for {args:?}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&work)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        2,
        "only the two XLIFF files remain: {leftovers:?}"
    );
    let _ = std::fs::remove_dir_all(&work);
}
