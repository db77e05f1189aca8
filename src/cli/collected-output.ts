import type { CliContext } from "./context.js";

/** Standard output and error kept as text, for a run answered in this process (the hook server, the tests). */
export function collectedOutput(): { stdout: CliContext["stdout"]; stderr: CliContext["stderr"]; text(): { stdout: string; stderr: string } } {
  let out = "";
  let err = "";
  return {
    stdout: {
      write(chunk: string, callback?: (error?: Error | null) => void) {
        out += chunk;
        callback?.();
        return true;
      },
      isTTY: false,
    },
    stderr: {
      write(chunk: string) {
        err += chunk;
        return true;
      },
      isTTY: false,
    },
    text: () => ({ stdout: out, stderr: err }),
  };
}
