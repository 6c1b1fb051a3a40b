import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { printDatum, readPlist, readSexps, SexpError, type Datum } from "./read";

const one = (text: string) => readSexps(text).data[0];

describe("readSexps", () => {
  it.each([
    ['"a\\"b\\\\c"', 'a"b\\c'],
    ['"line\\nnext\\ttab"', "line\nnext\ttab"],
    ['"\\x41\\u00e9\\N{U+1F600}\\101"', "Aé😀A"],
    ['"multi\nline"', "multi\nline"],
    ['"contin\\\nued"', "continued"],
    ['"ünïcödé ✓"', "ünïcödé ✓"],
  ])("reads string %s", (src, value) => {
    expect(one(src)).toMatchObject({ type: "string", value, start: 0, end: src.length });
  });

  it("reads atoms with offsets", () => {
    const { data } = readSexps("(:rules nil t foo 12 -3 1.5 .5 1e3 +7 git-log*)");
    const list = data[0] as Extract<Datum, { type: "list" }>;
    expect(list.items.map((d) => d.type)).toEqual([
      "keyword",
      "nil",
      "t",
      "symbol",
      "number",
      "number",
      "number",
      "number",
      "number",
      "number",
      "symbol",
    ]);
    expect(list.items.slice(4, 10).map((d) => (d as { value: number }).value)).toEqual([12, -3, 1.5, 0.5, 1000, 7]);
    expect(list.items[3]).toMatchObject({ start: 14, end: 17 });
  });

  it("keeps comments and their spans", () => {
    const text = ";; header\n(a ; trailing\n b)";
    const { data, comments } = readSexps(text);
    expect(comments.map((c) => text.slice(c.start, c.end))).toEqual([";; header", "; trailing"]);
    expect(printDatum(data[0])).toBe("(a b)");
  });

  it.each([
    ["#(foo)", /'#\(' reader syntax/],
    ["#[1 2]", /'#\['/],
    ["(a ?c)", /character literals/],
    ["'(a)", /quote/],
    ["`(a ,b)", /quote/],
    ["(a ,@b)", /comma/],
    ["[1 2]", /vectors/],
    ["(a . b)", /dotted pairs/],
    ['"open', /unterminated string/],
    ["(a (b)", /missing '\)'/],
    ["(a))", /unexpected '\)'/],
    ['"\\C-a"', /modifier escape/],
  ])("rejects %s", (src, reason) => {
    expect(() => readSexps(src)).toThrow(reason);
  });

  it("reports line and column", () => {
    try {
      readSexps('(:rules\n  (("Bash" :action ?x)))');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SexpError);
      expect((error as SexpError).line).toBe(2);
      expect((error as SexpError).column).toBe(20);
      expect((error as Error).message).toMatch(/^line 2, column 20: /);
    }
  });

  it("survives 10,000-deep nesting with an error, not a crash", () => {
    const deep = "(".repeat(10_000) + ")".repeat(10_000);
    expect(() => readSexps(deep)).toThrow(/nesting deeper/);
    const unbalanced = "(".repeat(10_000);
    expect(() => readSexps(unbalanced)).toThrow(SexpError);
  });

  // Its speed is measured in bench/stores/run.ts.
  it("reads a 10 MB file whole", () => {
    const item = '("Bash" :pattern "git log*" :action allow)\n';
    const count = Math.ceil(10_000_000 / item.length);
    const big = `(:rules (${item.repeat(count)}) :resource-grants nil)`;
    const { data } = readSexps(big);
    expect(data).toHaveLength(1);
    const rules = readPlist(big, data[0]!, "store").get(":rules")!.value;
    expect(rules.type === "list" && rules.items.length).toBe(count);
  });
});

describe("readPlist", () => {
  it("rejects odd length and duplicate keys", () => {
    const odd = "(:rules nil :resource-grants)";
    expect(() => readPlist(odd, one(odd), "store")).toThrow(/odd number/);
    const dup = "(:rules nil :rules nil)";
    expect(() => readPlist(dup, one(dup), "store")).toThrow(/duplicate key :rules/);
    const nonKey = "(rules nil)";
    expect(() => readPlist(nonKey, one(nonKey), "store")).toThrow(/expected a :keyword/);
  });
});

describe("fuzz", () => {
  const alphabet = fc.constantFrom(..."()\"\\;:#?'`,[].\n \tabt nil0123456789-+e:x".split(""));
  // A hang runs into the test's timeout; reading speed is measured in bench/stores/run.ts.
  it("never throws anything but SexpError and never hangs", () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 200 }).map((a) => a.join("")),
        (text) => {
          try {
            const { data } = readSexps(text);
            // Every datum's span slices back to text that reads as the same datum.
            for (const d of data) expect(printDatum(readSexps(text.slice(d.start, d.end)).data[0])).toBe(printDatum(d));
          } catch (error) {
            if (!(error instanceof SexpError)) throw error;
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 3_000) },
    );
  });

  it("round-trips printed strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (s) => {
        const printed = printDatum({ type: "string", value: s, start: 0, end: 0 });
        expect(one(printed)).toMatchObject({ type: "string", value: s });
      }),
    );
  });
});

describe("printed mode (what prin1 writes into a log)", () => {
  it("reads dotted pairs, vectors and propertized strings as data; the default mode still refuses them", () => {
    const src = '(:outcome (deny . "no\nway") :v [1 (a . b)] :s #("txt" 0 3 (face bold)))';
    expect(() => readSexps(src)).toThrow(SexpError);
    const [d] = readSexps(src, { printed: true }).data;
    expect(printDatum(d!)).toBe('(:outcome (deny . "no\nway") :v [1 (a . b)] :s "txt")');
  });
  it.each(["(a . )", "(. a)", "(a . b c)", "[a . b]", '#(a "x")', "(a ]", "#.(x)"])("refuses %s", (src) => {
    expect(() => readSexps(src, { printed: true })).toThrow(SexpError);
  });
});
