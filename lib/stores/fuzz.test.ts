import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { addEntry } from "./add-entry";
import { InvalidStoreError } from "@/lib/errors";
import { appendJsonRule } from "./json-append";
import { removeJsonRule } from "./json-edit";
import { parseJsonSettings } from "./json-format";
import { appendItemSplice, applySplices, removeItemSplice } from "./plist-edit";
import { parsePlistStore } from "./plist-format";
import type { Datum } from "@/lib/sexp/read";
import { FIXTURES, makeSandbox } from "@/test/support/stores";

// B3/B4: mutated real settings files and generated ones through parse → edit. FUZZ_RUNS scales it up.
const RUNS = Number(process.env.FUZZ_RUNS ?? 1_500);
const TIMEOUT = Math.max(30_000, RUNS * 3);

const PLIST_ALPHABET = [..."()\"\\;:#?'`,[]. \n\t\rabt-*~/nil0123456789é"];
const JSON_ALPHABET = [...'{}[]",:/*\\ \n\t\rabtrue0123456789é'];

/** Random insert/delete/replace edits of a fixture. */
const mutated = (base: string, alphabet: string[]) =>
  fc
    .array(fc.tuple(fc.nat(), fc.constantFrom("insert", "delete", "replace"), fc.constantFrom(...alphabet)), {
      minLength: 1,
      maxLength: 6,
    })
    .map((ops) => {
      let text = base;
      for (const [pos, op, ch] of ops) {
        const at = pos % (text.length + 1);
        if (op === "insert") text = text.slice(0, at) + ch + text.slice(at);
        else if (op === "delete") text = text.slice(0, at) + text.slice(at + 1);
        else text = text.slice(0, at) + ch + text.slice(at + 1);
      }
      return text;
    });

/** True when `small` can be obtained from `big` by deleting characters only. */
function isDeletionOf(small: string, big: string): boolean {
  let j = 0;
  for (let i = 0; i < big.length && j < small.length; i++) if (big[i] === small[j]) j++;
  return j === small.length;
}

describe("plist fuzz", () => {
  it(
    "mutated stores parse or fail cleanly; revoking any entry only deletes its text",
    () => {
      fc.assert(
        fc.property(mutated(FIXTURES.mevedel, PLIST_ALPHABET), fc.nat(), (text, pick) => {
          const parsed = parsePlistStore(text);
          if (!parsed.ok) {
            expect(parsed.error).toMatch(/^line \d+, column \d+: /);
            return;
          }
          if (parsed.doc.rules) {
            const added = applySplices(text, [
              appendItemSplice(text, parsed.doc.rules, '("Bash" :pattern "fuzz *" :action allow)'),
            ]);
            expect(isDeletionOf(text, added)).toBe(true);
            const reparsed = parsePlistStore(added);
            expect(reparsed.ok, `after add: ${!reparsed.ok && reparsed.error}`).toBe(true);
            if (reparsed.ok)
              expect(reparsed.entries.filter((e) => e.list === "rules").at(-1)?.text).toBe(
                '("Bash" :pattern "fuzz *" :action allow)',
              );
          }
          if (!parsed.entries.length) return;
          const raw = parsed.entries[pick % parsed.entries.length];
          const list = (raw.list === "rules" ? parsed.doc.rules : parsed.doc.grants) as Datum & { type: "list" };
          const index = list.items.findIndex((d) => d.start === raw.start);
          const next = applySplices(text, [removeItemSplice(text, list.items, index, parsed.doc.comments)]);
          expect(isDeletionOf(next, text)).toBe(true);
          // Everything up to the previous item (or the list's open paren) is byte-identical.
          const keep = index > 0 ? list.items[index - 1].end : list.start + 1;
          expect(next.slice(0, keep)).toBe(text.slice(0, keep));
          const again = parsePlistStore(next);
          expect(again.ok, `after revoke: ${!again.ok && again.error}`).toBe(true);
          if (again.ok) {
            expect(again.entries.map((e) => e.text)).toEqual(
              parsed.entries.filter((e) => e !== raw).map((e) => e.text),
            );
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "generated junk never throws anything unexpected",
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...PLIST_ALPHABET), { maxLength: 300 }).map((a) => a.join("")),
          (text) => {
            const parsed = parsePlistStore(text);
            expect(typeof parsed.ok).toBe("boolean");
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("JSON fuzz", () => {
  const fixtures: [string, boolean][] = [
    [FIXTURES.claudeTabs, true],
    [FIXTURES.claudeCrlf3, true],
    [FIXTURES.commandcodeJsonc, false],
  ];
  it(
    "mutated settings parse or fail cleanly; revoking only deletes text and keeps every other rule",
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...fixtures), fc.nat(), fc.nat(), (fixture, seed, pick) => {
          const [base, strict] = fixture;
          const text = fc.sample(mutated(base, JSON_ALPHABET), { seed, numRuns: 1 })[0];
          const parsed = parseJsonSettings(text, strict);
          if (!parsed.ok) return;
          const added = appendJsonRule(text, "allow", "Bash(fuzz)");
          expect(isDeletionOf(text, added), added).toBe(true);
          const reparsed = parseJsonSettings(added, strict);
          expect(reparsed.ok, `after add: ${!reparsed.ok && reparsed.error}\n${added}`).toBe(true);
          if (reparsed.ok) expect(reparsed.entries.filter((e) => e.action === "allow").at(-1)?.text).toBe("Bash(fuzz)");
          if (!parsed.entries.length) return;
          const raw = parsed.entries[pick % parsed.entries.length];
          const next = removeJsonRule(text, raw.action, raw.index, raw.text);
          expect(isDeletionOf(next, text)).toBe(true);
          const again = parseJsonSettings(next, strict);
          expect(again.ok, `after revoke: ${!again.ok && again.error}\n${next}`).toBe(true);
          if (again.ok)
            expect(again.entries.map((e) => [e.action, e.text])).toEqual(
              parsed.entries.filter((e) => e !== raw).map((e) => [e.action, e.text]),
            );
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "generated settings: remove and append keep everything else",
    () => {
      const settings = fc.record({
        permissions: fc.record({
          allow: fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }),
          deny: fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }),
        }),
        other: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
      });
      fc.assert(
        fc.property(
          settings,
          fc.constantFrom(0, 2, 3, "\t"),
          fc.boolean(),
          fc.nat(),
          fc.string({ maxLength: 10 }),
          (value, indent, crlf, pick, extra) => {
            let text = JSON.stringify(value, null, indent);
            if (crlf) text = text.replace(/\n/g, "\r\n");
            const parsed = parseJsonSettings(text, true);
            expect(parsed.ok).toBe(true);
            if (!parsed.ok) return;
            const added = appendJsonRule(text, "allow", extra);
            const afterAdd = JSON.parse(added);
            expect(afterAdd.permissions.allow).toEqual([...value.permissions.allow, extra]);
            expect(afterAdd.other).toEqual(JSON.parse(text).other);
            if (!parsed.entries.length) return;
            const raw = parsed.entries[pick % parsed.entries.length];
            const next = removeJsonRule(text, raw.action, raw.index, raw.text);
            expect(isDeletionOf(next, text)).toBe(true);
            const reparsed = JSON.parse(next);
            const expected = [...value.permissions[raw.action as "allow" | "deny"]];
            expected.splice(raw.index, 1);
            expect(reparsed.permissions[raw.action]).toEqual(expected);
            expect(reparsed.other).toEqual(JSON.parse(text).other);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("fuzz-found regressions", () => {
  it.each([
    ['{"permissions": {"allow": [\n  "a"\n,\n]}}', '{"permissions": {"allow": [\n  "a"\n,\n  "b",\n]}}'],
    ['{\n  "permissions": {"deny": ["x"]},}', '{\n  "permissions": {"deny": ["x"], "allow": ["b"]},}'],
    ['{\n  "x": {\n  },}', '{\n  "x": {\n  },\n  "permissions": {\n    "allow": [\n      "b"\n    ]\n  },}'],
  ])("append into %j", (before, after) => {
    const next = appendJsonRule(before, "allow", "b");
    expect(next).toBe(after);
    expect(parseJsonSettings(next, false).ok).toBe(true);
  });
});

describe("parse errors block writes", () => {
  const sb = makeSandbox("fuzz-");
  afterAll(() => sb.cleanup());
  it("an unparsable mutated store is never written", async () => {
    const samples = fc
      .sample(mutated(FIXTURES.commandcodeJsonc, JSON_ALPHABET), { numRuns: 300, seed: 7 })
      .filter((t) => !parseJsonSettings(t, false).ok);
    expect(samples.length).toBeGreaterThan(20);
    for (const text of samples.slice(0, 40)) {
      sb.write(".commandcode/settings.json", text);
      await expect(
        addEntry({
          ...sb.paths,
          agent: "commandcode",
          scope: "workspace",
          file: "settings.json",
          action: "allow",
          rule: "Shell(ls)",
        }),
      ).rejects.toBeInstanceOf(InvalidStoreError);
      expect(sb.read(".commandcode/settings.json")).toBe(text);
    }
  });
});
