"""tagloom.warc: records and jobs over WARC files the tests write (warc_fixtures)."""

from __future__ import annotations

import gzip

import pytest

import tagloom
import tagloom.warc as tw
from warc_fixtures import RUSSIAN, SMALL_PAGES, warcs  # noqa: F401 (fixture)


def _records(path):
    return list(tw.records(path))


def test_pages_file_record_types_and_payloads(warcs):
    from warcio.archiveiterator import ArchiveIterator

    items = _records(warcs["pages"])
    assert all(isinstance(r, tw.Record) for r in items)
    with open(warcs["pages"], "rb") as f:
        theirs = [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI"), r.content_stream().read()) for r in ArchiveIterator(f)]
    assert [r.type for r in items] == [t for t, _, _ in theirs]
    assert [r.target_uri for r in items] == [u for _, u, _ in theirs]
    # Payloads as warcio reads them (for responses: the HTTP body).
    for ours, (kind, _, payload) in zip(items, theirs):
        if kind == "response":
            assert ours.payload == payload
            assert ours.http_status == 200
    pages = {r.target_uri: r for r in items if r.type == "response"}
    for uri, body in SMALL_PAGES.items():
        assert pages[uri].text == body.decode()
        assert pages[uri].encoding == "UTF-8"
        assert ("Content-Type", "text/html; charset=utf-8") in pages[uri].http_headers
    assert items[0].type == "warcinfo" and items[0].http_status is None
    assert items[0].http_headers is None
    assert all(r.member_offset is not None for r in items)  # one gzip member each


def test_tricky_records(warcs):
    items = {(r.type, r.target_uri): r for r in _records(warcs["tricky"])}
    chunked = items[("response", "http://tricky.example/chunked")]
    assert chunked.payload.startswith(b"<title>Chunked</title>")
    assert b"\r\n" not in chunked.payload
    assert b"0\r\n\r\n" in chunked.block
    assert "café" in items[("response", "http://tricky.example/gzip")].text
    assert "Deflated words" in items[("response", "http://tricky.example/deflate")].text
    russian = items[("response", "http://tricky.example/cp1251")]
    assert russian.encoding == "windows-1251"
    assert russian.text == RUSSIAN
    garbage = items[("response", "http://tricky.example/garbage")]
    with pytest.raises(tw.WarcError):
        garbage.payload
    bad = items[("response", "http://tricky.example/badheaders")]
    assert bad.http_status == 200
    assert bad.text.startswith("<!DOCTYPE html><title>Bad headers</title>")
    assert ("revisit", "http://tricky.example/chunked") in items
    assert items[("warcinfo", None)].payload.startswith(b"software: tagloom tests")


def test_whole_file_gzip_reads_like_the_plain_file(warcs):
    whole = _records(warcs["whole"])
    plain = _records(_gunzip(warcs["whole"]))
    assert [(r.type, r.target_uri, r.payload) for r in whole] == [
        (r.type, r.target_uri, r.payload) for r in plain
    ]
    assert len(whole) == 1 + 3 * len(SMALL_PAGES) + 1


def _gunzip(path):
    out = path.with_suffix("")  # whole.warc
    out.write_bytes(gzip.decompress(path.read_bytes()))
    return out


def test_truncated_file_ends_with_an_error_value(warcs):
    items = _records(warcs["truncated"])
    assert isinstance(items[-1], tw.WarcError)
    assert items[-1].kind in ("truncated", "gzip")
    assert isinstance(items[-1].offset, int)
    assert all(isinstance(r, tw.Record) for r in items[:-1])
    assert len(items) >= 3
    with pytest.raises(tw.WarcError) as raised:
        list(tw.records(warcs["truncated"], raise_errors=True))
    assert raised.value.kind == items[-1].kind
    assert isinstance(raised.value, tagloom.TagloomError)


def test_body_limit_is_a_record_error(warcs):
    items = _records_limited(warcs["pages"], 100)
    errors = [r for r in items if isinstance(r, tw.WarcError)]
    assert errors and all(e.kind == "body-too-large" for e in errors)
    assert any(isinstance(r, tw.Record) for r in items)  # reading went on


def _records_limited(path, limit):
    return list(tw.records(path, max_body_bytes=limit))


def test_missing_file_and_unknown_job(tmp_path):
    with pytest.raises(FileNotFoundError):
        tw.records(tmp_path / "absent.warc")
    with pytest.raises(FileNotFoundError):
        tw.run([tmp_path / "absent.warc"], "text")
    with pytest.raises(ValueError):
        tw.run([], "words")
    assert tw.run([], "text") == []


def test_text_job_rows(warcs):
    rows = tw.run(warcs["tricky"], "text", threads=1)
    by_uri = {r["uri"]: r for r in rows}
    assert set(by_uri) == {
        "http://tricky.example/chunked",
        "http://tricky.example/gzip",
        "http://tricky.example/deflate",
        "http://tricky.example/cp1251",
        "http://tricky.example/garbage",
        "http://tricky.example/badheaders",
    }
    assert by_uri["http://tricky.example/cp1251"]["title"] == "Привет"
    assert by_uri["http://tricky.example/cp1251"]["encoding"] == "windows-1251"
    assert "мягких французских" in by_uri["http://tricky.example/cp1251"]["text"]
    assert by_uri["http://tricky.example/gzip"]["title"] == "Gzip"
    # The malformed Content-Type line is dropped; the page is known by its doctype.
    assert by_uri["http://tricky.example/badheaders"]["text"] == "Still a page."
    garbage = by_uri["http://tricky.example/garbage"]
    assert garbage["error"]["kind"] and garbage["error"]["message"]
    assert garbage["text"] is None
    for row in rows:
        assert list(row) == [name for name, _ in tw.fields("text")]


@pytest.mark.parametrize("job", tw.JOBS)
def test_every_job_same_rows_on_one_and_two_threads(warcs, job):
    files = tw.files(warcs["pages"].parent)
    one = tw.run(files, job, threads=1)
    two = tw.run(files, job, threads=2)
    assert one == two
    assert len([r for r in one if r["error"] is None]) >= 3 + 6
    for row in one:
        assert list(row) == [name for name, _ in tw.fields(job)]


def test_files_finds_archives_sorted(warcs, tmp_path):
    folder = warcs["pages"].parent
    found = tw.files(folder)
    assert found == sorted(found)
    assert {p.rsplit("/", 1)[-1] for p in found} >= {
        "pages.warc.gz",
        "tricky.warc",
        "whole.warc.gz",
        "truncated.warc.gz",
    }
    (tmp_path / "notes.txt").write_text("x")
    assert tw.files(tmp_path) == []
    with pytest.raises(FileNotFoundError):
        tw.files(tmp_path / "nothing")


def test_iter_rows_stops_early_without_hanging(warcs):
    rows = tw.iter_rows([warcs["pages"]] * 50, "sanitize", threads=2)
    first = next(rows)
    assert first["html"] is not None
    del rows  # the job stops at its next row


def test_run_html_matches_the_archive_rows(warcs):
    archive = {r["uri"]: r for r in tw.run(warcs["pages"], "links")}
    html = tw.run_html(list(SMALL_PAGES.items()), "links", threads=2)
    assert [r["links"] for r in html] == [archive[u]["links"] for u in SMALL_PAGES]
    assert [r["offset"] for r in html] == list(range(len(SMALL_PAGES)))
    assert archive["http://small.example/a"]["links"] == ["http://small.example/b"]
    text = tw.run_html([b"<title>T</title><p>x", "<p>\u00e9"], "text")
    assert [r["text"] for r in text] == ["x", "\u00e9"]
    assert text[1]["encoding"] == "UTF-8"  # a str is its own encoding
    with pytest.raises(TypeError):
        tw.run_html([42], "text")
