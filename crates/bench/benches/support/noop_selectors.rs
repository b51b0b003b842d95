// The one home of the no-op workload's selectors: `include!`d by
// `rewrite_runs.rs` (benches and examples) and by `fuzz/fuzz_targets/rewrite.rs`.

/// Ten selectors of the kinds rewriting rules use (the no-op workload (c)).
pub const NOOP_SELECTORS: [&str; 10] = [
    "a[href]",
    "img:not([alt])",
    "div.content p",
    "meta[name=description i]",
    "ul > li:nth-child(2n+1)",
    "script[src]",
    "link[rel=stylesheet]",
    "h1",
    "table td",
    "[data-testid]",
];
