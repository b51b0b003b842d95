//! `tagloom parse --processing-instructions`: `<?target data?>` becomes a
//! processing instruction node (the July 2026 spec); without the flag it stays
//! the bogus comment html5lib-tests expect.

use std::process::Command;

fn parse(args: &[&str], input: &str) -> String {
    // Removed when the call returns.
    let dir = tempfile::tempdir().unwrap();
    let file = dir
        .path()
        .join(format!("in-{}.html", args.join("_").replace('-', "")));
    std::fs::write(&file, input).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tagloom"))
        .arg("parse")
        .args(args)
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_flag_turns_processing_instructions_on() {
    let input = "<p>a<?php echo 1?>b";
    assert_eq!(
        parse(&["--processing-instructions"], input),
        "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"a\"\n|       <?php echo 1>\n|       \"b\"\n"
    );
    assert_eq!(
        parse(&[], input),
        "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"a\"\n|       <!-- ?php echo 1? -->\n|       \"b\"\n"
    );
    assert_eq!(
        parse(&["--processing-instructions", "--format", "html"], input),
        "<html><head></head><body><p>a<?php echo 1?>b</p></body></html>\n"
    );
    let patches = parse(&["--processing-instructions", "--format", "patches"], input);
    assert!(
        patches
            .lines()
            .any(|l| l.contains(r#""op":"CreateProcessingInstruction""#)
                && l.ends_with(r#""target":"php","data":"echo 1"}"#)),
        "{patches}"
    );
}
