#!/usr/bin/env node
// A logging hook for the host probes: records which event fired with what JSON on stdin, and answers with a
// marker text in the host's answer shape, so a suite can tell whether that event's text reaches the model.
//   node probe-hook.mjs LOG.jsonl SHAPE EVENT
// SHAPE: "copilot" ({additionalContext}), "claude" ({hookSpecificOutput:{hookEventName,additionalContext}}, as Qwen
// Code and Droid read it), "cline" ({cancel,contextModification}). The marker is MARK-HOOK-<EVENT>.
import { appendFileSync } from "node:fs";

const [log, shape, event] = process.argv.slice(2);
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  let json = null;
  try {
    json = input ? JSON.parse(input) : null;
  } catch {
    json = { unparsed: input };
  }
  appendFileSync(log, `${JSON.stringify({ event, input: json })}\n`);
  const text = `Probe context for ${event}. (MARK-HOOK-${event})`;
  const answer =
    shape === "copilot"
      ? { additionalContext: text }
      : shape === "cline"
        ? { cancel: false, contextModification: text }
        : { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
  process.stdout.write(JSON.stringify(answer));
});
