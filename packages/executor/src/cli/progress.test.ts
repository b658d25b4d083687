import { describe, expect, it } from "vitest";
import { liveProgress } from "./progress.js";

describe("liveProgress", () => {
  // A line written to the terminal beside the live view would be erased by its next redraw.
  it("keeps a warning in view, once, to the last frame", async () => {
    let screen = "";
    const terminal = { columns: 100, rows: 40, write: (text: string) => ((screen += text), true) } as unknown as NodeJS.WritableStream;
    const progress = liveProgress(terminal, [{ id: "S1", title: "answer" }], () => 0);
    progress.warn("/tmp/decay-spares-7 cannot hold spare worktree rooms: it is a symbolic link");
    progress.event({ type: "attempt", stage: "S1", attempt: 1 });
    progress.event({ type: "verified", stage: "S1", attempt: 1, phase: "verify", green: true, ledger: "ledger/verify-S1-a1.md" });
    await progress.close();
    const last = screen.slice(screen.lastIndexOf("decay run · ")).replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
    expect(last.split("\n").filter((l) => l.includes("decay-spares-7"))).toEqual([
      "  warning: /tmp/decay-spares-7 cannot hold spare worktree rooms: it is a symbolic link",
    ]);
    expect(last).toContain("S1  attempt 1 · green");
  });
});
