//! The jobs on WARC files written by `support/`: the text of pages whose charset is
//! only in the HTTP header, chunked and gzip bodies, bad HTTP headers, links, word
//! counts, sanitize, and runs over files (order, summary, error rows).

mod support;

use std::path::PathBuf;

use support::Compression;
use tagloom_warc::job::RowResult;
use tagloom_warc::{Job, JobKind, Limits, Row, WarcReader};

fn rows(bytes: &[u8], kind: JobKind) -> Vec<Row> {
    let job = Job::new(kind);
    WarcReader::new(bytes, Limits::default())
        .unwrap()
        .into_records()
        .filter_map(|r| job.run_record("t.warc", r))
        .collect()
}

fn text_of(row: &Row) -> (&str, &str) {
    match &row.result {
        RowResult::Text { encoding, text, .. } => (encoding, text),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_charset_of_the_http_header_decodes_the_page() {
    let russian = "<p>Привет, мир</p>";
    let japanese = "<p>日本語のテキスト</p>";
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(russian);
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(japanese);
    let records = vec![
        support::record(
            "response",
            "http://ru.example/",
            &support::html_response(&cp1251, Some("windows-1251")),
        ),
        support::record(
            "response",
            "http://jp.example/",
            &support::html_response(&sjis, Some("\"Shift_JIS\"")),
        ),
    ];
    for compression in [
        Compression::None,
        Compression::PerRecord,
        Compression::Whole,
    ] {
        let rows = rows(&support::file(&records, compression), JobKind::Text);
        assert_eq!(text_of(&rows[0]), ("windows-1251", "Привет, мир"));
        assert_eq!(text_of(&rows[1]), ("Shift_JIS", "日本語のテキスト"));
    }
}

/// `<html><body><p>Compressed <i>and</i> chunked</p></body></html>`, brotli.
const BROTLI_PAGE: [u8; 55] = [
    27, 61, 0, 248, 141, 212, 97, 205, 157, 7, 210, 205, 165, 106, 10, 99, 197, 148, 68, 5, 229,
    220, 91, 30, 47, 77, 72, 33, 181, 72, 165, 69, 1, 6, 30, 147, 120, 49, 200, 193, 82, 223, 237,
    51, 65, 211, 38, 208, 20, 175, 63, 39, 3, 75, 2,
];

#[test]
fn chunked_gzip_deflate_and_brotli_payloads() {
    let page = b"<html><body><p>Compressed <i>and</i> chunked</p></body></html>";
    let gz = support::gzip(page);
    let mut deflated = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut deflated, page).unwrap();
    let deflated = deflated.finish().unwrap();
    let blocks = [
        support::http(
            &[
                ("Content-Type", "text/html"),
                ("Transfer-Encoding", "chunked"),
            ],
            &support::chunked(page, 7),
        ),
        support::http(
            &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
            &gz,
        ),
        support::http(
            &[
                ("Content-Type", "text/html"),
                ("Content-Encoding", "gzip"),
                ("Transfer-Encoding", "chunked"),
            ],
            &support::chunked(&gz, 5),
        ),
        support::http(
            &[
                ("Content-Type", "text/html"),
                ("Content-Encoding", "deflate"),
            ],
            &deflated,
        ),
        // The same page as a brotli encoder writes it.
        support::http(
            &[("Content-Type", "text/html"), ("Content-Encoding", "br")],
            &BROTLI_PAGE,
        ),
        // Stored decoded, headers kept: taken as it is.
        support::http(
            &[
                ("Content-Type", "text/html"),
                ("Content-Encoding", "gzip"),
                ("Transfer-Encoding", "chunked"),
            ],
            page,
        ),
    ];
    let records: Vec<_> = blocks
        .iter()
        .map(|b| support::record("response", "http://a.example/", b))
        .collect();
    let rows = rows(
        &support::file(&records, Compression::PerRecord),
        JobKind::Text,
    );
    assert_eq!(rows.len(), blocks.len());
    for row in &rows {
        assert_eq!(text_of(row).1, "Compressed and chunked");
    }
}

#[test]
fn bad_http_headers_are_tolerated_and_non_http_is_an_error_row() {
    let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nthis is no header\r\n\x01\x02garbage\r\n: x\r\n\r\n<p>still read";
    let records = vec![
        support::record("response", "http://a.example/", block),
        support::record("response", "http://b.example/", b"not http at all"),
        support::record(
            "response",
            "http://c.example/",
            &support::http(&[("Content-Type", "image/png")], b"\x89PNG"),
        ),
    ];
    let rows = rows(&support::file(&records, Compression::None), JobKind::Text);
    assert_eq!(rows.len(), 2, "the image is no page: {rows:?}");
    assert_eq!(text_of(&rows[0]).1, "still read");
    let json = serde_json::to_string(&rows[1]).unwrap();
    assert!(json.contains(r#""error":{"kind":"not-http""#), "{json}");
}

#[test]
fn links_words_and_sanitize() {
    let page = b"<base href='/d/'><title>T</title><p>Hello big world <a href='x.html' onclick='evil()'>link</a></p><script>alert(1)</script><area href='//other.example/y'>";
    let records = vec![support::record(
        "response",
        "https://a.example/start/page",
        &support::html_response(page, Some("utf-8")),
    )];
    let bytes = support::file(&records, Compression::None);
    let links = rows(&bytes, JobKind::Links);
    assert_eq!(
        links[0].result,
        RowResult::Links {
            links: vec![
                "https://a.example/d/x.html".to_string(),
                "https://other.example/y".to_string()
            ]
        }
    );
    match &rows(&bytes, JobKind::L10nWords)[0].result {
        RowResult::Words { units, words, .. } => {
            assert_eq!((*units, *words), (2, 5), "T + 'Hello big world link'");
        }
        other => panic!("{other:?}"),
    }
    match &rows(&bytes, JobKind::Sanitize)[0].result {
        RowResult::Sanitized { html, encoding } => {
            assert_eq!(*encoding, "UTF-8");
            assert!(html.contains("<a href=\"x.html\""), "{html}");
            assert!(
                !html.contains("alert") && !html.contains("onclick"),
                "{html}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_run_over_files_keeps_their_order_and_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut pages = support::bench_pages();
    if pages.is_empty() {
        pages.push((
            "built-in".into(),
            b"<title>x</title><p>built-in page".to_vec(),
        ));
    }
    let mut files: Vec<PathBuf> = Vec::new();
    let mut expected = Vec::new();
    for (i, compression) in [
        Compression::PerRecord,
        Compression::None,
        Compression::Whole,
    ]
    .into_iter()
    .enumerate()
    {
        let mut records = vec![support::warcinfo()];
        for (name, page) in &pages {
            let uri = format!("http://bench.example/{i}/{name}");
            records.push(support::record(
                "response",
                &uri,
                &support::html_response(page, None),
            ));
            expected.push(uri);
        }
        // A truncated last record.
        let mut bytes = support::file(&records, compression);
        let tail = support::file(
            &[support::record(
                "resource",
                "http://cut.example/",
                b"<p>cut short",
            )],
            Compression::None,
        );
        bytes.extend(&tail[..tail.len() - 10]);
        let path = dir.path().join(format!("f{i}.warc"));
        std::fs::write(&path, bytes).unwrap();
        files.push(path);
    }
    let job = Job::new(JobKind::Text);
    let mut got = Vec::new();
    let progress = std::sync::atomic::AtomicU64::new(0);
    let summary = tagloom_warc::run(
        &files,
        &job,
        None,
        |row| {
            got.push(row.clone());
            Ok(())
        },
        &|n| {
            progress.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        },
    )
    .unwrap();
    let uris: Vec<_> = got.iter().filter_map(|r| r.uri.clone()).collect();
    assert_eq!(uris, expected);
    assert_eq!(summary.pages as usize, expected.len());
    assert_eq!(summary.errors, 3, "one truncated record per file");
    assert_eq!(summary.skipped, 3, "the warcinfo records");
    let total: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    assert_eq!(progress.into_inner(), total);
    assert_eq!(summary.bytes, total);
    // The same text as a direct parse of each page.
    for (row, (_, page)) in got
        .iter()
        .filter(|r| !r.is_error())
        .zip(pages.iter().cycle())
    {
        let direct = rows(
            &support::record("resource", "http://x/", page),
            JobKind::Text,
        );
        match (&row.result, &direct[0].result) {
            (RowResult::Text { text: a, .. }, RowResult::Text { text: b, .. }) => assert_eq!(a, b),
            other => panic!("{other:?}"),
        }
    }
}
