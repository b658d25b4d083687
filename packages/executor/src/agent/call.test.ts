import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { addTokens } from "../run/state.js";
import { firstDuplicateKey } from "@decay/portable";
import { callAgent, jsonReply } from "./call.js";
import type { Agent, RequestOf } from "./protocol.js";

const request: RequestOf<"adjudicate"> = {
  role: "adjudicate",
  model: "fable",
  cwd: "/repo",
  stage: "S1",
  attempt: 1,
  try: 1,
  guardrails: [],
  diagnoses: [{ lens: "what-changed", cause: "c", fix: "f", acceptance_effect: "none" }],
};

/** An agent whose every role answers with `answer`. */
const agent = (answer: () => Promise<unknown>): Agent => ({ execute: answer, diagnose: answer, adjudicate: answer, fix: answer });

describe("callAgent: why an agent returned nothing is one line, however the agent failed", () => {
  test.each([
    ["a thrown error over several lines", () => Promise.reject(new Error("quota\nexceeded\r\u001b[0m")), "the agent failed: quota\\nexceeded\\r\\u001b[0m"],
    ["text that is not JSON", () => Promise.resolve("Sure!\nHere it is"), 'a reply that is not JSON: "Sure!\\nHere it is"'],
    ["a reply with a key holding a line break", () => Promise.resolve({ tokens: 1, chosen: 0, reason: "r", "a\nb": 1 }), "a\\nb"],
  ])("%s", async (_, answer, shown) => {
    const out = await callAgent(agent(answer), request, 1);
    expect(out.ok).toBe(false);
    const reason = out.ok ? "" : out.reason;
    expect(reason).toContain(shown);
    expect(reason).not.toMatch(/[\n\r\u001b]/);
  });

  test("a reason is bounded: an agent's error of any length is cut", async () => {
    const out = await callAgent(
      agent(() => Promise.reject(new Error("e".repeat(100_000)))),
      request,
      1,
    );
    expect(!out.ok && out.reason.length).toBeLessThanOrEqual(4096 + 1);
  });
});

describe("callAgent: token counts stay exact", () => {
  test("a count over 10^12 is no reply; 10^12 is one", async () => {
    const over = await callAgent(
      agent(() => Promise.resolve({ tokens: 1_000_000_000_001, chosen: 0, reason: "r" })),
      request,
      1,
    );
    expect(over.ok).toBe(false);
    expect(over.ok ? "" : over.reason).toContain("tokens");
    const at = await callAgent(
      agent(() => Promise.resolve({ tokens: 1_000_000_000_000, chosen: 0, reason: "r" })),
      request,
      1,
    );
    expect(at).toMatchObject({ ok: true, tokens: 1_000_000_000_000 });
  });

  test("sums are held at the largest exact integer, never past it", () => {
    expect(addTokens(Number.MAX_SAFE_INTEGER - 1, 1_000_000_000_000)).toBe(Number.MAX_SAFE_INTEGER);
    expect(addTokens(2, 3)).toBe(5);
  });
});

describe("jsonReply: one JSON value, or why not", () => {
  test("never throws; a value exactly when JSON.parse reads the text and it repeats no key, else one line quoting at most 80 characters", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        const read = jsonReply(raw);
        let parses = true;
        try {
          JSON.parse(raw);
        } catch {
          parses = false;
        }
        expect("value" in read).toBe(parses && firstDuplicateKey(raw) === undefined);
        if ("empty" in read) {
          expect(read.empty).not.toMatch(/[\n\r]/);
          expect(read.empty.length).toBeLessThan(200);
        }
      }),
    );
  });

  test("a reply printed more than once, one value per line, is said to be that many values, never 'not JSON'", () => {
    fc.assert(
      fc.property(fc.array(fc.json(), { minLength: 2, maxLength: 5 }), fc.constantFrom("\n", "\r\n"), (values, eol) => {
        const read = jsonReply(values.map((v) => `${v}${eol}`).join(""));
        expect(read).toEqual({
          empty: expect.stringMatching(new RegExp(`^${values.length} JSON values, one per line, where the protocol takes one reply: "`)),
        });
      }),
    );
  });

  test("a reply that repeats a key (two token counts) is refused, never read by its last value", () => {
    expect(jsonReply('{"tokens":5,"tokens":999999999999,"summary":"ok"}')).toEqual({
      empty: 'a reply that repeats the key "tokens": "{"tokens":5,"tokens":999999999999,"summary":"ok"}"',
    });
    expect(jsonReply('{"a":{"tokens":1},"tokens":2}')).toEqual({ value: { a: { tokens: 1 }, tokens: 2 } });
  });

  test("one value and a line that is not JSON is not JSON", () => {
    expect(jsonReply('{"tokens":1}\nDone!\n')).toEqual({ empty: 'a reply that is not JSON: "{"tokens":1}\\nDone!\\n"' });
  });
});
