import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { runView } from "./commands.js";
import { afterEnv } from "./env.js";
import { outwardWrite } from "./outward.js";

const writesOutward = (line: string) => runView(line).commands.some((c) => outwardWrite(c) !== null);

/** A word as the shell reads it back: single-quoted when it holds anything the shell would read. */
const q = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);
const line = (argv: readonly string[]) => argv.map(q).join(" ");

// npm's command words by any unique prefix from the shortest npm takes, or an alias (npm 11).
const prefixOf = (word: string, shortest: number) => fc.integer({ min: shortest, max: word.length }).map((n) => word.slice(0, n));
const npmOutward = fc.oneof(
  fc.tuple(prefixOf("publish", 2), fc.constantFrom([], ["--tag", "next"], ["--access", "public"])).map(([w, rest]) => ["npm", w, ...rest]),
  fc.tuple(prefixOf("unpublish", 3), fc.constant(["pkg@1.0.0"])).map(([w, rest]) => ["npm", w, ...rest]),
  prefixOf("deprecate", 3).map((w) => ["npm", w, "pkg@1", "use v2"]),
  fc
    .tuple(fc.constantFrom("dist-tag", "dist-tags", "distTag"), fc.constantFrom("add", "a", "set", "s", "rm", "r", "del", "d", "remove"))
    .map(([w, sub]) => ["npm", w, sub, "pkg@1.0.0", "beta"]),
  fc.tuple(fc.oneof(prefixOf("owner", 2), prefixOf("author", 3)), fc.constantFrom("add", "rm", "remove")).map(([w, sub]) => ["npm", w, sub, "bob", "pkg"]),
);
const OTHER_OUTWARD = [
  ["git", "push", "origin", "main"],
  ["git", "subtree", "push", "--prefix", "lib", "origin", "main"],
  ["git", "lfs", "push", "origin", "main"],
  ["git", "send-pack", "origin", "main"],
  ["git", "http-push", "https://example.test/repo.git", "main"],
  ["gh", "repo", "sync", "me/fork"],
  ["cargo", "publish", "--registry", "crates-io"],
  ["gem", "push", "pkg-1.0.gem"],
  ["gem", "owner", "pkg", "--add", "bob@example.test"],
  ["cargo", "owner", "--add", "github:org:team"],
  ["twine", "upload", "-r", "pypi", "dist/*"],
  ["poetry", "publish", "--build"],
  ["scp", "-P", "22", "build.tar", "deploy@host:/srv/"],
  ["rsync", "-az", "dist/", "host:/var/www/"],
  ["rsync", "-a", "dist/", "rsync://mirror.example/pub/"],
  ["aws", "--region", "eu-west-1", "s3", "cp", "report.html", "s3://bucket/key"],
  ["aws", "s3", "sync", "site/", "s3://bucket/"],
  ["aws", "s3", "rm", "s3://bucket/old", "--recursive"],
  ["git", "-C", "sub dir", "push"],
  ["pnpm", "publish", "--no-git-checks"],
  ["pnpm", "dist-tags", "add", "pkg@1", "beta"],
  ["pnpm", "owner", "add", "bob"],
  ["yarn", "npm", "publish"],
  ["gh", "pr", "create", "--fill"],
  ["docker", "push", "registry.example/app:1"],
  ["curl", "-X", "POST", "https://example.test/hook"],
];
const outward = fc.oneof(npmOutward, fc.constantFrom(...OTHER_OUTWARD));

const HARMLESS = [
  ["git", "status"],
  ["npm", "test"],
  ["npm", "t"],
  ["npm", "i"],
  ["npm", "ci"],
  ["npm", "un", "left-pad"],
  ["npm", "pack"],
  ["npm", "p"],
  ["npm", "de"],
  ["npm", "dist-tag", "ls", "pkg"],
  ["npm", "owner", "ls", "pkg"],
  ["npm", "view", "pkg", "dist-tags"],
  ["pnpm", "pub"],
  ["pnpm", "vitest", "run"],
  ["echo", "git push"],
  ["echo", "npm publish"],
  ["grep", "-q", "npm pub", "README.md"],
  ["curl", "-sS", "https://example.test/health"],
  ["scp", "deploy@host:/srv/log", "."],
  ["rsync", "-a", "src/", "backup/"],
  ["rsync", "-a", "./a:b", "c"],
  ["aws", "s3", "cp", "s3://bucket/key", "report.html"],
  ["aws", "s3", "ls", "s3://bucket/"],
  ["cargo", "test"],
  ["cargo", "owner", "--list"],
  ["gem", "owner", "pkg"],
  ["rsync", "-a", "src/", "dst/", "--exclude", "foo:bar"],
  ["scp", "-o", "ProxyJump=a:b", "host:/srv/log", "."],
  ["gem", "list"],
  ["poetry", "run", "pytest"],
];

/** The wrappers a row may hide a command behind: each takes a command line and gives one that runs it. */
const wrapper = fc.oneof(
  fc
    .constantFrom("", "-i ", "- ", "-u HOME ", "-uHOME ", "--unset=HOME ", "--unset HOME ", "-C /tmp ", "--chdir=/tmp ", "A=1 ", "-iv ", "--ignore-env ", "-- ")
    .map((opts) => (c: string) => `env ${opts}${c}`),
  fc.constantFrom("-S ", "-S", "--split-string=", "--split-string ", "--split=", "--sp ", "-iS ", "-vS").map((opt) => (c: string) => `env ${opt}${q(c)}`),
  fc
    .constantFrom(
      "sudo ",
      "sudo -u deploy ",
      "nice -n 5 ",
      "timeout 30 ",
      "nohup ",
      "time -p ",
      "command ",
      "exec ",
      "stdbuf -o L ",
      "FOO=1 ",
      "setsid ",
      "setsid -w ",
      "ionice -c 3 ",
      "coproc ",
      "flock /tmp/l ",
      "flock -w 5 /tmp/l ",
      "busybox ",
    )
    .map((prefix) => (c: string) => `${prefix}${c}`),
  fc
    .constantFrom("sh -c ", "bash -lc ", "busybox sh -c ", "flock /tmp/l -c ", "script -qc ", "git submodule foreach --recursive ")
    .map((shell) => (c: string) => `${shell}${q(c)}`),
  fc.constantFrom("find . -maxdepth 0 -exec ", "find . -execdir ").map((find) => (c: string) => `${find}${c} ';'`),
);
const wrapped = (argv: fc.Arbitrary<readonly string[]>) =>
  fc.tuple(argv, fc.array(wrapper, { maxLength: 4 })).map(([a, ws]) => ws.reduce((c, w) => w(c), line(a)));

describe("an outward command behind any wrapper the checker unwraps", () => {
  test("is always caught", () => {
    fc.assert(
      fc.property(wrapped(outward), (l) => {
        expect(writesOutward(l)).toBe(true);
      }),
      { numRuns: 600 },
    );
  });
  test("a harmless command behind the same wrappers is never flagged", () => {
    fc.assert(
      fc.property(wrapped(fc.constantFrom(...HARMLESS)), (l) => {
        expect(writesOutward(l)).toBe(false);
      }),
      { numRuns: 600 },
    );
  });
});

describe("env -S splits its string as a command line, in place", () => {
  test("the reported rows: npm pub, npm publ, npm unpub, env -S 'git push origin main'", () => {
    for (const l of ["npm pub", "npm publ", "npm unpub", 'env -S "git push origin main"', "env --split-string='git push'", "env -S'git push'"]) {
      expect([l, writesOutward(l)]).toEqual([l, true]);
    }
  });
  test("what follows the string is the rest of the command, and the string's own options are env's", () => {
    expect(afterEnv(["env", "-S", "git", "push", "origin"])).toEqual(["git", "push", "origin"]);
    expect(afterEnv(["env", "-S", "-i A=1 -S 'git push'", "x"])).toEqual(["git", "push", "x"]);
    expect(afterEnv(["env", "-S", "echo 'a b' c"])).toEqual(["echo", "a b", "c"]);
    expect(afterEnv(["env", "-uS", "git", "push"])).toEqual(["git", "push"]);
    expect(afterEnv(["env", "-S", ""])).toEqual([]);
    expect(afterEnv(["env", "-S"])).toEqual([]);
  });
  test("a harmless command stays harmless: env -S 'echo git push' only echoes", () => {
    expect(writesOutward("env -S 'echo git push'")).toBe(false);
    expect(writesOutward("env -S 'grep -q \"npm publish\" README.md'")).toBe(false);
  });
  test("a line of 100,000 -S words is read once, not once per word", () => {
    const words = ["env", ...Array.from({ length: 100_000 }, () => "-S '-S '"), "git", "push"];
    expect(afterEnv(words)).toEqual(["git", "push"]);
  });
});

describe("npm's command words are read as npm reads them elsewhere too", () => {
  test("npm rum/urn run a script (opaque); npm tst is a test runner; npm x runs a command", () => {
    expect(runView("npm rum release").opaque).toEqual(["npm rum release"]);
    expect(runView("npm resta").opaque).toEqual(["npm resta"]);
    expect(writesOutward("npm exe gh pr create")).toBe(true);
    expect(writesOutward("npm x -- git push")).toBe(true);
  });
});
