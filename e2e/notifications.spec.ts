import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { cockpit, signIn, tempFolder } from "./helpers";

/** A webhook receiver in the test process; the server reaches it on 127.0.0.1 once an admin allows that host. */
async function startReceiver() {
  const requests: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests.push({ headers: req.headers, body });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("thanks from the e2e receiver");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hook`, requests, close: () => new Promise((r) => server.close(r)) };
}

test.describe("Settings → Notifications", () => {
  test("refuses a private URL with the reason, then allows the host, adds an endpoint, tests it and shows the log", async ({
    page,
    baseURL,
  }) => {
    const receiver = await startReceiver();
    const dir = tempFolder("notify-ws");
    cockpit(["workspace", "add", dir]);
    await signIn(page);
    await page.goto("/settings");
    await page.getByRole("link", { name: /Notification settings/ }).click();
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Enable on this device" })).toBeVisible();

    // Both projects share one server: start from an empty allow list.
    const allowed = page.getByRole("list", { name: "Allowed private hosts" });
    if ((await allowed.getByRole("button", { name: "Remove 127.0.0.1" }).count()) > 0) {
      await allowed.getByRole("button", { name: "Remove 127.0.0.1" }).click();
      await expect(allowed.getByRole("button", { name: "Remove 127.0.0.1" })).toHaveCount(0);
    }
    const form = page.getByRole("form", { name: "Add an endpoint" });
    // Refused at save: loopback is not allowed yet.
    await page.getByLabel("Receiver URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByRole("alert")).toContainText("127.0.0.1 is a loopback address");
    await page.getByLabel("Receiver URL").fill("http://169.254.169.254/latest/meta-data/");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByRole("alert")).toContainText("link-local");

    // An admin allows exactly this host.
    await page.getByRole("textbox", { name: "Host", exact: true }).fill("127.0.0.1");
    await page.getByRole("button", { name: "Allow host" }).click();
    await expect(page.getByRole("list", { name: "Allowed private hosts" })).toContainText("127.0.0.1");

    await page.getByLabel("Receiver URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = page.getByTestId("new-secret");
    await expect(secret).toContainText("whsec_");
    await secret.getByRole("button", { name: "I saved it" }).click();
    const endpoint = page.getByTestId("endpoint").filter({ hasText: receiver.url });
    await expect(endpoint).toContainText("enabled");

    await endpoint.getByRole("button", { name: "Send test" }).click();
    await expect(endpoint.getByTestId("test-result")).toContainText("The receiver answered 200");
    await expect(endpoint.getByTestId("test-result")).toContainText("thanks from the e2e receiver");
    expect(receiver.requests.length).toBeGreaterThanOrEqual(1);
    expect(receiver.requests[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({ type: "webhook.test", version: 1 });

    // A real card from an agent is delivered once by the worker and shows up in the log.
    const token = cockpit(["agent-token", "create", "--workspace", dir]).trim().split("\n").pop()!;
    const admitted = await fetch(`${baseURL}/api/agent/v1/cards`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        agent: "claude-code",
        sessionId: `e2e-${test.info().project.name}`,
        tool: "Bash",
        input: { command: "rm -rf build" },
      }),
    });
    expect(admitted.status).toBe(201);
    const { id } = (await admitted.json()) as { id: string };
    await expect.poll(() => receiver.requests.filter((r) => r.body.includes(id)).length, { timeout: 10_000 }).toBe(1);

    await endpoint.getByRole("button", { name: "Delivery log" }).click();
    const log = endpoint.getByLabel("Delivery log");
    await expect(log.getByTestId("delivery").filter({ hasText: "card.admitted" })).toContainText("delivered");
    await expect(log.getByTestId("delivery").filter({ hasText: "webhook.test" }).getByTestId("attempt")).toContainText(
      "200",
    );

    await log.getByRole("button", { name: /Redeliver card.admitted/ }).click();
    await expect.poll(() => receiver.requests.filter((r) => r.body.includes(id)).length, { timeout: 10_000 }).toBe(2);
    await log.getByRole("button", { name: "Refresh" }).click();
    await expect(log.getByTestId("delivery").filter({ hasText: "card.admitted" }).getByTestId("attempt")).toHaveCount(
      2,
    );

    await page.screenshot({ path: `test-results/notifications-${test.info().project.name}.png`, fullPage: true });
    await receiver.close();
  });

  test("serves the PWA manifest, service worker and icons", { tag: "@any-viewport" }, async ({ request }) => {
    const manifest = await (await request.get("/manifest.webmanifest")).json();
    expect(manifest).toMatchObject({ display: "standalone", start_url: "/cards" });
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(
      expect.arrayContaining(["192x192", "512x512"]),
    );
    for (const icon of manifest.icons)
      expect((await request.get(icon.src)).headers()["content-type"]).toBe("image/png");
    const sw = await request.get("/sw.js");
    expect(sw.ok()).toBe(true);
    expect(await sw.text()).toContain("notificationclick");
  });
});
