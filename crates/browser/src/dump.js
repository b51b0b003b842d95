// The html5lib tree dump of a DOM, written in the page by tagloom-browser
// (`src/compare.rs`). It must produce exactly what
// `tagloom_html::dom::dump_document` / `dump_children` produce: one line per node,
// "| " then two spaces per level; elements as <name> with an "svg "/"math "
// designator, their attributes one level deeper sorted by UTF-16 code units of
// "[xlink |xml |xmlns ]name"; text as "data"; comments as <!-- data -->; DOCTYPEs
// as <!DOCTYPE name> or <!DOCTYPE name "public" "system">; a template's contents
// under a "content" line, before the template's own children.
(function () {
  'use strict';
  const HTML = 'http://www.w3.org/1999/xhtml';
  const ELEMENT_NS = {
    [HTML]: '',
    'http://www.w3.org/2000/svg': 'svg ',
    'http://www.w3.org/1998/Math/MathML': 'math ',
  };
  const NS_URI = {
    html: HTML,
    svg: 'http://www.w3.org/2000/svg',
    math: 'http://www.w3.org/1998/Math/MathML',
  };
  const ATTR_NS = {
    'http://www.w3.org/1999/xlink': 'xlink ',
    'http://www.w3.org/XML/1998/namespace': 'xml ',
    'http://www.w3.org/2000/xmlns/': 'xmlns ',
  };
  const CONTENT = {};

  function attrName(a) {
    const designator = a.namespaceURI ? ATTR_NS[a.namespaceURI] : '';
    return designator === undefined ? '{' + a.namespaceURI + '} ' + a.localName : designator + (designator ? a.localName : a.name);
  }

  function nodeLine(n) {
    switch (n.nodeType) {
      case Node.ELEMENT_NODE: {
        const designator = ELEMENT_NS[n.namespaceURI];
        return '<' + (designator === undefined ? '{' + n.namespaceURI + '} ' : designator) + n.localName + '>';
      }
      case Node.TEXT_NODE: return '"' + n.data + '"';
      case Node.COMMENT_NODE: return '<!-- ' + n.data + ' -->';
      case Node.DOCUMENT_TYPE_NODE:
        return '<!DOCTYPE ' + n.name + (n.publicId || n.systemId ? ' "' + n.publicId + '" "' + n.systemId + '"' : '') + '>';
      case Node.PROCESSING_INSTRUCTION_NODE: return '<?' + n.target + ' ' + n.data + '>';
      default: return '#node-type-' + n.nodeType;
    }
  }

  // Iterative: deep trees must not overflow the JS stack.
  function dump(root) {
    const out = [];
    const stack = [];
    const pushChildren = function (parent, depth) {
      for (let c = parent.lastChild; c; c = c.previousSibling) stack.push([c, depth]);
    };
    const line = function (depth, text) { out.push('| ' + '  '.repeat(depth) + text + '\n'); };
    pushChildren(root, 0);
    while (stack.length) {
      const [n, depth] = stack.pop();
      if (n === CONTENT) { line(depth, 'content'); continue; }
      line(depth, nodeLine(n));
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      const attrs = Array.from(n.attributes, function (a) { return [attrName(a), a.value]; });
      attrs.sort(function (x, y) { return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0; });
      for (const [name, value] of attrs) line(depth + 1, name + '="' + value + '"');
      pushChildren(n, depth + 1);
      if (n.namespaceURI === HTML && n.localName === 'template') {
        pushChildren(n.content, depth + 2);
        stack.push([CONTENT, depth + 1]);
      }
    }
    return out.join('');
  }

  // One case: {data, ctx: null | [ns, localName]}. A document goes through
  // DOMParser (scripting disabled: the document has no browsing context); a
  // fragment through the innerHTML setter of a context element created in a
  // no-quirks DOMParser document (the fragment parsing algorithm, scripting
  // disabled likewise); a template context's result is its contents.
  function parseCase(c) {
    if (!c.ctx) return new DOMParser().parseFromString(c.data, 'text/html');
    const doc = new DOMParser().parseFromString('<!DOCTYPE html>', 'text/html');
    const el = doc.createElementNS(NS_URI[c.ctx[0]], c.ctx[1]);
    el.innerHTML = c.data;
    return el.namespaceURI === HTML && el.localName === 'template' ? el.content : el;
  }

  globalThis.__tagloomDump = dump;
  globalThis.__tagloomParseDump = function (cases) {
    return cases.map(function (c) {
      try { return dump(parseCase(c)); } catch (e) { return '#error ' + e; }
    });
  };
})();
