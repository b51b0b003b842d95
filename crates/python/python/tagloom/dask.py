"""tagloom jobs on Dask: one Rust call per partition of a ``dask.bag``.

``pip install 'tagloom[dask]'`` (dask with ``distributed``). ``import tagloom``
never imports dask: this module does, when one of its functions runs.

Over WARC files, one partition per file (the files must be readable at those
paths on every worker)::

    from dask.distributed import Client, LocalCluster
    import tagloom.dask

    with LocalCluster(n_workers=4, threads_per_worker=1) as cluster, Client(cluster):
        rows = tagloom.dask.run(tagloom.dask.from_files("crawl/"), "l10n-words")
        total = rows.filter(lambda r: r["error"] is None).pluck("words").sum().compute()

:func:`run` maps each partition through one Rust call (the records of a file
in parallel on ``threads`` threads, default 1: Dask already runs a task per
worker thread; the GIL is released) and gives a bag of row dicts (the keys of
:func:`tagloom.warc.fields`); ``rows.to_dataframe(meta=tagloom.dask.meta(job))``
makes a Dask DataFrame of them (needs pandas).

Over HTML documents (``source="html"``): a bag of ``bytes``/``str`` or
``(uri, document)`` pairs; each partition's documents go to Rust in one call
(:func:`tagloom.warc.run_html`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional

from . import warc

if TYPE_CHECKING:  # pragma: no cover
    import dask.bag


def from_files(*paths: Any) -> "dask.bag.Bag":
    """A bag of the archives :func:`tagloom.warc.files` finds in `paths`, one
    partition per file."""
    import dask.bag as db

    found = warc.files(*paths)
    return db.from_sequence(found, partition_size=1) if found else db.from_sequence([])


def run(
    bag: "dask.bag.Bag",
    job: str = "text",
    *,
    source: str = "warc",
    threads: int = 1,
    max_body_bytes: Optional[int] = None,
) -> "dask.bag.Bag":
    """Runs `job` (one of :data:`tagloom.warc.JOBS`) over `bag`: paths of WARC/ARC
    files (``source="warc"``) or documents (``source="html"``). Returns a lazy
    bag of row dicts."""
    warc.check_job(job)
    if source == "warc":
        part = _partition_warc
    elif source == "html":
        part = _partition_html
    else:
        raise ValueError(f"unknown source {source!r}: 'warc' or 'html'")
    return bag.map_partitions(part, job=job, threads=threads, max_body_bytes=max_body_bytes)


def meta(job: str) -> Dict[str, str]:
    """Column dtypes of `job`'s rows for ``Bag.to_dataframe(meta=...)``:
    nullable ``Int64`` for integers, ``object`` for the rest."""
    return {
        name: ("Int64" if kind in ("int64", "int32") else "object")
        for name, kind in warc.fields(job)
    }


def _partition_warc(
    paths: Iterable[str], job: str, threads: int, max_body_bytes: Optional[int]
) -> List[dict]:
    rows: List[dict] = []
    for path in paths:
        rows.extend(warc.iter_rows(path, job, threads=threads, max_body_bytes=max_body_bytes))
    return rows


def _partition_html(
    docs: Iterable[Any], job: str, threads: int, max_body_bytes: Optional[int]
) -> List[dict]:
    return warc.run_html(list(docs), job, threads=threads)


__all__ = ["from_files", "meta", "run"]
