// GURPS combat tracker: initiative list, active highlight, HP/FP bars coloured by state, defenses
// (base→effective when stun, posture, shield or All-Out Defense change them), badges,
// a maneuver picker and quick buttons, and the next attack's modifier field (modifiers.js). Damage
// updates arrive as small `patch` messages (only the fields that changed); clicks are messages to the
// kernel, which calls the session. No rules here.

// `tone` comes with the row from Python (the saved bar's own tone of this state); its colour is the
// theme's (theme.css), so the live bar and the saved one agree and follow a dark theme.
function bar(kind, value, max, state, tone) {
  const wrap = el("span", `gk-bar gk-${kind} gk-${kind}-${state}`);
  wrap.dataset.state = state;
  const track = el("span", "gk-bar-track");
  const fill = el("span", "gk-bar-fill");
  fill.style.width = `${max > 0 ? Math.max(0, Math.min(100, Math.round((100 * value) / max))) : 0}%`;
  fill.style.background = `var(--gk-${tone || "neutral"})`;
  track.appendChild(fill);
  wrap.appendChild(track);
  wrap.appendChild(el("span", "gk-bar-text", `${value}/${max}`));
  return wrap;
}

function actionButton(cls, text, onClick) {
  const node = el("button", `gk-button ${cls}`, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function select(cls, entries, chosen) {
  const node = el("select", cls);
  for (const [value, text] of entries) {
    const option = el("option", "", text);
    option.value = value;
    if (value === chosen) option.selected = true;
    node.appendChild(option);
  }
  return node;
}

// The weapon picker: the kernel's menu in its order, one <optgroup> per group (weapons, shields,
// natural attacks), each weapon under the label the kernel gives it ("Bite", "Broadsword (Thrust)").
function weaponPicker(menu, groups, chosen) {
  const node = el("select", "gk-weapon-picker");
  let group = null;
  let groupKey = "";
  for (const [value, text, key] of menu) {
    if (!group || key !== groupKey) {
      groupKey = key;
      group = el("optgroup", `gk-weapon-group gk-weapon-group-${key}`);
      group.label = groups[key] || key;
      node.appendChild(group);
    }
    const option = el("option", "", text);
    option.value = value;
    if (value === chosen) option.selected = true;
    group.appendChild(option);
  }
  return node;
}

// The picks belong to one fighter's turn: a new turn starts from that fighter's own defaults (his
// maneuver, an enemy as target, or none), never the previous fighter's (who may be his ally).
function forgetOtherTurns(kept, turn) {
  if (kept.turn === turn) return;
  kept.turn = turn;
  for (const key of ["maneuver", "target", "weapon"]) delete kept[key];
}

// A check due before acting (GURPS-INJ-02 HT to stay conscious, GURPS-FAT-02 Will) is rolled with the
// maneuver the fighter tries: the button names that maneuver, and with Do Nothing (no roll needed) it
// is disabled and says so, so it never commits a maneuver the GM did not pick for this fighter.
function showTriedManeuver(node, text, picker, labels, name) {
  const idle = picker.value === "do_nothing";
  node.textContent = idle ? text : `${text} → ${(labels.maneuvers || {})[picker.value] || picker.value}`;
  node.disabled = idle;
  node.title = idle ? (labels.check_needs_maneuver || "").replace("{name}", name) : "";
}

// Focus `kept.focus` in this view once the old view's focus is gone (the old view may still be on the
// page for a moment while the new one draws).
function giveFocusBack(root, kept, tries = 0) {
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected;
  if (root.isConnected && lost) {
    root.querySelector(`[data-focus="${CSS.escape(kept.focus)}"]`)?.focus();
    return;
  }
  const elsewhere = active && !root.contains(active) && !(active.closest && active.closest(".gk-tracker-widget"));
  if (tries < 40 && !elsewhere) setTimeout(() => giveFocusBack(root, kept, tries + 1), 50);
}

function onEnter(node, action) {
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); action(); }
  });
}

function render({ model, el: root }) {
  let rows = JSON.parse(JSON.stringify(model.get("rows") || {}));
  let seenPatch = 0;
  // What the GM typed or picked: kept on the model (client side only, never saved to the kernel),
  // so it survives redraws and the new views a notebook update creates.
  let kept = model.get("_gk_kept");
  if (!kept) { kept = {}; model.set("_gk_kept", kept); }
  const draw = () => {
    const focused = document.activeElement && root.contains(document.activeElement)
      ? document.activeElement.dataset.focus : "";
    root.replaceChildren();
    const labels = model.get("labels") || {};
    const cols = labels.cols || {};
    const buttons = labels.buttons || {};
    const box = el("div", "gk-tracker gk-tracker-widget");
    const order = model.get("order") || [];
    const active = model.get("active");
    const over = model.get("over");
    const title = (labels.title || "").replace("{round}", model.get("round"));
    box.appendChild(el("div", "gk-tracker-title", title + (over ? ` · ${labels.over || ""}` : "")));
    if (order.length === 0) box.appendChild(el("em", "", labels.none || ""));
    const table = el("table", "gk-tracker-table");
    if (order.length) {
      const head = el("tr", "gk-tracker-head");
      for (const key of ["name", "hp", "fp", "maneuver", "defenses", "status", "actions"]) {
        head.appendChild(el("th", `gk-col-${key}`, cols[key] || key));
      }
      const thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    }
    const body = el("tbody");
    for (const name of order) {
      const row = rows[name];
      if (!row) continue;
      const tr = el("tr", "gk-combatant" + (name === active ? " gk-active" : ""));
      tr.dataset.name = name;
      tr.appendChild(el("td", "gk-name", (name === active ? "▶ " : "") + name));
      const hp = el("td"); hp.appendChild(bar("hp", row.hp, row.hp_max, row.hp_state, row.hp_tone)); tr.appendChild(hp);
      const fp = el("td"); fp.appendChild(bar("fp", row.fp, row.fp_max, row.fp_state, row.fp_tone)); tr.appendChild(fp);
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
      for (const [text, tone] of row.badges) badges.appendChild(el("span", `gk-badge gk-tone-${tone}`, text));
      for (const [condition, text, tone] of row.conditions || []) {  // the GM's own, each with its lift
        const badge = el("span", `gk-badge gk-condition gk-tone-${tone}`, text);
        if (!over) {
          const lift = actionButton("gk-condition-lift", "×", () => model.send({ action: "lift", name, condition }));
          lift.title = (labels.condition_lift || "").replace("{condition}", condition);
          lift.setAttribute("aria-label", lift.title);
          lift.dataset.focus = `lift-${name}-${condition}`;
          badge.appendChild(lift);
        }
        badges.appendChild(badge);
      }
      tr.appendChild(badges);
      const acts = el("td", "gk-row-actions");
      if (!over) {
        const sides = Object.entries(labels.sides || {});
        for (const other of order) {  // a side the GM named is offered to the others too
          const side = rows[other] && rows[other].side;
          if (side && !sides.some(([key]) => key === side)) sides.push([side, side]);
        }
        const sidePicker = select("gk-side-picker", sides, row.side);
        sidePicker.title = labels.side || "";
        sidePicker.dataset.focus = `side-${name}`;
        sidePicker.addEventListener("change", () => model.send({ action: "side", name, side: sidePicker.value }));
        acts.appendChild(sidePicker);
        const leave = actionButton("gk-leave", buttons.leave || "", () => model.send({ action: "leave", name }));
        leave.dataset.focus = `leave-${name}`;
        acts.appendChild(leave);
      }
      tr.appendChild(acts);
      body.appendChild(tr);
    }
    table.appendChild(body);
    box.appendChild(table);

    const controls = el("div", "gk-tracker-controls");
    const current = rows[active];
    const others = order.filter((n) => n !== active);
    forgetOtherTurns(kept, `${model.get("round")}:${active}`);
    if (current && !over) {
      const line = el("div", "gk-tracker-line");
      const picker = select("gk-maneuver-picker", Object.entries(labels.maneuvers || {}),
        kept.maneuver || current.maneuver);
      picker.dataset.focus = "maneuver";
      const optionPicker = el("select", "gk-option-picker");
      optionPicker.dataset.focus = "option";
      const fillOptions = () => {
        optionPicker.replaceChildren();
        const opts = (labels.options || {})[picker.value] || {};
        optionPicker.hidden = Object.keys(opts).length === 0;
        for (const [key, text] of Object.entries(opts)) {
          const option = el("option", "", text);
          option.value = key;
          optionPicker.appendChild(option);
        }
      };
      fillOptions();
      picker.addEventListener("change", () => { kept.maneuver = picker.value; fillOptions(); });
      const picks = model.get("picks") || {};
      const mine = picks.name === active ? picks : {};
      const enemy = mine.target || "";
      const targets = select("gk-target-picker", (enemy ? [] : [["", "—"]]).concat(others.map((n) => [n, n])),
        kept.target ?? enemy);
      targets.dataset.focus = "target";
      targets.title = labels.target || "";
      // The menu comes from the kernel in its order (main weapons, then shields, then natural attacks);
      // the first pick is the one it names for the maneuver picked (the weapon used last, else the best).
      const menu = mine.menu || (current.weapons || []).map((w) => [w, w, "weapon"]);
      const firstPick = () => (mine.best || {})[picker.value] || (mine.best || {}).attack || "";
      const weapons = weaponPicker(menu, labels.groups || {},
        menu.some(([w]) => w === kept.weapon) ? kept.weapon : firstPick());
      weapons.dataset.focus = "weapon";
      weapons.title = labels.weapon || "";
      weapons.addEventListener("change", () => { kept.weapon = weapons.value; });
      picker.addEventListener("change", () => {
        if (!kept.weapon && firstPick()) weapons.value = firstPick();
      });
      const distance = el("input", "gk-range");
      distance.type = "text";
      distance.size = 4;
      distance.title = labels.range || "";
      distance.dataset.focus = "range";
      const showDistance = () => {
        const metres = (mine.ranges || {})[targets.value];
        distance.value = metres === undefined ? "" : String(metres);
      };
      showDistance();
      targets.addEventListener("change", () => { kept.target = targets.value; showDistance(); });
      const sendRange = (text) => {
        if (!targets.value || !String(text).trim()) return;
        model.send({ action: "range", a: active, b: targets.value, distance: String(text).trim() });
      };
      onEnter(distance, () => sendRange(distance.value));
      const closer = actionButton("gk-closer", "−1", () => sendRange("-1"));
      closer.title = labels.closer || "";
      const farther = actionButton("gk-farther", "+1", () => sendRange("+1"));
      farther.title = labels.farther || "";
      const chooseManeuver = () => model.send({
        action: "maneuver", name: active, maneuver: picker.value, option: optionPicker.value || "",
        target: ["feint", "aim"].includes(picker.value) ? targets.value : "",
      });
      const attack = () => model.send({ action: "attack", attacker: active, target: targets.value, weapon: weapons.value });
      onEnter(picker, chooseManeuver);
      onEnter(optionPicker, chooseManeuver);
      onEnter(weapons, attack);
      onEnter(targets, attack);
      const choose = actionButton("gk-choose", buttons.choose || "", chooseManeuver);
      const attackButton = actionButton("gk-attack", buttons.attack || "", attack);
      attackButton.dataset.focus = "attack";
      line.append(picker, optionPicker, choose, weapons, targets, distance, closer, farther, attackButton);
      controls.appendChild(line);
      controls.appendChild(modifierField(model, kept));  // the next attack's modifiers (modifiers.js)
      const due = model.get("due") || {};
      if (due.name === active && (due.checks || []).length) {
        const checks = el("div", "gk-tracker-line gk-due");
        for (const check of due.checks) {
          const text = ((labels.checks || {})[check] || check).replace("{name}", active);
          const node = actionButton(`gk-check gk-check-${check}`, text, chooseManeuver);
          node.dataset.focus = `check-${check}`;
          checks.appendChild(node);
          showTriedManeuver(node, text, picker, labels, active);
          picker.addEventListener("change", () => showTriedManeuver(node, text, picker, labels, active));
        }
        controls.appendChild(checks);
      }
    }
    const after = (model.get("due") || {}).after || [];
    if (over && after.length) {
      const line = el("div", "gk-tracker-line gk-due");
      for (const [name, roll] of after) {
        const text = ((labels.checks || {})[roll] || roll).replace("{name}", name);
        const node = actionButton(`gk-check gk-check-${roll}`, text, () => model.send({ action: roll, name }));
        node.dataset.focus = `${roll}-${name}`;
        line.appendChild(node);
      }
      controls.appendChild(line);
    }
    const offered = model.get("offered") || {};
    if (offered.name) {
      const line = el("div", "gk-tracker-line gk-defense-chooser");
      line.appendChild(el("span", "gk-label", (labels.defend_as || "{name} defends with").replace("{name}", offered.name)));
      // Parry once per weapon ("parry|Axe"); a defense used or not allowed now stays listed, disabled,
      // its rule as the tooltip (GURPS-CMB-46: one parry per turn).
      const entries = (offered.options || []).map(([kind, value, text, weapon]) => [weapon ? `${kind}|${weapon}` : kind,
        text]);
      entries.push(["none", labels.no_defense || ""]);
      const chooser = select("gk-defense-picker", entries, kept.defense);
      for (const [kind, why, text] of offered.refused || []) {
        const option = el("option", "gk-defense-refused", `${text} — ${why}`);
        option.value = `${kind}|refused`;
        option.disabled = true;
        option.title = why;
        chooser.appendChild(option);
      }
      chooser.dataset.focus = "defense";
      chooser.addEventListener("change", () => { kept.defense = chooser.value; });
      const defend = () => {
        const [kind, weapon] = chooser.value.split("|");  // "parry|Axe": a Parry with the Axe
        kept.defense = "";
        model.send({ action: "defend", name: offered.name, kind, ...(weapon ? { weapon } : {}) });
      };
      onEnter(chooser, defend);
      const go = actionButton("gk-defend", buttons.defend || "", defend);
      go.dataset.focus = "defend";
      line.append(chooser, go);
      controls.appendChild(line);
    }
    if (!over && order.length) {
      const line = el("div", "gk-tracker-line gk-damage-box");
      line.appendChild(el("span", "gk-label", labels.damage || ""));
      const victim = select("gk-damage-target", order.map((n) => [n, n]), kept.victim || model.get("last_target"));
      victim.dataset.focus = "victim";
      victim.addEventListener("change", () => { kept.victim = victim.value; });
      const spec = el("input", "gk-damage-spec");
      spec.type = "text";
      spec.placeholder = labels.damage_hint || "2d+1 cut";
      spec.value = kept.spec || "";
      spec.dataset.focus = "spec";
      spec.addEventListener("input", () => { kept.spec = spec.value; });
      const apply = () => {
        if (!spec.value.trim()) return;
        model.send({ action: "damage", name: victim.value, spec: spec.value });
        kept.spec = "";
      };
      onEnter(spec, apply);
      const go = actionButton("gk-damage", buttons.damage || "", apply);
      line.append(victim, spec, go);
      controls.appendChild(line);
      // a condition of the GM's own on a fighter ("Blessed 3s": counted down at the end of his turns)
      const conditionLine = el("div", "gk-tracker-line gk-condition-box");
      conditionLine.appendChild(el("span", "gk-label", labels.condition || ""));
      const bearer = select("gk-condition-target", order.map((n) => [n, n]), kept.bearer || active);
      bearer.dataset.focus = "bearer";
      bearer.addEventListener("change", () => { kept.bearer = bearer.value; });
      const condition = el("input", "gk-condition-spec");
      condition.type = "text";
      condition.maxLength = 200;
      condition.placeholder = labels.condition_hint || "";
      condition.value = kept.condition || "";
      condition.dataset.focus = "condition";
      condition.addEventListener("input", () => { kept.condition = condition.value; });
      const addCondition = () => {
        if (!condition.value.trim()) return;
        model.send({ action: "condition", name: bearer.value, text: condition.value });
        kept.condition = "";
      };
      onEnter(condition, addCondition);
      const addButton = actionButton("gk-condition-add", labels.condition_add || "", addCondition);
      addButton.dataset.focus = "condition-add";
      conditionLine.append(bearer, condition, addButton);
      controls.appendChild(conditionLine);
      const join = el("div", "gk-tracker-line gk-join-box");
      const who = el("input", "gk-join-spec");
      who.type = "text";
      who.placeholder = labels.join_hint || "";
      who.value = kept.join || "";
      who.dataset.focus = "join";
      who.addEventListener("input", () => { kept.join = who.value; });
      const add = () => {
        if (!who.value.trim()) return;
        model.send({ action: "join", spec: who.value });
        kept.join = "";
      };
      onEnter(who, add);
      join.append(who, actionButton("gk-join", buttons.join || "", add));
      const next = actionButton("gk-next", buttons.next || labels.next || "", () => model.send({ action: "next" }));
      next.dataset.focus = "next";
      const end = actionButton("gk-end", buttons.end || "", () => model.send({ action: "end" }));
      end.dataset.focus = "end";
      join.append(next, end);
      controls.appendChild(join);
    }
    box.appendChild(controls);
    const result = model.get("result_html");
    if (result) {
      const panel = el("div", "gk-tracker-results");
      panel.appendChild(el("div", "gk-tracker-subtitle", labels.last_exchange || ""));
      const inner = el("div", "gk-tracker-results-body");
      inner.innerHTML = result;  // drawn and escaped by the kernel's static renderers
      panel.appendChild(inner);
      box.appendChild(panel);
    }
    const last = model.get("last");
    if (last) box.appendChild(el("div", "gk-tracker-last", last));
    const error = model.get("error");
    if (error) box.appendChild(el("div", "gk-error", error));
    root.appendChild(box);
    if (focused) {
      const again = root.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    } else if (kept.focus) {
      giveFocusBack(root, kept);
    }
  };
  // An action re-displays the output (its saved record), so JupyterLab replaces this view by a fresh
  // one: the control the GM used is remembered on the model (`kept.focus`) and focused again there.
  root.addEventListener("focusin", (event) => { kept.focus = event.target.dataset?.focus || ""; });
  root.addEventListener("focusout", (event) => {
    if (event.relatedTarget && !root.contains(event.relatedTarget)) kept.focus = "";
  });
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
  model.on("change:modifiers", () => { modifierTaken(kept); draw(); });
  for (const name of ["order", "round", "active", "pending", "over", "labels", "last", "error", "result_html",
    "offered", "due", "picks", "last_target", "situations"]) {
    model.on(`change:${name}`, draw);
  }
  draw();
  model.send({ action: "resync" });
}

export default withPicture({ render });
