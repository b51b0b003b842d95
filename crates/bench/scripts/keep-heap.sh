# Sourced by bench-peers.sh and crates/python/bench/run.sh: every engine's allocator
# keeps the memory it frees, so a warm sample has no page traffic and does not depend
# on what ran before it in the process. With the defaults, glibc gives a freed heap
# top back above a threshold that the process's history moves, and lexbor's warm parse
# of the 20 MB concat faults 0 to 30 000 pages in again by what ran earlier (the
# tagloom ÷ lexbor concat ratio of one harness swung 0.49-0.83x with it); mimalloc
# (tagloom's extension) purges freed segments after a delay (4 000-8 000 faults a
# concat parse). BENCH_KEEP_HEAP=0 keeps the defaults. BENCHMARKS.md, "From Python".
if [ "${BENCH_KEEP_HEAP:-1}" != 0 ]; then
    # glibc (lexbor, lxml, nh3, the Python interpreter, the Rust peers): no trimming of
    # the heap top, and blocks up to 32 MiB (glibc's limit) from the heap, not mmap.
    MALLOC_TRIM_THRESHOLD_=4294967296
    MALLOC_MMAP_THRESHOLD_=33554432
    # mimalloc (the tagloom extension): never purge freed segments.
    MIMALLOC_PURGE_DELAY=-1
    export MALLOC_TRIM_THRESHOLD_ MALLOC_MMAP_THRESHOLD_ MIMALLOC_PURGE_DELAY
fi
