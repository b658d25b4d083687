// Which object a ref name names, read as git's files backend reads refs: a name is looked for
// under git's rules in order (NAME, refs/NAME, refs/tags/NAME, refs/heads/NAME, refs/remotes/NAME,
// refs/remotes/NAME/HEAD), each as a loose file, else a packed-refs line. A loose ref holds an
// object id (then nothing, or white space and anything) or `ref: TARGET`; anything else is broken,
// and where git warns and looks further, gitTree refuses (a broken one-level name, such as the
// repository's own `config`, is passed over as git passes it over).

import { refName } from "./git-rev.js";

/** Reads a repository file as text; `undefined` when it is missing (or a directory, as git takes it). */
export type ReadRef = (path: string) => Promise<string | undefined>;

const RULES = ["", "refs/", "refs/tags/", "refs/heads/", "refs/remotes/"];
const ID = /^([0-9a-fA-F]{40})(?:\s|$)/;
const SYMREF = /^ref:\s*(\S+)\s*$/;
const PACKED = /^([0-9a-f]{40}) (refs\/\S+)$/;
/** Symbolic refs followed at most this many times (git's SYMREF_MAXDEPTH). */
const MAX_DEPTH = 5;

/** A symbolic ref's target git accepts: a ref name under refs/, or a one-level name in capitals (HEAD, ORIG_HEAD). */
export function symrefTarget(target: string): boolean {
  return refName(target) && !/[~^]/.test(target) && (target.startsWith("refs/") || /^[A-Z_]+$/.test(target));
}

/** The error a broken ref or packed-refs file is refused with. */
export class BrokenRef extends Error {}

function packedRefs(text: string | undefined, file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (text ?? "").split("\n")) {
    if (line === "" || line.startsWith("#") || /^\^[0-9a-f]{40}$/.test(line)) continue;
    const m = PACKED.exec(line);
    if (m?.[1] === undefined || m[2] === undefined) throw new BrokenRef(`${file} has a line git does not read: ${JSON.stringify(line)}`);
    out.set(m[2], m[1]);
  }
  return out;
}

/**
 * The object id the ref `name` (no suffixes) names in the common dir `commondir`, or `undefined`
 * when no ref has that name; a broken ref or packed-refs file rejects with a `BrokenRef` naming it.
 * `exactly`: `name` is a full ref name (a symbolic ref's target), looked up as it is.
 */
export async function lookUpRef(read: ReadRef, commondir: string, name: string, exactly = false): Promise<string | undefined> {
  let packed: Map<string, string> | undefined;
  const exact = async (ref: string, depth: number): Promise<string | undefined> => {
    const text = await read(`${commondir}/${ref}`);
    const broken = (why: string) => new BrokenRef(`the ref ${ref} in ${commondir} is broken: ${why}`);
    if (text === undefined) {
      packed ??= packedRefs(await read(`${commondir}/packed-refs`), `${commondir}/packed-refs`);
      return packed.get(ref);
    }
    const id = ID.exec(text)?.[1];
    if (id !== undefined) return id.toLowerCase();
    const target = SYMREF.exec(text)?.[1];
    if (target === undefined) throw broken(`it holds neither an object id nor "ref: <name>"`);
    if (!symrefTarget(target)) throw broken(`it points at ${JSON.stringify(target)}, which is no ref name`);
    if (depth >= MAX_DEPTH) throw broken(`its symbolic refs go on for more than ${MAX_DEPTH}`);
    return exact(target, depth + 1);
  };
  const candidates = exactly ? [name] : [...RULES.map((r) => r + name), `refs/remotes/${name}/HEAD`];
  for (const ref of candidates) {
    const got = await exact(ref, 0).catch((e: unknown) => {
      if (e instanceof BrokenRef && !ref.includes("/")) return undefined;
      throw e;
    });
    if (got !== undefined) return got;
  }
  return undefined;
}
