// Bundles glue.js with CodeMirror into OUT_DIR/editor.js (one minified script, no imports) and
// writes OUT_DIR/EDITOR-LICENSES.md: the name, version, licence and copyright lines of every
// package in the bundle. Run by scripts/build-editor.sh after `npm ci`.
//
//   node build.mjs OUT_DIR
import { build } from "esbuild";
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) throw new Error("usage: node build.mjs OUT_DIR");

const result = await build({
  entryPoints: [join(here, "glue.js")],
  absWorkingDir: here,
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  metafile: true,
  write: false,
  outfile: "editor.js",
});

// The bundled packages, by the folders of node_modules their files came from.
const packages = new Map();
for (const [input, { bytesInOutput }] of Object.entries(Object.values(result.metafile.outputs)[0].inputs)) {
  const m = input.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (!m || bytesInOutput === 0) continue;
  packages.set(m[1], (packages.get(m[1]) || 0) + bytesInOutput);
}

const permission = (text) => text.slice(text.indexOf("Permission is hereby granted")).replace(/\s+/g, " ").trim();
const esbuildDir = join(here, "node_modules", "esbuild");
const mitText = readFileSync(join(here, "node_modules", "@codemirror", "view", "LICENSE"), "utf8");
const mit = permission(mitText);
const rows = [];
const copyrights = new Set();
for (const name of [...packages.keys()].sort()) {
  const dir = join(here, "node_modules", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  if (!file) throw new Error(`${name}: no licence file`);
  const text = readFileSync(join(dir, file), "utf8");
  if (pkg.license !== "MIT" || permission(text) !== mit) {
    throw new Error(`${name} ${pkg.version}: licence ${pkg.license} is not the MIT text: review it before bundling`);
  }
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => /^copyright/i.test(l));
  lines.forEach((l) => copyrights.add(l));
  rows.push({ name, version: pkg.version, license: pkg.license, lines, bytes: packages.get(name) });
}

const code = result.outputFiles[0].text;
const banner = `/*! The ladder's code editor (ladder/editor/glue.js) with CodeMirror 6, bundled by scripts/build-editor.sh.
 * ${rows.map((r) => `${r.name} ${r.version}`).join(", ")}: MIT licence (list: EDITOR-LICENSES.md).
 * ${[...copyrights].sort().join("\n * ")}
 *
 * ${mitText.slice(mitText.indexOf("Permission is hereby granted")).trim().split("\n").join("\n * ")}
 */
`;
writeFileSync(join(out, "editor.js"), banner + code);

const md = `# The editor's bundled packages

\`editor.js\` beside this file is the ladder's code editor: our glue (\`ladder/editor/glue.js\`) and
the packages below, bundled and minified by esbuild ${JSON.parse(readFileSync(join(esbuildDir, "package.json"), "utf8")).version}
(MIT, Copyright (c) 2020 Evan Wallace; it builds the file and is not in it). The versions are pinned in
\`ladder/editor/package.json\` and \`package-lock.json\`; \`scripts/build-editor.sh\` rebuilds the file
(\`--check\`: byte for byte) and this list. This file is written by the build.

| package | version | licence | copyright | bytes in editor.js |
| --- | --- | --- | --- | --- |
${rows.map((r) => `| ${r.name} | ${r.version} | ${r.license} | ${r.lines.join("; ")} | ${r.bytes} |`).join("\n")}

Every package's licence is the MIT licence:

\`\`\`
${mitText.slice(mitText.indexOf("Permission is hereby granted")).trim()}
\`\`\`
`;
writeFileSync(join(out, "EDITOR-LICENSES.md"), md);
