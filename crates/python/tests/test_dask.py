"""tagloom.dask on a LocalCluster of 2 worker processes (loopback only): the example
job and the bag paths give exactly the rows and counts of a direct in-process run.

Needs dask[distributed]; without it the tests say SKIPPED on stderr, and fail
when TAGLOOM_REQUIRE_DIST is set (.ci/dist.sh).
"""

from __future__ import annotations

import pytest

import tagloom.dask as td
import tagloom.warc as tw
from warc_fixtures import REQUIRE, SMALL_PAGES, direct_counts, example, require, row_key, warcs  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def client():
    require("dask.bag", REQUIRE)
    distributed = require("distributed", REQUIRE)
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    with cluster, distributed.Client(cluster) as c:
        yield c


def test_example_job_counts_equal_the_direct_run(client, warcs):
    counts = example("warc_counts")
    folder = warcs["pages"].parent
    direct = direct_counts(counts, folder)
    assert counts.count_dask([folder]) == direct


@pytest.mark.parametrize("job", tw.JOBS)
def test_bag_of_paths_gives_the_direct_rows(client, warcs, job):
    files = tw.files(warcs["pages"].parent)
    bag = td.from_files(warcs["pages"].parent)
    assert bag.npartitions == len(files)
    rows = td.run(bag, job).compute()
    assert sorted(rows, key=row_key) == sorted(tw.run(files, job, threads=1), key=row_key)


def test_html_documents_bag(client):
    import dask.bag as db

    docs = list(SMALL_PAGES.items())
    rows = td.run(db.from_sequence(docs, npartitions=1), "text", source="html").compute()
    assert rows == tw.run_html(docs, "text")


def test_rows_to_dataframe(client, warcs):
    require("pandas", REQUIRE)
    rows = td.run(td.from_files(warcs["pages"]), "l10n-words")
    frame = rows.to_dataframe(meta=td.meta("l10n-words")).compute()
    direct = [r for r in tw.run(warcs["pages"], "l10n-words") if r["error"] is None]
    assert int(frame["words"].sum()) == sum(r["words"] for r in direct)
    assert list(frame.columns) == [name for name, _ in tw.fields("l10n-words")]


def test_unknown_source_and_job():
    db = require("dask.bag", REQUIRE)

    with pytest.raises(ValueError):
        td.run(db.from_sequence([]), "text", source="csv")
    with pytest.raises(ValueError):
        td.run(db.from_sequence([]), "nope")


def test_wiki_dump_example_renders_every_page(client, tmp_path):
    from warc_fixtures import WIKI_PAGES, read_parts, write_dump

    import tagloom.wikitext

    wiki = example("wiki_dump")
    dump = write_dump(tmp_path / "wiki.xml.bz2")
    assert list(wiki.iter_pages(str(dump))) == WIKI_PAGES
    out = tmp_path / "out"
    out.mkdir()
    totals = wiki.run_dask(str(dump), str(out), batch=2)
    assert totals == {"pages": len(WIKI_PAGES), "errors": 0}
    assert len(list(out.glob("part-*.jsonl"))) == 3
    rows = read_parts(out)
    expected = tagloom.wikitext.Wiki({t: text for t, ns, text in WIKI_PAGES if ns == 10})
    assert {t: r["html"] for t, r in rows.items()} == {
        t: expected.render(text, title=t) for t, _, text in WIKI_PAGES
    }
    assert "Hello, reader!" in rows["Main Page"]["html"]
    assert "<b>Welcome</b>" in rows["Main Page"]["html"]
