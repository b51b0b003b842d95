//! Tables with templates (Parsoid's table fix-ups, fostered and compound
//! transclusions), self-contained: the parserTests harness needs data outside
//! the repository. Expected forms are Parsoid's.

mod support;

use tagloom_wikitext::{RenderOptions, render};

/// Templates of these tests: `echo` repeats its first argument, `open` and
/// `close` open and close a table, `cell` gives attributes and content.
const PAGES: &[(&str, &str)] = &[
    ("Template:Echo", "{{{1}}}"),
    ("Template:Open", "{|"),
    ("Template:Close", "|}"),
    ("Template:Cell", "style=\"color:red\"|Red"),
    ("Template:Two", "one\n|two"),
];

fn render_page(wikitext: &str) -> String {
    let options = RenderOptions {
        title: "Test".to_owned(),
        ..support::pages_options(PAGES)
    };
    render(wikitext, &options).expect("render")
}

/// The `data-mw` of the first element carrying `typeof="mw:Transclusion"`,
/// unescaped.
fn first_data_mw(html: &str) -> Option<String> {
    let at = html.find("data-mw=\"")?;
    let rest = html.get(at + 9..)?;
    let end = rest.find('"')?;
    Some(
        rest.get(..end)?
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">"),
    )
}

const ECHO: &str = r#"{"template":{"target":{"wt":"echo","href":"./Template:Echo"},"#;

#[test]
fn a_call_giving_a_pipe_makes_the_cell() {
    // `|` + a call giving `|y` is `||`: one cell, the call's.
    let out = render_page("{|\n|{{echo|{{!}}y}}\n|}");
    assert!(
        out.contains("<td about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(out.contains(">y\n</td>"), "{out}");
    let data = first_data_mw(&out).expect("data-mw");
    assert!(
        data.starts_with(&format!(r#"{{"parts":["|",{ECHO}"#)),
        "{data}"
    );
    // `||` + the call: an empty cell, then the call's.
    let out = render_page("{|\n||{{echo|{{!}}y}}\n|}");
    assert!(out.contains("<td></td><td about"), "{out}");
}

#[test]
fn attributes_from_a_call() {
    let out = render_page("{|\n|{{cell}}\n|}");
    assert!(
        out.contains("<td style=\"color:red\" about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(out.contains(">Red\n</td>"), "{out}");
    // Written attributes before the call's stay; the cell's wikitext is a part.
    let out = render_page("{|\n|align=center {{cell}}\n|}");
    assert!(
        out.contains("<td align=\"center\" style=\"color:red\""),
        "{out}"
    );
    let data = first_data_mw(&out).expect("data-mw");
    assert!(
        data.starts_with(r#"{"parts":["|align=center ",{"template""#),
        "{data}"
    );
}

#[test]
fn a_call_spanning_cells_takes_both() {
    let out = render_page("{|\n|a {{two}} b\n|}");
    let data = first_data_mw(&out).expect("data-mw");
    assert!(data.starts_with(r#"{"parts":["|a ",{"template""#), "{data}");
    assert!(data.ends_with(r#"," b"]}"#), "{data}");
    assert!(out.contains("<td about=\"#mwt1\">two b"), "{out}");
}

#[test]
fn fostered_output_takes_the_table() {
    let out = render_page("{|\n{{echo|x}}\n|}");
    assert!(
        out.starts_with("<p about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    let data = first_data_mw(&out).expect("data-mw");
    assert!(
        data.starts_with(r#"{"parts":["{|\n",{"template""#),
        "{data}"
    );
    assert!(data.ends_with(r#","\n|}"]}"#), "{data}");
}

#[test]
fn a_table_opened_and_closed_by_two_calls() {
    let out = render_page("{{open}}\n|a\n{{close}}");
    assert!(
        out.contains("<table about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    let data = first_data_mw(&out).expect("data-mw");
    assert!(data.contains(r#""i":0}},"\n|a\n",{"template""#), "{data}");
    assert!(data.contains(r#""i":1}}]}"#), "{data}");
}

#[test]
fn a_call_inside_another_calls_range_joins_it() {
    let out = render_page("{{echo|<div>}}\n{|\n|x\n|}\n{{echo|</div>}}");
    assert_eq!(
        out.matches("typeof=\"mw:Transclusion\"").count(),
        1,
        "{out}"
    );
    let data = first_data_mw(&out).expect("data-mw");
    assert!(
        data.contains(r#""i":0}},"\n{|\n|x\n|}\n",{"template""#),
        "{data}"
    );
}

#[test]
fn a_call_giving_a_row_takes_the_row() {
    // Its markers would be fostered out of the table; the row carries them.
    let out = render_page("{|\n|-\n{{echo|<tr><td>x</td></tr>}}\n|}");
    assert!(
        out.contains("<tr about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(out.starts_with("<table>"), "{out}");
}

#[test]
fn empty_rows_comments_and_attributes() {
    assert!(render_page("{|\n|- class=\"r\"\n|}").contains("<tr class=\"r mw-empty-elt\">"));
    let out = render_page("{|<!--c-->\n|-<!--d-->\n|x\n|}");
    assert!(
        out.starts_with("<table><!--c-->\n<tbody><tr><!--d-->"),
        "{out}"
    );
    // An open quote ends the value at the pipe; tags among attributes go.
    let out = render_page("{|\n| width=\"60 {{!}}0\" x\n| <span>x</span> align=left |y\n|}");
    assert!(out.contains("<td width=\"60 \">0\" x"), "{out}");
    assert!(out.contains("<td align=\"left\">y"), "{out}");
}

#[test]
fn wikitext_cells_are_trimmed() {
    let out = render_page("{|\n|+ <!--a--> cap <!--b--> \n|  x <!--c--> ||  y  \n|}");
    assert!(
        out.contains("<caption><!--a-->cap<!--b-->\n</caption>"),
        "{out}"
    );
    assert!(out.contains("<td>x<!--c--></td><td>y\n</td>"), "{out}");
    // HTML cells keep their spaces.
    let out = render_page("<table><tr><td> x </td></tr></table>");
    assert!(out.contains("<td> x </td>"), "{out}");
}

#[test]
fn cells_on_one_line() {
    // `!!` in a link's text is text; each `||` cell balances its own quotes.
    let out = render_page("{|\n![[A|b!!c]]\n|}");
    assert!(out.contains(">b!!c</a>\n</th></tr>"), "{out}");
    let out = render_page("{|\n|''a||''b\n|}");
    assert!(out.contains("<td><i>a</i></td><td><i>b</i>"), "{out}");
}

#[test]
fn pipe_magic_word_outside_tables_is_a_transclusion() {
    let out = render_page("{{!}} a");
    assert!(
        out.contains(r##"<span about="#mwt1" typeof="mw:Transclusion""##),
        "{out}"
    );
    let data = first_data_mw(&out).expect("data-mw");
    assert!(
        data.contains(r#""target":{"wt":"!","function":"!"}"#),
        "{data}"
    );
    // In a table it is table syntax, unless it is a cell's content.
    let out = render_page("{|\n{{!}}a{{!}}{{!}}b\n|}");
    assert!(out.contains("<td>a</td><td>b"), "{out}");
    let out = render_page("{|\n| class=\"x\" |a {{!}} b\n|}");
    assert!(
        out.contains(r##"<td class="x">a <span about="#mwt1" typeof="mw:Transclusion""##),
        "{out}"
    );
}

#[test]
fn many_templated_cells() {
    // Every fix-up is collected first and applied once: thousands of
    // templated cells stay cheap and each is encapsulated.
    let mut page = String::from("{|\n");
    for _ in 0..1000 {
        page.push_str("|{{echo|{{!}}y}}\n|-\n");
    }
    page.push_str("|}");
    let out = render_page(&page);
    assert_eq!(out.matches("<td about=").count(), 1000);
    // Thousands of calls in one cell: each encapsulated on its own.
    let page = format!("{{|\n|a {}\n|}}", "{{echo|x}} ".repeat(2000));
    let out = render_page(&page);
    assert_eq!(out.matches("typeof=\"mw:Transclusion\"").count(), 2000);
}
