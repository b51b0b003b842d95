"""tagloom: a streaming HTML5 engine (Rust) from Python.

Parse documents into a read-only tree kept in Rust, sanitize, rewrite, tokenize
and sniff HTML; ``tagloom.l10n`` localizes pages (XLIFF 2.1, PO) and ``tagloom.wikitext``
renders wikitext. The batch calls (``parse_many``, ``extract_text_many``,
``sanitize_many``) take a whole list in one call and release the GIL while their
threads run; the single calls release it for inputs of 8 KiB and more.

>>> import tagloom
>>> doc = tagloom.parse(b"<title>Hi</title><p class=x>one<p>two")
>>> doc.body.elements[0].attrs
{'class': 'x'}
>>> doc.text
'Hionetwo'
>>> [d.text for d in tagloom.parse_many([b"<p>a", b"<p>b"], threads=2)]
['a', 'b']
>>> tagloom.sanitize('<p onclick="x()">Hi<script>alert(1)</script>')
'<p>Hi</p>'
"""

from . import l10n, wikitext
from ._tagloom import (
    Document,
    EncodingError,
    L10nError,
    Node,
    ParseError,
    Policy,
    PolicyError,
    RewriteError,
    TagloomError,
    TokenizerError,
    WikitextError,
    extract_text_many,
    parse,
    parse_fragment,
    parse_many,
    rewrite,
    sanitize,
    sanitize_many,
    sniff,
    tokens,
)

__all__ = [
    "Document",
    "EncodingError",
    "L10nError",
    "Node",
    "ParseError",
    "Policy",
    "PolicyError",
    "RewriteError",
    "TagloomError",
    "TokenizerError",
    "WikitextError",
    "extract_text_many",
    "l10n",
    "parse",
    "parse_fragment",
    "parse_many",
    "rewrite",
    "sanitize",
    "sanitize_many",
    "sniff",
    "tokens",
    "wikitext",
]
