//! Template semantics (issue 11, acceptance 2): frames, arguments, defaults,
//! nesting, depth, loops, `{{!}}` in tables, tables split across templates.

use tagloom_wikitext::preprocess::{
    Config, Expansion, MemoryStore, Preprocessor, Site, Title, Warning,
};

fn store(pages: &[(&str, &str)]) -> MemoryStore {
    let site = Site::default();
    let mut s = MemoryStore::default();
    for (t, src) in pages {
        s.insert(Title::parse(t, 0, &site).unwrap(), *src);
    }
    s
}

fn run_with(pages: &[(&str, &str)], config: Config, src: &str) -> Expansion {
    let s = store(pages);
    let pre = Preprocessor::new(&s, config);
    let title = Title::parse("Test page", 0, &Site::default()).unwrap();
    pre.expand(&title, src).unwrap()
}

fn run(pages: &[(&str, &str)], src: &str) -> String {
    run_with(pages, Config::default(), src).text
}

#[test]
fn named_arguments_are_trimmed_positional_are_not() {
    let pages = [("Template:Show", "[{{{1}}}][{{{name}}}][{{{2}}}]")];
    assert_eq!(run(&pages, "{{show| a |name= b | c }}"), "[ a ][b][ c ]");
    // Numbered by name: trimmed like any named argument.
    assert_eq!(run(&pages, "{{show|1= a }}"), "[a][{{{name}}}][{{{2}}}]");
    // The later of two arguments with one name wins.
    assert_eq!(run(&pages, "{{show|1=x|y}}"), "[y][{{{name}}}][{{{2}}}]");
    assert_eq!(run(&pages, "{{show|y|1=x}}"), "[x][{{{name}}}][{{{2}}}]");
}

#[test]
fn defaults_and_missing_arguments() {
    let pages = [("Template:D", "{{{1|one}}}/{{{x|}}}/{{{y}}}/{{{z|a=b}}}")];
    assert_eq!(run(&pages, "{{d}}"), "one//{{{y}}}/a=b");
    assert_eq!(run(&pages, "{{d|}}"), "//{{{y}}}/a=b");
    assert_eq!(run(&pages, "{{d|1|x=2|y=3|z=4}}"), "1/2/3/4");
    // Defaults are expanded in the template's own frame, so they can use its arguments.
    let pages = [("Template:E", "{{{a|{{{b|none}}}}}}")];
    assert_eq!(run(&pages, "{{e|b=B}}"), "B");
    assert_eq!(run(&pages, "{{e}}"), "none");
    // On the page itself, arguments never exist.
    assert_eq!(run(&[], "{{{1}}} {{{1|d}}}"), "{{{1}}} d");
}

#[test]
fn nested_frames_expand_arguments_in_the_callers_frame() {
    let pages = [
        ("Template:Outer", "<{{inner|{{{1}}}|k={{{2|z}}}}}>"),
        ("Template:Inner", "{{{1}}}+{{{k}}}"),
    ];
    assert_eq!(run(&pages, "{{outer|a|b}}"), "<a+b>");
    assert_eq!(run(&pages, "{{outer|a}}"), "<a+z>");
    // An argument used twice is the same text.
    let pages = [("Template:Twice", "{{{1}}}{{{1}}}")];
    assert_eq!(run(&pages, "{{twice|{{#expr:1+1}}}}"), "22");
    // Template names and argument names can themselves be computed.
    let pages = [
        ("Template:Pick", "{{{{{1}}}|{{{{{2}}}}}}}"),
        ("Template:X", "x{{{1}}}"),
        ("Template:Arg", "{{{v}}}"),
    ];
    // `{{{{{2}}}}}` is `{{ {{{2}}} }}`: the template named by argument 2.
    assert_eq!(run(&pages, "{{pick|x|arg|v=7}}"), "x{{{v}}}");
    assert_eq!(run(&pages, "{{pick|x|v}}"), "x[[:Template:V]]");
}

#[test]
fn title_normalization() {
    let pages = [("Template:Foo bar", "FB")];
    assert_eq!(
        run(
            &pages,
            "{{foo_bar}}{{ Foo  bar }}{{Template:foo bar}}{{template:Foo_bar}}"
        ),
        "FBFBFBFB"
    );
    // `{{:X}}` transcludes from the main namespace; `{{subst:…}}` stays as written.
    let pages = [("Main", "M")];
    assert_eq!(run(&pages, "{{:main}} {{subst:main}}"), "M {{subst:main}}");
}

#[test]
fn missing_templates_are_red_links() {
    let out = run_with(&[], Config::default(), "a {{Nope|x}} b");
    assert_eq!(out.text, "a [[:Template:Nope]] b");
    assert_eq!(
        out.warnings,
        vec![Warning::Missing {
            title: "Template:Nope".into()
        }]
    );
    // Invalid titles are text, their parts expanded.
    assert_eq!(run(&[], "{{a[b|{{!}}}}"), "{{a[b||}}");
}

#[test]
fn redirects_are_followed() {
    let pages = [
        ("Template:Cn", "#REDIRECT [[Template:Citation needed]]"),
        ("Template:Citation needed", "[cn]"),
    ];
    assert_eq!(run(&pages, "x{{cn}}"), "x[cn]");
}

#[test]
fn depth_limit_40() {
    // A chain of 45 distinct templates: T1 calls T2 … calls T45.
    let names: Vec<String> = (1..=45).map(|k| format!("Template:T{k}")).collect();
    let bodies: Vec<String> = (1..=45)
        .map(|k| format!("{k} {{{{T{}}}}}", k + 1))
        .collect();
    let pages: Vec<(&str, &str)> = names
        .iter()
        .map(String::as_str)
        .zip(bodies.iter().map(String::as_str))
        .collect();
    let out = run_with(&pages, Config::default(), "{{T1}}");
    assert!(out.text.starts_with("1 2 3 "), "{}", out.text);
    assert!(
        out.text.contains(
            "39 40 <span class=\"error\">Template recursion depth limit exceeded (40)</span>"
        ),
        "{}",
        out.text
    );
    assert!(!out.text.contains(" 41 "));
    assert_eq!(
        out.warnings,
        vec![Warning::TooDeep {
            title: "Template:T41".into()
        }]
    );
    // Exactly 40 levels are fine.
    let mut limits = Config::default();
    limits.limits.max_depth = 46;
    let out = run_with(&pages, limits, "{{T1}}");
    assert!(out.text.contains(" 45 [[:Template:T46]]"), "{}", out.text);
}

#[test]
fn loops_direct_and_through_two_templates() {
    let out = run_with(
        &[("Template:Self", "a{{self}}b")],
        Config::default(),
        "{{self}}",
    );
    assert_eq!(
        out.text,
        "a<span class=\"error\">Template loop detected: [[Template:Self]]</span>b"
    );
    assert_eq!(
        out.warnings,
        vec![Warning::Loop {
            title: "Template:Self".into()
        }]
    );

    let pages = [("Template:A", "A({{B}})"), ("Template:B", "B({{A}})")];
    assert_eq!(
        run(&pages, "{{A}}|{{B}}"),
        "A(B(<span class=\"error\">Template loop detected: [[Template:A]]</span>))|\
         B(A(<span class=\"error\">Template loop detected: [[Template:B]]</span>))"
    );
    // The same template twice side by side (not nested) is no loop.
    let pages = [("Template:X", "x"), ("Template:Y", "{{X}}{{X}}")];
    assert_eq!(run(&pages, "{{Y}}{{Y}}"), "xxxx");
    // A loop through an argument: the argument is expanded in the caller's frame,
    // where the template is not an ancestor.
    let pages = [("Template:Wrap", "[{{{1}}}]")];
    assert_eq!(run(&pages, "{{wrap|{{wrap|x}}}}"), "[[x]]");
}

#[test]
fn pipe_word_in_tables() {
    let pages = [
        ("Template:Cell", "{{!}} {{{1}}}"),
        ("Template:Row", "{{!}}-\n{{cell|{{{1}}}}}\n{{cell|{{{2}}}}}"),
    ];
    assert_eq!(run(&pages, "{|\n{{row|a|b}}\n|}"), "{|\n|-\n| a\n| b\n|}");
    // `{{!}}` does not split the parts of the call it is in.
    let pages = [("Template:Echo", "{{{1}}}")];
    assert_eq!(run(&pages, "{{echo|a{{!}}b}}"), "a|b");
    assert_eq!(run(&pages, "{{echo|a{{=}}b}}"), "a=b");
}

#[test]
fn unbalanced_templates_open_and_close_a_table() {
    let pages = [
        ("Template:Table start", "{| class=\"wikitable\"\n"),
        ("Template:Table end", "|}"),
    ];
    let src = "{{table start}}\n| a || b\n|-\n| c\n{{table end}}";
    // At the very start of the text MediaWiki does not count the call as
    // starting a line (`lineStart` needs a preceding newline), so a newline is
    // added before the table.
    assert_eq!(
        run(&pages, src),
        "\n{| class=\"wikitable\"\n\n| a || b\n|-\n| c\n|}"
    );
    assert_eq!(
        run(&pages, &format!("x\n{src}")),
        "x\n{| class=\"wikitable\"\n\n| a || b\n|-\n| c\n|}"
    );
    // Mid-line, a template that starts a table begins a new line (T2529).
    assert_eq!(
        run(&pages, "x {{table start}}"),
        "x \n{| class=\"wikitable\"\n"
    );
    let pages = [("Template:List", "* item")];
    assert_eq!(
        run(&pages, "text {{list}}\n{{list}}"),
        "text \n* item\n* item"
    );
}

#[test]
fn include_modes() {
    let pages = [
        (
            "Template:Modes",
            "a<noinclude>N</noinclude>b<includeonly>I</includeonly>c",
        ),
        (
            "Template:Only",
            "x<onlyinclude>1</onlyinclude>y<onlyinclude>{{{1}}}</onlyinclude>z",
        ),
    ];
    assert_eq!(run(&pages, "{{modes}}"), "abIc");
    assert_eq!(
        run(
            &pages,
            "a<noinclude>N</noinclude>b<includeonly>I</includeonly>c"
        ),
        "aNbc"
    );
    assert_eq!(run(&pages, "{{only|2}}"), "12");
    assert_eq!(run(&pages, "x<onlyinclude>1</onlyinclude>y"), "x1y");
    // An unclosed includeonly runs to the end.
    assert_eq!(run(&[], "a<includeonly>b"), "a");
}

#[test]
fn ref_content_is_expanded_in_its_frame() {
    let pages = [
        (
            "Template:Fn",
            "x<ref name=\"{{{n}}}\">{{{1}}} {{echo|y}}</ref>",
        ),
        ("Template:Echo", "{{{1}}}"),
    ];
    // The content is expanded where the tag is; the attributes stay as written.
    assert_eq!(
        run(&pages, "{{fn|note|n=a}}"),
        "x<ref name=\"{{{n}}}\">note y</ref>"
    );
    assert_eq!(
        run(&pages, "<ref>{{echo|z}}</ref><nowiki>{{echo|z}}</nowiki>"),
        "<ref>z</ref><nowiki>{{echo|z}}</nowiki>"
    );
}

#[test]
fn comments_and_extension_tags_are_not_expanded() {
    let pages = [("Template:X", "X")];
    assert_eq!(
        run(
            &pages,
            "a<!-- {{x}} -->b<nowiki>{{x}}</nowiki><pre>{{x}}</pre>{{x}}"
        ),
        "ab<nowiki>{{x}}</nowiki><pre>{{x}}</pre>X"
    );
    // A line of only comments is removed with its newline.
    assert_eq!(run(&[], "a\n <!-- c --> \nb"), "a\nb");
    let keep = Config {
        keep_comments: true,
        ..Config::default()
    };
    assert_eq!(
        run_with(&[], keep.clone(), "a<!-- c -->b").text,
        "a<!-- c -->b"
    );
    // Kept comments are no part of compared values.
    let src = "{{#ifeq: a | a <!-- c --> | y | n }}{{#switch: b | b<!-- c --> = B }}";
    assert_eq!(run_with(&[], keep, src).text, "yB");
    // Comments inside template names and argument names are ignored.
    assert_eq!(run(&pages, "{{x<!-- c -->}}"), "X");
}
