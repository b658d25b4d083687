// No form of a Postgres password reaches a message, and a URL the driver cannot read is the
// fault `database-failed` from the library (never a throw) and a sentence from the CLI.
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { dbosClient, dbosRunner } from "../src/entries/dbos.js";
import { redactSecrets, redactUrl } from "../src/node/dbos/fault.js";
import { decay } from "./cli-process.js";

describe("the database password is never printed", () => {
  it.each([
    ["postgresql://u:s3cret@h/db", "postgresql://u:***@h/db"],
    ["postgresql://:s3cret@127.0.0.1:1/x", "postgresql://:***@127.0.0.1:1/x"],
    ["postgresql://postgres@127.0.0.1:1/x?password=s3cret", "postgresql://postgres@127.0.0.1:1/x?password=***"],
    ["postgresql://h/x?sslmode=require&PASSWORD=s3cret&a=b", "postgresql://h/x?sslmode=require&PASSWORD=***&a=b"],
    ["postgresql://u:s3cr/et@h/db", "postgresql://u:***@h/db"],
    ["postgresql://u:s3@cret@h/db", "postgresql://u:***@h/db"],
    ["postgresql://u@h/db", "postgresql://u@h/db"],
  ])("redactUrl(%s)", (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it("takes every password of the URL out of other text (DBOS's own log)", () => {
    const url = "postgresql://u:p%40ss@h/db?password=s3cret";
    expect(redactSecrets(`System Database URL: ${url} or postgresql://u:p@ss@h/db`, url)).toBe(
      "System Database URL: postgresql://u:***@h/db?password=*** or postgresql://u:***@h/db",
    );
    expect(redactSecrets("nothing here", "postgresql://u@h/db")).toBe("nothing here");
  });

  it.each([["postgresql://:s3cret@127.0.0.1:1/x"], ["postgresql://postgres@127.0.0.1:1/x?password=s3cret"]])(
    "decay runs and decay worker on %s: exit 2, the URL shown without it",
    async (url) => {
      const cwd = await tempDir("decay-review-");
      for (const args of [["runs"], ["worker", "--executor-id", "w", "--app-version", "v", "--agent", "node"]]) {
        const r = await decay([...args, "--database-url", url], cwd);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`decay: database ${redactUrl(url)}: `);
        expect(r.stderr).not.toContain("s3cret");
      }
    },
    60_000,
  );
});

describe("a URL the Postgres driver cannot read", () => {
  it("is the fault database-failed from dbosClient and from a worker, never a throw", async () => {
    const url = "postgresql://u:s3cr/et@db:notaport/decay";
    const client = await dbosClient({ databaseUrl: url });
    expect(client._unsafeUnwrapErr()).toEqual({
      code: "database-failed",
      database: "postgresql://u:***@db:notaport/decay",
      reason: expect.stringMatching(/not a valid Postgres URL/),
    });
    const runner = dbosRunner({ databaseUrl: url, executorId: "w", appVersion: "v", ports: () => ({}) as never });
    const served = await runner.worker();
    await runner.close();
    expect(served._unsafeUnwrapErr()).toMatchObject({ code: "database-failed", database: "postgresql://u:***@db:notaport/decay" });
  });

  it("makes decay runs, enqueue and worker exit 2 with a sentence naming --database-url", async () => {
    const cwd = await tempDir("decay-review-");
    for (const args of [["runs"], ["enqueue", "p.plan.md", "--repo", "."], ["worker", "--executor-id", "w", "--app-version", "v", "--agent", "node"]]) {
      const r = await decay([...args, "--database-url", "postgresql://db:notaport/decay"], cwd);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^decay: --database-url postgresql:\/\/db:notaport\/decay is not a valid Postgres URL/);
    }
  }, 60_000);
});
