// A prepared scene (%%scene): the GM's notes as text, each [mark] a button that rolls for the character
// picked above the notes (a mark naming someone rolls for them). A click sends the mark's number and the
// pick; the kernel runs the magic's line (%check / %roll) and sends back each mark's last result, shown
// beside its button. No rules here. el, pressable, memoryOf and keepFocus come from common.js.
function render({ model, el: root }) {
  const box = el("div", "gk-scene gk-widget");
  const head = el("div", "gk-scene-head");
  const notes = el("div", "gk-scene-notes");
  const error = el("div", "gk-scene-error gk-error");
  error.setAttribute("role", "alert");
  box.append(head, error, notes);
  root.replaceChildren(box);
  const memory = memoryOf(model);

  const drawHead = () => {
    const labels = model.get("labels") || {};
    const title = el("span", "gk-scene-title", model.get("title") || "");
    const picker = el("select", "gk-scene-actor");
    picker.dataset.focusId = "actor";
    picker.setAttribute("aria-label", labels.for || "");
    const asWritten = el("option", "", labels.active || "");
    asWritten.value = "";
    picker.appendChild(asWritten);
    for (const name of model.get("characters") || []) {
      const option = el("option", "", name);
      option.value = name;
      picker.appendChild(option);
    }
    picker.value = (model.get("characters") || []).includes(memory.actor) ? memory.actor : "";
    picker.addEventListener("change", () => { memory.actor = picker.value; });
    head.replaceChildren(title, el("span", "gk-label", ` · ${labels.for || ""} `), picker);
  };
  const drawNotes = () => {
    const labels = model.get("labels") || {};
    const results = model.get("results") || {};
    notes.replaceChildren();
    for (const line of model.get("lines") || []) {
      const row = el("div", "gk-scene-line");
      if (!line.length) row.appendChild(el("span", "", "\u00a0"));
      for (const piece of line) {
        if (piece[0] === "text") { row.appendChild(el("span", "", piece[1])); continue; }
        const [, index, text] = piece;
        const node = el("button", "gk-button gk-scene-mark", `[${text}]`);
        node.type = "button";
        node.dataset.mark = String(index);
        node.dataset.focusId = `mark-${index}`;
        node.title = (labels.roll_hint || "").replace("{line}", text);
        node.addEventListener("click", () => model.send({ action: "roll", mark: index, actor: memory.actor || "" }));
        row.appendChild(node);
        const done = results[String(index)];
        if (done) row.appendChild(el("span", "gk-scene-result", ` → ${done} `));
      }
      notes.appendChild(row);
    }
  };
  const drawError = () => {
    const text = model.get("error") || "";
    error.textContent = text;
    error.hidden = !text;
  };
  drawHead();
  drawNotes();
  drawError();
  keepFocus(box, memory);
  model.on("change:characters", drawHead);
  model.on("change:title", drawHead);
  model.on("change:labels", () => { drawHead(); drawNotes(); });
  model.on("change:lines", drawNotes);
  model.on("change:results", drawNotes);
  model.on("change:error", drawError);
}

export default withPicture({ render });
