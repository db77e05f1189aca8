/**
 * The commands a prompt never runs. In the bundle they are a bundle of their own (dist/bundle/occasional.cjs, made by
 * scripts/bundle.mjs, which gives the CLI bundle a stand-in for this module; not a command itself): the CLI bundle loads it, from its own
 * code cache, when one of them runs, so that a build, a hook or the hook server neither reads nor deserialises nor
 * initialises their code (a fifth of the CLI bundle) at every start. Elsewhere (tsc's dist/, the tests) it is a
 * plain module. Only named re-exports of functions here: the stand-in forwards each call by name.
 */
export { runCoverage } from "./coverage.js";
export { runDoctor } from "./doctor.js";
export { runInit } from "./init.js";
export { runMcp } from "./mcp.js";
export { runTrust } from "./trust.js";
