import path from "node:path";
import { expect, test } from "@playwright/test";
import { cockpit, signIn, tempFolder } from "./helpers";

let dir: string;
let token: string;

test.beforeAll(() => {
  dir = tempFolder("limits-ws");
  cockpit(["workspace", "add", dir]);
  const lines = cockpit(["agent-token", "create", "--workspace", dir]).trim().split("\n");
  token = lines[lines.length - 1]!.trim();
});

test(
  "a card with a huge input is listed as a preview; Show full input loads the rest",
  { tag: "@any-viewport" },
  async ({ page, baseURL }) => {
    const marker = `${test.info().project.name}${Date.now().toString(36)}`;
    const content =
      `HEAD-${marker}\n` +
      "filler line\n".repeat(25_000) +
      `MIDDLE-${marker}\n` +
      "filler line\n".repeat(25_000) +
      `TAIL-${marker}\n`;
    const res = await fetch(`${baseURL}/api/agent/v1/cards`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        agent: "claude-code",
        sessionId: marker,
        tool: "Write",
        input: { file_path: path.join(dir, `${marker}.txt`), content },
      }),
    });
    expect(res.status).toBe(201);

    await signIn(page);
    const list = await page.request.get("/api/v1/cards?status=pending");
    const listed = (
      (await list.json()) as { cards: { input: { content?: string }; inputOmitted?: number }[] }
    ).cards.find((c) => c.input.content?.startsWith(`HEAD-${marker}`))!;
    expect(JSON.stringify(listed).length).toBeLessThan(16 * 1024);
    expect(listed.inputOmitted).toBeGreaterThan(500_000);

    await page.goto("/cards");
    const card = page.getByTestId("card").filter({ hasText: `HEAD-${marker}` });
    await expect(card).toBeVisible();
    // The preview keeps the head and the tail; the middle comes with the full input.
    await expect(card).toContainText(`TAIL-${marker}`);
    await expect(card).not.toContainText(`MIDDLE-${marker}`);
    await card.getByTestId("load-full-input").click();
    await expect(card).toContainText(`MIDDLE-${marker}`);
    await expect(card.getByTestId("load-full-input")).toHaveCount(0);
  },
);
