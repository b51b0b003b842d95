//! Acceptance 3: XLIFF output is well-formed XLIFF 2.1 core, and hand-written
//! translations (with inline codes) land in the right places. Also PO, and the
//! rejection of broken inline codes.

mod support;

use support::{extract_opts, merge_opts};

use std::path::Path;

use tagloom_l10n::flow::{self, MergeOptions, PartialMerge};

const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Welcome</title>
<meta name="description" content="A small page"></head>
<body>
<!-- The greeting -->
<h1 id="hello">Hello <b>big</b> world</h1>
<p>Read <a href="/doc" title="The docs">the manual</a> now.<br>Thanks &amp; bye.</p>
<p><img src="logo.png" alt="Our logo"></p>
<p lang="de">Hallo</p>
</body></html>
"#;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn fill_targets(xlf: &str, targets: &[(&str, &str)]) -> String {
    let mut out = xlf.to_string();
    for (id, target) in targets {
        let unit = format!("<unit id=\"{id}\"");
        let at = out
            .find(&unit)
            .unwrap_or_else(|| panic!("no unit {id} in\n{xlf}"));
        let end = at + out[at..].find("</source>").unwrap() + "</source>".len();
        out.insert_str(end, &format!("<target>{target}</target>"));
    }
    out
}

#[test]
fn xliff_is_well_formed_2_1_core() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "page.html", PAGE);
    let xlf = dir.path().join("page.xlf");
    flow::extract(&page, &xlf, &extract_opts()).unwrap();
    let text = std::fs::read_to_string(&xlf).unwrap();
    // Well-formed: a full pass of an XML parser, tracking balance.
    let mut reader = quick_xml::Reader::from_str(&text);
    let mut depth = 0i32;
    let mut units = Vec::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            quick_xml::events::Event::Start(e) => {
                depth += 1;
                if e.local_name().as_ref() == b"unit" {
                    units.push(
                        String::from_utf8(
                            e.try_get_attribute("id").unwrap().unwrap().value.to_vec(),
                        )
                        .unwrap(),
                    );
                }
            }
            quick_xml::events::Event::End(_) => depth -= 1,
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0);
    assert!(text.contains(r#"<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="fr">"#));
    assert!(
        text.contains(r#"<pc id="1" dataRefStart="d2" dataRefEnd="d4">big</pc>"#),
        "{text}"
    );
    assert!(text.contains(r#"<note category="comment">The greeting</note>"#));
    assert!(text.contains("<data id=\"d2\">&lt;a href=\"/doc\" title=\"The docs\"&gt;</data>"));
    // Unit ids are unique.
    let mut sorted = units.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), units.len());
    println!("units: {units:?}");
    assert_eq!(units.len(), 7);
}

#[test]
fn hand_translated_xliff_lands_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "page.html", PAGE);
    let xlf = dir.path().join("page.xlf");
    flow::extract(&page, &xlf, &extract_opts()).unwrap();
    let text = std::fs::read_to_string(&xlf).unwrap();
    let translated = fill_targets(
        &text,
        &[
            ("html-1.head-1.title-1", "Bienvenue"),
            ("html-1.head-1.meta-2:content", "Une petite page \"citée\""),
            ("id.hello", "Bonjour le <pc id=\"1\">grand</pc> monde"),
            (
                "html-1.body-1.p-1",
                "Lisez <pc id=\"1\">le manuel</pc> maintenant.<ph id=\"2\"/>Merci &amp; au revoir &lt;3\u{a0}!",
            ),
            ("html-1.body-1.p-1.a-1:title", "La doc"),
            ("html-1.body-1.p-2.img-1:alt", "Notre logo"),
        ],
    );
    let xlf_fr = write(dir.path(), "page.fr.xlf", &translated);
    let out = dir.path().join("page.fr.html");
    let report = flow::merge(&page, &xlf_fr, &out, &merge_opts()).unwrap();
    let html = std::fs::read_to_string(&out).unwrap();
    let expected = r#"<!DOCTYPE html>
<html lang="fr">
<head><meta charset="utf-8"><title>Bienvenue</title>
<meta name="description" content="Une petite page &quot;citée&quot;"></head>
<body>
<!-- The greeting -->
<h1 id="hello">Bonjour le <b>grand</b> monde</h1>
<p>Lisez <a href="/doc" title="La doc">le manuel</a> maintenant.<br>Merci &amp; au revoir &lt;3&nbsp;!</p>
<p><img src="logo.png" alt="Notre logo"></p>
<p lang="de">Hallo</p>
</body></html>
"#;
    assert_eq!(html, expected);
    assert!(report.files[0].issues.is_empty());
    println!("merged {} translated blocks", report.translated());
}

#[test]
fn broken_codes_are_reported_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "page.html", PAGE);
    let xlf = dir.path().join("page.xlf");
    flow::extract(&page, &xlf, &extract_opts()).unwrap();
    let text = std::fs::read_to_string(&xlf).unwrap();
    let translated = fill_targets(
        &text,
        &[
            ("id.hello", "Bonjour monde"), // code lost
            (
                "html-1.body-1.p-1",
                "<ph id=\"2\"/><ph id=\"2\"/><pc id=\"1\">x</pc>",
            ), // duplicated
        ],
    );
    let xlf_fr = write(dir.path(), "bad.xlf", &translated);
    let out = dir.path().join("out.html");
    let report = flow::merge(&page, &xlf_fr, &out, &merge_opts()).unwrap();
    let issues: Vec<_> = report.issues().map(|(_, i)| i.id.clone()).collect();
    assert_eq!(issues, ["id.hello", "html-1.body-1.p-1"]);
    // The blocks kept their source.
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<h1 id=\"hello\">Hello <b>big</b> world</h1>"));
    // Strict mode: an error, and no output file.
    let strict_out = dir.path().join("strict.html");
    let opts = MergeOptions {
        partial: PartialMerge::Fail,
        ..merge_opts()
    };
    assert!(flow::merge(&page, &xlf_fr, &strict_out, &opts).is_err());
    assert!(!strict_out.exists());
}

#[test]
fn po_round_trip_with_translation() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "page.html", PAGE);
    let po = dir.path().join("page.po");
    flow::extract(&page, &po, &extract_opts()).unwrap();
    let text = std::fs::read_to_string(&po).unwrap();
    assert!(
        text.contains("msgctxt \"id.hello\"\nmsgid \"Hello <1>big</1> world\"\nmsgstr \"\""),
        "{text}"
    );
    let text = text.replace(
        "msgid \"Hello <1>big</1> world\"\nmsgstr \"\"",
        "msgid \"Hello <1>big</1> world\"\nmsgstr \"Salut <1>grand</1> monde\"",
    );
    let po_fr = write(dir.path(), "fr.po", &text);
    let out = dir.path().join("out.html");
    flow::merge(&page, &po_fr, &out, &merge_opts()).unwrap();
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("<h1 id=\"hello\">Salut <b>grand</b> monde</h1>"),
        "{html}"
    );
    assert!(html.contains("<html lang=\"fr\">"));
}
