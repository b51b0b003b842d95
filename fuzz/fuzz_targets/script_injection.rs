//! `document.write` injection through the session's script host: the document
//! is pushed in random chunks with random batching; at each `</script>`
//! suspension (nested ones included, inside written text) the script writes
//! its random text, split into random `document.write` calls. The tree must
//! equal the parse of the same text placed inline, right after the
//! `</script>` of the script that wrote it (the spec's insertion point: the
//! token stream is the same), and every batch must apply.
//!
//! The scripted parse compacts the tree builder's mirror after every token
//! (`MirrorCompaction::After(0)`), the inline one never: compaction must not
//! change the tree either.
//!
//! Input: byte 0 picks the chunk size, the batching and how writes are split;
//! the rest is split on 0xFF (never valid UTF-8): the document, then the text
//! of script 0, 1, 2… in the order the parser runs them.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{DomStore, dump_document};
use tagloom_html::session::{
    BatchPolicy, Html5ParseSession, PumpStatus, ScriptHostError, SessionConfig, WriteStatus,
};
use tagloom_html::tree_builder::{MirrorCompaction, SuspendReason};

fn config(batching: BatchPolicy, compaction: MirrorCompaction) -> SessionConfig {
    let mut config = SessionConfig {
        decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
        batching,
        ..SessionConfig::default()
    };
    config.tree.suspend_at_script = true;
    config.tree.scripting = true;
    config.tree.mirror_compaction = compaction;
    config
}

struct Host<'a> {
    texts: Vec<String>,
    next: usize,
    split: usize,
    store: DomStore,
    /// The document as the tokenizer sees it, written text included.
    combined: &'a mut String,
    /// The insertion point of each running script, in `combined`.
    points: Vec<usize>,
}

impl Host<'_> {
    fn apply(&mut self, session: &mut Html5ParseSession) {
        for batch in session.take_batches() {
            if let Err(err) = self.store.apply_owned(batch) {
                panic!("a batch did not apply: {err}");
            }
        }
    }

    fn run_script(&mut self, session: &mut Html5ParseSession) {
        self.points.push(session.tokenizer().position());
        let text = self.texts.get(self.next).cloned().unwrap_or_default();
        self.next += 1;
        // Cut the text into writes at char boundaries, `split` bytes apart.
        let mut pieces = Vec::new();
        let mut rest = text.as_str();
        while !rest.is_empty() {
            let mut at = self.split.min(rest.len());
            while !rest.is_char_boundary(at) {
                at += 1;
            }
            let (piece, after) = rest.split_at(at);
            pieces.push(piece);
            rest = after;
        }
        for piece in pieces {
            if let Some(&at) = self.points.last() {
                self.combined.insert_str(at, piece);
                for point in &mut self.points {
                    *point += piece.len();
                }
            }
            let mut status = match session.document_write(piece) {
                Ok(status) => status,
                Err(ScriptHostError::NestingTooDeep { .. }) => {
                    // Refused: the text is not written at all.
                    undo(self, piece.len());
                    continue;
                }
                Err(err) => panic!("write failed: {err}"),
            };
            loop {
                self.apply(session);
                match status {
                    WriteStatus::Done => break,
                    WriteStatus::Script => {
                        self.run_script(session);
                        session.end_script().expect("end the nested script");
                        status = session.resume_write().expect("resume the write");
                    }
                    other => panic!("unexpected {other:?}"),
                }
            }
        }
        self.points.pop();
    }
}

/// Takes back the last `len` bytes inserted at the innermost insertion point.
fn undo(host: &mut Host<'_>, len: usize) {
    if let Some(&at) = host.points.last() {
        host.combined.replace_range(at - len..at, "");
        for point in &mut host.points {
            *point -= len;
        }
    }
}

fn drain(host: &mut Host<'_>, session: &mut Html5ParseSession, mut status: PumpStatus) -> PumpStatus {
    loop {
        host.apply(session);
        match status {
            PumpStatus::Suspended(SuspendReason::Script) => {
                host.run_script(session);
                session.end_script().expect("end the script");
                status = session.pump().expect("pump");
            }
            PumpStatus::Suspended(SuspendReason::BatchReady) => status = session.pump().expect("pump"),
            done => return done,
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let mut parts = input.split(|&b| b == 0xFF);
    let doc = parts.next().unwrap_or_default();
    let texts: Vec<String> = parts.map(|p| String::from_utf8_lossy(p).into_owned()).collect();
    let chunk = usize::from(first % 16) + 1;
    let batching = match first >> 6 {
        0 => BatchPolicy::PerPump,
        1 => BatchPolicy::Bounded(3),
        2 => BatchPolicy::MaxPatches(2),
        _ => BatchPolicy::Bounded(64),
    };
    let split = usize::from((first >> 4) & 3) * 3 + 1;

    // The decoder's view of the document (UTF-8, a BOM removed).
    let mut combined = encoding_rs::UTF_8.decode_with_bom_removal(doc).0.into_owned();
    let mut session = Html5ParseSession::new(config(batching, MirrorCompaction::After(0)));
    let mut host = Host {
        texts,
        next: 0,
        split,
        store: DomStore::new(),
        combined: &mut combined,
        points: Vec::new(),
    };
    for piece in doc.chunks(chunk) {
        session.push_bytes(piece).expect("push");
        let status = session.pump().expect("pump");
        assert_eq!(drain(&mut host, &mut session, status), PumpStatus::NeedInput);
    }
    let status = session.finish().expect("finish");
    assert_eq!(drain(&mut host, &mut session, status), PumpStatus::Finished);
    let scripted = dump_document(&host.store);

    // The same text inline, no script writing anything.
    let inline = {
        let mut session = Html5ParseSession::new(config(BatchPolicy::PerPump, MirrorCompaction::Never));
        // A BOM first: the session drops it as it dropped the document's (a
        // second U+FEFF, now at the start of `combined`, is text).
        session.push_bytes("\u{FEFF}".as_bytes()).expect("push");
        session.push_bytes(combined.as_bytes()).expect("push");
        let mut store = DomStore::new();
        let mut status = session.finish().expect("finish");
        loop {
            for batch in session.take_batches() {
                store.apply_owned(batch).expect("apply");
            }
            match status {
                PumpStatus::Suspended(_) => status = session.pump().expect("pump"),
                _ => break,
            }
        }
        dump_document(&store)
    };
    assert_eq!(scripted, inline, "combined text: {combined:?}");
});
