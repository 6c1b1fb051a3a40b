import type { Verb } from "../verb";
import { loginLinkVerb } from "./login-link";
import { startVerb } from "./start";
import { workspaceVerb } from "./workspace";

// Each verb lives in its own file; add it here to make it reachable.
export const verbs: Verb[] = [startVerb, loginLinkVerb, workspaceVerb];
