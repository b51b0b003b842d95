#!/usr/bin/env bash
# The CLI's optional `scripting` feature (tagloom-script, the boa engine): the
# workspace steps build it without the feature, so lint and test it once with.
# boa itself is already compiled by the workspace test (tagloom-script is a member).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== tagloom-cli --features scripting (parse --scripting execute)"
cargo clippy -p tagloom-cli --features scripting --all-targets --locked -- -D warnings
cargo test -p tagloom-cli --features scripting --test parse_scripting --locked
