import fs from "node:fs";
import path from "node:path";

/** A fresh HOME for the server so global agent settings come from the test, not the machine. */
export default function globalSetup() {
  const dataDir = process.env.E2E_DATA!;
  fs.mkdirSync(path.join(dataDir, "home"), { recursive: true });
}
