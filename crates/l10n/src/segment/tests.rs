use super::*;

fn text(s: &str) -> Run {
    Run::Text(s.into())
}
fn open(id: u32) -> Run {
    Run::Open {
        id,
        data: format!("<b id={id}>"),
    }
}
fn close(id: u32) -> Run {
    Run::Close {
        id,
        data: "</b>".into(),
    }
}
fn ph(id: u32) -> Run {
    Run::Placeholder {
        id,
        data: "<br>".into(),
    }
}
fn sentence(runs: &[Run]) -> Piece {
    Piece::Sentence(runs.to_vec())
}
fn gap(s: &str) -> Piece {
    Piece::Gap(s.into())
}
fn lang(tag: &str) -> Segmenter {
    Segmenter::new(&LanguageTag::parse(tag).unwrap())
}
/// The pieces joined again: always the unit's runs.
fn joined(pieces: &[Piece]) -> String {
    let mut out = String::new();
    for p in pieces {
        match p {
            Piece::Gap(g) => out.push_str(g),
            Piece::Sentence(runs) => out.push_str(&crate::po::runs_to_text(runs)),
        }
    }
    out
}

#[test]
fn english_sentences_with_gaps() {
    let runs = [text("Hello world. How are you? Fine!")];
    let pieces = lang("en").split(&runs);
    assert_eq!(
        pieces,
        [
            sentence(&[text("Hello world.")]),
            gap(" "),
            sentence(&[text("How are you?")]),
            gap(" "),
            sentence(&[text("Fine!")]),
        ]
    );
    assert_eq!(joined(&pieces), "Hello world. How are you? Fine!");
}

#[test]
fn one_sentence_is_the_whole_unit() {
    let runs = [text(" Just one sentence. ")];
    assert_eq!(lang("en").split(&runs), [sentence(&runs)]);
    assert!(lang("en").split(&[]).len() == 1);
}

#[test]
fn abbreviations_as_icu_segments_them() {
    // A lowercase word after the period: no boundary (UAX #29 SB8).
    let runs = [text("Use a tool, e.g. the merge. Then stop.")];
    let pieces = lang("en").split(&runs);
    assert_eq!(pieces[0], sentence(&[text("Use a tool, e.g. the merge.")]));
    // UAX #29 has no abbreviation list: a capital after `Dr.` starts a sentence.
    let pieces = lang("en").split(&[text("Ask Dr. Smith. He knows.")]);
    assert_eq!(pieces[0], sentence(&[text("Ask Dr.")]));
    // Numbers: `3.5` is no boundary.
    let pieces = lang("en").split(&[text("It costs 3.5 euros. Cheap.")]);
    assert_eq!(pieces[0], sentence(&[text("It costs 3.5 euros.")]));
}

#[test]
fn german_japanese_arabic() {
    let de = lang("de").split(&[text("Das ist gut. Wir fahren u. a. nach Berlin. Ende.")]);
    // `u. a. nach`: a lowercase word after each period, no boundary.
    assert_eq!(
        de,
        [
            sentence(&[text("Das ist gut.")]),
            gap(" "),
            sentence(&[text("Wir fahren u. a. nach Berlin.")]),
            gap(" "),
            sentence(&[text("Ende.")]),
        ]
    );
    // ICU has no German abbreviation list: `z. B.` before a capital is a boundary.
    let de = lang("de").split(&[text("Wir fahren z. B. Bus.")]);
    assert_eq!(de[0], sentence(&[text("Wir fahren z.")]));
    let ja = lang("ja").split(&[text("今日は晴れです。明日は雨でしょう。")]);
    assert_eq!(
        ja,
        [
            sentence(&[text("今日は晴れです。")]),
            sentence(&[text("明日は雨でしょう。")]),
        ]
    );
    let ar = lang("ar").split(&[text("مرحبا بكم في الموقع. هل تحتاج إلى مساعدة؟ نحن هنا.")]);
    assert_eq!(
        ar.iter()
            .filter(|p| matches!(p, Piece::Sentence(_)))
            .count(),
        3
    );
    assert_eq!(ar[2], sentence(&[text("هل تحتاج إلى مساعدة؟")]));
}

#[test]
fn greek_question_mark_is_tailored() {
    let runs = [text("Τι κάνεις; Καλά.")];
    assert_eq!(lang("el").split(&runs).len(), 3);
    assert_eq!(lang("en").split(&runs).len(), 1);
}

#[test]
fn codes_are_never_split() {
    let seg = lang("en");
    // A boundary inside <b>…</b>: dropped.
    let runs = [open(1), text("One. Two."), close(1), text(" Three.")];
    let pieces = seg.split(&runs);
    assert_eq!(
        pieces,
        [
            sentence(&[open(1), text("One. Two."), close(1)]),
            gap(" "),
            sentence(&[text("Three.")]),
        ]
    );
    // End tags stay with their sentence, start tags go with the next one.
    let runs = [
        text("See "),
        open(1),
        text("this."),
        close(1),
        text(" "),
        open(2),
        text("Then"),
        close(2),
        text(" go."),
    ];
    let pieces = seg.split(&runs);
    assert_eq!(
        pieces,
        [
            sentence(&[text("See "), open(1), text("this."), close(1)]),
            gap(" "),
            sentence(&[open(2), text("Then"), close(2), text(" go.")]),
        ]
    );
    // Whitespace inside a code stays in the sentence.
    let runs = [open(1), text("One. "), close(1), text("Two.")];
    assert_eq!(
        seg.split(&runs),
        [
            sentence(&[open(1), text("One. "), close(1)]),
            sentence(&[text("Two.")]),
        ]
    );
    // A placeholder is a character of the sentence it sits in.
    let runs = [text("One."), ph(3), text(" Two.")];
    let pieces = seg.split(&runs);
    assert_eq!(
        pieces,
        [sentence(&[text("One.")]), sentence(&[ph(3), text(" Two.")])]
    );
}

#[test]
fn letterless_sentences_are_joined() {
    let pieces = lang("en").split(&[text("1. Introduction. Read it.")]);
    assert_eq!(pieces[0], sentence(&[text("1. Introduction.")]));
    let pieces = lang("en").split(&[text("Read it. ...")]);
    assert_eq!(pieces.len(), 1);
}

#[test]
fn aligner_finds_sentences_and_gaps() {
    let page = [
        text("  One. "),
        open(1),
        text("Two"),
        close(1),
        text(" three.  "),
    ];
    let mut a = Aligner::new(&page);
    let nodata = |r: Run| match r {
        Run::Open { id, .. } => Run::Open {
            id,
            data: String::new(),
        },
        Run::Close { id, .. } => Run::Close {
            id,
            data: String::new(),
        },
        r => r,
    };
    assert!(a.rest_if_gap().is_none());
    assert_eq!(
        a.sentence(&[text("One.")]),
        Some(("  ".into(), vec![text("One.")]))
    );
    assert!(a.sentence(&[text("Two")]).is_none());
    let two = [
        nodata(open(1)),
        text("Two"),
        nodata(close(1)),
        text(" three."),
    ];
    assert_eq!(
        a.sentence(&two),
        Some((
            " ".into(),
            vec![open(1), text("Two"), close(1), text(" three.")]
        ))
    );
    assert_eq!(a.rest_if_gap().as_deref(), Some("  "));
}

#[test]
fn ids_and_names() {
    assert_eq!(sentence_id("c.abc", 2), "c.abc#s2");
    assert!(is_sentence("c.abc#s2", "c.abc", 2));
    assert!(!is_sentence("c.abc#s2", "c.ab", 2));
    assert!(!is_sentence("c.abc#s12", "c.abc", 1));
    assert_eq!(unit_of("c.abc#s12"), "c.abc");
    assert_eq!(unit_of("id.a#sx"), "id.a#sx");
    assert_eq!(unit_of("id.a"), "id.a");
    assert_eq!("sentences".parse(), Ok(Segmentation::Sentences));
    assert!("words".parse::<Segmentation>().is_err());
    assert_eq!(Segmentation::Sentences.to_string(), "sentences");
    let rules = Rules::from_json_str(r#"{"segment": "sentences"}"#).unwrap();
    assert_eq!(rules.segment, Segmentation::Sentences);
}
