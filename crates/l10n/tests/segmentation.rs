//! Sentence segmentation (`--segment sentences`, issue 10): segmented extraction
//! round-trips byte for byte untranslated, and translated sentences land in place,
//! through XLIFF (`<segment>`s and `<ignorable>`s in one unit) and PO (an entry per
//! sentence, `msgctxt "UNIT#sN"`), in English, German, Japanese and Arabic.

mod support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tagloom_l10n::flow::{self, Common, ExtractOptions, MergeOptions};
use tagloom_l10n::rules::Rules;
use tagloom_testdata::Shared;

fn segmented_common() -> Common {
    Common {
        rules: Arc::new(Rules::from_json_str(r#"{"segment": "sentences"}"#).unwrap()),
        ..Common::default()
    }
}

fn extract_opts(source: &str) -> ExtractOptions {
    ExtractOptions {
        common: segmented_common(),
        ..ExtractOptions::new(source, Some("fr")).unwrap()
    }
}

fn data(name: &str) -> PathBuf {
    support::manifest()
        .join("tests/data/segmentation")
        .join(name)
}

/// Every page of the samples, the segmentation samples and the bench corpus.
fn pages() -> Vec<PathBuf> {
    let m = support::manifest();
    let mut pages = Vec::new();
    for dir in [
        m.join("tests/data/l10n-samples"),
        m.join("tests/data/segmentation"),
    ] {
        pages.extend(support::corpus(&dir, &["html", "htm", "phtml"]));
    }
    pages.extend(
        Shared::BenchCorpus.files("the bench pages of segmentation", &["html", "htm", "phtml"]),
    );
    pages
}

fn extract(page: &Path, out: &Path, source: &str) -> String {
    flow::extract(page, out, &extract_opts(source)).unwrap();
    std::fs::read_to_string(out).unwrap()
}

fn merge(page: &Path, file: &Path, out: &Path) -> flow::Report {
    flow::merge(page, file, out, &MergeOptions::default()).unwrap()
}

#[test]
fn segmented_extraction_round_trips_untranslated() {
    let work = tempfile::tempdir().unwrap();
    let (mut files, mut segmented_units, mut sentences) = (0, 0, 0);
    let mut failures = Vec::new();
    for page in pages() {
        let original = std::fs::read(&page).unwrap();
        for ext in ["xlf", "po"] {
            let file = work.path().join(format!("t.{ext}"));
            let out = work.path().join("out.html");
            let text = extract(&page, &file, "en");
            if ext == "xlf" {
                segmented_units += text.matches("<segment id=\"s2\"").count();
                sentences += text.matches("<segment id=\"s").count();
            }
            merge(&page, &file, &out);
            if std::fs::read(&out).unwrap() != original {
                failures.push(format!("{} ({ext})", page.display()));
            }
        }
        files += 1;
    }
    println!(
        "{files} pages: byte-identical {}/{}, {segmented_units} units cut into {sentences} sentences",
        2 * files - failures.len(),
        2 * files
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(files >= 24 && segmented_units > 10);
}

/// The pseudo-translation of a segment's or entry's source text as it is in the file
/// (tagloom's accents, `pseudo::pseudo_text`): markup (`<pc …>`, `<1>`), references
/// (`&amp;`) and escapes (`\"`) kept.
fn pseudo_markup(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '<' | '&' => {
                let end = if c == '<' { '>' } else { ';' };
                out.push(c);
                for d in chars.by_ref() {
                    out.push(d);
                    if d == end {
                        break;
                    }
                }
            }
            '\\' => {
                out.push(c);
                out.extend(chars.next());
            }
            c => out.push_str(&tagloom_l10n::pseudo::pseudo_text(&c.to_string(), false)),
        }
    }
    out
}

/// Each sentence pseudo-translated (accents, `[…]`) in an XLIFF or PO file.
fn pseudo_translate(file: &str, ext: &str) -> String {
    match ext {
        "xlf" => translate_segments_with(file, pseudo_markup),
        _ => translate_entries_with(file, pseudo_markup),
    }
}

/// A pseudo-translation of each `<segment>`'s source (`[…]`, codes kept).
fn translate_segments(xlf: &str) -> String {
    translate_segments_with(xlf, str::to_string)
}

fn translate_segments_with(xlf: &str, f: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = xlf;
    while let Some(at) = rest.find("<segment") {
        let end = rest[at..].find("</source>").unwrap() + at;
        let inner_at = rest[at..].find("<source>").unwrap() + at + "<source>".len();
        out.push_str(&rest[..end + "</source>".len()]);
        out.push_str(&format!("<target>[{}]</target>", f(&rest[inner_at..end])));
        rest = &rest[end + "</source>".len()..];
    }
    out.push_str(rest);
    out
}

/// A pseudo-translation of each PO entry (`[…]`, markers kept).
fn translate_entries(po: &str) -> String {
    translate_entries_with(po, str::to_string)
}

fn translate_entries_with(po: &str, f: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut id = String::new();
    for line in po.lines() {
        if let Some(v) = line.strip_prefix("msgid \"") {
            id = v.strip_suffix('"').unwrap().to_string();
        }
        if line == "msgstr \"\"" && !id.is_empty() {
            out.push_str(&format!("msgstr \"[{}]\"\n", f(&id)));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn translated(page: &Path, source: &str, ext: &str) -> (String, String, flow::Report) {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join(format!("t.{ext}"));
    let text = extract(page, &file, source);
    let filled = match ext {
        "xlf" => translate_segments(&text),
        _ => translate_entries(&text),
    };
    std::fs::write(&file, &filled).unwrap();
    let out = work.path().join("out.html");
    let report = merge(page, &file, &out);
    (text, std::fs::read_to_string(&out).unwrap(), report)
}

#[test]
fn english_sentences_land_in_place_xliff_and_po() {
    for ext in ["xlf", "po"] {
        let (file, html, report) = translated(&data("en.html"), "en", ext);
        assert!(!report.partial(), "{ext}: {:?}", report.files[0].issues);
        for expected in [
            // `e.g. the`: no boundary before a lowercase word; `Dr. Smith` inside
            // <a>: the boundary ICU finds there is dropped (codes are never split).
            // The block's whitespace is collapsed, the gap too.
            "<p>[Install the tool first.] [Then run it on a page, e.g. the home page.] \
             [Ask <a href=\"/team\">Dr. Smith</a> if you are stuck!]</p>",
            "<p>[Read <b>the manual. It is short.</b>] [Then translate.]</p>",
            "<p>[Sentences end here.] [<em>This one</em> is emphasized.] [<br>And this one follows a line break.]</p>",
            "<p>[It costs 3.5 euros.] [That is cheap.]</p>",
            "alt=\"[A picture.] [It shows a cat.]\"",
            "<title>[Segmentation sample.] [English.]</title>",
            "<h1>[Getting started]</h1>",
            "<p>[<img src=\"x.png\" alt=\"[A picture.] [It shows a cat.]\"> One sentence only.]</p>",
        ] {
            assert!(html.contains(expected), "{ext}: {expected}\n{html}");
        }
        if ext == "po" {
            assert!(file.contains("msgid \"Install the tool first.\""), "{file}");
            assert!(file.contains("#s2\"\nmsgid \"Then run it on a page, e.g. the home page.\""));
        } else {
            assert!(
                file.contains("<ignorable><source> </source></ignorable>"),
                "{file}"
            );
        }
    }
}

#[test]
fn german_japanese_arabic_sentences_land_in_place() {
    let cases = [
        (
            "de.html",
            "de",
            // UAX #29 knows no abbreviations: a capital after `u. a.` or after an
            // ordinal (`3. Mai`) starts a sentence; `3,5` does not.
            "<p>[Das Werkzeug ist schnell.] [Es liest u. a.] [HTML und XML.] [Fragen Sie uns!]</p>",
        ),
        (
            "de.html",
            "de",
            "<p>[Größe: 3,5 cm.] [Die <i>Lieferung</i> erfolgt am 3.] [Mai.] [Danke.]</p>",
        ),
        (
            "ja.html",
            "ja",
            "<p>[今日は晴れです。][明日は雨でしょう。][傘を持って行きましょう！]</p>",
        ),
        (
            "ja.html",
            "ja",
            "<p>[詳しくは<a href=\"/help\">ヘルプ</a>を読んでください。][質問はありますか？]</p>",
        ),
        (
            "ar.html",
            "ar",
            "<p>[مرحبا بكم في الموقع.] [هل تحتاج إلى مساعدة؟] [نحن هنا دائما.]</p>",
        ),
        (
            "ar.html",
            "ar",
            "<p>[اقرأ <a href=\"/help\">الدليل</a> أولا.] [ثم ابدأ العمل.]</p>",
        ),
    ];
    for (page, lang, expected) in cases {
        for ext in ["xlf", "po"] {
            let (_, html, report) = translated(&data(page), lang, ext);
            assert!(
                !report.partial(),
                "{page} {ext}: {:?}",
                report.files[0].issues
            );
            assert!(html.contains(expected), "{page} {ext}: {expected}\n{html}");
        }
    }
}

#[test]
fn pseudo_translated_sentences_round_trip() {
    let work = tempfile::tempdir().unwrap();
    let page = data("en.html");
    for ext in ["xlf", "po"] {
        let file = work.path().join(format!("t.{ext}"));
        let text = extract(&page, &file, "en");
        std::fs::write(&file, pseudo_translate(&text, ext)).unwrap();
        let out = work.path().join("out.html");
        let report = merge(&page, &file, &out);
        assert!(!report.partial(), "{ext}");
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(
            html.contains("<p>[Îñšţàļļ ţĥé ţööļ fîŕšţ.] [Ţĥéñ ŕûñ îţ öñ à pàĝé, é.ĝ. ţĥé ĥömé pàĝé.] [Âšķ <a href=\"/team\">Ðŕ. Šmîţĥ</a> îf ýöû àŕé šţûçķ!]</p>"),
            "{ext}: {html}"
        );
    }
}

#[test]
fn untranslated_sentences_keep_their_source() {
    let work = tempfile::tempdir().unwrap();
    let page = data("en.html");
    for ext in ["xlf", "po"] {
        let file = work.path().join(format!("t.{ext}"));
        let text = extract(&page, &file, "en");
        // Only the second sentence of one paragraph.
        let filled = if ext == "xlf" {
            text.replace(
                "<source>That is cheap.</source>",
                "<source>That is cheap.</source><target>C'est bon marché.</target>",
            )
        } else {
            text.replace(
                "msgid \"That is cheap.\"\nmsgstr \"\"",
                "msgid \"That is cheap.\"\nmsgstr \"C'est bon marché.\"",
            )
        };
        assert_ne!(filled, text);
        std::fs::write(&file, filled).unwrap();
        let out = work.path().join("out.html");
        let report = merge(&page, &file, &out);
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(
            html.contains("<p>It costs 3.5 euros. C'est bon marché.</p>"),
            "{ext}: {html}"
        );
        assert_eq!(report.files[0].translated, 1, "{ext}");
    }
}

#[test]
fn a_changed_sentence_is_reported_not_merged() {
    let work = tempfile::tempdir().unwrap();
    let page = data("en.html");
    for ext in ["xlf", "po"] {
        let file = work.path().join(format!("t.{ext}"));
        let text = extract(&page, &file, "en");
        let filled = match ext {
            "xlf" => translate_segments(&text),
            _ => translate_entries(&text),
        };
        std::fs::write(&file, filled).unwrap();
        let changed = work.path().join("changed.html");
        let html = std::fs::read_to_string(&page)
            .unwrap()
            .replace("That is cheap.", "That is not cheap.");
        std::fs::write(&changed, html).unwrap();
        let out = work.path().join("out.html");
        let report = merge(&changed, &file, &out);
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(report.partial(), "{ext}");
        // The changed block has a new content id: the page's block is not in the
        // file, the file's unit (both its sentences: one unit) not in the page.
        let issues = &report.files[0].issues;
        assert_eq!(issues.len(), 2, "{ext}: {issues:?}");
        assert!(
            html.contains("<p>It costs 3.5 euros. That is not cheap.</p>"),
            "{ext}: {html}"
        );
        assert!(html.contains("<p>[Install the tool first.]"), "{ext}");
    }
}

/// A unit anchored on its element id keeps its id when a sentence changes: the
/// block keeps its source, one issue names the sentence, and the unit's other
/// sentences are not reported again.
#[test]
fn a_changed_sentence_of_an_id_unit_is_one_issue() {
    let work = tempfile::tempdir().unwrap();
    let page = data("en.html");
    for ext in ["xlf", "po"] {
        let file = work.path().join(format!("t.{ext}"));
        let text = extract(&page, &file, "en");
        assert!(text.contains("id.tour"), "{text}");
        let filled = match ext {
            "xlf" => translate_segments(&text),
            _ => translate_entries(&text),
        };
        std::fs::write(&file, filled).unwrap();
        let changed = work.path().join("changed.html");
        let html = std::fs::read_to_string(&page)
            .unwrap()
            .replace("Enjoy the tour.", "Enjoy it.");
        std::fs::write(&changed, html).unwrap();
        let out = work.path().join("out.html");
        let report = merge(&changed, &file, &out);
        let issues = &report.files[0].issues;
        assert_eq!(issues.len(), 1, "{ext}: {issues:?}");
        assert!(issues[0].id.starts_with("id.tour"), "{ext}: {issues:?}");
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(
            html.contains("<p id=\"tour\">Welcome here. Enjoy it. Bye.</p>"),
            "{ext}: {html}"
        );
    }
}

/// The XLIFF 2.1 core content model the segmented units must keep: `<unit>` holds
/// `<notes>?`, `<originalData>?`, then one or more `<segment>`/`<ignorable>`; each
/// of those `<source>` then `<target>?`; segment ids unique in the unit and distinct
/// from the inline codes' ids; an `<ignorable>` holds whitespace only; inline codes
/// never cross a segment (the XML would not be well-formed otherwise).
#[test]
fn segmented_xliff_keeps_the_core_content_model() {
    let work = tempfile::tempdir().unwrap();
    for page in pages() {
        let file = work.path().join("t.xlf");
        let text = extract(&page, &file, "en");
        let mut reader = quick_xml::Reader::from_str(&text);
        let mut stack: Vec<String> = Vec::new();
        let mut children: Vec<Vec<String>> = Vec::new();
        let mut ids: Vec<String> = Vec::new();
        let mut ignorable_text = String::new();
        loop {
            use quick_xml::events::Event;
            let event = reader.read_event().expect("well-formed");
            match &event {
                Event::Start(e) | Event::Empty(e) => {
                    let name = String::from_utf8(e.local_name().as_ref().to_vec()).unwrap();
                    if let Some(c) = children.last_mut() {
                        c.push(name.clone());
                    }
                    if let Ok(Some(id)) = e.try_get_attribute("id")
                        && stack.iter().any(|s| s == "unit")
                    {
                        ids.push(String::from_utf8(id.value.to_vec()).unwrap());
                    }
                    if name == "unit" {
                        ids.clear();
                    }
                    if matches!(event, Event::Start(_)) {
                        stack.push(name);
                        children.push(Vec::new());
                    }
                }
                Event::Text(t) if stack.iter().any(|s| s == "ignorable") => {
                    ignorable_text.push_str(&t.decode().unwrap());
                }
                Event::End(_) => {
                    let name = stack.pop().unwrap();
                    let kids = children.pop().unwrap();
                    let order = |allowed: &[&str]| {
                        let mut at = 0;
                        for k in &kids {
                            let k = if k == "ignorable" {
                                "segment"
                            } else {
                                k.as_str()
                            };
                            while at < allowed.len() && allowed[at] != k {
                                at += 1;
                            }
                            assert!(at < allowed.len(), "{name}: {kids:?} in {}", page.display());
                        }
                    };
                    match name.as_str() {
                        "unit" => {
                            order(&["notes", "originalData", "segment"]);
                            let mut sorted = ids.clone();
                            sorted.sort();
                            sorted.dedup();
                            assert_eq!(sorted.len(), ids.len(), "{ids:?}");
                        }
                        "segment" | "ignorable" => {
                            assert_eq!(kids.first().map(String::as_str), Some("source"));
                            assert!(kids.len() <= 2);
                        }
                        _ => {}
                    }
                    if name == "ignorable" {
                        assert!(ignorable_text.chars().all(char::is_whitespace));
                        ignorable_text.clear();
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        assert!(stack.is_empty());
    }
}

/// `update` matches sentence by sentence: an edited sentence becomes a fuzzy
/// suggestion, its neighbours in the same unit keep their translations, and the
/// merge of the updated file puts them in place.
#[test]
fn update_carries_sentences_over() {
    use tagloom_l10n::update::{UpdateOptions, update};
    let work = tempfile::tempdir().unwrap();
    let page = data("en.html");
    let changed = work.path().join("changed.html");
    let html = std::fs::read_to_string(&page)
        .unwrap()
        .replace("That is cheap.", "That is not cheap.")
        .replace(
            "<p>Read <b>",
            "<p>Brand new paragraph. Really.</p>\n<p>Read <b>",
        );
    std::fs::write(&changed, html).unwrap();
    let options = UpdateOptions {
        common: segmented_common(),
        ..UpdateOptions::default()
    };
    for ext in ["xlf", "po"] {
        let old = work.path().join(format!("old.{ext}"));
        let text = extract(&page, &old, "en");
        let filled = match ext {
            "xlf" => translate_segments(&text),
            _ => translate_entries(&text),
        };
        std::fs::write(&old, filled).unwrap();
        let new = work.path().join(format!("new.{ext}"));
        let report = update(&changed, &old, &new, &options).unwrap();
        let c = report.total();
        assert_eq!(
            (c.fuzzy.units, c.new.units, c.removed.units),
            (1, 2, 0),
            "{ext}: {c:?}"
        );
        assert_eq!(c.carried, c.unchanged.units, "{ext}");
        let new_text = std::fs::read_to_string(&new).unwrap();
        if ext == "xlf" {
            assert!(
                new_text.contains("<note category=\"update-old-source\">s2: That is cheap.</note>"),
                "{new_text}"
            );
            assert!(new_text.contains("<segment id=\"s1\" state=\"translated\"><source>It costs 3.5 euros.</source><target>[It costs 3.5 euros.]</target></segment>"), "{new_text}");
        } else {
            assert!(
                new_text.contains("#| msgid \"That is cheap.\""),
                "{new_text}"
            );
        }
        let out = work.path().join("out.html");
        let merged = merge(&changed, &new, &out);
        assert!(!merged.partial(), "{ext}: {:?}", merged.files[0].issues);
        let html = std::fs::read_to_string(&out).unwrap();
        for expected in [
            "<p>[It costs 3.5 euros.] That is not cheap.</p>",
            "<p>Brand new paragraph. Really.</p>",
            "<p>[Read <b>the manual. It is short.</b>] [Then translate.]</p>",
        ] {
            assert!(html.contains(expected), "{ext}: {expected}\n{html}");
        }
    }
}

/// `count` counts sentences as units when segmenting, the same words either way,
/// on the page and on its extracted files.
#[test]
fn count_counts_sentences() {
    use tagloom_l10n::count::count_file;
    let work = tempfile::tempdir().unwrap();
    let page = data("en.html");
    let segmented = count_file(&page, &segmented_common().rules).unwrap();
    let whole = count_file(&page, &Rules::default()).unwrap();
    assert_eq!(segmented.words, whole.words);
    assert_eq!(segmented.chars, whole.chars);
    assert!(segmented.units > whole.units, "{segmented:?} {whole:?}");
    for ext in ["xlf", "po"] {
        let file = work.path().join(format!("t.{ext}"));
        extract(&page, &file, "en");
        let c = count_file(&file, &Rules::default()).unwrap();
        assert_eq!(c, segmented, "{ext}");
    }
}

/// Every sentence of every page pseudo-translated (accents, `[…]`), XLIFF and PO:
/// every block is translated, no issue — the sentences always make up their block
/// again.
#[test]
fn every_sentence_of_every_page_merges() {
    let work = tempfile::tempdir().unwrap();
    let (mut blocks, mut failures) = (0, Vec::new());
    for page in pages() {
        for ext in ["xlf", "po"] {
            let file = work.path().join(format!("t.{ext}"));
            let text = extract(&page, &file, "en");
            std::fs::write(&file, pseudo_translate(&text, ext)).unwrap();
            let out = work.path().join("out.html");
            let report = merge(&page, &file, &out);
            let f = &report.files[0];
            if report.partial() || f.translated != f.blocks {
                failures.push(format!(
                    "{} ({ext}): {}/{} translated, {:?}",
                    page.display(),
                    f.translated,
                    f.blocks,
                    f.issues.iter().take(3).collect::<Vec<_>>()
                ));
            }
            blocks += f.blocks;
        }
    }
    println!("{blocks} blocks translated sentence by sentence");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The re-parse fallback (the skeleton store forced to fail) merges sentences the
/// same way: it asks the same translations for the same blocks.
#[test]
fn sentences_merge_through_the_reparse_fallback() {
    let work = tempfile::tempdir().unwrap();
    let page = data("en.html");
    for ext in ["xlf", "po"] {
        let file = work.path().join(format!("t.{ext}"));
        let text = extract(&page, &file, "en");
        std::fs::write(&file, translate_entries_or_segments(&text, ext)).unwrap();
        let out = work.path().join("out.html");
        let options = MergeOptions {
            common: Common {
                skeleton_limit: Some(0),
                ..Common::default()
            },
            ..MergeOptions::default()
        };
        let report = flow::merge(&page, &file, &out, &options).unwrap();
        let f = &report.files[0];
        assert!(f.is_fallback(), "{ext}");
        assert!(!report.partial(), "{ext}: {:?}", f.issues);
        assert_eq!(f.translated, f.blocks, "{ext}");
        let html = std::fs::read_to_string(&out).unwrap();
        assert!(
            html.contains("<p>[It costs 3.5 euros.] [That is cheap.]</p>"),
            "{ext}: {html}"
        );
    }
}

fn translate_entries_or_segments(text: &str, ext: &str) -> String {
    match ext {
        "xlf" => translate_segments(text),
        _ => translate_entries(text),
    }
}
