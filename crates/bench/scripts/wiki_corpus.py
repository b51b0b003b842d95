"""The real-article corpus of the wikitext bench (issue 11), from a package.

usage: wiki_corpus.py WHEEL OUT_DIR [COPIES]

WHEEL is a gensim wheel (PyPI; `bench-wiki.sh` downloads it): its test data
holds two shortened English Wikipedia dumps (2016-2017 revisions of real
articles; text CC BY-SA 3.0 and GFDL, Wikipedia's licence, whatever the
package's own LGPL says of its code). This script writes into OUT_DIR:

- `articles/NNNN.wikitext` and `index.tsv` (`file<TAB>title<TAB>bytes`): every
  main-namespace page that is not a redirect, from both dumps, in dump order;
- `corpus.xml.bz2`: one MediaWiki XML dump of all pages of both dumps
  (redirects too), for the store of the in-process bench (links to its pages
  are blue, others and every template red: the dumps hold no template pages);
- `dump-xN.xml.bz2` and `dump-xN-multistream.xml.bz2` when COPIES (N) is
  given: the articles N times under distinct titles (`Title (copy k)`), plus
  the redirects, for `wiki --dump`; one bzip2 stream, and Wikipedia's
  multistream form (100 pages a stream).

Only the standard library: no mwparserfromhell needed here.
"""

import bz2
import io
import os
import sys
import xml.etree.ElementTree as ET
import zipfile
from xml.sax.saxutils import escape

DUMPS = [
    "gensim/test/test_data/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2",
    "gensim/test/test_data/enwiki-table-markup.xml.bz2",
]
NS = "{http://www.mediawiki.org/xml/export-0.10/}"


def pages(data):
    """(title, ns, redirect, text) of each page of a dump's XML bytes."""
    for _, el in ET.iterparse(io.BytesIO(data)):
        if el.tag == NS + "page":
            title = el.findtext(NS + "title") or ""
            ns = int(el.findtext(NS + "ns") or "0")
            redirect = el.find(NS + "redirect") is not None
            text = el.findtext(NS + "revision/" + NS + "text") or ""
            yield title, ns, redirect, text
            el.clear()


def write_dump(path, items, per_stream=0):
    """A dump of (title, ns, text); with per_stream, a multistream .bz2 as
    Wikipedia writes them (the header, then per_stream pages per bzip2 stream,
    then the footer, each its own stream), else one stream."""
    head = '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">\n'
    pages = [
        f"  <page>\n    <title>{escape(title)}</title>\n    <ns>{ns}</ns>\n"
        f"    <revision>\n      <text xml:space=\"preserve\">{escape(text)}</text>\n"
        f"    </revision>\n  </page>\n"
        for title, ns, text in items
    ]
    tail = "</mediawiki>\n"
    if not per_stream:
        parts = [head + "".join(pages) + tail]
    else:
        groups = ["".join(pages[i : i + per_stream]) for i in range(0, len(pages), per_stream)]
        parts = [head] + groups + [tail]
    with open(path, "wb") as f:
        for part in parts:
            f.write(bz2.compress(part.encode("utf-8"), 9))


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    wheel, out = sys.argv[1], sys.argv[2]
    copies = int(sys.argv[3]) if len(sys.argv) == 4 else 0
    all_pages = []
    with zipfile.ZipFile(wheel) as z:
        for name in DUMPS:
            all_pages.extend(pages(bz2.decompress(z.read(name))))
    articles = [(t, text) for t, ns, r, text in all_pages if ns == 0 and not r]
    os.makedirs(os.path.join(out, "articles"), exist_ok=True)
    with open(os.path.join(out, "index.tsv"), "w", encoding="utf-8") as index:
        for i, (title, text) in enumerate(articles):
            name = f"{i:04}.wikitext"
            data = text.encode("utf-8")
            with open(os.path.join(out, "articles", name), "wb") as f:
                f.write(data)
            index.write(f"{name}\t{title}\t{len(data)}\n")
    write_dump(os.path.join(out, "corpus.xml.bz2"), [(t, ns, text) for t, ns, _, text in all_pages])
    if copies:
        items = [(t, ns, text) for t, ns, r, text in all_pages if r or ns != 0]
        for k in range(copies):
            suffix = "" if k == 0 else f" (copy {k})"
            items.extend((t + suffix, 0, text) for t, text in articles)
        write_dump(os.path.join(out, f"dump-x{copies}-multistream.xml.bz2"), items, 100)
        write_dump(os.path.join(out, f"dump-x{copies}.xml.bz2"), items)
    total = sum(len(text.encode("utf-8")) for _, text in articles)
    print(f"{len(articles)} articles, {total} bytes, in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
