"""tagloom.spark on Spark local[2] (loopback only): the example job and the RDD and
DataFrame paths give exactly the rows and counts of a direct in-process run.

Needs pyspark (with pyarrow and pandas) and Java 17+; without them the tests
say SKIPPED on stderr, and fail when TAGLOOM_REQUIRE_DIST is set (.ci/dist.sh).
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest

import tagloom.spark as ts
import tagloom.warc as tw
from warc_fixtures import REQUIRE, SMALL_PAGES, direct_counts, example, require, row_key, warcs  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def spark():
    require("pyspark", REQUIRE)
    require("pyarrow", REQUIRE)
    require("pandas", REQUIRE)
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        message = "no java (Spark needs Java 17+: apt-get install openjdk-17-jre-headless)"
        if os.environ.get(REQUIRE):
            pytest.fail(f"{message}; {REQUIRE} is set", pytrace=False)
        sys.__stderr__.write(f"SKIPPED: {message}\n")
        pytest.skip(message)
    # Loopback only; executors run this interpreter (the venv's).
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("tagloom tests")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_example_job_counts_equal_the_direct_run(spark, warcs):
    counts = example("warc_counts")
    folder = warcs["pages"].parent
    direct = direct_counts(counts, folder)
    on_spark = counts.count_spark(spark, [folder])
    assert on_spark == direct


@pytest.mark.parametrize("job", ["links", "l10n-words"])
def test_rdd_of_paths_gives_the_direct_rows(spark, warcs, job):
    from pyspark import RDD

    files = tw.files(warcs["pages"].parent)
    rdd = ts.run(spark.sparkContext.parallelize(files, 2), job)
    assert isinstance(rdd, RDD)
    assert sorted(rdd.collect(), key=row_key) == sorted(tw.run(files, job, threads=1), key=row_key)


def test_dataframe_of_paths_gives_the_direct_rows(spark, warcs):
    files = tw.files(warcs["pages"].parent)
    df = spark.createDataFrame([(f,) for f in files], "path string").repartition(2)
    rows = ts.run(df, "text")
    assert rows.schema.fieldNames() == [name for name, _ in tw.fields("text")]
    got = sorted((r.asDict(recursive=True) for r in rows.collect()), key=row_key)
    assert got == sorted(tw.run(files, "text", threads=1), key=row_key)


def test_html_documents_rdd_and_dataframe(spark):
    docs = list(SMALL_PAGES.items())
    direct = tw.run_html(docs, "l10n-words")
    rdd_rows = ts.run(spark.sparkContext.parallelize(docs, 1), "l10n-words", source="html").collect()
    assert rdd_rows == direct
    df = spark.createDataFrame([(body, uri) for uri, body in docs], "html binary, uri string").coalesce(1)
    rows = ts.run(df, "l10n-words", source="html", uri_column="uri").collect()
    assert [r.asDict(recursive=True) for r in rows] == direct


def test_wiki_dump_example_renders_every_page(spark, tmp_path):
    from warc_fixtures import WIKI_PAGES, read_parts, write_dump

    import tagloom.wikitext

    wiki = example("wiki_dump")
    dump = write_dump(tmp_path / "wiki.xml")
    out = tmp_path / "out"
    out.mkdir()
    assert wiki.run_spark(spark, str(dump), str(out), batch=2) == {"pages": len(WIKI_PAGES), "errors": 0}
    rows = read_parts(out)
    expected = tagloom.wikitext.Wiki({t: text for t, ns, text in WIKI_PAGES if ns == 10})
    assert {t: r["html"] for t, r in rows.items()} == {
        t: expected.render(text, title=t) for t, _, text in WIKI_PAGES
    }
    assert "Hello, reader!" in rows["Main Page"]["html"]
