/** Command Code in `cockpit demo`: its settings in the demo workspace (listed on the Rules page). Plain data. */
import type { AgentDemo } from "../types";

export const demoFiles: Record<string, string> = {
  ".commandcode/settings.json": `// Command Code permissions for the demo
{
  "permissions": {
    "allow": ["Shell(git status:*)", "Edit(src/**)"],
    "ask": ["Shell(git push:*)"],
    "deny": ["Shell(rm -rf /*)"],
    "defaultMode": "default"
  }
}
`,
};

export const demo: AgentDemo = { files: demoFiles };
