/**
 * Inputs for the shell analysis fuzz: lib/policy/shell/fuzz.test.ts checks what comes out of them,
 * bench/decide/shell-fuzz.ts how long each takes.
 */
import fc from "fast-check";

export const SEEDS = [
  'bash -c "rm -rf /; echo ok"',
  "echo $(rm -rf /;)",
  "FOO=1 timeout 3 git status && cat x | head -5 >> out",
  "find . -name '*.o' -exec rm {} \\;",
  "if [ -f x ]; then cat x; fi",
  "for i in 1 2; do echo $i; done",
  "cat <<EOF\nhi $(ls)\nEOF",
  "a=(1 2); echo ${a[@]}",
  "echo `echo \\`ls\\``",
  "((x = 1 + 2))",
  "f() { rm -rf ~; }; f",
  "echo 'unterminated",
];
export const ALPHABET = [
  ..."abc -/~$(){}[]`'\"\\;&|<>*?!#=\n\t01".split(""),
  "rm -rf ",
  "$(",
  "${",
  "bash -c ",
  "&&",
  "<<EOF\n",
];

/** Commands of up to 200 tokens drawn from the alphabet. */
export const randomCommand = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 200 }).map((xs) => xs.join(""));

/** A seed command with up to six characters inserted or deleted. */
export const mutatedSeed = fc
  .tuple(
    fc.constantFrom(...SEEDS),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(...ALPHABET), fc.boolean()), { maxLength: 6 }),
  )
  .map(([seed, edits]) =>
    edits.reduce((s, [pos, ch, del]) => {
      const i = s.length ? pos % s.length : 0;
      return del ? s.slice(0, i) + s.slice(i + 1) : s.slice(0, i) + ch + s.slice(i);
    }, seed),
  );

/** Any text of up to 300 graphemes. */
export const unicodeText = fc.string({ maxLength: 300, unit: "grapheme" });

/** Huge or deeply nested commands. */
export const HUGE_COMMANDS: Record<string, string> = {
  "5,000 nested subshells": "(".repeat(5000) + "ls" + ")".repeat(5000),
  "2,000 nested $( )": "echo $(".repeat(2000) + "x" + ")".repeat(2000),
  "3,000 && chained": "a && ".repeat(3000) + "b",
  "100,000 characters": "x".repeat(100_000),
};
