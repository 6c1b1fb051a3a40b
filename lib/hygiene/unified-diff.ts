/** A small unified diff (3 lines of context) for showing what a clean-up does to a file. Pure. */
export function unifiedDiff(before: string, after: string, label: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  // Trim the common head and tail; the middle is small for removals, so an LCS table stays cheap.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (am.length === 0 && bm.length === 0) return "";
  const ops: { t: " " | "-" | "+"; s: string }[] = [];
  if (am.length * bm.length > 4_000_000) {
    for (const s of am) ops.push({ t: "-", s });
    for (const s of bm) ops.push({ t: "+", s });
  } else {
    const w = bm.length + 1;
    const lcs = new Uint32Array((am.length + 1) * w);
    for (let i = am.length - 1; i >= 0; i--)
      for (let j = bm.length - 1; j >= 0; j--)
        lcs[i * w + j] =
          am[i] === bm[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    let i = 0;
    let j = 0;
    while (i < am.length || j < bm.length) {
      if (i < am.length && j < bm.length && am[i] === bm[j]) (ops.push({ t: " ", s: am[i++] }), j++);
      else if (j < bm.length && (i === am.length || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j]))
        ops.push({ t: "+", s: bm[j++] });
      else ops.push({ t: "-", s: am[i++] });
    }
  }
  const all = [
    ...a.slice(0, head).map((s) => ({ t: " " as const, s })),
    ...ops,
    ...a.slice(a.length - tail).map((s) => ({ t: " " as const, s })),
  ];
  const out = [`--- ${label}`, `+++ ${label} (after clean-up)`];
  const changed = all.map((o, k) => (o.t !== " " ? k : -1)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - 3);
    let end = Math.min(all.length, changed[k] + 4);
    while (k + 1 < changed.length && changed[k + 1] - 3 <= end) end = Math.min(all.length, changed[++k] + 4);
    k++;
    let la = 1;
    let lb = 1;
    for (let x = 0; x < start; x++) {
      if (all[x].t !== "+") la++;
      if (all[x].t !== "-") lb++;
    }
    const hunk = all.slice(start, end);
    const na = hunk.filter((o) => o.t !== "+").length;
    const nb = hunk.filter((o) => o.t !== "-").length;
    out.push(`@@ -${la},${na} +${lb},${nb} @@`, ...hunk.map((o) => `${o.t}${o.s}`));
  }
  return out.join("\n") + "\n";
}
