//! The ordering rules of the script host, each against the same text placed
//! inline where the spec says the two are equal.

use crate::decoder::DecoderConfig;
use crate::dom::{DomStore, dump_document};
use crate::dom_patch::{AttrNamespace, PatchKey};
use crate::session::{
    Html5ParseSession, PumpStatus, ScriptHostError, ScriptHostLimits, SessionConfig, SessionError,
    WriteStatus,
};
use crate::tree_builder::{DomChange, SuspendReason};

fn config() -> SessionConfig {
    let mut config = SessionConfig {
        decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
        ..SessionConfig::default()
    };
    config.tree.suspend_at_script = true;
    config
}

/// A test embedder: script number `n` (in the order the parser runs them)
/// writes `writes[n]`, one call per string.
struct Host<'a> {
    writes: &'a [&'a [&'a str]],
    ran: usize,
    store: DomStore,
}

impl Host<'_> {
    fn apply(&mut self, session: &mut Html5ParseSession) {
        for batch in session.take_batches() {
            self.store.apply(&batch).unwrap();
        }
    }

    fn run_script(&mut self, session: &mut Html5ParseSession) {
        let n = self.ran;
        self.ran += 1;
        assert!(session.running_script().is_some());
        let level = session.script_nesting_level();
        for text in self.writes.get(n).copied().unwrap_or(&[]) {
            let mut status = session.document_write(text).unwrap();
            loop {
                self.apply(session);
                match status {
                    WriteStatus::Done => break,
                    WriteStatus::Script => {
                        assert_eq!(session.script_nesting_level(), level + 1);
                        self.run_script(session);
                        session.end_script().unwrap();
                        status = session.resume_write().unwrap();
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
        assert_eq!(session.script_nesting_level(), level);
    }

    fn drain(&mut self, session: &mut Html5ParseSession, mut status: PumpStatus) -> PumpStatus {
        loop {
            self.apply(session);
            match status {
                PumpStatus::Suspended(SuspendReason::Script) => {
                    self.run_script(session);
                    session.end_script().unwrap();
                    status = session.pump().unwrap();
                }
                PumpStatus::Suspended(SuspendReason::BatchReady) => {
                    status = session.pump().unwrap()
                }
                done => return done,
            }
        }
    }
}

/// The tree of `doc` pushed in chunks of `chunk` bytes, its scripts writing `writes`.
fn run(doc: &str, chunk: usize, writes: &[&[&str]]) -> String {
    let mut session = Html5ParseSession::new(config());
    let mut host = Host {
        writes,
        ran: 0,
        store: DomStore::new(),
    };
    for piece in doc.as_bytes().chunks(chunk.max(1)) {
        session.push_bytes(piece).unwrap();
        let status = session.pump().unwrap();
        assert_eq!(host.drain(&mut session, status), PumpStatus::NeedInput);
    }
    let status = session.finish().unwrap();
    assert_eq!(host.drain(&mut session, status), PumpStatus::Finished);
    dump_document(&host.store)
}

/// `doc` with no script writing anything.
fn inline(doc: &str) -> String {
    run(doc, doc.len(), &[])
}

fn every_chunking(doc: &str, writes: &[&[&str]], expected: &str) {
    for chunk in [1, 2, 3, 7, doc.len()] {
        assert_eq!(run(doc, chunk, writes), expected, "chunk {chunk}");
    }
}

#[test]
fn a_write_goes_right_after_the_script_end_tag() {
    every_chunking(
        "1<script>a</script>3",
        &[&["2"]],
        &inline("1<script>a</script>23"),
    );
}

#[test]
fn writes_of_one_script_come_in_call_order() {
    every_chunking(
        "<p>x<script>a</script>y",
        &[&["<b>", "1", "</b>2"]],
        &inline("<p>x<script>a</script><b>1</b>2y"),
    );
}

#[test]
fn a_partial_tag_written_continues_into_the_rest_of_the_input() {
    every_chunking(
        "<script>a</script> id=k>t",
        &[&["<b"]],
        &inline("<script>a</script><b id=k>t"),
    );
}

#[test]
fn a_nested_script_writes_at_its_own_insertion_point_before_the_outer_text() {
    // html5lib webkit01.dat #1, with the scripts' texts shortened.
    every_chunking(
        "1<script>a</script>4",
        &[&["<script>b</script><script>c</script>"], &["2"], &["3"]],
        &inline("1<script>a</script><script>b</script>2<script>c</script>34"),
    );
    // The outer script's text after the nested script follows the nested write.
    every_chunking(
        "<script>a</script>C",
        &[&["<script>b</script>A"], &["B"]],
        &inline("<script>a</script><script>b</script>BAC"),
    );
}

#[test]
fn a_write_after_a_nested_script_ended_goes_after_its_output() {
    // Script 0 writes a script (which writes "1"), then writes "2".
    every_chunking(
        "<script>a</script>3",
        &[&["<script>b</script>", "2"], &["1"]],
        &inline("<script>a</script><script>b</script>123"),
    );
}

#[test]
fn misuse_is_a_typed_error() {
    let mut session = Html5ParseSession::new(config());
    assert_eq!(
        session.document_write("x"),
        Err(ScriptHostError::NoInsertionPoint)
    );
    session.enter_ignore_destructive_writes();
    assert_eq!(session.document_write("x"), Ok(WriteStatus::Ignored));
    session.leave_ignore_destructive_writes();
    assert_eq!(session.end_script(), Err(ScriptHostError::NoScript));
    assert_eq!(session.resume_write(), Err(ScriptHostError::NotWriting));

    session.push_bytes(b"<script>a</script>z").unwrap();
    let status = session.pump().unwrap();
    assert_eq!(status, PumpStatus::Suspended(SuspendReason::Script));
    assert_eq!(session.script_nesting_level(), 1);
    assert!(session.has_insertion_point());
    assert_eq!(
        session.document_write("<script>b</script>"),
        Ok(WriteStatus::Script)
    );
    assert_eq!(session.script_nesting_level(), 2);
    assert_eq!(
        session.pump(),
        Err(SessionError::ScriptRunning { level: 2 })
    );
    session.end_script().unwrap();
    assert_eq!(session.end_script(), Err(ScriptHostError::WriteInProgress));
    assert_eq!(session.resume_write(), Ok(WriteStatus::Done));
    // `pump` ends the outermost script itself.
    assert_eq!(session.pump(), Ok(PumpStatus::NeedInput));
    assert_eq!(session.script_nesting_level(), 0);
    assert_eq!(
        session.document_write("x"),
        Err(ScriptHostError::NoInsertionPoint)
    );
}

#[test]
fn limits_are_typed_errors() {
    let mut config = config();
    config.script = ScriptHostLimits {
        max_nesting: 2,
        max_written_bytes: 40,
    };
    let mut session = Html5ParseSession::new(config);
    session.push_bytes(b"<script>a</script>").unwrap();
    assert_eq!(
        session.pump(),
        Ok(PumpStatus::Suspended(SuspendReason::Script))
    );
    assert_eq!(
        session.document_write("<script>b</script>"),
        Ok(WriteStatus::Script)
    );
    assert_eq!(
        session.document_write("<script>c</script>"),
        Ok(WriteStatus::Script)
    );
    assert_eq!(
        session.document_write("x"),
        Err(ScriptHostError::NestingTooDeep { level: 3, limit: 2 })
    );
    session.end_script().unwrap();
    assert_eq!(
        session.document_write(&"y".repeat(10)),
        Err(ScriptHostError::WrittenTooMuch { limit: 40 })
    );
}

#[test]
fn input_pushed_while_a_script_runs_waits_behind_the_written_text() {
    let mut session = Html5ParseSession::new(config());
    session.push_bytes(b"<script>a</script>").unwrap();
    assert_eq!(
        session.pump(),
        Ok(PumpStatus::Suspended(SuspendReason::Script))
    );
    assert_eq!(session.document_write("1<i"), Ok(WriteStatus::Done));
    session.push_bytes(b">2").unwrap();
    assert_eq!(session.document_write(">3"), Ok(WriteStatus::Done));
    session.end_script().unwrap();
    assert_eq!(session.finish(), Ok(PumpStatus::Finished));
    let mut store = DomStore::new();
    for batch in session.take_batches() {
        store.apply(&batch).unwrap();
    }
    assert_eq!(dump_document(&store), inline("<script>a</script>1<i>3>2"));
}

#[test]
fn a_meta_written_before_the_encoding_is_final_restarts_the_parse() {
    let doc = b"<!DOCTYPE html><script>a</script><p>\xE8";
    let mut session = Html5ParseSession::new(SessionConfig {
        tree: config().tree,
        ..SessionConfig::default()
    });
    session.push_bytes(doc).unwrap();
    let mut status = session.finish().unwrap();
    let mut store = DomStore::new();
    let mut restarted = 0;
    while status == PumpStatus::Suspended(SuspendReason::Script) {
        match session.document_write("<meta charset=iso-8859-2>").unwrap() {
            WriteStatus::Restarted => restarted += 1,
            WriteStatus::Done => session.end_script().unwrap(),
            other => panic!("{other:?}"),
        }
        status = session.pump().unwrap();
    }
    assert_eq!((restarted, session.restarts()), (1, 1));
    assert_eq!(session.decoder().encoding(), Some(encoding_rs::ISO_8859_2));
    for batch in session.take_batches() {
        store.apply(&batch).unwrap();
    }
    assert!(dump_document(&store).contains("\"\u{10d}\""));
}

#[test]
fn dom_changes_name_elements_of_this_parse() {
    let mut session = Html5ParseSession::new(config());
    session.push_bytes(b"<b id=a><script>x</script>").unwrap();
    session.pump().unwrap();
    let missing = PatchKey(std::num::NonZeroU64::new(999).unwrap());
    let change = |element| DomChange::Attribute {
        element,
        ns: AttrNamespace::None,
        name: "id",
        value: Some("b"),
    };
    assert_eq!(
        session.dom_changed(change(missing)),
        Err(ScriptHostError::UnknownElement(missing))
    );
    let script = session.running_script().unwrap();
    assert_eq!(session.dom_changed(change(script)), Ok(()));
}

/// Runs `doc` whose first script sets attribute `name=value` on the element
/// `pick` finds in the store, in the store and through `dom_changed`.
fn with_attribute_change(
    doc: &str,
    pick: impl Fn(&DomStore) -> PatchKey,
    name: &str,
    value: &str,
) -> String {
    let mut session = Html5ParseSession::new(config());
    session.push_bytes(doc.as_bytes()).unwrap();
    let mut store = DomStore::new();
    let mut status = session.finish().unwrap();
    let mut changed = false;
    loop {
        for batch in session.take_batches() {
            store.apply(&batch).unwrap();
        }
        match status {
            PumpStatus::Suspended(_) => {
                if !changed && session.running_script().is_some() {
                    changed = true;
                    let element = pick(&store);
                    store
                        .set_attribute(element, AttrNamespace::None, name, Some(value))
                        .unwrap();
                    let change = DomChange::Attribute {
                        element,
                        ns: AttrNamespace::None,
                        name,
                        value: Some(value),
                    };
                    session.dom_changed(change).unwrap();
                }
                status = session.pump().unwrap();
            }
            _ => break,
        }
    }
    dump_document(&store)
}

/// The keys of the elements named `name`, in creation order.
fn elements(store: &DomStore, name: &str) -> Vec<PatchKey> {
    let mut keys = Vec::new();
    let mut stack = vec![store.document().unwrap()];
    while let Some(node) = stack.pop() {
        if node.as_element().is_some_and(|e| e.local_name() == name) {
            keys.push(node.key());
        }
        stack.extend(node.children());
        stack.extend(node.template_contents());
    }
    keys.sort();
    keys
}

#[test]
fn formatting_elements_are_compared_and_cloned_by_their_parse_time_attributes() {
    // html5lib scripted/ark.dat: the third font becomes size=5 in the DOM, but
    // Noah's Ark still counts it as equal to the fourth, and its clone has size=4.
    let dump = with_attribute_change(
        "<p><font size=4><font size=4><font size=4><script>x</script><font size=4><p>X",
        |store| elements(store, "font")[2],
        "size",
        "5",
    );
    let expected = "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       <font>\n|         size=\"4\"\n\
        |         <font>\n|           size=\"4\"\n|           <font>\n|             size=\"5\"\n\
        |             <script>\n|               \"x\"\n|             <font>\n|               size=\"4\"\n\
        |     <p>\n|       <font>\n|         size=\"4\"\n|         <font>\n|           size=\"4\"\n\
        |           <font>\n|             size=\"4\"\n|             \"X\"\n";
    assert_eq!(dump, expected);
}

#[test]
fn an_option_is_cloned_into_selectedcontent_with_its_contents_current_attributes() {
    let dump = with_attribute_change(
        "<select><button><selectedcontent></selectedcontent></button>\
         <option><span>a<script>x</script></span></option></select>",
        |store| elements(store, "span")[0],
        "class",
        "k",
    );
    assert!(
        dump.contains(
            "|         <selectedcontent>\n|           <span>\n|             class=\"k\"\n"
        ),
        "{dump}"
    );
}
