// tagloom's batch applier: builds a browser document from tagloom's versioned
// patch batches (crates/html/src/batch.rs, `PatchBatch::json`), as `tagloom view`
// does in its page. Standalone: no imports, no page needed beyond a Document.
//
// Entry point:
//
//   applyBatch(doc, batch) -> { doc, version }
//
//   doc:   the Document to build (an iframe's contentDocument, or
//          document.implementation.createHTMLDocument('')). Its existing children
//          are dropped by the first CreateDocument.
//   batch: a batch object or its JSON text:
//          {"doc":1,"from":0,"to":1,"patches":[{"op":"CreateDocument","key":1}, ...]}
//          Each patch is the JSON of `DomPatch::json` (crates/html/src/dom_patch.rs):
//          {"op":"CreateElement","key":3,"ns":"html"|"svg"|"mathml","name":"p",
//           "attrs":[{"ns":null|"xlink"|"xml"|"xmlns","name":"class","value":"x"}],
//           "contents":null|<key of a template's content fragment>}
//          {"op":"Clear"} {"op":"CreateDocument","key":1}
//          {"op":"SetQuirksMode","mode":"no-quirks"|"limited-quirks"|"quirks"}
//          {"op":"CreateDoctype","key":2,"name":"html","public_id":"","system_id":""}
//          {"op":"CreateText","key":4,"text":"..."} {"op":"CreateComment","key":5,"text":"..."}
//          {"op":"CreateProcessingInstruction","key":6,"target":"t","data":"d"}
//          {"op":"AppendChild","parent":1,"child":2}
//          {"op":"InsertBefore","parent":1,"child":2,"before":3}
//          {"op":"Remove","node":4} {"op":"AddAttributes","node":3,"attrs":[...]}
//          {"op":"AppendText","node":4,"text":"..."}
//
// Versioning (same rules as the Rust DomStore): a document starts at version 0;
// a batch applies only when batch.from equals the document's version (a batch
// that starts with Clear may also skip ahead), and to == from + 1. Otherwise a
// BatchError is thrown with .kind one of "cross-document", "duplicate", "stale",
// "skipped", "not-one-step", "unknown-key", "stale-key", "bad-patch", "dom".
//
// Atomicity: the batch is checked (versions, keys) and its new nodes are built
// before the document is touched; then the tree changes run in one task, so the
// page never renders half a batch. A DOM exception in that second phase ("dom")
// leaves the document unusable: later batches are refused.
//
// Names the DOM API refuses (`=d`, `foo:bar` without a namespace, `a<b` as a tag
// name, odd DOCTYPE names) are still created exactly: a one-element snippet is
// parsed with the document's own HTML parser (a template's innerHTML, so nothing
// runs) and the parsed node or attribute is adopted.
//
// Also exported: documentState(doc) -> { doc, version, quirksMode, failed } or null;
// nodeForKey(doc, key) -> Node or undefined (for tests: keys of the live nodes).

(function (global) {
  'use strict';

  const NS = {
    html: 'http://www.w3.org/1999/xhtml',
    svg: 'http://www.w3.org/2000/svg',
    mathml: 'http://www.w3.org/1998/Math/MathML',
  };
  const ATTR_NS = {
    xlink: ['http://www.w3.org/1999/xlink', 'xlink'],
    xml: ['http://www.w3.org/XML/1998/namespace', 'xml'],
    xmlns: ['http://www.w3.org/2000/xmlns/', 'xmlns'],
  };

  class BatchError extends Error {
    constructor(kind, message) {
      super(kind + ': ' + message);
      this.name = 'BatchError';
      this.kind = kind;
    }
  }

  // One state per target document.
  const states = new WeakMap();

  function stateOf(doc) {
    let state = states.get(doc);
    if (!state) {
      state = {
        handle: null,
        version: 0,
        nodes: new Map(), // key -> Node (live keys only)
        highWater: 0, // highest key ever created
        clearedThrough: 0, // keys up to this were dropped by a Clear
        quirksMode: 'no-quirks',
        failed: false,
      };
      states.set(doc, state);
    }
    return state;
  }

  function checkVersion(state, batch) {
    const { doc, from, to } = batch;
    if (!Number.isInteger(doc) || !Number.isInteger(from) || !Number.isInteger(to)) {
      throw new BatchError('bad-patch', 'batch without doc/from/to');
    }
    if (state.handle !== null && doc !== state.handle) {
      throw new BatchError('cross-document', 'batch of doc ' + doc + ' for doc ' + state.handle);
    }
    if (to !== from + 1) {
      throw new BatchError('not-one-step', 'batch goes from ' + from + ' to ' + to);
    }
    if (to === state.version) {
      throw new BatchError('duplicate', 'batch ' + from + '->' + to + ' was already applied');
    }
    if (to < state.version) {
      throw new BatchError('stale', 'batch ' + from + '->' + to + ' is older than version ' + state.version);
    }
    const clear = batch.patches.length > 0 && batch.patches[0].op === 'Clear';
    if (from > state.version && !clear) {
      throw new BatchError('skipped', 'batch ' + from + '->' + to + ' at version ' + state.version);
    }
  }

  // A template in `doc` whose innerHTML parses snippets (nothing in it runs).
  function parseSnippet(doc, html) {
    const template = doc.createElementNS(NS.html, 'template');
    template.innerHTML = html;
    return template.content;
  }

  function escapeAttr(value) {
    return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\r/g, '&#13;');
  }

  // An Attr node with exactly this no-namespace name and value.
  function parsedAttr(doc, name, value) {
    const fragment = parseSnippet(doc, '<span ' + name + '="' + escapeAttr(value) + '"></span>');
    const span = fragment.firstChild;
    const attr = span && span.attributes.length === 1 ? span.attributes[0] : null;
    if (!attr || attr.name !== name) {
      throw new BatchError('bad-patch', 'cannot create attribute ' + JSON.stringify(name));
    }
    span.removeAttributeNode(attr);
    return doc.adoptNode(attr);
  }

  function setAttr(doc, element, attr) {
    const ns = attr.ns === null ? null : ATTR_NS[attr.ns];
    if (attr.ns !== null && !ns) {
      throw new BatchError('bad-patch', 'attribute namespace ' + attr.ns);
    }
    if (ns) {
      const qualified = attr.ns === 'xmlns' && attr.name === 'xmlns' ? 'xmlns' : ns[1] + ':' + attr.name;
      element.setAttributeNS(ns[0], qualified, attr.value);
      return;
    }
    try {
      element.setAttributeNS(null, attr.name, attr.value);
    } catch (e) {
      element.setAttributeNode(parsedAttr(doc, attr.name, attr.value));
    }
  }

  function hasAttr(element, attr) {
    const ns = attr.ns === null ? null : (ATTR_NS[attr.ns] || [null])[0];
    return element.getAttributeNodeNS(ns, attr.name) !== null;
  }

  function createElement(doc, patch) {
    const uri = NS[patch.ns];
    if (!uri) {
      throw new BatchError('bad-patch', 'element namespace ' + patch.ns);
    }
    let element;
    try {
      // createElementNS would split "xyz:abc" into a prefix and a local name.
      if (patch.name.indexOf(':') >= 0) throw new Error('qualified name');
      element = doc.createElementNS(uri, patch.name);
    } catch (e) {
      // A name createElementNS refuses is no special tag: "any other start tag"
      // inserts it as is, inside the right foreign root.
      const wrap = { html: ['', ''], svg: ['<svg>', '</svg>'], mathml: ['<math>', '</math>'] }[patch.ns];
      const fragment = parseSnippet(doc, wrap[0] + '<' + patch.name + '>' + wrap[1]);
      element = patch.ns === 'html' ? fragment.firstChild : fragment.firstChild && fragment.firstChild.firstChild;
      if (!element || element.namespaceURI !== uri || element.localName !== patch.name) {
        throw new BatchError('bad-patch', 'cannot create element ' + JSON.stringify(patch.name));
      }
      element.remove();
      element = doc.adoptNode(element);
    }
    for (const attr of patch.attrs) {
      if (!hasAttr(element, attr)) {
        setAttr(doc, element, attr);
      }
    }
    return element;
  }

  function quoteId(id) {
    return id.indexOf('"') < 0 ? '"' + id + '"' : "'" + id + "'";
  }

  function createDoctype(doc, patch) {
    try {
      return doc.implementation.createDocumentType(patch.name, patch.public_id, patch.system_id);
    } catch (e) {
      let html = '<!DOCTYPE ' + patch.name;
      if (patch.public_id !== '') {
        html += ' PUBLIC ' + quoteId(patch.public_id);
        if (patch.system_id !== '') html += ' ' + quoteId(patch.system_id);
      } else if (patch.system_id !== '') {
        html += ' SYSTEM ' + quoteId(patch.system_id);
      }
      const parsed = new DOMParser().parseFromString(html + '>', 'text/html').doctype;
      if (!parsed || parsed.name !== patch.name) {
        throw new BatchError('bad-patch', 'cannot create doctype ' + JSON.stringify(patch.name));
      }
      return doc.adoptNode(parsed.cloneNode());
    }
  }

  function createPI(doc, patch) {
    try {
      return doc.createProcessingInstruction(patch.target, patch.data);
    } catch (e) {
      // An HTML document without processing instructions: keep the data visible.
      return doc.createComment('?' + patch.target + ' ' + patch.data + '?');
    }
  }

  // Phase 1: version check, key check, new nodes built off-tree. Nothing in
  // `doc` changes; an error here leaves the document exactly as it was.
  function prepare(doc, state, batch) {
    const created = new Map();
    let cleared = false;
    let highWater = state.highWater;
    let clearedThrough = state.clearedThrough;
    const lookup = (key, index) => {
      let node = created.get(key);
      if (node === undefined && !cleared) node = state.nodes.get(key);
      if (node === undefined) {
        const stale = key <= clearedThrough;
        throw new BatchError(stale ? 'stale-key' : 'unknown-key', 'patch ' + index + ': key ' + key);
      }
      return node;
    };
    const create = (key, node, index) => {
      if (!(key > highWater)) {
        throw new BatchError('bad-patch', 'patch ' + index + ': key ' + key + ' not above ' + highWater);
      }
      highWater = key;
      created.set(key, node);
    };
    const plan = [];
    batch.patches.forEach((patch, index) => {
      switch (patch.op) {
        case 'Clear':
          if (index !== 0) throw new BatchError('bad-patch', 'Clear at patch ' + index);
          cleared = true;
          clearedThrough = highWater;
          plan.push([patch]);
          break;
        case 'CreateDocument':
          create(patch.key, doc, index);
          plan.push([patch]);
          break;
        case 'SetQuirksMode':
          plan.push([patch]);
          break;
        case 'CreateDoctype':
          create(patch.key, createDoctype(doc, patch), index);
          break;
        case 'CreateElement': {
          const element = createElement(doc, patch);
          create(patch.key, element, index);
          if (patch.contents !== null) {
            if (!element.content) throw new BatchError('bad-patch', 'contents on a non-template');
            create(patch.contents, element.content, index);
          }
          break;
        }
        case 'CreateText':
          create(patch.key, doc.createTextNode(patch.text), index);
          break;
        case 'CreateComment':
          create(patch.key, doc.createComment(patch.text), index);
          break;
        case 'CreateProcessingInstruction':
          create(patch.key, createPI(doc, patch), index);
          break;
        case 'AppendChild':
          plan.push([patch, lookup(patch.parent, index), lookup(patch.child, index)]);
          break;
        case 'InsertBefore':
          plan.push([patch, lookup(patch.parent, index), lookup(patch.child, index), lookup(patch.before, index)]);
          break;
        case 'Remove':
        case 'AddAttributes':
        case 'AppendText':
          plan.push([patch, lookup(patch.node, index)]);
          break;
        default:
          throw new BatchError('bad-patch', 'patch ' + index + ': unknown op ' + patch.op);
      }
    });
    return { created, cleared, highWater, clearedThrough, plan };
  }

  // Phase 2: the tree changes, in patch order.
  function run(doc, state, prepared) {
    for (const [patch, a, b, c] of prepared.plan) {
      switch (patch.op) {
        case 'Clear':
          state.quirksMode = 'no-quirks';
          while (doc.firstChild) doc.removeChild(doc.firstChild);
          break;
        case 'CreateDocument':
          while (doc.firstChild) doc.removeChild(doc.firstChild);
          break;
        case 'SetQuirksMode':
          // A live document's mode cannot be set from script; it is recorded.
          state.quirksMode = patch.mode;
          break;
        case 'AppendChild':
          a.appendChild(b);
          break;
        case 'InsertBefore':
          a.insertBefore(b, c);
          break;
        case 'Remove':
          a.remove();
          break;
        case 'AddAttributes':
          for (const attr of patch.attrs) {
            if (!hasAttr(a, attr)) setAttr(doc, a, attr);
          }
          break;
        case 'AppendText':
          a.appendData(patch.text);
          break;
      }
    }
  }

  function applyBatch(doc, batch) {
    if (typeof batch === 'string') batch = JSON.parse(batch);
    const state = stateOf(doc);
    if (state.failed) throw new BatchError('dom', 'an earlier batch failed half-way');
    checkVersion(state, batch);
    const prepared = prepare(doc, state, batch);
    try {
      run(doc, state, prepared);
    } catch (e) {
      state.failed = true;
      throw new BatchError('dom', String(e && e.message ? e.message : e));
    }
    if (prepared.cleared) {
      state.nodes = prepared.created;
    } else {
      for (const [key, node] of prepared.created) state.nodes.set(key, node);
    }
    state.highWater = prepared.highWater;
    state.clearedThrough = prepared.clearedThrough;
    state.handle = batch.doc;
    state.version = batch.to;
    return { doc: state.handle, version: state.version };
  }

  function documentState(doc) {
    const state = states.get(doc);
    if (!state) return null;
    return { doc: state.handle, version: state.version, quirksMode: state.quirksMode, failed: state.failed };
  }

  function nodeForKey(doc, key) {
    const state = states.get(doc);
    return state ? state.nodes.get(key) : undefined;
  }

  const api = { applyBatch, BatchError, documentState, nodeForKey };
  global.TagloomViewer = api;
  global.applyBatch = applyBatch;
  if (typeof module === 'object' && module && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
