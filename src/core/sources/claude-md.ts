/** Claude Code's memory files: CLAUDE.md, `.claude/CLAUDE.md`, then the personal CLAUDE.local.md, per folder. */
import { agentFileModule } from "./agents.js";

export const claudeMemory = agentFileModule("claude-md", ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"]);
