// The system programs the test suite drives, checked before it starts: Chromium for the browser
// smoke (playwright-core never downloads a browser) and the PostgreSQL server binaries for the
// DBOS fleet tests. Missing ones are installed from Debian's packages when this runs as root on a
// machine with apt-get; otherwise the suite stops here, naming what to install.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const onPath = (name) => spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;

const postgresBin = () =>
  (onPath("initdb") && onPath("pg_ctl")) ||
  (existsSync("/usr/lib/postgresql") && readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/pg_ctl`)));

const needed = [
  { what: "Chromium (the browser smoke)", present: () => onPath("chromium") || process.env.CHROMIUM_PATH !== undefined, debian: "chromium" },
  { what: "the PostgreSQL server (the DBOS fleet tests)", present: postgresBin, debian: "postgresql" },
].filter((n) => !n.present());

if (needed.length > 0) {
  const packages = needed.map((n) => n.debian);
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root || !onPath("apt-get")) {
    console.error(
      `the test suite needs ${needed.map((n) => n.what).join(" and ")}: install the Debian packages ${packages.join(" ")} (apt-get install -y ${packages.join(" ")})`,
    );
    process.exit(2);
  }
  console.error(`installing ${packages.join(" ")} from Debian's packages for the test suite`);
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}
