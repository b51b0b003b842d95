//! A tiny driver of the flow API (used for measurements and manual checks):
//! `l10n extract IN OUT.xlf|.po [SRC] [TRG]`, `l10n merge IN TRANSLATED OUT`,
//! `l10n pseudo IN OUT [TRG]`.

use std::path::Path;

use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions, PseudoOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
    let result = match arg(0) {
        "extract" => flow::extract(
            Path::new(arg(1)),
            Path::new(arg(2)),
            &ExtractOptions::new(
                args.get(3).map_or("en", String::as_str),
                args.get(4).map(String::as_str),
            ),
        ),
        "merge" => flow::merge(
            Path::new(arg(1)),
            Path::new(arg(2)),
            Path::new(arg(3)),
            &MergeOptions::default(),
        ),
        "pseudo" => flow::pseudo(
            Path::new(arg(1)),
            Path::new(arg(2)),
            &PseudoOptions {
                target_lang: args.get(3).cloned(),
                ..PseudoOptions::default()
            },
        ),
        _ => {
            eprintln!("usage: l10n extract|merge|pseudo …");
            std::process::exit(2);
        }
    };
    match result.and_then(|r| r.into_result()) {
        Ok(report) => {
            for f in &report.files {
                eprintln!(
                    "{} -> {}: {} blocks, {} translated, {} issues, encoding {}",
                    f.input.display(),
                    f.output.display(),
                    f.blocks,
                    f.translated,
                    f.issues.len(),
                    f.encoding
                );
                for i in &f.issues {
                    eprintln!("  issue {}: {}", i.id, i.message);
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
