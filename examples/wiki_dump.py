"""Render every page of a MediaWiki XML dump (``.xml`` or ``.xml.bz2``) to HTML.

    python examples/wiki_dump.py DUMP.xml.bz2 OUT/                      # one machine
    python examples/wiki_dump.py --engine dask DUMP.xml.bz2 OUT/        # Dask LocalCluster
    python examples/wiki_dump.py --engine dask --scheduler tcp://host:8786 DUMP OUT/
    python examples/wiki_dump.py --engine spark --master yarn DUMP OUT/

``local`` is ``tagloom wiki --dump DUMP -o OUT``: the CLI reads the dump once,
expands templates from it, and renders the pages in parallel on this machine,
one ``OUT/<percent-encoded title>.html`` per page (see ``tagloom wiki --help``).

``dask`` and ``spark`` spread the pages over a cluster: the driver streams the
dump (Python's XML parser, bz2 multistream included) in batches of
``--batch`` pages, each batch is one task that renders its pages with
``tagloom.wikitext.Wiki.render`` (Rust, GIL released), and each task writes one
JSON Lines part ``OUT/part-NNNNN.jsonl`` (``{"title", "ns", "html"}`` or
``{"title", "ns", "error"}`` per page), as distributed engines write their
output. ``OUT`` must be on a file system every worker writes to. Templates are
expanded as the CLI expands them: the driver reads the dump's templates
(namespace 10) in a first pass and ships them to the workers once (Dask
``scatter``, Spark ``broadcast``); each task builds one ``tagloom.wikitext.Wiki``
from them (in Rust) and renders its pages with it.

Needs ``pip install 'tagloom[dask]'`` or ``'tagloom[spark]'`` for those engines,
and the ``tagloom`` binary (``cargo install --path crates/cli``) for ``local``.
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any, Dict, Iterator, List, Tuple

import tagloom.wikitext

Page = Tuple[str, int, str]  # (title, namespace, wikitext)


def iter_pages(dump: str) -> Iterator[Page]:
    """The pages of a MediaWiki export (any schema version): title, namespace
    number and the text of the page's last revision, in dump order."""
    opener = bz2.open if dump.endswith(".bz2") else open
    with opener(dump, "rb") as f:
        title, ns, text = None, 0, ""
        for event, elem in ET.iterparse(f, events=("end",)):
            tag = elem.tag.rsplit("}", 1)[-1]
            if tag == "title":
                title = elem.text or ""
            elif tag == "ns":
                ns = int(elem.text or 0)
            elif tag == "text":
                text = elem.text or ""
            elif tag == "page":
                if title is not None:
                    yield title, ns, text
                title, ns, text = None, 0, ""
                elem.clear()


def batches(pages: Iterator[Page], size: int) -> Iterator[List[Page]]:
    """`pages` in lists of at most `size`."""
    batch: List[Page] = []
    for page in pages:
        batch.append(page)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


NS_TEMPLATE = 10


def read_templates(dump: str) -> Dict[str, str]:
    """The dump's templates (namespace 10), title to wikitext: the pages a task's
    ``Wiki`` needs, read by the driver in a first pass over the dump."""
    return {title: text for title, ns, text in iter_pages(dump) if ns == NS_TEMPLATE}


def render_pages(pages: List[Page], templates: Dict[str, str]) -> List[Dict[str, Any]]:
    """One task's work: each page rendered with the wiki's templates (an error is
    that page's row)."""
    wiki = tagloom.wikitext.Wiki(templates)
    rows = []
    for title, ns, text in pages:
        try:
            rows.append({"title": title, "ns": ns, "html": wiki.render(text, title=title)})
        except tagloom.TagloomError as e:
            rows.append({"title": title, "ns": ns, "error": str(e)})
    return rows


def write_part(rows: List[Dict[str, Any]], out_dir: str, index: int) -> Dict[str, int]:
    """Writes one task's rows to ``OUT/part-NNNNN.jsonl``; returns its counts."""
    path = os.path.join(out_dir, f"part-{index:05d}.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return {"pages": len(rows), "errors": sum("error" in r for r in rows)}


def _task(indexed: Tuple[int, List[Page]], out_dir: str, templates: Dict[str, str]) -> Dict[str, int]:
    index, pages = indexed
    return write_part(render_pages(pages, templates), out_dir, index)


def run_dask(dump: str, out_dir: str, batch: int) -> Dict[str, int]:
    """On the Dask client in use: one task per batch, submitted as the dump is
    read (at most a few batches wait, so the driver's memory stays bounded)."""
    from dask.distributed import as_completed, get_client

    client = get_client()
    # Sent to every worker once; each task gets the workers' copy.
    [templates] = client.scatter([read_templates(dump)], broadcast=True)
    totals = {"pages": 0, "errors": 0}
    running = as_completed()
    limit = 2 * max(1, sum(client.nthreads().values()))
    for indexed in enumerate(batches(iter_pages(dump), batch)):
        # A lambda travels by value (cloudpickle), so workers need not import this file.
        running.add(client.submit(lambda i, t: _task(i, out_dir, t), indexed, templates, pure=False))
        while running.count() >= limit:
            _add(totals, next(running).result())
    for future in running:
        _add(totals, future.result())
    return totals


def run_spark(spark, dump: str, out_dir: str, batch: int) -> Dict[str, int]:
    """On a Spark session: the batches as an RDD, one partition each."""
    parts = list(enumerate(batches(iter_pages(dump), batch)))
    if not parts:
        return {"pages": 0, "errors": 0}
    templates = spark.sparkContext.broadcast(read_templates(dump))
    rdd = spark.sparkContext.parallelize(parts, len(parts))
    counts = rdd.map(lambda part: _task(part, out_dir, templates.value)).collect()
    totals = {"pages": 0, "errors": 0}
    for c in counts:
        _add(totals, c)
    return totals


def _add(totals: Dict[str, int], counts: Dict[str, int]) -> None:
    for key, value in counts.items():
        totals[key] += value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="a MediaWiki XML dump (.xml, .xml.bz2)")
    parser.add_argument("out", help="the output directory")
    parser.add_argument("--engine", choices=("local", "dask", "spark"), default="local")
    parser.add_argument("--batch", type=int, default=500, help="pages per task (dask, spark)")
    parser.add_argument("--workers", type=int, default=2, help="local cluster size")
    parser.add_argument("--scheduler", help="dask: a running scheduler's address")
    parser.add_argument("--master", help="spark: the master URL (default local[WORKERS])")
    parser.add_argument("--tagloom", default="tagloom", help="local: the tagloom binary")
    args = parser.parse_args(argv)

    if args.engine == "local":
        return subprocess.run([args.tagloom, "wiki", "--dump", args.dump, "-o", args.out]).returncode
    os.makedirs(args.out, exist_ok=True)
    if args.engine == "dask":
        from dask.distributed import Client, LocalCluster

        if args.scheduler:
            with Client(args.scheduler):
                totals = run_dask(args.dump, args.out, args.batch)
        else:
            with LocalCluster(n_workers=args.workers, threads_per_worker=1) as cluster, Client(
                cluster
            ):
                totals = run_dask(args.dump, args.out, args.batch)
    else:
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.appName("tagloom wiki_dump")
        spark = builder.master(args.master or f"local[{args.workers}]").getOrCreate()
        try:
            totals = run_spark(spark, args.dump, args.out, args.batch)
        finally:
            spark.stop()
    print(json.dumps(totals))
    return 2 if totals["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
