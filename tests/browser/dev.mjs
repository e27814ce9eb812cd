// Development helper (not a test): opens the page of a running server with web/index.html
// served from disk, runs steps, takes screenshots.
// node dev.mjs BASE OUT.png "query" [width] [steps as JS]
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
const [base, out, query, width = "1000", steps = ""] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: Number(width), height: 800 } });
page.on("console", (m) => console.log("console:", m.type(), m.text()));
page.on("pageerror", (e) => console.log("pageerror:", e.message));
await page.route((url) => url.pathname === "/", (route) =>
  route.fulfill({ contentType: "text/html", body: readFileSync(new URL("../../web/index.html", import.meta.url)) }));
await page.goto(`${base}/?${query}`);
const idle = () => page.waitForSelector('body[data-state="idle"]', { timeout: 30000 });
if (!process.env.NOWAIT) await idle();
if (steps) await eval(`(async () => { ${steps} })()`);
await page.screenshot({ path: out, fullPage: true });
console.log("url:", page.url());
console.log("summary:", await page.textContent("#summary"), "|", await page.textContent("#turn"), "| error:", await page.textContent("#error"));
await browser.close();
