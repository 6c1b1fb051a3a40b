/**
 * How Gemini CLI turns policy fields into the regular expressions its engine tests (facts from
 * @google/gemini-cli-core 0.61.0 policy/utils.ts and policy/stable-stringify.ts). Pure.
 */

/** `escapeRegex`: note that it escapes `,`, `#`, whitespace and `"` too. */
export function escapeRegex(text: string): string {
  return text.replace(/[-[\]{}()*+?.,\\^$|#\s"]/g, "\\$&");
}

/** Why Gemini refuses a pattern, or null when it accepts it (`isSafeRegExp`, a ReDoS heuristic). */
export function unsafeRegExpReason(pattern: string): string | null {
  try {
    new RegExp(pattern);
  } catch (e) {
    return `invalid regular expression: ${(e as Error).message}`;
  }
  if (pattern.length > 2048) return "longer than 2048 characters";
  if (/\([^)]*[*+?{].*\)[*+?{]/.test(pattern)) return "nested quantifier (potential ReDoS)";
  return null;
}

export const isSafeRegExp = (pattern: string): boolean => unsafeRegExpReason(pattern) === null;

/**
 * `buildArgsPatterns`: `commandPrefix` becomes `"command":"<json-escaped prefix>` followed by whitespace, a quote
 * or an escaped quote (so `git log` never matches `git logout`); `commandRegex` becomes `"command":"<regex>`;
 * otherwise the raw `argsPattern`. commandPrefix wins over commandRegex, which wins over argsPattern.
 */
export function buildArgsPatterns(
  argsPattern: string | undefined,
  commandPrefix?: string | string[],
  commandRegex?: string,
): (string | undefined)[] {
  if (commandPrefix) {
    const prefixes = Array.isArray(commandPrefix) ? commandPrefix : [commandPrefix];
    return prefixes.map((prefix) => {
      const encoded = JSON.stringify(prefix);
      const open = encoded.substring(0, encoded.length - 1);
      return `${escapeRegex(`"command":${open}`)}(?:[\\s"]|\\\\")`;
    });
  }
  if (commandRegex) return [`"command":"${commandRegex}`];
  return [argsPattern];
}

/** `buildParamArgsPattern`: one top-level `"name":<json value>` pair between the `\0` separators. */
export function buildParamArgsPattern(paramName: string, value: unknown): string {
  return `\\\\0${escapeRegex(`"${paramName}":${JSON.stringify(value)}`)}\\\\0`;
}

export const buildFilePathArgsPattern = (filePath: string): string => buildParamArgsPattern("file_path", filePath);

/**
 * `stableStringify`: JSON with sorted keys and no spaces; every top-level `"key":value` pair is wrapped in NUL
 * characters, so an `argsPattern` can anchor on a whole top-level argument. Circular references become
 * `"[Circular]"`; `toJSON` is honoured; undefined, functions and symbols are dropped from objects and become
 * null in arrays.
 */
export function stableStringify(obj: unknown): string {
  const stringify = (cur: unknown, ancestors: Set<object>, top: boolean): string => {
    if (cur === undefined || typeof cur === "symbol" || cur === null || typeof cur === "function") return "null";
    if (typeof cur !== "object") return JSON.stringify(cur) ?? "null";
    if (ancestors.has(cur)) return '"[Circular]"';
    ancestors.add(cur);
    try {
      const withToJSON = cur as { toJSON?: unknown };
      if (typeof withToJSON.toJSON === "function") {
        try {
          const v: unknown = (withToJSON.toJSON as () => unknown)();
          if (v === null) return "null";
          return stringify(v, ancestors, top);
        } catch {
          // a throwing toJSON: treat as a plain object
        }
      }
      if (Array.isArray(cur)) {
        return (
          "[" +
          cur
            .map((item: unknown) =>
              item === undefined || typeof item === "function" || typeof item === "symbol"
                ? "null"
                : stringify(item, ancestors, false),
            )
            .join(",") +
          "]"
        );
      }
      const pairs: string[] = [];
      for (const key of Object.keys(cur).sort()) {
        const value = (cur as Record<string, unknown>)[key];
        if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
        let pair = JSON.stringify(key) + ":" + stringify(value, ancestors, false);
        if (top) pair = "\0" + pair + "\0";
        pairs.push(pair);
      }
      return "{" + pairs.join(",") + "}";
    } finally {
      ancestors.delete(cur);
    }
  };
  return stringify(obj, new Set(), true);
}
