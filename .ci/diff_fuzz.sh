#!/usr/bin/env bash
# The differential fuzzer against headless Chromium (crates/browser/tests/diff_fuzz.rs)
# for a fixed seed and number of documents, so that every machine runs the same
# documents: fails on a difference that no known Chromium deviation explains.
# Without chromium the test says SKIPPED (and fails under TAGLOOM_REQUIRE_CHROMIUM=1).
set -euo pipefail
cd "$(dirname "$0")/.."
TAGLOOM_DIFF_FUZZ_SEED="${TAGLOOM_DIFF_FUZZ_SEED:-1}" \
TAGLOOM_DIFF_FUZZ_DOCS="${TAGLOOM_DIFF_FUZZ_DOCS:-20000}" \
TAGLOOM_DIFF_FUZZ_SECS="${TAGLOOM_DIFF_FUZZ_SECS:-900}" \
  cargo test -p tagloom-browser --locked --test diff_fuzz -- --ignored --nocapture
