"""Test WARC files, written by the tests themselves (nothing third-party is committed).

`make_warcs(directory)` writes a few small archives and returns their paths:

- ``pages.warc.gz``: the bench-corpus pages (``../shared/bench-corpus``, or
  ``$TAGLOOM_BENCH_CORPUS``) as ``response`` records written by warcio (one gzip
  member per record, as crawlers write them), with the ``warcinfo``, ``request``,
  ``metadata`` and non-HTML records a crawl has around them;
- ``tricky.warc``: uncompressed, hand-written records for what real crawls hold:
  a chunked body, a gzip ``Content-Encoding``, a windows-1251 page whose charset is
  only in the HTTP header, a response whose HTTP header block is garbage, a
  ``revisit``;
- ``whole.warc.gz``: small pages in one gzip member for the whole file;
- ``truncated.warc.gz``: a per-record gzip file cut inside its last record.

Needs ``warcio`` (PyPI). Without the bench corpus the pages file holds only the
small pages (a note says so on stderr); ``TAGLOOM_REQUIRE_DIST=1`` (set by
``.ci/dist.sh``) makes that an error instead.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
import zlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"

#: Set by ``.ci/dist.sh``: what these tests need (warcio, pyspark, dask, Java,
#: the bench corpus) must be there, and a test fails instead of skipping.
REQUIRE = "TAGLOOM_REQUIRE_DIST"


def bench_corpus() -> list[Path]:
    """The bench pages, or [] (with a note on stderr) when the corpus is absent."""
    env = os.environ.get("TAGLOOM_BENCH_CORPUS")
    folder = Path(env) if env else REPO.parent / "shared" / "bench-corpus"
    pages = sorted(folder.glob("*.html")) if folder.is_dir() else []
    if not pages:
        message = f"bench corpus not found at {folder}: the test WARC holds only small pages"
        if os.environ.get(REQUIRE):
            raise RuntimeError(f"{message} ({REQUIRE} is set)")
        sys.__stderr__.write(f"NOTE: {message}\n")
    return pages


# Small pages of our own, in every archive.
SMALL_PAGES = {
    "http://small.example/a": b"<!doctype html><title>A page</title><p>One two three.<p>Four <a href=/b>five</a>.",
    "http://small.example/b": b"<title>B</title><ul><li>alpha<li>beta gamma</ul><a href='a'>back</a>",
    "http://other.example/": b"<body><h1>Other</h1><p>Words on another host, six of them.</p>",
}

RUSSIAN = "<title>Привет</title><p>Съешь же ещё этих мягких французских булок.</p>"


def _http(status: str, headers: list[tuple[str, str]], body: bytes) -> bytes:
    head = "".join(f"{k}: {v}\r\n" for k, v in headers)
    return f"HTTP/1.1 {status}\r\n{head}\r\n".encode("latin-1") + body


def _raw_record(record_type: str, uri: str | None, block: bytes, number: int) -> bytes:
    """One WARC/1.1 record, written by hand (warcio would normalize what we want broken)."""
    lines = [
        "WARC/1.1",
        f"WARC-Type: {record_type}",
        f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{number:012d}>",
        "WARC-Date: 2026-01-01T00:00:00Z",
    ]
    if uri is not None:
        lines.append(f"WARC-Target-URI: {uri}")
    if record_type in ("response", "revisit"):
        lines.append("Content-Type: application/http; msgtype=response")
    if record_type == "revisit":
        lines.append("WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")
    lines.append(f"Content-Length: {len(block)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + block + b"\r\n\r\n"


def _chunked(body: bytes, size: int = 7) -> bytes:
    out = b""
    for i in range(0, len(body), size):
        piece = body[i : i + size]
        out += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def tricky_records() -> list[bytes]:
    """The hand-written records of ``tricky.warc``."""
    html = b"<title>Chunked</title><p>A body sent in many small chunks, eight words.</p>"
    deflated = zlib.compress(b"<title>Deflate</title><p>Deflated words here.</p>")
    blocks = [
        ("warcinfo", None, b"software: tagloom tests\r\nformat: WARC File Format 1.1\r\n"),
        (
            "response",
            "http://tricky.example/chunked",
            _http("200 OK", [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")], _chunked(html)),
        ),
        (
            "response",
            "http://tricky.example/gzip",
            _http(
                "200 OK",
                [("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "gzip")],
                gzip.compress("<title>Gzip</title><p>Zipped café text.</p>".encode()),
            ),
        ),
        (
            "response",
            "http://tricky.example/deflate",
            _http("200 OK", [("Content-Type", "text/html"), ("Content-Encoding", "deflate")], deflated),
        ),
        (
            "response",
            "http://tricky.example/cp1251",
            _http("200 OK", [("Content-Type", "text/html; charset=windows-1251")], RUSSIAN.encode("cp1251")),
        ),
        ("response", "http://tricky.example/garbage", b"\x00\x01 this is not HTTP at all\r\n\r\n<p>x"),
        (
            "response",
            "http://tricky.example/badheaders",
            b"HTTP/1.1 200 OK\r\nContent-Type text/html\r\n: empty name\r\nX-\xff\xfe: \x80\r\n\r\n<!DOCTYPE html><title>Bad headers</title><p>Still a page.",
        ),
        ("revisit", "http://tricky.example/chunked", _http("200 OK", [("Content-Type", "text/html")], b"")),
        (
            "response",
            "http://tricky.example/image.png",
            _http("200 OK", [("Content-Type", "image/png")], b"\x89PNG\r\n\x1a\n not really"),
        ),
    ]
    return [_raw_record(kind, uri, block, n) for n, (kind, uri, block) in enumerate(blocks)]


def _write_pages(stream, pages: dict[str, bytes], gzip_records: bool) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    writer = WARCWriter(stream, gzip=gzip_records, warc_version="WARC/1.1")
    writer.write_record(writer.create_warcinfo_record("pages.warc.gz", {"software": "tagloom tests"}))
    for uri, body in pages.items():
        http = StatusAndHeaders(
            "200 OK",
            [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))],
            protocol="HTTP/1.1",
        )
        request = StatusAndHeaders(f"GET {uri} HTTP/1.1", [("Host", "example")], is_http_request=True)
        writer.write_record(writer.create_warc_record(uri, "request", http_headers=request))
        writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))
        writer.write_record(
            writer.create_warc_record(
                uri, "metadata", payload=io.BytesIO(b"fetchTimeMs: 12\r\n"), warc_content_type="application/warc-fields"
            )
        )
    image = StatusAndHeaders("200 OK", [("Content-Type", "image/gif")], protocol="HTTP/1.1")
    writer.write_record(
        writer.create_warc_record("http://small.example/i.gif", "response", payload=io.BytesIO(b"GIF89a..."), http_headers=image)
    )


@pytest.fixture(scope="session")
def warcs(tmp_path_factory) -> dict:
    """The test archives (see :func:`make_warcs`), written once per session."""
    require("warcio", REQUIRE)
    return make_warcs(tmp_path_factory.mktemp("warcs"))


def make_warcs(directory: Path) -> dict[str, Path]:
    """Writes the test archives into `directory`; returns them by name."""
    directory.mkdir(parents=True, exist_ok=True)
    pages = dict(SMALL_PAGES)
    for page in bench_corpus():
        pages[f"http://bench.example/{page.name}"] = page.read_bytes()
    out = {}

    path = directory / "pages.warc.gz"
    with path.open("wb") as f:
        _write_pages(f, pages, gzip_records=True)
    out["pages"] = path

    path = directory / "tricky.warc"
    path.write_bytes(b"".join(tricky_records()))
    out["tricky"] = path

    plain = io.BytesIO()
    _write_pages(plain, SMALL_PAGES, gzip_records=False)
    path = directory / "whole.warc.gz"
    path.write_bytes(gzip.compress(plain.getvalue()))
    out["whole"] = path

    per_record = io.BytesIO()
    _write_pages(per_record, SMALL_PAGES, gzip_records=True)
    data = per_record.getvalue()
    path = directory / "truncated.warc.gz"
    path.write_bytes(data[: len(data) - 40])
    out["truncated"] = path
    return out


def require(name: str, variable: str):
    """Imports `name`, or skips the test with a note on the real stderr (pytest
    captures ``sys.stderr``); fails instead when `variable` is set (``.ci/dist.sh``
    sets it where the package must be there)."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError as e:
        message = f"{name} is not installed ({e}): pip install it to run this test"
        if os.environ.get(variable):
            pytest.fail(f"{message}; {variable} is set", pytrace=False)
        sys.__stderr__.write(f"SKIPPED: {message}\n")
        pytest.skip(message)


def example(name: str):
    """The module `examples/<name>.py` of the repository, imported as `name`.

    Its functions travel to Spark and Dask workers by value (as a script's
    ``__main__`` functions do), so the workers need not find the file."""
    import importlib

    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    module = importlib.import_module(name)
    for pickler in ("cloudpickle", "pyspark.cloudpickle"):
        try:
            importlib.import_module(pickler).register_pickle_by_value(module)
        except ImportError:
            pass
    return module


#: Pages of the test dump: (title, namespace, wikitext).
WIKI_PAGES = [
    ("Main Page", 0, "'''Welcome''' to the [[Test wiki|wiki]]. {{Greet|reader}}\n\n* one\n* two"),
    ("Second", 0, "== Heading ==\nText with ''italics'' and a [[Main Page]] link.\n{| class=x\n| a || b\n|}"),
    ("Template:Greet", 10, "Hello, {{{1}}}!"),
    ("Ünïcode & <escapes>", 0, "Café &amp; crème."),
    ("Empty", 0, ""),
]


def write_dump(path: Path, pages=WIKI_PAGES) -> Path:
    """A MediaWiki XML export of `pages` (bz2-compressed when `path` ends in .bz2)."""
    from xml.sax.saxutils import escape

    parts = ['<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">\n']
    for n, (title, ns, text) in enumerate(pages, 1):
        parts.append(
            f"  <page>\n    <title>{escape(title)}</title>\n    <ns>{ns}</ns>\n    <id>{n}</id>\n"
            f"    <revision>\n      <id>{100 + n}</id>\n      <model>wikitext</model>\n"
            f'      <text bytes="{len(text.encode())}" xml:space="preserve">{escape(text)}</text>\n'
            "    </revision>\n  </page>\n"
        )
    parts.append("</mediawiki>\n")
    data = "".join(parts).encode()
    if path.suffix == ".bz2":
        import bz2

        data = bz2.compress(data)
    path.write_bytes(data)
    return path


def read_parts(directory: Path) -> dict:
    """The rows of ``part-*.jsonl`` files, by title."""
    import json

    rows = {}
    for part in sorted(directory.glob("part-*.jsonl")):
        for line in part.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            rows[row["title"]] = row
    return rows


def row_key(row) -> tuple:
    """A job row's place (file, record offset): engines return rows in any order."""
    return (row["file"], row["offset"])


def direct_counts(counts_module, folder: Path) -> dict:
    """The example job's counts from a direct in-process run over `folder`'s test
    archives (the figure every engine must give), checked to have seen the pages
    and the error records."""
    direct = counts_module.count_local([folder], threads=1)
    assert direct["pages"] >= 3 + 6 and direct["words"] > 0
    assert direct["errors"]  # the truncated file and the garbage response
    return direct
