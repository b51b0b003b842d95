//! The DOM surface scripts see, and the limits and failures of script runs.

use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom;
use tagloom_script::{ScriptConfig, ScriptLimits, ScriptedDocument, parse_document};

fn parse_with(page: &str, limits: ScriptLimits) -> ScriptedDocument {
    let mut config = ScriptConfig {
        limits,
        ..ScriptConfig::default()
    };
    config.session.decoder = DecoderConfig::with_transport(encoding_rs::UTF_8);
    parse_document(page.as_bytes(), &config).unwrap()
}

fn parse(page: &str) -> ScriptedDocument {
    parse_with(page, ScriptLimits::default())
}

/// What the page's scripts `out(…)`, space-separated (kept in an attribute).
fn output(page: &str) -> String {
    let doc = parse(&format!(
        "<pre id=out></pre><script>var got = []; function out(x) {{ got.push(x); \
         document.getElementById('out').setAttribute('got', got.join(' ')) }}</script>{page}"
    ));
    assert_eq!(doc.failures, [], "{}", dom::dump_document(&doc.store));
    let dump = dom::dump_document(&doc.store);
    let line = dump
        .lines()
        .find_map(|l| l.trim_start_matches(['|', ' ']).strip_prefix("got=\""));
    line.and_then(|l| l.strip_suffix('"'))
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn elements_are_found_by_id_and_tag_name_in_tree_order() {
    let got = output(
        "<p id=a class=x>t<b id=b></b></p><p></p><script>\
         out(document.getElementById('b').tagName);\
         out(document.getElementById('a').getAttribute('class'));\
         out(document.getElementById('zz') === null);\
         out(document.getElementsByTagName('P').length);\
         out(document.getElementsByTagName('*')[3].id);\
         out(document.getElementById('a').getElementsByTagName('b').length);\
         out(document.getElementById('b').parentNode.id);\
         out(document.getElementById('a').textContent);\
         out(document.getElementById('a').hasAttribute('ID'));\
         out(window.document === document && self === window);\
         </script>",
    );
    assert_eq!(got, "B x true 2 out 1 a t true true");
}

#[test]
fn attribute_changes_reach_the_document() {
    let doc = parse(
        "<p id=a>x</p><script>var p = document.getElementById('a');\
         p.setAttribute('Title', 'T'); p.id = 'b'; p.removeAttribute('title');\
         p.setAttribute('data-k', document.getElementById('b') ? 'found' : 'lost');</script>",
    );
    assert_eq!(doc.failures, []);
    let dump = dom::dump_document(&doc.store);
    assert!(
        dump.contains("|       data-k=\"found\"\n|       id=\"b\"\n|       \"x\""),
        "{dump}"
    );
}

#[test]
fn writeln_adds_a_newline_and_write_joins_its_arguments() {
    let doc =
        parse("<pre><script>document.writeln('a', 1, true); document.write('b')</script></pre>");
    assert!(dom::dump_document(&doc.store).contains("\"a1true\nb\""));
}

#[test]
fn a_script_that_throws_is_reported_and_the_parse_goes_on() {
    let doc =
        parse("<script>document.write('1'); throw new Error('boom')</script>2<script>x(</script>3");
    assert_eq!(doc.failures.len(), 2, "{:?}", doc.failures);
    assert!(doc.failures[0].message.contains("boom"));
    assert!(doc.failures.iter().all(|f| f.script.is_some()));
    let dump = dom::dump_document(&doc.store);
    assert!(
        dump.contains("|     \"12\"\n") && dump.ends_with("|     \"3\"\n"),
        "{dump}"
    );
}

#[test]
fn only_inline_javascript_runs() {
    let doc = parse(
        "<script type=text/plain>document.write('a')</script>\
         <script src=x.js>document.write('b')</script>\
         <script type='text/javascript; charset=utf-8'>document.write('c')</script>\
         <script type=module>document.write('d')</script>",
    );
    assert_eq!(doc.scripts_run, 1);
    let dump = dom::dump_document(&doc.store);
    assert!(dump.contains("\"c\"") && !dump.contains("\"a\"") && !dump.contains("\"b\""));
}

#[test]
fn limits_stop_runaway_scripts() {
    let limits = ScriptLimits {
        loop_iterations: 1000,
        recursion: 50,
        max_scripts: 3,
        ..ScriptLimits::default()
    };
    let doc = parse_with(
        "<script>while (true) {}</script>\
         <script>function f() { return f() } f()</script>\
         <script>1</script><script>2</script>",
        limits,
    );
    let messages: Vec<_> = doc.failures.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(messages[0].contains("iteration"), "{messages:?}");
    assert!(messages[1].contains("recursive calls"), "{messages:?}");
    assert!(messages[2].contains("not run"), "{messages:?}");
}

#[test]
fn a_script_writing_itself_forever_stops_at_the_nesting_limit() {
    let doc = parse(
        "<script id=s>document.write('<script>' + document.getElementsByTagName('script')[0].textContent + '</' + 'script>')</script>",
    );
    // Every level but the deepest wrote; the deepest write threw.
    assert_eq!(doc.scripts_run, 65);
    assert_eq!(doc.failures.len(), 1, "{:?}", doc.failures);
    assert!(
        doc.failures[0].message.contains("nesting level 65"),
        "{:?}",
        doc.failures
    );
}

#[test]
fn a_written_meta_that_changes_the_encoding_restarts_the_parse_and_the_scripts() {
    let page = b"<p>\xE8</p><script>document.write('<meta charset=iso-8859-' + '2>'); document.write('x')</script>";
    let doc = tagloom_script::parse_document(page, &ScriptConfig::default()).unwrap();
    assert_eq!(doc.session.restarts(), 1);
    // The first run stopped at the restart; the second wrote both.
    assert_eq!(doc.scripts_run, 2);
    assert_eq!(doc.failures, []);
    let dump = dom::dump_document(&doc.store);
    assert!(
        dump.contains("\"\u{10d}\"") && dump.contains("|     \"x\"\n"),
        "{dump}"
    );
    assert_eq!(
        doc.session.decoder().encoding(),
        Some(encoding_rs::ISO_8859_2)
    );
}
