import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Contract } from "./model.js";
import { parseContract } from "./parse-contract.js";
import { renderContract } from "./render.js";
import { contractArb } from "./testing/arbitrary.js";

describe("contract.md round trip", () => {
  test("parseContract(renderContract(c)) equals c, and re-rendering gives the same bytes", () => {
    fc.assert(
      fc.property(contractArb, (c) => {
        expect(Contract.safeParse(c).success).toBe(true);
        const md = renderContract(c);
        const back = parseContract(md);
        expect(back.isOk() ? back.value : back.error).toEqual(c);
        expect(renderContract(back._unsafeUnwrap())).toBe(md);
      }),
      { numRuns: 150 },
    );
  });
});
