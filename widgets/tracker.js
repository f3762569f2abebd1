// GURPS combat tracker: initiative list, active highlight, HP/FP bars coloured by state, defenses
// (base→effective when stun, posture, shield or All-Out Defense change them), badges,
// a maneuver picker and quick buttons. Damage updates arrive as small `patch` messages (only the
// fields that changed); clicks are messages to the kernel, which calls the session. No rules here.
const TONES = {
  good: "#3f9b57", great: "#3b82c4", warn: "#d9a21b", bad: "#d9622b", awful: "#b0245a", muted: "#8a8a8a",
};
const HP_TONES = {
  healthy: "good", reeling: "warn", collapse: "bad", dying1: "awful", dying2: "awful", dying3: "awful",
  dying4: "awful", dead: "muted", destroyed: "muted",
};
const FP_TONES = { rested: "great", tired: "warn", collapse: "bad", unconscious: "awful" };

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function bar(kind, value, max, state) {
  const tone = (kind === "hp" ? HP_TONES : FP_TONES)[state] || "good";
  const wrap = el("span", `gk-bar gk-${kind} gk-${kind}-${state}`);
  wrap.dataset.state = state;
  const track = el("span", "gk-bar-track");
  const fill = el("span", "gk-bar-fill");
  fill.style.width = `${max > 0 ? Math.max(0, Math.min(100, Math.round((100 * value) / max))) : 0}%`;
  fill.style.background = TONES[tone];
  track.appendChild(fill);
  wrap.appendChild(track);
  wrap.appendChild(el("span", "gk-bar-text", `${value}/${max}`));
  return wrap;
}

function render({ model, el: root }) {
  let rows = JSON.parse(JSON.stringify(model.get("rows") || {}));
  let seenPatch = 0;
  const draw = () => {
    root.replaceChildren();
    const labels = model.get("labels") || {};
    const box = el("div", "gk-tracker gk-tracker-widget");
    const order = model.get("order") || [];
    const active = model.get("active");
    const title = (labels.title || "Combat · second {round}").replace("{round}", model.get("round"));
    box.appendChild(el("div", "gk-tracker-title", title + (model.get("over") ? ` · ${labels.over || ""}` : "")));
    if (order.length === 0) box.appendChild(el("em", "", labels.none || ""));
    const table = el("table", "gk-tracker-table");
    for (const name of order) {
      const row = rows[name];
      if (!row) continue;
      const tr = el("tr", "gk-combatant" + (name === active ? " gk-active" : ""));
      tr.dataset.name = name;
      tr.appendChild(el("td", "gk-name", (name === active ? "▶ " : "") + name));
      const hp = el("td"); hp.appendChild(bar("hp", row.hp, row.hp_max, row.hp_state)); tr.appendChild(hp);
      const fp = el("td"); fp.appendChild(bar("fp", row.fp, row.fp_max, row.fp_state)); tr.appendChild(fp);
      tr.appendChild(el("td", "gk-maneuver", row.maneuver_label));
      const defenses = el("td", "gk-defenses");
      for (const d of row.defense_values || []) {
        const span = el("span", `gk-defense gk-defense-${d.kind}` + (d.base !== d.value ? " gk-defense-modified" : ""),
          d.text);
        span.dataset.value = d.value;
        if (d.why) span.title = d.why;
        defenses.appendChild(span);
      }
      tr.appendChild(defenses);
      const badges = el("td", "gk-badges");
      for (const [text, tone] of row.badges) {
        const chip = el("span", `gk-badge gk-tone-${tone}`, text);
        badges.appendChild(chip);
      }
      tr.appendChild(badges);
      table.appendChild(tr);
    }
    box.appendChild(table);
    const controls = el("div", "gk-tracker-controls");
    const current = rows[active];
    if (current && !model.get("over")) {
      const picker = el("select", "gk-maneuver-picker");
      for (const [key, text] of Object.entries(labels.maneuvers || {})) {
        const option = el("option", "", text);
        option.value = key;
        if (key === current.maneuver) option.selected = true;
        picker.appendChild(option);
      }
      const optionPicker = el("select", "gk-option-picker");
      const fillOptions = () => {
        optionPicker.replaceChildren();
        const opts = (labels.options || {})[picker.value] || {};
        optionPicker.style.display = Object.keys(opts).length ? "" : "none";
        for (const [key, text] of Object.entries(opts)) {
          const option = el("option", "", text);
          option.value = key;
          optionPicker.appendChild(option);
        }
      };
      fillOptions();
      picker.addEventListener("change", fillOptions);
      const targets = el("select", "gk-target-picker");
      for (const name of order) {
        if (name === active) continue;
        const option = el("option", "", name);
        option.value = name;
        targets.appendChild(option);
      }
      const choose = el("button", "gk-choose", "✓");
      choose.addEventListener("click", () => model.send({
        action: "maneuver", name: active, maneuver: picker.value, option: optionPicker.value || "",
        target: ["feint", "aim"].includes(picker.value) ? targets.value : "",
      }));
      const attack = el("button", "gk-attack", labels.attack || "Attack");
      attack.addEventListener("click", () => model.send({
        action: "attack", attacker: active, target: targets.value, weapon: (current.weapons || [])[0] || "",
      }));
      controls.append(picker, optionPicker, choose, targets, attack);
    }
    const pending = model.get("pending") || {};
    if (pending.target) {
      const defend = el("button", "gk-defend", `${labels.defend || "Defend"}: ${pending.target}`);
      defend.addEventListener("click", () => model.send({ action: "defend", name: pending.target }));
      controls.appendChild(defend);
    }
    const next = el("button", "gk-next", labels.next || "Next turn");
    next.addEventListener("click", () => model.send({ action: "next" }));
    controls.appendChild(next);
    box.appendChild(controls);
    const last = model.get("last");
    if (last) box.appendChild(el("div", "gk-tracker-last", last));
    const error = model.get("error");
    if (error) box.appendChild(el("div", "gk-error", error));
    root.appendChild(box);
  };
  const applyPatch = () => {
    const patch = model.get("patch") || {};
    if (!patch.seq || patch.seq === seenPatch) return;
    seenPatch = patch.seq;
    for (const [name, changes] of Object.entries(patch.rows || {})) {
      if (rows[name]) Object.assign(rows[name], changes);
    }
    draw();
  };
  model.on("change:rows", () => { rows = JSON.parse(JSON.stringify(model.get("rows") || {})); draw(); });
  model.on("change:patch", applyPatch);
  for (const name of ["order", "round", "active", "pending", "over", "labels", "last", "error"]) {
    model.on(`change:${name}`, draw);
  }
  draw();
  model.send({ action: "resync" });
}

export default { render };
