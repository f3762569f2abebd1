// Odds explorer: draws the controls and tables the kernel computed; moving a control sends an intent.
function control(model, spec) {
  const box = el("label", "gk-x-control gk-x-" + spec.kind);
  box.dataset.name = spec.name;
  box.title = spec.hint;  // the kernel's words, in the current language
  box.append(el("span", "gk-x-label", spec.label));
  const send = (value) => model.send({ action: "set", name: spec.name, value });
  if (spec.kind === "toggle") {
    const input = el("input");
    input.type = "checkbox";
    input.checked = !!spec.value;
    input.addEventListener("change", () => send(input.checked));
    input.dataset.focusId = spec.name;
    input.setAttribute("aria-label", spec.hint);
    box.prepend(input);
    return box;
  }
  const input = el("input");
  input.type = spec.kind === "range" ? "range" : "number";
  input.min = spec.min;
  input.max = spec.max;
  input.step = 1;
  input.value = spec.value;
  input.dataset.focusId = spec.name;
  input.setAttribute("aria-label", spec.hint);
  const shown = el("b", "gk-x-value", spec.value);
  input.addEventListener("input", () => { shown.textContent = input.value; });
  input.addEventListener("change", () => send(Number(input.value)));
  keysStayHere(input);
  input.addEventListener("keydown", (event) => {  // a typed count commits on Enter too
    if (event.key === "Enter") { event.preventDefault(); send(Number(input.value)); }
  });
  box.append(input, shown);
  return box;
}

// Inside JupyterLab the notebook takes arrow keys (cell navigation) and Enter (edit mode) before a
// control sees them: the control keeps its keys (Lumino skips shortcuts under data-lm-suppress-shortcuts).
function keysStayHere(input) {
  input.dataset.lmSuppressShortcuts = "true";
  input.addEventListener("keydown", (event) => {
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown", "Enter"]
      .includes(event.key)) event.stopPropagation();
  });
}

function table(spec) {
  const box = el("div", "gk-x-table");
  box.dataset.id = spec.id;
  box.append(el("div", "gk-x-title", spec.title));
  const grid = el("table");
  const head = el("tr");
  for (const column of spec.columns) head.append(el("th", "", column));
  grid.append(head);
  for (const row of spec.rows) {
    const line = el("tr", row.mark ? "gk-x-mark" : "");
    line.dataset.head = row.head;
    line.append(el("th", "", row.head));
    for (const cell of row.cells) {
      const td = el("td", "gk-x-cell" + (cell.mark ? " gk-x-current" : ""), cell.text);
      td.title = cell.title;
      td.style.background = `hsl(210, 60%, ${Math.round(60 + 40 * (1 - cell.heat))}%)`;
      line.append(td);
    }
    grid.append(line);
  }
  box.append(grid);
  return box;
}

// A move re-displays the widget's output (its saved record), so JupyterLab draws a fresh view: the
// shared memory (common.js) gives the keyboard back to the same control, to keep pressing arrow keys.
function draw(model, root) {
  root.replaceChildren();
  root.classList.add("gk-explore");
  root.dataset.mode = model.get("mode");
  root.append(el("div", "gk-x-summary", model.get("summary")));
  const controls = el("div", "gk-x-controls");
  for (const spec of model.get("controls") || []) controls.append(control(model, spec));
  root.append(controls);
  const tables = el("div", "gk-x-tables");
  for (const spec of model.get("tables") || []) tables.append(table(spec));
  root.append(tables);
  if (model.get("error")) root.append(el("div", "gk-x-error", model.get("error")));
  const memory = memoryOf(model);  // the redraw dropped the focused control: give its key back
  const active = document.activeElement;
  if (memory.focus && root.isConnected && (!active || active === document.body || !active.isConnected)) {
    root.querySelector(`[data-focus-id="${CSS.escape(memory.focus)}"]`)?.focus();
  }
}

export default withPicture({
  render({ model, el: root }) {
    keepFocus(root, memoryOf(model));  // once per view: the listeners stay on the view's root
    const redraw = () => draw(model, root);
    for (const name of ["controls", "tables", "summary", "error"]) model.on("change:" + name, redraw);
    redraw();
  },
});
