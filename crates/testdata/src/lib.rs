//! Where tagloom's tests, benches and examples find the inputs that stay outside
//! the repository, and the one way they say they skipped them.
//!
//! Those inputs live in `shared/` beside the checkout (`../shared` from the
//! workspace root): real pages (`bench-corpus`, read, never copied), MediaWiki's
//! parserTests (`parsertests`, GPL: read at test time, never copied) and the
//! localization samples (`l10n-samples`). A folder is found, in this order, at
//! its own variable ([`Shared::env`], e.g. `TAGLOOM_BENCH_CORPUS`), at
//! `$TAGLOOM_SHARED/<name>`, or at `../shared/<name>` beside the workspace.
//!
//! A test that cannot find its folder says so on the real stderr (the test
//! harness does not capture it) with `SKIPPED`; under CI (`CI=true`) or with
//! `TAGLOOM_REQUIRE_SHARED=1` the missing folder is a failure instead, since CI
//! always has it.
//!
//! ```no_run
//! use tagloom_testdata::Shared;
//!
//! // Every page of the bench corpus, sorted; empty (and said so) when absent.
//! for page in Shared::BenchCorpus.files("my_test", &["html"]) {
//!     let _bytes = std::fs::read(&page).unwrap();
//! }
//! ```

#![warn(missing_docs)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// A folder of the inputs kept outside the repository.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shared {
    /// Real pages for round trips and benches (`bench-corpus`).
    BenchCorpus,
    /// MediaWiki's parserTests and `stages.tsv` (`parsertests`; GPL data).
    ParserTests,
    /// The localization samples (`l10n-samples`; a copy lives in the l10n crate).
    L10nSamples,
}

/// The variable that points at the whole `shared` folder.
pub const SHARED_ENV: &str = "TAGLOOM_SHARED";

impl Shared {
    /// The folder's name inside `shared/`.
    pub const fn name(self) -> &'static str {
        match self {
            Shared::BenchCorpus => "bench-corpus",
            Shared::ParserTests => "parsertests",
            Shared::L10nSamples => "l10n-samples",
        }
    }

    /// The variable that overrides this folder alone.
    pub const fn env(self) -> &'static str {
        match self {
            Shared::BenchCorpus => "TAGLOOM_BENCH_CORPUS",
            Shared::ParserTests => "TAGLOOM_PARSERTESTS",
            Shared::L10nSamples => "TAGLOOM_L10N_SAMPLES",
        }
    }

    /// Where the folder should be, whether or not it is there.
    pub fn path(self) -> PathBuf {
        if let Some(dir) = non_empty_var(self.env()) {
            return dir;
        }
        let shared = non_empty_var(SHARED_ENV).unwrap_or_else(|| {
            // This crate is `<workspace>/crates/testdata`; `shared` is beside the workspace.
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
        });
        shared.join(self.name())
    }

    /// The folder if it exists; `None` without a word otherwise (for callers
    /// with a fallback of their own).
    pub fn existing(self) -> Option<PathBuf> {
        let dir = self.path();
        dir.is_dir().then_some(dir)
    }

    /// The folder, or `None` after [`Shared::skipped`] said that `test` skipped it.
    pub fn dir(self, test: &str) -> Option<PathBuf> {
        let found = self.existing();
        if found.is_none() {
            self.skipped(test);
        }
        found
    }

    /// The folder's files whose extension is one of `exts`, sorted by path;
    /// empty after [`Shared::skipped`] when the folder is missing or has none.
    pub fn files(self, test: &str, exts: &[&str]) -> Vec<PathBuf> {
        let Some(dir) = self.dir(test) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| exts.contains(&x))
            })
            .collect();
        files.sort();
        if files.is_empty() {
            self.skipped(test);
        }
        files
    }

    /// The `.html` pages of the folder as (file stem, bytes), sorted by path;
    /// empty after [`Shared::skipped`] when there are none.
    ///
    /// # Panics
    /// When a listed page cannot be read (a broken corpus is not a skip).
    pub fn pages(self, test: &str) -> Vec<(String, Vec<u8>)> {
        self.files(test, &["html"])
            .into_iter()
            .map(|path| {
                let bytes =
                    std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
                let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                (stem.into_owned(), bytes)
            })
            .collect()
    }

    /// Says on the real stderr that `test` skipped this folder, and how to
    /// point it there; fails instead when the folder is [`required`].
    pub fn skipped(self, test: &str) {
        let dir = self.path();
        assert!(
            !required(),
            "{test}: {} not found at {} (CI=true or TAGLOOM_REQUIRE_SHARED=1 require it)",
            self.name(),
            dir.display()
        );
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: {} not found at {} (set {} or {SHARED_ENV})",
            self.name(),
            dir.display(),
            self.env()
        );
    }
}

/// Whether a missing folder fails the test: under CI (`CI=true`) or with
/// `TAGLOOM_REQUIRE_SHARED=1`.
pub fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("TAGLOOM_REQUIRE_SHARED").is_ok_and(|v| v == "1")
}

fn non_empty_var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_location_is_beside_the_workspace() {
        // Only meaningful when no override is set in this process's environment.
        if non_empty_var(SHARED_ENV).is_some() || non_empty_var(Shared::ParserTests.env()).is_some()
        {
            return;
        }
        let path = Shared::ParserTests.path();
        assert!(path.ends_with("shared/parsertests"), "{}", path.display());
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        assert!(workspace.join("Cargo.toml").is_file());
        assert_eq!(
            path.parent().and_then(|p| p.parent()),
            Some(workspace.join("..").as_path())
        );
    }

    #[test]
    fn names_and_variables_are_distinct() {
        let all = [
            Shared::BenchCorpus,
            Shared::ParserTests,
            Shared::L10nSamples,
        ];
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.name(), b.name());
                assert_ne!(a.env(), b.env());
            }
        }
    }
}
