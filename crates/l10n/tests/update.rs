//! Issue 10, acceptance 1: a site changes after extraction (a paragraph inserted,
//! one deleted, a word edited in one, one moved), in XLIFF and in PO:
//! `update` then merge carries over every unit whose source is unchanged, marks
//! the near match fuzzy, reports the rest, and never puts a translation on a
//! changed block. On a small page, on the l10n samples and on the bench pages
//! (`../shared/bench-corpus`, said when absent) with edits made by the test.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod support;

use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions};
use tagloom_l10n::po::{PoReader, runs_to_text};
use tagloom_l10n::reader::{ReadOptions, read_file};
use tagloom_l10n::update::{self, UpdateCounts, UpdateOptions};
use tagloom_l10n::xliff::XliffReader;
use tagloom_l10n::{Block, Rules, Run};

const FORMATS: [&str; 2] = ["xlf", "po"];

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The units of a page, each as a key of its whole source (text, codes with
/// their markup): what must match exactly for a translation to carry over.
fn source_keys(page: &Path) -> Vec<String> {
    let mut keys = Vec::new();
    let key = |b: &Block| {
        let mut k = String::new();
        for run in &b.runs {
            match run {
                Run::Text(t) => k.push_str(t),
                Run::Open { id, data }
                | Run::Close { id, data }
                | Run::Placeholder { id, data } => {
                    k.push_str(&format!("\u{1}{id}{data}\u{1}"));
                }
            }
        }
        k
    };
    let mut sink = |b: &Block| {
        keys.push(key(b));
        keys.extend(b.subs.iter().map(key));
        Ok(())
    };
    read_file(
        page,
        &ReadOptions::new(&Rules::default()),
        None,
        Some(&mut sink),
    )
    .unwrap();
    keys
}

/// How many of `new`'s units have a source some unit of `old` had (each old unit
/// counted once).
fn expected_unchanged(old: &[String], new: &[String]) -> usize {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for k in old {
        *left.entry(k).or_default() += 1;
    }
    new.iter()
        .filter(|k| match left.get_mut(k.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .count()
}

/// Every target of an updated file belongs to its own source (the test
/// translated each unit as its source + ` [fr]`), and fuzzy ones are flagged.
/// Returns (targets, fuzzy).
fn check_targets(file: &Path, format: &str) -> (usize, usize) {
    let (mut targets, mut fuzzy) = (0, 0);
    if format == "xlf" {
        let text = std::fs::read_to_string(file).unwrap();
        fuzzy = text.matches("<segment state=\"initial\">").count();
        let mut r = XliffReader::open(file).unwrap();
        while let Some(u) = r.next_unit().unwrap() {
            if let Some(t) = u.target {
                assert_eq!(
                    runs_to_text(&t),
                    format!("{} [fr]", runs_to_text(&u.source)),
                    "{}: unit {}",
                    file.display(),
                    u.id
                );
                targets += 1;
            }
        }
    } else {
        let mut r = PoReader::open(file).unwrap();
        while let Some(e) = r.next_entry().unwrap() {
            if e.fuzzy {
                fuzzy += 1;
            } else if !e.target.is_empty() && e.context.is_some() {
                assert_eq!(e.target, format!("{} [fr]", e.id), "{}", file.display());
                targets += 1;
            }
        }
    }
    (targets, fuzzy)
}

/// Extracts `v1`, translates it all, updates for `v2`, checks the new file and
/// merges it into `v2`. Returns the update's counts.
fn update_and_merge(v1: &Path, v2: &Path, format: &str, dir: &Path) -> UpdateCounts {
    let old = dir.join(format!("v1.{format}"));
    flow::extract(v1, &old, &ExtractOptions::new("en", Some("fr")).unwrap()).unwrap();
    let fr = support::translate_all(&std::fs::read_to_string(&old).unwrap(), format);
    let old = write(dir, &format!("v1.fr.{format}"), fr.as_bytes());
    let new = dir.join(format!("v2.fr.{format}"));
    let report = update::update(v2, &old, &new, &UpdateOptions::default()).unwrap();
    let counts = report.total();
    // Every unit whose source is unchanged is carried over, nothing else is.
    let expected = expected_unchanged(&source_keys(v1), &source_keys(v2));
    assert_eq!(
        counts.unchanged.units,
        expected,
        "{} {format}",
        v2.display()
    );
    assert_eq!(counts.carried, expected);
    let (targets, fuzzy) = check_targets(&new, format);
    assert_eq!(targets, expected, "{} {format}", v2.display());
    assert_eq!(fuzzy, counts.fuzzy.units);
    // The merge applies exactly those, reports nothing: fuzzy units keep their source.
    let out = dir.join("v2.fr.html");
    let merged = flow::merge(v2, &new, &out, &MergeOptions::default()).unwrap();
    let issues: Vec<String> = merged.issues().map(|(_, i)| i.to_string()).collect();
    assert!(issues.is_empty(), "{} {format}: {issues:?}", v2.display());
    counts
}

const V1: &str = "<!DOCTYPE html><html lang=\"en\"><body>\n\
<section><h2>Getting started</h2>\n\
<p>Alpha paragraph talks about the first steps of installing the tool.</p>\n\
<p>Read <a href=\"/b\">the bravo guide</a> before you start anything else.</p>\n\
<p>Charlie explains how <b>three</b> options change the output of a run.</p>\n\
</section>\n<section><h2>Going further</h2>\n\
<p>Delta covers the fourth topic in some detail for advanced readers.</p>\n\
<p><img src=\"x.png\" alt=\"A picture of echo\"> Echo closes the page.</p>\n\
</section></body></html>\n";

#[test]
fn scripted_site_changes_carry_exact_mark_fuzzy_and_report_the_rest() {
    let v2 = V1
        // Insert a paragraph.
        .replace(
            "<p>Alpha",
            "<p>Zulu is a brand new paragraph nobody translated.</p>\n<p>Alpha",
        )
        // Delete one.
        .replace(
            "<p>Delta covers the fourth topic in some detail for advanced readers.</p>\n",
            "",
        )
        // Edit a word.
        .replace("three</b> options change", "three</b> options alter")
        // Move a section: the second before the first.
        .replace(
            "<section><h2>Getting started</h2>",
            "<section><h2>Going further</h2>\n\
             <p><img src=\"x.png\" alt=\"A picture of echo\"> Echo closes the page.</p>\n\
             </section>\n<section><h2>Getting started</h2>",
        )
        .replace(
            "</section>\n<section><h2>Going further</h2>\n\
             <p><img src=\"x.png\" alt=\"A picture of echo\"> Echo closes the page.</p>\n\
             </section></body>",
            "</section></body>",
        );
    assert_ne!(v2, V1);
    for format in FORMATS {
        let dir = tempfile::tempdir().unwrap();
        let v1 = write(dir.path(), "v1.html", V1.as_bytes());
        let v2p = write(dir.path(), "v2.html", v2.as_bytes());
        let c = update_and_merge(&v1, &v2p, format, dir.path());
        // h2 ×2, alpha, bravo, echo and its alt unchanged; charlie fuzzy; zulu new;
        // delta removed.
        assert_eq!(
            (
                c.unchanged.units,
                c.fuzzy.units,
                c.new.units,
                c.removed.units
            ),
            (6, 1, 1, 1),
            "{format}: {c:?}"
        );
        assert_eq!(c.suggested, 1);
        assert_eq!(c.new.words, 8);
        assert_eq!(c.removed.words, 11);
        let out = std::fs::read_to_string(dir.path().join("v2.fr.html")).unwrap();
        assert!(
            out.contains(
                "Alpha paragraph talks about the first steps of installing the tool. [fr]"
            )
        );
        assert!(
            out.contains(
                "Charlie explains how <b>three</b> options alter the output of a run.</p>"
            )
        );
        assert!(out.contains("<p>Zulu is a brand new paragraph nobody translated.</p>"));
        // The fuzzy unit keeps the old source and translation as a suggestion.
        let new = std::fs::read_to_string(dir.path().join(format!("v2.fr.{format}"))).unwrap();
        if format == "po" {
            assert!(new.contains("#, fuzzy\n#| msgid \"Charlie explains how <1>three</1> options change the output of a run.\""));
        } else {
            assert!(new.contains(
                "<note category=\"update-old-target\">Charlie explains how &lt;1&gt;three&lt;/1&gt; \
                 options change the output of a run. [fr]</note>"
            ));
        }
    }
}

#[test]
fn files_with_structural_ids_still_merge_by_source() {
    // A file made with the earlier scheme: its ids are not the page's any more,
    // the merge finds each unit by its source.
    let dir = tempfile::tempdir().unwrap();
    let v1 = write(dir.path(), "v1.html", V1.as_bytes());
    let rules = Rules::from_json_str(r#"{"ids": "structural"}"#).unwrap();
    for format in FORMATS {
        let mut opts = ExtractOptions::new("en", Some("fr")).unwrap();
        opts.common.rules = std::sync::Arc::new(rules.clone());
        let old = dir.path().join(format!("old.{format}"));
        flow::extract(&v1, &old, &opts).unwrap();
        let text = std::fs::read_to_string(&old).unwrap();
        assert!(text.contains("html-1.body-1.section-1.p-1"));
        let fr = write(
            dir.path(),
            &format!("old.fr.{format}"),
            support::translate_all(&text, format).as_bytes(),
        );
        let out = dir.path().join("out.html");
        let report = flow::merge(&v1, &fr, &out, &MergeOptions::default()).unwrap();
        assert_eq!(report.issues().count(), 0, "{format}");
        assert_eq!(report.translated(), 8, "{format}");
    }
}

/// The byte ranges of simple paragraphs (`<p>` or `<p …>` up to the next `</p>`,
/// no other `<p` inside, not too long), in any ASCII-compatible encoding.
fn paragraphs(page: &[u8]) -> Vec<(usize, usize)> {
    let find = |from: usize, needle: &[u8]| {
        page.get(from..)?
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|i| i + from)
    };
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(start) = find(at, b"<p") {
        at = start + 2;
        if !matches!(page.get(start + 2), Some(b'>' | b' ')) {
            continue;
        }
        let Some(close) = find(start, b"</p>") else {
            break;
        };
        let end = close + 4;
        let body = &page[start + 2..close];
        if end - start < 4000
            && find(start + 2, b"<p").is_none_or(|n| n >= close)
            && !body.windows(7).any(|w| w.eq_ignore_ascii_case(b"<script"))
        {
            out.push((start, end));
            at = end;
        }
    }
    out
}

/// Words of 4+ ASCII letters outside tags in `bytes`: their ranges.
fn words(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut in_tag, mut start) = (false, None);
    for (i, &b) in bytes.iter().enumerate() {
        let letter = !in_tag && b.is_ascii_alphabetic();
        if !letter {
            if let Some(s) = start.take()
                && i - s >= 4
            {
                out.push((s, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
        match b {
            b'<' => in_tag = true,
            b'>' => in_tag = false,
            _ => {}
        }
    }
    out
}

/// Inserts a paragraph before the first paragraph, moves the last one before it,
/// deletes one, edits one word of one with 8+ words. `None`: too few paragraphs.
fn scripted_edits(page: &[u8]) -> Option<Vec<u8>> {
    let ps = paragraphs(page);
    if ps.len() < 4 {
        return None;
    }
    let first = ps[0];
    let last = *ps.last()?;
    let (edit_i, edit) = ps[1..ps.len() - 1]
        .iter()
        .enumerate()
        .map(|(i, p)| (i + 1, p))
        .find(|(_, (s, e))| words(&page[*s..*e]).len() >= 8)?;
    let delete = ps[1..ps.len() - 1]
        .iter()
        .enumerate()
        .map(|(i, p)| (i + 1, *p))
        .find(|(i, (s, e))| *i != edit_i && words(&page[*s..*e]).len() >= 3)?
        .1;
    let (ws, we) = words(&page[edit.0..edit.1])[4];
    // Splices, applied from the end.
    let mut splices: Vec<(usize, usize, Vec<u8>)> = vec![
        (last.0, last.1, Vec::new()),
        (delete.0, delete.1, Vec::new()),
        (edit.0 + ws, edit.0 + we, b"Quixotic".to_vec()),
        (first.0, first.0, {
            let mut v = b"<p>Zyzzyva inserted paragraph qwerty plugh xyzzy.</p>".to_vec();
            v.extend_from_slice(&page[last.0..last.1]);
            v
        }),
    ];
    splices.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = page.to_vec();
    for (s, e, with) in splices {
        out.splice(s..e, with);
    }
    Some(out)
}

#[test]
fn samples_and_bench_pages_with_scripted_edits() {
    let pages = support::sample_and_bench_pages();
    assert!(pages.len() >= 15);
    let dir = tempfile::tempdir().unwrap();
    let (mut edited, mut total) = (0, UpdateCounts::default());
    for page in &pages {
        let bytes = std::fs::read(page).unwrap();
        let Some(v2) = scripted_edits(&bytes) else {
            println!(
                "skipped (fewer than 4 simple paragraphs): {}",
                page.display()
            );
            continue;
        };
        edited += 1;
        let v1 = write(dir.path(), "v1.html", &bytes);
        let v2 = write(dir.path(), "v2.html", &v2);
        for format in FORMATS {
            let c = update_and_merge(&v1, &v2, format, dir.path());
            // The inserted paragraph is new, the edited one fuzzy, the deleted one
            // removed (sub-units of those may add to each).
            assert!(
                c.new.units >= 1 && c.fuzzy.units >= 1 && c.removed.units >= 1,
                "{}: {c:?}",
                page.display()
            );
            if format == "xlf" {
                println!(
                    "{}: {} unchanged, {} fuzzy, {} new, {} removed",
                    page.file_name().unwrap().to_string_lossy(),
                    c.unchanged.units,
                    c.fuzzy.units,
                    c.new.units,
                    c.removed.units
                );
                total.add(&c);
            }
        }
    }
    assert!(edited >= 8, "only {edited} pages could be edited");
    println!(
        "{edited} pages edited: {} units carried over, {} fuzzy, {} new, {} removed",
        total.carried, total.fuzzy.units, total.new.units, total.removed.units
    );
}
