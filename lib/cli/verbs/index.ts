import type { Verb } from "../verb";

// Each verb lives in its own file; add it here to make it reachable.
export const verbs: Verb[] = [];
