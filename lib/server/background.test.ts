import { describe, expect, it, vi } from "vitest";
import { BACKGROUND_WORK, startBackgroundWork } from "./background";

describe("background work", () => {
  it("is a static list of plain start functions, one per concern", () => {
    expect(BACKGROUND_WORK.map((w) => w.name)).toEqual(["audit", "cards", "notify", "store-sweep"]);
    for (const w of BACKGROUND_WORK) expect(typeof w.start).toBe("function");
  });

  it("starts each once per process; one failing start does not stop the others", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const ok = vi.fn();
    const work = [
      { name: "broken", start: () => Promise.reject(new Error("boom")) },
      { name: "ok", start: ok },
    ];
    await startBackgroundWork(work);
    await startBackgroundWork(work);
    expect(ok).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith('background work "broken" failed to start:', expect.any(Error));
    error.mockRestore();
  });
});
