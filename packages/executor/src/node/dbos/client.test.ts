import { describe, expect, it } from "vitest";
import { dbosClient } from "./client.js";
import { describeDbosFault } from "./fault.js";

describe("dbosClient", () => {
  it("refuses a queue name holding @ (a worker's own queue) before it connects to anything", async () => {
    // Port 9 on this host answers nothing: reaching it would be a database fault, not this one.
    const got = await dbosClient({ databaseUrl: "postgresql://nobody@127.0.0.1:9/none", queue: "decay-runs@w1" });
    const fault = got._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "dbos-option-invalid", option: "queue" });
    expect(describeDbosFault(fault)).toMatch(/queue: may hold letters, digits and \. _ - only, not "decay-runs@w1"/);
  });
});
