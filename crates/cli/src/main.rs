//! `tagloom`: the command-line face of the tagloom HTML engine.
//!
//! The subcommands `tokens` and `sniff` are a contract (see DESIGN.md, "The
//! conformance interface of the CLI"): outside conformance checks drive the binary
//! through them, so their options and output formats only ever grow.

mod commands;
mod input;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A streaming, spec-faithful HTML5 engine: tokenize, sniff encodings, parse.
#[derive(Parser)]
#[command(
    name = "tagloom",
    version,
    about = "tagloom: a streaming, spec-faithful HTML5 engine (tokenize, sniff encodings, parse)",
    after_help = "FILE may be `-` for standard input. Exit status: 0 on success, 2 on bad usage or input.",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Tokenize FILE and print the tokens as html5lib-tests JSON.
    Tokens(commands::tokens::Args),
    /// Print the encoding the WHATWG sniffing algorithm picks for FILE.
    Sniff(commands::sniff::Args),
    /// Parse FILE into a tree; print it (html5lib dump or HTML) or its DomPatch stream.
    Parse(commands::parse::Args),
    /// Localization: extract translatable text, merge translations back byte-exactly.
    #[command(subcommand)]
    L10n(commands::l10n::Command),
    /// Tokenize and parse a page (a built-in sample by default) and print a summary.
    Demo(commands::demo::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Tokens(args) => commands::tokens::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Sniff(args) => commands::sniff::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Parse(args) => commands::parse::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Demo(args) => commands::demo::run(&args).map(|()| ExitCode::SUCCESS),
        Command::L10n(command) => commands::l10n::run(&command),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            // One line: the error and those of its causes it does not already say.
            let mut line = String::new();
            for cause in err.chain().map(|c| c.to_string()) {
                if !line.contains(&cause) {
                    if !line.is_empty() {
                        line.push_str(": ");
                    }
                    line.push_str(&cause);
                }
            }
            eprintln!("tagloom: {}", line.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
