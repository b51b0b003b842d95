"""Wikitext to HTML (Parsoid-style ``<body>`` content).

``render`` knows no other page; a ``Wiki`` holds the pages templates read
(built once, in Rust, shared by all its ``render`` calls).

>>> from tagloom import wikitext
>>> wikitext.render("''Hello'' '''world'''")
'<p><i>Hello</i> <b>world</b></p>'
>>> wiki = wikitext.Wiki({"Template:Greet": "Hello, {{{1}}}!"})
>>> wiki.render("{{Greet|you}}")[:40]
'<p about="#mwt1" typeof="mw:Transclusion'
"""

from typing import Mapping

from . import _tagloom

__all__ = ["render", "Wiki"]


def render(text: str, *, title: str = "Main Page") -> str:
    """The HTML of the page's ``<body>``, without templates (no other page exists);
    ``title`` is the page's title (relative links and magic words use it). Raises
    ``WikitextError`` for a page over the size limit."""
    return _tagloom.wikitext_render(text, title=title)


class Wiki:
    """The pages templates and parser functions may read: ``{"Template:Infobox":
    "...", ...}`` (titles as written, namespace prefix included). Build it once and
    call ``render`` for every page; a bad title raises ``WikitextError``."""

    __slots__ = ("_wiki",)

    def __init__(self, pages: Mapping[str, str]) -> None:
        self._wiki = _tagloom.Wiki(pages)

    def render(self, text: str, *, title: str = "Main Page") -> str:
        """The HTML of the page's ``<body>``, templates expanded from this wiki."""
        return self._wiki.render(text, title=title)

    def __len__(self) -> int:
        return len(self._wiki)

    def __repr__(self) -> str:
        return repr(self._wiki)
