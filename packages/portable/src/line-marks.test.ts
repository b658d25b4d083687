import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { dropOneBom, loneCrLine, nulLine } from "./line-marks.js";

describe("dropOneBom", () => {
  test("drops one leading BOM and refuses a second", () => {
    expect(dropOneBom("# a")._unsafeUnwrap()).toBe("# a");
    expect(dropOneBom("\uFEFF# a")._unsafeUnwrap()).toBe("# a");
    expect(dropOneBom("\uFEFF\uFEFF# a")._unsafeUnwrapErr()).toBe("repeated-bom");
    expect(dropOneBom("a\uFEFF")._unsafeUnwrap()).toBe("a\uFEFF");
    expect(dropOneBom("")._unsafeUnwrap()).toBe("");
  });
});

describe("loneCrLine", () => {
  test("names the line a lone CR ends, at the very end too; CRLF is a line ending", () => {
    expect(loneCrLine("a\nb\r\nc")).toBeNull();
    expect(loneCrLine("a\nb\r")).toBe(2);
    expect(loneCrLine("a\r\nb\rc\n")).toBe(2);
    expect(loneCrLine("\r\r")).toBe(1);
    expect(loneCrLine("a\n\nb\rc")).toBe(3);
  });

  test("agrees with splitting on CRLF, LF and CR", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "\n", "\r", "\r\n")), (parts) => {
        const text = parts.join("");
        const lines = text.split(/\r\n|\n|\r/);
        let offset = 0;
        let expected: number | null = null;
        for (const [i, line] of lines.entries()) {
          offset += line.length;
          if (text[offset] === "\r" && text[offset + 1] !== "\n") {
            expected = i + 1;
            break;
          }
          offset += text.startsWith("\r\n", offset) ? 2 : 1;
        }
        expect(loneCrLine(text)).toBe(expected);
      }),
    );
  });
});

describe("nulLine", () => {
  test("names the line of the first NUL", () => {
    expect(nulLine("a\nb")).toBeNull();
    expect(nulLine("\u0000")).toBe(1);
    expect(nulLine("a\r\nb\nc\u0000d\u0000")).toBe(3);
  });
});
