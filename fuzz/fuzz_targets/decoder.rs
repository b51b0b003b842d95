//! The encoding sniffer and the streaming decoder on arbitrary bytes.
//!
//! The first byte picks a chunk size (1..=64) and whether a transport charset is
//! given; the rest is the document. `sniff_encoding` (the whole parse) must not panic, and a
//! `ByteStreamDecoder` fed in chunks must produce the same text, encoding and
//! confidence as one fed the whole document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tagloom_html::decoder::{ByteStreamDecoder, DecoderConfig, sniff};
use tagloom_html::sniff::sniff_encoding;

fn decode(chunks: &[&[u8]], config: DecoderConfig) -> (String, Option<&'static str>, String) {
    let mut decoder = ByteStreamDecoder::new(config);
    let mut text = String::new();
    for chunk in chunks {
        decoder.push(chunk, &mut text).expect("push before finish");
    }
    decoder.finish(&mut text).expect("finish");
    assert!(decoder.is_finished());
    // A second finish does nothing.
    let len = text.len();
    decoder.finish(&mut text).expect("finish twice");
    assert_eq!(text.len(), len, "a second finish produced text");
    let encoding = decoder.encoding().map(|e| e.name());
    (text, encoding, format!("{:?}", decoder.sniffed()))
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(first % 64) + 1;
    let transport = match first >> 6 {
        0 | 1 => None,
        2 => Some("windows-1252"),
        _ => Some("utf-16le"),
    };

    let document = sniff_encoding(input, document_transport(transport));
    let prefix = sniff(input, document_transport(transport));
    if prefix.confidence != tagloom_html::decoder::Confidence::Tentative {
        assert_eq!(prefix, document, "a certain sniff result changed");
    }

    let config = DecoderConfig {
        transport: document_transport(transport),
        ..DecoderConfig::default()
    };
    let whole = decode(&[input], config);
    let chunks: Vec<&[u8]> = input.chunks(chunk).collect();
    let chunked = decode(&chunks, config);
    assert_eq!(
        whole, chunked,
        "decoder output differs for chunks of {chunk}"
    );
});

fn document_transport(label: Option<&str>) -> Option<&'static tagloom_html::decoder::Encoding> {
    label.and_then(|l| tagloom_html::decoder::Encoding::for_label(l.as_bytes()))
}
