//! `tagloom wiki --dump`: every page of a small dump rendered into a directory
//! (templates and red links from the same dump), file names, the summary, and
//! per-page errors that do not stop the run.

mod support;

use std::path::Path;
use support::tagloom;

/// A dump of `pages` (title, namespace, wikitext; the text XML-escaped here).
fn write_dump(path: &Path, pages: &[(&str, i32, &str)]) {
    let mut xml = String::from(
        "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.11/\" version=\"0.11\">\n",
    );
    for (title, ns, text) in pages {
        let text = text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        xml.push_str(&format!(
            "  <page>\n    <title>{title}</title>\n    <ns>{ns}</ns>\n    <id>1</id>\n    \
             <revision>\n      <id>1</id>\n      <text xml:space=\"preserve\">{text}</text>\n    \
             </revision>\n  </page>\n"
        ));
    }
    xml.push_str("</mediawiki>\n");
    std::fs::write(path, xml).expect("write dump");
}

fn run(args: &[&str]) -> (i32, String) {
    let out = tagloom().args(args).output().expect("run tagloom");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn renders_every_page_with_templates_from_the_dump() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dump = tmp.path().join("wiki.xml");
    let out = tmp.path().join("out");
    write_dump(
        &dump,
        &[
            (
                "Template:Greet",
                10,
                "Hi {{{1|there}}}<noinclude> (doc)</noinclude>",
            ),
            ("Alpha", 0, "{{greet|you}} [[Beta]] [[Gamma]] {{PAGENAME}}"),
            ("Beta", 0, "''b'' & [[Alpha|back]]"),
            ("Help:A/b c?", 12, "== H =="),
        ],
    );
    let (code, err) = run(&[
        "wiki",
        "--dump",
        dump.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
        "--time",
        "1970-01-01T00:02:03Z",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wiki: 4 page(s), 0 error(s)"), "{err}");
    assert!(err.contains("MB/s"), "{err}");

    let alpha = read(&out, "Alpha.html");
    assert!(alpha.contains(">Hi you</span>"), "{alpha}");
    assert!(alpha.contains(">Alpha</span>"), "PAGENAME: {alpha}");
    assert!(alpha.contains("href=\"./Beta\""), "Beta exists: {alpha}");
    assert!(
        alpha.contains("href=\"./Gamma?action=edit&amp;redlink=1\""),
        "Gamma is red: {alpha}"
    );
    assert_eq!(read(&out, "Beta.html").matches("class=\"new\"").count(), 0);
    // The template page's own `{{{1|there}}}` is a Parsoid mw:Param span.
    let greet = read(&out, "Template%3AGreet.html");
    assert!(
        greet.contains("<p>Hi <span") && greet.contains(">there</span>"),
        "{greet}"
    );
    // Titles are percent-encoded as `--templates DIR` names them.
    assert!(read(&out, "Help%3AA%2Fb_c%3F.html").contains("<h2"));
    assert_eq!(std::fs::read_dir(&out).expect("out dir").count(), 4);
}

#[test]
fn a_bad_page_is_reported_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dump = tmp.path().join("wiki.xml");
    let out = tmp.path().join("out");
    write_dump(
        &dump,
        &[
            ("Good", 0, "fine"),
            ("Bad{title}", 0, "x"),
            ("Also good", 0, "ok"),
        ],
    );
    let (code, err) = run(&[
        "wiki",
        "--dump",
        dump.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("tagloom: error: Bad{title}: invalid title"),
        "{err}"
    );
    assert!(err.contains("wiki: 3 page(s), 1 error(s)"), "{err}");
    assert_eq!(read(&out, "Good.html"), "<p>fine</p>");
    assert_eq!(read(&out, "Also_good.html"), "<p>ok</p>");
}

#[test]
fn usage_errors_exit_2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dump = tmp.path().join("wiki.xml");
    write_dump(&dump, &[("A", 0, "a")]);
    let dump = dump.to_str().expect("utf-8");
    // No output directory.
    let (code, err) = run(&["wiki", "--dump", dump]);
    assert_eq!(code, 2);
    assert!(err.starts_with("tagloom: error:"), "{err}");
    // An input file and a dump.
    let (code, err) = run(&["wiki", "page.wikitext", "--dump", dump, "-o", "x"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("tagloom: error:"), "{err}");
    // A missing dump.
    let missing = tmp.path().join("none.xml");
    let out = tmp.path().join("out");
    let (code, err) = run(&[
        "wiki",
        "--dump",
        missing.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read the dump"), "{err}");
    assert!(!out.exists(), "no output directory for a failed run");
}

/// `--keep-mb 0` reads the dump twice (streamed) instead of holding its pages:
/// the same files come out.
#[test]
fn reading_twice_gives_the_same_pages_as_holding_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dump = tmp.path().join("wiki.xml");
    write_dump(
        &dump,
        &[
            ("Template:T", 10, "[[{{{1}}}]]"),
            ("One", 0, "{{T|Two}} {{T|Three}}"),
            ("Two", 0, "'''two''' [[One]]"),
        ],
    );
    let mut outputs = Vec::new();
    for keep in ["1024", "0"] {
        let out = tmp.path().join(format!("out-{keep}"));
        let (code, err) = run(&[
            "wiki",
            "--dump",
            dump.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
            "--keep-mb",
            keep,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("wiki: 3 page(s), 0 error(s)"), "{err}");
        outputs.push(["One.html", "Two.html", "Template%3AT.html"].map(|n| read(&out, n)));
    }
    assert!(
        outputs[0][0].contains("href=\"./Two\""),
        "{}",
        outputs[0][0]
    );
    assert!(
        outputs[0][0].contains("class=\"new\""),
        "Three is red: {}",
        outputs[0][0]
    );
    assert_eq!(outputs[0], outputs[1]);
}
