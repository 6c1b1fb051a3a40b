import { expect, test } from "@playwright/test";
import { cockpit, signIn, tempFolder } from "./helpers";

test.describe("Settings", () => {
  test("creates an agent token shown once, which then works, and revokes it", async ({ page, baseURL }) => {
    const dir = tempFolder("settings-ws");
    cockpit(["workspace", "add", dir]);
    await signIn(page);
    await page.goto("/settings");
    const option = page.locator("#token-workspace option", { hasText: dir });
    await page.selectOption("#token-workspace", (await option.getAttribute("value"))!);
    const name = `e2e token ${test.info().project.name} ${Date.now()}`;
    await page.getByLabel("Name (optional)").fill(name);
    await page.getByRole("button", { name: "Create token" }).click();

    const created = page.getByTestId("new-token");
    await expect(created).toContainText("shown only once");
    const token = (await page.getByTestId("token-value").textContent())!.trim();
    expect(token).toMatch(/^cpa_/);
    await expect(created).toContainText(`export COCKPIT_TOKEN=${token}`);
    await expect(created).toContainText(`npx cockpit connect claude-code --workspace ${dir}`);
    await expect(created.getByRole("button", { name: "Copy token" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/settings-token-${test.info().project.name}.png`,
      fullPage: true,
    });

    // The token authenticates an agent: an unknown card is "not found" rather than "unauthorized".
    const probe = () =>
      fetch(`${baseURL}/api/agent/v1/cards/${crypto.randomUUID()}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await probe()).status).toBe(404);

    await created.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("token-value")).toHaveCount(0);
    const row = page.getByTestId("agent-token").filter({ hasText: name });
    await expect(row).toContainText("active");
    await expect(row).toContainText("last used");

    page.once("dialog", (d) => d.accept());
    await row.getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(row).toContainText("revoked");
    expect((await probe()).status).toBe(401);
    await page.reload();
    await expect(page.getByTestId("agent-token").filter({ hasText: name })).toContainText("revoked");
    // Nothing on Settings widens the page: a phone keeps its own width (no zoomed-out layout viewport).
    expect(await page.evaluate(() => window.innerWidth)).toBe(page.viewportSize()!.width);
  });

  test("sets and clears the absence timeout", async ({ page }) => {
    await signIn(page);
    await page.goto("/settings");
    const current = page.getByTestId("absence-current");
    await expect(current).toContainText("off");
    await page.getByLabel("Timeout in seconds").fill("5");
    await expect(page.getByRole("button", { name: "Save timeout" })).toBeDisabled();
    await page.getByLabel("Timeout in seconds").fill("120");
    await page.getByRole("button", { name: "Save timeout" }).click();
    await expect(page.getByText("Absence timeout set to 2 min")).toBeVisible();
    await page.reload();
    await expect(current).toContainText("2 min (120 seconds)");
    await page.getByRole("button", { name: "Turn off" }).click();
    await expect(page.getByText("Absence timeout turned off")).toBeVisible();
    await page.reload();
    await expect(current).toContainText("off");
  });

  test("signs out from the settings page (the phone nav has no sign-out)", async ({ page }) => {
    await signIn(page);
    await page.goto("/settings");
    // Settings fills its lists (sessions, people, notices) after hydration; click once the layout has settled.
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("link", { name: "Notification settings", exact: true })).toHaveAttribute(
      "href",
      "/settings/notifications",
    );
    await page.getByRole("main").getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login/);
  });
});
