// GURPS character sheet: edit ST/DX/IQ/HT (the kernel recomputes everything), click a skill or a
// rollable score to make a success roll through the session; weapons show level, damage, reach, Parry. No rules here: every number is the kernel's.
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function render({ model, el: root }) {
  const draw = () => {
    root.replaceChildren();
    const labels = model.get("labels") || {};
    const box = el("div", "gk-sheet");
    box.appendChild(el("div", "gk-sheet-name", model.get("character")));
    const total = el("div", "gk-sheet-total" + (model.get("over_budget") ? " gk-sheet-over" : ""), model.get("total"));
    box.appendChild(total);
    for (const issue of model.get("issues") || []) box.appendChild(el("div", "gk-sheet-issue", issue));
    const error = model.get("error");
    if (error) box.appendChild(el("div", "gk-sheet-error", error));

    const cols = el("div", "gk-sheet-cols");
    const attrs = el("table", "gk-sheet-attrs");
    for (const a of model.get("attributes") || []) {
      const tr = el("tr", "gk-attr gk-attr-" + a.key);
      const name = el("td", "gk-roll gk-attr-label", a.label);
      name.title = labels.roll_hint || "";
      name.addEventListener("click", () => model.send({ action: "roll", attribute: a.roll }));
      tr.appendChild(name);
      const cell = el("td");
      const input = el("input", "gk-attr-input");
      input.type = "number";
      input.min = "1";
      input.value = a.value;
      input.dataset.key = a.key;
      input.addEventListener("change", () => model.send({ action: "set", key: a.key, value: Number(input.value) }));
      cell.appendChild(input);
      tr.appendChild(cell);
      tr.appendChild(el("td", "gk-points", `[${a.points}]`));
      attrs.appendChild(tr);
    }
    for (const d of model.get("derived") || []) {
      const tr = el("tr", "gk-derived gk-derived-" + d.key);
      const name = el("td", d.roll ? "gk-roll" : "", d.label);
      if (d.roll) name.addEventListener("click", () => model.send({ action: "roll", attribute: d.roll }));
      tr.appendChild(name);
      tr.appendChild(el("td", "gk-value", d.value));
      tr.appendChild(el("td"));
      attrs.appendChild(tr);
    }
    cols.appendChild(attrs);

    const traits = el("table", "gk-sheet-traits");
    traits.appendChild(el("caption", "", labels.traits || "Traits"));
    for (const tr of model.get("traits_rows") || []) {
      const row = el("tr", "gk-trait");
      row.appendChild(el("td", "", tr.name));
      row.appendChild(el("td", "gk-points", `[${tr.points}]`));
      traits.appendChild(row);
    }
    cols.appendChild(traits);

    const skills = el("table", "gk-sheet-skills");
    skills.appendChild(el("caption", "", labels.skills || "Skills"));
    for (const s of model.get("skills") || []) {
      const row = el("tr", "gk-skill");
      row.dataset.skill = s.name;
      const name = el("td", "gk-roll gk-skill-name", s.label);
      name.title = labels.roll_hint || "";
      name.addEventListener("click", () => model.send({ action: "roll", skill: s.name }));
      row.appendChild(name);
      row.appendChild(el("td", "", s.diff));
      row.appendChild(el("td", "gk-skill-level", s.level === null ? "?" : s.level));
      row.appendChild(el("td", "gk-points", `[${s.points}]`));
      skills.appendChild(row);
    }
    cols.appendChild(skills);

    const weapons = model.get("weapons") || [];
    if (weapons.length) {
      const table = el("table", "gk-sheet-weapons");
      const head = el("tr", "gk-weapon-head");
      for (const key of ["weapon", "level", "damage", "reach", "parry"]) {
        head.appendChild(el("th", "", labels[key] || key));
      }
      table.appendChild(head);
      for (const w of weapons) {
        const row = el("tr", "gk-weapon");
        row.dataset.weapon = w.name;
        row.appendChild(el("td", "gk-weapon-name", w.name));
        row.appendChild(el("td", "gk-weapon-level", w.level));
        row.appendChild(el("td", "gk-weapon-damage", w.damage));
        row.appendChild(el("td", "gk-weapon-reach", w.reach));
        row.appendChild(el("td", "gk-weapon-parry", w.parry));
        table.appendChild(row);
      }
      cols.appendChild(table);
    }
    box.appendChild(cols);
    const last = model.get("last");
    if (last) box.appendChild(el("div", "gk-sheet-last", `${labels.last || "Last roll"}: ${last}`));
    root.appendChild(box);
  };
  draw();
  for (const name of ["character", "attributes", "derived", "traits_rows", "skills", "weapons", "total", "over_budget",
                      "issues", "last", "labels", "error"]) {
    model.on(`change:${name}`, draw);
  }
}

export default { render };
