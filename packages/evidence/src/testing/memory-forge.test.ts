import { describe, expect, test } from "vitest";
import { markerLine } from "../record/hash.js";
import { describeTransportContract } from "./transport-contract.js";
import { memoryForge } from "./memory-forge.js";

const target = { repo: "forge.test/owner/repo", pr: 23 };
const outsider = { id: 99n, login: "outsider" };

describeTransportContract("memoryForge", async () => {
  const forge = memoryForge({ pageSize: 7 });
  return {
    transport: forge.transport,
    author: forge.author,
    target,
    seedForeign: async (body) => {
      forge.plant({ ...target, body, author: outsider });
    },
    close: async () => {},
  };
});

const KEY = "c".repeat(64);
const body = `${markerLine(KEY)}\n{}`;

describe("memoryForge faults", () => {
  test("unknownWrite applies the create, then reports an unknown outcome", async () => {
    const forge = memoryForge();
    forge.faults.unknownWrite = true;
    const created = await forge.transport.create({ ...target, keyHash: KEY, body });
    expect(created._unsafeUnwrapErr().code).toBe("transport-unknown-outcome");
    expect([...forge.comments.values()].map((c) => c.body)).toEqual([body]);
  });

  test("hidden lookup shows nothing and never claims absence", async () => {
    const forge = memoryForge();
    forge.faults.hidden = true;
    const lookup = await forge.transport.lookup({ ...target, keyHash: KEY });
    expect(lookup._unsafeUnwrap()).toEqual({ complete: true, absence_confirmed: false, matches: [] });
  });

  test("a lost page makes a long listing incomplete, and absence is not claimed", async () => {
    const forge = memoryForge({ pageSize: 2 });
    for (let i = 0; i < 3; i += 1) forge.plant({ ...target, body: `filler ${i}`, author: outsider });
    forge.faults.lostPage = true;
    const lookup = (await forge.transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap();
    expect(lookup.complete).toBe(false);
    expect(lookup.absence_confirmed).toBe(false);
  });

  test("unavailable fails every call without writing; mismatch changes only what read returns", async () => {
    const forge = memoryForge();
    forge.faults.unavailable = true;
    expect((await forge.transport.create({ ...target, keyHash: KEY, body }))._unsafeUnwrapErr().code).toBe("transport-unavailable");
    expect(forge.comments.size).toBe(0);
    forge.faults.unavailable = false;
    const id = (await forge.transport.create({ ...target, keyHash: KEY, body }))._unsafeUnwrap();
    forge.faults.mismatch = true;
    expect((await forge.transport.read({ ...target, commentId: id }))._unsafeUnwrap().body).not.toBe(body);
    expect(forge.comments.get(id)?.body).toBe(body);
  });

  test("a foreign comment cannot be updated through the transport", async () => {
    const forge = memoryForge();
    const id = forge.plant({ ...target, body, author: outsider });
    const updated = await forge.transport.update({ ...target, commentId: id, body: `${body} changed` });
    expect(updated._unsafeUnwrapErr().code).toBe("transport-refused");
    expect(forge.comments.get(id)?.body).toBe(body);
  });
});
