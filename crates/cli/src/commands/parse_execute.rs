//! `tagloom parse --scripting execute`: the parse with the document's inline
//! scripts run at `</script>` (tagloom-script, the boa engine). A script that
//! throws is a warning on standard error (`tagloom: warning: FILE: script …`);
//! the parse goes on, as in a browser. With `--format patches`, the patches
//! are the parser's: attribute changes made by scripts are in the tree, not in
//! the patch stream.

use std::io::Write;
use std::ops::ControlFlow;

use anyhow::{Context, Result};
use tagloom_html::session::SessionConfig;
use tagloom_script::{ScriptConfig, ScriptedParser};

use super::{Args, ErrorLister, Format, write_patches, write_tree};
use crate::input::{DEFAULT_PIECE, Input, warn_if_guessed};
use crate::output;

pub(super) fn run(args: &Args, session: SessionConfig, input: Input) -> Result<()> {
    let config = ScriptConfig {
        session,
        ..ScriptConfig::default()
    };
    let mut parser = ScriptedParser::new(&config);
    let patches = args.format == Format::Patches;
    if patches {
        parser.keep_batches();
    }
    let mut out = output::stdout();
    let piece = args
        .chunk_size
        .map_or(DEFAULT_PIECE, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let flush = |parser: &mut ScriptedParser, out: &mut dyn Write| -> Result<()> {
        for batch in parser.take_batches() {
            write_patches(&batch.patches, &mut &mut *out)?;
        }
        Ok(())
    };
    input.stream(piece, |bytes| {
        parser.push(bytes)?;
        flush(&mut parser, &mut out)?;
        Ok(ControlFlow::Continue(()))
    })?;
    parser.finish()?;
    flush(&mut parser, &mut out)?;
    let mut doc = parser.into_document()?;
    let name = args.file.display();
    for failure in &doc.failures {
        let at = failure
            .script
            .map(|k| format!(" (node {})", k.0))
            .unwrap_or_default();
        eprintln!("tagloom: warning: {name}: script{at}: {}", failure.message);
    }
    if let Some(format) = args.errors {
        let lister = ErrorLister::new(format);
        let mut err = std::io::stderr().lock();
        for error in doc.session.take_errors() {
            writeln!(err, "{}", lister.line(&error)).context("cannot write standard error")?;
        }
    }
    warn_if_guessed(&args.file, doc.session.decoder().sniffed());
    write_tree(args.format, &doc.store, None, true, &mut out)
}
