"""Web archives (WARC 1.0/1.1, ARC), read in Rust, and tagloom's jobs over them.

Read records one by one::

    import tagloom.warc

    for record in tagloom.warc.records("crawl.warc.gz"):
        if isinstance(record, tagloom.warc.WarcError):
            print("bad record at", record.offset, record.kind, record)
            continue
        if record.type == "response":
            print(record.target_uri, record.http_status, record.text[:80])

A bad record (truncated, corrupt gzip, a header without ``Content-Length``…) is
a :class:`WarcError` *value* in the iteration, with ``kind`` and ``offset``
attributes, and reading goes on with the next record; ``records(path,
raise_errors=True)`` raises it instead. Files may be plain, one gzip member per
record (as crawlers write them) or one gzip stream for the whole file.

Or run a whole job over files in Rust, records in parallel, the GIL released
(one call per file is what a Spark or Dask partition makes)::

    rows = tagloom.warc.run(["a.warc.gz", "b.warc.gz"], "l10n-words", threads=2)
    sum(r["words"] for r in rows if r["error"] is None)

Jobs (:data:`JOBS`), as ``tagloom warc JOB`` runs them: ``text`` (title and
text of each HTML page), ``links`` (hrefs resolved against the page's URI),
``l10n-words`` (translation units, words and characters, as ``tagloom l10n
count`` counts them), ``sanitize`` (the page sanitized by the default policy).
A row is a dict with the same keys for every row of a job (:func:`fields`):
``file``, ``offset``, ``member_offset``, ``uri``, ``record_id``, ``status``,
the job's fields, and ``error`` (``None``, or ``{"kind": ..., "message": ...}``
for a record that could not be read or decoded; its job fields are ``None``).
Only HTML pages (and unreadable records) give rows.

Pages are decoded as browsers do: the ``charset`` of the HTTP ``Content-Type``
is the transport encoding (only a BOM overrides it), else ``<meta>``, else a
statistical guess.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _tagloom

Record = _tagloom.Record
WarcError = _tagloom.WarcError

#: The jobs, by the names ``tagloom warc`` gives them.
JOBS: Tuple[str, ...] = ("text", "links", "l10n-words", "sanitize")

_JOB_FIELDS: Dict[str, Tuple[Tuple[str, str], ...]] = {
    "text": (("encoding", "string"), ("title", "string"), ("text", "string")),
    "links": (("links", "list<string>"),),
    "l10n-words": (
        ("encoding", "string"),
        ("units", "int64"),
        ("words", "int64"),
        ("chars", "int64"),
    ),
    "sanitize": (("encoding", "string"), ("html", "string")),
}

_ROW_FIELDS: Tuple[Tuple[str, str], ...] = (
    ("file", "string"),
    ("offset", "int64"),
    ("member_offset", "int64"),
    ("uri", "string"),
    ("record_id", "string"),
    ("status", "int32"),
)

PathLike = Union[str, "os.PathLike[str]"]
Row = Dict[str, Any]


def check_job(job: str) -> str:
    """Returns `job` if it is one of :data:`JOBS`, else raises ``ValueError``."""
    if job not in _JOB_FIELDS:
        raise ValueError(f"unknown job {job!r}: one of {', '.join(JOBS)}")
    return job


def fields(job: str) -> List[Tuple[str, str]]:
    """The keys of a row of `job`, in order, with their types.

    Types are Arrow's names (``string``, ``int64``, ``int32``, ``list<string>``;
    ``error`` is ``struct<kind: string, message: string>``); every field may be
    ``None``. :mod:`tagloom.spark` builds its DataFrame schema from this.

    >>> [name for name, _ in fields("links")]
    ['file', 'offset', 'member_offset', 'uri', 'record_id', 'status', 'links', 'error']
    """
    check_job(job)
    return [*_ROW_FIELDS, *_JOB_FIELDS[job], ("error", "struct<kind: string, message: string>")]


#: The file names :func:`files` picks in a directory.
SUFFIXES: Tuple[str, ...] = (".warc", ".warc.gz", ".arc", ".arc.gz")


def files(*paths: PathLike) -> List[str]:
    """The archives to read: each file of `paths` as given, and for each
    directory the files under it whose names end in one of :data:`SUFFIXES`
    (any case), recursively, sorted.

    Raises ``FileNotFoundError`` for a path that does not exist.
    """
    out: List[str] = []
    for path in map(os.fspath, paths):
        if os.path.isdir(path):
            found = []
            for folder, _, names in os.walk(path):
                found += [
                    os.path.join(folder, n) for n in names if n.lower().endswith(SUFFIXES)
                ]
            out += sorted(found)
        elif os.path.exists(path):
            out.append(path)
        else:
            raise FileNotFoundError(2, "No such file or directory", path)
    return out


def records(
    path: PathLike, *, raise_errors: bool = False, max_body_bytes: Optional[int] = None
) -> Iterator[Union[Record, WarcError]]:
    """The records of the WARC or ARC file at `path`, in order.

    Each item is a :class:`Record` (``type``, ``target_uri``, ``record_id``,
    ``date``, ``offset``, ``member_offset``, ``headers``, ``block``,
    ``http_status``, ``http_headers``, ``payload``, ``text``, ``encoding``), or a
    :class:`WarcError` for a record that could not be read (``kind``: a short
    stable name such as ``"truncated"`` or ``"gzip"``; ``offset``), after which
    reading goes on. With ``raise_errors=True`` the error is raised instead.
    A block larger than `max_body_bytes` (default 16 MiB) is not held: that
    record is an error of kind ``"body-too-large"``.

    Raises ``OSError`` (e.g. ``FileNotFoundError``) if the file cannot be opened.
    Each record is read with the GIL released.
    """
    return _tagloom.warc_records(
        os.fspath(path), raise_errors=raise_errors, max_body_bytes=max_body_bytes
    )


def iter_rows(
    paths: Union[PathLike, Sequence[PathLike]],
    job: str = "text",
    *,
    threads: int = 0,
    max_body_bytes: Optional[int] = None,
) -> Iterator[Row]:
    """Runs `job` over the files `paths` in Rust and yields its rows as they come.

    The job runs on its own threads (`threads`, 0: one per core), records in
    parallel, while Python takes the rows (the GIL is released while it waits);
    rows come in file and record order. Memory stays bounded whatever the file
    size: the job holds two batches of records and at most 1024 finished rows
    wait. Stopping the iteration early stops the job. Raises ``OSError`` for a
    file that cannot be opened (after the rows of the files before it).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return _tagloom.warc_rows(
        [os.fspath(p) for p in paths],
        check_job(job),
        threads=threads,
        max_body_bytes=max_body_bytes,
    )


def run(
    paths: Union[PathLike, Sequence[PathLike]],
    job: str = "text",
    *,
    threads: int = 0,
    max_body_bytes: Optional[int] = None,
) -> List[Row]:
    """:func:`iter_rows` as a list."""
    return list(iter_rows(paths, job, threads=threads, max_body_bytes=max_body_bytes))


def run_html(
    docs: Iterable[Union[bytes, str, Tuple[Optional[str], Union[bytes, str]]]],
    job: str = "text",
    *,
    threads: int = 0,
) -> List[Row]:
    """Runs `job` over HTML documents instead of archive records.

    Each item is a document (``bytes``, decoded as a page without HTTP headers
    is: BOM, ``<meta>``, guess; or ``str``) or a ``(uri, document)`` pair (the
    URI resolves the ``links`` job's relative links). One row per document, in
    input order, with ``file`` ``""`` and ``offset`` the document's index; the
    GIL is released while `threads` threads (0: one per core) work.

    >>> [r["links"] for r in run_html([("http://a.example/x/", b"<a href=y>y</a>")], "links")]
    [['http://a.example/x/y']]
    """
    return _tagloom.warc_rows_html(docs, check_job(job), threads=threads)


__all__ = [
    "JOBS",
    "SUFFIXES",
    "Record",
    "Row",
    "WarcError",
    "check_job",
    "fields",
    "files",
    "iter_rows",
    "records",
    "run",
    "run_html",
]
