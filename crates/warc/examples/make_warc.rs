//! Writes a WARC file of the bench pages (or the HTML files of a directory) with
//! the test support's writer: for the memory run and cross-checks with other
//! readers.
//!
//! `cargo run --release -p tagloom-warc --example make_warc -- OUT PAGES_DIR SIZE
//! [plain|per-record|whole]`: response records cycling through the pages until
//! the uncompressed records reach SIZE bytes (every third one chunked, every fifth
//! gzip-encoded, a windows-1251 page with its charset only in the HTTP header every
//! seventh). Records are written as they are made: memory stays small.

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::Write;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, dir, size, rest @ ..] = args.as_slice() else {
        eprintln!("usage: make_warc OUT PAGES_DIR SIZE_BYTES [plain|per-record|whole]");
        std::process::exit(2);
    };
    let size: u64 = size.parse().unwrap_or(0);
    let compression = match rest.first().map(String::as_str) {
        Some("plain") => support::Compression::None,
        Some("whole") => support::Compression::Whole,
        _ => support::Compression::PerRecord,
    };
    let mut pages: Vec<Vec<u8>> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    pages.sort();
    if pages.is_empty() {
        pages.push(b"<title>x</title><p>no pages found".to_vec());
    }
    let (russian, _, _) =
        encoding_rs::WINDOWS_1251.encode("<title>Страница</title><p>Привет, мир</p>");
    let file = std::fs::File::create(out)?;
    let mut out = std::io::BufWriter::new(file);
    let mut whole = (compression == support::Compression::Whole)
        .then(|| flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
    let mut written = 0u64;
    let mut n = 0usize;
    let mut emit =
        |record: Vec<u8>, out: &mut std::io::BufWriter<std::fs::File>| -> std::io::Result<()> {
            match (&mut whole, compression) {
                (Some(gz), _) => {
                    gz.write_all(&record)?;
                    out.write_all(&std::mem::take(gz.get_mut()))
                }
                (None, support::Compression::PerRecord) => out.write_all(&support::gzip(&record)),
                _ => out.write_all(&record),
            }
        };
    emit(support::warcinfo(), &mut out)?;
    while written < size {
        let page = &pages[n % pages.len()];
        let uri = format!("http://bench.example/{n}");
        let block = if n % 7 == 6 {
            support::html_response(&russian, Some("windows-1251"))
        } else if n % 5 == 4 {
            support::http(
                &[
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Content-Encoding", "gzip"),
                ],
                &support::gzip(page),
            )
        } else if n % 3 == 2 {
            support::http(
                &[
                    ("Content-Type", "text/html"),
                    ("Transfer-Encoding", "chunked"),
                ],
                &support::chunked(page, 8192),
            )
        } else {
            support::html_response(page, None)
        };
        let record = support::record("response", &uri, &block);
        written += record.len() as u64;
        emit(record, &mut out)?;
        n += 1;
    }
    if let Some(gz) = whole.take() {
        out.write_all(&gz.finish()?)?;
    }
    out.flush()?;
    eprintln!("{n} response records, {written} bytes uncompressed");
    Ok(())
}
