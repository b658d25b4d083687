import { describe, expect, it } from "vitest";
import { applyResume, deriveResume } from "../../src/journal/resume.js";
import { parseRecord } from "../../src/journal/record.js";
import { readTaskPlan } from "../../src/journal/plan.js";
import { nextStep } from "../../src/journal/next-step.js";
import { tempRepo, testGit, testShell } from "./git-helper.js";

interface T {
  n: number;
  files: string;
  green?: string;
  produces?: string;
  extra?: string;
}

/** A plan of the given tasks whose record holds `lines` under a Base at `base` (or unset). */
function planText(tasks: T[], base: string | null, lines: string[], root = "/r"): string {
  const sections = tasks.map((t) =>
    [
      `## Task ${t.n}: t${t.n}`,
      "",
      `Files: ${t.files}`,
      t.produces ? `Produces: ${t.produces}` : "",
      t.green ? `GREEN: \`${t.green}\` -> exit 0` : "",
      t.extra ?? "",
      "",
    ].join("\n"),
  );
  const head = base ? `Base: ${base} Root: ${root} Branch: main` : "Base: unset";
  return `# Plan: p\n\nSpec: docs/spec.md\nExecution: inline\n\n${sections.join("\n")}\n## Execution record\n\n\`\`\`text\n${[head, ...lines].join("\n")}\n\`\`\`\n`;
}

async function resume(text: string, dir: string, spec: string | null = "Status: approved\n") {
  const plan = readTaskPlan(text)._unsafeUnwrap();
  const record = parseRecord(text)._unsafeUnwrap();
  const r = await deriveResume({ plan, record, git: testGit(dir), shell: testShell, spec, cwd: dir });
  return { plan, record, resume: r._unsafeUnwrap() };
}

const done = (n: number) => `Task ${n}: done - sh check -> exit 0`;

describe("deriveResume, rule 1: a done task needs a trace", () => {
  it("sends a done task with no commit in Base..HEAD touching its Files and no change to them back to pending, with a Ruling", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    await repo.commit({ "b.txt": "b\n" }, "task 2");
    await repo.write({ "c.txt": "c\n" }); // task 3's work, uncommitted
    const text = planText(
      [
        { n: 1, files: "a.txt" },
        { n: 2, files: "b.txt" },
        { n: 3, files: "c.txt" },
      ],
      base,
      [done(1), done(2), done(3)],
    );
    const { resume: r } = await resume(text, repo.dir);
    expect(r.changes).toEqual([{ n: 1, from: { state: "done", evidence: "sh check -> exit 0" }, to: { state: "pending" } }]);
    expect(r.rulings).toHaveLength(1);
    expect(r.rulings[0]?.text).toMatch(/^Task 1 back to pending - no commit in [0-9a-f]{7}\.\.[0-9a-f]{7} touches its Files/);
    expect([...r.states].map(([n, s]) => [n, s.state])).toEqual([
      [1, "pending"],
      [2, "done"],
      [3, "done"],
    ]);
  });

  it("does not take a change listed in Initial dirty state for a task's trace", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({ "config.ts": "1\n" }, "base");
    await repo.write({ "config.ts": "2\n" }); // someone else's edit, there before the run
    const text = planText([{ n: 1, files: "config.ts" }], base, ["Initial dirty state: config.ts", done(1)]);
    const { resume: r } = await resume(text, repo.dir);
    expect(r.changes.map((c) => [c.n, c.to.state])).toEqual([[1, "pending"]]);
  });

  it("writes the change in place and appends the Ruling when applied", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    const text = planText([{ n: 1, files: "a.txt" }], base, [done(1)]);
    const { resume: r } = await resume(text, repo.dir);
    const out = applyResume(text, r)._unsafeUnwrap();
    expect(out).toBe(text.replace(done(1), "Task 1: pending").replace("\n```\n", `\nRuling: ${r.rulings[0]?.text}\n\`\`\`\n`));
  });
});

describe("deriveResume, rule 2: a done task overlapped by a later done task reruns its check", () => {
  const setup = async (second: string, extra: Partial<T> = {}, lines: string[] = []) => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    await repo.commit({ "shared.txt": "one\n" }, "task 1");
    await repo.commit({ "shared.txt": second }, "task 2");
    const tasks: T[] = [
      { n: 1, files: "shared.txt", green: "grep -q one shared.txt" },
      { n: 2, files: "shared.txt, two.txt", ...extra },
    ];
    return { repo, text: planText(tasks, base, [done(1), done(2), ...lines]) };
  };

  it("passing, the task stays done", async () => {
    const { repo, text } = await setup("one\ntwo\n");
    const { resume: r } = await resume(text, repo.dir);
    expect(r.rechecks).toEqual([{ n: 1, field: "GREEN", command: "grep -q one shared.txt", exit: 0, passed: true }]);
    expect(r.changes).toEqual([]);
    expect(r.rulings).toEqual([]);
  });

  it("failing with nothing to explain it, the task goes back to pending with a Ruling naming the check", async () => {
    const { repo, text } = await setup("two\n");
    const { resume: r } = await resume(text, repo.dir);
    expect(r.changes.map((c) => [c.n, c.to.state])).toEqual([[1, "pending"]]);
    expect(r.rulings[0]?.text).toBe(
      "Task 1 back to pending - its GREEN `grep -q one shared.txt` failed (exit 1) after Task 2 edited the same files - medium, the later change may be what broke it",
    );
  });

  it("failing where the later task's Produces explains it, the task stays done with a Ruling naming that task", async () => {
    const { repo, text } = await setup("two\n", { produces: "`shared.txt` now says two" });
    const { resume: r } = await resume(text, repo.dir);
    expect(r.changes).toEqual([]);
    expect(r.rulings[0]?.text).toMatch(/^Task 1 stays done - its GREEN `grep -q one shared.txt` failed \(exit 1\), explained by Task 2, which produces/);
    const again = await resume(applyResume(text, r)._unsafeUnwrap(), repo.dir);
    expect(again.resume.rulings).toEqual([]); // explained once, not on every resume
  });

  it("failing where a plan revision marker explains it, the task stays done with a Ruling naming the marker", async () => {
    const { repo, text } = await setup("two\n", {}, ["Ruling: plan revised after spec re-approval - docs/spec.md"]);
    const { resume: r } = await resume(text, repo.dir);
    expect(r.changes).toEqual([]);
    expect(r.rulings[0]?.text).toMatch(/explained by the marker "plan revised after spec re-approval - docs\/spec.md"/);
  });

  it("failing where only an in-progress task's partial work explains it, the task stays done and waits for that task", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    await repo.commit({ "shared.txt": "one\n" }, "task 1");
    await repo.commit({ "two.txt": "2\n", "shared.txt": "one\n" }, "task 2");
    await repo.write({ "shared.txt": "three\n" }); // task 3, half done
    const tasks: T[] = [
      { n: 1, files: "shared.txt", green: "grep -q one shared.txt" },
      { n: 2, files: "two.txt, shared.txt" },
      { n: 3, files: "shared.txt" },
    ];
    const text = planText(tasks, base, [done(1), done(2), "Task 3: in progress - started at abc1234"]);
    const { resume: r } = await resume(text, repo.dir);
    expect(r.changes).toEqual([]);
    expect(r.waiting).toEqual([{ n: 1, after: 3 }]);
    expect(r.rulings[0]?.text).toMatch(/explained by the partial work of Task 3, still in progress/);
  });

  it("a later task still in progress triggers no recheck", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    await repo.commit({ "shared.txt": "one\n" }, "task 1");
    await repo.write({ "shared.txt": "two\n" });
    const tasks: T[] = [
      { n: 1, files: "shared.txt", green: "grep -q one shared.txt" },
      { n: 2, files: "shared.txt" },
    ];
    const { resume: r } = await resume(planText(tasks, base, [done(1), "Task 2: in progress - started at abc1234"]), repo.dir);
    expect(r.rechecks).toEqual([]);
    expect(r.changes).toEqual([]);
  });
});

describe("deriveResume, rule 3: conflicting intent and the spec's Status", () => {
  const blocked = "Task 2: blocked - conflicting intent: spec docs/spec.md back to draft";

  it("returns a task blocked on conflicting intent to pending once the spec reads approved again", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({ "a.txt": "a\n" }, "task 1");
    const text = planText(
      [
        { n: 1, files: "a.txt" },
        { n: 2, files: "b.txt" },
      ],
      base,
      [blocked],
    );
    const { resume: r } = await resume(text, repo.dir, "# Spec\n\nStatus: approved\n");
    expect(r.changes.map((c) => [c.n, c.from.state, c.to.state])).toEqual([[2, "blocked", "pending"]]);
    expect(r.rulings[0]?.text).toBe("Task 2 back to pending - spec docs/spec.md approved again - low, it runs as its section now reads");
    expect(r.stop).toBeNull();
    // A spec read from elsewhere (--spec) is the one the Ruling names.
    const plan = readTaskPlan(text)._unsafeUnwrap();
    const record = parseRecord(text)._unsafeUnwrap();
    const elsewhere = await deriveResume({ plan, record, git: testGit(repo.dir), shell: testShell, spec: "Status: approved\n", specPath: "../drafts/spec.md" });
    expect(elsewhere._unsafeUnwrap().rulings[0]?.text).toBe(
      "Task 2 back to pending - spec ../drafts/spec.md approved again - low, it runs as its section now reads",
    );
  });

  it("keeps it blocked while the spec is a draft, and the other tasks go on", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    const { resume: r } = await resume(
      planText(
        [
          { n: 1, files: "a.txt" },
          { n: 2, files: "b.txt" },
        ],
        base,
        [blocked],
      ),
      repo.dir,
      "Status: draft\n",
    );
    expect(r.changes).toEqual([]);
    expect(r.stop).toBeNull();
  });

  it("a draft spec stops a fresh start, and a resume with no task waiting on it", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    const fresh = await resume(planText([{ n: 1, files: "a.txt" }], null, ["Task 1: pending"]), repo.dir, "Status: draft\n");
    expect(fresh.resume).toMatchObject({ fresh: true, changes: [], stop: "specify - docs/spec.md is a draft, awaiting approval" });
    const resumed = await resume(planText([{ n: 1, files: "a.txt" }], base, ["Task 1: pending"]), repo.dir, "Status: draft\n");
    expect(resumed.resume.stop).toBe("specify - docs/spec.md is a draft, awaiting approval");
  });

  it("a draft spec read from elsewhere (--spec) is the one stop and nextStep name, even for a plan with no Spec line", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    for (const text of [
      planText([{ n: 1, files: "a.txt" }], base, ["Task 1: pending"]),
      planText([{ n: 1, files: "a.txt" }], base, ["Task 1: pending"]).replace("Spec: docs/spec.md\n", ""),
    ]) {
      const plan = readTaskPlan(text)._unsafeUnwrap();
      const record = parseRecord(text)._unsafeUnwrap();
      const spec = "Status: draft\n";
      const r = await deriveResume({ plan, record, git: testGit(repo.dir), shell: testShell, spec, cwd: repo.dir, specPath: "drafts/s.md" });
      expect(r._unsafeUnwrap().stop).toBe("specify - drafts/s.md is a draft, awaiting approval");
      expect(nextStep({ plan, record, spec, specPath: "drafts/s.md" })).toBe("Next step: specify - drafts/s.md is a draft, awaiting approval");
    }
  });
});

describe("deriveResume, rule 4: a failing last Verify", () => {
  it("returns the task covering each failing claim to pending, and lists a claim no task covers", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    await repo.commit({ "a.txt": "a\n", "b.txt": "b\n" }, "work");
    const tasks: T[] = [
      { n: 1, files: "a.txt", extra: "Covers: AC2" },
      { n: 2, files: "b.txt", extra: "Covers: AC3" },
    ];
    const lines = [done(1), done(2), "Verify: FAIL full tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904 2026-11-30 14:05", "Round verify 1: AC2 and AC7 fail"];
    const { plan, record, resume: r } = await resume(planText(tasks, base, lines), repo.dir);
    expect(r.changes.map((c) => [c.n, c.to.state])).toEqual([[1, "pending"]]);
    expect(r.rulings.map((l) => l.text)).toEqual(["Task 1 back to pending - Verify FAIL on AC2 - low, the task runs again"]);
    expect(r.unplannedClaims).toEqual(["AC7"]);
    expect(nextStep({ plan, record, spec: "Status: approved", states: r.states })).toBe("Next step: plan-craft - AC7");
  });

  it("does not reopen a task a Ruling after the last Verify already returned for that claim", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    await repo.commit({ "a.txt": "a\n" }, "work");
    const lines = [
      done(1),
      "Verify: FAIL compact tree 4b825dc6 2026-11-30 14:05",
      "Round verify 1: AC2",
      "Ruling: Task 1 back to pending - Verify FAIL on AC2 - low, the task runs again",
    ];
    const { resume: r } = await resume(planText([{ n: 1, files: "a.txt", extra: "AC2" }], base, lines), repo.dir);
    expect(r.changes).toEqual([]);
  });

  it("a Ruling on another claim that begins with the same letters and digits (AC40) does not handle AC4", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    await repo.commit({ "a.txt": "a\n", "b.txt": "b\n" }, "work");
    const lines = [
      done(1),
      "Task 2: pending",
      "Verify: FAIL compact tree 4b825dc6 2026-11-30 14:05",
      "Round verify 1: AC40 fails",
      "Ruling: Task 2 back to pending - Verify FAIL on AC40 - low, the task runs again",
      "Round verify 2: AC4 fails",
    ];
    const tasks: T[] = [
      { n: 1, files: "a.txt", extra: "Covers: AC4" },
      { n: 2, files: "b.txt", extra: "Covers: AC40" },
    ];
    const { resume: r } = await resume(planText(tasks, base, lines), repo.dir);
    expect(r.changes.map((c) => [c.n, c.to.state])).toEqual([[1, "pending"]]);
    expect(r.rulings.map((l) => l.text)).toEqual(["Task 1 back to pending - Verify FAIL on AC4 - low, the task runs again"]);
  });
});

describe("deriveResume, rule 5: rounds and open rulings carry over", () => {
  it("continues round counters from the record and keeps a Ruling awaiting the user open", async () => {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    const lines = [
      "Task 1: in progress - started at abc1234",
      "Round task-1 1: flaky clock",
      "Round task-1 2: header missing",
      "Ruling: awaiting user - retry with backoff or fail fast - both fit the spec - behavior on outages",
      "Ruling: awaiting user - keep v1 route - unclear - a client may break",
      "Ruling: user answered - keep v1 route - yes, keep it - low",
    ];
    const { resume: r } = await resume(planText([{ n: 1, files: "a.txt" }], base, lines), repo.dir);
    expect(r.rounds).toEqual({ "task-1": 2 });
    expect(r.openRulings).toEqual(["awaiting user - retry with backoff or fail fast - both fit the spec - behavior on outages"]);
  });

  it("is a git fault, not a verdict, when Base is no commit of the repository", async () => {
    const repo = await tempRepo();
    const text = planText([{ n: 1, files: "a.txt" }], "f".repeat(40), [done(1)]);
    const r = await deriveResume({
      plan: readTaskPlan(text)._unsafeUnwrap(),
      record: parseRecord(text)._unsafeUnwrap(),
      git: testGit(repo.dir),
      shell: testShell,
      cwd: repo.dir,
    });
    expect(r._unsafeUnwrapErr()).toMatchObject({ code: "git-failed", op: expect.stringContaining(`^${"f".repeat(40)}`) });
  });
});
