// fast-check properties of the adapters: generated trees read back exactly as the model says,
// and in-commit link resolution never leaves the root.
import { posix } from "node:path";
import fc from "fast-check";
import { memfs } from "memfs";
import { describe, expect, test } from "vitest";
import { gitTree } from "./git.js";
import { resolveLink } from "./git-walk.js";
import { memfsTree } from "./memfs.js";

const NAME_CHARS = ["a", "B", "é", "e\u0301", "ß", "-", "_", ".", "日", " "];
const name = fc
  .array(fc.constantFrom(...NAME_CHARS), { minLength: 1, maxLength: 4 })
  .map((cs) => cs.join(""))
  .filter((n) => n !== "." && n !== "..");
const file = fc.tuple(fc.array(name, { minLength: 1, maxLength: 3 }), fc.uint8Array({ maxLength: 64 }));

/** The model: every directory's entry names and every file's bytes, from a list of generated files. */
function model(files: readonly [string[], Uint8Array][]) {
  const dirs = new Map<string, Map<string, "file" | "directory">>([["", new Map()]]);
  const bytes = new Map<string, Uint8Array>();
  for (const [parts, body] of files) {
    const ok = parts.every((_, i) => {
      const at = parts.slice(0, i + 1).join("/");
      const kind = i === parts.length - 1 ? "file" : "directory";
      const parent = dirs.get(parts.slice(0, i).join("/"));
      const have = parent?.get(parts[i] as string);
      return parent !== undefined && (have === undefined ? true : have === kind && kind === "directory") && !bytes.has(at);
    });
    if (!ok) continue;
    parts.forEach((p, i) => {
      const kind = i === parts.length - 1 ? "file" : "directory";
      dirs.get(parts.slice(0, i).join("/"))?.set(p, kind);
      if (kind === "directory" && !dirs.has(parts.slice(0, i + 1).join("/"))) dirs.set(parts.slice(0, i + 1).join("/"), new Map());
    });
    bytes.set(parts.join("/"), body);
  }
  return { dirs, bytes };
}

describe("adapter properties", () => {
  test("memfsTree lists and reads any generated tree exactly as the model, bounded by maxBytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(file, { maxLength: 12 }), fc.nat({ max: 70 }), async (files, maxBytes) => {
        const { dirs, bytes } = model(files);
        const { fs } = memfs();
        fs.mkdirSync("/t");
        for (const [dir] of dirs) if (dir !== "") fs.mkdirSync(`/t/${dir}`, { recursive: true });
        for (const [path, body] of bytes) fs.writeFileSync(`/t/${path}`, body);
        const tree = memfsTree(fs, "/t");
        for (const [dir, entries] of dirs) {
          const listed = (await tree.list(dir))._unsafeUnwrap();
          expect(new Map(listed.map((e) => [e.name, e.type]))).toEqual(entries);
        }
        for (const [path, body] of bytes) {
          const read = await tree.read(path, maxBytes);
          if (body.length > maxBytes) expect(read._unsafeUnwrapErr().code).toBe("tree-too-large");
          else expect(read._unsafeUnwrap()).toEqual(body);
        }
      }),
      { numRuns: 60 },
    );
  });

  test("a link target resolves inside the root exactly when POSIX normalisation stays inside", () => {
    const part = fc.constantFrom("a", "b", "..", ".", "");
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 3 }), fc.array(part, { maxLength: 6 }), fc.boolean(), (dir, target, absolute) => {
        const text = (absolute ? "/" : "") + target.join("/");
        const inside = posix.normalize([...dir, text].join("/") || ".").replace(/(.)\/$/, "$1");
        const escapes = text.startsWith("/") || inside === ".." || inside.startsWith("../");
        const got = resolveLink(dir, text);
        if (escapes) expect(got).toBeUndefined();
        else expect(got).toEqual(inside === "." ? [] : inside.split("/"));
      }),
      { numRuns: 500 },
    );
  });

  test("any text in a .git file, commondir or HEAD gives a TreeError, never a throw or a tree", async () => {
    const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("gitdir: /w", "gitdir: ../x", "ref: refs/heads/main\n", "0".repeat(40)));
    await fc.assert(
      fc.asyncProperty(text, text, text, fc.boolean(), async (dotgit, common, head, linked) => {
        const { fs } = memfs({ "/w/HEAD": head, "/w/commondir": common, "/r/a.txt": "a" });
        if (linked) {
          fs.writeFileSync("/r/.git", dotgit);
        } else {
          fs.mkdirSync("/r/.git");
          fs.writeFileSync("/r/.git/HEAD", head);
        }
        const listed = await gitTree({ fs, dir: "/r", ref: "HEAD" }).list("");
        expect(listed.isErr() && ["tree-not-found", "tree-io"].includes(listed.error.code)).toBe(true);
      }),
      { numRuns: 80 },
    );
  });
});
