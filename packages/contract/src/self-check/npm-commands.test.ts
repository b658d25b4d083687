import { describe, expect, test } from "vitest";
import { commandWord, npmCommand, toolPath } from "./npm-commands.js";

describe("npmCommand resolves a command word as npm 11 does", () => {
  test("a unique prefix of a command names it", () => {
    for (const [word, command] of [
      ["pu", "publish"],
      ["pub", "publish"],
      ["publ", "publish"],
      ["unp", "unpublish"],
      ["unpub", "unpublish"],
      ["dep", "deprecate"],
      ["ow", "owner"],
      ["exe", "exec"],
    ]) {
      expect([word, npmCommand(word as string)]).toEqual([word, command]);
    }
  });
  test("an alias names its command, and so does a unique prefix of an alias", () => {
    expect(npmCommand("author")).toBe("owner");
    expect(npmCommand("aut")).toBe("owner");
    expect(npmCommand("dist-tags")).toBe("dist-tag");
    expect(npmCommand("rum")).toBe("run");
    expect(npmCommand("x")).toBe("exec");
    expect(npmCommand("install-cle")).toBe("ci");
  });
  test("camelCase is read as kebab-case", () => {
    expect(npmCommand("distTag")).toBe("dist-tag");
    expect(npmCommand("unPublish")).toBeUndefined();
  });
  test("a prefix of several words names none; a command that is a prefix of another is itself", () => {
    for (const word of ["p", "de", "unst", "sta", "dis", "", "publishx", "Publish"]) {
      expect([word, npmCommand(word)]).toEqual([word, word === "unst" ? "unstar" : undefined]);
    }
    expect(npmCommand("star")).toBe("star");
    expect(npmCommand("stars")).toBe("stars");
    expect(npmCommand("un")).toBe("uninstall");
  });
});

const npmPath = (pos: string[]) => toolPath("npm", pos);
const pnpmPath = (pos: string[]) => toolPath("pnpm", pos);

describe("toolPath names the subcommands of the outward commands canonically", () => {
  test("dist-tag set/s/a add a tag; del/d/r/remove remove one; owner remove is rm", () => {
    for (const sub of ["add", "a", "set", "s"]) expect(npmPath(["dist-tags", sub, "x@1", "beta"])).toEqual(["dist-tag", "add", "x@1", "beta"]);
    for (const sub of ["rm", "r", "del", "d", "remove"]) expect(npmPath(["distTag", sub, "x", "beta"])).toEqual(["dist-tag", "rm", "x", "beta"]);
    expect(npmPath(["author", "remove", "bob"])).toEqual(["owner", "rm", "bob"]);
    expect(npmPath(["dist-tag", "ls"])).toEqual(["dist-tag", "ls"]);
  });
  test("token rm/delete/remove are revoke; org add is set; profile's 2fa words are enable-2fa/disable-2fa; other words stay as typed", () => {
    for (const sub of ["revoke", "rm", "delete", "remove"]) expect(npmPath(["tok", sub, "1a2b"])).toEqual(["token", "revoke", "1a2b"]);
    expect(npmPath(["token", "ls"])).toEqual(["token", "ls"]);
    expect(npmPath(["ogr", "add", "o", "bob"])).toEqual(["org", "set", "o", "bob"]);
    for (const sub of ["enable-2fa", "enable-tfa", "enable2fa", "enabletfa"]) expect(npmPath(["profile", sub])).toEqual(["profile", "enable-2fa"]);
    for (const sub of ["disable-2fa", "disable-tfa", "disable2fa", "disabletfa"]) expect(npmPath(["profile", sub])).toEqual(["profile", "disable-2fa"]);
    // npm reads the subcommands of access, team, trust and stage by their one name, exactly.
    expect(npmPath(["access", "gr", "read-only"])).toEqual(["access", "gr", "read-only"]);
    expect(npmPath(["team", "remove", "@o:t", "bob"])).toEqual(["team", "remove", "@o:t", "bob"]);
  });
  test("a word npm does not know is kept as typed; a lone command keeps no subcommand", () => {
    expect(npmPath(["frobnicate", "a"])).toEqual(["frobnicate", "a"]);
    expect(npmPath(["pub"])).toEqual(["publish"]);
    expect(npmPath([])).toEqual([]);
  });
  test("pnpm takes no prefixes, only its aliases of registry commands: dist-tags, owners, adduser, token rm|delete|remove", () => {
    expect(pnpmPath(["dist-tags", "add", "x@1"])).toEqual(["dist-tag", "add", "x@1"]);
    expect(pnpmPath(["owners", "rm", "x", "bob"])).toEqual(["owner", "rm", "x", "bob"]);
    expect(pnpmPath(["adduser"])).toEqual(["login"]);
    for (const sub of ["revoke", "rm", "delete", "remove"]) expect(pnpmPath(["token", sub, "1a2b"])).toEqual(["token", "revoke", "1a2b"]);
    expect(pnpmPath(["token", "ls"])).toEqual(["token", "ls"]);
    expect(pnpmPath(["pub"])).toEqual(["pub"]);
    expect(pnpmPath(["tok", "rm"])).toEqual(["tok", "rm"]);
  });
});

describe("commandWord is the one reading of a package manager's command word", () => {
  test("npm's by npm's resolution, pnpm's dist-tags alias, any other tool's as typed", () => {
    expect(commandWord("npm", "rum")).toBe("run");
    expect(commandWord("npm", "frobnicate")).toBe("frobnicate");
    expect(commandWord("pnpm", "dist-tags")).toBe("dist-tag");
    expect(commandWord("pnpm", "owners")).toBe("owner");
    expect(commandWord("pnpm", "pub")).toBe("pub");
    expect(commandWord("yarn", "dist-tags")).toBe("dist-tags");
  });
});
