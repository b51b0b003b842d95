//! `tagloom include IN [--root DIR] [-o OUT]`: server-side includes.
//!
//! `<include src="…">` and `<esi:include src="…"/>` are replaced by the files they
//! name under the root, resolved in the transform pipeline's asynchronous phase
//! (nested includes, a depth limit, loop detection; problems become visible
//! `<span class="tagloom-error">` markup, see `tagloom_transform::include`).
//!
//! Output is byte-preserving by default: every untouched byte of IN comes back as
//! it was and only included content is serialized (what users of server-side
//! includes expect); `--tree` writes the serialization of the spec tree instead.
//! IN may be a directory: every HTML file in it is processed in parallel (a
//! progress bar on standard error) into the same relative path under OUT. An
//! output file is written beside its destination and renamed into place, so a
//! failed run leaves no partial file. Input must be UTF-8.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tagloom_transform::include::{DirResolver, IncludeConfig, IncludeOutput, Includes};
use tagloom_transform::pipeline::PipelineConfig;

use crate::batch;
use crate::input::read_all;

/// Options of `tagloom include`.
#[derive(clap::Args)]
pub struct Args {
    /// The page, a directory of pages, or `-` for standard input.
    input: PathBuf,
    /// Resolve `src` under this directory (default: the directory of IN, IN itself
    /// when it is a directory, the current directory for standard input).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Where to write (`-`: standard output, the default for a file; required, a
    /// directory, when IN is a directory).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Write the serialization of the spec tree instead of preserving the input's bytes.
    #[arg(long)]
    tree: bool,
    /// The deepest nesting of includes (at most 100).
    #[arg(long, value_name = "N", default_value_t = 40)]
    max_depth: usize,
    /// The most includes resolved for one page.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_includes: usize,
    /// No progress bar on directory runs.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: &Args) -> Result<()> {
    let root = match &args.root {
        Some(root) => root.clone(),
        None if args.input.as_os_str() == "-" => PathBuf::from("."),
        None if args.input.is_dir() => args.input.clone(),
        None => args
            .input
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
    };
    let resolver = DirResolver::new(&root)
        .with_context(|| format!("cannot use {} as the include root", root.display()))?;
    let config = IncludeConfig {
        pipeline: PipelineConfig {
            max_depth: args.max_depth,
            ..PipelineConfig::default()
        },
        max_includes: args.max_includes,
    };
    let includes = Includes::new(resolver, config);
    let mode = if args.tree {
        IncludeOutput::Tree
    } else {
        IncludeOutput::Tokens
    };
    if args.input.is_dir() {
        let Some(out_dir) = &args.output else {
            bail!(
                "{} is a directory: give an output directory with -o",
                args.input.display()
            );
        };
        return batch::run_dir(&args.input, out_dir, args.quiet, |src, dest| {
            let html = one(&includes, mode, src)?;
            batch::write_text(Some(dest), &html)
        });
    }
    let html = one(&includes, mode, &args.input)?;
    batch::write_text(args.output.as_deref(), &html)
}

fn one(includes: &Includes, mode: IncludeOutput, input: &Path) -> Result<String> {
    let bytes = read_all(input)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{} is not UTF-8", input.display()))?;
    let (html, _) = includes
        .process(&text, mode)
        .with_context(|| format!("{}", input.display()))?;
    Ok(html)
}
