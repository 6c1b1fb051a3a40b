// Shell parser evaluation for docs/decisions/0002-shell-parser.md: tree-sitter-bash (web-tree-sitter)
// vs sh-syntax (mvdan/sh in Go wasm) on the seed's examples. Run: npx tsx bench/decide/parsers.ts
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { parse as shParse } from "sh-syntax";
import { Language, Parser } from "web-tree-sitter";

const EXAMPLES = [
  "git status",
  "cat README.md | head -5",
  "cat file | head -5 || echo none",
  "git status && rm -rf .",
  "FOO=bar rm -rf x",
  "timeout 30 rm -rf /",
  'bash -c "rm -rf /; echo ok"',
  "echo $(rm -rf /;)",
  "rm -rf /;",
  'rm -rf "$HOME"/*',
  "rm -rf ${HOME}/",
  "rm -rf $HOMEDIR",
  "PATH=/tmp git status",
  "find . -name '*.o' -delete",
  "sed -i 's/a/b/' f",
  "cat x > out 2>&1",
  "a |& b",
  "npm run dev &",
  "cat <<EOF\n$(ls)\nEOF",
  'echo "unterminated',
];

async function main() {
  const require = createRequire(import.meta.url);
  await Parser.init({
    wasmBinary: new Uint8Array(await readFile(require.resolve("web-tree-sitter/web-tree-sitter.wasm"))),
  });
  const p = new Parser();
  p.setLanguage(
    await Language.load(new Uint8Array(await readFile(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")))),
  );

  console.log("| example | tree-sitter-bash | sh-syntax |\n|---|---|---|");
  for (const c of EXAMPLES) {
    const t = p.parse(c);
    const ts = t && !t.rootNode.hasError ? "ok" : "error";
    t?.delete();
    let sh = "ok";
    try {
      await shParse(c);
    } catch (e) {
      sh = `error (${(e as Error).message.slice(0, 40)})`;
    }
    console.log(`| \`${c.replace(/\n/g, "\\n")}\` | ${ts} | ${sh} |`);
  }

  const cmd = "FOO=bar timeout 30 git status --short && npm run build | tee log";
  const N = 2000;
  let t0 = performance.now();
  for (let i = 0; i < N; i++) p.parse(cmd)?.delete();
  const tsUs = ((performance.now() - t0) / N) * 1000;
  t0 = performance.now();
  for (let i = 0; i < 200; i++) await shParse(cmd);
  const shUs = ((performance.now() - t0) / 200) * 1000;
  console.log(
    `\nparse "${cmd}": tree-sitter-bash ${tsUs.toFixed(1)} µs (sync), sh-syntax ${shUs.toFixed(1)} µs (async, new Go instance per call)`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
