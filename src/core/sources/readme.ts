/** directory-readme: README.md from the root down to each target's folder. */
import { decideOnPath, folderFileDraft } from "./agents.js";
import type { SourceModule } from "./source.js";

export const README = "README.md";

export const readmeFiles: SourceModule = {
  name: "readme",
  source: "directory-readme",
  files: () => ({ folders: [], names: [README] }),
  draft: (ctx, located) =>
    located.map((l) => {
      const draft = folderFileDraft(readmeFiles, ctx, l, 0);
      decideOnPath(draft.candidate, l.anchor, ctx);
      return draft;
    }),
};
