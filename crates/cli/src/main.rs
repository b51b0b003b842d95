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
    /// Tokenize a page (a built-in sample by default) and print a summary.
    Demo(commands::demo::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Tokens(args) => commands::tokens::run(&args),
        Command::Sniff(args) => commands::sniff::run(&args),
        Command::Demo(args) => commands::demo::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // One line: the error and its causes.
            let causes: Vec<String> = err.chain().map(|c| c.to_string()).collect();
            eprintln!("tagloom: {}", causes.join(": "));
            ExitCode::from(2)
        }
    }
}
