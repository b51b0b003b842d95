"""tagloom: a streaming HTML5 engine (Rust) from Python.

Parse documents into a read-only tree kept in Rust, sanitize, rewrite and
localize HTML, render wikitext; batch calls take many documents in one call and
release the GIL while they run.

>>> import tagloom
>>> doc = tagloom.parse(b"<title>Hi</title><p class=x>one<p>two")
>>> doc.body.elements[0].attrs
{'class': 'x'}
>>> doc.text
'Hionetwo'
>>> [d.text for d in tagloom.parse_many([b"<p>a", b"<p>b"], threads=2)]
['a', 'b']
"""

from ._tagloom import (
    Document,
    EncodingError,
    Node,
    ParseError,
    TagloomError,
    extract_text_many,
    parse,
    parse_fragment,
    parse_many,
)

__all__ = [
    "Document",
    "EncodingError",
    "Node",
    "ParseError",
    "TagloomError",
    "extract_text_many",
    "parse",
    "parse_fragment",
    "parse_many",
]
