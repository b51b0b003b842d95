//! Parser functions and magic words.

use tagloom_wikitext::preprocess::{Clock, Config, MemoryStore, Preprocessor, Site, Title};

fn run_on(page: &str, src: &str) -> String {
    let site = Site::default();
    let mut store = MemoryStore::default();
    store.insert(Title::parse("Template:Echo", 0, &site).unwrap(), "{{{1}}}");
    store.insert(Title::parse("Exists", 0, &site).unwrap(), "x");
    store.insert(
        Title::parse("Template:Err", 0, &site).unwrap(),
        "{{#expr:1/0}}",
    );
    let config = Config {
        clock: Clock::parse_rfc3339("1970-01-01T00:02:03Z").unwrap(),
        ..Config::default()
    };
    let pre = Preprocessor::new(&store, config);
    let title = Title::parse(page, 0, &site).unwrap();
    pre.expand(&title, src).unwrap().text
}

fn run(src: &str) -> String {
    run_on("Parser test", src)
}

#[test]
fn conditionals() {
    assert_eq!(
        run("{{#if: x | yes | no }}|{{#if: | yes | no }}|{{#if:  <!-- c -->  | yes | no }}"),
        "yes|no|no"
    );
    assert_eq!(run("{{#if:x|a=b}}"), "a=b");
    assert_eq!(
        run(
            "{{#ifeq: 01 | 1 | eq | ne }}{{#ifeq: a | A | eq | ne }}{{#ifeq: &amp; | & | eq | ne }}"
        ),
        "eqneeq"
    );
    assert_eq!(
        run("{{#ifeq: 1e3 | 1000 | eq | ne }}{{#ifeq: 0x1 | 1 | eq | ne }}"),
        "eqne"
    );
    assert_eq!(
        run(
            "{{#iferror: {{#expr: 1/0}} | bad | good }}|{{#iferror: fine | bad }}|{{#iferror:{{err}}|E}}"
        ),
        "bad|fine|E"
    );
    assert_eq!(
        run(
            "{{#ifexist: Exists | y | n }}{{#ifexist: exists | y | n }}{{#ifexist: Nope | y | n }}"
        ),
        "yyn"
    );
    assert_eq!(
        run("{{#ifexpr: 1 > 2 | y | n }}{{#ifexpr: 2 > 1 | y | n }}{{#ifexpr: | y | n }}"),
        "nyn"
    );
}

#[test]
fn switch() {
    let sw = |v: &str| {
        run(&format!(
            "{{{{#switch: {v} | a = A | b | c = BC | 2 = two | #default = D }}}}"
        ))
    };
    assert_eq!(sw("a"), "A");
    assert_eq!(sw("b"), "BC");
    assert_eq!(sw("c"), "BC");
    assert_eq!(sw("2.0"), "two");
    assert_eq!(sw("zz"), "D");
    // The last part without `=` is the default.
    assert_eq!(run("{{#switch: q | a = A | last }}"), "last");
    assert_eq!(run("{{#switch: q | a = A }}"), "");
    // `#default` without `=` falls through to the next value.
    assert_eq!(run("{{#switch: q | #default | a = DA }}"), "DA");
}

#[test]
fn expr() {
    assert_eq!(run("{{#expr: (1 + 2) * 3 mod 4 }}"), "1");
    assert_eq!(run("{{#expr: 10 / 4 round 0 }}"), "3");
    assert_eq!(run("{{#expr: 1 = 1 and 2 < 3 }}"), "1");
    assert_eq!(run("{{#expr: -(-2)^2 }}"), "4");
    assert_eq!(
        run("{{#expr: 1 +}}"),
        "<strong class=\"error\">Expression error: Missing operand for +.</strong>"
    );
    assert_eq!(
        run("{{#expr: abc }}"),
        "<strong class=\"error\">Expression error: Unrecognized word &quot;abc&quot;.</strong>"
    );
}

#[test]
fn text_functions() {
    assert_eq!(
        run("{{lc:ÀB}}{{uc:àb}}{{lcfirst:AB}}{{ucfirst:ab}}"),
        "àbÀBaBAb"
    );
    assert_eq!(
        run("{{padleft:7|3}}|{{padleft:xyz|5|ab}}|{{padright:x|3|_}}|{{padleft:long|2}}"),
        "007|abxyz|x__|long"
    );
    assert_eq!(
        run("{{urlencode:a b&c/d}}|{{urlencode:a b/c|PATH}}|{{urlencode:a b/c:d|WIKI}}"),
        "a+b%26c%2Fd|a%20b%2Fc|a_b/c:d"
    );
    assert_eq!(run("{{anchorencode:a [[b|c]] <i>d</i> e}}"), "a_c_d_e");
    assert_eq!(
        run("{{anchorencode: __pretty__please__}}|{{anchorencode:foo bar©#%n}}"),
        "pretty_please|foo_bar©#%n"
    );
    assert_eq!(
        run("{{formatnum:1234567.891}}|{{formatnum:-1000}}|{{formatnum:1,234|R}}"),
        "1,234,567.891|-1,000|1234"
    );
    assert_eq!(run("{{plural:1|is|are}} {{plural:3|is|are}}"), "is are");
    assert_eq!(
        run("{{#tag:ref|body {{echo|x}}|name=\"n\"}}"),
        "<ref name=\"n\">body x</ref>"
    );
    assert_eq!(run("{{#tag:nowiki}}"), "<nowiki/>");
    assert_eq!(
        run("{{#tag:blink|x}}"),
        "<span class=\"error\">Unknown extension tag \"blink\"</span>"
    );
    assert_eq!(run("{{!}}{{=}}"), "|=");
    assert_eq!(run("{{gender:X|he|she|they}}|{{gender:X|he}}"), "they|he");
    assert_eq!(
        run("{{#rel2abs:../c|a/b}}|{{#rel2abs:./d}}|{{#rel2abs:/e|x}}"),
        "a/c|Parser test/d|x/e"
    );
    assert!(run("{{#rel2abs:../../..|a}}").starts_with("<strong class=\"error\">"));
    assert_eq!(
        run("{{#invoke:Mod|fn}}"),
        "<strong class=\"error\"><span class=\"scribunto-error\">Script error: No such module &quot;Mod&quot;.</span></strong>"
    );
    assert_eq!(run("{{#iferror:{{#invoke:Mod|fn}}|no Lua}}"), "no Lua");
}

#[test]
fn page_names() {
    let src = "{{FULLPAGENAME}}|{{PAGENAME}}|{{PAGENAMEE}}|{{NAMESPACE}}|{{BASEPAGENAME}}|{{SUBPAGENAME}}|{{ROOTPAGENAME}}|{{TALKPAGENAME}}|{{NAMESPACENUMBER}}";
    assert_eq!(
        run_on("Help:A b/c d/e", src),
        "Help:A b/c d/e|A b/c d/e|A_b/c_d/e|Help|A b/c d|e|A b|Help talk:A b/c d/e|12"
    );
    // The main namespace has no subpages by default.
    assert_eq!(run_on("A/b", "{{BASEPAGENAME}}|{{SUBPAGENAME}}"), "A/b|A/b");
    assert_eq!(
        run_on(
            "Parser test",
            "{{PAGENAME:user:x'y}}|{{NAMESPACE:User talk:X}}|{{TALKSPACE}}|{{SUBJECTSPACE:Talk:X}}"
        ),
        "X&#39;y|User talk|Talk|"
    );
    assert_eq!(
        run("{{ns:10}}|{{ns:template}}|{{ns:-1}}|{{nse:11}}|{{ns:bogus}}"),
        "Template|Template|Special|Template_talk|"
    );
    assert_eq!(
        run("{{fullurl:Foo bar}}|{{localurl:Foo bar|action=edit}}"),
        "http://example.org/wiki/Foo_bar|/index.php?title=Foo_bar&action=edit"
    );
    assert_eq!(
        run("{{#titleparts:A/b/c/d|2}}|{{#titleparts:A/b/c/d|-1|2}}|{{#titleparts:A/b/c|1|-1}}"),
        "A/b|b/c|c"
    );
    assert_eq!(
        run("{{SITENAME}}|{{SERVER}}|{{SERVERNAME}}|{{CONTENTLANGUAGE}}"),
        "MediaWiki|http://example.org|example.org|en"
    );
}

#[test]
fn date_words_use_the_configured_clock() {
    assert_eq!(
        run(
            "{{CURRENTYEAR}}-{{CURRENTMONTH}}-{{CURRENTDAY2}} {{CURRENTTIME}} {{CURRENTDAYNAME}} {{CURRENTMONTHNAME}} {{CURRENTTIMESTAMP}} {{LOCALHOUR}}"
        ),
        "1970-01-01 00:02 Thursday January 19700101000203 00"
    );
    assert_eq!(
        run(
            "{{#time:Y-m-d H:i:s}}|{{#time:j F Y|2024-02-29}}|{{#time:U|@86400}}|{{#time:Y|bogus}}"
        ),
        "1970-01-01 00:02:03|29 February 2024|86400|<strong class=\"error\">Error: Invalid time.</strong>"
    );
    assert_eq!(
        run("{{REVISIONYEAR}}{{REVISIONMONTH}}{{REVISIONDAY2}}"),
        "19700101"
    );
    let fd = "<span class=\"mw-formatted-date\" title=";
    assert_eq!(
        run(
            "{{#formatdate:2009-03-24|mdy}}|{{#formatdate:24 March 2009|iso}}|{{#formatdate:jun. 3|dmy}}|{{#formatdate:2009-03-24}}"
        ),
        format!(
            "{fd}\"2009-03-24\">March 24, 2009</span>|{fd}\"2009-03-24\">2009-03-24</span>|{fd}\"06-03\">3 June</span>|{fd}\"2009-03-24\">2009-03-24</span>"
        )
    );
    assert_eq!(run("{{#formatdate:2019-22-22|dmy}}"), "2019-22-22");
    // Variables need no arguments: with one, the name is a template.
    assert_eq!(run("{{CURRENTYEAR|x}}"), "[[:Template:CURRENTYEAR]]");
}
