import { build } from "esbuild";
for (const p of ["assumptions","contract","evidence","executor"]) {
  try {
    const r = await build({ entryPoints: [`packages/${p}/src/index.ts`], bundle: true, platform: "browser", format: "esm", write: false, metafile: true, logLevel: "silent", tsconfig: "tsconfig.json" });
    const ins = Object.keys(r.metafile.inputs).filter(i => !i.includes("node_modules"));
    console.log(p, "OK", r.outputFiles[0].text.length);
  } catch (e) { console.log(p, "FAIL"); for (const er of e.errors ?? [e]) console.log("  ", er.text, er.location?.file, er.location?.line); }
}
