import { ValidationError } from "@/lib/errors";
import { callServer } from "../server-client";
import { parseFlags, type Verb } from "../verb";

interface StorePresence {
  agent: string;
  file: string;
  exists: boolean;
}
interface WorkspaceRow {
  id: string;
  name: string;
  path: string;
  stores: StorePresence[];
}

const usage = `Usage: cockpit workspace <add DIR [--name NAME] | list [--json] | remove DIR|ID>

  add DIR      register a project folder an agent works in (must exist and be a folder;
               /, your home folder and the cockpit's data folder or any folder containing it are refused)
  list         list registered workspaces and the agent settings files found in each
  remove X     stop tracking a workspace (by folder or id); its files are not touched

Needs the running cockpit.`;

function storesLine(stores: StorePresence[]): string {
  const found = stores.filter((s) => s.exists).map((s) => s.file);
  return found.length ? found.join(", ") : "no agent settings files";
}

export const workspaceVerb: Verb = {
  name: "workspace",
  summary: "add, list or remove workspaces (project folders)",
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "add") {
      const { values, positionals } = parseFlags(rest, { name: { type: "string" } }, true);
      if (positionals.length !== 1) throw new ValidationError("workspace add takes exactly one folder");
      const path = await import("node:path");
      const { workspace } = await callServer<{ workspace: WorkspaceRow }>("POST", "/api/v1/workspaces", {
        path: path.resolve(positionals[0]!),
        name: values.name,
      });
      process.stdout.write(
        `Registered ${workspace.path} (id ${workspace.id})\nAgent stores: ${storesLine(workspace.stores)}\n`,
      );
      return 0;
    }
    if (sub === "list") {
      const { values, positionals } = parseFlags(rest, { json: { type: "boolean" } }, true);
      if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
      const { workspaces } = await callServer<{ workspaces: WorkspaceRow[] }>("GET", "/api/v1/workspaces");
      if (values.json) {
        process.stdout.write(JSON.stringify(workspaces, null, 2) + "\n");
      } else if (workspaces.length === 0) {
        process.stdout.write("No workspaces registered. Add one with `cockpit workspace add DIR`.\n");
      } else {
        for (const w of workspaces) process.stdout.write(`${w.id}  ${w.path}\n    ${storesLine(w.stores)}\n`);
      }
      return 0;
    }
    if (sub === "remove") {
      const { positionals } = parseFlags(rest, {}, true);
      if (positionals.length !== 1) throw new ValidationError("workspace remove takes exactly one folder or id");
      const path = await import("node:path");
      const arg = positionals[0]!;
      const fs = await import("node:fs");
      let target = /^[0-9a-f-]{36}$/.test(arg) ? arg : path.resolve(arg);
      try {
        if (target !== arg) target = fs.realpathSync(target);
      } catch {
        // A folder deleted since it was registered is matched by its recorded path.
      }
      const list = await callServer<{ workspaces: WorkspaceRow[] }>("GET", "/api/v1/workspaces");
      const match = list.workspaces.find((w) => w.id === target || w.path === target);
      if (!match) throw new ValidationError(`no registered workspace matches ${arg}`);
      await callServer("DELETE", `/api/v1/workspaces/${encodeURIComponent(match.id)}`);
      process.stdout.write(`Removed ${match.path}\n`);
      return 0;
    }
    throw new ValidationError(sub ? `unknown subcommand "${sub}"` : "missing subcommand");
  },
};
