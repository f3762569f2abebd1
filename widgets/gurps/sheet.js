// GURPS character sheet: edit ST/DX/IQ/HT and current HP/FP (Enter, Tab or leaving the box applies
// the edit; the kernel validates and recomputes everything), click a skill or a rollable score to make
// a success roll through the session, with the modifiers of the field above (modifiers.js). The boxes are built once and patched in place, so the edited box
// keeps its focus (and a redrawn view puts it back: common.js keepFocus). No rules here: every number
// is the kernel's. el, pressable, memoryOf and keepFocus come from common.js.
function render({ model, el: root }) {
  const box = el("div", "gk-sheet gk-widget");
  const name = el("div", "gk-sheet-name");
  const total = el("div", "gk-sheet-total");
  const issues = el("div", "gk-sheet-issues");
  const error = el("div", "gk-sheet-error gk-error");
  error.setAttribute("role", "alert");
  const cols = el("div", "gk-sheet-cols");
  const attrs = el("table", "gk-sheet-attrs");
  const editBody = el("tbody", "gk-sheet-edits");
  const derivedBody = el("tbody", "gk-sheet-derived");
  attrs.append(editBody, derivedBody);
  const conditions = el("div", "gk-sheet-conditions");
  const rest = el("div", "gk-sheet-rest");
  const left = el("div", "gk-sheet-left");
  left.append(attrs, conditions);
  cols.append(left, rest);
  const last = el("div", "gk-sheet-last");
  const field = el("div", "gk-sheet-field");
  box.append(name, total, issues, field, error, cols, last);
  root.replaceChildren(box);
  const memory = memoryOf(model);

  // -- the editable boxes: one <input> per key, kept for the widget's life -------------------------
  const inputs = new Map(); // key -> {input, points, max, label}
  const sent = new Map(); // key -> the value last sent and not yet answered (no double send on Enter + blur)
  const valueOf = (key) => {
    for (const row of [...(model.get("attributes") || []), ...(model.get("pools") || [])]) {
      if (row.key === key) return String(row.value);
    }
    return "";
  };
  const commit = (key, input) => {
    const value = input.value.trim();
    if (value === valueOf(key) || value === sent.get(key)) return; // nothing changed: nothing sent, nothing logged
    sent.set(key, value);
    model.send({ action: "set", key, value });
  };
  const editRow = (row, pool) => {
    const labels = model.get("labels") || {};
    const tr = el("tr", (pool ? "gk-pool gk-pool-" : "gk-attr gk-attr-") + row.key);
    const label = el("td", pool ? "gk-pool-label" : "gk-roll gk-attr-label", row.label);
    if (!pool) {
      label.title = labels.roll_hint || "";
      pressable(label, () => model.send({ action: "roll", attribute: row.roll }));
      label.dataset.focusId = "roll:" + row.roll;
    }
    const cell = el("td");
    const input = el("input", pool ? "gk-pool-input" : "gk-attr-input");
    input.type = "text";
    input.inputMode = "numeric";
    input.size = 3;
    input.dataset.key = row.key;
    input.dataset.focusId = "edit:" + row.key;
    input.title = labels.edit_hint || "";
    input.setAttribute("aria-label", row.label);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        commit(row.key, input);
      } else if (event.key === "Escape") {
        input.value = valueOf(row.key);
      }
    });
    input.addEventListener("blur", () => commit(row.key, input));
    cell.appendChild(input);
    const extra = el("td", pool ? "gk-pool-max" : "gk-points");
    tr.append(label, cell, extra);
    editBody.appendChild(tr);
    inputs.set(row.key, { input, extra, label });
  };
  const patchEdits = () => {
    const rows = [...(model.get("attributes") || []).map((r) => [r, false]),
                  ...(model.get("pools") || []).map((r) => [r, true])];
    const keys = rows.map(([r]) => r.key).join(" ");
    if (editBody.dataset.keys !== keys) { // first draw (or another character): build the boxes once
      editBody.replaceChildren();
      inputs.clear();
      for (const [row, pool] of rows) editRow(row, pool);
      editBody.dataset.keys = keys;
    }
    for (const [row, pool] of rows) {
      const { input, extra, label } = inputs.get(row.key);
      label.textContent = row.label;
      input.setAttribute("aria-label", row.label);
      if (input.value !== String(row.value)) input.value = row.value; // patched, never replaced: focus stays
      extra.textContent = pool ? `/ ${row.max}` : `[${row.points}]`;
      sent.delete(row.key);
    }
  };

  // -- everything else is display only and redrawn from the model ---------------------------------
  const drawHead = () => {
    const gm = (model.get("labels") || {}).gm_view; // `%sheet --gm`: the truth, marked as the GM's view
    name.textContent = gm ? `${model.get("character")} · ${gm}` : model.get("character");
    total.textContent = model.get("total");
    total.classList.toggle("gk-sheet-over", Boolean(model.get("over_budget")));
    issues.replaceChildren(...(model.get("issues") || []).map((text) => el("div", "gk-sheet-issue", text)));
  };
  const drawError = () => {
    const text = model.get("error") || "";
    error.textContent = text;
    error.hidden = !text;
    if (text) { // refused: nothing changed, so every box shows the kernel's value again
      sent.clear();
      for (const [key, { input }] of inputs) input.value = valueOf(key);
    }
  };
  const drawDerived = () => {
    derivedBody.replaceChildren();
    for (const d of model.get("derived") || []) {
      const tr = el("tr", "gk-derived gk-derived-" + d.key);
      const label = el("td", d.roll ? "gk-roll" : "", d.label);
      if (d.roll) {
        pressable(label, () => model.send({ action: "roll", attribute: d.roll }));
        label.dataset.focusId = "roll:" + d.roll;
      }
      tr.append(label, el("td", "gk-value", d.value), el("td"));
      derivedBody.appendChild(tr);
    }
  };
  const drawConditions = () => {
    const labels = model.get("labels") || {};
    const list = model.get("conditions") || [];
    conditions.replaceChildren(el("span", "gk-sheet-conditions-label", `${labels.conditions || ""}: `));
    if (!list.length) conditions.appendChild(el("span", "gk-muted", labels.none || ""));
    for (const text of list) conditions.appendChild(el("span", "gk-chip gk-sheet-condition", text));
  };
  const drawRest = () => {
    const labels = model.get("labels") || {};
    rest.replaceChildren();
    const traits = el("table", "gk-sheet-traits");
    traits.appendChild(el("caption", "", labels.traits || ""));
    for (const tr of model.get("traits_rows") || []) {
      const row = el("tr", "gk-trait");
      row.append(el("td", "", tr.name), el("td", "gk-points", `[${tr.points}]`));
      traits.appendChild(row);
    }
    rest.appendChild(traits);

    const skills = el("table", "gk-sheet-skills");
    skills.appendChild(el("caption", "", labels.skills || ""));
    for (const s of model.get("skills") || []) {
      const row = el("tr", "gk-skill");
      row.dataset.skill = s.name;
      const label = el("td", "gk-roll gk-skill-name", s.label);
      label.title = labels.roll_hint || "";
      pressable(label, () => model.send({ action: "roll", skill: s.name }));
      label.dataset.focusId = "skill:" + s.name;
      row.append(label, el("td", "", s.diff), el("td", "gk-skill-level", s.level === null ? "?" : s.level),
                 el("td", "gk-points", `[${s.points}]`));
      skills.appendChild(row);
    }
    rest.appendChild(skills);

    const weapons = model.get("weapons") || [];
    if (weapons.length) {
      const table = el("table", "gk-sheet-weapons");
      const head = el("tr", "gk-weapon-head");
      for (const key of ["weapon", "level", "damage", "reach", "parry"]) head.appendChild(el("th", "", labels[key] || key));
      table.appendChild(head);
      for (const w of weapons) {
        const row = el("tr", "gk-weapon");
        row.dataset.weapon = w.name;
        for (const key of ["name", "level", "damage", "reach", "parry"]) row.appendChild(el("td", "gk-weapon-" + key, w[key]));
        table.appendChild(row);
      }
      rest.appendChild(table);
    }
  };
  // the modifier field (modifiers.js): the next roll's modifiers; redrawn keeping the GM's focus
  const drawField = () => {
    const focused = field.contains(document.activeElement) ? document.activeElement.dataset.focusId : "";
    field.replaceChildren(modifierField(model, memory));
    if (focused) field.querySelector(`[data-focus-id="${CSS.escape(focused)}"]`)?.focus();
  };
  const drawLast = () => {
    const labels = model.get("labels") || {};
    const text = model.get("last");
    last.textContent = text ? `${labels.last || ""}: ${text}` : "";
    last.hidden = !text;
  };

  const drawAll = () => {
    drawHead();
    patchEdits();
    drawDerived();
    drawConditions();
    drawRest();
    drawLast();
    drawField();
    drawError();
  };
  drawAll();
  keepFocus(box, memory);
  const on = (names, fn) => { for (const n of names) model.on(`change:${n}`, fn); };
  on(["character", "total", "over_budget", "issues", "labels"], drawHead);
  on(["attributes", "pools"], patchEdits);
  on(["derived"], drawDerived);
  on(["conditions"], drawConditions);
  on(["traits_rows", "skills", "weapons"], drawRest);
  on(["last"], drawLast);
  on(["situations"], drawField);
  model.on("change:modifiers", () => { modifierTaken(memory); drawField(); });
  on(["error"], drawError);
  on(["labels"], drawAll);
}

export default withPicture({ render });
