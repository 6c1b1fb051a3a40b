import { expect, test } from "@playwright/test";
import { freshLoginLink } from "./helpers";

test("pages carry a nonce-based CSP without unsafe-eval, and hydrate with no CSP violation", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (m) => {
    // (A missing favicon logs a 404; only policy violations and script errors count here.)
    if (/Content Security Policy|Refused to|nonce/i.test(m.text())) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));

  const first = await page.goto("/login");
  const csp = first!.headers()["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(csp).not.toContain("unsafe-eval");
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"])
    expect(csp).toContain(directive);
  // Plain http here, so no HSTS.
  expect(first!.headers()["strict-transport-security"]).toBeUndefined();
  const nonce = csp.match(/'nonce-([^']+)'/)![1]!;
  // Next.js put this request's nonce on its scripts; a second request gets a different one.
  expect(await page.locator(`script[nonce]`).count()).toBeGreaterThan(0);
  const again = await page.request.get("/login");
  expect(again.headers()["content-security-policy"]).not.toContain(nonce);

  // Signing in runs client code (the login page posts the token): proof that the app hydrated under the policy.
  await page.goto(freshLoginLink());
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await page.getByRole("link", { name: "Cards" }).click();
  await expect(page).toHaveURL(/\/cards$/);
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  expect(problems).toEqual([]);
});

test("HSTS is sent when the request came over https (proxy's X-Forwarded-Proto)", async ({ request }) => {
  const res = await request.get("/login", { headers: { "x-forwarded-proto": "https" } });
  expect(res.headers()["strict-transport-security"]).toMatch(/max-age=\d+/);
});

test("the login throttle keys on the socket: a new X-Forwarded-For per guess does not dodge it", async ({
  playwright,
  baseURL,
}) => {
  const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
  const statuses: number[] = [];
  for (let i = 0; i < 14; i++) {
    const res = await client.post("/api/auth/login", {
      data: { token: `cpl_wrong-guess-${i}-xxxxxxxxxx` },
      headers: { "x-forwarded-for": `10.9.8.${i}`, "x-cockpit-peer": `10.9.9.${i}` },
    });
    statuses.push(res.status());
  }
  expect(statuses.at(-1)).toBe(429);
  // The owner's fresh link still works from the same, locked-out address.
  const link = new URL(freshLoginLink());
  const token = link.searchParams.get("token") ?? link.hash.replace(/^#?(token=)?/, "");
  const ok = await client.post("/api/auth/login", { data: { token } });
  expect(ok.status()).toBe(200);
  await client.dispose();
});
