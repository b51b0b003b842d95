"""Word counts of every HTML page in a directory of WARC files, per host.

    python examples/warc_counts.py crawl/                      # in this process
    python examples/warc_counts.py --engine dask crawl/        # Dask LocalCluster
    python examples/warc_counts.py --engine spark crawl/       # Spark local[*]
    python examples/warc_counts.py --engine dask --scheduler tcp://host:8786 /shared/crawl/
    spark-submit examples/warc_counts.py --engine spark --master yarn hdfs-mounted/crawl/

Runs tagloom's ``l10n-words`` job (translation units, words and characters per
page, as ``tagloom l10n count`` counts them) over every ``.warc[.gz]`` /
``.arc[.gz]`` file under the given paths, one file per task, and prints one
JSON object: pages, records that could not be read (by kind), units, words and
characters in all, and words per host (the top ``--top``). Every engine gives
the same numbers (the tests check it). On a cluster the paths must be readable
at the same place on every worker (a shared file system).

Needs ``pip install 'tagloom[dask]'`` or ``'tagloom[spark]'`` for those engines.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any, Dict, Iterable, Optional
from urllib.parse import urlsplit

import tagloom.warc

JOB = "l10n-words"


def host(uri: Optional[str]) -> str:
    """The host of a page's URI (lower case; ``""`` when it has none)."""
    try:
        return (urlsplit(uri).hostname or "") if uri else ""
    except ValueError:
        return ""


def summary(pages: int, errors: Dict[str, int], totals: Dict[str, int], hosts: Dict[str, int]):
    """The result, the same shape for every engine."""
    return {
        "pages": pages,
        "errors": dict(sorted(errors.items())),
        "units": totals.get("units", 0),
        "words": totals.get("words", 0),
        "chars": totals.get("chars", 0),
        "words_per_host": dict(sorted(hosts.items(), key=lambda kv: (-kv[1], kv[0]))),
    }


def summarize(rows: Iterable[Dict[str, Any]]) -> Dict[str, Any]:
    """Counts over rows of the ``l10n-words`` job, in this process."""
    pages, errors, totals, hosts = 0, Counter(), Counter(), Counter()
    for row in rows:
        if row["error"] is not None:
            errors[row["error"]["kind"]] += 1
            continue
        pages += 1
        totals.update(units=row["units"], words=row["words"], chars=row["chars"])
        hosts[host(row["uri"])] += row["words"]
    return summary(pages, errors, totals, hosts)


def count_local(paths, threads: int = 0) -> Dict[str, Any]:
    """This process: one Rust call over all files, records on `threads` threads."""
    return summarize(tagloom.warc.iter_rows(tagloom.warc.files(*paths), JOB, threads=threads))


def count_dask(paths) -> Dict[str, Any]:
    """On the Dask client in use (or Dask's default scheduler): a partition per
    file, then Dask's own reductions."""
    import tagloom.dask

    rows = tagloom.dask.run(tagloom.dask.from_files(*paths), JOB)
    good = rows.filter(lambda r: r["error"] is None)
    errors = rows.filter(lambda r: r["error"] is not None).map(lambda r: r["error"]["kind"])

    def add(acc, row):
        return acc + row["words"]

    per_host = good.foldby(lambda r: host(r["uri"]), add, 0, lambda a, b: a + b, 0)
    totals = good.map(lambda r: (1, r["units"], r["words"], r["chars"])).fold(
        lambda a, b: tuple(x + y for x, y in zip(a, b)), initial=(0, 0, 0, 0)
    )
    import dask

    (pages, units, words, chars), error_kinds, per_host = dask.compute(
        totals, errors.frequencies(), per_host
    )
    return summary(
        pages,
        dict(error_kinds),
        {"units": units, "words": words, "chars": chars},
        dict(per_host),
    )


def count_spark(spark, paths, partitions: Optional[int] = None) -> Dict[str, Any]:
    """On a Spark session: a DataFrame of paths (one per partition unless
    `partitions` says otherwise), ``mapInArrow`` through tagloom, Spark SQL
    aggregations."""
    from pyspark.sql import functions as F

    import tagloom.spark

    files = tagloom.warc.files(*paths)
    df = spark.createDataFrame([(f,) for f in files], "path string")
    df = df.repartition(partitions or max(1, len(files)))
    rows = tagloom.spark.run(df, JOB).cache()
    try:
        good = rows.where(F.col("error").isNull())
        total = good.agg(
            F.count(F.lit(1)).alias("pages"),
            F.sum("units").alias("units"),
            F.sum("words").alias("words"),
            F.sum("chars").alias("chars"),
        ).first()
        errors = {
            r["kind"]: r["count"]
            for r in rows.where(F.col("error").isNotNull())
            .groupBy(F.col("error.kind").alias("kind"))
            .count()
            .collect()
        }
        host_of = F.udf(lambda uri: host(uri), "string")
        hosts = {
            r["host"]: r["words"]
            for r in good.groupBy(host_of("uri").alias("host"))
            .agg(F.sum("words").alias("words"))
            .collect()
        }
    finally:
        rows.unpersist()
    return summary(
        total["pages"],
        errors,
        {k: total[k] or 0 for k in ("units", "words", "chars")},
        hosts,
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="WARC/ARC files or directories")
    parser.add_argument("--engine", choices=("local", "dask", "spark"), default="local")
    parser.add_argument("--workers", type=int, default=2, help="local cluster size (dask, spark)")
    parser.add_argument("--scheduler", help="dask: a running scheduler's address")
    parser.add_argument("--master", help="spark: the master URL (default local[WORKERS])")
    parser.add_argument("--top", type=int, default=20, help="hosts to print")
    args = parser.parse_args(argv)

    if args.engine == "local":
        result = count_local(args.paths)
    elif args.engine == "dask":
        from dask.distributed import Client, LocalCluster

        if args.scheduler:
            with Client(args.scheduler):
                result = count_dask(args.paths)
        else:
            with LocalCluster(n_workers=args.workers, threads_per_worker=1) as cluster, Client(
                cluster
            ):
                result = count_dask(args.paths)
    else:
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.appName("tagloom warc_counts")
        builder = builder.master(args.master or f"local[{args.workers}]")
        spark = builder.getOrCreate()
        try:
            result = count_spark(spark, args.paths)
        finally:
            spark.stop()
    hosts = result["words_per_host"]
    result["words_per_host"] = dict(list(hosts.items())[: args.top])
    json.dump(result, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
