//! A tiny driver of the flow API (used for measurements and manual checks):
//! `l10n extract IN OUT.xlf|.po [SRC] [TRG]`, `l10n merge IN TRANSLATED OUT`,
//! `l10n pseudo IN OUT [TRG]`.

use std::path::Path;

use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions, PseudoOptions};
use tagloom_l10n::{L10nError, LanguageTag};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
    let result = match arg(0) {
        "extract" => ExtractOptions::new(
            args.get(3).map_or("en", String::as_str),
            args.get(4).map(String::as_str),
        )
        .and_then(|options| flow::extract(Path::new(arg(1)), Path::new(arg(2)), &options)),
        "merge" => flow::merge(
            Path::new(arg(1)),
            Path::new(arg(2)),
            Path::new(arg(3)),
            &MergeOptions::default(),
        ),
        "pseudo" => args
            .get(3)
            .map(|t| t.parse::<LanguageTag>())
            .transpose()
            .map_err(|source| L10nError::Language {
                context: "target language".into(),
                source,
            })
            .and_then(|target_lang| {
                let options = PseudoOptions {
                    target_lang,
                    ..PseudoOptions::default()
                };
                flow::pseudo(Path::new(arg(1)), Path::new(arg(2)), &options)
            }),
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
                    eprintln!("  not applied: {i}");
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
