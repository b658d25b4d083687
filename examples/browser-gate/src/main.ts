// The page: run the gate, show the verdicts. `document.body.dataset.gate` ends as `done` or `fault`.
import "./buffer-global.js";
import { PLAN, runGate } from "./gate.js";
import { renderReports } from "./render.js";

const trees = document.getElementById("trees") as HTMLElement;
(document.getElementById("plan") as HTMLElement).textContent = PLAN;

runGate().then(
  (checked) => {
    renderReports(trees, checked);
    document.body.dataset["gate"] = "done";
  },
  (e: unknown) => {
    trees.textContent = `fault: ${e instanceof Error ? e.message : String(e)}`;
    document.body.dataset["gate"] = "fault";
  },
);
