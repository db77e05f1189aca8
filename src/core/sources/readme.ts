/** directory-readme: README.md from the root down to each target's folder. */
import { joinPath } from "../rel-path.js";
import { decideOnPath, folderFileDraft } from "./agents.js";
import { hasBody, readmeForAgents } from "./readme-text.js";
import { setStatus, type SourceModule } from "./source.js";

export const README = "README.md";

/** Files that make a folder a package root: in --all, only the root's and these folders' READMEs are read. */
export const PACKAGE_MANIFESTS = [
  "package.json",
  "pyproject.toml",
  "setup.py",
  "Cargo.toml",
  "go.mod",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "composer.json",
  "Gemfile",
  "mix.exs",
  "deno.json",
];

export const readmeFiles: SourceModule = {
  name: "readme",
  source: "directory-readme",
  files: () => ({ folders: [], names: [README] }),
  draft: (ctx, located) =>
    located.map((l) => {
      const draft = folderFileDraft(readmeFiles, ctx, l, 0);
      const candidate = draft.candidate;
      // Written for people: what an agent cannot use (HTML, badges, images, embeds) is left out before counting.
      const text = readmeForAgents(candidate.content);
      if (text !== candidate.content) {
        candidate.content = text;
        candidate.tokens = ctx.countTokens(text);
      }
      // An empty or heading-only README (`## API`) is skipped without a warning: it is common and harmless.
      if (!hasBody(text)) setStatus(candidate, "unmatched", "nothing for an agent (empty, or only headings, HTML, badges or images)");
      else if (ctx.all && ctx.packageRoots !== undefined && l.anchor !== "" && !ctx.packageRoots.has(l.anchor)) {
        setStatus(
          candidate,
          "unmatched",
          `--all reads the READMEs of the root and of package roots (no ${PACKAGE_MANIFESTS.slice(0, 4).join(", ")}… in ${joinPath(l.anchor, "")}); config allReadmes: true reads every one`,
        );
      } else decideOnPath(candidate, l.anchor, ctx);
      return draft;
    }),
};
