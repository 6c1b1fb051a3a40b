import type { Rule } from "@/lib/policy";
import { dialectOf } from "@/lib/agents/dialects";
import { ignoredByAgent } from "@/lib/policy/match";

/** Rules the engine consults: parsed, and not one of the forms the agent accepts but ignores. */
export const enforced = (r: Rule) => !ignoredByAgent(r, dialectOf(r.agent));
