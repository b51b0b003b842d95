//! Hostile includes: a 10 000-deep chain, loops, exponential fan-out. Each ends in
//! bounded time and memory with visible error markup; none hangs.

use std::time::Instant;

use tagloom_transform::include::{DirResolver, IncludeConfig, IncludeOutput, Includes};
use tagloom_transform::pipeline::{MAX_DEPTH_CEILING, PipelineConfig};

fn site(files: impl IntoIterator<Item = (String, String)>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn run(dir: &tempfile::TempDir, config: IncludeConfig, page: &str) -> String {
    let includes = Includes::new(DirResolver::new(dir.path()).unwrap(), config);
    let started = Instant::now();
    let (out, _) = includes.process(page, IncludeOutput::Tokens).unwrap();
    println!("{} bytes out in {:?}", out.len(), started.elapsed());
    out
}

fn chain(n: usize) -> tempfile::TempDir {
    site((0..n).map(|i| {
        (
            format!("c{i}.html"),
            format!("<i>{i}</i><include src=c{}.html>", i + 1),
        )
    }))
}

#[test]
fn a_10000_deep_chain_stops_at_the_depth_limit() {
    let dir = chain(10_000);
    let out = run(&dir, IncludeConfig::default(), "<include src=c0.html>");
    assert!(out.contains("<i>39</i>"));
    assert!(!out.contains("<i>40</i>"));
    assert!(
        out.ends_with(r#"<span class="tagloom-error" data-tagloom-error="too-deep">expansion of c40.html is deeper than the limit of 40</span>"#),
        "{}",
        &out[out.len().saturating_sub(200)..]
    );
}

#[test]
fn the_depth_ceiling_runs_on_a_test_thread_stack() {
    // Nested includes are nested futures: the ceiling must fit a 2 MiB stack.
    let dir = chain(MAX_DEPTH_CEILING + 10);
    let config = IncludeConfig {
        pipeline: PipelineConfig {
            max_depth: usize::MAX,
            ..PipelineConfig::default()
        },
        ..IncludeConfig::default()
    };
    let out = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || run(&dir, config, "<include src=c0.html>"))
        .unwrap()
        .join()
        .unwrap();
    assert!(out.contains(&format!("<i>{}</i>", MAX_DEPTH_CEILING - 1)));
    assert!(out.contains("too-deep"));
}

#[test]
fn loops_are_reported_with_their_chain() {
    let dir = site([
        (
            "self.html".to_owned(),
            "S<include src=self.html>".to_owned(),
        ),
        ("a.html".to_owned(), "<include src=b.html>".to_owned()),
        ("b.html".to_owned(), "<include src=c.html>".to_owned()),
        ("c.html".to_owned(), "<esi:include src=a.html />".to_owned()),
    ]);
    let out = run(&dir, IncludeConfig::default(), "<include src=self.html>");
    assert_eq!(
        out,
        r#"S<span class="tagloom-error" data-tagloom-error="loop">expansion loop: self.html -&gt; self.html</span>"#
    );
    let out = run(&dir, IncludeConfig::default(), "<include src=a.html>");
    assert!(
        out.contains("expansion loop: a.html -&gt; b.html -&gt; c.html -&gt; a.html"),
        "{out}"
    );
}

#[test]
fn exponential_fan_out_is_capped_by_the_include_budget() {
    // f0 includes f1 twice, f1 includes f2 twice, …: 2^30 includes without a budget.
    let dir = site((0..30).map(|i| {
        let next = format!("<include src=f{}.html>", i + 1);
        (format!("f{i}.html"), format!("{next}{next}"))
    }));
    let config = IncludeConfig {
        max_includes: 5_000,
        ..IncludeConfig::default()
    };
    let out = run(&dir, config, "<include src=f0.html>");
    let errors = out.matches("data-tagloom-error=\"too-many\"").count();
    println!("{errors} too-many markers");
    assert!(errors > 0);
    assert!(out.len() < 50 << 20);
}
