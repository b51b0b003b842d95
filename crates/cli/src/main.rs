//! `tagloom`: the command-line face of the tagloom HTML engine.
//!
//! The subcommands `tokens` and `sniff` are a contract (see DESIGN.md, "The
//! conformance interface of the CLI"): outside conformance checks drive the binary
//! through them, so their options and output formats only ever grow.

mod allocator;
mod batch;
mod commands;
mod input;
mod output;
mod usage;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

/// A streaming, spec-faithful HTML5 engine: tokenize, sniff encodings, parse.
#[derive(Parser)]
#[command(
    name = "tagloom",
    version,
    about = "tagloom: a streaming, spec-faithful HTML5 engine (tokenize, sniff encodings, parse)",
    after_help = "FILE may be `-` for standard input. Exit status: 0 on success (or when the reader of the output goes away), 2 on bad usage or input.",
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
    /// Sanitize HTML body content against a policy (allow-lists, URL and CSS checks).
    Sanitize(commands::sanitize::Args),
    /// Localization: extract translatable text, merge translations back byte-exactly.
    #[command(subcommand)]
    L10n(commands::l10n::Command),
    /// Rewrite HTML as it streams, by CSS-selector rules (a JSON file); untouched input is copied byte for byte.
    Rewrite(commands::rewrite::Args),
    /// Tokenize and parse a page (a built-in sample by default) and print a summary.
    Demo(commands::demo::Args),
    /// Replace `<include src>` / `<esi:include src>` with the files they name (server-side includes).
    Include(commands::include::Args),
    /// Render wikitext to Parsoid-style HTML.
    Wiki(commands::wiki::Args),
    /// Serve a page (or a directory of pages) on 127.0.0.1 and watch it render batch by batch in a browser.
    View(commands::view::Args),
    /// Run a job (text, links, l10n-words, sanitize) over every HTML page of WARC/ARC files.
    Warc(commands::warc::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    let result = match cli.command {
        Command::Tokens(args) => commands::tokens::run(&args),
        Command::Sniff(args) => commands::sniff::run(&args),
        Command::Parse(args) => commands::parse::run(&args),
        Command::Demo(args) => commands::demo::run(&args),
        Command::Include(args) => commands::include::run(&args),
        Command::Wiki(args) => commands::wiki::run(&args),
        Command::View(args) => commands::view::run(&args),
        Command::Warc(args) => commands::warc::run(&args),
        Command::Rewrite(args) => commands::rewrite::run(&args),
        Command::Sanitize(args) => commands::sanitize::run(&args),
        Command::L10n(command) => {
            allocator::return_freed_memory_at_once();
            match commands::l10n::run(&command) {
                Ok(code) => return code,
                Err(err) => Err(err),
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`| head`): not an error.
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
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
            eprintln!("tagloom: error: {}", line.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// `--help` and `--version` print as clap writes them (exit 0, quietly if the reader
/// of standard output is gone); bad usage is one line on standard error, exit 2.
fn usage_error(err: &clap::Error) -> ExitCode {
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return match err.print() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => ExitCode::from(2),
            _ => ExitCode::SUCCESS,
        };
    }
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let line = usage::one_line(err, &Cli::command(), &args);
    eprintln!("tagloom: error: {line}");
    ExitCode::from(2)
}
