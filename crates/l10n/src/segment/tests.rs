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

/// Runs joined: adjacent text merged, empty text dropped.
fn normalized(runs: &[Run]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for run in runs {
        match (out.last_mut(), run) {
            (_, Run::Text(t)) if t.is_empty() => {}
            (Some(Run::Text(a)), Run::Text(b)) => a.push_str(b),
            (_, run) => out.push(run.clone()),
        }
    }
    out
}

/// Generated units of tricky pieces (sentence ends of several scripts, spaces,
/// newlines, abbreviations, digits) with nested codes and placeholders: the pieces
/// always join back into the unit, a paired code never spans two sentences, gaps
/// are whitespace, no sentence is empty, and the aligner finds the sentences again.
#[test]
fn generated_units_keep_the_invariants() {
    const BITS: &[&str] = &[
        "Hello", " ", ". ", "world", "?", "! ", "。", "؟ ", "e.g. ", "Dr. ", "3.5", "\n", "  ",
        "1. ", "a", "B", "…", "\u{a0}", "x.Y", ";", "¿", "”. ",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let seg = lang("en");
    let mut cut = 0;
    for _ in 0..3000 {
        let mut runs = Vec::new();
        let mut open: Vec<u32> = Vec::new();
        let mut id = 0;
        for _ in 0..next(14) {
            match next(10) {
                0 => {
                    id += 1;
                    open.push(id);
                    runs.push(open_run(id));
                }
                1 if !open.is_empty() => {
                    let id = open.pop().unwrap_or(0);
                    runs.push(close(id));
                }
                2 => {
                    id += 1;
                    runs.push(ph(id));
                }
                _ => runs.push(text(BITS[next(BITS.len())])),
            }
        }
        while let Some(id) = open.pop() {
            runs.push(close(id));
        }
        let runs = normalized(&runs);
        let pieces = seg.split(&runs);
        let mut back = Vec::new();
        let mut sentences = Vec::new();
        for p in &pieces {
            match p {
                Piece::Gap(g) => {
                    assert!(!g.is_empty() && g.chars().all(is_gap_char), "{pieces:?}");
                    back.push(Run::Text(g.clone()));
                }
                Piece::Sentence(s) => {
                    assert!(!s.is_empty() || pieces.len() == 1, "{runs:?} -> {pieces:?}");
                    let mut depth = 0i32;
                    for r in s {
                        match r {
                            Run::Open { .. } => depth += 1,
                            Run::Close { .. } => depth -= 1,
                            _ => {}
                        }
                        assert!(depth >= 0, "{runs:?} -> {pieces:?}");
                    }
                    assert_eq!(depth, 0, "{runs:?} -> {pieces:?}");
                    back.extend(s.iter().cloned());
                    sentences.push(s.clone());
                }
            }
        }
        assert_eq!(normalized(&back), runs, "{pieces:?}");
        if sentences.len() > 1 {
            cut += 1;
            let mut a = Aligner::new(&runs);
            for s in &sentences {
                assert_eq!(
                    a.sentence(s).map(|(_, r)| normalized(&r)),
                    Some(normalized(s))
                );
            }
            assert!(a.rest_if_gap().is_some());
        }
    }
    assert!(cut > 300, "{cut} units cut");
}

fn open_run(id: u32) -> Run {
    open(id)
}
