// File contents for the generated benchmark trees: deterministic (seeded), mostly small text
// files, some of 100 KiB to 1 MiB, a few with CRLF, a BOM or NFD text. Each file ends with a
// marker line a `contains` row can look for; its `missing` literal appears nowhere in it.
import { createHash } from "node:crypto";

/** A small seeded PRNG (mulberry32), so every machine generates the same trees. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles in place (Fisher-Yates) with the given PRNG. */
export function shuffle(items, rnd) {
  for (let k = items.length - 1; k > 0; k -= 1) {
    const j = Math.floor(rnd() * (k + 1));
    [items[k], items[j]] = [items[j], items[k]];
  }
  return items;
}

/** The text an `unchanged` row hashes: BOM stripped, CRLF/CR to LF, NFC, as UTF-8. */
export function normalisedText(buffer) {
  let text = buffer.toString("utf8");
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  return text.replace(/\r\n?/g, "\n").normalize("NFC");
}

/** The digest an `unchanged` row needs, computed here independently of the gate. */
export function normalisedDigest(buffer) {
  return createHash("sha256").update(normalisedText(buffer), "utf8").digest("hex");
}

// About `size` bytes of prose lines in a seeded order, a tenth of the files stored NFD.
function proseBody(size, rnd) {
  const lines = [];
  for (let bytes = 0; bytes < size; ) {
    const line = PROSE[Math.floor(rnd() * PROSE.length)];
    lines.push(line);
    bytes += Buffer.byteLength(line);
  }
  const text = lines.join("");
  return rnd() < 0.1 ? text.normalize("NFD") : text;
}

/** Share of files of 100 KiB to 1 MiB. */
export const LARGE_SHARE = 0.005;

const FILLER = "export function helper(x: number): number { return (x * 31 + 7) % 1000003; }\n";

/** The literals of file `i`: one present (its last line), one absent; non-ASCII when `uni`. */
export function literals(i, uni) {
  return uni ? { marker: `café${i} =`, missing: `данные${i}` } : { marker: `value${i} =`, missing: `nowhere${i}` };
}

/**
 * The literals of prose file `i`: its marker (in Cyrillic, on its last line) and words in other
 * scripts it holds in no spelling, nor any confusable one (the prose has no digit).
 */
export function proseLiterals(i) {
  return { marker: `ключ${i} =`, missing: `данные${i}`, alsoMissing: [`ошибка${i}`, `παλιό${i}`, `古い${i}`, `секрет${i}`] };
}

// Lines of prose without a digit: Cyrillic, Greek, Japanese, accented Latin.
const PROSE = [
  "Привет, мир: это пример текста для проверки сообщений.\n",
  "Γειά σου κόσμε, αυτό είναι ένα παράδειγμα κειμένου.\n",
  "こんにちは世界、これはメッセージの確認のための文章です。\n",
  "Ça va très bien, merci beaucoup à tous les élèves.\n",
  "Über die Brücke gehen wir zusammen nach Hause.\n",
];

/**
 * The bytes of file `i`: its size drawn from `rnd` (mostly 300 B to 6 KiB, LARGE_SHARE of them
 * 100 KiB to 1 MiB), with its marker line last. `uni` files hold NFD text in their marker.
 */
export function fileBytes(i, rnd, uni, prose = false) {
  const large = rnd() < LARGE_SHARE;
  const size = large ? 100 * 1024 + Math.floor(rnd() * rnd() * 924 * 1024) : 300 + Math.floor(rnd() * rnd() * 5800);
  const style = rnd();
  const eol = style < 0.05 ? "\r\n" : "\n";
  const { marker } = prose ? proseLiterals(i) : literals(i, uni);
  const last = `export const ${uni ? marker.normalize("NFD") : marker} ${Math.floor(rnd() * 1e9)};${eol}`;
  const body = prose ? proseBody(size, rnd) : FILLER.repeat(Math.max(1, Math.floor(size / FILLER.length)));
  const text = (eol === "\n" ? body : body.replaceAll("\n", eol)) + last;
  const bom = style > 0.98 ? "\uFEFF" : "";
  return { bytes: Buffer.from(bom + text, "utf8"), large };
}
