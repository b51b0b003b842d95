#!/usr/bin/env bash
# The distributed recipes' tests (tagloom.warc, tagloom.spark, tagloom.dask, examples/):
# Java for Spark, then pyspark (with Arrow), dask[distributed] and warcio into the venv
# .ci/python.sh made, then their pytest files. Called by .ci/run after .ci/python.sh.
# Loopback only: Spark binds 127.0.0.1, Dask's LocalCluster too (see the tests).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${TAGLOOM_PY_VENV:-target/py-venv}"
[ -x "$venv/bin/python" ] || { echo "dist: no venv at $venv (.ci/python.sh makes it)" >&2; exit 1; }
py="$(cd "$venv" && pwd)/bin/python"

echo "== dist: java (Spark needs 17 or later)"
java_ok() {
  command -v java >/dev/null 2>&1 || return 1
  local v
  v=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  [ "${v:-0}" -ge 17 ]
}
if ! java_ok; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # Debian 12 has 17; later releases 21 (Spark 4 runs on both).
    apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless >/dev/null 2>&1 \
      || apt-get install -y -qq --no-install-recommends openjdk-21-jre-headless >/dev/null
  else
    echo "dist: no Java 17+ and cannot install it (not root, or no apt-get)" >&2
    exit 1
  fi
fi
java -version 2>&1 | head -1

echo "== dist: pyspark, dask, warcio (pip's cache in ~/.cache/pip is kept between runs)"
# pyspark[sql] brings pyarrow and pandas (mapInArrow needs both; pyspark 4.3 warns on pandas 3).
"$py" -m pip install -q --disable-pip-version-check "pyspark[sql]>=4" "pandas<3" "dask[distributed]" warcio

echo "== dist: tests"
if [ -d ../shared/bench-corpus ]; then
  export TAGLOOM_BENCH_CORPUS="${TAGLOOM_BENCH_CORPUS:-$PWD/../shared/bench-corpus}"
fi
export TAGLOOM_REQUIRE_DIST=1 SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON="$py"
# From the package's directory, as .ci/python.sh runs its tests.
(cd crates/python && "$py" -m pytest -q -p no:cacheprovider \
  tests/test_warc.py tests/test_dask.py tests/test_spark.py)
