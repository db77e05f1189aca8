/**
 * fixtures/relevance as the measurement scripts read it: every rule and skill found as a build finds them, and the
 * labelled prompts of every split.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/core/config.js";
import { locateOptionsOf, locateSource } from "../../src/core/sources/index.js";
import { walkTree } from "../../src/io/discover.js";
import { REPO } from "../helpers/cli.js";

export const FIXTURE = join(REPO, "fixtures/relevance");

/** One prompt with the rules a careful reader says it needs, by name: a rule's file name without its extension, a skill's folder. */
export interface Labelled {
  split: string;
  prompt: string;
  relevant: string[];
}

export async function relevanceFixture(): Promise<{ files: Array<{ path: string; text: string }>; prompts: Labelled[] }> {
  const files = (await walkTree(FIXTURE, (path) => locateSource(path, locateOptionsOf(defaultConfig())) !== null))
    .sort()
    .map((path) => ({ path, text: readFileSync(join(FIXTURE, path), "utf8") }));
  const prompts = (JSON.parse(readFileSync(join(FIXTURE, "prompts.json"), "utf8")) as { prompts: Labelled[] }).prompts;
  return { files, prompts };
}
