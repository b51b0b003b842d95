"""Wikitext to HTML (Parsoid-style ``<body>`` content), without templates.

>>> from tagloom import wikitext
>>> wikitext.render("''Hello'' '''world'''")
'<p><i>Hello</i> <b>world</b></p>'
"""

from . import _tagloom

__all__ = ["render"]


def render(text: str, *, title: str = "Main Page") -> str:
    """The HTML of the page's ``<body>``; ``title`` is the page's title (relative
    links and magic words use it). Raises ``WikitextError`` for a page over the
    size limit or a bad title."""
    return _tagloom.wikitext_render(text, title=title)
