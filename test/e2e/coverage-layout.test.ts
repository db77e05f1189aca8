import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { testUnless } from "../helpers/lane.js";
import { chromiumOnPath, runChromium } from "../helpers/chromium.js";

// The coverage page at a laptop's size: 14 agents make the table wider than the screen; a clicked cell's detail
// must show without scrolling the page sideways.

const ENV = { CTXINJECT_HOOK_SERVER: "0" };
const WIDTH = 1366;
const HEIGHT = 768;
/** Kept for a person to look at (outside the repository). */
export const SCREENSHOT = `/tmp/ctxinject-coverage-${WIDTH}x${HEIGHT}.png`;

test.after.each(cleanup);

/** Headless Chromium where it is installed (test/lanes/setup.sh installs it); the test is a skip, with its reason, where it is not. */
const CHROMIUM = chromiumOnPath();

const browse = (browser: string, page: string, flags: string[]) =>
  runChromium(browser, page, "all", ["--hide-scrollbars", `--window-size=${WIDTH},${HEIGHT}`, ...flags]);

/**
 * A copy of the page with a script that does what a person does: scrolls the table to the last agent's column,
 * clicks that cell where it shows on screen, then notes the detail panel's box and the page's sideways scroll.
 */
const PROBE = `<script>
(function () {
  var cells = document.querySelectorAll('td.cell[data-folder="packages/api/src/handlers"]');
  var td = cells[cells.length - 1];
  td.scrollIntoView({ block: "nearest", inline: "nearest" });
  var box = td.getBoundingClientRect();
  var hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  var target = hit && hit.closest ? hit.closest("td.cell") : null;
  if (target) target.click();
  var panel = document.getElementById("details").getBoundingClientRect();
  document.body.setAttribute("data-probe", JSON.stringify({
    agent: td.getAttribute("data-agent"),
    hitCell: target === td,
    shown: document.getElementById("details").getAttribute("data-agent"),
    panel: { left: panel.left, right: panel.right, top: panel.top, bottom: panel.bottom },
    width: window.innerWidth, height: window.innerHeight, scrollX: window.scrollX,
    pageWidth: document.documentElement.scrollWidth
  }));
})();
</script>`;

testUnless(CHROMIUM === null && "chromium is not installed (test/lanes/setup.sh installs it)")(
  `coverage --format html at ${WIDTH} x ${HEIGHT} with 14 agents: a clicked cell's detail panel is on screen, the page never scrolls sideways`,
  async () => {
    const browser = CHROMIUM!;
    const dir = materialize("monorepo");
    const out = join(dir, "..", "coverage.html");
    const made = await runMain(["coverage", "--format", "html", "--out", out], { cwd: dir, env: ENV });
    assert.is(made.status, 0, made.stderr);
    const page = join(dir, "..", "coverage-probe.html");
    writeFileSync(page, readFileSync(out, "utf8").replace("</body>", `${PROBE}\n</body>`));
    const dom = browse(browser, page, ["--dump-dom"]).stdout;
    const raw = /data-probe="([^"]*)"/.exec(dom)?.[1];
    assert.ok(raw, "the probe ran");
    const probe = JSON.parse(raw!.replace(/&quot;/g, '"').replace(/&amp;/g, "&")) as {
      agent: string;
      hitCell: boolean;
      shown: string;
      panel: { left: number; right: number; top: number; bottom: number };
      width: number;
      height: number;
      scrollX: number;
      pageWidth: number;
    };
    assert.is(probe.width, WIDTH, "the browser took the window size");
    assert.is(probe.agent, "windsurf", "the last of the 14 agents' columns");
    assert.ok(probe.hitCell, "the cell, scrolled to, is on screen and not under the panel");
    assert.is(probe.shown, "windsurf", "the panel shows the clicked cell");
    const { panel } = probe;
    assert.ok(panel.left >= 0 && panel.right <= probe.width && panel.right - panel.left >= 300, `panel across the screen: ${JSON.stringify(probe)}`);
    assert.ok(panel.top >= 0 && panel.top < probe.height && panel.bottom - panel.top >= 300, `panel down the screen: ${JSON.stringify(probe)}`);
    assert.is(probe.scrollX, 0, "the page did not scroll sideways");
    assert.ok(probe.pageWidth <= probe.width, `the page is no wider than the window: ${probe.pageWidth}`);
    browse(browser, page, [`--screenshot=${SCREENSHOT}`]);
    assert.is(readFileSync(SCREENSHOT).subarray(1, 4).toString(), "PNG");
    console.log(`coverage layout: screenshot at ${SCREENSHOT}`);
  },
);

test.run();
