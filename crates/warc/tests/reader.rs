//! The reader on files written by `support/`: every compression, truncation,
//! corrupt gzip members, bytes that are not records, bad headers, ARC.

mod support;

use std::io::Read;

use support::Compression;
use tagloom_warc::{Limits, OwnedRecord, RecordError, RecordErrorKind, RecordType, WarcReader};

fn read_all(bytes: &[u8]) -> Vec<Result<OwnedRecord, RecordError>> {
    WarcReader::new(bytes, Limits::default())
        .unwrap()
        .into_records()
        .collect()
}

fn sample_records() -> Vec<Vec<u8>> {
    let mut records = vec![support::warcinfo()];
    records.push(support::record(
        "request",
        "http://a.example/",
        b"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n",
    ));
    records.push(support::record(
        "response",
        "http://a.example/",
        &support::html_response(b"<title>A</title><p>first page", None),
    ));
    for (name, page) in support::bench_pages().iter().take(3) {
        records.push(support::record(
            "response",
            &format!("http://bench.example/{name}"),
            &support::html_response(page, None),
        ));
    }
    records.push(support::record(
        "metadata",
        "http://a.example/",
        b"fetchTimeMs: 12\r\n",
    ));
    records
}

#[test]
fn every_compression_reads_the_same_records() {
    let records = sample_records();
    let plain = read_all(&support::file(&records, Compression::None));
    assert_eq!(plain.len(), records.len());
    for compression in [Compression::PerRecord, Compression::Whole] {
        let bytes = support::file(&records, compression);
        let read = read_all(&bytes);
        assert_eq!(read.len(), plain.len(), "{compression:?}");
        for (a, b) in read.iter().zip(&plain) {
            let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
            assert_eq!(a.header.record_type, b.header.record_type);
            assert_eq!(a.header.target_uri(), b.header.target_uri());
            assert_eq!(a.header.offset, b.header.offset);
            assert_eq!(a.body, b.body);
        }
        if compression == Compression::PerRecord {
            // Each record's gzip member offset is where its member starts.
            let mut at = 0u64;
            for (record, raw) in read.iter().zip(&records) {
                assert_eq!(record.as_ref().unwrap().header.member_offset, Some(at));
                at += support::gzip(raw).len() as u64;
            }
        }
    }
    let first = plain[0].as_ref().unwrap();
    assert_eq!(first.header.record_type, RecordType::Warcinfo);
    assert_eq!(first.header.version, "WARC/1.1");
}

fn kinds(read: &[Result<OwnedRecord, RecordError>]) -> Vec<&'static str> {
    read.iter()
        .map(|r| match r {
            Ok(_) => "ok",
            Err(e) => e.kind.name(),
        })
        .collect()
}

#[test]
fn a_truncated_file_gives_the_records_before_and_one_error() {
    let records = sample_records();
    for compression in [
        Compression::None,
        Compression::PerRecord,
        Compression::Whole,
    ] {
        let bytes = support::file(&records, compression);
        for cut in [bytes.len() - 40, bytes.len() * 2 / 3, 30] {
            let read = read_all(&bytes[..cut]);
            let k = kinds(&read);
            let errors = k.iter().filter(|k| **k != "ok").count();
            assert_eq!(errors, 1, "{compression:?} cut at {cut}: {k:?}");
            assert_eq!(
                k.last(),
                Some(&"truncated"),
                "{compression:?} cut at {cut}: {k:?}"
            );
        }
    }
}

#[test]
fn a_corrupt_gzip_member_is_reported_and_reading_goes_on() {
    let records = sample_records();
    let members: Vec<Vec<u8>> = records.iter().map(|r| support::gzip(r)).collect();
    let mut bytes = Vec::new();
    for (i, m) in members.iter().enumerate() {
        let mut m = m.clone();
        if i == 2 {
            // Scramble the deflate data in the middle of the member.
            let mid = m.len() / 2;
            for b in &mut m[mid..mid + 8] {
                *b ^= 0x5a;
            }
        }
        bytes.extend(m);
    }
    let read = read_all(&bytes);
    let k = kinds(&read);
    assert_eq!(
        k.iter().filter(|k| **k == "ok").count(),
        records.len() - 1,
        "{k:?}"
    );
    assert_eq!(k.get(2), Some(&"gzip"), "{k:?}");
}

#[test]
fn bytes_that_are_not_records_and_bad_headers_are_skipped() {
    let good = support::record("resource", "http://a.example/x", b"<p>x");
    let mut bytes = b"garbage line\nmore garbage\n".to_vec();
    bytes.extend(&good);
    bytes.extend(b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: lots\r\n\r\nbody\r\n\r\n");
    bytes.extend(b"WARC/1.0\r\nWARC-Type: resource\r\n\r\nbody without a length\r\n\r\n");
    bytes.extend(&good);
    let read = read_all(&bytes);
    assert_eq!(
        kinds(&read),
        [
            "not-a-record",
            "ok",
            "bad-content-length",
            "bad-content-length",
            "ok"
        ]
    );
    match &read[0] {
        Err(RecordError {
            offset: 0,
            kind: RecordErrorKind::NotARecord { skipped: 26 },
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn limits_are_errors_not_allocations() {
    let big = support::record("resource", "http://a.example/big", &vec![b'x'; 100_000]);
    let small = support::record("resource", "http://a.example/small", b"<p>");
    let bytes = [big.clone(), small.clone()].concat();
    let limits = Limits {
        max_body_bytes: 50_000,
        ..Limits::default()
    };
    let read: Vec<_> = WarcReader::new(&bytes[..], limits)
        .unwrap()
        .into_records()
        .collect();
    assert_eq!(kinds(&read), ["body-too-large", "ok"]);
    let mut huge_header = b"WARC/1.1\r\nX-Big: ".to_vec();
    huge_header.extend(vec![b'y'; 2000]);
    huge_header.extend(b"\r\nContent-Length: 0\r\n\r\n\r\n\r\n");
    let bytes = [huge_header, small].concat();
    let limits = Limits {
        max_header_bytes: 1000,
        ..Limits::default()
    };
    let read: Vec<_> = WarcReader::new(&bytes[..], limits)
        .unwrap()
        .into_records()
        .collect();
    assert_eq!(kinds(&read), ["header-too-large", "ok"]);
}

#[test]
fn bodies_stream_and_unread_bodies_are_skipped() {
    let records = sample_records();
    let bytes = support::file(&records, Compression::PerRecord);
    let mut reader = WarcReader::new(&bytes[..], Limits::default()).unwrap();
    let mut n = 0;
    while let Some(record) = reader.next_record() {
        let mut record = record.unwrap();
        if n % 2 == 0 {
            let mut first = [0u8; 4];
            let got = record.body().read(&mut first).unwrap();
            assert!(got > 0);
        }
        n += 1;
    }
    assert_eq!(n, records.len());
}

#[test]
fn arc_files() {
    let page = support::html_response(b"<p>arc page", None);
    let mut arc = b"filedesc://x.arc 0.0.0.0 20200101000000 text/plain 5\n1 0 x\n\n".to_vec();
    arc.extend(
        format!(
            "http://a.example/ 1.2.3.4 20200101000000 text/html {}\n",
            page.len()
        )
        .as_bytes(),
    );
    arc.extend(&page);
    arc.extend(b"\n");
    for bytes in [arc.clone(), support::gzip(&arc)] {
        let read = read_all(&bytes);
        assert_eq!(kinds(&read), ["ok", "ok"]);
        let r = read[1].as_ref().unwrap();
        assert_eq!(r.header.record_type, RecordType::Response);
        assert_eq!(r.header.target_uri(), Some("http://a.example/"));
        assert_eq!(r.body, page);
    }
}

#[test]
fn every_cut_and_flipped_byte_ends_without_a_panic() {
    let records = vec![
        support::warcinfo(),
        support::record(
            "response",
            "http://a.example/",
            &support::html_response(b"<p>a", None),
        ),
        support::record("resource", "http://a.example/r", b"<p>b"),
    ];
    for compression in [
        Compression::None,
        Compression::PerRecord,
        Compression::Whole,
    ] {
        let bytes = support::file(&records, compression);
        for cut in 0..bytes.len() {
            let read = read_all(&bytes[..cut]);
            assert!(read.len() <= records.len() + 2);
        }
        for at in (0..bytes.len()).step_by(3) {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0xff;
            let read = read_all(&flipped);
            assert!(
                read.len() <= 2 * records.len() + 4,
                "{compression:?} flip {at}"
            );
        }
    }
}

#[test]
fn a_bad_gzip_header_is_skipped_up_to_the_next_member() {
    let good = support::gzip(&support::record("resource", "http://a.example/", b"<p>a"));
    for bad in [
        &[0x1f, 0x8b, 0x08, 0xff][..],
        &[0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff][..],
        &[0x1f, 0x8b, 0x08][..],
    ] {
        let bytes = [good.clone(), bad.to_vec(), good.clone()].concat();
        let read = read_all(&bytes);
        let k = kinds(&read);
        assert_eq!(k.first(), Some(&"ok"), "{bad:?}: {k:?}");
        assert_eq!(
            k.iter().filter(|k| **k == "ok").count(),
            2,
            "{bad:?}: {k:?}"
        );
        assert!(k.len() <= 3, "{bad:?}: {k:?}");
    }
}
