// Shared by the sheet, hand and library widgets (prepended to each widget's module by
// gamekernel/widgets/base.py `script`): element helpers and a memory that outlives a view.
// A widget's action re-displays its output (its saved snapshot is updated in place), so JupyterLab
// draws a fresh view; the memory lets that view keep the keyboard focus and the GM's selections.
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// The house rules of a hand or library: one line ("house rules: 2 changed") that opens on the options
// set otherwise than the rules' defaults (the detail on demand, not a wall on the shared screen).
function houseRules(cls, summary, detail) {
  const box = el("details", `${cls} gk-muted`);
  box.append(el("summary", "", summary), el("div", "gk-house-rules", detail || ""));
  return box;
}

// A button of the shared look (common.css `.gk-button`), sending `intent` on click, Enter or Space.
function button(text, cls, intent, model) {
  const node = el("button", "gk-button " + (cls || ""), text);
  node.type = "button";
  node.dataset.focusId = cls || text;
  if (intent) node.addEventListener("click", (event) => { event.stopPropagation(); model.send(intent()); });
  return node;
}

// A focusable element that acts on click, Enter or Space (a label that rolls, a card that taps).
function pressable(node, act) {
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  node.addEventListener("click", act);
  node.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target === node) {
      event.preventDefault();
      act(event);
    }
  });
  return node;
}

// One picture: a drawn view hides its widget's saved picture (the snapshot in its record, the output
// below it: gamekernel/widgets/record.py) by a rule keyed on the widget's own picture id, which names
// no host's classes, so it holds in JupyterLab, Notebook 7, Voila and VS Code alike. The rule lives
// while the view does: a viewer where no view draws keeps the saved picture.
function hideSavedPicture(model) {
  const id = model.get("picture") || "";
  if (!/^[a-z0-9-]+$/.test(id)) return () => {};
  const style = document.createElement("style");
  style.dataset.gkPicture = id;
  style.textContent = `.gk-widget-record[data-gk-picture="${id}"] > .gk-widget-snapshot { display: none; }`;
  document.head.appendChild(style);
  return () => style.remove();
}

// A widget module's default export, its view hiding the saved picture while it is drawn.
function withPicture(widget) {
  return { ...widget, render(context) {
    const undo = hideSavedPicture(context.model);
    const done = widget.render(context);
    const after = (cleanup) => () => { undo(); if (typeof cleanup === "function") cleanup(); };
    return done && typeof done.then === "function" ? done.then(after) : after(done);
  } };
}

const GK_MEMORY = new Map(); // widget key -> {focus: data-focus-id or null, ...selections}

function memoryOf(model) {
  const key = model.get("key") || "";
  if (!GK_MEMORY.has(key)) GK_MEMORY.set(key, { focus: null });
  return GK_MEMORY.get(key);
}

// Remember which control of `box` has the focus; when a fresh view of the same widget replaces an
// old one, put the focus back on the same control (only if the focus was lost with the old view).
function keepFocus(box, memory) {
  box.addEventListener("focusin", (event) => { memory.focus = event.target.dataset?.focusId || null; });
  box.addEventListener("focusout", (event) => {
    if (box.isConnected && !box.contains(event.relatedTarget) && event.relatedTarget) memory.focus = null;
  });
  if (!memory.focus) return;
  let tries = 0;
  const restore = () => {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (box.isConnected && lost) {
      const target = box.querySelector(`[data-focus-id="${CSS.escape(memory.focus)}"]`);
      if (target) target.focus();
      return;
    }
    if (++tries < 60 && (!box.isConnected || (active && active.closest && active.closest(".gk-widget")))) {
      setTimeout(restore, 50);
    }
  };
  setTimeout(restore, 0);
}
