// Write a pyodide-lock.json with Pyodide's own `info` and no packages: the page loads none, and
// the stock lock file (about 120 kB, 350 packages) is fetched and parsed at every start.
//
//   node runtime/build/minimal-lock.mjs <in pyodide-lock.json> <out pyodide-lock.json>
import { readFileSync, renameSync, writeFileSync } from "node:fs";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node runtime/build/minimal-lock.mjs <in pyodide-lock.json> <out pyodide-lock.json>");
  process.exit(2);
}
const { info } = JSON.parse(readFileSync(input, "utf8"));
const partial = `${output}.partial`;
writeFileSync(partial, JSON.stringify({ info, packages: {} }) + "\n");
renameSync(partial, output);
console.log(`${output}: ${JSON.stringify(info)}, no packages`);
