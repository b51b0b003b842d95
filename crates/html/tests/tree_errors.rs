//! Tree-construction parse errors: each has a code and the position of the token
//! that caused it, they come out of the session merged with the tokenizer's in
//! source order, independent of chunking, and the count stays what it was.

mod support;

use support::tree_dat;
use support::walked_position::walked_position;
use tagloom_html::atom;
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::driver::{ParseConfig, drive};
use tagloom_html::error::{ErrorCode, ParseError, TreeError};
use tagloom_html::session::Html5ParseSession;
use tagloom_html::token::{OwnedTag, OwnedToken};
use tagloom_html::tree_builder::{TreeBuilder, TreeBuilderConfig};

fn config(chunk_size: usize) -> ParseConfig {
    let mut config = ParseConfig {
        chunk_size,
        ..ParseConfig::default()
    };
    config.session.decoder = DecoderConfig::with_transport(encoding_rs::UTF_8);
    config
}

fn parse(data: &[u8], config: &ParseConfig) -> (Vec<ParseError>, Html5ParseSession) {
    let mut session = drive(data, config, |_| Ok::<_, std::convert::Infallible>(())).unwrap();
    (session.take_errors(), session)
}

fn codes(data: &str) -> Vec<String> {
    parse(data.as_bytes(), &config(usize::MAX))
        .0
        .iter()
        .filter(|e| e.code.is_tree_construction())
        .map(|e| format!("{}:{} {}", e.line, e.col, e.code.as_str()))
        .collect()
}

#[test]
fn each_error_has_a_code_and_the_position_of_its_token() {
    assert_eq!(codes("<!DOCTYPE html><p>x"), Vec::<String>::new());
    assert_eq!(
        codes("<p>a</b>"),
        ["1:1 missing-doctype", "1:5 end-tag-without-open-element"]
    );
    assert_eq!(
        codes("<!DOCTYPE html>\n<table>\n  x<tr><td>y</table>"),
        ["3:3 foster-parented-content"]
    );
    assert_eq!(
        codes("<!DOCTYPE html><b><i>x</b>y</i>"),
        ["1:23 misnested-formatting-element"]
    );
    assert_eq!(
        codes("<!DOCTYPE html><div><span>x</div>"),
        ["1:28 implicitly-closed-elements"]
    );
    assert_eq!(
        codes("<!DOCTYPE html><a><a></a>"),
        ["1:19 unexpected-nested-element"]
    );
    assert_eq!(
        codes("<!DOCTYPE html><svg><p>"),
        ["1:21 html-start-tag-in-foreign-content"]
    );
    assert_eq!(
        codes("<!DOCTYPE html><div>\u{e9}"),
        ["1:22 eof-with-open-elements"]
    );
    assert_eq!(
        codes("<!DOCTYPE html><p>\0x"),
        ["1:19 unexpected-null-in-text"]
    );
    assert_eq!(
        codes("<!DOCTYPE html></html>x<!DOCTYPE html>"),
        ["1:23 content-after-body", "1:24 unexpected-doctype"]
    );
    assert_eq!(codes("<!DOCTYPE htm>"), ["1:1 non-conforming-doctype"]);
}

/// Errors about single characters (NUL, ignored text, the first foster-parented
/// character) point at the character, so they do not move when a run of text is
/// split differently, and in the whole input each one is where its character is.
#[test]
fn character_errors_point_at_the_character_at_any_chunking() {
    for page in [
        "<!DOCTYPE html><p>a\0b\0\0c",
        "<!DOCTYPE html><table> \0 x\0y</table>",
        "<!DOCTYPE html><frameset> a b </frameset>",
        "<!DOCTYPE html><svg>\0<p>\0",
        "<!DOCTYPE html>\n<table>\n  \u{e9}x<tr>",
    ] {
        let tree_only = |errors: Vec<ParseError>| -> Vec<ParseError> {
            errors
                .into_iter()
                .filter(|e| e.code.is_tree_construction())
                .collect()
        };
        let whole = tree_only(parse(page.as_bytes(), &config(usize::MAX)).0);
        for e in &whole {
            let at = page.as_bytes().get(e.offset).copied();
            match e.code {
                ErrorCode::UnexpectedNullInText => assert_eq!(at, Some(0), "{page:?}"),
                ErrorCode::UnexpectedText => assert!(at.is_some_and(|b| b.is_ascii_alphabetic())),
                ErrorCode::FosterParentedContent => assert!(at.is_some_and(|b| b > b' ')),
                _ => {}
            }
        }
        for chunk in [1, 2, 3] {
            let chunked = tree_only(parse(page.as_bytes(), &config(chunk)).0);
            assert_eq!(chunked, whole, "{page:?} in chunks of {chunk}");
        }
    }
}

#[test]
fn codes_are_named_and_round_trip() {
    for code in [
        ErrorCode::MissingDoctype,
        ErrorCode::UnexpectedStartTag,
        ErrorCode::FosterParentedContent,
        ErrorCode::EofWithOpenElements,
    ] {
        assert!(code.is_tree_construction());
        assert_eq!(ErrorCode::from_code(code.as_str()), Some(code));
    }
    assert!(!ErrorCode::EofInTag.is_tree_construction());
}

/// Over every document case of the html5lib suite: every counted tree error is
/// listed (none over the limit), in source order with the tokenizer's, whole and
/// in 1-byte chunks.
#[test]
fn the_suite_lists_every_counted_error_in_source_order() {
    let mut checked = 0;
    for (_, tests) in tree_dat::load_dir(tree_dat::DATA_DIR).unwrap() {
        for test in tests.iter().filter(|t| t.fragment.is_none()) {
            let data = test.data.as_bytes();
            let (whole, session) = parse(data, &config(usize::MAX));
            let tree = whole
                .iter()
                .filter(|e| e.code.is_tree_construction())
                .count();
            assert_eq!(
                tree,
                session.tree_builder().error_count(),
                "{:?}",
                test.data
            );
            assert!(
                whole.windows(2).all(|w| w[0].offset <= w[1].offset),
                "{:?}: {whole:?}",
                test.data
            );
            assert!(whole.iter().all(|e| e.offset <= data.len() && e.line >= 1));
            // In 1-byte chunks too. (The errors can differ: the tree builder reports
            // some errors once per character token, as the spec does, and a run
            // of characters arrives as one token or as several.)
            let (bytewise, session) = parse(data, &config(1));
            let tree = bytewise
                .iter()
                .filter(|e| e.code.is_tree_construction())
                .count();
            assert_eq!(
                tree,
                session.tree_builder().error_count(),
                "{:?}",
                test.data
            );
            assert!(bytewise.windows(2).all(|w| w[0].offset <= w[1].offset));
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn errors_past_the_limit_are_counted_not_held() {
    let mut config = config(usize::MAX);
    config.session.tree.max_errors = 3;
    let (errors, session) = parse(b"</x></x></x></x></x></x>", &config);
    let tree = errors
        .iter()
        .filter(|e| e.code.is_tree_construction())
        .count();
    assert_eq!(tree, 3);
    // The missing DOCTYPE, then each stray end tag.
    assert_eq!(session.tree_builder().error_count(), 1 + 6);
}

#[test]
fn owned_tokens_without_a_span_have_no_offset() {
    let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
    for token in [
        OwnedToken::StartTag(OwnedTag::new(atom::P)),
        OwnedToken::EndTag(OwnedTag::new(atom::B)),
        OwnedToken::Eof,
    ] {
        tb.process_owned(&token).unwrap();
    }
    assert_eq!(
        tb.errors(),
        [
            TreeError {
                code: ErrorCode::MissingDoctype,
                offset: None
            },
            TreeError {
                code: ErrorCode::EndTagWithoutOpenElement,
                offset: None
            },
        ]
    );
    assert_eq!(tb.error_count(), 2);
    assert_eq!(tb.take_errors().len(), 2);
    assert!(tb.errors().is_empty());
}

#[test]
fn errors_wait_for_the_encoding_to_be_final_and_a_restart_does_not_repeat_them() {
    // No transport encoding: the <meta> after the pre-scan restarts the parse (a
    // non-ASCII byte before it decodes differently, so the decoder cannot just
    // relabel).
    let mut page = b"<p>a</b><title>\xE9".to_vec();
    page.resize(2000, b'x');
    page.extend_from_slice(b"</title><meta charset=iso-8859-2></x>");
    let mut driver = tagloom_html::driver::Driver::new(&ParseConfig {
        chunk_size: 100,
        ..ParseConfig::default()
    });
    let mut listed = Vec::new();
    for piece in page.chunks(500) {
        driver
            .push(piece, |_| Ok::<_, std::convert::Infallible>(()))
            .unwrap();
        listed.extend(driver.take_errors());
    }
    driver
        .finish(|_| Ok::<_, std::convert::Infallible>(()))
        .unwrap();
    listed.extend(driver.take_errors());
    assert_eq!(driver.session().restarts(), 1);
    let names: Vec<&str> = listed.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(
        names,
        [
            "missing-doctype",
            "end-tag-without-open-element",
            "end-tag-without-open-element"
        ]
    );
}

#[test]
fn positions_hold_over_long_lines_and_every_newline_at_any_chunking() {
    // Far more than the tokenizer's line-count step (8 KiB) between errors and
    // within lines, CR LF, CR and LF, 2-, 3- and 4-byte characters.
    let mut page = String::from("<!DOCTYPE html><body>");
    for i in 0..200 {
        match i % 4 {
            0 => page.push_str(&"é𝒳x".repeat(1500)),
            1 => page.push_str("\r\n"),
            2 => page.push('\r'),
            _ => page.push_str("\n€"),
        }
        page.push_str("<p>a</b><x y y>\0</p>&amp<i>");
    }
    let whole = parse(page.as_bytes(), &config(usize::MAX)).0;
    assert!(whole.len() > 800, "{}", whole.len());
    for e in &whole {
        let (line, col) = walked_position(page.as_bytes(), e.offset);
        assert_eq!((e.line, e.col), (line, col), "{e:?}");
    }
    for chunk in [1000, 16 * 1024] {
        assert_eq!(
            parse(page.as_bytes(), &config(chunk)).0,
            whole,
            "chunks of {chunk}"
        );
    }
}
