//! `tagloom include IN [--root DIR] [-o OUT]`: server-side includes.
//!
//! `<include src="…">` and `<esi:include src="…"/>` are replaced by the files they
//! name under the root, resolved in the transform pipeline's asynchronous phase
//! (nested includes, a depth limit, loop detection; problems become visible
//! `<span class="tagloom-error">` markup, see `tagloom_transform::include`).
//!
//! Output is byte-preserving by default: every untouched byte of IN comes back as
//! it was and only included content is serialized (what users of server-side
//! includes expect); `--tree` writes the serialization of the spec tree instead;
//! `--sanitize [--policy FILE]` ends the pipeline with the sanitizer (its token
//! filter as the last phase-3 handler, then its tree pass and output checks) and
//! writes the sanitized fragment, as `tagloom sanitize` would.
//! IN may be a directory: every HTML file in it is processed in parallel (a
//! progress bar on standard error) into the same relative path under OUT. An
//! output file is written beside its destination and renamed into place, so a
//! failed run leaves no partial file. Input must be UTF-8.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use tagloom_transform::include::{DirResolver, IncludeConfig, IncludeOutput, Includes};
use tagloom_transform::pipeline::PipelineConfig;
use tagloom_transform::sanitize::{Policy, Sanitizer};

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
    /// Sanitize the result (the sanitizer as the pipeline's last phase).
    #[arg(long, conflicts_with = "tree")]
    sanitize: bool,
    /// The sanitizer's JSON policy (with --sanitize; default: the default policy).
    #[arg(long, value_name = "FILE", requires = "sanitize")]
    policy: Option<PathBuf>,
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
    let sanitizer = match (args.sanitize, &args.policy) {
        (false, _) => None,
        (true, Some(path)) => Some(super::sanitize::load_policy(path)?),
        (true, None) => Some(Policy::default()),
    }
    .map(|policy| Sanitizer::new(Arc::new(policy)));
    let includes = match &sanitizer {
        Some(s) => {
            let s = s.clone();
            Includes::with_handlers(resolver, config, move |registry| {
                s.register(registry).map(|_| ())
            })
        }
        None => Includes::new(resolver, config),
    };
    let sanitizer = sanitizer.as_ref();
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
            let html = one(&includes, mode, sanitizer, src)?;
            batch::write_text(Some(dest), &html)
        });
    }
    let html = one(&includes, mode, sanitizer, &args.input)?;
    batch::write_text(args.output.as_deref(), &html)
}

fn one(
    includes: &Includes,
    mode: IncludeOutput,
    sanitizer: Option<&Sanitizer>,
    input: &Path,
) -> Result<String> {
    let bytes = read_all(input)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{} is not UTF-8", input.display()))?;
    let html = match sanitizer {
        Some(s) => includes
            .process_into(&text, s.sink())
            .map(|(out, _)| out.html),
        None => includes.process(&text, mode).map(|(html, _)| html),
    }
    .with_context(|| format!("{}", input.display()))?;
    Ok(html)
}
