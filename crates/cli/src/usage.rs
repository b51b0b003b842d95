//! Bad usage as one line on standard error (what the README promises), instead of
//! clap's block of message, tips, usage and "For more information".

use std::ffi::OsString;

use clap::error::ErrorKind;

/// `err` (a command-line parse failure) as one line without the `tagloom: error: `
/// prefix: clap's message with its context lines and tips joined, then where to read
/// more, e.g. `unexpected argument '--foo' found (try 'tagloom parse --help')`.
/// `args` is the command line (without the program name) and `cli` the command
/// tree, to name the subcommand the user was in.
pub fn one_line(err: &clap::Error, cli: &clap::Command, args: &[OsString]) -> String {
    let (path, command) = subcommand_path(cli, args);
    let message = match err.kind() {
        // `tagloom` or `tagloom l10n` alone: clap would print the whole help.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let names: Vec<&str> = command
                .get_subcommands()
                .map(clap::Command::get_name)
                .filter(|name| *name != "help")
                .collect();
            format!("a subcommand is required: {}", names.join(", "))
        }
        _ => flatten(&err.render().to_string()),
    };
    format!("{message} (try '{path} --help')")
}

/// Joins the first paragraph of a rendered clap error (the message and its context,
/// such as `[possible values: …]`) and the tips of the later ones; drops the usage
/// line and the "For more information" pointer, which `one_line` replaces.
fn flatten(rendered: &str) -> String {
    let mut paragraphs = rendered.split("\n\n");
    let first = paragraphs.next().unwrap_or_default();
    let mut line = words(first.strip_prefix("error: ").unwrap_or(first));
    for tip in paragraphs.filter_map(|p| p.trim_start().strip_prefix("tip: ")) {
        line.push_str("; ");
        line.push_str(&words(tip));
    }
    line
}

/// The lines of `text`, trimmed and joined with single spaces.
fn words(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `tagloom l10n extract` for `l10n extract a.html --bad`: the subcommands named on
/// the command line, with the deepest one's definition.
fn subcommand_path<'c>(cli: &'c clap::Command, args: &[OsString]) -> (String, &'c clap::Command) {
    let mut path = cli.get_name().to_owned();
    let mut command = cli;
    for arg in args {
        let Some(arg) = arg.to_str() else { break };
        if arg.starts_with('-') {
            continue;
        }
        match command.find_subcommand(arg) {
            Some(sub) => {
                path.push(' ');
                path.push_str(sub.get_name());
                command = sub;
            }
            None => break,
        }
    }
    (path, command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_blocks_become_one_line() {
        let block = "error: the following required arguments were not provided:\n  <FILE>\n\n\
                     Usage: tagloom parse <FILE>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            flatten(block),
            "the following required arguments were not provided: <FILE>"
        );
        let block = "error: unexpected argument '--formt' found\n\n  tip: a similar argument \
                     exists: '--format'\n\nUsage: tagloom parse --format <FORMAT> <FILE>\n\n\
                     For more information, try '--help'.\n";
        assert_eq!(
            flatten(block),
            "unexpected argument '--formt' found; a similar argument exists: '--format'"
        );
    }

    #[test]
    fn the_path_names_the_subcommands_given() {
        let cli = clap::Command::new("tagloom").subcommand(
            clap::Command::new("l10n")
                .subcommand(clap::Command::new("extract").arg(clap::Arg::new("input"))),
        );
        let args: Vec<OsString> = ["l10n", "--quiet", "extract", "l10n", "x"]
            .iter()
            .map(OsString::from)
            .collect();
        let (path, command) = subcommand_path(&cli, &args);
        assert_eq!(path, "tagloom l10n extract");
        assert_eq!(command.get_name(), "extract");
    }
}
