// The rows of a benchmark plan over a generated tree: all five kinds, about 1% of each planted to
// diverge, and the list of files any row must read (the floor hashes each once). What holds and
// what diverges is decided here, from the generator's own knowledge of the tree.
import { shuffle } from "./content.mjs";

/** Row shares by kind; absent-heavy plans are 60% `absent`. */
export const MIXES = {
  standard: { unchanged: 0.35, exists: 0.2, absent: 0.15, contains: 0.15, lacks: 0.15 },
  absentHeavy: { unchanged: 0.1, exists: 0.1, absent: 0.6, contains: 0.1, lacks: 0.1 },
};

const ZERO = "0".repeat(64);

/**
 * Picks files without replacement, in a seeded order; `bigShare` of the picks come from files
 * marked `big` (the huge directories) while any are left. `accept` filters the candidates.
 */
function picker(files, rnd, bigShare) {
  const big = shuffle(
    files.filter((f) => f.big),
    rnd,
  );
  const rest = shuffle(
    files.filter((f) => !f.big),
    rnd,
  );
  const take = (accept = () => true) => {
    for (;;) {
      const fromBig = big.length > 0 && (rest.length === 0 || rnd() < bigShare);
      const queue = fromBig ? big : rest;
      const f = queue.pop();
      if (f === undefined) throw new Error("the tree has too few files for this many rows");
      if (accept(f)) return f;
    }
  };
  // Any file, with replacement (big ones at the same share): rows that need only a directory or
  // a present path.
  const bigAll = [...big];
  const restAll = [...rest];
  const any = () => {
    const from = bigAll.length > 0 && (restAll.length === 0 || rnd() < bigShare) ? bigAll : restAll;
    return from[Math.floor(rnd() * from.length)];
  };
  return { take, any };
}

function parentOf(path) {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

function inDir(dir, name) {
  return dir === "" ? name : `${dir}/${name}`;
}

/** A spelling of a name that differs only in case, or undefined when it has no cased letter. */
function caseVariant(path) {
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  const flipped = name.toUpperCase() === name ? name.toLowerCase() : name.toUpperCase();
  return flipped === name ? undefined : path.slice(0, slash + 1) + flipped;
}

function contentRow(kind, f, facts, diverge) {
  const { digest, marker, missing } = facts(f);
  if (kind === "unchanged") return `unchanged\t${f.plan}\t${diverge ? ZERO : digest}`;
  if (kind === "contains") return `contains\t${f.plan}\t${diverge ? missing : marker}`;
  return `lacks\t${f.plan}\t${diverge ? marker : missing}`;
}

/**
 * Builds `n` rows. `opts`: mix, `missingParents` (share of holding `absent` rows under a missing
 * parent), `bigShare`, `variants` (some diverging `exists` rows spell a file in another case),
 * `lacksPerFile` (a holding `lacks` row brings up to this many on its file, from `alsoMissing`),
 * `facts(file)` ({ digest, marker, missing, alsoMissing? }), `readable(file)` (may a content row name it),
 * `dirs` and `links` (extra `exists` targets). Returns the TSV, the planted divergence count and
 * the on-disk paths every row must read.
 */
export function buildRows(files, n, rnd, opts) {
  const pick = picker(files, rnd, opts.bigShare ?? 0);
  const rows = [];
  const reads = new Set();
  let diverging = 0;
  let gone = 0;
  for (const [kind, share] of Object.entries(opts.mix)) {
    const count = Math.round(n * share);
    const planted = Math.max(1, Math.round(count / 100));
    for (let k = 0; k < count; k += 1) {
      const diverge = k < planted;
      if (diverge) diverging += 1;
      if (kind === "exists") rows.push(existsRow(pick, rnd, opts, diverge, k, () => (gone += 1)));
      else if (kind === "absent") rows.push(absentRow(pick, rnd, opts, diverge, () => (gone += 1)));
      else {
        const f = pick.take(opts.readable);
        reads.add(f.disk);
        rows.push(contentRow(kind, f, opts.facts, diverge));
        // More `lacks` rows on the same file (a message file checked for several words), each
        // holding: its other missing literals, as many as the shape asks and the count allows.
        const more = kind === "lacks" && !diverge ? (opts.facts(f).alsoMissing ?? []).slice(0, (opts.lacksPerFile ?? 1) - 1) : [];
        for (const literal of more) {
          if (k + 1 >= count) break;
          k += 1;
          rows.push(`lacks\t${f.plan}\t${literal}`);
        }
      }
    }
  }
  shuffle(rows, rnd);
  return { tsv: `# plan-decay benchmark, ${rows.length} rows\n${rows.join("\n")}\n`, rows: rows.length, diverging, reads: [...reads] };
}

function existsRow(pick, rnd, opts, diverge, k, fresh) {
  if (diverge) {
    if (opts.variants && k % 2 === 0) {
      const variant = caseVariant(pick.take((f) => caseVariant(f.plan) !== undefined).plan);
      return `exists\t${variant}`;
    }
    return `exists\t${inDir(parentOf(pick.any().plan), `gone-${fresh()}.ts`)}`;
  }
  const r = rnd();
  if (r < 0.1 && opts.dirs.length > 0) return `exists\t${opts.dirs[Math.floor(rnd() * opts.dirs.length)].plan}/`;
  if (r < 0.13 && opts.links?.length > 0) return `exists\t${opts.links[Math.floor(rnd() * opts.links.length)]}`;
  return `exists\t${pick.take().plan}`;
}

function absentRow(pick, rnd, opts, diverge, fresh) {
  const f = pick.any();
  if (diverge) return `absent\t${f.plan}`;
  const dir = parentOf(f.plan);
  if (rnd() < (opts.missingParents ?? 0.2)) return `absent\t${inDir(dir, `gone-${fresh()}/deeper/x.ts`)}`;
  return `absent\t${inDir(dir, `gone-${fresh()}.ts`)}`;
}
