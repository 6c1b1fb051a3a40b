/** mevedel in `cockpit demo`: its permissions in the demo workspace (listed on the Rules page). Plain data. */
import type { AgentDemo } from "../types";

export const demoFiles: Record<string, string> = {
  ".mevedel/permissions.el": `;; -*- mode: emacs-lisp -*-
;; mevedel permissions for the demo
(:rules
 (("Bash" :pattern "git log*" :action allow)
  ("Bash" :pattern "npm test*"
   :network nil
   :file-system ((:path "~/.npm" :access write :recursive t))
   :action allow)
  ("Bash" :pattern "rm -rf /*" :action deny))
 :resource-grants
 ((:path "~/notes" :access read)))
`,
};

export const demo: AgentDemo = { files: demoFiles };
