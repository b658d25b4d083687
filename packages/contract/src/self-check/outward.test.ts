import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { runView } from "./commands.js";
import { outwardWrite } from "./outward.js";

const writesOutward = (line: string) => runView(line).commands.some((c) => outwardWrite(c) !== null);

const OUTWARD_CASES = [
  ["git", "push", "origin", "main"],
  ["git", "push"],
  ["npm", "publish"],
  ["pnpm", "publish", "--no-git-checks"],
  ["yarn", "npm", "publish"],
  ["yarn", "workspace", "app", "npm", "publish"],
  ["yarn", "workspaces", "foreach", "-A", "--include", "app", "npm", "publish"],
  ["gh", "pr", "create", "--fill"],
  ["gh", "pr", "merge", "12"],
  ["gh", "release", "create", "v1.0.0"],
  ["docker", "push", "registry.example/app:1"],
  ["kubectl", "apply", "-f", "deploy.yaml"],
  ["kubectl", "-n", "prod", "delete", "pod", "web-1"],
  ["kubectl", "create", "namespace", "x"],
  ["terraform", "apply", "-auto-approve"],
  ["terraform", "destroy"],
  ["curl", "-X", "POST", "https://example.test/hook"],
  ["curl", "-sS", "--data", "a=1", "https://example.test"],
  ["curl", "-XPUT", "https://example.test/x"],
  ["curl", "-F", "file=@a.txt", "https://example.test/up"],
  ["curl", "--request", "GET", "--data", "a=1", "https://example.test"],
  ["curl", "--request=HEAD", "-d", "a=1", "https://example.test"],
  ["wget", "--post-data=a=1", "https://example.test"],
  ["wget", "--method=DELETE", "https://example.test/x"],
];
const READ_CASES = [
  ["git", "status"],
  ["git", "log", "--oneline", "-1"],
  ["npm", "test"],
  ["pnpm", "vitest", "run"],
  ["gh", "pr", "view", "12"],
  ["docker", "build", "-t", "app", "."],
  ["kubectl", "get", "pods", "-n", "prod"],
  ["terraform", "plan"],
  ["curl", "-sS", "https://example.test/health"],
  ["curl", "-X", "GET", "https://example.test"],
  ["curl", "--request", "GET", "-o", "out.json", "https://example.test"],
  ["wget", "-q", "-O", "-", "https://example.test"],
  ["echo", "git push"],
  ["grep", "-q", "npm publish", "README.md"],
  ["time", "-p", "pnpm", "test"],
  ["command", "-v", "git"],
  ["constructor", "push"],
  ["hasOwnProperty", "-x", "y"],
];

describe("outward writes, by example", () => {
  test.each(OUTWARD_CASES.map((c) => [c.join(" ")]))("%s writes outward", (line) => {
    expect(writesOutward(line)).toBe(true);
  });
  test.each(READ_CASES.map((c) => [c.join(" ")]))("%s only reads", (line) => {
    expect(writesOutward(line)).toBe(false);
  });
  test("seen behind git -C, sudo, env, assignments, sh -c, bash -c and every chaining operator", () => {
    for (const line of [
      "git -C ../other push",
      'git -C "dir with space" -c user.name=x push origin',
      "sudo -u deploy npm publish",
      "command -p git push",
      "command -p npm publish",
      "time -p git push",
      "time -f %e git push",
      "exec -a x git push",
      "command git push",
      "env -i HOME=/tmp npm publish",
      "NPM_TOKEN=x pnpm publish",
      "sh -c 'git push'",
      "bash -o pipefail -c 'git push'",
      "npx gh pr create --fill",
      "npx -y -p @scope/cli gh release create v1",
      "pnpm --filter app exec gh pr merge 1",
      "npm exec -- gh pr create",
      "pnpm dlx wrangler x && bunx docker push x",
      "yarn dlx -p x gh pr create",
      "npx -c 'git push'",
      "bash -eo pipefail -c 'git push'",
      "sh +o errexit -c 'npm publish'",
      'bash -lc "cd x && gh pr create --fill"',
      "sh -c \"bash -c 'docker push img'\"",
      "pnpm test && git push",
      "pnpm test || git push",
      "pnpm test; git push",
      "cat notes | curl -d @- https://example.test",
      "(cd sub && git push)",
      "/usr/bin/git push",
      "pnpm test > out.log 2>&1 && git push",
      "git push >/dev/null 2>&1",
      "if true; then git push; fi",
      'echo "$(git push origin main)"',
      "test $(npm publish | wc -l) -eq 0",
      "x=`gh release create v1`",
    ]) {
      expect(writesOutward(line), line).toBe(true);
    }
  });
  test("the commands of $(…) and backquotes are seen, in the order they run, and stay opaque", () => {
    const view = runView('cd web && test "$(npm test 2>&1 | tail -1)" = ok && echo `date`');
    expect(view.commands).toEqual([
      ["cd", "web"],
      ["npm", "test"],
      ["tail", "-1"],
      ["test", "$(npm test 2>&1 | tail -1)", "=", "ok"],
      ["date"],
      ["echo", "`…`"],
    ]);
    expect(view.opaque).toEqual(["$(…)", "`…`"]);
    // Each substitution is a script of its own, whose parent is the line.
    expect(view.scopes).toEqual([0, 1, 1, 0, 2, 0]);
    expect(view.parents).toEqual([-1, 0, 0]);
  });
  test("a word of a million characters is read whole, and a short word of digits still leads a redirect", () => {
    const word = "a1".repeat(500_000);
    expect(runView(`echo ${word}`).commands).toEqual([["echo", word]]);
    expect(runView("git push 2>/dev/null").commands).toEqual([["git", "push"]]);
  });
  test("a redirect operator ends the word before it wherever it stands, as sh reads it", () => {
    expect(runView("git push>/dev/null 2>&1 && echo ok").commands).toEqual([
      ["git", "push"],
      ["echo", "ok"],
    ]);
    expect(runView("npm publish>publish.log").commands).toEqual([["npm", "publish"]]);
    expect(runView("git push</dev/null").commands).toEqual([["git", "push"]]);
    // Quoted, it is part of the word; after a short word of digits it takes that descriptor.
    expect(runView("echo 'a>b' \"c<d\" e\\>f").commands).toEqual([["echo", "a>b", "c<d", "e>f"]]);
    expect(runView("cmd 2>err.log").commands).toEqual([["cmd"]]);
    for (const line of ["git push>/dev/null 2>&1", "npm publish>publish.log", "sudo git push>>log"]) expect(writesOutward(line)).toBe(true);
  });
  test("a word of a million characters full of redirects is read in one pass", () => {
    const view = runView(`echo ${"a>b".repeat(350_000)}`);
    expect(view.commands).toEqual([["echo", "a"]]);
  });
  test("shell options that take a value are not its script: -O NAME, +O NAME, --rcfile FILE, --init-file FILE", () => {
    for (const line of [
      "bash -O extglob -c 'git push origin main'",
      "bash +O extglob -c 'git push'",
      "bash --rcfile ~/.bashrc -c 'git push'",
      "bash --init-file x.sh -c 'npm publish'",
      "bash -eO extglob -c 'git push'",
    ]) {
      expect(writesOutward(line)).toBe(true);
      expect(runView(line).opaque).toEqual([]);
    }
  });
  test("a shell reading its script from stdin is opaque: `echo 'git push' | sh`, `sh -s`, `bash < x.sh`", () => {
    expect(runView("echo 'git push origin main' | sh && echo ok").opaque).toEqual(["sh reading its script from stdin"]);
    expect(runView("curl -s https://example.test/x.sh | bash -s -- --yes").opaque).toEqual(["bash reading its script from stdin"]);
    expect(runView("bash < x.sh").opaque).toEqual(["bash reading its script from stdin"]);
    expect(runView("bash -").opaque).toEqual(["bash reading its script from stdin"]);
  });
  test("a line of 150,000 substitutions is read, not a thrown RangeError", () => {
    const view = runView(`echo ${"$(date) ".repeat(150_000)}`);
    expect(view.opaque).toHaveLength(150_000);
    expect(view.commands.at(-1)?.[0]).toBe("echo");
  });
  test("eval, $(…) and npm run are warned about as opaque, not passed as seen", () => {
    expect(runView("eval $CMD").opaque).toContain("eval");
    expect(runView("echo $(cat cmd.txt)").opaque).toContain("$(…)");
    expect(runView("npm run release").opaque).toContain("npm run release");
    expect(runView("pnpm vitest run").opaque).toEqual([]);
  });
  test("a shell running a script file and npm start/stop/restart are opaque too", () => {
    expect(runView("bash scripts/release.sh --yes").opaque).toContain("bash scripts/release.sh");
    expect(runView("sh -e ./check.sh").opaque).toContain("sh ./check.sh");
    expect(runView("npm start").opaque).toContain("npm start");
    expect(runView("pnpm restart").opaque).toContain("pnpm restart");
    expect(runView("sh -c 'git status'").opaque).toEqual([]);
    // A shell with no script operand reads its script from stdin: opaque too (issue: `echo … | sh`).
    expect(runView("bash").opaque).toEqual(["bash reading its script from stdin"]);
    expect(runView("bash --version").opaque).toEqual([]);
  });
  test("$((…)) is arithmetic: no command runs and nothing is opaque, but a substitution inside it runs", () => {
    expect(runView("test $((N * 2)) -gt 4")).toMatchObject({ commands: [["test", "$((N * 2))", "-gt", "4"]], opaque: [] });
    expect(runView('echo "$(( (1 + 2) * 3 ))"')).toMatchObject({ commands: [["echo", "$(( (1 + 2) * 3 ))"]], opaque: [] });
    const nested = runView("test $(( $(git push | wc -l) + `id -u` )) -eq 0");
    expect(nested.commands).toEqual([
      ["git", "push"],
      ["wc", "-l"],
      ["id", "-u"],
      ["test", "$(( $(git push | wc -l) + `id -u` ))", "-eq", "0"],
    ]);
    expect(nested.opaque).toEqual(["$(…)", "`…`"]);
    expect(writesOutward("echo $(( $(git push; echo 1) ))")).toBe(true);
  });
  test("arithmetic nested 100,000 deep is read once per level it looks into, and what lies past them is opaque", () => {
    const line = `echo ${"$((".repeat(100_000)}1${"))".repeat(100_000)}`;
    const view = runView(line);
    expect(view.commands).toEqual([["echo", line.slice(5)]]);
    expect(view.opaque).toEqual(["$((…))"]);
  });
  test("$(( that does not close as one pair is a command substitution of a subshell", () => {
    const view = runView("x=$((cd web; git push) )");
    expect(view.commands).toEqual([
      ["cd", "web"],
      ["git", "push"],
    ]);
    expect(view.opaque).toEqual(["$(…)"]);
    expect(runView("echo $((a) + (b))").opaque).toEqual(["$(…)"]);
  });
  test("a line that is not shell never throws", () => {
    fc.assert(fc.property(fc.string(), (s) => void runView(s)));
  });
});

const quoteWord = (w: string, style: number): string => {
  if (style === 1 || /[\s'"\\$`]/.test(w)) return `'${w.replace(/'/g, "'\\''")}'`;
  if (style === 2) return `"${w.replace(/["\\$`]/g, "\\$&")}"`;
  if (style === 3 && w.length > 1) return `${w[0]}"${w.slice(1)}"`;
  if (style === 4 && /^[a-z]/.test(w)) return `\\${w}`;
  return w;
};
const wrapScript = (line: string, style: number): string =>
  style === 1 ? `sh -c '${line.replace(/'/g, "'\\''")}'` : style === 2 ? `bash -c "${line.replace(/["\\$`]/g, "\\$&")}"` : line;

const variant = (argv: string[]) =>
  fc
    .record({
      quotes: fc.array(fc.nat(4), { minLength: argv.length + 2, maxLength: argv.length + 2 }),
      gaps: fc.array(fc.constantFrom(" ", "  ", "\t", " \t "), { minLength: argv.length + 2, maxLength: argv.length + 2 }),
      prefix: fc.constantFrom("", "FOO=1 ", "env A=b ", "sudo ", "sudo -u deploy ", "timeout 30 ", "env -- "),
      gitC: fc.boolean(),
      before: fc.constantFrom("", "pnpm build && ", "true || ", "cd web; ", "cat a | "),
      after: fc.constantFrom("", " && echo done", " ; ls", " | tee out.txt", " || true"),
      wrap: fc.nat(2),
    })
    .map((v) => {
      const words = argv[0] === "git" && v.gitC ? ["git", "-C", "sub dir", ...argv.slice(1)] : argv;
      const body = words.map((w, k) => `${k === 0 ? "" : (v.gaps[k] ?? " ")}${quoteWord(w, v.quotes[k] ?? 0)}`).join("");
      return wrapScript(`${v.before}${v.prefix}${body}${v.after}`, v.wrap);
    });

describe("outward detection holds under whitespace, quoting and chaining variations", () => {
  test("every outward command is still found", () => {
    fc.assert(
      fc.property(fc.constantFrom(...OUTWARD_CASES).chain(variant), (line) => {
        expect(writesOutward(line)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
  test("no reading command is mistaken for an outward write", () => {
    fc.assert(
      fc.property(fc.constantFrom(...READ_CASES).chain(variant), (line) => {
        expect(writesOutward(line)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});

// npm's commands that write to the registry, by every name npm 11 takes for them (npm 11.19's
// lib/commands/*.js: access, token, team, org, profile, trust, stage dispatch on these words), and
// the subcommands of the same commands that only read.
const NPM_WRITES = [
  "npm publish",
  "npm unpublish pkg@1.0.0",
  "npm deprecate pkg@1 'use pkg2'",
  "npm undeprecate pkg@1",
  "npm dist-tag add pkg@1.2.0 beta",
  "npm dist-tag rm pkg beta",
  "npm dist-tags set pkg@1 next",
  "npm owner add bob pkg",
  "npm owner rm bob pkg",
  "npm author remove bob pkg",
  "npm access grant read-write @org:devs pkg",
  "npm access revoke @org:devs pkg",
  "npm access set status=public pkg",
  "npm access set mfa=none",
  "npm access public pkg",
  "npm access restricted pkg",
  "npm access 2fa-required pkg",
  "npm access 2fa-not-required pkg",
  "npm token create --read-only",
  "npm token revoke 1a2b3c",
  "npm token rm 1a2b3c",
  "npm token delete 1a2b3c",
  "npm token remove 1a2b3c",
  "npm team create @org:devs",
  "npm team destroy @org:devs",
  "npm team add @org:devs bob",
  "npm team rm @org:devs bob",
  "npm org set myorg bob developer",
  "npm org add myorg bob",
  "npm org rm myorg bob",
  "npm profile set email a@example.test",
  "npm profile enable-2fa auth-only",
  "npm profile enable2fa",
  "npm profile disable-tfa",
  "npm star pkg",
  "npm unstar pkg",
  "npm trust github pkg --file release.yml --repo o/r",
  "npm trust gitlab pkg --file .gitlab-ci.yml --project g/p",
  "npm trust circleci pkg --org-id x",
  "npm trust revoke pkg --id 1",
  "npm stage publish",
  "npm stage approve pkg@1",
  "npm stage reject pkg@1",
  // A unique prefix of a command, or an alias, names it.
  "npm acc grant read-only @org:devs",
  "npm tok create",
  "npm tea destroy @org:devs",
  "npm unst pkg",
  "npm undep pkg@1",
  "npm tru revoke pkg",
  "npm stag publish",
  "npm ogr rm myorg bob",
  "npm prof set fullname x",
  "npm --otp 123456 access grant read-only @org:devs pkg",
  // Logging in or out writes credentials to the registry session (a token made or revoked there).
  "npm login",
  "npm login --scope=@org --registry=https://registry.example.test",
  "npm adduser",
  "npm add-user",
  "npm logout",
  "npm logi",
  "npm logo --scope=@org",
];
const NPM_READS = [
  "npm access list packages @org",
  "npm access list collaborators pkg",
  "npm access get status pkg",
  "npm token",
  "npm token list",
  "npm token ls",
  "npm team ls @org",
  "npm team ls @org:devs",
  "npm stars",
  "npm stars bob",
  "npm owner ls pkg",
  "npm owner list pkg",
  "npm dist-tag ls pkg",
  "npm org ls myorg",
  "npm profile get",
  "npm trust list pkg",
  "npm stage list",
  "npm stage view pkg@1",
  "npm stage download pkg@1",
  "npm view pkg",
  // `sta` is a prefix of star, stars, start and stage: npm names none.
  "npm sta pkg",
  // `log` is a prefix of login and logout: npm names neither; whoami only reads the session.
  "npm log",
  "npm whoami",
];

/** A package manager's registry writes are found, by the names it takes, behind wrappers, quoting and chaining; its reading forms never are. */
function registryWrites(tool: string, writes: string[], reads: string[], named: [string, string][]) {
  describe(`${tool}'s registry writes`, () => {
    test.each(writes.map((l) => [l]))("%s writes outward", (line) => {
      expect(writesOutward(line)).toBe(true);
    });
    test.each(reads.map((l) => [l]))("%s only reads", (line) => {
      expect(writesOutward(line)).toBe(false);
    });
    test("each is named by its canonical command and subcommand", () => {
      const what = (line: string) =>
        runView(line)
          .commands.map(outwardWrite)
          .find((w) => w !== null);
      for (const [line, name] of named) expect([line, what(line)]).toEqual([line, name]);
    });
    const words = (line: string) => line.split(" ").map((w) => w.replace(/^'(.*)'$/, "$1"));
    test("found behind wrappers, quoting and chaining; the reading ones never are", () => {
      for (const [lines, write] of [
        [writes, true],
        [reads, false],
      ] as const) {
        fc.assert(
          fc.property(
            fc
              .constantFrom(...lines)
              .map(words)
              .chain(variant),
            (l) => {
              expect(writesOutward(l), l).toBe(write);
            },
          ),
          { numRuns: 300 },
        );
      }
    });
  });
}

registryWrites("npm", NPM_WRITES, NPM_READS, [
  ["npm tok rm 1a2b3c", "npm token revoke"],
  ["npm ogr add myorg bob", "npm org set"],
  ["npm profile disabletfa", "npm profile disable-2fa"],
  ["npm unst pkg", "npm unstar"],
  ["npm add-user", "npm adduser"],
  ["npm logi", "npm login"],
]);

// pnpm 11 and 12 run the registry commands themselves (no more passing them to npm): the forms
// that write, by the names pnpm takes for them (`owners`, `adduser`, `token rm|delete|remove`),
// and the forms of the same commands that only read.
const PNPM_WRITES = [
  "pnpm publish",
  "pnpm unpublish pkg@1.0.0",
  "pnpm deprecate pkg@1 'use pkg2'",
  "pnpm undeprecate pkg@1",
  "pnpm dist-tag add pkg@1.2.0 beta",
  "pnpm dist-tags rm pkg beta",
  "pnpm owner add pkg bob",
  "pnpm owners rm pkg bob",
  "pnpm access set status=public @org/pkg",
  "pnpm access set mfa=none @org/pkg",
  "pnpm access grant read-write @org:devs @org/pkg",
  "pnpm access revoke @org:devs @org/pkg",
  "pnpm star pkg",
  "pnpm unstar pkg",
  "pnpm team create @org:devs",
  "pnpm team destroy @org:devs",
  "pnpm team add @org:devs alice",
  "pnpm team rm @org:devs alice",
  "pnpm stage publish",
  "pnpm stage publish -r --tag next",
  "pnpm stage approve",
  "pnpm stage approve 1a2b 3c4d --otp 123456",
  "pnpm stage reject 1a2b",
  "pnpm login",
  "pnpm adduser --scope @org",
  "pnpm logout --registry https://registry.example.test",
  "pnpm token create --read-only",
  "pnpm token revoke 1a2b",
  "pnpm token rm 1a2b",
  "pnpm token delete 1a2b",
  "pnpm token remove 1a2b",
  "pnpm --filter app --otp 123456 access grant read-only @org:devs @org/pkg",
  // pnpm.io documents `pnpm profile` writing the registry profile (pnpm 12.4.2 answers "not implemented").
  "pnpm profile set fullname x",
  "pnpm profile set password",
  "pnpm profile enable-2fa auth-only",
  "pnpm profile disable-2fa",
];
const PNPM_READS = [
  "pnpm access list packages @org",
  "pnpm access list collaborators @org/pkg",
  "pnpm access ls",
  "pnpm access get status @org/pkg",
  "pnpm team ls @org",
  "pnpm team list @org:devs",
  "pnpm team @org",
  "pnpm stars",
  "pnpm stars alice",
  "pnpm stage list",
  "pnpm stage view 1a2b",
  "pnpm stage download 1a2b",
  "pnpm token",
  "pnpm token list",
  "pnpm token ls",
  "pnpm owner ls pkg",
  "pnpm owners list pkg",
  "pnpm dist-tag ls pkg",
  "pnpm whoami",
  "pnpm view pkg",
  "pnpm profile get",
  "pnpm profile get email",
  // pnpm has no org or trust command: it looks for a script or a binary of that name instead.
  "pnpm org ls myorg",
  "pnpm trust list pkg",
];

registryWrites("pnpm", PNPM_WRITES, PNPM_READS, [
  ["pnpm token delete 1a2b", "pnpm token revoke"],
  ["pnpm owners add pkg bob", "pnpm owner add"],
  ["pnpm adduser", "pnpm login"],
  ["pnpm profile set email a@example.test", "pnpm profile set"],
]);

// yarn: Berry's `npm` commands (`yarn npm login` makes a token on the registry) and Classic's own
// registry commands (`owner`, `tag`, `team`, each by `rm` and `remove`); the forms that only read.
const YARN_WRITES = [
  "yarn publish",
  "yarn npm publish --access public",
  "yarn unpublish pkg",
  "yarn npm tag add pkg@1.2.0 beta",
  "yarn npm tag remove pkg beta",
  "yarn npm login",
  "yarn npm login --scope org",
  "yarn owner add bob pkg",
  "yarn owner rm bob pkg",
  "yarn owner remove bob pkg",
  "yarn tag add pkg@1.2.0 beta",
  "yarn tag rm pkg beta",
  "yarn tag remove pkg beta",
  "yarn team create @org:devs",
  "yarn team destroy @org:devs",
  "yarn team add @org:devs bob",
  "yarn team rm @org:devs bob",
  "yarn team remove @org:devs bob",
  "yarn workspace app npm login --publish",
];
const YARN_READS = [
  "yarn npm whoami",
  "yarn npm info pkg",
  "yarn npm tag list pkg",
  "yarn npm audit",
  // Only the local configuration changes: Berry's logout drops the stored token, Classic's login stores a name.
  "yarn npm logout",
  "yarn login",
  "yarn logout",
  "yarn owner list pkg",
  "yarn owner ls pkg",
  "yarn tag list pkg",
  "yarn tag ls pkg",
  "yarn team list @org",
  "yarn team ls @org:devs",
  "yarn info pkg",
  "yarn add pkg",
];

registryWrites("yarn", YARN_WRITES, YARN_READS, [
  ["yarn npm login", "yarn npm login"],
  ["yarn owner remove bob pkg", "yarn owner remove"],
  ["yarn team rm @org:devs bob", "yarn team rm"],
]);
