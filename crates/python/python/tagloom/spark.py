"""tagloom jobs on Apache Spark: one Rust call per partition.

``pip install 'tagloom[spark]'`` (pyspark with its Arrow support; Spark needs
Java 17 or later). ``import tagloom`` never imports pyspark: this module does,
when one of its functions runs.

Over WARC files (a DataFrame with a column of paths, or an RDD of paths; the
files must be readable at those paths on every executor)::

    from pyspark.sql import SparkSession, functions as F
    import tagloom.spark, tagloom.warc

    spark = SparkSession.builder.getOrCreate()
    paths = spark.createDataFrame([(p,) for p in tagloom.warc.files("crawl/")], "path string")
    rows = tagloom.spark.run(paths.repartition(64), "l10n-words")
    rows.groupBy(F.expr("parse_url(uri, 'HOST')").alias("host")).sum("words").show()

A DataFrame goes through ``mapInArrow`` and comes back as a DataFrame whose
schema is :func:`schema` (the keys of :func:`tagloom.warc.fields`); an RDD goes
through ``mapPartitions`` and comes back as an RDD of row dicts. Each file is
read by one task, its records in parallel on ``threads`` threads (default 1:
Spark already runs one task per core), the GIL released.

Over HTML documents instead (``source="html"``): a DataFrame with a binary or
string column of pages (and optionally a ``uri_column``), or an RDD of
``bytes``/``str`` or ``(uri, document)`` pairs; a partition's documents go to
Rust in one call (:func:`tagloom.warc.run_html`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Iterable, Iterator, List, Optional

from . import warc

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow
    from pyspark import RDD
    from pyspark.sql import DataFrame

#: Rows per Arrow batch handed back to Spark.
ARROW_BATCH_ROWS = 1024

_SPARK_TYPES = {
    "string": "string",
    "int64": "bigint",
    "int32": "int",
    "list<string>": "array<string>",
    "struct<kind: string, message: string>": "struct<kind: string, message: string>",
}


def schema(job: str) -> str:
    """The Spark schema (DDL) of `job`'s rows.

    >>> schema("l10n-words")
    'file string, offset bigint, member_offset bigint, uri string, record_id string, status int, encoding string, units bigint, words bigint, chars bigint, error struct<kind: string, message: string>'
    """
    return ", ".join(f"{name} {_SPARK_TYPES[kind]}" for name, kind in warc.fields(job))


def arrow_schema(job: str) -> "pyarrow.Schema":
    """The Arrow schema of `job`'s rows (what ``mapInArrow`` yields)."""
    import pyarrow as pa

    types = {
        "string": pa.string(),
        "int64": pa.int64(),
        "int32": pa.int32(),
        "list<string>": pa.list_(pa.string()),
        "struct<kind: string, message: string>": pa.struct(
            [("kind", pa.string()), ("message", pa.string())]
        ),
    }
    return pa.schema([(name, types[kind]) for name, kind in warc.fields(job)])


def run(
    data: "DataFrame | RDD",
    job: str = "text",
    *,
    source: str = "warc",
    column: Optional[str] = None,
    uri_column: Optional[str] = None,
    threads: int = 1,
    max_body_bytes: Optional[int] = None,
) -> "DataFrame | RDD":
    """Runs `job` (one of :data:`tagloom.warc.JOBS`) over `data`.

    `source` is ``"warc"`` (`data` holds paths of WARC/ARC files) or ``"html"``
    (`data` holds documents). For a DataFrame, `column` names the column of
    paths or documents (default: the first column) and `uri_column` the
    documents' URIs (``"html"`` only). Returns a DataFrame (schema
    :func:`schema`) for a DataFrame, an RDD of row dicts for an RDD.
    Nothing runs until Spark evaluates the result.
    """
    warc.check_job(job)
    if source not in ("warc", "html"):
        raise ValueError(f"unknown source {source!r}: 'warc' or 'html'")
    from pyspark import RDD

    if isinstance(data, RDD):
        if column is not None or uri_column is not None:
            raise ValueError("column and uri_column are for DataFrames")
        part = _rdd_warc if source == "warc" else _rdd_html
        return data.mapPartitions(
            functools.partial(part, job=job, threads=threads, max_body_bytes=max_body_bytes)
        )
    columns = data.columns
    if not columns:
        raise ValueError("the DataFrame has no columns")
    column = column or columns[0]
    if source == "warc":
        if uri_column is not None:
            raise ValueError("uri_column is for source='html'")
        picked = data.select(column)
    else:
        picked = data.select(column, uri_column) if uri_column else data.select(column)
    part = _arrow_warc if source == "warc" else _arrow_html
    return picked.mapInArrow(
        functools.partial(part, job=job, threads=threads, max_body_bytes=max_body_bytes),
        schema(job),
    )


def _rdd_warc(paths: Iterable[str], job: str, threads: int, max_body_bytes: Optional[int]):
    for path in paths:
        yield from warc.iter_rows(path, job, threads=threads, max_body_bytes=max_body_bytes)


def _rdd_html(docs: Iterable[Any], job: str, threads: int, max_body_bytes: Optional[int]):
    return warc.run_html(list(docs), job, threads=threads)


def _batches(rows: Iterable[dict], job: str) -> Iterator["pyarrow.RecordBatch"]:
    """`rows` as Arrow batches of at most :data:`ARROW_BATCH_ROWS` rows."""
    import pyarrow as pa

    schema = arrow_schema(job)
    chunk: List[dict] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == ARROW_BATCH_ROWS:
            yield pa.RecordBatch.from_pylist(chunk, schema=schema)
            chunk = []
    if chunk:
        yield pa.RecordBatch.from_pylist(chunk, schema=schema)


def _arrow_warc(batches, job: str, threads: int, max_body_bytes: Optional[int]):
    def rows():
        for batch in batches:
            for path in batch.column(0).to_pylist():
                if path is not None:
                    yield from warc.iter_rows(
                        path, job, threads=threads, max_body_bytes=max_body_bytes
                    )

    return _batches(rows(), job)


def _arrow_html(batches, job: str, threads: int, max_body_bytes: Optional[int]):
    for batch in batches:
        docs = batch.column(0).to_pylist()
        uris = batch.column(1).to_pylist() if batch.num_columns > 1 else [None] * len(docs)
        items = [(u, d) for u, d in zip(uris, docs) if d is not None]
        yield from _batches(warc.run_html(items, job, threads=threads), job)


__all__ = ["ARROW_BATCH_ROWS", "arrow_schema", "run", "schema"]
