import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { ConflictError } from "@/lib/errors";
import {
  bySeverity,
  lintWorkspace,
  removableIds,
  summarize,
  type Finding,
  type HygieneSummary,
  type LintItem,
  type Usage,
} from "@/lib/hygiene";
import { agentLintFindings } from "@/lib/agents/agent-lint";
import { ruleUsage } from "./impact";
import { unifiedDiff } from "@/lib/hygiene/unified-diff";
import { loadLintItems } from "@/lib/stores/load-lint-items";
import { applyRemovals, planRemovals } from "@/lib/stores/remove-entries";
import { recordEntryChange } from "./audit";
import { auditWorkspaceFor, requireStoreRight, withStoreErrors, workspaceStores } from "./context";
import { requireCan } from "@/lib/auth/access";
import { auditActor } from "@/lib/audit";

export const WorkspaceHygieneInput = z.object({ workspace: z.string().min(1) });
export type WorkspaceHygieneInput = z.infer<typeof WorkspaceHygieneInput>;

export interface WorkspaceHygiene {
  summary: HygieneSummary;
  findings: Finding[];
  notes: string[];
}

/** The lint over every store of the workspace (session rules included), read now. */
export async function workspaceHygiene({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: WorkspaceHygieneInput;
}): Promise<WorkspaceHygiene> {
  const args = WorkspaceHygieneInput.parse(input);
  requireCan(actor, "entry.view", args.workspace);
  const { workspace, paths, sessionSource } = await workspaceStores(db, actorLabel(actor), args.workspace);
  const { items } = await withStoreErrors(() => loadLintItems({ ...paths, sessionSource }));
  const usage = await usageOf(db, workspace.id, items);
  const lint = lintWorkspace({ workspace: paths.workspace, home: paths.home, items, usage });
  const own = await withStoreErrors(() => agentLintFindings(paths));
  const findings = bySeverity([...lint.findings, ...own.findings]);
  return { summary: summarize(items.length + own.entries, findings), findings, notes: lint.notes };
}

/**
 * Each entry's use from the audit log (the same counts the Rules page shows on every row), keyed by entry id.
 * Undefined while no rule has decided any logged call yet: then dead-rule detection says it has nothing to go on,
 * and no row shows a use that would contradict it.
 */
async function usageOf(db: Db, workspaceId: string, items: LintItem[]): Promise<Record<string, Usage> | undefined> {
  const byRule = await ruleUsage(
    db,
    workspaceId,
    items.map((i) => i.entry.rule),
  );
  if (byRule.size === 0) return undefined;
  return Object.fromEntries(items.map((i) => [i.entry.id, byRule.get(i.entry.rule) ?? { count: 0, lastUsed: null }]));
}

/** Entry ids with a finding of `kind` ("problems": any warning or error), for the Rules page's `finding` filter. */
export async function entriesWithFinding(
  db: Db,
  workspaceId: string,
  paths: Parameters<typeof loadLintItems>[0],
  kind: string,
): Promise<Set<string>> {
  const { items } = await withStoreErrors(() => loadLintItems(paths));
  const usage = await usageOf(db, workspaceId, items);
  const { findings } = lintWorkspace({ workspace: paths.workspace, home: paths.home, items, usage });
  return new Set(
    findings.filter((f) => (kind === "problems" ? f.severity !== "info" : f.kind === kind)).map((f) => f.entry),
  );
}

export const CleanUpInput = z.object({
  workspace: z.string().min(1),
  /** Without it: the preview. With it: the store versions the preview showed; a file that moved on is refused. */
  confirm: z.record(z.string(), z.string()).optional(),
});
export type CleanUpInput = z.infer<typeof CleanUpInput>;

export interface CleanUpFile {
  store: string;
  scope: string;
  version: string;
  diff: string;
  removed: { id: string; rule: string; line: number; kind: "duplicate" | "covered"; by?: string; proof: string }[];
}

/**
 * "Clean up": remove every duplicate and covered file entry. The preview computes each file's new text
 * through the store edit layer and returns unified diffs; the confirmation recomputes the same plan
 * (the client never sends text) and writes each file atomically, if it still has the previewed version.
 */
export async function cleanUpWorkspace({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: CleanUpInput;
}): Promise<{ files: CleanUpFile[]; written: boolean }> {
  const args = CleanUpInput.parse(input);
  const role = requireCan(actor, args.confirm ? "entry.revoke" : "entry.view", args.workspace);
  const actorName = actorLabel(actor);
  const { workspace, paths } = await workspaceStores(db, actorName, args.workspace);
  const { items } = await withStoreErrors(() => loadLintItems(paths));
  const { findings } = lintWorkspace({ workspace: paths.workspace, home: paths.home, items });
  const writable = new Set(items.filter((i) => i.entry.writable && i.entry.scope !== "session").map((i) => i.entry.id));
  const ids = removableIds(findings).filter((id) => writable.has(id));
  const plans = await withStoreErrors(() => planRemovals(paths, ids));
  const why = new Map(findings.filter((f) => f.kind === "duplicate" || f.kind === "covered").map((f) => [f.entry, f]));
  const files: CleanUpFile[] = plans.map((p) => ({
    store: p.store,
    scope: p.scope,
    version: p.version,
    diff: unifiedDiff(p.before, p.after, p.store),
    removed: p.removed.map((r) => {
      const f = why.get(r.id)!;
      return {
        id: r.id,
        rule: r.rule,
        line: r.line,
        kind: f.kind as "duplicate" | "covered",
        ...(f.by ? { by: f.by } : {}),
        proof: `0 decisions change: ${f.message}`,
      };
    }),
  }));
  if (!args.confirm) return { files, written: false };
  // Removing lines from a global store changes every workspace: that needs the right on all of them.
  const roles = plans.map((p) => requireStoreRight(actor, "entry.revoke", args.workspace, p.scope));
  for (const p of plans)
    if (args.confirm[p.store] !== p.version) throw new ConflictError(`${p.store} changed since the preview — refresh`);
  await withStoreErrors(() => applyRemovals(paths, plans));
  for (const [i, file] of files.entries())
    for (const r of file.removed)
      await db.transaction((tx) =>
        recordEntryChange(tx, {
          auditActor: auditActor(actor, { workspaceId: workspace.id, role: roles[i] ?? role }),
          actorName,
          workspaceId: auditWorkspaceFor(file.scope, workspace.id),
          requestedIn: workspace.id,
          action: "entry.revoked",
          entryId: r.id,
          agent: items.find((i) => i.entry.id === r.id)?.entry.agent ?? "unknown",
          entryAction: items.find((i) => i.entry.id === r.id)?.entry.action ?? "unknown",
          rule: r.rule,
          result: {
            store: file.store,
            scope: file.scope as "workspace",
            before: { version: file.version, line: r.line, text: r.rule },
            after: { version: "", line: r.line, text: "" },
          },
          extra: { cleanUp: r.kind, by: r.by },
        }),
      );
  return { files, written: true };
}
