//! Issue 8, point 4: a stale translation file never lands on the wrong block.
//!
//! Unit ids are structural (`…section-1.p-2`): after a paragraph is inserted,
//! deleted, edited or moved, an old file's id can name another paragraph. The merge
//! applies a translation only where the page's block still has the unit's source
//! (text and codes, with their markup) and reports every other one; the output is
//! written, the file marked partial (`--allow-partial` accepts it, `--strict` fails).
//! Each case runs with XLIFF and with PO.

use std::path::{Path, PathBuf};

mod support;

use support::{extract_opts, merge_opts};

use tagloom_l10n::L10nError;
use tagloom_l10n::flow::{self, MergeOptions, PartialMerge, Report};
use tagloom_l10n::writer::IssueKind;

const V1: &str = "<!DOCTYPE html><html lang=\"en\"><body><section>\n\
<p>Alpha one</p>\n\
<p>Read <a href=\"/b\">bravo</a> now</p>\n\
<p>Charlie <b>three</b></p>\n\
<p>Delta four</p>\n\
</section></body></html>\n";

const FORMATS: [&str; 2] = ["xlf", "po"];

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Extracts `v1` as `format`, translates every unit, merges into `v2`.
fn stale_merge(v1: &str, v2: &str, format: &str, options: &MergeOptions) -> (Report, String) {
    let dir = tempfile::tempdir().unwrap();
    let page1 = write(dir.path(), "v1.html", v1);
    let page2 = write(dir.path(), "v2.html", v2);
    let file = dir.path().join(format!("v1.{format}"));
    flow::extract(&page1, &file, &extract_opts()).unwrap();
    let translated = support::translate_all(&std::fs::read_to_string(&file).unwrap(), format);
    let file = write(dir.path(), &format!("v1.fr.{format}"), &translated);
    let out = dir.path().join("out.html");
    let report = flow::merge(&page2, &file, &out, options).unwrap();
    (report, std::fs::read_to_string(&out).unwrap())
}

/// The paragraphs' text (tags dropped), in order.
fn paragraphs(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<p>") {
        let end = rest[at..].find("</p>").unwrap() + at;
        let mut text = String::new();
        let mut in_tag = false;
        for c in rest[at + 3..end].chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        out.push(text);
        rest = &rest[end..];
    }
    out
}

fn issues(report: &Report) -> Vec<(String, IssueKind)> {
    report
        .issues()
        .map(|(_, i)| {
            (
                i.id.trim_start_matches("html-1.body-1.section-1.")
                    .to_string(),
                i.kind,
            )
        })
        .collect()
}

/// Every paragraph of the output is its own v2 source, or that source translated:
/// never another paragraph's translation. Returns how many were translated.
fn check_no_misplacement(v2: &str, out: &str) -> usize {
    let sources = paragraphs(v2);
    let got = paragraphs(out);
    assert_eq!(sources.len(), got.len(), "{out}");
    let mut translated = 0;
    for (s, g) in sources.iter().zip(&got) {
        if g == &format!("{s} [fr]") {
            translated += 1;
        } else {
            assert_eq!(g, s, "a translation landed on the wrong block:\n{out}");
        }
    }
    translated
}

fn edit(with: &[(&str, &str)]) -> String {
    let mut page = V1.to_string();
    for (from, to) in with {
        assert!(page.contains(from), "{from}");
        page = page.replacen(from, to, 1);
    }
    page
}

use IssueKind::{NotInFile, NotInPage, SourceChanged};

fn expect(v2: &str, translated: usize, expected: &[(&str, IssueKind)]) {
    for format in FORMATS {
        let (report, out) = stale_merge(V1, v2, format, &merge_opts());
        let got = issues(&report);
        let want: Vec<(String, IssueKind)> =
            expected.iter().map(|(i, k)| (i.to_string(), *k)).collect();
        assert_eq!(got, want, "{format}");
        assert_eq!(
            check_no_misplacement(v2, &out),
            translated,
            "{format}\n{out}"
        );
        assert_eq!(report.translated(), translated, "{format}");
        assert_eq!(report.partial(), !expected.is_empty(), "{format}");
        for (_, issue) in report.issues() {
            println!("{format}: {issue}");
        }
    }
}

#[test]
fn paragraph_inserted_at_the_top() {
    let v2 = edit(&[("<p>Alpha", "<p>Zulu new</p>\n<p>Alpha")]);
    expect(
        &v2,
        0,
        &[
            ("p-1", SourceChanged),
            ("p-2", SourceChanged),
            ("p-3", SourceChanged),
            ("p-4", SourceChanged),
            ("p-5", NotInFile),
        ],
    );
}

#[test]
fn paragraph_inserted_at_the_end() {
    let v2 = edit(&[("</section>", "<p>Echo five</p>\n</section>")]);
    expect(&v2, 4, &[("p-5", NotInFile)]);
}

#[test]
fn paragraph_deleted() {
    let v2 = edit(&[("<p>Alpha one</p>\n", "")]);
    expect(
        &v2,
        0,
        &[
            ("p-1", SourceChanged),
            ("p-2", SourceChanged),
            ("p-3", SourceChanged),
            ("p-4", NotInPage),
        ],
    );
}

#[test]
fn paragraph_text_edited() {
    let v2 = edit(&[("Charlie <b>three</b>", "Charlie <b>3</b>")]);
    expect(&v2, 3, &[("p-3", SourceChanged)]);
}

#[test]
fn inline_code_markup_edited() {
    // Same text, same code ids: only the link target changed.
    let v2 = edit(&[("<a href=\"/b\">", "<a href=\"/elsewhere\">")]);
    expect(&v2, 3, &[("p-2", SourceChanged)]);
}

#[test]
fn paragraphs_moved() {
    let v2 = edit(&[
        ("<p>Alpha one</p>", "<p>TMP</p>"),
        ("<p>Delta four</p>", "<p>Alpha one</p>"),
        ("<p>TMP</p>", "<p>Delta four</p>"),
    ]);
    expect(&v2, 2, &[("p-1", SourceChanged), ("p-4", SourceChanged)]);
}

#[test]
fn codes_never_bind_to_another_paragraphs_links() {
    // v1's first paragraph nests code 2 in code 1; after it is deleted, its id names
    // a paragraph with two sibling links: the code check alone passes, and merging
    // would write `<a href="/x">… <a href="/y">…</a></a>`.
    let v1 = "<body>\n<p>Go <b>big <i>now</i></b></p>\n\
              <p><a href=\"/x\">one</a> and <a href=\"/y\">two</a></p>\n</body>\n";
    let v2 = "<body>\n<p><a href=\"/x\">one</a> and <a href=\"/y\">two</a></p>\n</body>\n";
    for format in FORMATS {
        let (report, out) = stale_merge(v1, v2, format, &merge_opts());
        assert_eq!(out, v2, "{format}");
        assert!(!out.contains("big"), "{format}: {out}");
        let kinds: Vec<IssueKind> = report.issues().map(|(_, i)| i.kind).collect();
        assert_eq!(kinds, [SourceChanged, NotInPage], "{format}");
    }
}

#[test]
fn allow_partial_and_strict() {
    let v2 = edit(&[("Charlie <b>three</b>", "Charlie <b>3</b>")]);
    for format in FORMATS {
        let allow = MergeOptions {
            partial: PartialMerge::Allow,
            ..merge_opts()
        };
        let (report, out) = stale_merge(V1, &v2, format, &allow);
        assert!(!report.partial());
        assert_eq!(report.issues().count(), 1);
        assert_eq!(check_no_misplacement(&v2, &out), 3);
    }
    // Strict: an error, no output.
    let dir = tempfile::tempdir().unwrap();
    let page1 = write(dir.path(), "v1.html", V1);
    let page2 = write(dir.path(), "v2.html", &v2);
    let xlf = dir.path().join("v1.xlf");
    let opts = extract_opts();
    flow::extract(&page1, &xlf, &opts).unwrap();
    let fr = support::translate_all(&std::fs::read_to_string(&xlf).unwrap(), "xlf");
    let xlf = write(dir.path(), "fr.xlf", &fr);
    let out = dir.path().join("out.html");
    let strict = MergeOptions {
        partial: PartialMerge::Fail,
        ..merge_opts()
    };
    let err = flow::merge(&page2, &xlf, &out, &strict).unwrap_err();
    assert!(
        matches!(err, L10nError::NotApplied { count: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("source changed"), "{err}");
    assert!(!out.exists());
}

#[test]
fn unchanged_page_round_trips_byte_identical_and_translates_fully() {
    for format in FORMATS {
        let dir = tempfile::tempdir().unwrap();
        let page = write(dir.path(), "page.html", V1);
        let file = dir.path().join(format!("page.{format}"));
        let opts = extract_opts();
        flow::extract(&page, &file, &opts).unwrap();
        let out = dir.path().join("same.html");
        let report = flow::merge(&page, &file, &out, &merge_opts()).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), V1, "{format}");
        assert_eq!(report.issues().count(), 0);
        assert!(!report.partial());
        // And fully translated, nothing reported.
        let (report, out) = stale_merge(V1, V1, format, &merge_opts());
        assert_eq!(check_no_misplacement(V1, &out), 4, "{format}");
        assert_eq!(report.issues().count(), 0, "{format}");
        assert!(out.contains("<html lang=\"fr\">"));
    }
}

#[test]
fn untranslated_file_on_a_changed_page_is_not_an_error() {
    let v2 = edit(&[("<p>Alpha one</p>\n", "<p>Zulu</p>\n<p>Yankee</p>\n")]);
    for format in FORMATS {
        let dir = tempfile::tempdir().unwrap();
        let page1 = write(dir.path(), "v1.html", V1);
        let page2 = write(dir.path(), "v2.html", &v2);
        let file = dir.path().join(format!("v1.{format}"));
        let opts = extract_opts();
        flow::extract(&page1, &file, &opts).unwrap();
        let out = dir.path().join("out.html");
        let report = flow::merge(&page2, &file, &out, &merge_opts()).unwrap();
        assert_eq!(report.issues().count(), 0, "{format}");
        assert!(!report.partial());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), v2);
    }
}

#[test]
fn po_fuzzy_entries_are_untranslated() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "page.html", V1);
    let po = dir.path().join("page.po");
    let opts = extract_opts();
    flow::extract(&page, &po, &opts).unwrap();
    let fr = support::translate_all(&std::fs::read_to_string(&po).unwrap(), "po").replace(
        "msgctxt \"html-1.body-1.section-1.p-4\"",
        "#, fuzzy\nmsgctxt \"html-1.body-1.section-1.p-4\"",
    );
    let po = write(dir.path(), "fr.po", &fr);
    let out = dir.path().join("out.html");
    let report = flow::merge(&page, &po, &out, &merge_opts()).unwrap();
    assert_eq!(report.issues().count(), 0);
    let html = std::fs::read_to_string(&out).unwrap();
    assert_eq!(check_no_misplacement(V1, &html), 3);
    assert!(html.contains("<p>Delta four</p>"));
}

/// No false alarms on real pages: every sample (and bench page, when present),
/// extracted, fully translated and merged back unchanged, has every translation
/// applied — the source comparison round-trips through XLIFF and PO (entities,
/// `<cp>`, line breaks in code markup, encodings).
#[test]
fn real_pages_fully_translated_have_no_stale_units() {
    let pages = support::sample_and_bench_pages();
    assert!(pages.len() >= 15);
    let dir = tempfile::tempdir().unwrap();
    let mut units = 0;
    for page in &pages {
        for format in FORMATS {
            let file = dir.path().join(format!("units.{format}"));
            let opts = extract_opts();
            flow::extract(page, &file, &opts).unwrap();
            let fr = support::translate_all(&std::fs::read_to_string(&file).unwrap(), format);
            let file = write(dir.path(), &format!("fr.{format}"), &fr);
            let out = dir.path().join("out.html");
            let report = flow::merge(page, &file, &out, &merge_opts()).unwrap();
            let stale: Vec<String> = report.issues().map(|(_, i)| i.to_string()).collect();
            assert!(stale.is_empty(), "{} {format}: {stale:?}", page.display());
            units += report.translated();
        }
    }
    println!(
        "{} pages, {units} translations applied, none stale",
        pages.len()
    );
}

/// The same over every html5lib tree-construction input (broken markup of every
/// kind): a fully translated file merged back onto its own page has nothing stale.
#[test]
fn html5lib_inputs_fully_translated_have_no_stale_units() {
    let dir = tempfile::tempdir().unwrap();
    let (mut docs, mut applied) = (0, 0);
    for (name, data) in support::html5lib_inputs() {
        let page = write(dir.path(), "page.html", &data);
        for format in FORMATS {
            let file = dir.path().join(format!("units.{format}"));
            let opts = extract_opts();
            flow::extract(&page, &file, &opts).unwrap();
            let fr = support::translate_all(&std::fs::read_to_string(&file).unwrap(), format);
            let file = write(dir.path(), &format!("fr.{format}"), &fr);
            let out = dir.path().join("out.html");
            let report = flow::merge(&page, &file, &out, &merge_opts()).unwrap();
            let stale: Vec<String> = report.issues().map(|(_, i)| i.to_string()).collect();
            assert!(stale.is_empty(), "{name} {format}: {stale:?}\n{data:?}");
            applied += report.translated();
        }
        docs += 1;
    }
    println!("{docs} html5lib inputs, {applied} translations applied, none stale");
}
