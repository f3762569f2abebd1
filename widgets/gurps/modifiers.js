// The modifier field of the GURPS sheet and tracker (gamekernel/gurps/widgets/modifiers.py): type a
// modifier ("-2 dark", Enter) or pick one of the rules' named modifiers; each waits as a chip (× takes
// it off) for the widget's next roll, which names it and clears the field. The kernel reads and bounds
// every entry; a refused one stays typed in the box, the widget's error line says why. No rules here.
// `memory` outlives a redraw (the typed text, what was sent).
function modifierField(model, memory) {
  const labels = (model.get("labels") || {}).field || {};
  const box = el("div", "gk-modifier-field");
  box.appendChild(el("span", "gk-label gk-modifier-title", labels.title || ""));
  const input = el("input", "gk-modifier-input");
  input.type = "text";
  input.size = 18;
  input.maxLength = 120;
  input.placeholder = labels.hint || "";
  input.title = labels.applies || "";
  input.setAttribute("aria-label", `${labels.title || ""}: ${labels.hint || ""}`);
  input.dataset.focus = "modifier";
  input.dataset.focusId = "modifier";
  input.value = memory.modText || "";
  input.addEventListener("input", () => { memory.modText = input.value; });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    memory.modSent = text;
    model.send({ action: "modifier", text });
  });
  const picker = el("select", "gk-situation-picker");
  picker.dataset.focus = "situation";
  picker.dataset.focusId = "situation";
  picker.setAttribute("aria-label", labels.pick || "");
  const first = el("option", "", labels.pick || "");
  first.value = "";
  picker.appendChild(first);
  for (const [group, entries] of model.get("situations") || []) {
    const node = el("optgroup");
    node.label = group;
    for (const [key, text] of entries) {
      const option = el("option", "", text);
      option.value = key;
      node.appendChild(option);
    }
    picker.appendChild(node);
  }
  picker.addEventListener("change", () => {
    if (picker.value) model.send({ action: "situation", key: picker.value });
    picker.value = "";
  });
  const chips = el("span", "gk-modifier-chips");
  const pending = model.get("modifiers") || [];
  if (!pending.length) chips.appendChild(el("span", "gk-muted gk-modifier-none", labels.none || ""));
  pending.forEach(([, text], index) => {
    const chip = el("span", "gk-chip gk-modifier-chip", text);
    const drop = el("button", "gk-button gk-modifier-drop", "×");
    drop.type = "button";
    drop.title = (labels.remove || "").replace("{modifier}", text);
    drop.setAttribute("aria-label", drop.title);
    drop.addEventListener("click", (event) => {
      event.stopPropagation();
      model.send({ action: "unmodify", index });
    });
    chip.appendChild(drop);
    chips.appendChild(chip);
  });
  box.append(input, picker, chips);
  if (pending.length) {
    const clear = el("button", "gk-button gk-modifier-clear", labels.clear || "");
    clear.type = "button";
    clear.addEventListener("click", () => model.send({ action: "clear_modifiers" }));
    box.appendChild(clear);
  }
  return box;
}

// The typed text was taken (the pending list changed after it was sent): the box empties.
function modifierTaken(memory) {
  if (memory.modSent && (memory.modText || "").trim() === memory.modSent) memory.modText = "";
  memory.modSent = "";
}
