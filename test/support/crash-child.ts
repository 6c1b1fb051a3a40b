/**
 * Test helper spawned by crash-safety.test.ts: flips a store between two byte states through
 * writeAtomically as fast as it can until it is killed. Args: root file stateA stateB.
 * It imports only the write path so each spawn is cheap.
 */
import { readFileSync } from "node:fs";
import { readNoFollow, writeAtomically } from "../../lib/stores/atomic-write";

const [root, file, a, b] = process.argv.slice(2);
const states = [readFileSync(a, "utf8"), readFileSync(b, "utf8")];

process.stdout.write("ready\n");
for (;;) {
  const current = await readNoFollow(file);
  const content = current.text === states[0] ? states[1] : states[0];
  try {
    await writeAtomically({
      file,
      root,
      expectedVersion: current.version,
      content,
      emacsLockCheck: file.endsWith(".el"),
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).name}: ${(error as Error).message}\n`);
  }
}
