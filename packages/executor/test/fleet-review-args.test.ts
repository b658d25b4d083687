// The fleet commands read their command lines with the shared parser (docs/cli.md): a repeated
// flag, an unknown one, an empty value and a malformed --database-url are usage faults with the
// shared sentences, each naming the flag, the URL's password never shown.
import { describe, expect, it } from "vitest";
import { parseFleet } from "../src/cli/fleet-args.js";

const URL = ["--database-url", "postgresql://db/decay"];
const WORKER = ["worker", ...URL, "--executor-id", "w1", "--app-version", "v", "--agent", "a"];
const ENQUEUE = ["enqueue", "p.plan.md", ...URL, "--repo", "r"];

const refused = (argv: string[]) => parseFleet(argv)._unsafeUnwrapErr();

describe("fleet command lines follow docs/cli.md", () => {
  it.each([
    [[...WORKER, "--executor-id", "w9"], "--executor-id"],
    [[...ENQUEUE, "--queue", "a", "--queue", "b"], "--queue"],
    [["runs", ...URL, "--database-url", "postgresql://db/other"], "--database-url"],
    [[...ENQUEUE, "--json", "--json"], "--json"],
  ])("refuses a flag given twice: %j", (argv, flag) => {
    expect(refused(argv)).toEqual({ code: "usage", flag, message: `${flag} was given more than once` });
  });

  it("says `unknown option --nope` for a flag it does not know", () => {
    for (const argv of [
      [...WORKER, "--nope"],
      [...ENQUEUE, "--nope"],
      ["runs", ...URL, "--nope"],
    ])
      expect(refused(argv)).toEqual({ code: "usage", flag: "--nope", message: "unknown option --nope" });
  });

  it.each([
    [[...ENQUEUE, "--setup", ""], "--setup"],
    [[...ENQUEUE, "--setup="], "--setup"],
    [[...WORKER, "--workspace", ""], "--workspace"],
    [[...WORKER, "--bundle", ""], "--bundle"],
    [[...WORKER, "--queue="], "--queue"],
  ])("takes an empty value for a missing one: %j", (argv, flag) => {
    expect(refused(argv)).toEqual({ code: "usage", flag, message: `${flag} needs a value` });
  });

  it("refuses an argument past the ones a command takes", () => {
    expect(refused([...WORKER, "extra"]).message).toBe('unexpected argument "extra"');
    expect(refused([...ENQUEUE, "q.plan.md"]).message).toBe('unexpected argument "q.plan.md"');
    expect(refused(["runs", "show", "a", "b", ...URL]).message).toBe('unexpected argument "b"');
  });

  it.each([
    ["postgresql://db:notaport/decay", "postgresql://db:notaport/decay"],
    ["postgresql://postgres:s3cr/et@127.0.0.1:1/x", "postgresql://postgres:***@127.0.0.1:1/x"],
    ["postgresql://[::1/x", "postgresql://[::1/x"],
    ["mysql://db/decay", "mysql://db/decay"],
  ])("refuses the malformed --database-url %s in every command, naming it without its password", (url, shown) => {
    for (const argv of [WORKER, ENQUEUE, ["runs"]]) {
      const fault = refused([...argv.filter((a, i, all) => a !== "--database-url" && all[i - 1] !== "--database-url"), "--database-url", url]);
      expect(fault.flag).toBe("--database-url");
      expect(fault.message).toContain(`--database-url ${shown} `);
      expect(fault.message).not.toContain("s3cr");
    }
  });

  it("still takes the URLs the driver reads", () => {
    for (const url of ["postgresql://u:p@h:5432/db", "postgres://u@/db?host=/run/pg", "postgresql://h/db?password=x y"])
      expect(parseFleet(["runs", "--database-url", url])._unsafeUnwrap()).toMatchObject({ databaseUrl: url });
  });
});
