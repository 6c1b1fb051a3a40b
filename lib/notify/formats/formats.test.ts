import { describe, expect, it } from "vitest";
import { sampleCard } from "../send-test";
import { elide } from "./elide";
import { renderBody } from "./index";
import { NTFY_MESSAGE_BYTES } from "./ntfy";
import type { NotifyMessage } from "./types";
import { AGENT_LIST, type AgentInfo } from "@/lib/agents";

const at = new Date("2026-01-01T10:00:00Z");
const message = (command: string, extra: Partial<NotifyMessage> = {}): NotifyMessage => {
  const card = { ...sampleCard(at), id: "c1", input: { command }, warnings: ["dangerous command"] };
  return { type: "card.admitted", msgId: "msg_1", at, card, url: "https://cockpit.example/cards/c1", ...extra };
};
const actions = {
  approve: { url: "https://cockpit.example/api/v1/notify/actions/cna_a", token: "cna_a" },
  deny: { url: "https://cockpit.example/api/v1/notify/actions/cna_d", token: "cna_d" },
};
const longLines = Array.from({ length: 500 }, (_, i) => `echo line ${i} ${"x".repeat(40)}`).join("\n");

describe("elide", () => {
  it("keeps short text and marks what it leaves out of long text", () => {
    expect(elide("git status", 100)).toBe("git status");
    const lines = elide(longLines, 1000);
    expect(lines.length).toBeLessThanOrEqual(1000);
    expect(lines.startsWith("echo line 0 ")).toBe(true);
    expect(lines.endsWith(`echo line 499 ${"x".repeat(40)}`)).toBe(true);
    const omitted = Number(lines.match(/… (\d+) more lines …/)![1]);
    expect(lines.split("\n").length - 1 + omitted).toBe(500);
    const one = elide("a".repeat(5000) + "TAIL", 300);
    expect(one.length).toBeLessThanOrEqual(300);
    expect(one).toMatch(/… \d+ more characters …/);
    expect(one.endsWith("TAIL")).toBe(true);
    const n = Number(one.match(/… (\d+) more characters …/)![1]);
    expect(one.replace(/\n… \d+ more characters …\n/, "").length + n).toBe(5004);
  });

  it("counts bytes when asked (multi-byte text stays within a byte limit)", () => {
    const text = "é".repeat(5000);
    const out = elide(text, 4096, (s) => Buffer.byteLength(s));
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(4096);
    expect(out).toMatch(/more characters/);
  });
});

describe("formats", () => {
  it("json: versioned {type, version, timestamp, data: {card, url}} with the full input", () => {
    const big = "x".repeat(30_000);
    const body = JSON.parse(renderBody("json", message(big)));
    expect(body).toEqual({
      type: "card.admitted",
      version: 1,
      timestamp: "2026-01-01T10:00:00.000Z",
      data: {
        card: expect.objectContaining({ id: "c1", input: { command: big } }),
        url: "https://cockpit.example/cards/c1",
      },
    });
  });

  it("ntfy: title, priority, tags, click, Approve/Deny http actions and a view action, within 4,096 bytes", () => {
    const body = JSON.parse(renderBody("ntfy", message(longLines, { actions }), { ntfyTopic: "t1", ntfyPriority: 5 }));
    expect(body).toMatchObject({
      topic: "t1",
      priority: 5,
      click: "https://cockpit.example/cards/c1",
      tags: ["lock", "warning"],
    });
    expect(body.title).toContain("Bash");
    expect(Buffer.byteLength(body.message)).toBeLessThanOrEqual(NTFY_MESSAGE_BYTES);
    expect(body.message).toMatch(/more lines/);
    expect(body.message).toContain("example-project");
    expect(body.actions).toHaveLength(3);
    expect(body.actions[0]).toEqual({
      action: "http",
      label: "Approve",
      url: actions.approve.url,
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer cna_a" },
      body: '{"card":"c1","outcome":"allow"}',
      clear: true,
    });
    expect(body.actions[1]).toMatchObject({
      label: "Deny",
      url: actions.deny.url,
      body: '{"card":"c1","outcome":"deny"}',
      clear: true,
    });
    expect(body.actions[2]).toMatchObject({ action: "view", url: "https://cockpit.example/cards/c1" });
  });

  it("ntfy: an agent whose hook cannot approve gets Deny and Open only, and the line saying where to approve", () => {
    const denyOnly: AgentInfo = AGENT_LIST.find((a) => "canAllowFromCockpit" in a && a.canAllowFromCockpit === false)!;
    const m = message("docker build .", { actions });
    m.card = { ...m.card, agent: denyOnly.id };
    const body = JSON.parse(renderBody("ntfy", m, { ntfyTopic: "t1" }));
    expect(body.actions.map((a: { label: string }) => a.label)).toEqual(["Deny", "Open"]);
    expect(body.message).toContain(denyOnly.approveNote);
  });

  it("ntfy: a settled card has no Approve/Deny buttons", () => {
    const m = message("ls");
    m.type = "card.settled";
    m.card = {
      ...m.card,
      status: "denied",
      settlement: {
        outcome: "deny",
        remember: "once",
        message: null,
        by: "alice",
        via: "web",
        at: at.toISOString(),
        source: "user",
      },
    };
    const body = JSON.parse(renderBody("ntfy", m, { ntfyTopic: "t1" }));
    expect(body.title).toMatch(/^Denied by alice/);
    expect(body.actions.map((a: { action: string }) => a.action)).toEqual(["view"]);
  });

  it("slack: header, command in a code block, workspace and agent, link button; long commands elided", () => {
    const body = JSON.parse(renderBody("slack", message("rm -rf <dir> && " + longLines)));
    const code = body.blocks.find(
      (b: { type: string; text?: { text: string } }) => b.type === "section" && b.text!.text.startsWith("```"),
    );
    expect(code.text.text.length).toBeLessThanOrEqual(3000);
    expect(code.text.text).toContain("rm -rf &lt;dir&gt;");
    expect(code.text.text).toMatch(/more lines/);
    expect(JSON.stringify(body.blocks)).toContain("example-project");
    expect(JSON.stringify(body.blocks)).toContain("claude-code");
    const actionsBlock = body.blocks.find((b: { type: string }) => b.type === "actions");
    expect(actionsBlock.elements[0]).toMatchObject({ type: "button", url: "https://cockpit.example/cards/c1" });
    expect(body.text).toContain("Bash");
  });

  it("discord: an embed with title, link, command, fields, within Discord's limits", () => {
    const body = JSON.parse(renderBody("discord", message(longLines)));
    const [embed] = body.embeds;
    expect(embed).toMatchObject({ url: "https://cockpit.example/cards/c1", timestamp: "2026-01-01T10:00:00.000Z" });
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.description.length).toBeLessThanOrEqual(4096);
    expect(embed.description).toMatch(/^```\necho line 0/);
    expect(embed.fields.map((x: { name: string }) => x.name)).toEqual(["Workspace", "Agent", "Reason", "Warnings"]);
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it("slack: `<!channel>` and links in agent text stay literal in `text` and every mrkdwn field", () => {
    const m = message("echo <!channel> && curl <https://evil.example|Approve here> & done");
    m.card = {
      ...m.card,
      reason: "see <!here>",
      warnings: ["<@U123>"],
      workspace: { ...m.card.workspace, name: "<!everyone>" },
    };
    const body = JSON.parse(renderBody("slack", m));
    expect(body.text).not.toMatch(/<!channel>|<https:/);
    expect(body.text).toContain("&lt;!channel&gt;");
    expect(body.text).toContain("&amp; done");
    const mrkdwn: string[] = [];
    for (const b of body.blocks) {
      if (b.text?.type === "mrkdwn") mrkdwn.push(b.text.text);
      for (const e of b.elements ?? []) if (e.type === "mrkdwn") mrkdwn.push(e.text);
    }
    expect(mrkdwn.length).toBeGreaterThanOrEqual(4);
    for (const t of mrkdwn) {
      expect(t).not.toMatch(/[<>]/);
      expect(t).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
  });

  it("slack: escaping never pushes a field past its limit nor cuts an entity in half", () => {
    const body = JSON.parse(renderBody("slack", message("<".repeat(5000))));
    const code = body.blocks[1].text.text as string;
    expect(code.length).toBeLessThanOrEqual(3000);
    expect(code.replace(/&lt;/g, "")).toMatch(/^```\n?… \d+ more characters …\n```$/);
  });

  it("discord: markdown in every field renders literally (no masked link) and mentions never ping", () => {
    const m = message("[Approve here](https://evil.example) @everyone");
    m.card = {
      ...m.card,
      reason: "[Approve here](https://evil.example) **now** @everyone <@123>",
      warnings: ["@here"],
      agent: "[x](https://evil.example)",
      workspace: { ...m.card.workspace, name: "||spoiler|| [Approve here](https://evil.example)" },
    };
    const body = JSON.parse(renderBody("discord", m));
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = body.embeds;
    const texts: string[] = [embed.title, ...embed.fields.map((f: { value: string }) => f.value)];
    for (const t of texts) {
      // An unescaped `[...](...)` is a masked link; every bracket and parenthesis must carry a backslash.
      expect(t).not.toMatch(/(^|[^\\])\[[^\]]*(^|[^\\])\]\(/);
      expect(t).not.toMatch(/(^|[^\\])[[\]()*|<@]/);
    }
    const reason = embed.fields.find((f: { name: string }) => f.name === "Reason").value;
    expect(reason).toContain("\\[Approve here\\]\\(https\\://evil.example\\)");
    expect(reason).toContain("\\@\u200beveryone");
    // The command stays in a code block, where Discord renders no markdown.
    expect(embed.description).toBe("```\n[Approve here](https://evil.example) @everyone\n```");
  });
});
