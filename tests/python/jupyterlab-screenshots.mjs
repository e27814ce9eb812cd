// Drives JupyterLab in Debian's chromium (playwright-core from tests/browser): runs the
// notebook's cells, clicks on the boards of inarow.BoardWidget as a user does and takes the
// screenshots. Run by tests/python/jupyterlab-screenshots (URL: the notebook, with its token;
// SHOTS: the folder of the screenshots).
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(new URL("../browser/package.json", import.meta.url));
const { chromium } = require("playwright-core");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 1300 }, deviceScaleFactor: 1 });
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
try {
  await page.goto(process.env.URL);
  await page.waitForSelector(".jp-Notebook .jp-Cell", { timeout: 120_000 });
  // JupyterLab may ask for the kernel (the one the notebook names is offered): accepted; then,
  // the kernel idle, Run > Run All Cells.
  const accept = page.locator(".jp-Dialog .jp-mod-accept");
  await accept.waitFor({ timeout: 15_000 }).then(() => accept.click()).catch(() => {});
  await page.waitForSelector(".jp-StatusBar-TextItem:has-text('| Idle')", { timeout: 120_000 });
  // The news' question, if asked: no.
  await page.locator(".jp-toast-button:text-is('No')").click({ timeout: 2_000 }).catch(() => {});
  await page.click(".lm-MenuBar-itemLabel:text-is('Run')");
  await page.click(".lm-Menu-itemLabel:text-is('Run All Cells')");
  const widgets = page.locator(".inarow-widget");
  await widgets.nth(2).waitFor({ timeout: Number(process.env.WAIT || 120_000) });
  // Closes the side bar for room.
  await page.keyboard.press("Control+b").catch(() => {});

  // Connect Four: Red clicks columns, the engine answers for Yellow; the values come.
  const c4 = widgets.nth(0);
  for (const col of ["4", "3", "5"]) {
    const moves = await c4.locator(".iw-moves").inputValue();
    await c4.locator(`.iw-board .col.target[data-move="${col}"]`).click();
    // The click and the engine's reply.
    await page.waitForFunction(
      ([el, n]) => el.querySelector(".iw-moves").value.length >= n && !el.querySelector(".iw-engine").textContent.includes("thinking"),
      [await c4.elementHandle(), moves.length + 2],
      { timeout: 60_000 },
    );
  }
  await page.waitForFunction((el) => el.querySelector(".iw-note").textContent.includes("exact"), await c4.elementHandle(), { timeout: 60_000 });
  await page.mouse.move(0, 0); // no hover mark
  const cell = (w) => w.locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' jp-Cell ')][1]");
  await cell(c4).scrollIntoViewIfNeeded();
  await cell(c4).screenshot({ path: join(process.env.SHOTS, "notebook-widget-connect4.png") });

  // Pentago: a cell, then an arrow; then another cell chosen, its turns' values on the arrows.
  const pg = widgets.nth(1);
  await pg.locator('.iw-board .cell.target[data-cell="14"]').click();
  await pg.locator(".iw-board .turn.target").first().waitFor();
  await pg.locator('.iw-board .turn.target[data-block="0"][data-clockwise="true"]').click();
  await page.waitForFunction((el) => el.querySelector(".iw-moves").value.length > 16, await pg.elementHandle());
  await page.waitForFunction((el) => /Values: (exact|estimates \()/.test(el.querySelector(".iw-note").textContent), await pg.elementHandle(), { timeout: 60_000 });
  await pg.locator('.iw-board .cell.target[data-cell="21"]').click();
  await pg.locator(".iw-board .turn.target").first().waitFor();
  await page.mouse.move(0, 0);
  await cell(pg).scrollIntoViewIfNeeded();
  await cell(pg).screenshot({ path: join(process.env.SHOTS, "notebook-widget-pentago.png") });

  // The cube: a click on a column seen from above; the engine's move by the button.
  const cube = widgets.nth(2);
  await cube.locator('.iw-board .col.target[data-move="a"]').click();
  await page.waitForFunction((el) => el.querySelector(".iw-moves").value === "05a", await cube.elementHandle());
  await cube.locator(".iw-engine").click();
  await page.waitForFunction((el) => el.querySelector(".iw-moves").value.length === 4 && /Values: (exact|estimates \()/.test(el.querySelector(".iw-note").textContent), await cube.elementHandle(), { timeout: 60_000 });
  await page.mouse.move(0, 0);
  await cell(cube).scrollIntoViewIfNeeded();
  await cell(cube).screenshot({ path: join(process.env.SHOTS, "notebook-widget-cube.png") });
} catch (e) {
  // What the page showed, for the one who reads the error.
  await page.screenshot({ path: process.env.FAILED || "jupyterlab-failed.png" }).catch(() => {});
  throw e;
} finally {
  await browser.close();
}
if (errors.length) {
  console.error(errors.join("\n"));
  process.exit(1);
}
