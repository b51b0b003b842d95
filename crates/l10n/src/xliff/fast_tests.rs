//! The fast path (`fast.rs`) against the general reader: the same units and the
//! same errors on every file, and the fast path really reads the files we write.

use std::path::Path;

use super::XliffReader;

/// Every unit of `path` (or the error that stopped the read), and whether the
/// fast path read the whole file.
fn read_all(path: &Path, general: bool, scan: bool) -> (Vec<String>, bool) {
    let mut reader = XliffReader::open(path).unwrap();
    if general {
        reader = reader.general_only();
    }
    if scan {
        reader = reader.scanning();
    }
    let mut out = Vec::new();
    loop {
        match reader.next_unit() {
            Ok(Some(unit)) => out.push(format!("{unit:?}")),
            Ok(None) => break,
            Err(e) => {
                out.push(format!("error: {e}"));
                break;
            }
        }
    }
    out.push(format!("{:?}", reader.header()));
    (out, reader.on_fast_path())
}

/// Reads `path` both ways (and both modes) and checks they agree; whether the
/// fast path read it all.
fn agree(path: &Path) -> bool {
    let mut fast_all = true;
    for scan in [false, true] {
        let (general, _) = read_all(path, true, scan);
        let (fast, fast_read) = read_all(path, false, scan);
        assert_eq!(fast, general, "{} (scan: {scan})", path.display());
        fast_all &= fast_read;
    }
    fast_all
}

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\" trgLang=\"fr\">\n <file id=\"f1\" original=\"a.html\" xml:space=\"preserve\">\n";
const TAIL: &str = " </file>\n</xliff>\n";

fn file(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    path
}

#[test]
fn fast_and_general_readers_agree() {
    let dir = tempfile::tempdir().unwrap();
    let unit = |id: &str, inner: &str| {
        format!("  <unit id=\"{id}\" name=\"/p[1]\">\n{inner}\n  </unit>\n")
    };
    let ours = [
        unit("a", "   <segment><source>Hello &amp; &lt;b&gt; &#13;&#x41;</source></segment>"),
        unit(
            "b",
            "   <notes><note category=\"comment\">a &lt;comment&gt;</note></notes>\n   \
             <originalData><data id=\"d1\">&lt;b class=\"x\"&gt;</data><data id=\"d2\">&lt;/b&gt;</data>\
             <data id=\"d3\">&lt;br<cp hex=\"0001\"/>&gt;</data></originalData>\n   \
             <segment state=\"translated\"><source>x <pc id=\"1\" dataRefStart=\"d1\" dataRefEnd=\"d2\">bold</pc><ph id=\"2\" dataRef=\"d3\"/> <cp hex=\"000C\"/></source>\
             <target><pc id=\"1\" dataRefStart=\"d1\" dataRefEnd=\"d2\">gras</pc><ph id=\"2\"/></target></segment>",
        ),
        unit("c", "   <segment state=\"initial\"><source>c</source><target>C</target></segment>"),
        unit("d", "   <segment><source>d</source><target></target></segment>"),
        unit(
            "e",
            "   <segment><source><sc id=\"3\" dataRef=\"d9\"/>e<ec startRef=\"3\"/><pc id=\"x\"/></source><target>&apos;é&quot;</target></segment>",
        ),
    ]
    .concat();
    // Files the fast path reads whole.
    for (name, body) in [
        ("ours.xlf", format!("{HEAD}{ours}{TAIL}")),
        ("empty.xlf", format!("{HEAD}{TAIL}")),
    ] {
        assert!(agree(&file(dir.path(), name, &body)), "{name}: declined");
    }
    // Files it declines at some unit (or at once): the general reader's units and
    // errors all the same.
    let suggestion = unit(
        "s",
        "   <notes><note category=\"update-old-source\">x</note></notes>\n   <segment><source>s</source></segment>",
    );
    let segmented = unit(
        "g",
        "   <segment id=\"s1\"><source>One.</source></segment><ignorable><source> </source></ignorable><segment id=\"s2\"><source>Two.</source></segment>",
    );
    let declined = [
        format!("{HEAD}{ours}{suggestion}{TAIL}"),
        format!("{HEAD}{ours}{segmented}{ours}{TAIL}"),
        format!("{HEAD}{ours}<!-- c -->{ours}{TAIL}"),
        format!(
            "{HEAD}{ours}  <unit id=\"m\"><segment><source>a<mrk id=\"1\">b</mrk></source></segment></unit>{TAIL}"
        ),
        format!(
            "{HEAD}{ours}  <unit id=\"bad\"><segment><source>a &nbsp; b</source></segment></unit>{TAIL}"
        ),
        format!(
            "{HEAD}{ours}  <unit id=\"bad\"><segment><source>a</target></segment></unit>{TAIL}"
        ),
        format!("{HEAD}{ours}  <unit id=\"cut\"><segment><source>a"),
        format!("{HEAD}{ours}"),
        format!("{HEAD}{ours}{TAIL}<x/>"),
        format!(
            "{HEAD}{ours}  <unit name=\"no id\"><segment><source>a</source></segment></unit>{TAIL}"
        ),
        format!(
            "{HEAD}{ours}  <unit id=\"q\"><segment><source>a\r\nb</source></segment></unit>{TAIL}"
        ),
        ours.replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", ""),
        format!("<xliff version=\"2.0\" srcLang=\"en\"><file id=\"f\">{ours}</file></xliff>"),
        HEAD.replace("version=\"2.1\"", "version=\"1.2\"") + &ours + TAIL,
        HEAD.replace("trgLang=\"fr\"", "trgLang=\"not a tag!\"") + &ours + TAIL,
    ];
    // Data ids the fast path numbers only in the writer's form, each named once.
    let data = |ids: [&str; 2], refs: [&str; 2]| {
        unit(
            "data",
            &format!(
                "   <originalData><data id=\"{}\">&lt;i&gt;</data><data id=\"{}\">&lt;/i&gt;</data></originalData>\n   \
                 <segment><source><pc id=\"1\" dataRefStart=\"{}\" dataRefEnd=\"{}\">i</pc></source></segment>",
                ids[0], ids[1], refs[0], refs[1]
            ),
        )
    };
    let declined_data = [
        data(["d01", "d2"], ["d01", "d2"]),
        data(["d1", "d2"], ["d1", "d1"]),
        data(["x1", "d2"], ["x1", "d2"]),
        data(["d&#49;", "d2"], ["d1", "d2"]),
        data(["d1", "d99999999"], ["d1", "d99999999"]),
    ];
    let declined = declined.into_iter().chain(
        declined_data
            .iter()
            .map(|u| format!("{HEAD}{ours}{u}{ours}{TAIL}")),
    );
    for (i, body) in declined.enumerate() {
        agree(&file(dir.path(), &format!("declined-{i}.xlf"), &body));
    }
    // The writer's data ids, duplicated (the last wins) or absent: read whole.
    for (name, u) in [
        ("dup.xlf", data(["d1", "d1"], ["d1", "d2"])),
        ("absent.xlf", data(["d3", "d4"], ["d1", "d2"])),
        ("plain.xlf", data(["d1", "d2"], ["d1", "d2"])),
    ] {
        let body = format!("{HEAD}{ours}{u}{TAIL}");
        assert!(agree(&file(dir.path(), name, &body)), "{name}: declined");
    }
}

/// The XLIFF `extract` writes for the l10n samples, as is and with every unit
/// translated, plain and cut into sentences: read whole by the fast path except
/// the sentence files, with the general reader's units.
#[test]
fn extracted_files_take_the_fast_path() {
    use crate::flow::{ExtractOptions, extract};
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/l10n-samples");
    let dir = tempfile::tempdir().unwrap();
    let mut read = 0;
    for entry in std::fs::read_dir(&samples).unwrap() {
        let page = entry.unwrap().path();
        if !page
            .extension()
            .is_some_and(|e| e == "html" || e == "phtml")
        {
            continue;
        }
        for sentences in [false, true] {
            let xlf = dir.path().join("x.xlf");
            let mut options = ExtractOptions::new("en", Some("fr")).unwrap();
            if sentences {
                let mut rules = (*options.common.rules).clone();
                rules.segment = crate::segment::Segmentation::Sentences;
                options.common.rules = std::sync::Arc::new(rules);
            }
            extract(&page, &xlf, &options).unwrap();
            let text = std::fs::read_to_string(&xlf).unwrap();
            let translated = text.replace("</source>", "</source><target>T</target>");
            let t = file(dir.path(), "t.xlf", &translated);
            let whole = agree(&xlf) & agree(&t);
            let segmented = text.contains("<segment id=");
            assert_eq!(whole, !segmented, "{}", page.display());
            read += 1;
        }
    }
    assert!(read >= 40, "{read} files read");
}

/// A file we wrote without any target is read once (the merge has nothing to
/// take from it); another producer's, or one with a target, is read again.
#[test]
fn only_an_untranslated_file_read_whole_is_not_read_again() {
    use super::XliffTranslations;
    let dir = tempfile::tempdir().unwrap();
    let unit = "  <unit id=\"a\">\n   <segment><source>a</source></segment>\n  </unit>\n";
    let ours = file(dir.path(), "ours.xlf", &format!("{HEAD}{unit}{TAIL}"));
    assert!(XliffTranslations::open(&ours).unwrap().untranslated);
    let other = file(
        dir.path(),
        "other.xlf",
        &format!("<xliff version=\"2.1\" srcLang=\"en\"><file id=\"f\">{unit}</file></xliff>"),
    );
    assert!(!XliffTranslations::open(&other).unwrap().untranslated);
    let initial = unit
        .replace("<segment>", "<segment state=\"initial\">")
        .replace("</source>", "</source><target>A</target>");
    let initial = file(dir.path(), "initial.xlf", &format!("{HEAD}{initial}{TAIL}"));
    assert!(!XliffTranslations::open(&initial).unwrap().untranslated);
}

/// A `<unit` cut by the end of a read (its `<` the last byte read, or any of its
/// first letters) is still read by the fast path: it used to decline there and
/// hand the rest of the file (most of a large one) to the general reader.
#[test]
fn a_unit_cut_by_the_end_of_a_read_stays_on_the_fast_path() {
    let dir = tempfile::tempdir().unwrap();
    let unit = "  <unit id=\"a\">\n   <segment><source>a</source></segment>\n  </unit>\n";
    for cut in 0..=6 {
        // The second unit's `<` lands `cut` bytes before the end of the first read.
        let pad = super::fast::CHUNK - cut - HEAD.len() - unit.len() - 2;
        let body = format!(
            "{HEAD}{unit}{}{}{TAIL}",
            " ".repeat(pad),
            unit.replace("\"a\"", "\"b\"")
        );
        assert_eq!(
            body.find("<unit id=\"b\"").unwrap(),
            super::fast::CHUNK - cut
        );
        let path = file(dir.path(), "cut.xlf", &body);
        assert!(agree(&path), "cut {cut}");
    }
}

#[test]
fn characters_cut_by_the_end_of_a_read_and_bytes_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    // A unit, its text long enough to cross the end of the first read, with
    // multibyte characters at every offset around it: read on the fast path.
    let text = "é€😀".repeat(super::fast::CHUNK / 9 + 8);
    for shift in 0..4 {
        let unit = format!(
            "  <unit id=\"a\">\n   <segment><source>{}{text}</source><target>{text}</target></segment>\n  </unit>\n",
            "x".repeat(shift)
        );
        let path = file(dir.path(), "cut.xlf", &format!("{HEAD}{unit}{TAIL}"));
        assert!(agree(&path), "shift {shift}");
    }
    // Bytes that are not UTF-8: declined, the general reader says what they are.
    let mut bytes = format!("{HEAD}  <unit id=\"a\">\n   <segment><source>a").into_bytes();
    bytes.extend_from_slice(b"\xff</source></segment>\n  </unit>\n");
    bytes.extend_from_slice(TAIL.as_bytes());
    let path = dir.path().join("bad.xlf");
    std::fs::write(&path, bytes).unwrap();
    assert!(!agree(&path));
}
