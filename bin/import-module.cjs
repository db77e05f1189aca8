// import() for the bundle: the bin runs the bundle from V8's code cache through vm.Script, which has no module loader
// for a dynamic import. A file Node's own CommonJS loader compiled has one, so the bundle requires this file to load
// an ES module (a trusted .mjs config, src/io/config-code.ts). Not bundled: it must stay a file of its own.
"use strict";
module.exports = (url) => import(url);
