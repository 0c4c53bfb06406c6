// Copies the pinned npm packages the pages use into the project's static files, so the
// site serves them itself (no CDN at run time; it works offline). Run by `make install`
// after `npm ci`; the output directory is git-ignored and rebuilt from package-lock.json.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "penance_site", "static", "vendor");
mkdirSync(out, { recursive: true });

const files = [
  ["htmx.org/dist/htmx.min.js", "htmx.min.js"],
  ["chart.js/dist/chart.umd.min.js", "chart.umd.min.js"],
  // The accessibility checker the browser tests run in the pages (tests/browser); the
  // pages never load it.
  ["axe-core/axe.min.js", "axe.min.js"],
];
const versions = {};
for (const [source, target] of files) {
  copyFileSync(join(root, "node_modules", source), join(out, target));
  const pkg = source.split("/")[0];
  versions[pkg] = JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"))).version;
}
console.log(`front-end packages copied to ${out}:`, versions);
