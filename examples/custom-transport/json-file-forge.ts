import { readFile, rename, writeFile } from "node:fs/promises";
import { fromAsyncTransport, markerLine, type ForgeAuthor, type ForgeComment, type ForgeTarget, type Transport, type TransportError } from "@decay/evidence";

/** One comment as the JSON file stores it (`author_id` as a decimal string: ids exceed 2^53). */
interface StoredComment {
  id: number;
  repo: string;
  pr: number;
  author_id: string;
  author_login: string;
  body: string;
}

/** The whole forge: every comment on every PR, in one JSON file. */
interface ForgeFile {
  comments: StoredComment[];
}

/** Options for `jsonFileForge`. */
export interface JsonFileForgeOptions {
  /** The JSON file that is the forge; created on the first write. */
  readonly file: string;
  /** Who this transport writes as. */
  readonly author: ForgeAuthor;
  /**
   * Simulates the process dying after the forge applied a create but before the answer
   * arrived: the comment is written, then the call throws.
   */
  readonly crashAfterWrite?: boolean;
}

async function load(file: string): Promise<ForgeFile> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as ForgeFile;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { comments: [] };
    throw e;
  }
}

/** Replaces the forge file atomically (temp file, then rename). */
async function store(file: string, forge: ForgeFile): Promise<void> {
  await writeFile(`${file}.tmp`, `${JSON.stringify(forge, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
}

function toComment(c: StoredComment): ForgeComment {
  const [host, owner, name] = c.repo.split("/");
  const url = `https://${host}/${owner}/${name}/pull/${c.pr}#issuecomment-${c.id}`;
  return { id: c.id, url, repo: c.repo, pr: c.pr, author_id: BigInt(c.author_id), author_login: c.author_login, body: c.body };
}

/** The forge has no such comment: a refusal, never a made-up comment. */
function missing(commentId: number): TransportError {
  return { code: "transport-refused", message: `no comment ${commentId}` };
}

function onPr(c: StoredComment, t: ForgeTarget): boolean {
  return c.repo === t.repo && c.pr === t.pr;
}

/**
 * A `Transport` whose forge is a JSON file on disk: what a host writes for its own forge.
 * Plain async functions; `fromAsyncTransport` turns a throw into a transport failure (an unknown
 * outcome for create and update, so `publish` looks before it ever writes again).
 */
export function jsonFileForge(opts: JsonFileForgeOptions): Transport {
  const { file, author } = opts;
  return fromAsyncTransport({
    currentAuthor: async () => author,
    lookup: async (t) => {
      const prefix = `${markerLine(t.keyHash)}\n`;
      const matches = (await load(file)).comments.filter((c) => onPr(c, t) && c.body.startsWith(prefix)).map(toComment);
      // The whole file was read and nothing else writes it, so the listing is authoritative:
      // no marked comment exists beyond `matches` (publish ignores the foreign ones among them).
      return { complete: true, absence_confirmed: true, matches };
    },
    create: async (t) => {
      const forge = await load(file);
      const id = Math.max(0, ...forge.comments.map((c) => c.id)) + 1;
      forge.comments.push({ id, repo: t.repo, pr: t.pr, author_id: author.id.toString(), author_login: author.login, body: t.body });
      await store(file, forge);
      if (opts.crashAfterWrite === true) throw new Error("simulated crash: the comment was written, the answer never came");
      return id;
    },
    update: async (t) => {
      const forge = await load(file);
      const found = forge.comments.find((c) => c.id === t.commentId && onPr(c, t));
      if (found === undefined) throw missing(t.commentId);
      found.body = t.body;
      await store(file, forge);
      return t.commentId;
    },
    read: async (t) => {
      const found = (await load(file)).comments.find((c) => c.id === t.commentId && onPr(c, t));
      if (found === undefined) throw missing(t.commentId);
      return toComment(found);
    },
  });
}
