/**
 * The checks of the property suite (properties.ts), on one answer each: what was sent, never how it was chosen.
 * Each returns the pairs it looked at and the misses it found, so the suite can say how much was checked.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { LIKELY_TITLE } from "../../src/core/render/tiers.js";

export type Property = "once" | "budget" | "named" | "clean" | "stable" | "runs" | "session" | "likely";

export interface Miss {
  property: Property;
  repo: string;
  label: string;
  detail: string;
}

export interface Checked {
  pairs: number;
  misses: Miss[];
}

export interface BuildJson {
  entries: Array<{ source: string; id: string; path: string | null; content: string }>;
  merged: string;
}

export interface ExplainCandidate {
  source: string;
  id: string;
  priority: string;
  kind: string;
  path: string | null;
  tokens: number;
  status: string;
  reason: string;
}

interface Block {
  source: string;
  id: string;
  body: string;
}

const SEPARATOR = "\n\n---\n\n";
const PROVENANCE = /^<!-- ([a-z-]+): (.+?) \((critical|high|normal|low)\) -->\n?/;
const TRIM_NOTE = /\n*\[… trimmed to fit the token budget[^\]]*\]\s*$/;

/** The entries of a markdown block (provenance comment, then the text); the index and the prompt are not entries. */
export function markdownEntries(output: string): Block[] {
  return output.split(SEPARATOR).flatMap((part) => {
    const m = PROVENANCE.exec(part.trimStart());
    return m ? [{ source: m[1]!, id: m[2]!, body: part.trimStart().slice(m[0].length) }] : [];
  });
}

/** The paths an index names (`- \`path\` …` lines under the index comment or heading). */
export function indexedPaths(output: string): string[] {
  return indexLines(output).map((l) => l.path);
}

/** The index's lines (`- \`path\` …`), each with the path it names. */
function indexLines(output: string): Array<{ path: string; line: string }> {
  const at = output.indexOf("<!-- ctxinject: index -->");
  if (at < 0) return [];
  const index = output.slice(at).split(SEPARATOR)[0]!;
  return [...index.matchAll(/^\s*- `([^`]+)`.*$/gm)].map((m) => ({ path: m[1]!, line: m[0].replace(/\s+/g, " ").trim() }));
}

/** An entry's lines that say something (a heading or a rule, not a blank, a fence or a rule line), whitespace collapsed. */
const linesOf = (text: string) =>
  text
    .replace(TRIM_NOTE, "")
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter((l) => l.length >= 20);
/** Fewer lines than this in common is a shared phrase, not a repeated entry. */
const MIN_LINES = 5;
/** Share of the smaller entry's lines found in the other that makes it a repetition (a copy with a link changed). */
const REPEATED = 0.9;

interface Lines {
  list: string[];
  set: Set<string>;
}
const toLines = (text: string): Lines => {
  const list = linesOf(text);
  return { list, set: new Set(list) };
};

/** When the smaller of two entries is (nearly) all inside the other: which one (0 or 1), and how many of its lines. */
function repetition(a: Lines, b: Lines): { small: 0 | 1; shared: number; of: number } | undefined {
  const [small, mine, other] = a.list.length <= b.list.length ? ([0, a, b] as const) : ([1, b, a] as const);
  if (mine.list.length < MIN_LINES) return undefined;
  const shared = mine.list.filter((l) => other.set.has(l)).length;
  return shared / mine.list.length >= REPEATED ? { small, shared, of: mine.list.length } : undefined;
}

/**
 * (a) once: no entry's text is sent twice (another entry's, inside another's, or a copy of it for another agent with
 * a link or two changed), and no file is sent or indexed under two paths (the same real file through a symlink).
 */
export function checkOnce(repo: string, label: string, root: string, output: string, json?: BuildJson["entries"]): Checked {
  const blocks: Block[] = json ? json.map((e) => ({ source: e.source, id: e.path ?? e.id, body: e.content })) : markdownEntries(output);
  const misses: Miss[] = [];
  let pairs = 0;
  const miss = (detail: string) => misses.push({ property: "once", repo, label, detail });
  const lines = blocks.map((b) => toLines(b.body));
  for (let i = 0; i < blocks.length; i++) {
    for (let j = i + 1; j < blocks.length; j++) {
      pairs++;
      const found = repetition(lines[i]!, lines[j]!);
      if (found === undefined) continue;
      const [small, large] = found.small === 0 ? [i, j] : [j, i];
      miss(`${found.shared} of ${found.of} lines of ${blocks[small]!.id} sent again in ${blocks[large]!.id}`);
    }
  }
  const paths = [...blocks.map((b) => b.id), ...indexedPaths(output)];
  const seen = new Map<string, string>();
  for (const path of paths) {
    const real = realOf(root, path);
    if (real === undefined) continue;
    pairs++;
    const before = seen.get(real);
    if (before !== undefined) miss(`${real.slice(root.length + 1)} sent or indexed as ${before} and ${path}`);
    else seen.set(real, path);
  }
  return { pairs, misses };
}

function realOf(root: string, path: string): string | undefined {
  try {
    return realpathSync(join(root, path));
  } catch {
    return undefined;
  }
}

/** Presentation markup, never an instruction: badges, images, embeds, aligned blocks. */
const PRESENTATION = /\[!\[[^\]\n]*\]\([^)\n]*\)\]\([^)\n]*\)|<img\b|<picture\b|<iframe\b|<video\b|<(p|div|h[1-6])\s+align\b/i;
/** In a README (written for people) any HTML element is markup for a browser. */
const HTML_TAG = /<\/?(a|img|p|div|span|br|hr|h[1-6]|table|tr|td|th|center|picture|source|sub|sup|details|summary|b|i|em|strong|kbd|video|iframe)\b[^>]*>/i;

/** Code (fenced blocks, inline spans) is quoted text: markup there is the subject, not decoration. */
export function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/**
 * (c) clean: no HTML, badge, image or embed in a README entry (written for people; issue 30 item 6). Other entries are
 * the repository's instructions, sent as written: a rule teaching a docs framework's `<img>` markup is its subject.
 */
export function checkClean(repo: string, label: string, output: string, json?: BuildJson["entries"]): Checked {
  const blocks: Block[] = json ? json.map((e) => ({ source: e.source, id: e.path ?? e.id, body: e.content })) : markdownEntries(output);
  const misses: Miss[] = [];
  const readmes = blocks.filter((b) => b.source === "directory-readme");
  for (const block of readmes) {
    const text = withoutCode(block.body);
    const found = PRESENTATION.exec(text) ?? HTML_TAG.exec(text);
    if (found) misses.push({ property: "clean", repo, label, detail: `${block.id}: ${JSON.stringify(found[0].slice(0, 60))}` });
  }
  return { pairs: readmes.length, misses };
}

const PRIORITIES = ["critical", "high", "normal", "low"];
const LEFT_OUT = new Set(["over-budget", "below-threshold"]);

/** A folder file's scope: `.claude/CLAUDE.md` is the root's, `pkg/.claude/CLAUDE.md` is `pkg`'s. */
function scopeOf(path: string): string[] {
  const parts = path.split("/").slice(0, -1);
  while (parts.length > 0 && parts.at(-1)!.startsWith(".")) parts.pop();
  return parts;
}

const within = (target: string, scope: string[]) => scope.every((part, i) => target.split("/")[i] === part);

/**
 * The order of evidence (weakest first), as the user reads it from explain: README; a relevance guess
 * (description-only rule or skill); an agent file at the far end of a folder chain; the rest (always-rules, glob
 * matches of the targets, the nearest agent file, named rules). Priority comes before all of it; among READMEs and
 * folder files, the deeper folder is the stronger. Relevance guesses are not ordered among themselves here (their
 * scores are not in explain's JSON): only across tiers.
 */
export function strengthOf(c: ExplainCandidate, nearest: Set<string>): [number, number, number] {
  const priority = PRIORITIES.length - 1 - PRIORITIES.indexOf(c.priority);
  if (c.source === "directory-readme") return [priority, 0, c.path ? scopeOf(c.path).length : 0];
  // A glob rule offered by its description (no target matched its globs) is a relevance guess like a description-only rule.
  if (c.kind === "agent-requested" || c.reason.includes("no target matches its globs; by its description")) return [priority, 1, 0];
  if (c.kind === "directory" && c.path !== null && !nearest.has(c.path)) return [priority, 2, scopeOf(c.path).length];
  return [priority, 3, 0];
}

/** For each target, the agent files of the deepest folder on its path that holds one and was selected. */
function nearestAgentFiles(candidates: ExplainCandidate[], targets: string[]): Set<string> {
  const files = candidates.filter(
    (c) => c.source === "directory-agents" && c.kind === "directory" && c.path !== null && ["included", "trimmed", "over-budget"].includes(c.status),
  );
  const nearest = new Set<string>();
  for (const target of targets) {
    let best = -1;
    let chosen: string[] = [];
    for (const f of files) {
      const scope = scopeOf(f.path!);
      if (!within(target, scope)) continue;
      if (scope.length > best) [best, chosen] = [scope.length, [f.path!]];
      else if (scope.length === best) chosen.push(f.path!);
    }
    for (const p of chosen) nearest.add(p);
  }
  return nearest;
}

const compare = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

/**
 * (b) budget: no entry left out for the budget (over-budget) is stronger than one kept whole (included); and every
 * entry left out, for the budget or below the relevance threshold, is named in the output's index (no "… and N more").
 */
export function checkBudget(
  repo: string,
  label: string,
  targets: string[],
  candidates: ExplainCandidate[],
  output: string,
): { order: Checked; named: Checked } {
  const nearest = nearestAgentFiles(candidates, targets);
  const dropped = candidates.filter((c) => c.status === "over-budget");
  const whole = candidates.filter((c) => c.status === "included");
  const order: Checked = { pairs: 0, misses: [] };
  for (const d of dropped) {
    const sd = strengthOf(d, nearest);
    for (const w of whole) {
      order.pairs++;
      const sw = strengthOf(w, nearest);
      if (compare(sd, sw) > 0) order.misses.push({ property: "budget", repo, label, detail: `${d.id} [${sd}] left out while ${w.id} [${sw}] stays whole` });
    }
  }
  const named: Checked = { pairs: 0, misses: [] };
  const listed = new Set(indexedPaths(output));
  for (const c of candidates.filter((c) => LEFT_OUT.has(c.status))) {
    named.pairs++;
    if (!listed.has(c.path ?? c.id)) named.misses.push({ property: "named", repo, label, detail: `${c.status} ${c.path ?? c.id} is not named in the index` });
  }
  if (output.includes("… and ") && /… and \d+ more/.test(output))
    named.misses.push({ property: "named", repo, label, detail: "the index ends with '… and N more'" });
  return { order, named };
}

/** One answer of a hook session: what the agent was told at that step. */
export interface SessionAnswer {
  step: string;
  output: string;
}

/**
 * session: across the answers of one hook session (one session id, one state folder), no entry reaches the agent
 * twice: not under the same provenance (whole or trimmed, then again), not as the same text under another id, and no
 * index line names a path an earlier answer's index already named. Within one answer is (a) once's business.
 */
export function checkSession(repo: string, label: string, answers: SessionAnswer[]): Checked {
  const misses: Miss[] = [];
  let pairs = 0;
  const miss = (detail: string) => misses.push({ property: "session", repo, label, detail });
  const sent = new Map<string, string>();
  const texts: Array<{ key: string; step: string; lines: Lines }> = [];
  const indexed = new Map<string, string>();
  for (const { step, output } of answers) {
    const entries = markdownEntries(output).map((e) => ({ key: `${e.source}: ${e.id}`, step, lines: toLines(e.body) }));
    for (const { key, lines } of entries) {
      pairs++;
      const before = sent.get(key);
      if (before !== undefined) miss(`${key} sent at ${before} and again at ${step}`);
      // Either way round: a trimmed entry then its whole text under another id is the same text twice.
      for (const earlier of texts) {
        if (earlier.key === key) continue;
        pairs++;
        const found = repetition(lines, earlier.lines);
        if (found)
          miss(
            found.small === 0
              ? `${found.shared} of ${found.of} lines of ${key} (${step}) were sent as ${earlier.key} (${earlier.step})`
              : `${found.shared} of ${found.of} lines of ${earlier.key} (${earlier.step}) sent again in ${key} (${step})`,
          );
      }
    }
    for (const entry of entries) {
      if (!sent.has(entry.key)) sent.set(entry.key, step);
      texts.push(entry);
    }
    const seenHere = new Set<string>();
    for (const { path, line } of indexLines(output)) {
      pairs++;
      const before = indexed.get(path);
      if (before !== undefined && !seenHere.has(path)) miss(`index line for ${path} (${before}) repeated at ${step}: ${JSON.stringify(line.slice(0, 100))}`);
      seenHere.add(path);
    }
    for (const path of seenHere) if (!indexed.has(path)) indexed.set(path, step);
  }
  return { pairs, misses };
}

/** The likely tier as each format renders it: its heading (markdown, not escaped as an entry's text would be), its attribute (xml). */
const LIKELY_TIER = new RegExp(`^## ${LIKELY_TITLE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$|\\btier="likely"`, "m");

/** likely: an answer built with no prompt (files only, a read) has no "likely relevant" tier: path words are not a prompt. */
export function checkNoLikely(repo: string, label: string, output: string): Checked {
  const found = LIKELY_TIER.exec(output);
  if (found === null) return { pairs: 1, misses: [] };
  const after = output
    .slice(found.index)
    .split("\n")
    .slice(1, 4)
    .filter((l) => l.trim() !== "");
  return {
    pairs: 1,
    misses: [{ property: "likely", repo, label, detail: `a likely tier with no prompt: ${JSON.stringify(after.join(" | ").slice(0, 160))}` }],
  };
}
