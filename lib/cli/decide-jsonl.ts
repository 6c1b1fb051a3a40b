import { terminalJson } from "@/lib/text/reveal";
import { z } from "zod";
import { storeAgentIds } from "@/lib/agents/registry";
import { DecideCall, DecideInputError, firstIssue, type Decider } from "./decide-one";

/** One line of `decide --jsonl`; unknown keys are refused so a typo ("mod") never decides silently. */
export const DecideLine = z.strictObject({
  agent: z.string().min(1).optional(),
  mode: z.string().min(1).max(50).optional(),
  session: z.string().min(1).max(300).optional(),
  cwd: z.string().min(1).max(4096).optional(),
  call: DecideCall,
});

/** A line longer than this is answered with an error and skipped (a command over 10,000 characters fits easily). */
export const MAX_LINE_CHARS = 1_000_000;

export interface DecideLinesOptions {
  decider: Decider;
  /** `--agent` / `--mode` from the command line: used for lines that do not name their own. */
  defaults: { agent?: string; mode?: string };
  explain: boolean;
  /** Writes one batch of output lines; resolves when the stream can take more. */
  write: (text: string) => Promise<void>;
  /** Notes for people (ignored defaultMode…), once each. */
  note: (text: string) => void;
}

async function decideLine(text: string, o: DecideLinesOptions): Promise<Record<string, unknown>> {
  if (!text.trim()) throw new DecideInputError("empty line (expected one JSON object)");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new DecideInputError(`not valid JSON: ${(error as Error).message}`);
  }
  const line = DecideLine.safeParse(raw);
  if (!line.success) throw new DecideInputError(firstIssue(line.error));
  const agent = line.data.agent ?? o.defaults.agent;
  if (!agent) throw new DecideInputError(`agent is required (${storeAgentIds().join(", ")})`);
  const { out, ignoredDefault } = await o.decider.decide({
    agent,
    call: line.data.call,
    mode: line.data.mode ?? o.defaults.mode,
    session: line.data.session,
    cwd: line.data.cwd,
    explain: o.explain,
  });
  if (ignoredDefault) o.note(`ignoring defaultMode ${ignoredDefault}`);
  return out;
}

/**
 * `decide --jsonl`: one decision object per input line, in order; a bad line gets `{"error": "line N: …"}`
 * and the rest go on. The stores' versions are checked and output is written once per input chunk (the
 * lines that arrived together), so a pipe of 10,000 lines costs a handful of stats and writes while a
 * person typing one line at a time sees each answer at once, against the files as they are then.
 */
export async function decideLines(
  input: AsyncIterable<string>,
  o: DecideLinesOptions,
): Promise<{ lines: number; failed: number }> {
  let lines = 0;
  let failed = 0;
  let carry = "";
  let oversized = false;
  const notes = new Set<string>();
  const note = (text: string) => {
    if (notes.has(text)) return;
    notes.add(text);
    o.note(text);
  };
  const answer = async (text: string): Promise<string> => {
    lines++;
    try {
      if (oversized) throw new DecideInputError(`longer than ${MAX_LINE_CHARS} characters`);
      return terminalJson(await decideLine(text, { ...o, note })) + "\n";
    } catch (error) {
      // Anything but bad input (a store read failing…) still answers this line and goes on.
      failed++;
      return terminalJson({ error: `line ${lines}: ${(error as Error).message}` }) + "\n";
    }
  };
  for await (const chunk of input) {
    // Lines that arrived together are decided against the stores as they were when they arrived.
    o.decider.checkStores();
    let out = "";
    let start = 0;
    for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", start)) {
      const piece = chunk.slice(start, nl);
      start = nl + 1;
      const text = oversized ? "" : (carry + piece).replace(/\r$/, "");
      out += await answer(text);
      carry = "";
      oversized = false;
    }
    if (!oversized) {
      carry += chunk.slice(start);
      if (carry.length > MAX_LINE_CHARS) {
        oversized = true;
        carry = "";
      }
    }
    if (out) await o.write(out);
  }
  if (carry || oversized) {
    o.decider.checkStores();
    await o.write(await answer(carry.replace(/\r$/, "")));
  }
  return { lines, failed };
}
