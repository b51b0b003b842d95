//! Output must not depend on where the pipeline's 256-token chunks end: a
//! snippet after any number of filler tokens renders the same (the sink's
//! rule for `</p>` and two newlines looks ahead within what it is given).

use tagloom_wikitext::{RenderOptions, render};

fn html(wikitext: &str) -> String {
    render(wikitext, &RenderOptions::default()).expect("render")
}

/// Renders `make(filler)` for fillers of 0 to 600 `<br>` tokens (across two
/// chunk boundaries) and checks that, fillers removed, all render alike.
fn same_for_every_filler(make: impl Fn(&str) -> String) {
    let without_filler = |n: usize| html(&make(&"<br>".repeat(n))).replace("<br>", "");
    let first = without_filler(0);
    for n in 1..600 {
        assert_eq!(without_filler(n), first, "{n} filler tokens");
    }
}

#[test]
fn paragraph_end_and_two_newlines_in_a_page() {
    same_for_every_filler(|filler| format!("x{filler}\n\n<i>a</p>\n\nb</i>\n\nc"));
    same_for_every_filler(|filler| format!("x{filler}\n\n<i>a\n\nb</i>"));
}

#[test]
fn paragraph_end_and_two_newlines_in_a_ref() {
    same_for_every_filler(|filler| {
        format!("y<ref>x{filler}<i>a</p>\n\nb</i></ref>\n<references />")
    });
}
