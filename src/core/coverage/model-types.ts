/** The shapes of `ctxinject coverage`'s model (core/coverage/model.ts makes it, in phases). */
import type { AgentProfile } from "../agents/profile.js";
import type { Finding } from "../doctor/finding.js";
import type { LinearEngine } from "../linear-regexp.js";
import type { RunMemo } from "../run-memo.js";
import type { Candidate } from "../types.js";

/** Stands for the folder's representative file in reasons: one cell serves every folder whose files it fits. */
export const REPRESENTATIVE = "{representative}";

export interface CoverageInput {
  /** The `build --all` selection's candidates, in its final order. */
  candidates: readonly Candidate[];
  /** Each candidate's reason in a build with no target (`source:id` → reason): an always rule's own words. */
  plainReasons: ReadonlyMap<string, string>;
  /** Every file git tracks, root-relative. */
  tracked: readonly string[];
  /** The agents to show, as their own settings have them. */
  profiles: readonly AgentProfile[];
  /** The agents ctxinject has a host integration for (a hook or a plugin that injects on its own). */
  integrated: ReadonlySet<string>;
  /** doctor's findings over the same tree. */
  findings: readonly Finding[];
  /** The folder a located instruction file applies from (its rules folder's parent, an AGENTS.md's folder). */
  anchorOf(path: string): string;
  isInstruction(path: string): boolean;
  linear?: LinearEngine;
  memo?: RunMemo;
}

export interface CoverageItem {
  /** The instruction file (root-relative), or `source:id` for an entry of ctxinject's own (config `custom`). */
  file: string;
  tokens: number;
  /** Why, in explain's words; REPRESENTATIVE stands for the folder's representative file. */
  reason: string;
  /** For a description offered: who offers it (the agent itself, or "ctxinject" in its index). */
  by?: string;
}

export interface CellFinding {
  severity: Finding["severity"];
  kind: string;
  /** The file the finding is about; for one that sums up several files (`files`), the first of them (a folder's path would tell cells apart that are alike). */
  file: string;
  line?: number;
  message: string;
  /** The files a summing-up finding names (`not-seen`, `no-agent-reads`: one finding per cell, not one per file). */
  files?: string[];
}

export interface CoverageCell {
  /** The tokens of what the agent has in full here: what it loads and what ctxinject adds. */
  tokens: number;
  /** Indexes into the model's `items`. */
  loads: number[];
  adds: number[];
  /** Descriptions only (agent-requested rules, skills): offered by the agent itself, or listed in ctxinject's index. */
  offers: number[];
  findings: CellFinding[];
}

export interface CoverageFolder {
  path: string;
  depth: number;
  /** Files below it, instruction files left out. */
  files: number;
  representative: string;
  /** Folders below it left out because every one of them is the same as this one (0: none, or shown). */
  hidden: number;
  /** Agent → index into `cells`. */
  cells: Record<string, number>;
}

/** `copy`: the agent never gets this file, but gets its text (or nearly) through another file (`copies` names it). */
export type RuleState = "loads" | "adds" | "offers" | "copy" | "never";

export interface CoverageRule {
  file: string;
  source: string;
  kind: string;
  /** The tracked files it applies to, each judged by itself (instruction files left out). */
  files: number;
  /** How each agent gets it where it applies, at best. */
  agents: Record<string, RuleState>;
  /** For the agents in state `copy`: the file that brings them its text (the first folder's). */
  copies?: Record<string, string>;
}

export interface CoverageModel {
  agents: Array<{ name: string; integration: boolean }>;
  /** How "applies in a folder" is decided. */
  representative: string;
  folders: CoverageFolder[];
  /** Each (file, reason, offered by) once: 100k folders list the same few thousand entries again and again. */
  items: CoverageItem[];
  cells: CoverageCell[];
  rules: CoverageRule[];
}

/** The model and, for `--base`, every folder's cells (collapsed ones too). */
export interface Coverage {
  model: CoverageModel;
  /**
   * Each folder's cell per agent, in `model.agents` order: a list of numbers, not an object keyed by agent per folder
   * (14 keyed stores and an object with a property store for each of a 100k-file tree's folders, each kept to the end).
   */
  every: Map<string, readonly number[]>;
}

export const REPRESENTATIVE_RULE =
  "each folder is judged by one file: its first file by path order that is no instruction file, as `build --files <that file>` judges it (a folder holding only folders: no glob matches there; its AGENTS.md chain and always rules are those of the first file below it); agents are taken to run from the project top";
