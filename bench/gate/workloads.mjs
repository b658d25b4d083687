// Workloads no shape of run.mjs holds, each of which once cost the gate tens to thousands of
// times its floor (found by timing generated trees and plans; see docs/performance.md, "Workloads
// timed by hand"). Each is generated (deterministic) under BENCH_DIR/workloads, timed against its
// floor (`sha256sum` over the files its rows read, each once, plus `find -type f`; a plan that is
// refused has none), and deleted. Run after a build:
//   node bench/gate/workloads.mjs [name...]
// BENCH_REPS (default 3) timed runs each, the median; BENCH_COMPARE=path/to/bin.cjs times another
// build alternately; BENCH_KEEP=1 keeps the tree and plan. Each build must give the expected exit code.
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { floorCommands, median, timed } from "./timing.mjs";

const REPS = Number(process.env.BENCH_REPS ?? 3);
const WORK = join(process.env.BENCH_DIR ?? "/tmp/decay-bench", "workloads");
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = process.env.BENCH_BIN ?? join(repoRoot, "packages/assumptions/dist/bin.cjs");
const other = process.env.BENCH_COMPARE;

const MIB = 1 << 20;

function put(root, path, content) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

function link(root, path, target) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  symlinkSync(target, join(root, path));
}

// Text of about `bytes` UTF-8 bytes: lines of words drawn from `alphabet`, seeded.
function prose(bytes, alphabet, seed) {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const words = [];
    for (let w = 0; w < 10; w += 1) {
      let word = "";
      for (let k = 2 + Math.floor(next() * 8); k > 0; k -= 1) word += alphabet[Math.floor(next() * alphabet.length)];
      words.push(word);
    }
    const line = `${words.join(" ")}\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return lines.join("");
}

const CYRILLIC = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя";
// Cyrillic letters whose confusable skeleton is not Latin: a `lacks` literal of them is looked
// for in the skeleton of the text too.
const FOREIGN = "вдёжзийклмнптфцчшщыьэюя";

/** Each workload writes its tree under `root` and returns its plan and the files its rows read. */
const WORKLOADS = {
  // Rows reaching ten 1 MiB files through 1,000 links to their directory.
  aliases(root) {
    for (let k = 0; k < 10; k += 1) put(root, `real/f${k}.txt`, `line ${k} of the file\n`.repeat(MIB / 20));
    for (let a = 0; a < 1000; a += 1) link(root, `a${a}`, "real");
    const rows = Array.from(
      { length: 10_000 },
      (_, r) => `${r % 2 ? "contains" : "lacks"}\ta${r % 1000}/f${(r * 7) % 10}.txt\t${r % 2 ? "of the file" : "nowhere"}`,
    );
    return { rows, reads: Array.from({ length: 10 }, (_, k) => `real/f${k}.txt`), exit: 0 };
  },
  // 10,000 literals of 1,000 characters on one 1 MiB file.
  "long-literals"(root) {
    let text = "";
    for (let i = 0; text.length < MIB; i += 1) text += `tok${((i * 2654435761) % 1000003).toString(36)}${i % 12 ? " " : "\n"}`;
    put(root, "big.txt", text);
    const rows = Array.from({ length: 10_000 }, (_, r) => {
      const at = (r * 104729) % (text.length - 1200);
      const literal = text
        .slice(at, at + 1000)
        .replace(/\n/g, " ")
        .trim();
      return r % 2 ? `contains\tbig.txt\t${literal}` : `lacks\tbig.txt\t${literal}Z`;
    });
    return { rows, reads: ["big.txt"], exit: 1 };
  },
  // 2,000 literals aa...ab on 1 MiB of a: every position begins every literal.
  "periodic-literals"(root) {
    put(root, "a.txt", "a".repeat(MIB));
    const rows = Array.from({ length: 2000 }, (_, i) => `lacks\ta.txt\t${"a".repeat(500 + (i % 1000))}b`);
    return { rows, reads: ["a.txt"], exit: 0 };
  },
  // 10,000 absent rows, each in its own directory 9 to 58 levels under a missing one 1,000 deep.
  "deep-missing"(root) {
    const chain = "d/".repeat(1000);
    put(root, `${chain}f.txt`, "x");
    const rows = Array.from({ length: 10_000 }, (_, r) => `absent\t${chain}gone/${`x${r}/`.repeat(9 + (r % 50))}f.txt`);
    return { rows, reads: [], exit: 0 };
  },
  // A 63 MiB file of nothing but CR.
  "cr-file"(root) {
    put(root, "cr.txt", Buffer.alloc(63 * MIB, 13));
    return { rows: [`unchanged\tcr.txt\t${"0".repeat(64)}`, "contains\tcr.txt\tx"], reads: ["cr.txt"], exit: 1 };
  },
  // One Cyrillic lacks literal of 2,000 characters on 1 MB of Cyrillic prose.
  "long-foreign-lacks"(root) {
    put(root, "ru.txt", prose(1_000_000, CYRILLIC, 12345));
    const literal = Array.from({ length: 2000 }, (_, k) => FOREIGN[(k * 7) % FOREIGN.length]).join("");
    return { rows: [`lacks\tru.txt\t${literal}`], reads: ["ru.txt"], exit: 0 };
  },
  // Eight Cyrillic CRLF files of 20 MiB, a contains, a lacks and an unchanged row each.
  "big-files"(root) {
    const text = prose(20 * MIB, CYRILLIC, 777).replaceAll("\n", "\r\n");
    const rows = [];
    for (let k = 0; k < 8; k += 1) {
      put(root, `big${k}.txt`, text);
      rows.push(`contains\tbig${k}.txt\tнет${k}`, `lacks\tbig${k}.txt\t${FOREIGN.slice(0, 6)}${k}`, `unchanged\tbig${k}.txt\t${"0".repeat(64)}`);
    }
    return { rows, reads: Array.from({ length: 8 }, (_, k) => `big${k}.txt`), exit: 1 };
  },
  // 20,000 `lacks` rows of 100-300 characters on one 12 MiB file of prose, every hundredth cut
  // from one of its lines (it diverges): whole literals filled a trie per million units, a pass
  // over the text each.
  "many-long-literals"(root) {
    const text = prose(12 * MIB, "abcdefghijklmnopqrstuvwxyz", 4242);
    put(root, "doc.md", text);
    const lines = text.split("\n");
    let state = 99;
    const next = (n) => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) % n;
    const rows = Array.from({ length: 20_000 }, (_, k) => {
      const length = 100 + next(200);
      if (k % 100 === 0) {
        const line = lines[next(lines.length - 1)];
        return `lacks\tdoc.md\t${line.slice(0, length).trim()}`;
      }
      const words = Array.from({ length: 40 }, () => Array.from({ length: 3 + next(6) }, () => "abcdefghijklmnopqrstuvwxyz"[next(26)]).join(""));
      return `lacks\tdoc.md\tzq ${words.join(" ").slice(0, length).trim()}`;
    });
    return { rows, reads: ["doc.md"], exit: 1 };
  },
  // Two `lacks` rows in Cyrillic on one 20 MiB document of Cyrillic words without ё and й (every
  // letter then an anchor of the skeleton, mapped in place), of letters it holds: its whole
  // confusable skeleton is built, where a third of the letters take a Latin prototype (a rope of a
  // piece per letter held 17 bytes per byte of text).
  "dense-skeleton"(root) {
    put(root, "ru.md", prose(20 * MIB, CYRILLIC.replace(/[ёй]/g, ""), 2024));
    return { rows: [`lacks\tru.md\t${FOREIGN.slice(0, 8)}`, `lacks\tru.md\t${FOREIGN.slice(8, 16)}`], reads: ["ru.md"], exit: 0 };
  },
  // 1,000 chains of 39 file links (l0 -> l1 -> ... -> l38 -> f.txt), rows on every link.
  "link-chains"(root) {
    for (let c = 0; c < 1000; c += 1) {
      put(root, `c${c}/f.txt`, `end ${c}`);
      for (let k = 0; k < 39; k += 1) link(root, `c${c}/l${k}`, k === 38 ? "f.txt" : `l${k + 1}`);
    }
    const rows = Array.from({ length: 10_000 }, (_, r) => `contains\tc${r % 1000}/l${r % 39}\tend`);
    return { rows, reads: Array.from({ length: 1000 }, (_, c) => `c${c}/f.txt`), exit: 0 };
  },
  // A pnpm monorepo of 500 packages: each links five others under node_modules/@scope and three
  // store packages under node_modules; 10,000 rows reach package files through 0 to 3 such links
  // (most plan directories are new to the run, each level through a link).
  "workspace-links"(root) {
    const P = 500;
    const deps = (p) => [1, 2, 3, 5, 8].map((d) => (p + d) % P);
    const body = (p, f) => `export const v${p}_${f} = ${f};\n`.repeat(30);
    for (let s = 0; s < 50; s += 1) put(root, `node_modules/.pnpm/lib-${s}@1.0.0/node_modules/lib-${s}/index.js`, `module.exports = "lib-${s}";\n`);
    for (let p = 0; p < P; p += 1) {
      for (let f = 0; f < 8; f += 1) put(root, `packages/pkg-${p}/src/m${f}.ts`, body(p, f));
      for (const q of deps(p)) link(root, `packages/pkg-${p}/node_modules/@scope/pkg-${q}`, `../../../pkg-${q}`);
      for (let s = 0; s < 3; s += 1) {
        const lib = (p * 7 + s) % 50;
        link(root, `packages/pkg-${p}/node_modules/lib-${lib}`, `../../../node_modules/.pnpm/lib-${lib}@1.0.0/node_modules/lib-${lib}`);
      }
    }
    const rows = [];
    const reads = new Set();
    let state = 11;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let r = 0; r < 10_000; r += 1) {
      let p = Math.floor(next() * P);
      let dir = `packages/pkg-${p}`;
      for (let hops = Math.floor(next() * 4); hops > 0; hops -= 1) {
        const q = deps(p)[Math.floor(next() * 5)];
        dir += `/node_modules/@scope/pkg-${q}`;
        p = q;
      }
      const f = Math.floor(next() * 8);
      const kind = r % 6;
      if (kind === 0) rows.push(`unchanged\t${dir}/src/m${f}.ts\t${createHash("sha256").update(body(p, f)).digest("hex")}`);
      else if (kind === 1) rows.push(`contains\t${dir}/src/m${f}.ts\tv${p}_${f} =`);
      else if (kind === 2) rows.push(`lacks\t${dir}/src/m${f}.ts\trequire(`);
      else if (kind === 3) rows.push(`exists\t${dir}/src/`);
      else if (kind === 4) rows.push(`absent\t${dir}/src/new-${r}.ts`);
      else {
        const lib = (p * 7 + (r % 3)) % 50;
        rows.push(`contains\t${dir}/node_modules/lib-${lib}/index.js\t"lib-${lib}"`);
        reads.add(`node_modules/.pnpm/lib-${lib}@1.0.0/node_modules/lib-${lib}/index.js`);
        continue;
      }
      if (kind <= 2) reads.add(`packages/pkg-${p}/src/m${f}.ts`);
    }
    return { rows, reads: [...reads], exit: 0 };
  },
  // A chain of 20 directories a, with A -> a and Cyrillic а -> a beside each: missing paths.
  "twin-links"(root) {
    put(root, `${"a/".repeat(20)}f.txt`, "x");
    for (let k = 0; k < 20; k += 1) {
      link(root, `${"a/".repeat(k)}A`, "a");
      link(root, `${"a/".repeat(k)}\u0430`, "a");
    }
    const rows = Array.from({ length: 10_000 }, (_, r) => `absent\t${"a/".repeat(20)}missing${r}.txt`);
    return { rows, reads: [], exit: 1 };
  },
  // 40 ASCII logs of 2 MiB, 50 contains rows on each: a request id from a line of the file.
  "log-literals"(root) {
    const rows = [];
    const reads = [];
    for (let f = 0; f < 40; f += 1) {
      const lines = [];
      for (let size = 0, n = 0; size < 2 * MIB; n += 1) {
        const id = ((Math.imul(f * 100_003 + n, 2654435761) >>> 0) * 4096 + n).toString(16).padStart(12, "0").slice(-12);
        const line = `2026-12-05T03:${String(n % 60).padStart(2, "0")}:00Z level=info svc=api${f} req=${id} user=u${n % 977} path=/v1/orders/${n} status=200 took=${n % 300}ms\n`;
        lines.push(line);
        size += line.length;
      }
      put(root, `logs/api${f}/app.log`, lines.join(""));
      reads.push(`logs/api${f}/app.log`);
      for (let k = 0; k < 50; k += 1) {
        const line = lines[Math.floor((((k * 7919 + f) % 1000) / 1000) * lines.length)];
        const literal = k === 49 && f % 10 === 0 ? "req=000000000000 user=" : line.slice(line.indexOf("req="), line.indexOf(" path="));
        rows.push(`contains\tlogs/api${f}/app.log\t${literal}`);
      }
    }
    return { rows, reads, exit: 1 };
  },
  // Rows missing from 20 ASCII directories of 5,000 files: a tenth named in Cyrillic or Greek, so
  // each miss asks those directories for case variants and confusables.
  "foreign-misses"(root) {
    const words = [
      "\u043e\u0431\u0440\u0430\u0431\u043e\u0442\u0447\u0438\u043a",
      "\u03c7\u03b5\u03b9\u03c1\u03b9\u03c3\u03c4\u03ae\u03c2",
      "\u0434\u0430\u043d\u043d\u044b\u0435",
    ];
    for (let d = 0; d < 20; d += 1) for (let k = 0; k < 5000; k += 1) put(root, `h${d}/handler_${k}.go`, `package h${d}\n// ${k}\n`);
    const rows = Array.from({ length: 10_000 }, (_, r) => {
      const dir = `h${Math.floor(r / 10) % 20}`;
      if (r % 10 === 0) return `absent\t${dir}/${words[r % 3]}_${r}.go`;
      if (r % 10 < 6) return `absent\t${dir}/handler_${r}_v2.go`;
      if (r % 10 < 9) return `exists\t${dir}/handler_${r % 5000}.go`;
      return `exists\t${dir}/Handler_${r}.go`;
    });
    return { rows, reads: [], exit: 1 };
  },
  // Twenty files each holding one run of 40,000 combining marks of two classes, alternating (an
  // engine orders such a run in N² steps); contains rows on each and a lacks row whose literal is
  // such a run too.
  "mark-runs"(root) {
    const run = "\u0301\u0316".repeat(20_000);
    const rows = [];
    for (let k = 0; k < 20; k += 1) {
      put(root, `m${k}.txt`, `z${run}\nline ${k}\n`);
      rows.push(`contains\tm${k}.txt\tline ${k}`);
    }
    rows.push(`lacks\tm0.txt\tq${run}`);
    return { rows, reads: Array.from({ length: 20 }, (_, k) => `m${k}.txt`), exit: 0 };
  },
  // 2,000 links 100 directories down, each to a file 100 directories down another branch through
  // a target of 201 components (`../` 100 times, then the path down): a target is walked component
  // by component, so each must cost its own length, not the path's.
  "long-link-targets"(root) {
    const down = "x/".repeat(100);
    for (let k = 0; k < 10; k += 1) put(root, `real/${down}f${k}.txt`, `file ${k}\n`);
    const here = "y/".repeat(100);
    const rows = [];
    for (let k = 0; k < 2000; k += 1) {
      link(root, `${here}l${k}`, `${"../".repeat(100)}real/${down}f${k % 10}.txt`);
      rows.push(`contains\t${here}l${k}\tfile ${k % 10}`);
    }
    return { rows, reads: Array.from({ length: 10 }, (_, k) => `real/${down}f${k}.txt`), exit: 0 };
  },
  // `a/` and `A/` at each of 8 levels (256 leaf directories of 50 files); 10,000 rows under the
  // all-lower-case path, half `exists` of files there, half `absent` of files no spelling holds:
  // each of those is a case variant (the directories' other spellings), found by looking in
  // every leaf, which must not cost a walk of all 511 directories for every row.
  "twin-levels"(root) {
    let dirs = [""];
    for (let level = 0; level < 8; level += 1) dirs = dirs.flatMap((d) => [`${d}a/`, `${d}A/`]);
    for (const d of dirs) for (let k = 0; k < 50; k += 1) put(root, `${d}f${k}.txt`, `${d}${k}\n`);
    const path = "a/".repeat(8);
    const rows = Array.from({ length: 10_000 }, (_, r) => (r % 2 ? `absent\t${path}new${r}.txt` : `exists\t${path}f${r % 50}.txt`));
    return { rows, reads: [], exit: 1 };
  },
  // One directory of 8,000 files and 2,048 of the 4,096 case spellings of `abcdefghijkl.md`;
  // 10,000 rows, 4,000 of them `absent` of a spelling not on disk: each is a case variant (the
  // first spelling there), which must not cost a look at all 2,048 for every row.
  "case-crowd"(root) {
    for (let k = 0; k < 8000; k += 1) put(root, `big/file${k}.ts`, `f${k}\n`);
    const spell = (mask) => [..."abcdefghijkl"].map((c, i) => ((mask >> i) & 1 ? c.toUpperCase() : c)).join("");
    for (let mask = 0; mask < 4096; mask += 2) put(root, `big/${spell(mask)}.md`, `${mask}\n`);
    const rows = Array.from({ length: 10_000 }, (_, r) =>
      r % 5 < 2 ? `absent\tbig/${spell((r * 2 + 1) % 4096)}.md` : `exists\tbig/${r % 2 ? `file${r % 8000}.ts` : `${spell((r * 2) % 4096)}.md`}`,
    );
    return { rows, reads: [], exit: 1 };
  },
  // The same crowd in look-alike letters: 2,048 spellings of `coppaceoxype.md` with some of its
  // c, o, p, a, e, x, y in Cyrillic; 4,000 `absent` rows of the all-Latin spelling (each a
  // confusable variant), 6,000 `exists` rows that hold.
  "confusable-crowd"(root) {
    for (let k = 0; k < 8000; k += 1) put(root, `big/file${k}.ts`, `f${k}\n`);
    const cyrillic = { c: "\u0441", o: "\u043e", p: "\u0440", a: "\u0430", e: "\u0435", x: "\u0445", y: "\u0443" };
    const spell = (mask) => [..."coppaceoxype"].map((c, i) => ((mask >> i) & 1 ? cyrillic[c] : c)).join("");
    for (let mask = 1; mask <= 2048; mask += 1) put(root, `big/${spell(mask)}.md`, `${mask}\n`);
    const rows = Array.from({ length: 10_000 }, (_, r) => (r % 5 < 2 ? "absent\tbig/coppaceoxype.md" : `exists\tbig/file${r % 8000}.ts`));
    return { rows, reads: [], exit: 1 };
  },
  // The same crowd as directories, 1,024 of them, each holding a few files: rows name new files
  // under the all-Latin spelling, so each is looked for in every spelling of the directory.
  "confusable-dirs"(root) {
    const cyrillic = { c: "\u0441", o: "\u043e", p: "\u0440", a: "\u0430", e: "\u0435", x: "\u0445", y: "\u0443" };
    const spell = (mask) => [..."coppaceoxype"].map((c, i) => ((mask >> i) & 1 ? cyrillic[c] : c)).join("");
    for (let mask = 1; mask <= 1024; mask += 1) for (let k = 0; k < 4; k += 1) put(root, `big/${spell(mask)}/m${mask % 7}-${k}.md`, `${mask}\n`);
    for (let k = 0; k < 2000; k += 1) put(root, `big/other/file${k}.ts`, `f${k}\n`);
    const rows = Array.from({ length: 10_000 }, (_, r) =>
      r % 5 < 2
        ? `absent\tbig/coppaceoxype/new${r}.md`
        : r % 5 === 2
          ? `absent\tbig/coppaceoxype/m${r % 7}-${r % 4}.md`
          : `exists\tbig/other/file${r % 2000}.ts`,
    );
    return { rows, reads: [], exit: 1 };
  },
  // 2,048 case spellings of one directory: one holds `sub/` and its 100 files, the others a file
  // of their own and no `sub/`. Rows of new files under `sub/` pass every spelling on the way,
  // each of which leads nowhere.
  "end-crowd"(root) {
    const spell = (mask) => [..."abcdefghijkl"].map((c, i) => ((mask >> i) & 1 ? c.toUpperCase() : c)).join("");
    for (let k = 0; k < 100; k += 1) put(root, `${spell(0)}/sub/f${k}.md`, `${k}\n`);
    for (let mask = 1; mask < 2048; mask += 1) put(root, `${spell(mask)}/x`, `${mask}\n`);
    const rows = Array.from({ length: 10_000 }, (_, r) => (r % 2 ? `absent\t${spell(0)}/sub/new${r}.md` : `exists\t${spell(0)}/sub/f${r % 100}.md`));
    return { rows, reads: [], exit: 1 };
  },
  // Four directories of 25,000 names, four in five of them not ASCII (Japanese, Cyrillic, Greek,
  // accented Latin, some in NFD), 10,000 rows of every kind; a row that misses asks its directory
  // for case variants and confusables, so each directory's names are folded and keyed once.
  "foreign-dirs"(root) {
    const words = [
      "\u30c7\u30fc\u30bf",
      "\u8a2d\u5b9a",
      "\u0434\u0430\u043d\u043d\u044b\u0435",
      "\u043e\u0442\u0447\u0435\u0442",
      "\u03b1\u03c1\u03c7\u03b5\u03af\u03bf",
      "r\u00e9sum\u00e9",
      "se\u00f1or",
      "notes",
    ];
    const name = (k) => {
      const word = words[k % words.length];
      return `${k % 3 === 0 ? word.normalize("NFD") : word}-${k}.txt`;
    };
    const reads = [];
    const rows = [];
    for (let d = 0; d < 4; d += 1) for (let k = 0; k < 25_000; k += 1) put(root, `d${d}/${name(k)}`, `file ${k}\n`);
    for (let r = 0; r < 10_000; r += 1) {
      const k = (r * 7919) % 25_000;
      const path = `d${r % 4}/${name(k).normalize("NFC")}`;
      if (r % 5 === 0) rows.push(`absent\t${path.replace(".txt", `-new${r}.txt`)}`);
      else if (r % 5 === 1) rows.push(`exists\t${path}`);
      else if (r % 5 === 2) {
        rows.push(`contains\t${path}\tfile ${k}`);
        reads.push(`d${r % 4}/${name(k)}`);
      } else if (r % 5 === 3) {
        rows.push(`lacks\t${path}\tnowhere`);
        reads.push(`d${r % 4}/${name(k)}`);
      } else rows.push(`absent\t${path.replace(".txt", ".md")}`);
    }
    return { rows, reads, exit: 0 };
  },
  // A 60 MiB plan of one line, not UTF-8 at its end: refused.
  // `plan-decay author` with thousands of repeated flags: each repeat copied the list so far
  // (40,000 --creates took 13 s). 2,000 files read, 20,000 new paths.
  "author-many"(root) {
    const reads = [];
    for (let i = 0; i < 2_000; i += 1) {
      const path = `src/m${i % 50}/r${i}.ts`;
      mkdirSync(join(root, `src/m${i % 50}`), { recursive: true });
      writeFileSync(join(root, path), `export const r${i} = ${i};\n`);
      reads.push(path);
    }
    const creates = Array.from({ length: 20_000 }, (_, i) => `gen/g${i % 100}/c${i}.ts`);
    const argv = ["author", "--root", root, ...reads.flatMap((p) => ["--reads", p]), ...creates.flatMap((p) => ["--creates", p])];
    return { argv, reads, exit: 0 };
  },
  "bad-plan"() {
    const bytes = Buffer.alloc(60 * MIB, 0x78);
    bytes.write("exists\t", 0);
    bytes[bytes.length - 2] = 0xff;
    bytes[bytes.length - 1] = 0x0a;
    return { planBytes: bytes, reads: [], exit: 2 };
  },
};

function runOne(name) {
  const dir = join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  const root = join(dir, "tree");
  mkdirSync(root, { recursive: true });
  const made = WORKLOADS[name](root);
  const plan = join(dir, "plan.tsv");
  writeFileSync(plan, made.planBytes ?? `${(made.rows ?? []).join("\n")}\n`);
  const list = join(dir, "reads.list");
  writeFileSync(list, [...new Set(made.reads)].map((p) => `${p}\0`).join(""));
  const builds = [bin, ...(other ? [other] : [])];
  const gate = builds.map(() => ({ ms: [], rss: [] }));
  const floor = [];
  for (let rep = 0; rep <= REPS; rep += 1) {
    builds.forEach((b, k) => {
      const r = timed(process.execPath, [b, ...(made.argv ?? ["--root", root, plan])], repoRoot);
      if (r.status !== made.exit) throw new Error(`${name}: ${b} exited ${r.status}, expected ${made.exit}: ${r.stderr.slice(0, 300)}`);
      if (rep > 0) {
        gate[k].ms.push(r.ms);
        gate[k].rss.push(r.rssMb);
      }
    });
    const half = floorCommands(root, list);
    const sha = made.reads.length > 0 ? half.sha().ms : 0;
    const find = half.find().ms;
    if (rep > 0) floor.push(sha + find);
  }
  if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
  const f = median(floor);
  const cells = gate.map(
    (g) =>
      `${median(g.ms).toFixed(0).padStart(7)} ms ${(median(g.ms) / f).toFixed(1).padStart(7)}x ${Math.max(...g.rss)
        .toFixed(0)
        .padStart(5)} MiB`,
  );
  console.log(`${name.padEnd(20)} ${f.toFixed(0).padStart(6)} ms   ${cells.join("   |   ")}`);
}

const names = process.argv.slice(2);
for (const name of names) if (!(name in WORKLOADS)) throw new Error(`unknown workload ${name}; known: ${Object.keys(WORKLOADS).join(" ")}`);
console.log(`node ${process.version}; median of ${REPS} after one warm-up; exit codes checked`);
console.log(`${"workload".padEnd(20)}  floor      gate (ms, ratio to floor, peak RSS)${other ? "   |   BENCH_COMPARE build" : ""}`);
for (const name of names.length > 0 ? names : Object.keys(WORKLOADS)) runOne(name);
